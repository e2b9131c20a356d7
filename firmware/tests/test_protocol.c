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
    if (length < 4 || length > PANEL_LINE_MAX + 1 || line[length - 1] != '\n' ||
        line[length - 4] != '*') {
        captured.bad++;
        return;
    }
    char expected[3];
    snprintf(expected, sizeof(expected), "%02X", panel_crc8(line, (uint8_t)(length - 4)));
    if (memcmp(expected, line + length - 3, 2) != 0) {
        captured.bad++;
    }
    if (captured.bodies[0] != '\0') {
        strcat(captured.bodies, "|");
    }
    strncat(captured.bodies, line, (size_t)(length - 4));
}

static void clear(void)
{
    memset(&captured, 0, sizeof(captured));
}

static panel_device device;

static void start(uint8_t end_buttons)
{
    panel_device_init(&device, 0x3FA2, end_buttons, 0, capture, NULL);
    clear();
}

/* Feeds a whole line byte by byte, as the UART would. */
static const char *feed(const char *text)
{
    clear();
    for (const char *c = text; *c; c++) {
        panel_device_receive(&device, (uint8_t)*c);
    }
    return captured.bodies;
}

/* Sends BODY with its correct checksum and returns the bodies of the answer. */
static const char *ask(const char *body)
{
    char line[256];
    snprintf(line, sizeof(line), "%s*%02X\n", body, panel_crc8(body, (uint8_t)strlen(body)));
    return feed(line);
}

/* ---- CRC ---- */

TEST(crc_matches_smbus_check_value_and_protocol_examples)
{
    CHECK(panel_crc8("123456789", 9) == 0xF4);
    CHECK(panel_crc8("", 0) == 0x00);
    CHECK(panel_crc8("HELLO", 5) == 0x35);
    CHECK(panel_crc8("PING", 4) == 0x1F);
    CHECK(panel_crc8("LEDS 000000", 11) == 0x8C);
    CHECK(panel_crc8("LEDS 100000", 11) == 0xA5);
    CHECK(panel_crc8("RESEND 1", 8) == 0xDF);
    CHECK(panel_crc8("EV 1 PRESS END1", 15) == 0xE3);
}

/* ---- Line assembly ---- */

TEST(reader_returns_lines_and_ignores_carriage_returns)
{
    panel_line_reader reader;
    panel_reader_init(&reader);
    const char *text = "PING*1F\r";
    for (const char *c = text; *c; c++) {
        CHECK(panel_reader_feed(&reader, (uint8_t)*c) == PANEL_READ_PENDING);
    }
    CHECK(panel_reader_feed(&reader, '\n') == PANEL_READ_LINE);
    CHECK_TEXT(reader.text, "PING*1F");
    CHECK(reader.length == 7);
    panel_reader_init(&reader);
    text = "PI\rNG*1F";
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
    CHECK(panel_reader_feed(&reader, '\n') == PANEL_READ_LINE); /* 51 bytes is allowed */
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
    {"HELLO*35\n", "HELLO 1 0.1.0 7 6 3FA2"},
    {"HELLO*35\r\n", "HELLO 1 0.1.0 7 6 3FA2"},
    {"PING*1F\n", "BEAT 0"},
    {"LEDS 000000*8C\n", "LEDS 000000"},
    {"LEDS 100000*A5\n", "LEDS 100000"},
    {"RESEND 1*DF\n", "BEAT 0"},
    {"HELLO*36\n", "ERR CHECKSUM"},
    {"HELLO*3\n", "ERR CHECKSUM"},
    {"HELLO*3f\n", "ERR CHECKSUM"},
    {"HELLO\n", "ERR CHECKSUM"},
    {"HELLO35\n", "ERR CHECKSUM"},
    {"\n", "ERR CHECKSUM"},
    {"*\n", "ERR CHECKSUM"},
    {"*00\n", "ERR CHECKSUM"},
    {"HELLO*35\r\r\n", "ERR CHARS"},
    {"HEL\x01LO*35\n", "ERR CHARS"},
    {"H\xC3\xA9LLO*35\n", "ERR CHARS"},
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
    {"RESEND 65535", "BEAT 0"},
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
    feed("HELLO*35\n");
    CHECK_TEXT(captured.lines, "HELLO 1 0.1.0 7 6 3FA2*2D\n");
    feed("LEDS 010010*FB\n");
    CHECK_TEXT(captured.lines, "LEDS 010010*FB\n");
    clear();
    panel_device_press(&device, 0);
    CHECK_TEXT(captured.lines, "EV 1 PRESS END1*E3\n");
    clear();
    panel_device_tick(&device, 1000);
    CHECK_TEXT(captured.lines, "BEAT 1*3A\n");
}

TEST(init_announces_ready_with_the_boot_id)
{
    clear();
    panel_device_init(&device, 0x00AB, 4, 0, capture, NULL);
    CHECK_TEXT(captured.bodies, "READY 00AB");
    CHECK(captured.bad == 0);
}

TEST(bytes_after_a_refused_line_start_a_fresh_line)
{
    start(4);
    char line[200];
    memset(line, 'X', 120);
    strcpy(line + 120, "\nPING*1F\n");
    CHECK_TEXT(feed(line), "ERR TOOLONG|BEAT 0");
    CHECK_TEXT(feed("P\x7FNG*1F\nPING*1F\n"), "ERR CHARS|BEAT 0");
}

/* ---- Buttons and events ---- */

TEST(presses_are_numbered_and_named)
{
    start(4);
    for (uint8_t button = 0; button < 7; button++) {
        panel_device_press(&device, button);
    }
    panel_device_press(&device, 7); /* no such button: ignored */
    CHECK_TEXT(captured.bodies, "EV 1 PRESS END1|EV 2 PRESS END2|EV 3 PRESS END3|"
                                "EV 4 PRESS END4|EV 5 PRESS UNDO|EV 6 PRESS SELECT|"
                                "EV 7 PRESS CONFIRM");
    CHECK_TEXT(ask("PING"), "BEAT 7");
}

TEST(a_build_with_two_players_has_five_buttons)
{
    start(2);
    CHECK_TEXT(ask("HELLO"), "HELLO 1 0.1.0 5 6 3FA2");
    clear();
    panel_device_press(&device, 2);
    panel_device_press(&device, 4);
    CHECK_TEXT(captured.bodies, "EV 1 PRESS UNDO|EV 2 PRESS CONFIRM");
    CHECK_TEXT(panel_device_button_name(&device, 5), "?");
}

static void press_many(uint32_t count)
{
    storing = 0;
    for (uint32_t i = 0; i < count; i++) {
        panel_device_press(&device, (uint8_t)(i % 7));
    }
    storing = 1;
    clear();
}

TEST(resend_replays_kept_events_then_beats)
{
    start(4);
    press_many(3);
    CHECK_TEXT(ask("RESEND 2"), "EV 2 PRESS END2|EV 3 PRESS END3|BEAT 3");
    CHECK_TEXT(ask("RESEND 3"), "EV 3 PRESS END3|BEAT 3");
    CHECK_TEXT(ask("RESEND 4"), "BEAT 3");
    CHECK_TEXT(ask("RESEND 1"), "EV 1 PRESS END1|EV 2 PRESS END2|EV 3 PRESS END3|BEAT 3");
}

TEST(resend_beyond_the_ring_says_gone_then_sends_the_ring)
{
    start(4);
    press_many(20);
    const char *answer = ask("RESEND 1");
    CHECK(strncmp(answer, "ERR GONE 5|EV 5 PRESS UNDO|", 27) == 0);
    CHECK(captured.count == 1 + 16 + 1);
    CHECK(strstr(answer, "|EV 5 PRESS END4|") == NULL); /* event 5 was button index 4 */
    CHECK(strstr(answer, "|EV 5 PRESS UNDO|EV 6 PRESS SELECT|") != NULL);
    CHECK(strstr(answer, "|EV 20 PRESS SELECT|BEAT 20") != NULL);
    ask("RESEND 5");
    CHECK(captured.count == 16 + 1);
    CHECK_TEXT(ask("RESEND 21"), "BEAT 20");
    /* Half the number space behind the last event is the past, beyond it the future. */
    CHECK(strncmp(ask("RESEND 32788"), "ERR GONE 5|", 11) == 0);
    CHECK_TEXT(ask("RESEND 32787"), "BEAT 20");
}

TEST(event_numbers_wrap_from_65535_to_1)
{
    start(4);
    press_many(65535);
    CHECK_TEXT(ask("PING"), "BEAT 65535");
    clear();
    panel_device_press(&device, 0);
    panel_device_press(&device, 1);
    CHECK_TEXT(captured.bodies, "EV 1 PRESS END1|EV 2 PRESS END2");
    CHECK_TEXT(ask("RESEND 65535"), "EV 65535 PRESS END1|EV 1 PRESS END1|EV 2 PRESS END2|BEAT 2");
    const char *answer = ask("RESEND 65000");
    CHECK(strncmp(answer, "ERR GONE 65522|EV 65522 ", 24) == 0);
    CHECK(captured.count == 18);
    CHECK_TEXT(ask("RESEND 3"), "BEAT 2");
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
    CHECK_TEXT(ask("LEDS 000003"), "ERR ARGS LEDS");
    CHECK(panel_device_led_level(&device, 0, 0) == 1); /* a refused state changes nothing */
    CHECK_TEXT(ask("LEDS 000000"), "LEDS 000000");
    for (uint8_t led = 0; led < PANEL_LED_COUNT; led++) {
        CHECK(panel_device_led_level(&device, led, 0) == 0);
    }
}

/* ---- Heartbeat ---- */

TEST(heartbeat_every_second_with_the_last_event)
{
    panel_device_init(&device, 1, 4, 0xFFFFFE00u, capture, NULL); /* the clock wraps soon */
    clear();
    panel_device_tick(&device, 0xFFFFFE00u + 999u);
    CHECK(captured.count == 0);
    panel_device_tick(&device, 0xFFFFFE00u + 1000u);
    CHECK_TEXT(captured.bodies, "BEAT 0");
    panel_device_press(&device, 3);
    clear();
    panel_device_tick(&device, 0xFFFFFE00u + 1999u);
    CHECK(captured.count == 0);
    panel_device_tick(&device, 0xFFFFFE00u + 2000u);
    CHECK_TEXT(captured.bodies, "BEAT 1");
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
    panel_debouncer_init(&debouncer, 0);
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
    panel_debouncer_init(&debouncer, 100);
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
    panel_debouncer_init(&debouncer, 0);
    CHECK(feed_contact(&debouncer, 0, 500, 1) == 0); /* held since reset */
    panel_debouncer_init(&debouncer, 0);
    CHECK(feed_contact(&debouncer, 0, 5, 0) == 0);
    CHECK(feed_contact(&debouncer, 5, 30, 1) == 0); /* open only 5 ms before closing */
    panel_debouncer_init(&debouncer, 0);
    CHECK(feed_contact(&debouncer, 0, 100, 0) == 0);
    CHECK(feed_contact(&debouncer, 100, 109, 1) == 0); /* closed 9 ms: a glitch */
    CHECK(feed_contact(&debouncer, 109, 200, 0) == 0);
}

TEST(debounce_survives_the_millisecond_clock_wrapping)
{
    panel_debouncer debouncer;
    panel_debouncer_init(&debouncer, 0xFFFFFF00u);
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
    RUN(crc_matches_smbus_check_value_and_protocol_examples);
    RUN(reader_returns_lines_and_ignores_carriage_returns);
    RUN(reader_refuses_long_lines_and_bad_bytes_then_recovers);
    RUN(answers_follow_the_protocol_table);
    RUN(commands_with_bad_arguments_get_errors);
    RUN(full_lines_match_the_protocol_exchange);
    RUN(init_announces_ready_with_the_boot_id);
    RUN(bytes_after_a_refused_line_start_a_fresh_line);
    RUN(presses_are_numbered_and_named);
    RUN(a_build_with_two_players_has_five_buttons);
    RUN(resend_replays_kept_events_then_beats);
    RUN(resend_beyond_the_ring_says_gone_then_sends_the_ring);
    RUN(event_numbers_wrap_from_65535_to_1);
    RUN(leds_are_set_all_at_once_and_idempotent);
    RUN(heartbeat_every_second_with_the_last_event);
    RUN(clean_press_counts_after_ten_stable_milliseconds);
    RUN(bouncing_contacts_give_exactly_one_press);
    RUN(short_glitches_and_buttons_held_at_reset_are_ignored);
    RUN(debounce_survives_the_millisecond_clock_wrapping);
    RUN(boot_id_always_differs_from_the_previous_one);
    return FINISH();
}
