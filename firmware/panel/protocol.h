/*
 * The panel protocol core: everything in firmware/PROTOCOL.md that is logic rather than hardware.
 *
 * Plain C99, no I/O, no allocation: the sketch (panel.ino) feeds it received bytes, debounced
 * presses and the time in milliseconds, and it hands back whole lines through an emit callback.
 * The same file compiles with avr-gcc for the ATmega328P and with gcc for the unit tests in
 * firmware/tests/, so the protocol is tested on the host and runs unchanged on the panel.
 */
#ifndef PANEL_PROTOCOL_H
#define PANEL_PROTOCOL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PANEL_PROTOCOL_VERSION "2"
#define PANEL_FIRMWARE_VERSION "0.2.0"

/* Longest body (the text before "*CCCC") and longest line (body, '*', four hex digits). */
#define PANEL_BODY_MAX 48
#define PANEL_LINE_MAX 53

/* One END button and one turn LED per seat; then UNDO SELECT CONFIRM ROLL HINT and GREEN RED. */
#define PANEL_SEATS_MAX 6
#define PANEL_OTHER_BUTTONS 5
#define PANEL_BUTTONS_MAX (PANEL_SEATS_MAX + PANEL_OTHER_BUTTONS)
#define PANEL_LEDS_MAX (PANEL_SEATS_MAX + 2)
#define PANEL_RING_SIZE 16

#define PANEL_DEBOUNCE_MS 10u
#define PANEL_HEARTBEAT_MS 1000u
/* Blinking is 2 Hz: 250 ms on, 250 ms off, in phase with the millisecond clock. */
#define PANEL_BLINK_HALF_PERIOD_MS 250u

/* LED digits of the LEDS command. */
#define PANEL_LED_OFF 0
#define PANEL_LED_ON 1
#define PANEL_LED_BLINK 2

/* Receives one whole line, checksum and '\n' included (length counts them). */
typedef void (*panel_emit_fn)(void *context, const char *line, uint8_t length);
/* The panel's millisecond clock (millis() on the board), read for BEAT lines. */
typedef uint32_t (*panel_clock_fn)(void *context);

/* CRC-16/CCITT-FALSE (polynomial 0x1021, initial 0xFFFF, no reflection, no final XOR). */
uint16_t panel_crc16(const char *bytes, uint8_t length);

/* ---- Line assembly: bytes in, whole lines (or the reason a line was refused) out. ---- */

typedef enum {
    PANEL_READ_PENDING = 0, /* no line finished yet */
    PANEL_READ_LINE,        /* reader->text holds a line of reader->length bytes, no '\n' */
    PANEL_READ_TOOLONG,     /* a line longer than PANEL_LINE_MAX ended and was discarded */
    PANEL_READ_CHARS        /* a line with a byte outside 0x20..0x7E ended and was discarded */
} panel_read_result;

typedef struct {
    char text[PANEL_LINE_MAX + 1]; /* NUL-terminated once a line is complete */
    uint8_t length;
    uint8_t overflow;
    uint8_t bad_char;
    uint8_t pending_return; /* the last byte was '\r' */
} panel_line_reader;

void panel_reader_init(panel_line_reader *reader);
/* Feeds one received byte; '\n' ends the line and a '\r' right before it is ignored (a '\r'
 * anywhere else makes the line bad, as any byte outside 0x20..0x7E does). After PANEL_READ_LINE the
 * caller reads text and length, then calls panel_reader_init before feeding the next byte. */
panel_read_result panel_reader_feed(panel_line_reader *reader, uint8_t byte);

/* ---- Debounce: a press counts once the contact has read closed for PANEL_DEBOUNCE_MS after
 * reading open for PANEL_DEBOUNCE_MS. Fed the time and the raw contact level on every poll. ---- */

typedef struct {
    uint32_t changed_at_ms; /* when the raw level last changed */
    uint8_t raw_closed;     /* last raw reading */
    uint8_t stable_closed;  /* debounced level; starts at the level read at start */
} panel_debouncer;

/* Starts from the contact's level now: a contact closed at start (held through a reset) makes
 * no press until it has been released; an open one counts as soon as it closes for 10 ms. */
void panel_debouncer_init(panel_debouncer *debouncer, uint32_t now_ms, uint8_t closed);
/* Returns 1 exactly when a debounced press happens at this reading, else 0. */
uint8_t panel_debouncer_feed(panel_debouncer *debouncer, uint32_t now_ms, uint8_t closed);

/* ---- The device: handshake, commands, event ring, heartbeat, LED state. ---- */

typedef struct {
    uint32_t time_ms; /* the panel's clock when the contact closed */
    uint16_t number;
    uint8_t button;
} panel_event;

typedef struct {
    panel_emit_fn emit;
    panel_clock_fn clock;
    void *context;
    uint16_t boot_id;
    uint8_t seats;               /* 1..6: END buttons and turn LEDs in this build */
    uint16_t last_event;         /* 0 before the first event; then 1..65535, wrapping to 1 */
    uint8_t kept;                /* events in the ring, at most PANEL_RING_SIZE */
    uint8_t kept_head;           /* ring slot the next event goes to */
    panel_event ring[PANEL_RING_SIZE]; /* the last events, oldest overwritten first */
    uint8_t leds[PANEL_LEDS_MAX];      /* PANEL_LED_OFF, _ON or _BLINK */
    uint32_t last_beat_ms;
    panel_line_reader reader;
    /* The rest of a RESEND answer, sent one line per panel_device_continue call so that a
     * press or a heartbeat never waits for a whole answer. */
    uint16_t gone_oldest;  /* an "ERR GONE" still to send (its number), or 0 */
    uint16_t resend_next;  /* the next event number to resend, or 0 when none is left */
    uint16_t resend_until; /* the last event of the answer: the last made when RESEND came */
    uint8_t beat_owed;     /* the answer's closing BEAT is still to send */
} panel_device;

/* Starts the device after a reset and emits "READY BOOT". seats is clamped to 1..6; clock
 * reads the panel's millisecond clock (for BEAT lines and the heartbeat). */
void panel_device_init(panel_device *device, uint16_t boot_id, uint8_t seats,
                       panel_emit_fn emit, panel_clock_fn clock, void *context);
/* Feeds one received byte; returns 1 when it ended a line, which is then answered (a long
 * answer's first line only: the rest follows through panel_device_continue). */
uint8_t panel_device_receive(panel_device *device, uint8_t byte);
/* Answers one line (without '\n', '\r' already removed); finishes any pending answer first. */
void panel_device_handle_line(panel_device *device, const char *line, uint8_t length);
/* 1 while an answer has lines still to send: the sketch reads no new line until it is 0. */
uint8_t panel_device_busy(const panel_device *device);
/* Sends the next line of the pending answer; returns 1 when it sent one. */
uint8_t panel_device_continue(panel_device *device);
/* Records a debounced press of button index (0-based, END buttons first), made when the
 * contact closed at pressed_at_ms on the panel's clock, and emits its event at once. */
void panel_device_press(panel_device *device, uint8_t button, uint32_t pressed_at_ms);
/* Emits the unprompted heartbeat when PANEL_HEARTBEAT_MS have passed since the last one. */
void panel_device_tick(panel_device *device);
/* 1 when LED index should be lit at now_ms, following the state set by LEDS. */
uint8_t panel_device_led_level(const panel_device *device, uint8_t led, uint32_t now_ms);
/* Every LED's level at once, bit i for LED i: one division for the blink phase instead of one
 * per LED, so the loop can refresh the pins every millisecond cheaply. */
uint8_t panel_device_led_levels(const panel_device *device, uint32_t now_ms);
uint8_t panel_device_button_count(const panel_device *device);
uint8_t panel_device_led_count(const panel_device *device);
/* The protocol name of button index ("END1".."END6", "UNDO", "SELECT", "CONFIRM", "ROLL",
 * "HINT"), or "?". */
const char *panel_device_button_name(const panel_device *device, uint8_t button);

/* Mixes a boot counter and timing jitter into a boot id that differs from previous_id. */
uint16_t panel_boot_id(uint32_t boot_counter, uint32_t jitter, uint16_t previous_id);

#ifdef __cplusplus
}
#endif

#endif /* PANEL_PROTOCOL_H */
