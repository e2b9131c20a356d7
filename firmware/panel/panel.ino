/*
 * Coin Table Companion: the button and LED panel (Arduino Uno or Nano, ATmega328P, 16 MHz).
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

/* ======================= Pin map (Uno and Nano numbering) ======================= */
/* Buttons close to ground; the internal pull-ups hold them high when open.           */
/* One "end turn" button per player: delete entries from the end for fewer players.   */
static const uint8_t END_BUTTON_PINS[] = {2, 3, 4, 5}; /* END1 END2 END3 END4 */
static const uint8_t UNDO_PIN = 6;
static const uint8_t SELECT_PIN = 7;
static const uint8_t CONFIRM_PIN = 8;
/* LEDs in the order of the LEDS digits, each to ground through its series resistor.  */
static const uint8_t LED_PINS[PANEL_LED_COUNT] = {9, 10, 11, 12, A0, A1};
/* TURN1 TURN2 TURN3 TURN4 GREEN RED */
/* ================================================================================== */

static const uint8_t END_BUTTONS = sizeof(END_BUTTON_PINS) / sizeof(END_BUTTON_PINS[0]);
static const uint8_t BUTTONS = END_BUTTONS + 3;
static const unsigned long BAUD = 115200;

/* EEPROM bytes 0..3: boot counter; 4..5: the previous boot id. */
static uint32_t *const EEPROM_BOOT_COUNTER = (uint32_t *)0;
static uint16_t *const EEPROM_PREVIOUS_ID = (uint16_t *)4;

static uint8_t button_pins[PANEL_BUTTONS_MAX];
static panel_debouncer debouncers[PANEL_BUTTONS_MAX];
static panel_device device;

/* Buttons are sampled and debounced in a 1 ms interrupt of their own (Timer2 in CTC mode,
 * 16 MHz / 128 / 125; its compare-B vector, as the Arduino core's tone() owns compare-A), so
 * a press counts even while the main loop is busy writing a long answer; the interrupt queues
 * the presses and the loop makes them events, in order. Pins are read straight from their
 * port (Uno and Nano numbering: 0-7 PIND, 8-13 PINB, A0-A5 PINC) to keep the interrupt short. */
static volatile uint8_t pressed_queue[16];
static volatile uint8_t pressed_head;
static volatile uint8_t pressed_tail;
static uint32_t sample_ms;
static volatile uint8_t *button_ports[PANEL_BUTTONS_MAX];
static uint8_t button_masks[PANEL_BUTTONS_MAX];

static volatile uint8_t *input_port(uint8_t pin)
{
    return pin < 8 ? &PIND : (pin < 14 ? &PINB : &PINC);
}

static uint8_t pin_mask(uint8_t pin)
{
    return (uint8_t)(1u << (pin < 8 ? pin : (pin < 14 ? pin - 8 : pin - 14)));
}

ISR(TIMER2_COMPB_vect)
{
    uint32_t now = ++sample_ms;
    for (uint8_t i = 0; i < BUTTONS; i++) {
        uint8_t closed = (*button_ports[i] & button_masks[i]) == 0;
        if (panel_debouncer_feed(&debouncers[i], now, closed)) {
            uint8_t next = (uint8_t)((pressed_head + 1u) % sizeof(pressed_queue));
            if (next != pressed_tail) { /* 16 presses within one loop pass: never in practice */
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

void setup()
{
    for (uint8_t i = 0; i < END_BUTTONS; i++) {
        button_pins[i] = END_BUTTON_PINS[i];
    }
    button_pins[END_BUTTONS] = UNDO_PIN;
    button_pins[END_BUTTONS + 1] = SELECT_PIN;
    button_pins[END_BUTTONS + 2] = CONFIRM_PIN;
    for (uint8_t i = 0; i < BUTTONS; i++) {
        pinMode(button_pins[i], INPUT_PULLUP);
        button_ports[i] = input_port(button_pins[i]);
        button_masks[i] = pin_mask(button_pins[i]);
    }
    for (uint8_t i = 0; i < PANEL_LED_COUNT; i++) {
        pinMode(LED_PINS[i], OUTPUT);
        digitalWrite(LED_PINS[i], LOW);
    }
    uint16_t boot_id = new_boot_id();
    Serial.begin(BAUD);
    uint32_t now = millis();
    for (uint8_t i = 0; i < BUTTONS; i++) {
        panel_debouncer_init(&debouncers[i], sample_ms);
    }
    panel_device_init(&device, boot_id, END_BUTTONS, now, send_to_host, 0);
    start_button_timer();
}

void loop()
{
    while (Serial.available() > 0) {
        panel_device_receive(&device, (uint8_t)Serial.read());
    }
    while (pressed_tail != pressed_head) {
        uint8_t button = pressed_queue[pressed_tail];
        pressed_tail = (uint8_t)((pressed_tail + 1u) % sizeof(pressed_queue));
        panel_device_press(&device, button);
    }
    uint32_t now = millis();
    panel_device_tick(&device, now);
    for (uint8_t i = 0; i < PANEL_LED_COUNT; i++) {
        digitalWrite(LED_PINS[i], panel_device_led_level(&device, i, now) ? HIGH : LOW);
    }
    /* Idle until the next interrupt: a millisecond timer or a received byte. */
    set_sleep_mode(SLEEP_MODE_IDLE);
    sleep_mode();
}
