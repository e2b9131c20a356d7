/*
 * Coin Table Companion: the button and LED panel: Arduino Uno or Nano (ATmega328P) for up to
 * four seats, Arduino Mega 2560 for up to six; 16 MHz.
 *
 * Speaks firmware/PROTOCOL.md at 115200 baud. All protocol logic is in protocol.c (plain C,
 * unit-tested on the host); this sketch only wires it to the pins, the serial port and the clock.
 * Open this folder in the Arduino IDE and upload, or run `make -C firmware` (see README.md).
 */
#include <Arduino.h>
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/sleep.h>
#include <avr/wdt.h>

#include "protocol.h"

/* ================================ Pin map ================================ */
/* Buttons close to ground; the internal pull-ups hold them high when open. LEDs go to ground
 * through their series resistors. One END button and one turn LED per seat: for fewer seats,
 * delete entries from the end of both lists (they must stay the same length). */
#if defined(__AVR_ATmega2560__)
/* Arduino Mega 2560: six seats. */
static const uint8_t END_BUTTON_PINS[] = {22, 23, 24, 25, 26, 27}; /* END1 .. END6 */
static const uint8_t TURN_LED_PINS[] = {40, 41, 42, 43, 44, 45};   /* TURN1 .. TURN6 */
static const uint8_t OTHER_BUTTON_PINS[PANEL_OTHER_BUTTONS] = {28, 29, 30, 31, 32};
static const uint8_t GREEN_PIN = 46;
static const uint8_t RED_PIN = 47;
#else
/* Arduino Uno or Nano: four seats (the Uno has no free pins for a fifth and sixth pair). */
static const uint8_t END_BUTTON_PINS[] = {2, 3, 4, 5};     /* END1 .. END4 */
static const uint8_t TURN_LED_PINS[] = {9, 10, 11, 12};    /* TURN1 .. TURN4 */
static const uint8_t OTHER_BUTTON_PINS[PANEL_OTHER_BUTTONS] = {6, 7, 8, A2, A3};
static const uint8_t GREEN_PIN = A0;
static const uint8_t RED_PIN = A1;
#endif
/* OTHER_BUTTON_PINS: UNDO SELECT CONFIRM ROLL HINT */
/* ========================================================================= */

static const uint8_t SEATS = sizeof(END_BUTTON_PINS) / sizeof(END_BUTTON_PINS[0]);
static_assert(sizeof(TURN_LED_PINS) == sizeof(END_BUTTON_PINS),
              "one turn LED per END button: the two pin lists must be the same length");
static_assert(sizeof(END_BUTTON_PINS) >= 1 && sizeof(END_BUTTON_PINS) <= PANEL_SEATS_MAX,
              "one to six seats");
static const uint8_t BUTTONS = SEATS + PANEL_OTHER_BUTTONS;
static const uint8_t LEDS = SEATS + 2;
static const unsigned long BAUD = 115200;

/* EEPROM bytes 0..3: boot counter; 4..5: the previous boot id. */
static uint32_t *const EEPROM_BOOT_COUNTER = (uint32_t *)0;
static uint16_t *const EEPROM_PREVIOUS_ID = (uint16_t *)4;

static uint8_t button_pins[PANEL_BUTTONS_MAX];
static uint8_t led_pins[PANEL_LEDS_MAX];
static panel_debouncer debouncers[PANEL_BUTTONS_MAX];
static panel_device device;

/* Buttons are sampled and debounced in a 1 ms interrupt of their own (Timer2 in CTC mode,
 * 16 MHz / 128 / 125; its compare-B vector, as the Arduino core's tone() owns compare-A), so
 * a press counts even while the main loop is busy writing; the interrupt queues each press
 * with the time its contact closed, and the loop makes them events, in order. Pins are read
 * straight from their input register to keep the interrupt short. */
static volatile uint8_t pressed_queue[16];
static volatile uint32_t pressed_at[16];
static volatile uint8_t pressed_head;
static volatile uint8_t pressed_tail;
static uint32_t sample_ms;
static volatile uint8_t *button_ports[PANEL_BUTTONS_MAX];
static uint8_t button_masks[PANEL_BUTTONS_MAX];

ISR(TIMER2_COMPB_vect)
{
    uint32_t now = ++sample_ms;
    for (uint8_t i = 0; i < BUTTONS; i++) {
        uint8_t closed = (*button_ports[i] & button_masks[i]) == 0;
        if (panel_debouncer_feed(&debouncers[i], now, closed)) {
            uint8_t next = (uint8_t)((pressed_head + 1u) % sizeof(pressed_queue));
            if (next != pressed_tail) { /* 16 presses within one loop pass: never in practice */
                /* On the panel's clock (millis), when the contact closed for good. */
                pressed_at[pressed_head] = millis() - (now - debouncers[i].changed_at_ms);
                pressed_queue[pressed_head] = i;
                pressed_head = next;
            }
        }
    }
}

static void start_button_timer(void)
{
    TCCR2A = (uint8_t)(1u << WGM21);
    TCCR2B = (uint8_t)((1u << CS22) | (1u << CS20));
    OCR2A = 124;
    OCR2B = 0;
    TIMSK2 = (uint8_t)(1u << OCIE2B);
}

static volatile uint8_t jitter_samples;
static volatile uint32_t jitter;

/* The watchdog runs from its own 128 kHz RC oscillator, which drifts against the crystal:
 * the low bits of Timer1 (counting crystal cycles) when the watchdog fires are noise. */
ISR(WDT_vect)
{
    jitter = (jitter << 5) ^ (jitter >> 27) ^ TCNT1;
    jitter_samples++;
}

static uint32_t measure_jitter(void)
{
    uint8_t saved_a = TCCR1A;
    uint8_t saved_b = TCCR1B;
    TCCR1A = 0;
    TCCR1B = (uint8_t)(1u << CS10); /* count every crystal cycle */
    jitter_samples = 0;
    /* Interrupt mode only (no reset), every 16 ms; setting WDIE needs no timed sequence. */
    wdt_reset();
    WDTCSR = (uint8_t)(1u << WDIE);
    unsigned long start = millis();
    while (jitter_samples < 4 && millis() - start < 100) {
    }
    wdt_disable();
    TCCR1A = saved_a;
    TCCR1B = saved_b;
    return jitter ^ TCNT1;
}

/* A boot id that differs at every reset: EEPROM boot counter mixed with watchdog jitter. */
static uint16_t new_boot_id(void)
{
    uint32_t counter = eeprom_read_dword(EEPROM_BOOT_COUNTER) + 1u;
    eeprom_update_dword(EEPROM_BOOT_COUNTER, counter);
    uint16_t previous = eeprom_read_word(EEPROM_PREVIOUS_ID);
    uint16_t id = panel_boot_id(counter, measure_jitter(), previous);
    eeprom_update_word(EEPROM_PREVIOUS_ID, id);
    return id;
}

static void send_to_host(void *context, const char *line, uint8_t length)
{
    (void)context;
    Serial.write(line, length);
}

static uint32_t panel_clock(void *context)
{
    (void)context;
    return millis();
}

void setup()
{
    for (uint8_t i = 0; i < SEATS; i++) {
        button_pins[i] = END_BUTTON_PINS[i];
        led_pins[i] = TURN_LED_PINS[i];
    }
    for (uint8_t i = 0; i < PANEL_OTHER_BUTTONS; i++) {
        button_pins[SEATS + i] = OTHER_BUTTON_PINS[i];
    }
    led_pins[SEATS] = GREEN_PIN;
    led_pins[SEATS + 1] = RED_PIN;
    for (uint8_t i = 0; i < BUTTONS; i++) {
        pinMode(button_pins[i], INPUT_PULLUP);
        button_ports[i] = portInputRegister(digitalPinToPort(button_pins[i]));
        button_masks[i] = digitalPinToBitMask(button_pins[i]);
    }
    for (uint8_t i = 0; i < LEDS; i++) {
        pinMode(led_pins[i], OUTPUT);
        digitalWrite(led_pins[i], LOW);
    }
    uint16_t boot_id = new_boot_id();
    Serial.begin(BAUD);
    for (uint8_t i = 0; i < BUTTONS; i++) {
        panel_debouncer_init(&debouncers[i], sample_ms, (*button_ports[i] & button_masks[i]) == 0);
    }
    panel_device_init(&device, boot_id, SEATS, send_to_host, panel_clock, 0);
    start_button_timer();
}

/* Makes the queued presses events, in order: each EV line goes out at once. */
static void report_presses(void)
{
    while (pressed_tail != pressed_head) {
        uint8_t slot = pressed_tail;
        pressed_tail = (uint8_t)((pressed_tail + 1u) % sizeof(pressed_queue));
        panel_device_press(&device, pressed_queue[slot], pressed_at[slot]);
    }
}

/* Sends at most one line of answers: the next line of a long answer, or the answer to the
 * next received line. Returns 1 when it sent one (there may be more to do). */
static uint8_t answer_one_line(void)
{
    if (panel_device_continue(&device)) {
        return 1;
    }
    while (Serial.available() > 0) {
        if (panel_device_receive(&device, (uint8_t)Serial.read())) {
            return 1;
        }
    }
    return 0;
}

static uint32_t leds_refreshed_at;

/* Every pass sends at most one line of answers between looking at the presses and the
 * heartbeat, so an event or a beat waits for one line at most, whatever the host sends. */
void loop()
{
    report_presses();
    panel_device_tick(&device);
    uint8_t more = answer_one_line();
    uint32_t now = millis();
    if (now != leds_refreshed_at) { /* once a millisecond: the pins cost time between lines */
        leds_refreshed_at = now;
        uint8_t levels = panel_device_led_levels(&device, now);
        for (uint8_t i = 0; i < LEDS; i++) {
            digitalWrite(led_pins[i], (levels >> i) & 1u ? HIGH : LOW);
        }
    }
    if (!more) {
        /* Idle until the next interrupt: a millisecond timer or a received byte. */
        set_sleep_mode(SLEEP_MODE_IDLE);
        sleep_mode();
    }
}
