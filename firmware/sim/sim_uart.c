/*
 * The UART of the simulated AVR: lines the firmware sends go to the pty (or are dropped on
 * command), and bytes the host writes to the pty wait in a queue and enter the UART at the wire's
 * pace. Part of panel_sim; see panel_sim.c and README.md.
 */
#define _GNU_SOURCE
#include <string.h>
#include <unistd.h>

#include <simavr/avr_uart.h>

#include "sim.h"

/* Device -> host: lines are collected so that whole lines can be dropped on command. */
static char out_line[LINE_MAX_SEEN];
size_t out_length;
int drop_lines;  /* drop the next N lines of any kind */
int drop_events; /* drop the next N "EV" lines */
int trace;       /* announce every device line on stdout */

/* Host -> device: bytes wait here and enter the UART at the wire's pace. */
static uint8_t in_queue[INPUT_QUEUE];
size_t in_head, in_tail;
static int uart_xoff;
static int feeding;
avr_irq_t *uart_input;

static void write_to_host(const char *bytes, size_t length)
{
    while (length > 0 && pty_master >= 0) { /* unplugged: the bytes go nowhere */
        ssize_t written = write(pty_master, bytes, length);
        if (written <= 0) {
            return; /* nobody reading and the pty is full: the bytes are lost, as on a wire */
        }
        bytes += written;
        length -= (size_t)written;
    }
}

static void finish_device_line(void)
{
    int is_event = out_length >= 3 && memcmp(out_line, "EV ", 3) == 0;
    char shown[LINE_MAX_SEEN];
    size_t shown_length = out_length > 0 && out_line[out_length - 1] == '\n' ? out_length - 1
                                                                           : out_length;
    memcpy(shown, out_line, shown_length);
    shown[shown_length] = '\0';
    if (drop_lines > 0 || (is_event && drop_events > 0)) {
        if (drop_lines > 0) {
            drop_lines--;
        } else {
            drop_events--;
        }
        say("dropped %s", shown);
    } else {
        write_to_host(out_line, out_length);
        if (trace) {
            say("tx %.3f %s", sim_ms(), shown);
        }
    }
    out_length = 0;
}

void uart_output_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    if (out_length < LINE_MAX_SEEN - 1) {
        out_line[out_length++] = (char)value;
    }
    if ((char)value == '\n' || out_length == LINE_MAX_SEEN - 1) {
        finish_device_line();
    }
}

void uart_xon_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xoff = 0;
}

void uart_xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xoff = 1;
}

static avr_cycle_count_t feed_uart(struct avr_t *core, avr_cycle_count_t when, void *param)
{
    (void)core;
    (void)param;
    if (in_head == in_tail) {
        feeding = 0;
        return 0;
    }
    if (!uart_xoff) {
        avr_raise_irq(uart_input, in_queue[in_tail]);
        in_tail = (in_tail + 1) % INPUT_QUEUE;
    }
    return when + CYCLES_PER_BYTE;
}

static void queue_for_device(const uint8_t *bytes, size_t length)
{
    for (size_t i = 0; i < length; i++) {
        size_t next = (in_head + 1) % INPUT_QUEUE;
        if (next == in_tail) {
            break; /* overrun: the host sent far more than the wire carries */
        }
        in_queue[in_head] = bytes[i];
        in_head = next;
    }
    if (!feeding && in_head != in_tail) {
        feeding = 1;
        avr_cycle_timer_register(avr, CYCLES_PER_BYTE, feed_uart, NULL);
    }
}

void serve_pty(void)
{
    uint8_t chunk[512];
    ssize_t count;
    while ((count = read(pty_master, chunk, sizeof(chunk))) > 0) {
        queue_for_device(chunk, (size_t)count);
    }
}
