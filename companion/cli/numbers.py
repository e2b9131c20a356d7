"""Numeric options checked when the command line is parsed: ``type=number(...)`` for argparse.

A number out of its range is one sentence naming the option, the value and the range, and exit
code 2 (:class:`companion.cli.OneLineParser` prints it without the usage block), before anything
slow starts. NaN and infinities are refused: a pace or a frame rate of ``nan`` would hang a demo.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable


def number(
    option: str,
    low: float | None = None,
    high: float | None = None,
    *,
    integer: bool = False,
    above: bool = False,
) -> Callable[[str], float]:
    """An argparse ``type`` reading ``option``'s value as a finite number (a whole number with
    ``integer``) from ``low`` (exclusive with ``above``) to ``high``; None leaves a side open."""
    allowed = _range_text(low, high, above)

    def parse(text: str) -> float:
        try:
            value: float = int(text) if integer else float(text)
        except ValueError:
            kind = "a whole number" if integer else "a number"
            raise argparse.ArgumentTypeError(f"{option} {text!r} is not {kind}; use "
                                             f"{allowed}") from None
        too_low = low is not None and (value <= low if above else value < low)
        too_high = high is not None and value > high
        if not math.isfinite(value) or too_low or too_high:
            raise argparse.ArgumentTypeError(f"{option} {text} is out of range; use {allowed}")
        return value

    parse.__name__ = "int" if integer else "float"
    return parse


def _range_text(low: float | None, high: float | None, above: bool) -> str:
    """The range in words: ``0 to 1``, ``1 or more``, ``a number above 0 up to 1000``."""
    if low is None and high is None:
        return "a finite number"
    if high is None:
        return f"a number above {low:g}" if above else f"{low:g} or more"
    if low is None:
        return f"{high:g} or less"
    if above:
        return f"a number above {low:g} up to {high:g}"
    return f"{low:g} to {high:g}"
