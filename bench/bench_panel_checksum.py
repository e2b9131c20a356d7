"""What the panel protocol's checksum catches: bit flips in every form of line of PROTOCOL.md.

Run: .venv/bin/python bench/bench_panel_checksum.py [--samples N] [--seed S]

Every line a host sends (HELLO, PING, LEDS with every digit pattern for 1 to 6 seats, RESEND
with numbers of every length) and every line a panel sends (HELLO for 1 to 6 seats, READY, EV
with each button, numbers of 1-5 digits and times of 1-10 digits, BEAT, the LEDS answers, which
are the same lines as the commands, and each ERR form) is written with version 2's CRC-16 in four
hex digits and, for comparison, with version 1's CRC-8 (polynomial 0x07, initial 0, computed
here) in two. For each line every 1-bit and every 2-bit flip anywhere in the line (the `*` and
the checksum digits included, the final newline not) is counted, and so is a seeded sample of
3-bit flips and of random bursts (first and last bit of the burst flipped, the bits between at
random). A flipped line "passes" when a device would take it as a good line: printable, `*` and
the right number of upper-case hex digits at its end, and the checksum matching its body.

The 1- and 2-bit counts are exact but not brute force: the CRCs are linear, so a flip in the
body changes the checksum by a fixed syndrome and a flip in a hex digit changes the value it
reads by a fixed amount; a pair passes when both flipped bytes stay valid and the two changes
cancel. A brute-force count of a few lines checks that arithmetic on every run.
"""

from __future__ import annotations

import argparse
import binascii
import random
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import numpy as np

from companion.panel.errors import ProtocolError
from companion.panel.protocol import (
    BUTTONS,
    MAX_SEATS,
    OTHER_BUTTONS,
    checked_body,
    format_line,
)

HEX = b"0123456789ABCDEF"
BURST_BITS = (3, 32)  # burst lengths sampled, first to last flipped bit inclusive


# The two checksums.


def _crc8_table() -> tuple[int, ...]:
    table = []
    for byte in range(256):
        crc = byte
        for _ in range(8):
            crc = ((crc << 1) ^ 0x07) & 0xFF if crc & 0x80 else (crc << 1) & 0xFF
        table.append(crc)
    return tuple(table)


_CRC8_TABLE = _crc8_table()


def crc8(data: bytes, crc: int = 0) -> int:
    """Version 1's CRC-8 (polynomial 0x07, no reflection, no final XOR), from ``crc``."""
    for byte in data:
        crc = _CRC8_TABLE[crc ^ byte]
    return crc


def crc16(data: bytes, crc: int = 0xFFFF) -> int:
    """Version 2's CRC-16/CCITT-FALSE, from ``crc``."""
    return binascii.crc_hqx(data, crc)


@dataclass(frozen=True)
class Checksum:
    """A checksum written as ``digits`` hex digits after a ``*``."""

    name: str
    digits: int
    crc: Callable[[bytes, int], int]
    init: int

    def line(self, body: str) -> bytes:
        raw = body.encode("ascii")
        return raw + b"*" + b"%0*X" % (self.digits, self.crc(raw, self.init))

    def passes(self, line: bytes) -> bool:
        """Whether a device takes ``line`` (without its end) as a good line."""
        if self.digits == 4:
            try:
                checked_body(line)
            except ProtocolError:
                return False
            return True
        return self._passes_locally(line)

    def _passes_locally(self, line: bytes) -> bool:
        if not all(0x20 <= b <= 0x7E for b in line):
            return False
        body, star, digits = line.rpartition(b"*")
        if not star or not body or len(digits) != self.digits:
            return False
        if not all(b in HEX for b in digits):
            return False
        return int(digits, 16) == self.crc(body, self.init)

    def syndromes(self, distance: int) -> list[int]:
        """The checksum change of a flip of bit k (0-7) in the body byte ``distance`` bytes
        before the body's end (the CRC is linear: the change does not depend on the body)."""
        return [self.crc(bytes([1 << k]) + bytes(distance), 0) for k in range(8)]


CRC16 = Checksum("CRC-16, 4 hex digits (v2)", 4, crc16, 0xFFFF)
CRC8 = Checksum("CRC-8, 2 hex digits (v1)", 2, crc8, 0)


# Every form of line in PROTOCOL.md.


def _of_length(chance: random.Random, digits: int, highest: int) -> int:
    lowest = 0 if digits == 1 else 10 ** (digits - 1)
    return chance.randint(lowest, min(highest, 10**digits - 1))


def host_bodies(chance: random.Random) -> Iterator[tuple[str, str]]:
    """(form, body) of every command a host sends."""
    yield "HELLO", "HELLO"
    yield "PING", "PING"
    for seats in range(1, MAX_SEATS + 1):
        for pattern in range(3 ** (seats + 2)):
            text = np.base_repr(pattern, 3).zfill(seats + 2)
            yield "LEDS", f"LEDS {text}"
    for length in range(1, 6):
        numbers = {_of_length(chance, length, 65535) for _ in range(20)}
        for number in sorted(numbers | {10 ** (length - 1), min(65535, 10**length - 1)}):
            yield "RESEND", f"RESEND {max(1, number)}"


def device_bodies(chance: random.Random) -> Iterator[tuple[str, str]]:
    """(form, body) of every line a panel sends but the LEDS answers (the commands' lines)."""
    boots = ["0000", "FFFF", "3FA2", *(f"{chance.randrange(0x10000):04X}" for _ in range(5))]
    for seats in range(1, MAX_SEATS + 1):
        for boot in boots:
            buttons = seats + len(OTHER_BUTTONS)
            yield "HELLO", f"HELLO 2 0.2.0 {buttons} {seats + 2} {boot}"
    for boot in boots:
        yield "READY", f"READY {boot}"
    for button in BUTTONS:
        for number_digits in range(1, 6):
            for time_digits in range(1, 11):
                number = max(1, _of_length(chance, number_digits, 65535))
                ms = _of_length(chance, time_digits, 0xFFFFFFFF)
                yield "EV", f"EV {number} PRESS {button} {ms}"
    for last_digits in range(1, 6):
        for time_digits in range(1, 11):
            last = _of_length(chance, last_digits, 65535)
            yield "BEAT", f"BEAT {last} {_of_length(chance, time_digits, 0xFFFFFFFF)}"
    yield from _error_bodies(chance)


def _error_bodies(chance: random.Random) -> Iterator[tuple[str, str]]:
    for code in ("CHECKSUM", "TOOLONG", "CHARS"):
        yield "ERR", f"ERR {code}"
    for verb in ("FOO", "hello", "X", "JUMP", "ABCDEFGHIJKLMNOPQRSTUVWXYZABCDEFGHIJ"):
        yield "ERR", f"ERR UNKNOWN {verb}"
    for verb in ("HELLO", "PING", "LEDS", "RESEND"):
        yield "ERR", f"ERR ARGS {verb}"
    for digits in range(1, 6):
        yield "ERR", f"ERR GONE {max(1, _of_length(chance, digits, 65535))}"


def all_bodies(seed: int) -> list[tuple[str, str]]:
    chance = random.Random(seed)
    bodies = [*host_bodies(chance), *device_bodies(chance)]
    for _form, body in bodies:
        format_line(body)  # every body is one the protocol allows
    return bodies


# Exact counts of 1- and 2-bit flips.


@dataclass
class Tally:
    """Flipped lines tried and flipped lines that passed."""

    tried: int = 0
    passed: int = 0

    def add(self, tried: int, passed: int) -> None:
        self.tried += tried
        self.passed += passed

    def text(self) -> str:
        if not self.passed:
            return f"0 of {self.tried:,}"
        return f"{self.passed:,} of {self.tried:,} (1 in {self.tried / self.passed:,.0f})"


@dataclass
class Figures:
    """The tallies of one checksum."""

    one: Tally = field(default_factory=Tally)
    two: Tally = field(default_factory=Tally)
    three: Tally = field(default_factory=Tally)
    burst: Tally = field(default_factory=Tally)
    two_by_form: dict[str, Tally] = field(default_factory=dict)


_PRINTABLE = np.array([0x20 <= value <= 0x7E for value in range(256)])
_LOW, _HIGH = (np.array(bits) for bits in zip(*((low, high) for low in range(8)
                                                 for high in range(low + 1, 8)), strict=True))
_HEX_VALUE = np.full(256, -1)
for _value, _char in enumerate(HEX):
    _HEX_VALUE[_char] = _value


class FlipCounter:
    """Counts the 1- and 2-bit flips of lines that pass one checksum, exactly."""

    def __init__(self, checksum: Checksum, longest_body: int = 48) -> None:
        self.checksum = checksum
        self._syndromes = np.array([checksum.syndromes(d) for d in range(longest_body)])

    def count(self, line: bytes) -> tuple[int, int, int, int]:
        """(1-bit flips, of which passed, 2-bit flips, of which passed) of ``line``."""
        values = np.frombuffer(line, dtype=np.uint8).astype(np.int64)
        length = len(line)
        star = length - self.checksum.digits - 1
        ok, change = self._single(values, star)
        bits = 8 * length
        one_passed = int(np.count_nonzero(ok & (change == 0)))
        # Pairs in two different bytes: both flips valid alone and their changes cancel.
        _, counts = np.unique(change[ok], return_counts=True)
        equal_pairs = int((counts * (counts - 1) // 2).sum())
        same_byte_counted, same_byte_passed = self._same_byte(values, star, ok, change)
        two_passed = equal_pairs - same_byte_counted + same_byte_passed
        return bits, one_passed, bits * (bits - 1) // 2, two_passed

    def _single(self, values: np.ndarray, star: int) -> tuple[np.ndarray, np.ndarray]:
        """For each bit: whether its flip alone leaves a valid byte, and the checksum change it
        makes (body: the syndrome; digit: how the value read changes)."""
        positions = np.arange(8 * len(values))
        byte, bit = positions // 8, positions % 8
        flipped = values[byte] ^ (1 << bit)
        ok = _PRINTABLE[flipped] & (byte != star)
        change = np.zeros(len(positions), dtype=np.int64)
        body = byte < star
        change[body] = self._syndromes[star - 1 - byte[body], bit[body]]
        digit = byte > star
        digit_value = _HEX_VALUE[flipped[digit]]
        ok[digit] &= digit_value >= 0
        shift = 4 * (len(values) - 1 - byte[digit])
        change[digit] = (_HEX_VALUE[values[byte[digit]]] ^ digit_value) << shift
        change[~ok] = -1
        return ok, change

    def _same_byte(
        self, values: np.ndarray, star: int, ok: np.ndarray, change: np.ndarray
    ) -> tuple[int, int]:
        """Pairs of flips within one byte: how many the different-byte count took as passing
        (wrongly: the byte is flipped twice) and how many really pass."""
        index = np.arange(len(values))[:, None]
        first, second = 8 * index + _LOW, 8 * index + _HIGH
        counted = ok[first] & ok[second] & (change[first] == change[second])
        flipped = values[:, None] ^ (1 << _LOW) ^ (1 << _HIGH)
        body = np.arange(len(values)) < star
        rows = self._syndromes[star - 1 - np.arange(star)]
        cancel = np.zeros_like(counted)
        cancel[body] = (rows[:, _LOW] ^ rows[:, _HIGH]) == 0
        # The `*` flipped is never a line; a digit flipped twice reads another value, which the
        # unchanged body's checksum cannot match.
        passed = _PRINTABLE[flipped] & cancel
        return int(counted.sum()), int(passed.sum())


def brute_force(checksum: Checksum, line: bytes) -> tuple[int, int]:
    """(1-bit passed, 2-bit passed) of ``line`` by trying every flip: checks the arithmetic."""
    bits = 8 * len(line)
    one = sum(checksum.passes(_flip(line, (p,))) for p in range(bits))
    two = sum(
        checksum.passes(_flip(line, (p, q))) for p in range(bits) for q in range(p + 1, bits)
    )
    return one, two


def _flip(line: bytes, positions: tuple[int, ...]) -> bytes:
    data = bytearray(line)
    for position in positions:
        data[position // 8] ^= 1 << (position % 8)
    return bytes(data)


# Samples: 3-bit flips and bursts.


def three_bit_flips(chance: random.Random, line: bytes, count: int) -> Iterator[bytes]:
    for _ in range(count):
        yield _flip(line, tuple(chance.sample(range(8 * len(line)), 3)))


def bursts(chance: random.Random, line: bytes, count: int) -> Iterator[bytes]:
    """Flips of a run of bits: its first and last flipped, those between at random."""
    bits = 8 * len(line)
    for _ in range(count):
        span = chance.randint(BURST_BITS[0], min(BURST_BITS[1], bits))
        start = chance.randrange(bits - span + 1)
        inner = [start + k for k in range(1, span - 1) if chance.random() < 0.5]
        yield _flip(line, (start, *inner, start + span - 1))


# Running it.


def measure(checksum: Checksum, bodies: list[tuple[str, str]], samples: int, seed: int
            ) -> Figures:
    counter = FlipCounter(checksum)
    chance = random.Random(seed)
    figures = Figures()
    for form, body in bodies:
        line = checksum.line(body)
        bits, one_passed, pairs, two_passed = counter.count(line)
        figures.one.add(bits, one_passed)
        figures.two.add(pairs, two_passed)
        figures.two_by_form.setdefault(form, Tally()).add(pairs, two_passed)
        three = three_bit_flips(chance, line, samples)
        figures.three.add(samples, sum(map(checksum.passes, three)))
        figures.burst.add(samples, sum(map(checksum.passes, bursts(chance, line, samples))))
    return figures


def check_arithmetic(bodies: list[str]) -> None:
    """The exact counts agree with trying every flip, for both checksums."""
    for checksum in (CRC16, CRC8):
        counter = FlipCounter(checksum)
        for body in bodies:
            line = checksum.line(body)
            _, one, _, two = counter.count(line)
            if (one, two) != brute_force(checksum, line):
                raise SystemExit(f"flip arithmetic disagrees with brute force on {line!r}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=40,
                        help="3-bit flips and bursts tried per line and checksum (default 40)")
    parser.add_argument("--seed", type=int, default=2)
    args = parser.parse_args()
    started = time.perf_counter()
    check_arithmetic(["LEDS 000000", "EV 65535 PRESS CONFIRM 4294967295", "ERR GONE 7"])
    bodies = all_bodies(args.seed)
    host = sum(1 for form, _ in host_bodies(random.Random(args.seed)))
    results = {c.name: measure(c, bodies, args.samples, args.seed) for c in (CRC16, CRC8)}
    print(f"{len(bodies):,} lines ({host:,} host commands, LEDS answers included; "
          f"{len(bodies) - host:,} other device lines), {args.samples} 3-bit flips and "
          f"{args.samples} bursts of {BURST_BITS[0]}-{BURST_BITS[1]} bits sampled per line "
          f"(seed {args.seed}); flipped lines that still pass:")
    rows: list[tuple[str, ...]] = [
        ("", "1-bit (all)", "2-bit (all)", "3-bit (sample)", "bursts (sample)")
    ]
    for name, figures in results.items():
        rows.append((name, figures.one.text(), figures.two.text(), figures.three.text(),
                     figures.burst.text()))
    _print_table(rows)
    print("\n2-bit flips that pass, by form of line:")
    forms = sorted(results[CRC16.name].two_by_form)
    rows = [("form", *results)]  # same table shape: one column per checksum
    rows += [(form, *(r.two_by_form[form].text() for r in results.values())) for form in forms]
    _print_table(rows)
    print(f"\n{time.perf_counter() - started:.1f} s")


def _print_table(rows: list[tuple[str, ...]]) -> None:
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths, strict=True)))


if __name__ == "__main__":
    main()
