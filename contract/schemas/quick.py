"""A quick yes-or-no check of data against our JSON Schemas, without importing jsonschema.

Importing jsonschema and building a validator costs a command like `companion rules perft` more
than the count itself. Most files are right, and saying so needs no report: :func:`matches`
answers True or False exactly as jsonschema would for the keywords our schemas use, and None
(unsure) for anything else (a keyword it does not know, a float where equality is subtle, a
``$ref`` it cannot follow). Only a True skips jsonschema; a False or None goes on to jsonschema,
which finds the error and words it, so every message stays as precise as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from functools import cache
from typing import Any

#: Keywords that assert nothing (annotations, and ``$defs`` that ``$ref`` reaches into).
ANNOTATIONS = frozenset({"$schema", "$id", "$defs", "$comment", "title", "description",
                         "default", "examples", "deprecated", "readOnly", "writeOnly"})


class Unsure(Exception):
    """Internal: the quick check cannot tell; jsonschema must."""


def matches(data: Any, schema: Mapping[str, Any],
            load: Callable[[str], Mapping[str, Any]]) -> bool | None:
    """Whether ``data`` matches ``schema`` (draft 2020-12), as jsonschema would say, or None
    when unsure. ``load(NAME)`` gives the schema that a ``$ref`` to another of ours names."""
    try:
        return _Checker(load).valid(data, schema, schema)
    except (Unsure, RecursionError):
        return None


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


_TYPES: dict[str, Callable[[Any], bool]] = {
    "object": lambda value: isinstance(value, dict),
    "array": lambda value: isinstance(value, list),
    "string": lambda value: isinstance(value, str),
    "null": lambda value: value is None,
    "boolean": lambda value: isinstance(value, bool),
    "number": _is_number,
    "integer": lambda value: _is_number(value) and (
        isinstance(value, int) or value.is_integer()),
}


def _key(value: Any) -> tuple[type, Any]:
    """What jsonschema compares ``value`` by (``1`` and ``true`` differ), for plain values."""
    if value is None or isinstance(value, str | int):  # bool is an int
        return type(value), value
    raise Unsure  # floats (1 == 1.0), lists and objects: leave them to jsonschema


@cache
def _pattern(text: str) -> re.Pattern[str]:
    return re.compile(text)


class _Checker:
    """One check: the schema loader, and which keywords mean what."""

    def __init__(self, load: Callable[[str], Mapping[str, Any]]) -> None:
        self.load = load
        #: Each $ref followed, by (its document, its text): a position's squares repeat them.
        self.resolved: dict[tuple[int, str], tuple[Any, Mapping[str, Any]]] = {}

    def valid(self, data: Any, schema: Any, root: Mapping[str, Any]) -> bool:
        """``data`` against ``schema``, a (sub)schema of the document ``root``."""
        if schema is True or schema is False:
            return schema
        if not isinstance(schema, Mapping):
            raise Unsure
        for keyword, value in schema.items():
            if keyword in ANNOTATIONS:
                if keyword == "$id" and schema is not root:
                    raise Unsure  # an inner $id would move where its $refs point
                continue
            rule = _RULES.get(keyword)
            if rule is None:
                if keyword in ("then", "else"):
                    continue  # taken with "if"
                raise Unsure
            if not rule(self, data, value, schema, root):
                return False
        return True

    def ref(self, data: Any, value: Any, root: Mapping[str, Any]) -> bool:
        if not isinstance(value, str):
            raise Unsure
        key = (id(root), value)
        found = self.resolved.get(key)
        if found is None:
            found = self.resolved[key] = self.resolve(value, root)
        return self.valid(data, *found)

    def resolve(self, value: str, root: Mapping[str, Any]) -> tuple[Any, Mapping[str, Any]]:
        """The schema a ``$ref`` names, and the document it lies in."""
        address, _, pointer = value.partition("#")
        if address:
            prefix = "urn:coin-table-companion:schema:"
            if not address.startswith(prefix):
                raise Unsure
            try:
                root = self.load(address.removeprefix(prefix))
            except ValueError:  # no such schema: jsonschema says how
                raise Unsure from None
        if pointer and not pointer.startswith("/"):
            raise Unsure  # an anchor
        target: Any = root
        for part in pointer.split("/")[1:]:
            if not isinstance(target, Mapping):
                raise Unsure
            part = part.replace("~1", "/").replace("~0", "~")
            if part not in target:
                raise Unsure
            target = target[part]
        return target, root


def _type(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    names = [value] if isinstance(value, str) else value
    if not all(name in _TYPES for name in names):
        raise Unsure
    return any(_TYPES[name](data) for name in names)


def _on(kind: str) -> Callable[[Callable[..., bool]], Callable[..., bool]]:
    """A keyword that only applies to data of one JSON type (any other passes it)."""
    test = _TYPES[kind]

    def wrap(rule: Callable[..., bool]) -> Callable[..., bool]:
        def checked(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
            return not test(data) or rule(checker, data, value, schema, root)

        return checked

    return wrap


@_on("object")
def _required(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return all(name in data for name in value)


@_on("object")
def _properties(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return all(checker.valid(data[name], rule, root)
               for name, rule in value.items() if name in data)


@_on("object")
def _pattern_properties(checker: _Checker, data: Any, value: Any, schema: Any, root: Any
                        ) -> bool:
    return all(checker.valid(item, rule, root) for pattern, rule in value.items()
               for name, item in data.items() if _pattern(pattern).search(name))


@_on("object")
def _additional(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    known = schema.get("properties", {})
    patterns = [_pattern(pattern) for pattern in schema.get("patternProperties", {})]
    return all(checker.valid(item, value, root) for name, item in data.items()
               if name not in known and not any(pattern.search(name) for pattern in patterns))


@_on("object")
def _property_names(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return all(checker.valid(name, value, root) for name in data)


@_on("object")
def _dependent_required(checker: _Checker, data: Any, value: Any, schema: Any, root: Any
                        ) -> bool:
    return all(other in data for name, others in value.items() if name in data
               for other in others)


@_on("array")
def _items(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    if "prefixItems" in schema:
        raise Unsure
    return all(checker.valid(item, value, root) for item in data)


@_on("array")
def _unique(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return not value or len({_key(item) for item in data}) == len(data)


def _count(test: Callable[[int, Any], bool], kind: str) -> Callable[..., bool]:
    @_on(kind)
    def rule(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
        return test(len(data), value)

    return rule


def _bound(test: Callable[[Any, Any], bool]) -> Callable[..., bool]:
    def rule(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
        return not _is_number(data) or test(data, value)

    return rule


@_on("string")
def _pattern_rule(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return _pattern(value).search(data) is not None


def _const(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return _key(data) == _key(value)


def _enum(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    found = _key(data)
    return any(found == _key(item) for item in value)


def _ref(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return checker.ref(data, value, root)


def _any_of(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return any(checker.valid(data, rule, root) for rule in value)


def _all_of(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return all(checker.valid(data, rule, root) for rule in value)


def _one_of(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    return sum(checker.valid(data, rule, root) for rule in value) == 1


def _if(checker: _Checker, data: Any, value: Any, schema: Any, root: Any) -> bool:
    branch = "then" if checker.valid(data, value, root) else "else"
    return checker.valid(data, schema.get(branch, True), root)


_RULES: dict[str, Callable[..., bool]] = {
    "type": _type,
    "required": _required,
    "properties": _properties,
    "patternProperties": _pattern_properties,
    "additionalProperties": _additional,
    "propertyNames": _property_names,
    "dependentRequired": _dependent_required,
    "items": _items,
    "uniqueItems": _unique,
    "minItems": _count(lambda size, least: size >= least, "array"),
    "maxItems": _count(lambda size, most: size <= most, "array"),
    "minLength": _count(lambda size, least: size >= least, "string"),
    "maxLength": _count(lambda size, most: size <= most, "string"),
    "minProperties": _count(lambda size, least: size >= least, "object"),
    "maxProperties": _count(lambda size, most: size <= most, "object"),
    "minimum": _bound(lambda number, least: number >= least),
    "maximum": _bound(lambda number, most: number <= most),
    "exclusiveMinimum": _bound(lambda number, least: number > least),
    "exclusiveMaximum": _bound(lambda number, most: number < most),
    "pattern": _pattern_rule,
    "const": _const,
    "enum": _enum,
    "$ref": _ref,
    "anyOf": _any_of,
    "allOf": _all_of,
    "oneOf": _one_of,
    "if": _if,
}
