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
    }
    for (uint8_t i = 0; i < PANEL_LED_COUNT; i++) {
        pinMode(LED_PINS[i], OUTPUT);
        digitalWrite(LED_PINS[i], LOW);
    }
    uint16_t boot_id = new_boot_id();
    Serial.begin(BAUD);
    uint32_t now = millis();
    for (uint8_t i = 0; i < BUTTONS; i++) {
        panel_debouncer_init(&debouncers[i], now);
    }
    panel_device_init(&device, boot_id, END_BUTTONS, now, send_to_host, 0);
}

void loop()
{
    while (Serial.available() > 0) {
        panel_device_receive(&device, (uint8_t)Serial.read());
    }
    uint32_t now = millis();
    for (uint8_t i = 0; i < BUTTONS; i++) {
        uint8_t closed = digitalRead(button_pins[i]) == LOW;
        if (panel_debouncer_feed(&debouncers[i], now, closed)) {
            panel_device_press(&device, i);
        }
    }
    panel_device_tick(&device, now);
    for (uint8_t i = 0; i < PANEL_LED_COUNT; i++) {
        digitalWrite(LED_PINS[i], panel_device_led_level(&device, i, now) ? HIGH : LOW);
    }
    /* Idle until the next interrupt: the millisecond timer or a received byte. */
    set_sleep_mode(SLEEP_MODE_IDLE);
    sleep_mode();
}
