/* The few Arduino core functions panel.ino uses, on bare avr-libc (see Arduino.h here). */
#include "Arduino.h"

#include <avr/sleep.h>
#include <util/atomic.h>

static volatile unsigned long milliseconds;

/* Timer0 in CTC mode: 16 MHz / 64 / 250 = one interrupt per millisecond exactly. */
ISR(TIMER0_COMPA_vect)
{
    milliseconds++;
}

unsigned long millis(void)
{
    unsigned long now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = milliseconds; }
    return now;
}

/* Pins 0..7 are PORTD, 8..13 PORTB, 14..19 (A0..A5) PORTC, as on the Uno and Nano. */
static volatile uint8_t *port_register(uint8_t pin)
{
    return pin < 8 ? &PORTD : (pin < 14 ? &PORTB : &PORTC);
}

static volatile uint8_t *ddr_register(uint8_t pin)
{
    return pin < 8 ? &DDRD : (pin < 14 ? &DDRB : &DDRC);
}

static volatile uint8_t *pin_register(uint8_t pin)
{
    return pin < 8 ? &PIND : (pin < 14 ? &PINB : &PINC);
}

static uint8_t pin_mask(uint8_t pin)
{
    return (uint8_t)(1u << (pin < 8 ? pin : (pin < 14 ? pin - 8 : pin - 14)));
}

volatile uint8_t *shim_input_register(uint8_t pin)
{
    return pin_register(pin);
}

uint8_t shim_pin_mask(uint8_t pin)
{
    return pin_mask(pin);
}

void pinMode(uint8_t pin, uint8_t mode)
{
    uint8_t mask = pin_mask(pin);
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE)
    {
        if (mode == OUTPUT) {
            *ddr_register(pin) |= mask;
        } else {
            *ddr_register(pin) &= (uint8_t)~mask;
            if (mode == INPUT_PULLUP) {
                *port_register(pin) |= mask;
            } else {
                *port_register(pin) &= (uint8_t)~mask;
            }
        }
    }
}

void digitalWrite(uint8_t pin, uint8_t level)
{
    uint8_t mask = pin_mask(pin);
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE)
    {
        if (level) {
            *port_register(pin) |= mask;
        } else {
            *port_register(pin) &= (uint8_t)~mask;
        }
    }
}

int digitalRead(uint8_t pin)
{
    return (*pin_register(pin) & pin_mask(pin)) ? HIGH : LOW;
}

/* ---- Serial ---- */

#define RX_BUFFER_SIZE 64
static volatile uint8_t rx_buffer[RX_BUFFER_SIZE];
static volatile uint8_t rx_head;
static volatile uint8_t rx_tail;

ISR(USART_RX_vect)
{
    uint8_t byte = UDR0;
    uint8_t next = (uint8_t)((rx_head + 1u) % RX_BUFFER_SIZE);
    if (next != rx_tail) { /* a full buffer drops the byte, as the Arduino core does */
        rx_buffer[rx_head] = byte;
        rx_head = next;
    }
}

ShimSerial Serial;

void ShimSerial::begin(unsigned long baud)
{
    /* Double speed, as the Arduino core does: 115200 baud is UBRR 16 (2.1% fast). The
     * double-speed bit goes first, as in the Arduino core: the hardware does not mind the
     * order, but simavr fixes the byte time when the baud register is written, and with the
     * bit set afterwards it sent a byte in 187 us instead of 87 us. */
    UCSR0A = (uint8_t)(1u << U2X0);
    uint16_t setting = (uint16_t)((F_CPU / 8UL + baud / 2UL) / baud - 1UL);
    UBRR0H = (uint8_t)(setting >> 8);
    UBRR0L = (uint8_t)setting;
    UCSR0C = (uint8_t)((1u << UCSZ01) | (1u << UCSZ00));
    UCSR0B = (uint8_t)((1u << RXEN0) | (1u << TXEN0) | (1u << RXCIE0));
}

int ShimSerial::available(void)
{
    return (int)((RX_BUFFER_SIZE + rx_head - rx_tail) % RX_BUFFER_SIZE);
}

int ShimSerial::read(void)
{
    if (rx_head == rx_tail) {
        return -1;
    }
    uint8_t byte = rx_buffer[rx_tail];
    rx_tail = (uint8_t)((rx_tail + 1u) % RX_BUFFER_SIZE);
    return byte;
}

size_t ShimSerial::write(uint8_t byte)
{
    while (!(UCSR0A & (1u << UDRE0))) {
    }
    UDR0 = byte;
    return 1;
}

size_t ShimSerial::write(const char *bytes, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        write((uint8_t)bytes[i]);
    }
    return length;
}

int main(void)
{
    TCCR0A = (uint8_t)(1u << WGM01);
    TCCR0B = (uint8_t)((1u << CS01) | (1u << CS00));
    OCR0A = 249;
    TIMSK0 = (uint8_t)(1u << OCIE0A);
    sei();
    setup();
    for (;;) {
        loop();
    }
}
