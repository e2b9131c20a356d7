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

#define PANEL_PROTOCOL_VERSION "1"
#define PANEL_FIRMWARE_VERSION "0.1.0"

/* Longest body (the text before "*CC") and longest line (body, '*', two hex digits). */
#define PANEL_BODY_MAX 48
#define PANEL_LINE_MAX 51

#define PANEL_END_BUTTONS_MAX 4
#define PANEL_BUTTONS_MAX (PANEL_END_BUTTONS_MAX + 3)
#define PANEL_LED_COUNT 6
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

/* CRC-8/SMBUS (polynomial 0x07, initial 0x00, no reflection, no final XOR). */
uint8_t panel_crc8(const char *bytes, uint8_t length);

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
    uint8_t stable_closed;  /* debounced level; starts closed so a button held at reset is quiet */
} panel_debouncer;

void panel_debouncer_init(panel_debouncer *debouncer, uint32_t now_ms);
/* Returns 1 exactly when a debounced press happens at this reading, else 0. */
uint8_t panel_debouncer_feed(panel_debouncer *debouncer, uint32_t now_ms, uint8_t closed);

/* ---- The device: handshake, commands, event ring, heartbeat, LED state. ---- */

typedef struct {
    uint16_t number;
    uint8_t button;
} panel_event;

typedef struct {
    panel_emit_fn emit;
    void *context;
    uint16_t boot_id;
    uint8_t end_buttons;         /* 1..4 "end turn" buttons in this build */
    uint16_t last_event;         /* 0 before the first event; then 1..65535, wrapping to 1 */
    uint8_t kept;                /* events in the ring, at most PANEL_RING_SIZE */
    uint8_t kept_head;           /* ring slot the next event goes to */
    panel_event ring[PANEL_RING_SIZE]; /* the last events, oldest overwritten first */
    uint8_t leds[PANEL_LED_COUNT];     /* PANEL_LED_OFF, _ON or _BLINK */
    uint32_t last_beat_ms;
    panel_line_reader reader;
} panel_device;

/* Starts the device after a reset and emits "READY BOOT". end_buttons is clamped to 1..4. */
void panel_device_init(panel_device *device, uint16_t boot_id, uint8_t end_buttons,
                       uint32_t now_ms, panel_emit_fn emit, void *context);
/* Feeds one received byte; answers every finished line. */
void panel_device_receive(panel_device *device, uint8_t byte);
/* Answers one line (without '\n', '\r' already removed, characters already checked). */
void panel_device_handle_line(panel_device *device, const char *line, uint8_t length);
/* Records a debounced press of button index (0-based, end buttons first) and emits its event. */
void panel_device_press(panel_device *device, uint8_t button);
/* Emits the unprompted heartbeat when PANEL_HEARTBEAT_MS have passed since the last one. */
void panel_device_tick(panel_device *device, uint32_t now_ms);
/* 1 when LED index should be lit at now_ms, following the state set by LEDS. */
uint8_t panel_device_led_level(const panel_device *device, uint8_t led, uint32_t now_ms);
uint8_t panel_device_button_count(const panel_device *device);
/* The protocol name of button index ("END1".."END4", "UNDO", "SELECT", "CONFIRM"), or "?". */
const char *panel_device_button_name(const panel_device *device, uint8_t button);

/* Mixes a boot counter and timing jitter into a boot id that differs from previous_id. */
uint16_t panel_boot_id(uint32_t boot_counter, uint32_t jitter, uint16_t previous_id);

#ifdef __cplusplus
}
#endif

#endif /* PANEL_PROTOCOL_H */
