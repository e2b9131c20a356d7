"""What the table says aloud, worked out from two snapshots of the side screen: the one shown
before an event and the one shown after it. Pure functions, no sound: the speaker in
:mod:`companion.voice` reads these words, and tests check them without any engine.

The screen stays the source of truth: every announcement is words the screen already shows
(its message, whose turn it is, the last moves, the dice of the latest round, the result), made
easier to hear (``c3-d5`` is said "c3 to d5", ``roll:4`` "roll 4", ``defender-wins``
"defender wins", ``END2`` "end 2", ``73¢`` "73 cents").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from companion.display.snapshot import RollView, Snapshot

#: What an announcement is about; the speaker drops stale ones by kind.
Kind = Literal["move", "reject", "ask", "info", "roll", "turn", "result", "hint"]
KINDS: tuple[str, ...] = get_args(Kind)

#: Messages the screen shows while it waits; said aloud they would only be noise.
TRANSIENT_OPENINGS = ("Looking at the board", "Reading ", "Waiting for a clear view")

#: How the screen's message opens when it shows a hint (:mod:`companion.hints`).
HINT_OPENING = "Hint for "

#: Most entries one event adds to the screen's last moves (a move, then passes); a bigger change
#: is a move taken back or a game resumed, not moves to announce.
MAX_NEW_MOVES = 4

#: Card ranks as said aloud (Jokers and Coins moves start with the rank played).
RANK_WORDS = {"A": "ace", "K": "king", "Q": "queen", "J": "jack"}


@dataclass(frozen=True)
class Announcement:
    """One thing to say aloud: its ``kind`` and its ``text``."""

    kind: Kind
    text: str


class Announcer:
    """Remembers the screen last shown and whose turn was last said, and gives the words for
    each new snapshot (:func:`announcements`)."""

    def __init__(self) -> None:
        self.shown: Snapshot | None = None
        self.turn_said: int | None = None

    def hear(self, snapshot: Snapshot) -> list[Announcement]:
        """The words for ``snapshot`` after the one heard before."""
        said = announcements(self.shown, snapshot, self.turn_said)
        self.shown = snapshot
        if any(item.kind == "turn" for item in said):
            self.turn_said = snapshot.to_move
        return said


def announcements(before: Snapshot | None, after: Snapshot,
                  turn_said: int | None = None) -> list[Announcement]:
    """What to say when the screen changes from ``before`` (None: nothing shown yet) to
    ``after``: the new message (a move accepted, a rejection and what to put back, a question),
    the dice of a new round, whose turn it is now (unless ``turn_said`` was said last and it is
    still theirs; never while the layout is set out), and the result once the game is over."""
    said: list[Announcement] = []
    new_moves = _new_moves(before.last_moves if before else (), after.last_moves)
    text, severity = _message(after)
    if (before is None or text != _message(before)[0]) and _worth_saying(text):
        said.append(Announcement(_message_kind(text, severity, bool(new_moves)),
                                 speakable(text)))
    elif new_moves:
        said.extend(Announcement("move", _played(after, entry)) for entry in new_moves)
    if after.rolls and (before is None or after.rolls != before.rolls):
        rolled = " ".join(roll_words(roll) for roll in after.rolls)
        if not any(rolled.rstrip(".") in item.text for item in said):  # not said twice
            said.append(Announcement("roll", rolled))
    if after.result and (before is None or after.result != before.result):
        said.append(Announcement("result", speakable(after.result)))
    elif after.to_move is not None and after.to_move != turn_said and _in_play(after):
        said.append(Announcement("turn", f"{seat_name(after, after.to_move)}'s turn."))
    return said


def roll_words(roll: RollView) -> str:
    """One roll as said aloud: ``South's attack on c8: 4 and 6, 10, halved to 5.``"""
    if not roll.faces:
        return f"{speakable(roll.label)}: {speakable(roll.entered) or 'entered by hand'}."
    faces = [str(face) for face in roll.faces]
    listed = faces[0] if len(faces) == 1 else ", ".join(faces[:-1]) + " and " + faces[-1]
    total = sum(roll.faces)
    if len(faces) > 1:
        listed += f", {total}" if roll.halved else f", {total} in all"
    if roll.halved:
        listed += f", halved to {total // 2}"
    return f"{speakable(roll.label)}: {listed}."


def move_words(text: str) -> str:
    """A move's text as said aloud: ``c3-d5`` "c3 to d5", ``roll:4`` "roll 4",
    ``K:t9>t19`` "king, t9 to t19", ``battle:attacker`` "battle, attacker"."""
    head, colon, tail = text.partition(":")
    if colon and (head in RANK_WORDS or head.isdigit() or head == "joker"):
        return f"{RANK_WORDS.get(head, head)}, {_path_words(tail)}"
    if colon:
        return f"{head}, {_path_words(tail)}" if head in ("battle", "double") else (
            f"{head} {_path_words(tail)}")
    return _path_words(text)


def speakable(text: str) -> str:
    """Screen text made easier to hear: moves' dashes and arrows said as "to", buttons and
    money said as words; everything else as the screen shows it."""
    text = re.sub(r"\b(END|end)(\d)\b", r"end \2", text)
    text = re.sub(r"(\d+)¢", r"\1 cents", text)
    text = re.sub(r"\b([A-Za-z]+):(?=\w)", r"\1 ", text)
    text = re.sub(r"\b[A-Za-z0-9]{1,6}(?:[->][A-Za-z0-9]{1,6})+\b", _said_path, text)
    text = re.sub(r"(?<=[a-z]{3})-(?=[a-z]{3})", " ", text)
    text = text.replace("...", ".")
    return re.sub(r"\s+", " ", text).strip()


def seat_name(snapshot: Snapshot, seat: int) -> str:
    """The name the screen gives seat ``seat`` (``Player 2``, or the name the players chose)."""
    for player in snapshot.players:
        if player.number == seat:
            return player.name
    return f"Player {seat}"


def _said_path(found: re.Match[str]) -> str:
    """A move's path in running text (``c7-d7-d6``, ``G-Hs-e2``, ``t9>t19``) said with "to";
    other hyphenated words (``defender-wins``) as they are."""
    parts = re.split(r"[->]", found.group(0))
    if not any(character.isdigit() for character in found.group(0)):
        return found.group(0)
    return " to ".join(parts)


def _path_words(text: str) -> str:
    return " to ".join(part for part in re.split(r"[->]", text) if part)


def _played(snapshot: Snapshot, entry: str) -> str:
    """A last-moves entry (``2: c3-d5``) as said aloud."""
    seat, _, move = entry.partition(": ")
    name = seat_name(snapshot, int(seat)) if seat.isdigit() else seat
    return f"{name} played {move_words(move)}."


def _new_moves(before: Sequence[str], after: Sequence[str]) -> list[str]:
    """The entries of ``after`` (the screen's last moves, a sliding window) not shown in
    ``before``; none when a move was taken back."""
    if not after or tuple(after) == tuple(before[:len(after)]):
        return []
    for shift in range(1, min(len(after), MAX_NEW_MOVES) + 1):
        kept = list(after[:len(after) - shift])
        if not kept or list(before[len(before) - len(kept):]) == kept:
            return list(after[len(after) - shift:])
    return []


def _in_play(snapshot: Snapshot) -> bool:
    """Whether the game is under way on ``snapshot`` (not the layout being set out): the
    mover's targets, a move or a roll are shown."""
    return bool(snapshot.targets or snapshot.last_moves or snapshot.rolls)


def _message(snapshot: Snapshot) -> tuple[str, str]:
    """The screen's message and its severity (none shown: empty)."""
    message = snapshot.message
    return ("", "info") if message is None else (message.text, message.severity)


def _worth_saying(text: str) -> bool:
    return bool(text.strip()) and not text.startswith(TRANSIENT_OPENINGS)


def _message_kind(text: str, severity: str, moved: bool) -> Kind:
    if text.startswith(HINT_OPENING):
        return "hint"
    if severity == "error":
        return "reject"
    if severity == "warning":
        return "ask"
    return "move" if moved else "info"
