/*
 * What the parts of panel_sim share: the timing constants, the pin map's types, the state that
 * more than one file touches, and the functions they call in one another. Each object is defined
 * in the file named above it; see panel_sim.c for the layout.
 */
#ifndef PANEL_SIM_H
#define PANEL_SIM_H

#include <stddef.h>
#include <stdint.h>

#include <simavr/sim_avr.h>
#include <simavr/sim_irq.h>

#define MCU_NAME "atmega328p"
#define CPU_HZ 16000000u
#define CYCLES_PER_MS (CPU_HZ / 1000u)
/* 115200 baud 8N1: ten bits a byte on the wire. */
#define CYCLES_PER_BYTE (CPU_HZ / 11520u)
#define DEFAULT_TTY "/tmp/companion-simavr-tty"
#define MAX_LAG_US 200000 /* when the host machine stalls longer than this, stop catching up */
#define INPUT_QUEUE 8192
#define LINE_MAX_SEEN 256
#define BOUNCE_STEPS_MAX 12

/* ---- The pin map (the tables are at the top of panel_sim.c) ---- */
typedef struct {
    const char *name;
    char port;
    uint8_t bit;
} pin_t;

/* The tables' lengths; panel_sim.c checks them against the tables when it compiles. */
#define BUTTON_COUNT ((size_t)9)
#define LED_COUNT ((size_t)6)

extern const pin_t BUTTONS[];
extern const pin_t LEDS[];

typedef struct {
    avr_irq_t *irq;
    uint8_t closed;                        /* the level the contact ends at */
    avr_cycle_count_t at[BOUNCE_STEPS_MAX]; /* absolute cycles of each contact change */
    uint8_t level[BOUNCE_STEPS_MAX];        /* pin level after that change (0 = closed) */
    int steps;
    int next;
} button_t;

/* ---- panel_sim.c: the core, the pty, setup ---- */
extern avr_t *avr;
extern int pty_master; /* -1 while unplugged */
extern char pty_name[];
extern const char *tty_link;

double sim_ms(void);
unsigned int next_random(void);
void prepare_core(void);
int open_pty(void);
void unplug(void);

/* ---- sim_uart.c: device -> host lines, host -> device bytes ---- */
extern size_t out_length;
extern int drop_lines;
extern int drop_events;
extern int trace;
extern size_t in_head, in_tail;
extern avr_irq_t *uart_input;

void uart_output_hook(struct avr_irq_t *irq, uint32_t value, void *param);
void uart_xon_hook(struct avr_irq_t *irq, uint32_t value, void *param);
void uart_xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param);
void serve_pty(void);

/* ---- sim_buttons.c: contacts and their bounce ---- */
extern button_t buttons[BUTTON_COUNT];

void drive_pin(const pin_t *pin, avr_irq_t *irq, uint8_t level);
avr_cycle_count_t bounce_step(struct avr_t *core, avr_cycle_count_t when, void *param);
void move_contact(button_t *button, uint8_t closed);
int find_button(const char *name);

/* ---- sim_commands.c: commands on stdin, replies and notices on stdout ---- */
extern avr_cycle_count_t wait_until;

void say(const char *format, ...);
int run_pending_commands(void);
int serve_stdin(void);

#endif
