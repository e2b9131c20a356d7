"""The game as text, ``game.txt``: PGN-like tag pairs, then numbered moves with comments in braces.

```
[Game "coin-isolation"]
[Variants "diagonal"]
[Players "2"]
[Date "2026.11.22"]
[Result "1"]
[Seat1 "south"]
...
[Position "{...the position play started from, as JSON...}"]

{setup: b1 read as P, set to N} 1. a1-b1 h8-g8 2. b1-c1 {asked: b1-c1 or b1-c2; chose b1-c1}
2... pass {player 2 has no legal move} 3. ...  1
```

Moves are numbered **per round**, as in PGN: ``N.`` before the first move of round N (the move of
seat 1 in the usual turn order) and ``N...`` before a move that continues a round after a comment.
A new round starts whenever the player to move has a seat number no greater than the previous
mover's. Passes are moves (``pass``) followed by a comment, and a roll of real dice is followed by
its faces and their source (``roll:4 {dice 4 (camera)}``; a battle's ``{dice 5 : 3+2 (random)}``
gives the attacker's faces, then the defender's, tied rounds first). In a card game the card of
a move the camera did not read is said with how it was known (``5:t12>t17 {card 5 (inferred)}``,
``{card 10 (panel)}``); the journal keeps the source of every card. Moves later taken back stay
in the text as comments (``{taken back: c2-c3}``), so the moves outside braces are exactly the
line of play.
The movetext ends with the result: ``*`` for an unfinished game, otherwise the winning seat
(``1``) or the tied seats (``1=2``).

With **more than two players** the order of the moves no longer tells who made each, so every
move carries its seat number in brackets after the round number, if any::

    1. [1] c1-d1 [2] a8 [3] h6-g6 2. [1] e1 {asked: a7 or a7-a6; chose a7} 2... [2] a7 [3] e4

Two-player texts have no seat labels (seat 1 makes the ``N.`` moves, seat 2 the others).

A damaged journal exports what it holds: a move worked out from the next line's state hash is
followed by a comment saying so (``{journal line 7 was damaged; this move was worked out from the
state hash on line 8}``), and events that could not be replayed are listed, as read, in one comment
before the result (``{not replayed (journal line 9 on): player 1: c2-c3; player 2: h7-h6}``).

:func:`parse_game_text` reads the text back, seat labels included, so that
``format_game_text(parse_game_text(text)) == text`` for every exported text.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion.record.errors import GameTextError, RecordError
from companion.record.journal import JournalEvent
from companion.record.replay import GameTimeline, load_timeline
from contract.user_files import parse_json

GAME_TEXT_NAME = "game.txt"
LINE_WIDTH = 80
UNFINISHED = "*"


@dataclass(frozen=True)
class MoveItem:
    """One move of the line of play: its notation, its round, whether it opens the round, and
    the seat that made it (labelled in games of more than two players, else None)."""

    text: str
    round: int
    opens_round: bool
    seat: int | None = None


@dataclass(frozen=True)
class CommentItem:
    """A comment between moves (a ruling, a correction, a pass explained, a note)."""

    text: str


Item = MoveItem | CommentItem


@dataclass(frozen=True)
class GameText:
    """A parsed or about-to-be-written game text: tags in order, moves and comments, result."""

    tags: tuple[tuple[str, str], ...]
    items: tuple[Item, ...]
    result: str = UNFINISHED

    @property
    def moves(self) -> tuple[str, ...]:
        """The line of play: every move's notation, in order."""
        return tuple(item.text for item in self.items if isinstance(item, MoveItem))

    def tag(self, name: str) -> str | None:
        """The value of a tag, or None when the text has no such tag."""
        return next((value for key, value in self.tags if key == name), None)

    def start_position_json(self) -> dict[str, Any]:
        """The ``Position`` tag's JSON: where the moves start from."""
        value = self.tag("Position")
        if value is None:
            raise GameTextError("the game text has no [Position] tag, so its moves cannot replay.")
        data = parse_json(value, "the game text's [Position] tag", GameTextError)
        if not isinstance(data, dict):
            raise GameTextError("the game text's [Position] tag is not a JSON object.")
        return data


# ------------------------------------------------------------------------------- writing


def format_game_text(game_text: GameText) -> str:
    """The text of ``game.txt``: tag lines, a blank line, movetext wrapped at 80 columns."""
    tag_lines = [f'[{name} "{_escape(value)}"]' for name, value in game_text.tags]
    tokens = list(_movetext_tokens(game_text.items))
    tokens.append(game_text.result)
    return "\n".join([*tag_lines, "", *_wrap(tokens)]) + "\n"


def _movetext_tokens(items: Sequence[Item]) -> Iterator[str]:
    after_comment = True
    for item in items:
        if isinstance(item, CommentItem):
            yield "{" + _clean_comment(item.text) + "}"
            after_comment = True
            continue
        move = item.text if item.seat is None else f"[{item.seat}] {item.text}"
        if item.opens_round:
            yield f"{item.round}. {move}"
        elif after_comment:
            yield f"{item.round}... {move}"
        else:
            yield move
        after_comment = False


def _wrap(tokens: list[str]) -> list[str]:
    lines: list[str] = []
    current = ""
    for token in tokens:
        if current and len(current) + 1 + len(token) > LINE_WIDTH:
            lines.append(current)
            current = token
        else:
            current = f"{current} {token}" if current else token
    if current:
        lines.append(current)
    return lines


def _escape(value: str) -> str:
    """A tag value on one line, with backslashes and quotes escaped."""
    one_line = " ".join(value.splitlines())
    return one_line.replace("\\", "\\\\").replace('"', '\\"')


def _clean_comment(text: str) -> str:
    """Comments are one line with no braces, so the text parses back to the same comment."""
    return " ".join(text.replace("{", "(").replace("}", ")").split())


# ------------------------------------------------------------------------------- reading

_TAG = re.compile(r'^\[(?P<name>[A-Za-z0-9_]+)\s+"(?P<value>(?:[^"\\]|\\.)*)"\]\s*$')
_TOKEN = re.compile(
    r"\{(?P<comment>[^}]*)\}|(?P<number>\d+)(?P<dots>\.\.\.|\.)|\[(?P<seat>\d+)\]|(?P<word>[^\s{}]+)"
)


def parse_game_text(text: str) -> GameText:
    """Read ``game.txt`` back into tags, moves, comments and result; GameTextError if malformed."""
    lines = text.splitlines()
    tags: list[tuple[str, str]] = []
    index = 0
    while index < len(lines) and lines[index].startswith("["):
        match = _TAG.match(lines[index])
        if match is None:
            raise GameTextError(f"game text line {index + 1} is not a tag pair: {lines[index]!r}.")
        tags.append((match["name"], re.sub(r"\\(.)", r"\1", match["value"])))
        index += 1
    movetext = " ".join(lines[index:])
    items, result = _parse_movetext(movetext)
    return GameText(tags=tuple(tags), items=tuple(items), result=result)


def _parse_movetext(movetext: str) -> tuple[list[Item], str]:
    """Moves and comments, then the result (the last word, which has no move number)."""
    reader = _MovetextReader()
    position = 0
    for match in _TOKEN.finditer(movetext):
        _check_gap(movetext[position : match.start()])
        position = match.end()
        reader.token(match)
    _check_gap(movetext[position:])
    return reader.finish()


class _MovetextReader:
    """Reads movetext tokens in order: a round number and a seat label wait for their move."""

    def __init__(self) -> None:
        self.items: list[Item] = []
        self.label: tuple[int, bool] | None = None  # a move number waiting for its move
        self.seat: int | None = None  # a seat label waiting for its move
        self.current_round = 0
        self.last_labelled = False

    def token(self, match: re.Match[str]) -> None:
        """Take one token: a comment, a move number, a seat label or a word."""
        if match["comment"] is not None:
            self._waiting("a comment")
            self.items.append(CommentItem(match["comment"].strip()))
        elif match["number"] is not None:
            self._waiting(f"move number {match['number']}")
            self.label = (int(match["number"]), match["dots"] == ".")
        elif match["seat"] is not None:
            if self.seat is not None:
                raise GameTextError(f"seat label [{self.seat}] is followed by another seat label.")
            self.seat = int(match["seat"])
        else:
            self._move(match["word"])

    def _waiting(self, what: str) -> None:
        if self.label is not None or self.seat is not None:
            label = (
                f"seat label [{self.seat}]"
                if self.seat is not None
                else (f"move number {self.label[0] if self.label else ''}")
            )
            raise GameTextError(f"{label} is followed by {what}, not a move.")

    def _move(self, word: str) -> None:
        opens = False
        if self.label is not None:
            self.current_round, opens = self.label
        self.items.append(MoveItem(word, max(self.current_round, 1), opens, self.seat))
        self.last_labelled = self.label is not None or self.seat is not None
        self.label = self.seat = None

    def finish(self) -> tuple[list[Item], str]:
        """The items and the result; GameTextError when the text does not end with a result."""
        if self.seat is not None:
            raise GameTextError(f"seat label [{self.seat}] is followed by no move.")
        last = self.items.pop() if self.items else None
        if not isinstance(last, MoveItem) or self.last_labelled or self.label is not None:
            raise GameTextError("the game text's moves do not end with a result ('*', '1', '1=2').")
        return self.items, last.text


def _check_gap(gap: str) -> None:
    if gap.strip():
        raise GameTextError(f"the game text holds {gap.strip()!r} where a move was expected.")


# ------------------------------------------------------------------- from a replayed game


def game_text_from_timeline(timeline: GameTimeline,
                            notes: Mapping[int, str] | None = None) -> GameText:
    """The exportable text of a replayed game: tags from the header, the line of play, comments;
    ``notes`` (the review's, by event number) follow their moves as comments."""
    items = _items(timeline, notes or {})
    result = result_text(timeline)
    return GameText(tags=_tags(timeline, result), items=tuple(items), result=result)


def result_text(timeline: GameTimeline) -> str:
    """``*`` while the game goes on, else the winner's seat (``1``) or the tied seats (``1=2``)."""
    game, final = timeline.game, timeline.final
    if not game.is_over(final):
        return UNFINISHED
    return "=".join(str(seat) for seat in sorted(game.result(final).winners)) or UNFINISHED


def _tags(timeline: GameTimeline, result: str) -> tuple[tuple[str, str], ...]:
    header = timeline.header
    tags: list[tuple[str, str]] = [
        ("Game", header.game),
        ("Variants", ",".join(header.variants)),
        ("Players", str(header.players)),
        ("Date", header.started[:10].replace("-", ".")),
        ("Time", header.started[11:19]),
        ("Result", result),
    ]
    for seat in header.seats:
        tags.append((f"Seat{seat.number}", seat.side))
        if seat.name:
            tags.append((f"Name{seat.number}", seat.name))
        if seat.colour:
            tags.append((f"Colour{seat.number}", seat.colour))
    scores = timeline.game.scores(timeline.final)
    tags.extend((f"Score{seat}", str(score)) for seat, score in sorted(scores.items()))
    if result != UNFINISHED:
        tags.append(("Termination", timeline.game.result(timeline.final).text()))
    if header.options:
        tags.append(("Options", json.dumps(header.options, sort_keys=True)))
    if header.calibration_path:
        tags.append(("Calibration", header.calibration_path))
    tags.append(("Software", header.software))
    position_json = timeline.start_of_play().to_json()
    tags.append(("Position", json.dumps(position_json, separators=(",", ":"))))
    return tuple(tags)


class _Rounds:
    """Numbers moves by round: a round begins when a seat before the last mover's moves (a seat
    that acts several times in a row, as Coin Grid's roll then step, stays in its round)."""

    def __init__(self, timeline: GameTimeline) -> None:
        self.first_seat = min((seat.number for seat in timeline.header.seats), default=1)
        self.previous: int | None = None
        self.round = 0

    def next(self, seat: int) -> tuple[int, bool]:
        """The round of a move by ``seat``, and whether the move opens it (the first seat's)."""
        new_round = self.previous is None or seat < self.previous
        self.round += 1 if new_round else 0
        opens = new_round and (self.previous is not None or seat == self.first_seat)
        self.previous = seat
        return self.round, opens


def _mover(timeline: GameTimeline, index: int) -> int:
    """The seat that made the move or pass of step ``index``."""
    event = timeline.steps[index].event
    return int(timeline.game.to_move(timeline.positions[index]) or event.player or 1)


def _items(timeline: GameTimeline, notes: Mapping[int, str]) -> list[Item]:
    """Standing moves and comments in journal order; moves later undone show as a comment."""
    items: list[Item] = []
    standing = set(timeline.standing)
    played: list[tuple[int, str]] = []  # moves and passes standing at this point of the journal
    rounds = _Rounds(timeline)
    labelled = _labels_seats(timeline)
    for index, step in enumerate(timeline.steps):
        event = step.event
        if event.kind in ("move", "pass"):
            played.append((event.number, event.move or "pass"))
            if event.number not in standing:
                continue
            seat = _mover(timeline, index)
            label = seat if labelled else None
            items.append(MoveItem(event.move or "pass", *rounds.next(seat), seat=label))
            if event.kind == "pass":
                items.append(CommentItem(event.text or f"player {seat} has no legal move"))
            elif event.dice:
                items.append(CommentItem(dice_comment(event)))
            elif event.card_source not in (None, "camera"):
                items.append(CommentItem(f"card {event.card} ({event.card_source})"))
            elif event.text:
                items.append(CommentItem(event.text))
            if event.number in notes:
                items.append(CommentItem(notes[event.number]))
        elif event.kind == "correction" and event.correction == "undo":
            taken = ", ".join(text for _, text in _take_back(played, event.retracts))
            note = f" ({event.text})" if event.text else ""
            items.append(CommentItem(f"taken back: {taken or 'a move'}{note}"))
        else:
            items.append(CommentItem(_comment(event)))
        if step.recovered:
            items.append(CommentItem(step.recovered))
    if timeline.unreplayed:
        items.append(CommentItem(_unreplayed_comment(timeline)))
    return items


def _labels_seats(timeline: GameTimeline) -> bool:
    """Whether moves carry their seat: in games of more than two players."""
    return timeline.header.players > 2


def _unreplayed_comment(timeline: GameTimeline) -> str:
    """The events replay could not place, as read: ``not replayed (journal line 9 on): ...``."""
    summaries = "; ".join(_summary(event) for event in timeline.unreplayed)
    return f"not replayed (journal line {timeline.stopped_at} on): {summaries}"


def _summary(event: JournalEvent) -> str:
    """One unreplayed event in a few words: ``player 1: c2-c3``, ``undo of 5``, ``note: ...``."""
    if event.kind in ("move", "pass"):
        return f"player {event.player}: {event.move or 'pass'}"
    if event.kind == "correction" and event.correction == "undo":
        return f"undo of {event.retracts}"
    return _comment(event)


def _take_back(played: list[tuple[int, str]], retracts: int | None) -> list[tuple[int, str]]:
    """Remove the retracted move and everything after it from ``played``; returns them."""
    numbers = [number for number, _ in played]
    cut = numbers.index(retracts) if retracts in numbers else len(played)
    taken = played[cut:]
    del played[cut:]
    return taken


def numbered_moves(timeline: GameTimeline, steps: int | None = None) -> tuple[str, ...]:
    """The moves standing after the first ``steps`` steps (all by default), labelled as in the
    game text: ``"1. c1-c2"``, ``"1... h8-g8"`` (``"1... [2] h8-g8"`` with more than two
    players). For the screen's list of last moves."""
    played: list[tuple[int, str]] = []
    seats: dict[int, int] = {}
    for index, step in enumerate(timeline.steps[:steps]):
        event = step.event
        if event.kind in ("move", "pass"):
            played.append((event.number, event.move or "pass"))
            seats[event.number] = _mover(timeline, index)
        elif event.kind == "correction" and event.correction == "undo":
            _take_back(played, event.retracts)
    rounds = _Rounds(timeline)
    labelled = _labels_seats(timeline)
    labels = []
    for number, text in played:
        round_number, opens = rounds.next(seats[number])
        move = f"[{seats[number]}] {text}" if labelled else text
        labels.append(f"{round_number}{'.' if opens else '...'} {move}")
    return tuple(labels)


def dice_comment(event: JournalEvent) -> str:
    """The dice behind a roll, and where they came from: ``dice 5 : 3 (camera)``; rounds of
    a tied battle one after the other, ``dice 4 : 4, 2 : 5 (random)``."""
    rounds = ", ".join(" : ".join("+".join(map(str, faces)) for faces in round_)
                       for round_ in event.dice)
    return f"dice {rounds} ({event.source})"


def _comment(event: JournalEvent) -> str:
    """A ruling, setup fix or note as one comment line."""
    if event.kind == "correction":
        if event.region:
            was, now = event.was or "empty", event.now or "empty"
            return f"setup: {event.region} read as {was}, set to {now}"
        return f"setup fixed{': ' + event.text if event.text else ''}"
    if event.kind == "ruling" and event.ruling == "ask":
        choices = " or ".join(event.candidates) or "several moves"
        note = f" ({event.text})" if event.text else ""
        return f"asked: {choices}; chose {event.chosen}{note}"
    if event.kind == "ruling":
        return f"rejected: {event.text}"
    if event.kind == "hint":
        return f"hint for player {event.player}: {event.suggested}{hint_chances(event)}"
    return f"note: {event.text}"


def hint_chances(event: JournalEvent) -> str:
    """A hint's win chances as the game text shows them: `` (win chance: 1 62%, 2 38%)``."""
    if not event.win_chance:
        return ""
    shown = ", ".join(f"{seat} {round(chance * 100)}%" for seat, chance in event.win_chance)
    return f" (win chance: {shown})"


def export_game(
    folder: str | os.PathLike[str], out: str | os.PathLike[str] | None = None
) -> tuple[Path, GameTimeline]:
    """Write the game text of a game folder (``DIR/game.txt`` unless ``out`` is given).

    Damage in the journal does not stop the export: it covers what replays, and the timeline's
    ``problems`` say what was left out. When ``companion review`` has reviewed the game
    (``DIR/review.json``), its comments follow the moves they are about. Returns where the text
    went and the timeline.
    """
    from companion.review.store import load_comments

    timeline = load_timeline(folder)
    target = Path(out) if out is not None else Path(folder) / GAME_TEXT_NAME
    text = format_game_text(game_text_from_timeline(timeline, load_comments(folder, timeline)))
    try:
        target.write_text(text, encoding="utf-8")
    except OSError as error:
        raise RecordError(f"cannot write the game text to {target}: {error.strerror}.") from None
    return target, timeline
