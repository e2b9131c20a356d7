/*
 * The panel's inputs other than the serial line (see protocol.h): debouncing the button
 * contacts and making the boot id. Plain C99 without I/O, like protocol.c, so the host tests
 * run it too.
 */
#include "protocol.h"

/* ---- Debounce ---- */

void panel_debouncer_init(panel_debouncer *debouncer, uint32_t now_ms, uint8_t closed)
{
    debouncer->changed_at_ms = now_ms;
    debouncer->raw_closed = closed ? 1u : 0u;
    debouncer->stable_closed = debouncer->raw_closed;
}

uint8_t panel_debouncer_feed(panel_debouncer *debouncer, uint32_t now_ms, uint8_t closed)
{
    closed = closed ? 1u : 0u;
    if (closed != debouncer->raw_closed) {
        debouncer->raw_closed = closed;
        debouncer->changed_at_ms = now_ms;
        return 0;
    }
    if (closed != debouncer->stable_closed &&
        (uint32_t)(now_ms - debouncer->changed_at_ms) >= PANEL_DEBOUNCE_MS) {
        debouncer->stable_closed = closed;
        return closed;
    }
    return 0;
}

/* ---- Boot id ---- */

uint16_t panel_boot_id(uint32_t boot_counter, uint32_t jitter, uint16_t previous_id)
{
    /* A 32-bit integer mixer (the finaliser of MurmurHash3), so neighbouring counters and
     * jitter values give unrelated ids. */
    uint32_t x = boot_counter ^ (jitter * 0x9E3779B9u);
    x ^= x >> 16;
    x *= 0x85EBCA6Bu;
    x ^= x >> 13;
    x *= 0xC2B2AE35u;
    x ^= x >> 16;
    uint16_t id = (uint16_t)(x ^ (x >> 16));
    if (id == previous_id) {
        id = (uint16_t)(id ^ 0x5A5Au);
    }
    return id;
}
