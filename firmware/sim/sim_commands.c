/*
 * The command language on stdin and the replies and notices on stdout. Part of panel_sim; see
 * panel_sim.c, and README.md for the commands.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <simavr/avr_ioport.h>

#include "sim.h"

avr_cycle_count_t wait_until; /* "wait MS": answer when the simulation reaches this */

/* ---- Replies and notices ---- */

void say(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

/* ---- Commands on stdin ---- */

static uint8_t port_output(char port, uint8_t bit)
{
    avr_ioport_state_t state;
    if (avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE(port), &state) != 0) {
        return 0;
    }
    return (uint8_t)(((state.port & state.ddr) >> bit) & 1u);
}

static void print_leds(void)
{
    char levels[LED_COUNT + 1];
    for (size_t i = 0; i < LED_COUNT; i++) {
        levels[i] = port_output(LEDS[i].port, LEDS[i].bit) ? '1' : '0';
    }
    levels[LED_COUNT] = '\0';
    say("leds %s", levels);
}

static void print_buttons(void)
{
    char contacts[BUTTON_COUNT + 1];
    for (size_t i = 0; i < BUTTON_COUNT; i++) {
        contacts[i] = buttons[i].closed ? '1' : '0';
    }
    contacts[BUTTON_COUNT] = '\0';
    say("buttons %s", contacts);
}

/* The raw port registers, for finding out why a pin does not do what it should. */
static void print_pins(void)
{
    char text[160];
    size_t used = 0;
    for (char port = 'B'; port <= 'D'; port++) {
        avr_ioport_state_t state;
        if (avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE(port), &state) == 0) {
            used += (size_t)snprintf(text + used, sizeof(text) - used,
                                     " %c port=%02X ddr=%02X pin=%02X", port,
                                     (unsigned)state.port, (unsigned)state.ddr,
                                     (unsigned)state.pin);
        }
    }
    say("pins%s", text);
}

static void command_contact(const char *verb, const char *name, uint8_t closed)
{
    int index = name ? find_button(name) : -1;
    if (index < 0) {
        say("error %s needs a button: END1 END2 END3 END4 UNDO SELECT CONFIRM ROLL HINT", verb);
        return;
    }
    move_contact(&buttons[index], closed);
    say("ok %s %s at=%.3f changes=%d", verb, BUTTONS[index].name, sim_ms(), buttons[index].steps);
}

static int command_count(const char *verb, const char *argument, int *count)
{
    char *end = NULL;
    long value = argument ? strtol(argument, &end, 10) : -1;
    if (!argument || *end != '\0' || value < 0 || value > 1000000) {
        say("error %s needs a count", verb);
        return 0;
    }
    *count = (int)value;
    say("ok %s %d", verb, *count);
    return 1;
}

static int run_command(char *line)
{
    char *verb = strtok(line, " \t\r");
    char *argument = strtok(NULL, " \t\r");
    if (!verb) {
        return 1;
    }
    for (char *c = verb; *c; c++) {
        *c = (char)tolower((unsigned char)*c);
    }
    if (strcmp(verb, "press") == 0) {
        command_contact("press", argument, 1);
    } else if (strcmp(verb, "release") == 0) {
        command_contact("release", argument, 0);
    } else if (strcmp(verb, "leds") == 0) {
        print_leds();
    } else if (strcmp(verb, "buttons") == 0) {
        print_buttons();
    } else if (strcmp(verb, "pins") == 0) {
        print_pins();
    } else if (strcmp(verb, "drop") == 0) {
        command_count("drop", argument, &drop_lines);
    } else if (strcmp(verb, "dropev") == 0) {
        command_count("dropev", argument, &drop_events);
    } else if (strcmp(verb, "trace") == 0) {
        trace = argument && strcmp(argument, "off") != 0;
        say("ok trace %s", trace ? "on" : "off");
    } else if (strcmp(verb, "reset") == 0) {
        avr_reset(avr);
        out_length = 0;
        prepare_core();
        say("ok reset %.3f", sim_ms());
    } else if (strcmp(verb, "wait") == 0) {
        char *end = NULL;
        double milliseconds = argument ? strtod(argument, &end) : -1;
        if (!argument || *end != '\0' || milliseconds < 0 || milliseconds > 600000) {
            say("error wait needs milliseconds");
        } else {
            wait_until = avr->cycle + (avr_cycle_count_t)(milliseconds * CYCLES_PER_MS);
        }
    } else if (strcmp(verb, "unplug") == 0) {
        if (pty_master >= 0) {
            unplug();
        }
        say("ok unplug %.3f", sim_ms());
    } else if (strcmp(verb, "plug") == 0) {
        if (pty_master < 0) {
            if (!open_pty()) {
                say("error plug could not make a new pty");
                return 1;
            }
            avr_reset(avr); /* power comes back with the cable */
            prepare_core();
        }
        say("ok plug %.3f tty=%s pty=%s", sim_ms(), tty_link, pty_name);
    } else if (strcmp(verb, "time") == 0) {
        say("time %.3f", sim_ms());
    } else if (strcmp(verb, "quit") == 0) {
        say("ok quit");
        return 0;
    } else {
        say("error unknown command %s (press, release, leds, buttons, pins, drop, dropev, trace, "
            "reset, unplug, plug, wait, time, quit)",
            verb);
    }
    return 1;
}

static char stdin_buffer[4096];
static size_t stdin_length;
static int stdin_closed;

/* Runs the complete command lines waiting in stdin_buffer, stopping while a "wait" runs.
 * Returns 0 when the harness should stop (quit, or end of input with nothing left to do). */
int run_pending_commands(void)
{
    while (!wait_until) {
        char *newline = memchr(stdin_buffer, '\n', stdin_length);
        if (!newline) {
            return !stdin_closed;
        }
        *newline = '\0';
        int keep_running = run_command(stdin_buffer);
        size_t used = (size_t)(newline - stdin_buffer) + 1;
        memmove(stdin_buffer, newline + 1, stdin_length - used);
        stdin_length -= used;
        if (!keep_running) {
            return 0;
        }
    }
    return 1;
}

int serve_stdin(void)
{
    if (stdin_length == sizeof(stdin_buffer)) {
        stdin_length = 0; /* a line longer than the buffer: drop it */
    }
    ssize_t count = read(STDIN_FILENO, stdin_buffer + stdin_length,
                         sizeof(stdin_buffer) - stdin_length);
    if (count == 0) {
        stdin_closed = 1;
    } else if (count > 0) {
        stdin_length += (size_t)count;
    } else if (errno != EAGAIN && errno != EINTR) {
        stdin_closed = 1;
    }
    return run_pending_commands();
}
