/*
 * The panel protocol core (see protocol.h and firmware/PROTOCOL.md).
 *
 * Written without printf or division-heavy helpers so that it stays small on the ATmega328P,
 * and without any global state so that the host tests can run many devices side by side.
 */
#include "protocol.h"

#define SEQUENCE_SPAN 65535u /* event numbers run 1..65535 and wrap to 1 */

/* ---- CRC ---- */

uint16_t panel_crc16(const char *bytes, uint8_t length)
{
    /* A byte at a time without a table (as avr-libc's _crc_xmodem_update): the eight shifts of
     * the bitwise form cost a line about 150 us on the ATmega, and a table 512 bytes of flash. */
    uint16_t crc = 0xFFFFu;
    for (uint8_t i = 0; i < length; i++) {
        crc = (uint16_t)((crc >> 8) | (crc << 8));
        crc ^= (uint8_t)bytes[i];
        crc ^= (uint16_t)((crc & 0xFFu) >> 4);
        crc ^= (uint16_t)(crc << 12);
        crc ^= (uint16_t)((crc & 0xFFu) << 5);
    }
    return crc;
}

static uint8_t is_printable(uint8_t byte)
{
    return byte >= 0x20u && byte <= 0x7Eu;
}

/* ---- Line assembly ---- */

void panel_reader_init(panel_line_reader *reader)
{
    reader->length = 0;
    reader->overflow = 0;
    reader->bad_char = 0;
    reader->pending_return = 0;
    reader->text[0] = '\0';
}

panel_read_result panel_reader_feed(panel_line_reader *reader, uint8_t byte)
{
    if (byte == '\r') {
        if (reader->pending_return) {
            reader->bad_char = 1; /* only the '\r' right before '\n' is allowed */
        }
        reader->pending_return = 1;
        return PANEL_READ_PENDING;
    }
    if (reader->pending_return && byte != '\n') {
        reader->bad_char = 1;
    }
    reader->pending_return = 0;
    if (byte == '\n') {
        panel_read_result result = PANEL_READ_LINE;
        if (reader->overflow) {
            result = PANEL_READ_TOOLONG;
        } else if (reader->bad_char) {
            result = PANEL_READ_CHARS;
        }
        reader->text[reader->length] = '\0';
        if (result != PANEL_READ_LINE) {
            panel_reader_init(reader);
        }
        return result;
    }
    if (reader->length >= PANEL_LINE_MAX) {
        reader->overflow = 1;
        return PANEL_READ_PENDING;
    }
    if (!is_printable(byte)) {
        reader->bad_char = 1;
    }
    reader->text[reader->length++] = (char)byte;
    return PANEL_READ_PENDING;
}

/* ---- Building and sending lines ---- */

typedef struct {
    char text[PANEL_LINE_MAX + 2];
    uint8_t length;
} line_builder;

static void add_char(line_builder *line, char c)
{
    if (line->length < PANEL_BODY_MAX) {
        line->text[line->length++] = c;
    }
}

static void add_text(line_builder *line, const char *text)
{
    while (*text) {
        add_char(line, *text++);
    }
}

static void add_word(line_builder *line, const char *text)
{
    add_char(line, ' ');
    add_text(line, text);
}

/* Decimal by subtracting powers of ten: the ATmega has no divider, and ten 32-bit divisions
 * by ten took about 400 us of every EV and BEAT line. */
static void add_number(line_builder *line, uint32_t value)
{
    static const uint32_t powers[] = {1000000000u, 100000000u, 10000000u, 1000000u, 100000u,
                                      10000u,      1000u,      100u,      10u,      1u};
    uint8_t started = 0;
    add_char(line, ' ');
    for (uint8_t i = 0; i < sizeof(powers) / sizeof(powers[0]); i++) {
        char digit = '0';
        while (value >= powers[i]) {
            value -= powers[i];
            digit++;
        }
        if (digit != '0' || started || i == sizeof(powers) / sizeof(powers[0]) - 1u) {
            add_char(line, digit);
            started = 1;
        }
    }
}

static char hex_digit(uint8_t value)
{
    return (char)(value < 10 ? '0' + value : 'A' + (value - 10));
}

static void add_hex4(line_builder *line, uint16_t value)
{
    add_char(line, ' ');
    for (int8_t shift = 12; shift >= 0; shift -= 4) {
        add_char(line, hex_digit((uint8_t)((value >> shift) & 0x0Fu)));
    }
}

static void send_line(panel_device *device, line_builder *line)
{
    uint16_t crc = panel_crc16(line->text, line->length);
    line->text[line->length++] = '*';
    for (int8_t shift = 12; shift >= 0; shift -= 4) {
        line->text[line->length++] = hex_digit((uint8_t)((crc >> shift) & 0x0Fu));
    }
    line->text[line->length++] = '\n';
    device->emit(device->context, line->text, line->length);
}

static void send_error(panel_device *device, const char *code, const char *detail,
                       uint8_t detail_length)
{
    line_builder line = {{0}, 0};
    add_text(&line, "ERR ");
    add_text(&line, code);
    if (detail_length > 0) {
        add_char(&line, ' ');
        for (uint8_t i = 0; i < detail_length; i++) {
            add_char(&line, detail[i]);
        }
    }
    send_line(device, &line);
}

static void send_beat(panel_device *device)
{
    line_builder line = {{0}, 0};
    add_text(&line, "BEAT");
    add_number(&line, device->last_event);
    add_number(&line, device->clock(device->context));
    send_line(device, &line);
}

/* ---- Events ---- */

static uint16_t next_number(uint16_t number)
{
    return number >= SEQUENCE_SPAN ? 1u : (uint16_t)(number + 1u);
}

/* How many events before the last one number is (0 = the last), in the wrapping 1..65535 space. */
static uint16_t events_back(uint16_t last, uint16_t number)
{
    uint32_t distance = (uint32_t)last + SEQUENCE_SPAN - number;
    return (uint16_t)(distance % SEQUENCE_SPAN);
}

/* The event `back` places before the newest (0 = newest); back < kept. */
static const panel_event *kept_event(const panel_device *device, uint8_t back)
{
    uint8_t slot = (uint8_t)((device->kept_head + PANEL_RING_SIZE - 1u - back) % PANEL_RING_SIZE);
    return &device->ring[slot];
}

static void send_event(panel_device *device, const panel_event *event)
{
    line_builder line = {{0}, 0};
    add_text(&line, "EV");
    add_number(&line, event->number);
    add_word(&line, "PRESS");
    add_word(&line, panel_device_button_name(device, event->button));
    add_number(&line, event->time_ms);
    send_line(device, &line);
}

void panel_device_press(panel_device *device, uint8_t button, uint32_t pressed_at_ms)
{
    if (button >= panel_device_button_count(device)) {
        return;
    }
    device->last_event = next_number(device->last_event);
    panel_event *slot = &device->ring[device->kept_head];
    slot->number = device->last_event;
    slot->button = button;
    slot->time_ms = pressed_at_ms;
    device->kept_head = (uint8_t)((device->kept_head + 1u) % PANEL_RING_SIZE);
    if (device->kept < PANEL_RING_SIZE) {
        device->kept++;
    }
    send_event(device, slot);
}

/* Plans the answer to RESEND first (sent by panel_device_continue, one line at a time): an
 * ERR GONE when events from first on have left the ring, the kept events from first up to
 * the last one made now, then a BEAT. Events made later are not part of the answer. */
static void resend_from(panel_device *device, uint16_t first)
{
    device->beat_owed = 1;
    if (device->kept == 0) {
        return;
    }
    uint16_t back = events_back(device->last_event, first);
    uint16_t oldest = kept_event(device, (uint8_t)(device->kept - 1u))->number;
    if (back < device->kept) {
        device->resend_next = first;
    } else if (back <= SEQUENCE_SPAN / 2u) { /* in the past, not the future */
        device->gone_oldest = oldest;
        device->resend_next = oldest;
    }
    device->resend_until = device->last_event;
}

/* The kept event numbered number, or 0 when it has left the ring (or was never made). */
static const panel_event *find_event(const panel_device *device, uint16_t number)
{
    uint16_t back = events_back(device->last_event, number);
    return back < device->kept ? kept_event(device, (uint8_t)back) : 0;
}

uint8_t panel_device_busy(const panel_device *device)
{
    return (uint8_t)(device->gone_oldest != 0 || device->resend_next != 0 || device->beat_owed);
}

uint8_t panel_device_continue(panel_device *device)
{
    if (device->gone_oldest != 0) {
        line_builder line = {{0}, 0};
        add_text(&line, "ERR GONE");
        add_number(&line, device->gone_oldest);
        device->gone_oldest = 0;
        send_line(device, &line);
        return 1;
    }
    while (device->resend_next != 0) {
        uint16_t number = device->resend_next;
        device->resend_next = number == device->resend_until ? 0u : next_number(number);
        const panel_event *event = find_event(device, number);
        if (event != 0) { /* else overwritten by 16 presses during the answer: never sent */
            send_event(device, event);
            return 1;
        }
    }
    if (device->beat_owed) {
        device->beat_owed = 0;
        send_beat(device);
        return 1;
    }
    return 0;
}

/* ---- Commands ---- */

static uint8_t text_equals(const char *text, uint8_t length, const char *word)
{
    uint8_t i = 0;
    for (; i < length; i++) {
        if (word[i] == '\0' || word[i] != text[i]) {
            return 0;
        }
    }
    return word[i] == '\0';
}

/* Parses a decimal event number 1..65535 without leading zeros; 0 when it is not one. */
static uint16_t parse_event_number(const char *text, uint8_t length)
{
    if (length == 0 || length > 5 || text[0] == '0') {
        return 0;
    }
    uint32_t value = 0;
    for (uint8_t i = 0; i < length; i++) {
        if (text[i] < '0' || text[i] > '9') {
            return 0;
        }
        value = value * 10u + (uint32_t)(text[i] - '0');
    }
    return value <= SEQUENCE_SPAN ? (uint16_t)value : 0u;
}

static void answer_hello(panel_device *device)
{
    line_builder line = {{0}, 0};
    add_text(&line, "HELLO " PANEL_PROTOCOL_VERSION " " PANEL_FIRMWARE_VERSION);
    add_number(&line, panel_device_button_count(device));
    add_number(&line, panel_device_led_count(device));
    add_hex4(&line, device->boot_id);
    send_line(device, &line);
}

static void answer_leds(panel_device *device, const char *state, uint8_t length)
{
    if (length != panel_device_led_count(device)) {
        send_error(device, "ARGS", "LEDS", 4);
        return;
    }
    for (uint8_t i = 0; i < length; i++) {
        if (state[i] < '0' || state[i] > '2') {
            send_error(device, "ARGS", "LEDS", 4);
            return;
        }
    }
    line_builder line = {{0}, 0};
    add_text(&line, "LEDS ");
    for (uint8_t i = 0; i < length; i++) {
        device->leds[i] = (uint8_t)(state[i] - '0');
        add_char(&line, state[i]);
    }
    send_line(device, &line);
}

/* Splits a body into the verb and at most one argument; returns the number of arguments
 * (2 meaning "two or more"). Tokens are separated by single spaces, so an empty token counts. */
static uint8_t split_body(const char *body, uint8_t length, uint8_t *verb_length,
                          const char **argument, uint8_t *argument_length)
{
    uint8_t i = 0;
    while (i < length && body[i] != ' ') {
        i++;
    }
    *verb_length = i;
    if (i == length) {
        return 0;
    }
    uint8_t start = (uint8_t)(i + 1u);
    uint8_t end = start;
    while (end < length && body[end] != ' ') {
        end++;
    }
    *argument = body + start;
    *argument_length = (uint8_t)(end - start);
    return end == length ? 1u : 2u;
}

static void dispatch(panel_device *device, const char *body, uint8_t length)
{
    uint8_t verb_length = 0;
    const char *argument = body;
    uint8_t argument_length = 0;
    uint8_t arguments = split_body(body, length, &verb_length, &argument, &argument_length);

    if (text_equals(body, verb_length, "HELLO")) {
        if (arguments != 0) {
            send_error(device, "ARGS", "HELLO", 5);
        } else {
            answer_hello(device);
        }
    } else if (text_equals(body, verb_length, "PING")) {
        if (arguments != 0) {
            send_error(device, "ARGS", "PING", 4);
        } else {
            send_beat(device);
        }
    } else if (text_equals(body, verb_length, "LEDS")) {
        if (arguments != 1) {
            send_error(device, "ARGS", "LEDS", 4);
        } else {
            answer_leds(device, argument, argument_length);
        }
    } else if (text_equals(body, verb_length, "RESEND")) {
        uint16_t first = arguments == 1 ? parse_event_number(argument, argument_length) : 0u;
        if (first == 0) {
            send_error(device, "ARGS", "RESEND", 6);
        } else {
            resend_from(device, first);
            panel_device_continue(device);
        }
    } else {
        send_error(device, "UNKNOWN", body, verb_length); /* cut to fit the body */
    }
}

static int8_t hex_value(char c)
{
    if (c >= '0' && c <= '9') {
        return (int8_t)(c - '0');
    }
    if (c >= 'A' && c <= 'F') {
        return (int8_t)(c - 'A' + 10);
    }
    return -1;
}

void panel_device_handle_line(panel_device *device, const char *line, uint8_t length)
{
    while (panel_device_continue(device)) { /* a caller that did not wait: answers stay in order */
    }
    if (length > PANEL_LINE_MAX) {
        send_error(device, "TOOLONG", "", 0);
        return;
    }
    for (uint8_t i = 0; i < length; i++) {
        if (!is_printable((uint8_t)line[i])) {
            send_error(device, "CHARS", "", 0);
            return;
        }
    }
    if (length < 5 || line[length - 5] != '*') {
        send_error(device, "CHECKSUM", "", 0);
        return;
    }
    uint8_t body_length = (uint8_t)(length - 5u);
    uint16_t checksum = 0;
    for (uint8_t i = (uint8_t)(body_length + 1u); i < length; i++) {
        int8_t digit = hex_value(line[i]);
        if (digit < 0) {
            send_error(device, "CHECKSUM", "", 0);
            return;
        }
        checksum = (uint16_t)((checksum << 4) | (uint8_t)digit);
    }
    if (body_length == 0 || panel_crc16(line, body_length) != checksum) {
        send_error(device, "CHECKSUM", "", 0);
        return;
    }
    dispatch(device, line, body_length);
}

/* ---- Device life cycle ---- */

void panel_device_init(panel_device *device, uint16_t boot_id, uint8_t seats,
                       panel_emit_fn emit, panel_clock_fn clock, void *context)
{
    device->emit = emit;
    device->clock = clock;
    device->context = context;
    device->boot_id = boot_id;
    if (seats < 1) {
        seats = 1;
    }
    if (seats > PANEL_SEATS_MAX) {
        seats = PANEL_SEATS_MAX;
    }
    device->seats = seats;
    device->gone_oldest = 0;
    device->resend_next = 0;
    device->resend_until = 0;
    device->beat_owed = 0;
    device->last_event = 0;
    device->kept = 0;
    device->kept_head = 0;
    for (uint8_t i = 0; i < PANEL_RING_SIZE; i++) {
        device->ring[i].number = 0;
        device->ring[i].button = 0;
        device->ring[i].time_ms = 0;
    }
    for (uint8_t i = 0; i < PANEL_LEDS_MAX; i++) {
        device->leds[i] = PANEL_LED_OFF;
    }
    device->last_beat_ms = clock(context);
    panel_reader_init(&device->reader);

    line_builder line = {{0}, 0};
    add_text(&line, "READY");
    add_hex4(&line, boot_id);
    send_line(device, &line);
}

uint8_t panel_device_receive(panel_device *device, uint8_t byte)
{
    switch (panel_reader_feed(&device->reader, byte)) {
    case PANEL_READ_LINE:
        panel_device_handle_line(device, device->reader.text, device->reader.length);
        panel_reader_init(&device->reader);
        return 1;
    case PANEL_READ_TOOLONG:
        send_error(device, "TOOLONG", "", 0);
        return 1;
    case PANEL_READ_CHARS:
        send_error(device, "CHARS", "", 0);
        return 1;
    default:
        return 0;
    }
}

void panel_device_tick(panel_device *device)
{
    uint32_t now_ms = device->clock(device->context);
    if ((uint32_t)(now_ms - device->last_beat_ms) >= PANEL_HEARTBEAT_MS) {
        device->last_beat_ms = now_ms;
        send_beat(device);
    }
}

static uint8_t blink_on(uint32_t now_ms)
{
    return (uint8_t)(((now_ms / PANEL_BLINK_HALF_PERIOD_MS) & 1u) == 0u);
}

static uint8_t level_of(uint8_t mode, uint8_t blink)
{
    return mode == PANEL_LED_ON ? 1u : (mode == PANEL_LED_BLINK ? blink : 0u);
}

uint8_t panel_device_led_level(const panel_device *device, uint8_t led, uint32_t now_ms)
{
    if (led >= panel_device_led_count(device)) {
        return 0;
    }
    return level_of(device->leds[led], blink_on(now_ms));
}

uint8_t panel_device_led_levels(const panel_device *device, uint32_t now_ms)
{
    uint8_t blink = blink_on(now_ms);
    uint8_t levels = 0;
    for (uint8_t led = 0; led < panel_device_led_count(device); led++) {
        levels = (uint8_t)(levels | (level_of(device->leds[led], blink) << led));
    }
    return levels;
}

uint8_t panel_device_button_count(const panel_device *device)
{
    return (uint8_t)(device->seats + PANEL_OTHER_BUTTONS);
}

uint8_t panel_device_led_count(const panel_device *device)
{
    return (uint8_t)(device->seats + 2u);
}

const char *panel_device_button_name(const panel_device *device, uint8_t button)
{
    static const char *const end_names[PANEL_SEATS_MAX] = {"END1", "END2", "END3",
                                                           "END4", "END5", "END6"};
    static const char *const other_names[PANEL_OTHER_BUTTONS] = {"UNDO", "SELECT", "CONFIRM",
                                                                 "ROLL", "HINT"};
    if (button < device->seats) {
        return end_names[button];
    }
    button = (uint8_t)(button - device->seats);
    return button < PANEL_OTHER_BUTTONS ? other_names[button] : "?";
}
