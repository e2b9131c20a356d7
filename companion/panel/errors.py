"""The panel's failures: one family under :class:`~contract.errors.CompanionError`.

A :class:`ProtocolError` is a line that breaks ``firmware/PROTOCOL.md``; it carries the bad line
and the error code the device answers with, so the twin can reply exactly as the firmware does.
A :class:`PanelUnavailableError` says that no panel could be reached and what the user can do.
"""

from __future__ import annotations

from contract.errors import CompanionError


class PanelError(CompanionError):
    """Any expected failure of the button and LED panel."""


class ProtocolError(PanelError):
    """A line that does not follow the panel protocol.

    ``code`` is the protocol's error code (``CHECKSUM``, ``TOOLONG``, ``CHARS``, ``UNKNOWN``,
    ``ARGS``) and ``detail`` its detail (the verb, for ``UNKNOWN`` and ``ARGS``), so that a device
    can answer ``ERR CODE DETAIL``; ``line`` is the raw line as received.
    """

    def __init__(self, line: bytes, code: str, reason: str, detail: str = "") -> None:
        super().__init__(f"bad panel line {line!r}: {reason}")
        self.line = line
        self.code = code
        self.detail = detail


class PanelUnavailableError(PanelError):
    """No panel could be opened or it did not answer; the message says what to do."""
