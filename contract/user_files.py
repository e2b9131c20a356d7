"""Reading a user's text and JSON files: every expected failure becomes one sentence.

A position given to `companion rules`, a ``--profile``: whatever goes wrong (the file is missing,
is a folder, cannot be read, is not UTF-8, is not JSON, is too big, holds ``NaN``) comes back as
one :class:`~contract.errors.CompanionError` naming the file and what to do, never a traceback.
Callers pass the error class of their own family (``PositionError``, ``ProfileError``), so the
command line reports it with exit code 2 like any other bad input. ``-`` reads standard input.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any, BinaryIO

from contract.errors import CompanionError

#: The largest file read as text: positions and profiles are a few kilobytes.
MAX_BYTES = 16 * 1024 * 1024
STDIN = "-"


class UserFileError(CompanionError):
    """A user's file that cannot be read as the text or JSON it should hold."""


def describe(source: str | os.PathLike[str], what: str) -> str:
    """How a message names the file: ``position file 'a.json'``, or ``position on standard
    input`` for ``-``."""
    if str(source) == STDIN:
        return f"{what.removesuffix(' file')} on standard input"
    return f"{what} {str(source)!r}"


def read_user_text(
    source: str | os.PathLike[str], what: str, error: type[CompanionError] = UserFileError,
    max_bytes: int = MAX_BYTES,
) -> str:
    """The UTF-8 text of ``source`` (``-``: standard input); raises ``error`` naming it."""
    name = describe(source, what)
    data = _read_bytes(source, name, error, max_bytes)
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]  # a byte order mark some editors write
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as failure:
        raise error(
            f"{name} is not UTF-8 text (byte {failure.start + 1} is 0x{data[failure.start]:02x}); "
            "save it as UTF-8"
        ) from None


def read_user_json(
    source: str | os.PathLike[str], what: str, error: type[CompanionError] = UserFileError,
) -> Any:
    """The JSON value in ``source``; raises ``error`` naming the file and the fault."""
    return parse_json(read_user_text(source, what, error), describe(source, what), error)


def read_user_object(
    source: str | os.PathLike[str], what: str, error: type[CompanionError] = UserFileError,
) -> dict[str, Any]:
    """The JSON object in ``source``; anything else (a list, a number) raises ``error``."""
    data = read_user_json(source, what, error)
    if not isinstance(data, dict):
        raise error(f"{describe(source, what)} must hold a JSON object {{...}}, "
                    f"not {json_type(data)}")
    return data


def parse_json(text: str, name: str, error: type[CompanionError] = UserFileError) -> Any:
    """Strict JSON: ``NaN`` and ``Infinity`` (which Python would accept) are refused too."""
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as failure:
        what = failure.msg.removesuffix(" at")  # "Unterminated string starting at"
        raise error(f"{name} is not JSON: {what} at line {failure.lineno} column "
                    f"{failure.colno}; fix the file or write it again") from None
    except _NotJsonNumber as failure:
        raise error(f"{name} is not JSON: {failure} is not a JSON number; "
                    "write a finite number") from None
    except ValueError:  # an integer of thousands of digits
        raise error(f"{name} holds a number too long to read; write a shorter one") from None
    except RecursionError:
        raise error(f"{name} nests lists or objects too deeply to read") from None


def json_type(value: Any) -> str:
    """The JSON name of a value's type, for messages: ``a list``, ``a string``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    names = {dict: "an object", list: "a list", str: "a string", int: "a number",
             float: "a number"}
    return names.get(type(value), type(value).__name__)


class _NotJsonNumber(ValueError):
    """Internal: NaN or Infinity in a file."""


def _refuse_constant(name: str) -> Any:
    raise _NotJsonNumber(name)


def _read_bytes(
    source: str | os.PathLike[str], name: str, error: type[CompanionError], max_bytes: int,
) -> bytes:
    if str(source) == STDIN:
        return _read_stdin(name, error, max_bytes)
    path = Path(source)
    if path.is_dir():
        raise error(f"{name} is a folder; give the path of a file")
    try:
        with path.open("rb") as handle:
            return _read_limited(handle, name, error, max_bytes)
    except FileNotFoundError:
        raise error(f"{name} does not exist; check the path") from None
    except PermissionError:
        raise error(f"{name} cannot be read: permission denied; check its permissions") from None
    except OSError as failure:
        reason = failure.strerror or str(failure)
        raise error(f"{name} cannot be read: {reason}") from None


def _read_stdin(name: str, error: type[CompanionError], max_bytes: int) -> bytes:
    stream = sys.stdin
    if stream is None:
        raise error(f"{name} cannot be read: there is no standard input; give a file")
    try:
        buffer = getattr(stream, "buffer", None)
        if buffer is None:  # a text stream put in place of stdin (tests, embedding)
            return stream.read(max_bytes + 1).encode("utf-8")
        return _read_limited(buffer, name, error, max_bytes)
    except OSError as failure:
        raise error(f"{name} cannot be read: {failure.strerror or failure}") from None


def _read_limited(
    handle: BinaryIO, name: str, error: type[CompanionError], max_bytes: int,
) -> bytes:
    data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise error(f"{name} is larger than {max_bytes // (1024 * 1024)} MB; "
                    "it cannot be the file asked for")
    return data
