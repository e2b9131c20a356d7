/*
 * A tiny stand-in for the Arduino core, so that `make -C firmware` builds panel.ino with nothing
 * but gcc-avr and avr-libc (the Arduino IDE uses its own core instead and never sees this file).
 * It provides only what the sketch uses, for the ATmega328P (Uno, Nano) at 16 MHz: digital pins
 * 0..19 with the Uno numbering, millis() from Timer0, Serial on USART0 and main() calling
 * setup() and loop().
 */
#ifndef PANEL_ARDUINO_SHIM_H
#define PANEL_ARDUINO_SHIM_H

#include <avr/interrupt.h>
#include <avr/io.h>
#include <stddef.h>
#include <stdint.h>

#define HIGH 1
#define LOW 0
#define INPUT 0
#define OUTPUT 1
#define INPUT_PULLUP 2

#define A0 14
#define A1 15
#define A2 16
#define A3 17
#define A4 18
#define A5 19

/* The Arduino core's way to reach a pin's input register and bit (the port number is the pin
 * itself here). */
#define digitalPinToPort(pin) (pin)
#define portInputRegister(port) shim_input_register(port)
#define digitalPinToBitMask(pin) shim_pin_mask(pin)
volatile uint8_t *shim_input_register(uint8_t pin);
uint8_t shim_pin_mask(uint8_t pin);

void pinMode(uint8_t pin, uint8_t mode);
void digitalWrite(uint8_t pin, uint8_t level);
int digitalRead(uint8_t pin);
unsigned long millis(void);

/* Serial on USART0: interrupt-driven receive (64-byte buffer), blocking transmit. */
class ShimSerial {
public:
    void begin(unsigned long baud);
    int available(void);
    int read(void);
    size_t write(uint8_t byte);
    size_t write(const char *bytes, size_t length);
};

extern ShimSerial Serial;

void setup(void);
void loop(void);

#endif
