/*
 * Unit tests of the panel protocol core (firmware/panel/protocol.c), run on the host:
 * `make -C firmware test`. Expected answers follow firmware/PROTOCOL.md.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "protocol.h"
#include "test_runner.h"

/* ---- A device whose emitted lines are collected ---- */

typedef struct {
    char lines[8192]; /* every emitted line as sent, checksums included */
    char bodies[8192]; /* the bodies only, joined by '|' */
    int count;
    int bad; /* lines whose checksum, end or length is wrong */
} capture_t;

static capture_t captured;
static int storing = 1; /* off while pressing thousands of times */

static void capture(void *context, const char *line, uint8_t length)
{
    (void)context;
    captured.count++;
    if (!storing || strlen(captured.lines) + length + 1 > sizeof(captured.lines)) {
        return;
    }
    strncat(captured.lines, line, length);
    if (length < 6 || length > PANEL_LINE_MAX + 1 || line[length - 1] != '\n' ||
        line[length - 6] != '*') {
        captured.bad++;
        return;
    }
    char expected[5];
    snprintf(expected, sizeof(expected), "%04X", panel_crc16(line, (uint8_t)(length - 6)));
    if (memcmp(expected, line + length - 5, 4) != 0) {
        captured.bad++;
    }
    if (captured.bodies[0] != '\0') {
        strcat(captured.bodies, "|");
    }
    strncat(captured.bodies, line, (size_t)(length - 6));
}

static uint32_t fake_now; /* the panel's clock in these tests */

static uint32_t fake_clock(void *context)
{
    (void)context;
    return fake_now;
}

static void clear(void)
{
    memset(&captured, 0, sizeof(captured));
}

static panel_device device;

static void start(uint8_t seats)
{
    fake_now = 0;
    panel_device_init(&device, 0x3FA2, seats, capture, fake_clock, NULL);
    clear();
}

/* Sends the rest of a pending answer, as the sketch's loop does between its other work. */
static void finish_answer(void)
{
    while (panel_device_continue(&device)) {
    }
}

/* Feeds a whole line byte by byte, as the UART would, and lets the answer go out. */
static const char *feed(const char *text)
{
    clear();
    for (const char *c = text; *c; c++) {
        panel_device_receive(&device, (uint8_t)*c);
    }
    finish_answer();
    return captured.bodies;
}

static void with_checksum(char *line, size_t size, const char *body)
{
    snprintf(line, size, "%s*%04X\n", body, panel_crc16(body, (uint8_t)strlen(body)));
}

/* Sends BODY with its correct checksum and returns the bodies of the answer. */
static const char *ask(const char *body)
{
    char line[256];
    with_checksum(line, sizeof(line), body);
    return feed(line);
}

/* ---- CRC ---- */

TEST(crc_matches_ccitt_false_check_value_and_protocol_examples)
{
    CHECK(panel_crc16("123456789", 9) == 0x29B1);
    CHECK(panel_crc16("", 0) == 0xFFFF);
    CHECK(panel_crc16("HELLO", 5) == 0x49D6);
    CHECK(panel_crc16("PING", 4) == 0x6427);
    CHECK(panel_crc16("LEDS 000000", 11) == 0x8440);
    CHECK(panel_crc16("LEDS 100000", 11) == 0xC1E0);
    CHECK(panel_crc16("LEDS 00000000", 13) == 0xAC5E);
    CHECK(panel_crc16("RESEND 1", 8) == 0x70C3);
    CHECK(panel_crc16("EV 1 PRESS END1 1534", 20) == 0x8A51);
}

/* ---- Line assembly ---- */

TEST(reader_returns_lines_and_ignores_carriage_returns)
{
    panel_line_reader reader;
    panel_reader_init(&reader);
    const char *text = "PING*6427\r";
    for (const char *c = text; *c; c++) {
        CHECK(panel_reader_feed(&reader, (uint8_t)*c) == PANEL_READ_PENDING);
    }
    CHECK(panel_reader_feed(&reader, '\n') == PANEL_READ_LINE);
    CHECK_TEXT(reader.text, "PING*6427");
    CHECK(reader.length == 9);
    panel_reader_init(&reader);
    text = "PI\rNG*6427";
    for (const char *c = text; *c; c++) {
        panel_reader_feed(&reader, (uint8_t)*c);
    }
    CHECK(panel_reader_feed(&reader, '\n') == PANEL_READ_CHARS);
}

TEST(reader_refuses_long_lines_and_bad_bytes_then_recovers)
{
    panel_line_reader reader;
    panel_reader_init(&reader);
    for (int i = 0; i < PANEL_LINE_MAX; i++) {
        panel_reader_feed(&reader, 'A');
    }
    CHECK(panel_reader_feed(&reader, '\n') == PANEL_READ_LINE); /* 53 bytes is allowed */
    panel_reader_init(&reader);
    for (int i = 0; i < PANEL_LINE_MAX + 1; i++) {
        panel_reader_feed(&reader, 'A');
    }
    CHECK(panel_reader_feed(&reader, '\n') == PANEL_READ_TOOLONG);
    panel_reader_feed(&reader, 'A');
    panel_reader_feed(&reader, 0x00);
    CHECK(panel_reader_feed(&reader, '\n') == PANEL_READ_CHARS);
    panel_reader_feed(&reader, 'B');
    CHECK(panel_reader_feed(&reader, '\n') == PANEL_READ_LINE);
    CHECK_TEXT(reader.text, "B");
}

/* ---- Answers to single lines: a table of (line as sent, bodies of the answer) ---- */

typedef struct {
    const char *line;
    const char *answer;
} exchange_t;

static const exchange_t EXCHANGES[] = {
    {"HELLO*49D6\n", "HELLO 2 0.2.0 9 6 3FA2"},
    {"HELLO*49D6\r\n", "HELLO 2 0.2.0 9 6 3FA2"},
    {"PING*6427\n", "BEAT 0 0"},
    {"LEDS 000000*8440\n", "LEDS 000000"},
    {"LEDS 100000*C1E0\n", "LEDS 100000"},
    {"RESEND 1*70C3\n", "BEAT 0 0"},
    {"HELLO*49D7\n", "ERR CHECKSUM"},
    {"HELLO*49D\n", "ERR CHECKSUM"},
    {"HELLO*49d6\n", "ERR CHECKSUM"},
    {"HELLO*35\n", "ERR CHECKSUM"}, /* a version-1 line */
    {"HELLO*049D6\n", "ERR CHECKSUM"},
    {"HELLO\n", "ERR CHECKSUM"},
    {"HELLO49D6\n", "ERR CHECKSUM"},
    {"\n", "ERR CHECKSUM"},
    {"*\n", "ERR CHECKSUM"},
    {"*FFFF\n", "ERR CHECKSUM"},
    {"HELLO*49D6\r\r\n", "ERR CHARS"},
    {"HEL\x01LO*49D6\n", "ERR CHARS"},
    {"H\xC3\xA9LLO*49D6\n", "ERR CHARS"},
    {"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\n",
     "ERR TOOLONG"},
};

TEST(answers_follow_the_protocol_table)
{
    for (size_t i = 0; i < sizeof(EXCHANGES) / sizeof(EXCHANGES[0]); i++) {
        start(4);
        CHECK_TEXT(feed(EXCHANGES[i].line), EXCHANGES[i].answer);
        CHECK(captured.bad == 0);
    }
}

static const exchange_t COMMANDS[] = {
    {"HELLO x", "ERR ARGS HELLO"},
    {"PING 1", "ERR ARGS PING"},
    {"LEDS", "ERR ARGS LEDS"},
    {"LEDS 10000", "ERR ARGS LEDS"},
    {"LEDS 1000000", "ERR ARGS LEDS"},
    {"LEDS 10000000", "ERR ARGS LEDS"},
    {"LEDS 100003", "ERR ARGS LEDS"},
    {"LEDS 10000a", "ERR ARGS LEDS"},
    {"LEDS 100000 1", "ERR ARGS LEDS"},
    {"LEDS  100000", "ERR ARGS LEDS"},
    {"LEDS 100000 ", "ERR ARGS LEDS"},
    {"LEDS 210210", "LEDS 210210"},
    {"RESEND", "ERR ARGS RESEND"},
    {"RESEND 0", "ERR ARGS RESEND"},
    {"RESEND 01", "ERR ARGS RESEND"},
    {"RESEND 65536", "ERR ARGS RESEND"},
    {"RESEND 1x", "ERR ARGS RESEND"},
    {"RESEND 1 2", "ERR ARGS RESEND"},
    {"RESEND 65535", "BEAT 0 0"},
    {"FOO", "ERR UNKNOWN FOO"},
    {"hello", "ERR UNKNOWN hello"},
    {"FOO BAR", "ERR UNKNOWN FOO"},
    {"", "ERR CHECKSUM"},
    {" HELLO", "ERR UNKNOWN"},
    {"ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJKLMNOPQRSTUV",
     "ERR UNKNOWN ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJ"},
};

TEST(commands_with_bad_arguments_get_errors)
{
    for (size_t i = 0; i < sizeof(COMMANDS) / sizeof(COMMANDS[0]); i++) {
        start(4);
        CHECK_TEXT(ask(COMMANDS[i].line), COMMANDS[i].answer);
        CHECK(captured.bad == 0);
    }
}

TEST(full_lines_match_the_protocol_exchange)
{
    start(4);
    feed("HELLO*49D6\n");
    CHECK_TEXT(captured.lines, "HELLO 2 0.2.0 9 6 3FA2*B94D\n");
    feed("LEDS 100000*C1E0\n");
    CHECK_TEXT(captured.lines, "LEDS 100000*C1E0\n");
    fake_now = 1022;
    clear();
    panel_device_tick(&device);
    CHECK_TEXT(captured.lines, "BEAT 0 1022*5320\n");
    clear();
    panel_device_press(&device, 0, 1534);
    CHECK_TEXT(captured.lines, "EV 1 PRESS END1 1534*8A51\n");
    feed("LEDS 010010*1D20\n");
    CHECK_TEXT(captured.lines, "LEDS 010010*1D20\n");
}

TEST(init_announces_ready_with_the_boot_id)
{
    clear();
    panel_device_init(&device, 0x00AB, 4, capture, fake_clock, NULL);
    CHECK_TEXT(captured.bodies, "READY 00AB");
    CHECK(captured.bad == 0);
}

TEST(bytes_after_a_refused_line_start_a_fresh_line)
{
    start(4);
    char line[200];
    memset(line, 'X', 120);
    strcpy(line + 120, "\nPING*6427\n");
    CHECK_TEXT(feed(line), "ERR TOOLONG|BEAT 0 0");
    CHECK_TEXT(feed("P\x7FNG*6427\nPING*6427\n"), "ERR CHARS|BEAT 0 0");
}

/* ---- Buttons and events ---- */

TEST(presses_are_numbered_named_and_timed)
{
    start(4);
    for (uint8_t button = 0; button < 9; button++) {
        panel_device_press(&device, button, 100u * button);
    }
    panel_device_press(&device, 9, 0); /* no such button: ignored */
    CHECK_TEXT(captured.bodies, "EV 1 PRESS END1 0|EV 2 PRESS END2 100|EV 3 PRESS END3 200|"
                                "EV 4 PRESS END4 300|EV 5 PRESS UNDO 400|EV 6 PRESS SELECT 500|"
                                "EV 7 PRESS CONFIRM 600|EV 8 PRESS ROLL 700|EV 9 PRESS HINT 800");
    fake_now = 4294967295u;
    CHECK_TEXT(ask("PING"), "BEAT 9 4294967295");
    clear();
    panel_device_press(&device, 8, 4294967295u);
    CHECK_TEXT(captured.bodies, "EV 10 PRESS HINT 4294967295");
    CHECK(captured.bad == 0);
}

TEST(builds_of_two_and_six_seats_count_their_buttons_and_leds)
{
    start(2);
    CHECK_TEXT(ask("HELLO"), "HELLO 2 0.2.0 7 4 3FA2");
    clear();
    panel_device_press(&device, 2, 5);
    panel_device_press(&device, 6, 6);
    CHECK_TEXT(captured.bodies, "EV 1 PRESS UNDO 5|EV 2 PRESS HINT 6");
    CHECK_TEXT(panel_device_button_name(&device, 7), "?");
    CHECK_TEXT(ask("LEDS 1001"), "LEDS 1001");
    CHECK_TEXT(ask("LEDS 100000"), "ERR ARGS LEDS");
    start(6);
    CHECK_TEXT(ask("HELLO"), "HELLO 2 0.2.0 11 8 3FA2");
    clear();
    panel_device_press(&device, 5, 1);
    panel_device_press(&device, 10, 2);
    CHECK_TEXT(captured.bodies, "EV 1 PRESS END6 1|EV 2 PRESS HINT 2");
    CHECK_TEXT(ask("LEDS 00000120"), "LEDS 00000120");
    CHECK(panel_device_led_level(&device, 5, 0) == 1);
    CHECK(panel_device_led_level(&device, 6, 0) == 1);
    CHECK_TEXT(ask("LEDS 000000"), "ERR ARGS LEDS");
    start(9); /* clamped to six */
    CHECK_TEXT(ask("HELLO"), "HELLO 2 0.2.0 11 8 3FA2");
}

static void press_many(uint32_t count)
{
    storing = 0;
    for (uint32_t i = 0; i < count; i++) {
        panel_device_press(&device, (uint8_t)(i % 9), i);
    }
    storing = 1;
    clear();
}

TEST(resend_replays_kept_events_with_their_times_then_beats)
{
    start(4);
    press_many(3);
    fake_now = 77;
    CHECK_TEXT(ask("RESEND 2"), "EV 2 PRESS END2 1|EV 3 PRESS END3 2|BEAT 3 77");
    CHECK_TEXT(ask("RESEND 3"), "EV 3 PRESS END3 2|BEAT 3 77");
    CHECK_TEXT(ask("RESEND 4"), "BEAT 3 77");
    CHECK_TEXT(ask("RESEND 1"), "EV 1 PRESS END1 0|EV 2 PRESS END2 1|EV 3 PRESS END3 2|BEAT 3 77");
}

TEST(a_resend_answer_goes_out_one_line_at_a_time_and_lets_presses_through)
{
    start(4);
    press_many(3);
    char line[64];
    with_checksum(line, sizeof(line), "RESEND 1");
    for (const char *c = line; *c; c++) {
        panel_device_receive(&device, (uint8_t)*c);
    }
    CHECK_TEXT(captured.bodies, "EV 1 PRESS END1 0"); /* only the first line so far */
    CHECK(panel_device_busy(&device));
    panel_device_press(&device, 8, 50); /* a press during the answer goes out at once */
    CHECK(panel_device_continue(&device));
    panel_device_press(&device, 7, 60);
    finish_answer();
    CHECK(!panel_device_busy(&device));
    /* The answer holds the events made before RESEND came, and ends with the beat. */
    CHECK_TEXT(captured.bodies, "EV 1 PRESS END1 0|EV 4 PRESS HINT 50|EV 2 PRESS END2 1|"
                                "EV 5 PRESS ROLL 60|EV 3 PRESS END3 2|BEAT 5 0");
    CHECK(!panel_device_continue(&device));
    /* A line that arrives before the answer is out waits for it: answers stay in order. */
    clear();
    for (const char *c = line; *c; c++) {
        panel_device_receive(&device, (uint8_t)*c);
    }
    with_checksum(line, sizeof(line), "PING");
    for (const char *c = line; *c; c++) {
        panel_device_receive(&device, (uint8_t)*c);
    }
    CHECK(strncmp(captured.bodies, "EV 1 PRESS END1 0|EV 2 PRESS END2 1|", 36) == 0);
    CHECK(strstr(captured.bodies, "EV 5 PRESS ROLL 60|BEAT 5 0|BEAT 5 0") != NULL);
}

TEST(resend_beyond_the_ring_says_gone_then_sends_the_ring)
{
    start(4);
    press_many(20);
    const char *answer = ask("RESEND 1");
    CHECK(strncmp(answer, "ERR GONE 5|EV 5 PRESS UNDO 4|", 29) == 0);
    CHECK(captured.count == 1 + 16 + 1);
    CHECK(strstr(answer, "|EV 6 PRESS SELECT 5|") != NULL);
    CHECK(strstr(answer, "|EV 20 PRESS END2 19|BEAT 20 0") != NULL);
    ask("RESEND 5");
    CHECK(captured.count == 16 + 1);
    CHECK_TEXT(ask("RESEND 21"), "BEAT 20 0");
    /* Half the number space behind the last event is the past, beyond it the future. */
    CHECK(strncmp(ask("RESEND 32788"), "ERR GONE 5|", 11) == 0);
    CHECK_TEXT(ask("RESEND 32787"), "BEAT 20 0");
}

TEST(event_numbers_wrap_from_65535_to_1)
{
    start(4);
    press_many(65535);
    CHECK_TEXT(ask("PING"), "BEAT 65535 0");
    clear();
    panel_device_press(&device, 0, 7);
    panel_device_press(&device, 1, 8);
    CHECK_TEXT(captured.bodies, "EV 1 PRESS END1 7|EV 2 PRESS END2 8");
    CHECK_TEXT(ask("RESEND 65535"),
               "EV 65535 PRESS SELECT 65534|EV 1 PRESS END1 7|EV 2 PRESS END2 8|BEAT 2 0");
    const char *answer = ask("RESEND 65000");
    CHECK(strncmp(answer, "ERR GONE 65522|EV 65522 ", 24) == 0);
    CHECK(captured.count == 18);
    CHECK_TEXT(ask("RESEND 3"), "BEAT 2 0");
}

/* ---- LEDs ---- */

TEST(leds_are_set_all_at_once_and_idempotent)
{
    start(4);
    CHECK_TEXT(ask("LEDS 120010"), "LEDS 120010");
    CHECK_TEXT(ask("LEDS 120010"), "LEDS 120010");
    CHECK(panel_device_led_level(&device, 0, 0) == 1);
    CHECK(panel_device_led_level(&device, 1, 0) == 1);
    CHECK(panel_device_led_level(&device, 1, 249) == 1);
    CHECK(panel_device_led_level(&device, 1, 250) == 0);
    CHECK(panel_device_led_level(&device, 1, 499) == 0);
    CHECK(panel_device_led_level(&device, 1, 500) == 1);
    CHECK(panel_device_led_level(&device, 2, 0) == 0);
    CHECK(panel_device_led_level(&device, 4, 0) == 1);
    CHECK(panel_device_led_level(&device, 6, 0) == 0);
    CHECK(panel_device_led_levels(&device, 0) == 0x13);   /* 1, 2 (lit), 0, 0, 1, 0 */
    CHECK(panel_device_led_levels(&device, 250) == 0x11); /* the blinking one is dark */
    CHECK_TEXT(ask("LEDS 000003"), "ERR ARGS LEDS");
    CHECK(panel_device_led_level(&device, 0, 0) == 1); /* a refused state changes nothing */
    CHECK_TEXT(ask("LEDS 000000"), "LEDS 000000");
    for (uint8_t led = 0; led < 6; led++) {
        CHECK(panel_device_led_level(&device, led, 0) == 0);
    }
}

/* ---- Heartbeat ---- */

TEST(heartbeat_every_second_with_the_last_event_and_the_clock)
{
    fake_now = 0xFFFFFE00u; /* the clock wraps soon */
    panel_device_init(&device, 1, 4, capture, fake_clock, NULL);
    clear();
    fake_now += 999u;
    panel_device_tick(&device);
    CHECK(captured.count == 0);
    fake_now += 1u;
    panel_device_tick(&device);
    CHECK_TEXT(captured.bodies, "BEAT 0 488");
    panel_device_press(&device, 3, fake_now);
    clear();
    fake_now += 999u;
    panel_device_tick(&device);
    CHECK(captured.count == 0);
    fake_now += 1u;
    panel_device_tick(&device);
    CHECK_TEXT(captured.bodies, "BEAT 1 1488");
}

/* ---- Debounce ---- */

static int feed_contact(panel_debouncer *debouncer, uint32_t from, uint32_t to, uint8_t closed)
{
    int presses = 0;
    for (uint32_t t = from; t != to; t++) {
        presses += panel_debouncer_feed(debouncer, t, closed);
    }
    return presses;
}

TEST(clean_press_counts_after_ten_stable_milliseconds)
{
    panel_debouncer debouncer;
    panel_debouncer_init(&debouncer, 0, 1);
    CHECK(feed_contact(&debouncer, 0, 50, 0) == 0);
    CHECK(feed_contact(&debouncer, 50, 59, 1) == 0);
    CHECK(panel_debouncer_feed(&debouncer, 59, 1) == 0);
    CHECK(panel_debouncer_feed(&debouncer, 60, 1) == 1);
    CHECK(feed_contact(&debouncer, 61, 5000, 1) == 0); /* holding makes one event */
    CHECK(feed_contact(&debouncer, 5000, 5100, 0) == 0); /* releases are not reported */
    CHECK(feed_contact(&debouncer, 5100, 5200, 1) == 1);
}

TEST(bouncing_contacts_give_exactly_one_press)
{
    panel_debouncer debouncer;
    panel_debouncer_init(&debouncer, 100, 1);
    int presses = feed_contact(&debouncer, 100, 200, 0);
    /* closed, open, closed ... for 4 ms, then closed */
    static const uint8_t bounce[] = {1, 0, 1, 1, 0, 1, 0, 0, 1};
    for (uint32_t i = 0; i < sizeof(bounce); i++) {
        presses += panel_debouncer_feed(&debouncer, 200 + i / 2, bounce[i]);
    }
    presses += feed_contact(&debouncer, 205, 400, 1);
    /* the release bounces too */
    for (uint32_t i = 0; i < sizeof(bounce); i++) {
        presses += panel_debouncer_feed(&debouncer, 400 + i / 2, (uint8_t)!bounce[i]);
    }
    presses += feed_contact(&debouncer, 405, 600, 0);
    CHECK(presses == 1);
}

TEST(short_glitches_and_buttons_held_at_reset_are_ignored)
{
    panel_debouncer debouncer;
    panel_debouncer_init(&debouncer, 0, 1);
    CHECK(feed_contact(&debouncer, 0, 500, 1) == 0); /* held since reset */
    panel_debouncer_init(&debouncer, 0, 1);
    CHECK(feed_contact(&debouncer, 0, 5, 0) == 0);
    CHECK(feed_contact(&debouncer, 5, 30, 1) == 0); /* open only 5 ms before closing */
    panel_debouncer_init(&debouncer, 0, 1);
    CHECK(feed_contact(&debouncer, 0, 100, 0) == 0);
    CHECK(feed_contact(&debouncer, 100, 109, 1) == 0); /* closed 9 ms: a glitch */
    CHECK(feed_contact(&debouncer, 109, 200, 0) == 0);
}

TEST(a_contact_open_at_start_counts_its_first_press_at_once)
{
    panel_debouncer debouncer;
    panel_debouncer_init(&debouncer, 0, 0); /* open when the panel started */
    CHECK(feed_contact(&debouncer, 0, 2, 0) == 0);
    CHECK(feed_contact(&debouncer, 2, 12, 1) == 0);
    CHECK(panel_debouncer_feed(&debouncer, 12, 1) == 1); /* pressed 2 ms after start */
}

TEST(debounce_survives_the_millisecond_clock_wrapping)
{
    panel_debouncer debouncer;
    panel_debouncer_init(&debouncer, 0xFFFFFF00u, 1);
    CHECK(feed_contact(&debouncer, 0xFFFFFF00u, 0xFFFFFFFAu, 0) == 0);
    CHECK(feed_contact(&debouncer, 0xFFFFFFFAu, 20u, 1) == 1);
}

/* ---- Boot id ---- */

TEST(boot_id_always_differs_from_the_previous_one)
{
    uint16_t previous = 0;
    int repeats = 0;
    int same_as_counter_neighbour = 0;
    for (uint32_t counter = 0; counter < 20000; counter++) {
        uint16_t id = panel_boot_id(counter, 0, previous);
        repeats += id == previous;
        same_as_counter_neighbour += id == panel_boot_id(counter + 1, 0, 0xFFFF);
        previous = id;
    }
    CHECK(repeats == 0);
    CHECK(same_as_counter_neighbour < 5);
    CHECK(panel_boot_id(7, 1, 0) != panel_boot_id(7, 2, 0));
    uint16_t id = panel_boot_id(1, 2, 0);
    CHECK(panel_boot_id(1, 2, id) != id);
}

int main(void)
{
    RUN(crc_matches_ccitt_false_check_value_and_protocol_examples);
    RUN(reader_returns_lines_and_ignores_carriage_returns);
    RUN(reader_refuses_long_lines_and_bad_bytes_then_recovers);
    RUN(answers_follow_the_protocol_table);
    RUN(commands_with_bad_arguments_get_errors);
    RUN(full_lines_match_the_protocol_exchange);
    RUN(init_announces_ready_with_the_boot_id);
    RUN(bytes_after_a_refused_line_start_a_fresh_line);
    RUN(presses_are_numbered_named_and_timed);
    RUN(builds_of_two_and_six_seats_count_their_buttons_and_leds);
    RUN(resend_replays_kept_events_with_their_times_then_beats);
    RUN(a_resend_answer_goes_out_one_line_at_a_time_and_lets_presses_through);
    RUN(resend_beyond_the_ring_says_gone_then_sends_the_ring);
    RUN(event_numbers_wrap_from_65535_to_1);
    RUN(leds_are_set_all_at_once_and_idempotent);
    RUN(heartbeat_every_second_with_the_last_event_and_the_clock);
    RUN(clean_press_counts_after_ten_stable_milliseconds);
    RUN(bouncing_contacts_give_exactly_one_press);
    RUN(short_glitches_and_buttons_held_at_reset_are_ignored);
    RUN(a_contact_open_at_start_counts_its_first_press_at_once);
    RUN(debounce_survives_the_millisecond_clock_wrapping);
    RUN(boot_id_always_differs_from_the_previous_one);
    return FINISH();
}
