/*
 * panel_sim: runs the real panel firmware (build/panel.elf) on simavr's ATmega328P at 16 MHz, in
 * real time, with its UART on a pseudo-terminal at a fixed path and its buttons and LEDs driven
 * and read through commands on stdin. See README.md in this folder for the command language.
 *
 * One thread does everything: it runs the AVR one simulated millisecond at a time, waits until
 * the wall clock catches up (so the firmware's 10 ms debounce and 1 s heartbeat behave as on
 * hardware), and meanwhile serves the pty and stdin. Button bounce is scheduled on simavr's
 * cycle timers, so contacts chatter at sub-millisecond times whatever the pacing.
 *
 * The harness is split by concern: this file sets up the core and the pty and runs the main loop;
 * sim_uart.c carries bytes between the UART and the pty, sim_buttons.c bounces the contacts,
 * sim_commands.c reads the commands on stdin and answers on stdout, and sim.h holds what they
 * share.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_eeprom.h>
#include <simavr/avr_ioport.h>
#include <simavr/avr_uart.h>
#include <simavr/sim_elf.h>

#include "sim.h"

/* ---- The pin map; it must match the top of firmware/panel/panel.ino. ---- */
/* BUTTON_COUNT and LED_COUNT in sim.h give the sizes to the other files; the checks below keep
 * them equal to these tables. */
const pin_t BUTTONS[] = {
    {"END1", 'D', 2}, {"END2", 'D', 3}, {"END3", 'D', 4}, {"END4", 'D', 5},
    {"UNDO", 'D', 6}, {"SELECT", 'D', 7}, {"CONFIRM", 'B', 0}, {"ROLL", 'C', 2},
    {"HINT", 'C', 3},
};
_Static_assert(sizeof(BUTTONS) / sizeof(BUTTONS[0]) == BUTTON_COUNT,
               "BUTTON_COUNT in sim.h must match BUTTONS");

const pin_t LEDS[] = {
    {"TURN1", 'B', 1}, {"TURN2", 'B', 2}, {"TURN3", 'B', 3},
    {"TURN4", 'B', 4}, {"GREEN", 'C', 0}, {"RED", 'C', 1},
};
_Static_assert(sizeof(LEDS) / sizeof(LEDS[0]) == LED_COUNT, "LED_COUNT in sim.h must match LEDS");

avr_t *avr;
int pty_master = -1;
static int pty_slave = -1;
char pty_name[128];
const char *tty_link = DEFAULT_TTY;
static double speed = 1.0;
static unsigned int random_state = 1;

static volatile sig_atomic_t stop_requested;

double sim_ms(void)
{
    return (double)avr->cycle / (double)CYCLES_PER_MS;
}

unsigned int next_random(void)
{
    random_state = random_state * 1103515245u + 12345u;
    return (random_state >> 8) & 0xFFFFFFu;
}

/* ---- The core after a reset ---- */

void prepare_core(void)
{
    uint32_t uart_flags = 0; /* no stdio echo, no usleep when the firmware polls the UART */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &uart_flags);
    for (size_t i = 0; i < BUTTON_COUNT; i++) {
        avr_cycle_timer_cancel(avr, bounce_step, &buttons[i]);
        /* A reset clears the pin registers but not simavr's memory of the last level, which
         * would then filter out a repeat of it: so go through the opposite level first. */
        uint8_t level = buttons[i].closed ? 0 : 1;
        avr_raise_irq(buttons[i].irq, (uint32_t)!level);
        drive_pin(&BUTTONS[i], buttons[i].irq, level);
    }
}

static void no_sleep(avr_t *core, avr_cycle_count_t how_long)
{
    (void)core;
    (void)how_long; /* pacing is done by the main loop, not inside simavr */
}

static void seed_eeprom(void)
{
    /* A fresh board has been reset an unknown number of times: start the boot counter and the
     * previous boot id at random, so every run of the harness gets its own boot ids. */
    uint8_t bytes[6];
    for (size_t i = 0; i < sizeof(bytes); i++) {
        bytes[i] = (uint8_t)next_random();
    }
    avr_eeprom_desc_t desc = {.ee = bytes, .offset = 0, .size = sizeof(bytes)};
    avr_ioctl(avr, AVR_IOCTL_EEPROM_SET, &desc);
}

/* ---- The pty ---- */

int open_pty(void)
{
    if (openpty(&pty_master, &pty_slave, pty_name, NULL, NULL) != 0) {
        perror("panel_sim: openpty");
        return 0;
    }
    struct termios settings;
    tcgetattr(pty_slave, &settings);
    cfmakeraw(&settings);
    cfsetispeed(&settings, B115200);
    cfsetospeed(&settings, B115200);
    tcsetattr(pty_slave, TCSANOW, &settings);
    /* We keep the slave open ourselves, so the master never sees a hang-up when a client
     * closes the port, and clients may come and go as with a USB serial adapter. */
    fcntl(pty_master, F_SETFL, fcntl(pty_master, F_GETFL) | O_NONBLOCK);
    struct stat existing;
    if (lstat(tty_link, &existing) == 0) {
        if (!S_ISLNK(existing.st_mode)) {
            fprintf(stderr, "panel_sim: %s exists and is not a symbolic link; remove it\n",
                    tty_link);
            return 0;
        }
        unlink(tty_link);
    }
    if (symlink(pty_name, tty_link) != 0) {
        perror("panel_sim: symlink");
        return 0;
    }
    return 1;
}

static void remove_link(void)
{
    char target[sizeof(pty_name)];
    ssize_t length = readlink(tty_link, target, sizeof(target) - 1);
    if (length > 0) {
        target[length] = '\0';
        if (strcmp(target, pty_name) == 0) {
            unlink(tty_link);
        }
    }
}

/* The USB cable pulled: the port disappears (clients see it hang up) and the board loses power. */
void unplug(void)
{
    remove_link();
    close(pty_master);
    close(pty_slave);
    pty_master = -1;
    pty_slave = -1;
    in_head = in_tail = 0;
    out_length = 0;
}

/* ---- Setup and the main loop ---- */

/* simavr's messages go to stderr, so that stdout carries only our replies; errors only. */
static void log_to_stderr(struct avr_t *core, const int level, const char *format, va_list args)
{
    (void)core;
    if (level <= LOG_ERROR) {
        vfprintf(stderr, format, args);
    }
}

static int load_firmware(const char *path)
{
    avr_global_logger_set(log_to_stderr);
    elf_firmware_t firmware;
    memset(&firmware, 0, sizeof(firmware));
    if (elf_read_firmware(path, &firmware) != 0) {
        fprintf(stderr, "panel_sim: cannot read firmware %s (build it with make -C firmware)\n",
                path);
        return 0;
    }
    strcpy(firmware.mmcu, MCU_NAME);
    firmware.frequency = CPU_HZ;
    avr = avr_make_mcu_by_name(MCU_NAME);
    if (!avr) {
        fprintf(stderr, "panel_sim: simavr has no %s core\n", MCU_NAME);
        return 0;
    }
    avr_init(avr);
    avr_load_firmware(avr, &firmware);
    avr->frequency = CPU_HZ;
    avr->sleep = no_sleep;
    avr->log = 0;
    return 1;
}

static void connect_io(void)
{
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT),
                            uart_output_hook, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON),
                            uart_xon_hook, NULL);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF),
                            uart_xoff_hook, NULL);
    uart_input = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    for (size_t i = 0; i < BUTTON_COUNT; i++) {
        buttons[i].irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ(BUTTONS[i].port),
                                       BUTTONS[i].bit);
        buttons[i].closed = 0;
    }
    prepare_core();
}

static double wall_us(void)
{
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (double)now.tv_sec * 1e6 + (double)now.tv_nsec / 1e3;
}

static void on_signal(int signal_number)
{
    (void)signal_number;
    stop_requested = 1;
}

/* Runs one simulated millisecond; returns 0 when the firmware stopped or crashed. */
static int run_slice(void)
{
    avr_cycle_count_t until = avr->cycle + CYCLES_PER_MS;
    while (avr->cycle < until) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            say("error firmware %s at %.3f ms", state == cpu_Done ? "stopped" : "crashed",
                sim_ms());
            return 0;
        }
    }
    return 1;
}

static int main_loop(void)
{
    double wall_start = wall_us();
    avr_cycle_count_t cycle_start = avr->cycle;
    struct pollfd watched[2] = {{STDIN_FILENO, POLLIN, 0}, {pty_master, POLLIN, 0}};
    while (!stop_requested) {
        if (!run_slice()) {
            return 1;
        }
        double simulated = (double)(avr->cycle - cycle_start) / (CPU_HZ / 1e6);
        double elapsed = (wall_us() - wall_start) * speed;
        double ahead_us = speed > 0 ? simulated - elapsed : 0;
        if (ahead_us < -MAX_LAG_US) { /* the machine stalled: carry on from here */
            wall_start = wall_us();
            cycle_start = avr->cycle;
            ahead_us = 0;
        }
        struct timespec timeout = {0, 0};
        if (ahead_us > 0) {
            timeout.tv_nsec = (long)((ahead_us / speed) * 1000.0);
        }
        if (wait_until && avr->cycle >= wait_until) {
            wait_until = 0;
            say("ok wait %.3f", sim_ms());
            if (!run_pending_commands()) {
                return 0;
            }
        }
        /* While a wait runs, further commands stay unread in stdin until it ends. */
        watched[0].fd = wait_until ? -1 : STDIN_FILENO;
        watched[1].fd = pty_master; /* -1 while unplugged: poll skips it */
        if (ppoll(watched, 2, &timeout, NULL) > 0) {
            if ((watched[0].revents & (POLLIN | POLLHUP | POLLERR)) && !serve_stdin()) {
                return 0;
            }
            if (pty_master >= 0 && (watched[1].revents & POLLIN)) {
                serve_pty();
            }
        }
    }
    return 0;
}

static void usage(void)
{
    fprintf(stderr,
            "usage: panel_sim [--tty PATH] [--speed FACTOR] [--seed N] FIRMWARE.elf\n"
            "  --tty PATH     symbolic link to the pty (default " DEFAULT_TTY ")\n"
            "  --speed F      simulated time per wall time; 1 is real time, 0 as fast as "
            "possible\n"
            "  --seed N       seed for contact bounce and the EEPROM boot counter\n"
            "Commands on stdin: press B, release B, leds, buttons, drop N, dropev N, "
            "trace on|off, reset, unplug, plug, wait MS, time, quit\n");
}

int main(int argc, char **argv)
{
    const char *firmware_path = NULL;
    random_state = (unsigned int)time(NULL) ^ (unsigned int)getpid();
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--tty") == 0 && i + 1 < argc) {
            tty_link = argv[++i];
        } else if (strcmp(argv[i], "--speed") == 0 && i + 1 < argc) {
            speed = atof(argv[++i]);
        } else if (strcmp(argv[i], "--seed") == 0 && i + 1 < argc) {
            random_state = (unsigned int)strtoul(argv[++i], NULL, 10);
        } else if (argv[i][0] != '-' && !firmware_path) {
            firmware_path = argv[i];
        } else {
            usage();
            return 2;
        }
    }
    if (!firmware_path) {
        usage();
        return 2;
    }
    setvbuf(stdout, NULL, _IOLBF, 0);
    signal(SIGTERM, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGPIPE, SIG_IGN);
    if (!load_firmware(firmware_path)) {
        return 1;
    }
    seed_eeprom();
    connect_io();
    if (!open_pty()) {
        return 1;
    }
    fcntl(STDIN_FILENO, F_SETFL, fcntl(STDIN_FILENO, F_GETFL) | O_NONBLOCK);
    say("ready tty=%s pty=%s", tty_link, pty_name);
    int status = main_loop();
    remove_link();
    return status;
}
