"""The record layer's failures: one family under :class:`~contract.errors.CompanionError`.

Damage found while reading a journal is not raised: the forgiving reader collects it as
problems, line by line. These exceptions are for what stops the record layer outright (no
journal, a header that cannot be read, a folder another companion is writing, a game text that
cannot be parsed); each message is one sentence that names the input and what to do.
"""

from __future__ import annotations

from contract.errors import CompanionError


class RecordError(CompanionError):
    """A game record that cannot be read, written or resumed."""


class JournalMissingError(RecordError):
    """A folder that holds no journal."""


class JournalHeaderError(RecordError):
    """A journal whose first line is missing, garbled or of an unknown format."""


class JournalExistsError(RecordError):
    """A new game asked for in a folder that already holds a journal."""


class JournalLockedError(RecordError):
    """A journal that another running companion is appending to."""


class JournalDamagedError(RecordError):
    """A journal whose replay stops before its end, so it cannot be appended to safely."""


class FrameError(RecordError):
    """A frame image that cannot be written or read."""


class GameTextError(RecordError):
    """An exported game text (``game.txt``) that cannot be parsed."""
