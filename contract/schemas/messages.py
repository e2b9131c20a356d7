"""jsonschema's :class:`~jsonschema.exceptions.ValidationError` as one clause for a user.

jsonschema says ``1e+30 is greater than the maximum of 4`` and, for a key, nothing of where it
is; the clause says ``has 'passes' = 1e+30, more than 4``: the field by its path, the value (cut
short when long), and what is allowed, from the schema's ``description`` where it has one. The
clause follows the file's name: ``position file 'p.json' has 'passes' = 1e+30, more than 4``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jsonschema.exceptions import ValidationError

from contract.user_files import json_type

MAX_VALUE_CHARS = 40

_TYPE_WORDS = {
    "integer": "a whole number", "number": "a number", "string": "a string",
    "array": "a list", "object": "an object", "boolean": "true or false", "null": "null",
}  # fmt: skip


def clause(error: ValidationError) -> str:
    """The clause for ``error`` (see the module docstring)."""
    if "propertyNames" in error.relative_schema_path:
        return _key_clause(error)
    describe = _CLAUSES.get(str(error.validator), _other)
    return describe(error)


def field_path(parts: Iterable[Any]) -> str:
    """A path as one name: ``coins[0].kind``, ``squares.a1``; empty for the whole file."""
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else f".{part}" if text else str(part)
    return text


def short(value: Any) -> str:
    """``repr`` of a value, cut to :data:`MAX_VALUE_CHARS` characters."""
    text = repr(value)
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 3] + "..."


def _value(error: ValidationError) -> Any:
    """The schema's value of the failed keyword (``4`` for ``"maximum": 4``)."""
    return error.validator_value


def _field(error: ValidationError) -> str:
    return field_path(error.absolute_path)


def _has(error: ValidationError) -> str:
    """``has 'passes' = 1e+30`` (or ``is 5`` for the whole file)."""
    name = _field(error)
    return f"has {name!r} = {short(error.instance)}" if name else f"is {short(error.instance)}"


def _hint(error: ValidationError) -> str:
    description = error.schema.get("description") if isinstance(error.schema, Mapping) else None
    return f"; it must be {description}" if description else ""


def _inside(error: ValidationError) -> str:
    name = _field(error)
    return f" in {name!r}" if name else ""


def _required(error: ValidationError) -> str:
    wanted = _value(error)
    present = error.instance if isinstance(error.instance, Mapping) else {}
    missing = [key for key in wanted if key not in present]
    return f"has no {missing[0]!r}{_inside(error)}; add it" if missing else error.message


def _additional(error: ValidationError) -> str:
    schema = error.schema if isinstance(error.schema, Mapping) else {}
    known = list(schema.get("properties", {}))
    patterns = list(schema.get("patternProperties", {}))
    instance = error.instance if isinstance(error.instance, Mapping) else {}
    extra = [key for key in instance if key not in known
             and not any(re.search(pattern, key) for pattern in patterns)]
    name = repr(extra[0]) if extra else "field"
    listed = f"; known fields: {', '.join(known)}" if known else ""
    return f"has an unknown field {name}{_inside(error)}{listed}"


def _key_clause(error: ValidationError) -> str:
    return f"has a key {short(error.instance)}{_inside(error)}{_hint(error)}"


def _type(error: ValidationError) -> str:
    wanted = _value(error)
    names = [wanted] if isinstance(wanted, str) else list(wanted)
    words = " or ".join(_TYPE_WORDS.get(name, name) for name in names)
    if not _field(error):
        return f"holds {json_type(error.instance)}, not {words}"
    return f"{_has(error)}, not {words}"


def _bound(words: str) -> Callable[[ValidationError], str]:
    return lambda error: f"{_has(error)}; it must be {words} {_value(error)}"


def _choice(error: ValidationError) -> str:
    allowed = ", ".join(str(item) for item in _value(error))
    return f"{_has(error)}; allowed: {allowed}"


def _const(error: ValidationError) -> str:
    return f"{_has(error)}; it must be {_value(error)!r}"


def _pattern(error: ValidationError) -> str:
    return f"{_has(error)}{_hint(error) or ', which is not allowed'}"


def _length(words: str) -> Callable[[ValidationError], str]:
    return lambda error: f"{_has(error)}; it must have {words} {_value(error)} characters"


def _items(words: str) -> Callable[[ValidationError], str]:
    def describe(error: ValidationError) -> str:
        count = len(error.instance) if hasattr(error.instance, "__len__") else 0
        where = repr(_field(error)) if _field(error) else "the file"
        return f"has {count} items in {where}; it must have {words} {_value(error)}"

    return describe


def _unique(error: ValidationError) -> str:
    return f"{_has(error)}, which names an item twice"


def _any_of(error: ValidationError) -> str:
    return f"{_has(error)}{_hint(error) or ', which is none of the forms allowed'}"


def _other(error: ValidationError) -> str:
    return f"{_has(error)}: {error.message[:2 * MAX_VALUE_CHARS]}"


_CLAUSES: dict[str, Callable[[ValidationError], str]] = {
    "required": _required,
    "additionalProperties": _additional,
    "unevaluatedProperties": _additional,
    "type": _type,
    "minimum": _bound("at least"),
    "maximum": _bound("at most"),
    "exclusiveMinimum": _bound("above"),
    "exclusiveMaximum": _bound("below"),
    "enum": _choice,
    "const": _const,
    "pattern": _pattern,
    "minLength": _length("at least"),
    "maxLength": _length("at most"),
    "minItems": _items("at least"),
    "maxItems": _items("at most"),
    "minProperties": _items("at least"),
    "maxProperties": _items("at most"),
    "uniqueItems": _unique,
    "anyOf": _any_of,
    "oneOf": _any_of,
}
