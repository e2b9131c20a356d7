/*
 * The button contacts of the simulated panel: contact bounce scheduled on simavr's cycle timers,
 * and the pin levels it drives. Part of panel_sim; see panel_sim.c and README.md.
 */
#define _GNU_SOURCE
#include <string.h>
#include <strings.h>

#include <simavr/avr_ioport.h>

#include "sim.h"

button_t buttons[BUTTON_COUNT];
static uint8_t current_level[BUTTON_COUNT]; /* the level each button pin is driven to now */

/* Drives a button pin to level (0 = closed to ground, 1 = open and pulled up).
 * simavr re-derives input pins from the internal pull-up after every write to the port, which
 * would lift a closed contact back to 1 as soon as the firmware touches an LED on the same
 * port; an "external" level (simavr's model of a device holding the line) takes precedence,
 * so every button pin is declared external and its level kept there. */
void drive_pin(const pin_t *pin, avr_irq_t *irq, uint8_t level)
{
    uint8_t mask = 0;
    uint8_t value = 0;
    for (size_t i = 0; i < BUTTON_COUNT; i++) {
        if (BUTTONS[i].port != pin->port) {
            continue;
        }
        uint8_t bit = (uint8_t)(1u << BUTTONS[i].bit);
        mask |= bit;
        uint8_t button_level = &BUTTONS[i] == pin ? level : current_level[i];
        if (button_level) {
            value |= bit;
        }
    }
    current_level[pin - BUTTONS] = level;
    avr_ioport_external_t external = {.name = (unsigned long)pin->port, .mask = mask,
                                      .value = value};
    avr_ioctl(avr, AVR_IOCTL_IOPORT_SET_EXTERNAL(pin->port), &external);
    avr_raise_irq(irq, level);
}

/* Applies every contact change that is due. simavr re-arms a timer at the cycle it returns, and
 * a cycle already past would wrap around to the far future: so changes that fall due together
 * (two chatters in the same microsecond, or a timer that fired an instruction late) are applied
 * in one call, and only a cycle still ahead is returned. */
avr_cycle_count_t bounce_step(struct avr_t *core, avr_cycle_count_t when, void *param)
{
    (void)when;
    button_t *button = param;
    while (button->next < button->steps && button->at[button->next] <= core->cycle) {
        drive_pin(&BUTTONS[button - buttons], button->irq, button->level[button->next]);
        button->next++;
    }
    return button->next < button->steps ? button->at[button->next] : 0;
}

/* Moves a contact to closed or open with realistic bounce: first touch now, then an even
 * number (4 to 8) of chatters over 2 to 5 ms, ending at the new level. */
void move_contact(button_t *button, uint8_t closed)
{
    avr_cycle_timer_cancel(avr, bounce_step, button);
    uint8_t target = closed ? 0 : 1;
    int chatters = 4 + 2 * (int)(next_random() % 3u);
    avr_cycle_count_t span_us = 2000 + next_random() % 3001u;
    avr_cycle_count_t offsets[BOUNCE_STEPS_MAX];
    offsets[0] = 0;
    for (int i = 1; i < chatters; i++) {
        offsets[i] = 1 + next_random() % (span_us - 1);
    }
    offsets[chatters] = span_us;
    for (int i = 1; i < chatters; i++) { /* sort the middle offsets (a few at most) */
        for (int j = i + 1; j < chatters; j++) {
            if (offsets[j] < offsets[i]) {
                avr_cycle_count_t swap = offsets[i];
                offsets[i] = offsets[j];
                offsets[j] = swap;
            }
        }
    }
    button->closed = closed;
    button->steps = chatters + 1;
    button->next = 0;
    for (int i = 0; i < button->steps; i++) {
        button->at[i] = avr->cycle + 1 + offsets[i] * (CPU_HZ / 1000000u);
        button->level[i] = (uint8_t)((i % 2 == 0) ? target : !target);
    }
    avr_cycle_timer_register(avr, 1, bounce_step, button);
}

int find_button(const char *name)
{
    for (size_t i = 0; i < BUTTON_COUNT; i++) {
        if (strcasecmp(name, BUTTONS[i].name) == 0) {
            return (int)i;
        }
    }
    return -1;
}
