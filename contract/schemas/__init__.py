"""JSON Schemas (draft 2020-12) of the files the companion reads and writes, and checking data
against them with `jsonschema <https://python-jsonschema.readthedocs.io>`_.

One ``NAME.schema.json`` per format lives beside this module (see :data:`SCHEMA_NAMES`); each has
the ``$id`` ``urn:coin-table-companion:schema:NAME``, by which the others ``$ref`` it. A failed
check becomes one sentence naming the field, as the command line shows every expected error:
``profile 'p.json' has 'coins' = 'nope', not a list`` (see :func:`describe_error`), never
jsonschema's own report, which dumps the whole schema and instance.

``jsonschema`` is imported on first use, and only for data that :mod:`contract.schemas.quick`
does not find right, so commands that read right files do not pay for it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from contract.errors import CompanionError

if TYPE_CHECKING:
    from jsonschema import Draft202012Validator
    from jsonschema.exceptions import ValidationError
    from referencing import Registry

#: Every format's schema, by name: ``contract/schemas/NAME.schema.json``.
SCHEMA_NAMES = (
    "position-coin-isolation",
    "position-coin-grid",
    "position-jokers-and-coins",
    "position-shakala",
    "profile",
    "observation",
    "journal-line",
    "demo-summary",
    "rules-move",
    "vision-coins",
)
ID_PREFIX = "urn:coin-table-companion:schema:"


class SchemaError(CompanionError):
    """Data that does not match its schema (callers usually pass their own family instead)."""


@cache
def load_schema(name: str) -> dict[str, Any]:
    """The schema called ``name`` (one of :data:`SCHEMA_NAMES`), read from the package."""
    if name not in SCHEMA_NAMES:
        raise SchemaError(f"there is no schema {name!r}; known: {', '.join(SCHEMA_NAMES)}")
    text = Path(__file__).with_name(f"{name}.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def check(
    data: Any, schema: str | Mapping[str, Any], what: str,
    error: type[CompanionError] = SchemaError,
) -> None:
    """Raise ``error`` (one sentence starting with ``what``) unless ``data`` matches ``schema``
    (a name from :data:`SCHEMA_NAMES`, or a schema of its own that may ``$ref`` ours)."""
    found = first_error(data, schema)
    if found is not None:
        raise error(f"{what} {describe_error(found)}")


def first_error(data: Any, schema: str | Mapping[str, Any]) -> ValidationError | None:
    """The most telling way ``data`` fails ``schema`` (jsonschema's best match), or None. An
    unknown field is reported before a missing one: it is most often a misspelt name. Data
    that :func:`~contract.schemas.quick.matches` finds right needs no jsonschema at all."""
    from contract.schemas.quick import matches

    if matches(data, load_schema(schema) if isinstance(schema, str) else schema,
               load_schema) is True:
        return None
    from jsonschema.exceptions import best_match, by_relevance

    key = by_relevance(strong=frozenset({"additionalProperties"}))
    return best_match(_validator(schema).iter_errors(data), key=key)


def describe_error(error: ValidationError) -> str:
    """One clause for a jsonschema error, to follow the file's name: ``has 'passes' = 1e+30,
    more than 4``. It names the field by its path (``coins[0].kind``) and shows the value."""
    from contract.schemas.messages import clause

    return clause(error)


def _validator(schema: str | Mapping[str, Any]) -> Draft202012Validator:
    if isinstance(schema, str):
        return _named_validator(schema)
    from jsonschema import Draft202012Validator

    return Draft202012Validator(schema, registry=_registry())


@cache
def _named_validator(name: str) -> Draft202012Validator:
    from jsonschema import Draft202012Validator

    return Draft202012Validator(load_schema(name), registry=_registry())


@cache
def _registry() -> Registry:
    """Every schema of the package by its ``$id``, so one can ``$ref`` another."""
    from referencing import Registry, Resource

    resources_by_id = [
        (load_schema(name)["$id"], Resource.from_contents(load_schema(name)))
        for name in SCHEMA_NAMES
    ]
    registry: Registry = Registry().with_resources(resources_by_id)
    return registry
