"""Checks every game's position reader shares: a JSON object with known fields only, every
required one present, and an error for a bad value that names its field.

Errors are :class:`~companion.games.base.PositionError` (a ``ValueError``) with the bad input
in the message, cut short so that one sentence stays readable.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
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


def whole_number(value: Any, field_name: str, least: int, most: int) -> int:
    """``value`` as a whole number from ``least`` to ``most`` (``true`` is no number here)."""
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise bad_field(field_name, value, f"it must be a whole number from {least} to {most}")
    return value


def json_object(value: Any, field_name: str) -> Mapping[str, Any]:
    """``value`` as a JSON object."""
    if not isinstance(value, Mapping):
        raise bad_field(field_name, value, "it must be an object")
    return value


def variant_list(raw: Any, normalise: Callable[[Sequence[str]], tuple[str, ...]]
                 ) -> tuple[str, ...]:
    """The ``variants`` field: a list of names, put in order by the game's ``normalise``, whose
    complaint about a variant becomes this field's."""
    if not isinstance(raw, list) or not all(isinstance(v, str) for v in raw):
        raise bad_field("variants", raw, "it must be a list of variant names")
    try:
        return normalise(raw)
    except PositionError as error:
        raise bad_field("variants", raw, str(error)) from None
