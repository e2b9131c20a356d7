"""Checks every game's position reader shares: a JSON object with known fields only, every
required one present, and an error for a bad value that names its field.

Errors are :class:`~companion.games.base.PositionError` (a ``ValueError``) with the bad input
in the message, cut short so that one sentence stays readable.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.base import PositionError


def short(value: Any, limit: int = 60) -> str:
    """``repr(value)``, cut to ``limit`` characters."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def bad_field(field_name: str, value: Any, rule: str) -> PositionError:
    """The error for one bad field: ``position has 'passes' = 7; <rule>``."""
    return PositionError(f"position has {field_name!r} = {short(value)}; {rule}")


def check_fields(
    data: Any, known: Sequence[str], required: Sequence[str], where: str = "position"
) -> None:
    """Refuse ``data`` unless it is a JSON object of ``known`` fields holding every
    ``required`` one; ``where`` names it in the message."""
    if not isinstance(data, Mapping):
        raise PositionError(f"{where} must be a JSON object, not {short(data)}")
    unknown = [key for key in data if key not in known]
    if unknown:
        raise PositionError(f"{where} has an unknown field {short(unknown[0])}; "
                            f"known fields: {', '.join(known)}")
    missing = [name for name in required if name not in data]
    if missing:
        raise PositionError(f"{where} has no {missing[0]!r}; add it")
