/*
 * panel_sim: runs the real panel firmware (build/panel.elf) on simavr's ATmega328P at 16 MHz, in
 * real time, with its UART on a pseudo-terminal at a fixed path and its buttons and LEDs driven
 * and read through commands on stdin. See README.md in this folder for the command language.
 *
 * One thread does everything: it runs the AVR one simulated millisecond at a time, waits until
 * the wall clock catches up (so the firmware's 10 ms debounce and 1 s heartbeat behave as on
 * hardware), and meanwhile serves the pty and stdin. Button bounce is scheduled on simavr's
 * cycle timers, so contacts chatter at sub-millisecond times whatever the pacing.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
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
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
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

/* ---- The pin map; it must match the top of firmware/panel/panel.ino. ---- */
typedef struct {
    const char *name;
    char port;
    uint8_t bit;
} pin_t;

static const pin_t BUTTONS[] = {
    {"END1", 'D', 2}, {"END2", 'D', 3}, {"END3", 'D', 4}, {"END4", 'D', 5},
    {"UNDO", 'D', 6}, {"SELECT", 'D', 7}, {"CONFIRM", 'B', 0},
};
#define BUTTON_COUNT (sizeof(BUTTONS) / sizeof(BUTTONS[0]))

static const pin_t LEDS[] = {
    {"TURN1", 'B', 1}, {"TURN2", 'B', 2}, {"TURN3", 'B', 3},
    {"TURN4", 'B', 4}, {"GREEN", 'C', 0}, {"RED", 'C', 1},
};
#define LED_COUNT (sizeof(LEDS) / sizeof(LEDS[0]))

typedef struct {
    avr_irq_t *irq;
    uint8_t closed;                        /* the level the contact ends at */
    avr_cycle_count_t at[BOUNCE_STEPS_MAX]; /* absolute cycles of each contact change */
    uint8_t level[BOUNCE_STEPS_MAX];        /* pin level after that change (0 = closed) */
    int steps;
    int next;
} button_t;

static avr_t *avr;
static button_t buttons[BUTTON_COUNT];
static uint8_t current_level[BUTTON_COUNT]; /* the level each button pin is driven to now */
static int pty_master = -1;
static int pty_slave = -1;
static char pty_name[128];
static const char *tty_link = DEFAULT_TTY;
static double speed = 1.0;
static unsigned int random_state = 1;

/* Device -> host: lines are collected so that whole lines can be dropped on command. */
static char out_line[LINE_MAX_SEEN];
static size_t out_length;
static int drop_lines;  /* drop the next N lines of any kind */
static int drop_events; /* drop the next N "EV" lines */
static int trace;       /* announce every device line on stdout */
static avr_cycle_count_t wait_until; /* "wait MS": answer when the simulation reaches this */

/* Host -> device: bytes wait here and enter the UART at the wire's pace. */
static uint8_t in_queue[INPUT_QUEUE];
static size_t in_head, in_tail;
static int uart_xoff;
static int feeding;
static avr_irq_t *uart_input;

static volatile sig_atomic_t stop_requested;

static void say(const char *format, ...)
{
    va_list args;
    va_start(args, format);
    vprintf(format, args);
    va_end(args);
    putchar('\n');
    fflush(stdout);
}

static double sim_ms(void)
{
    return (double)avr->cycle / (double)CYCLES_PER_MS;
}

static unsigned int next_random(void)
{
    random_state = random_state * 1103515245u + 12345u;
    return (random_state >> 8) & 0xFFFFFFu;
}

/* ---- UART ---- */

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

static void uart_output_hook(struct avr_irq_t *irq, uint32_t value, void *param)
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

static void uart_xon_hook(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    (void)param;
    uart_xoff = 0;
}

static void uart_xoff_hook(struct avr_irq_t *irq, uint32_t value, void *param)
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

/* ---- Buttons ---- */

/* Drives a button pin to level (0 = closed to ground, 1 = open and pulled up).
 * simavr re-derives input pins from the internal pull-up after every write to the port, which
 * would lift a closed contact back to 1 as soon as the firmware touches an LED on the same
 * port; an "external" level (simavr's model of a device holding the line) takes precedence,
 * so every button pin is declared external and its level kept there. */
static void drive_pin(const pin_t *pin, avr_irq_t *irq, uint8_t level)
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
static avr_cycle_count_t bounce_step(struct avr_t *core, avr_cycle_count_t when, void *param)
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
static void move_contact(button_t *button, uint8_t closed)
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

static int find_button(const char *name)
{
    for (size_t i = 0; i < BUTTON_COUNT; i++) {
        if (strcasecmp(name, BUTTONS[i].name) == 0) {
            return (int)i;
        }
    }
    return -1;
}

/* ---- Pins and reset ---- */

static uint8_t port_output(char port, uint8_t bit)
{
    avr_ioport_state_t state;
    if (avr_ioctl(avr, AVR_IOCTL_IOPORT_GETSTATE(port), &state) != 0) {
        return 0;
    }
    return (uint8_t)(((state.port & state.ddr) >> bit) & 1u);
}

static void prepare_core(void)
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

/* ---- Commands on stdin ---- */

static int open_pty(void);
static void remove_link(void);

/* The USB cable pulled: the port disappears (clients see it hang up) and the board loses power. */
static void unplug(void)
{
    remove_link();
    close(pty_master);
    close(pty_slave);
    pty_master = -1;
    pty_slave = -1;
    in_head = in_tail = 0;
    out_length = 0;
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
        say("error %s needs a button: END1 END2 END3 END4 UNDO SELECT CONFIRM", verb);
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
static int run_pending_commands(void)
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

static int serve_stdin(void)
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

static void serve_pty(void)
{
    uint8_t chunk[512];
    ssize_t count;
    while ((count = read(pty_master, chunk, sizeof(chunk))) > 0) {
        queue_for_device(chunk, (size_t)count);
    }
}

/* ---- Setup and the main loop ---- */

static int open_pty(void)
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
