"""Turns the referee's view into the side screen's snapshot: plain values in, plain values out.

The display decides nothing and the referee draws nothing; this module is the translation between
them, with the seats' pawn colours and whatever the devices are saying right now (the camera gate's
reason while a move is being read, a panel that is unplugged).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

from calibration.geometry import SEATED_MATS, Circle, MatGeometry, mat_for_game
from companion.display.snapshot import (
    MatNote,
    MatView,
    Message,
    PathView,
    PlayerView,
    RegionShape,
    RollSource,
    RollView,
    Severity,
    Snapshot,
    TrackArrow,
)
from companion.games import Game, get_game
from companion.referee import Phase, RefereeView
from companion.referee_events import RollShown
from contract.colours import colour_rgb

#: Printed marks the screen repeats: track arrows between the pits, labels naming forks and
#: joins.
TRACK_MARKS = frozenset({"inner-track", "outer-track"})
NOTE_ENDINGS = (" fork", " join")


@dataclass(frozen=True)
class SeatView:
    """A seat as the screen names it: number, player name and pawn colour name."""

    number: int
    name: str
    colour: str


@dataclass(frozen=True)
class BoardShape:
    """How the screen draws a game's mat: a grid of ``files`` x ``ranks`` squares, or a
    :class:`MatView` of regions of any shape."""

    files: int = 8
    ranks: int = 8
    mat: MatView | None = None


def game_mat(game: Game, players: int | None = None, variants: Sequence[str] = (),
             square_mm: float | None = None) -> MatGeometry:
    """The mat ``game`` is played on: drawn for ``players`` seats and the variants that shape
    it where the mat depends on them (the Jokers and Coins ring), else at ``square_mm``."""
    if game.info.mat in SEATED_MATS and players is not None:
        return mat_for_game(game.info.mat, players=players, variants=tuple(variants))
    return mat_for_game(game.info.mat, square_mm)


def board_shape(game: Game, players: int | None = None, variants: Sequence[str] = ()
                ) -> BoardShape:
    """The screen's board for ``game``, from the same geometry that prints its mat (for
    ``players`` seats where the mat depends on them)."""
    return _board_of(game_mat(game, players, variants))


@lru_cache(maxsize=8)
def _board_of(geometry: MatGeometry) -> BoardShape:
    names = [region.name for region in geometry.regions]
    if all(region.kind == "square" for region in geometry.regions) and names:
        files = len({name[0] for name in names})
        return BoardShape(files, len(names) // files)
    left, top = geometry.play_area.left, geometry.play_area.top
    shapes = []
    for region in geometry.regions:
        low_x, low_y, high_x, high_y = region.shape.bounds()
        shapes.append(RegionShape(region.name, region.kind, isinstance(region.shape, Circle),
                                  low_x - left, low_y - top, high_x - low_x, high_y - low_y))
    area = geometry.play_area
    pits = [region.shape.bounds() for region in geometry.regions if region.kind == "pit"]
    arrows = tuple(TrackArrow(mark.kind, tuple((x - left, y - top) for x, y in mark.path))
                   for mark in geometry.marks if mark.kind in TRACK_MARKS and mark.path
                   and _among(mark.path[0], pits))
    notes = tuple(MatNote(mark.text, mark.rect.centre[0] - left, mark.rect.centre[1] - top)
                  for mark in geometry.marks
                  if mark.kind == "label" and mark.text.endswith(NOTE_ENDINGS))
    return BoardShape(mat=MatView(area.right - area.left, area.bottom - area.top, tuple(shapes),
                                  arrows, notes))


def _among(point: tuple[float, float], boxes: Sequence[tuple[float, float, float, float]]
           ) -> bool:
    """Whether ``point`` lies within the span of ``boxes`` (low x, low y, high x, high y):
    a track arrow between pits, not one of a legend beside them."""
    if not boxes:
        return False
    return (min(box[0] for box in boxes) <= point[0] <= max(box[2] for box in boxes)
            and min(box[1] for box in boxes) <= point[1] <= max(box[3] for box in boxes))


def seat_colour(game: Game, seat: int) -> str:
    """The colour of seat ``seat``'s pawns, as the game names them by seat."""
    return _nth_colour(game.info.token_colours or ("red",), seat)


def default_seats(players: int, colours: Sequence[str]) -> tuple[SeatView, ...]:
    """Seats 1..players named ``Player N`` with the colours in order."""
    return tuple(SeatView(number, f"Player {number}", _nth_colour(colours, number))
                 for number in range(1, players + 1))


def _nth_colour(colours: Sequence[str], seat: int) -> str:
    """Seat ``seat``'s colour of ``colours`` in order, starting again after the last."""
    return colours[(seat - 1) % len(colours)]


def snapshot_of(
    view: RefereeView,
    seats: Sequence[SeatView],
    *,
    game: str = "coin-isolation",
    waiting_reason: str | None = None,
    camera_advice: str | None = None,
) -> Snapshot:
    """The snapshot to draw for ``view``; ``waiting_reason`` is the camera gate's last reason,
    ``camera_advice`` what the players should change about the camera (shown beside the
    referee's news, never over a warning)."""
    rules = get_game(game)
    data = view.position.to_json() if view.position is not None else {}
    info, board = rules.info, board_shape(rules, len(seats), data.get("variants", ()))
    tokens = view.table.tokens()
    held = rules.seat_coins(view.position) if view.position is not None else {}
    notes = rules.seat_notes(view.position) if view.position is not None else {}
    players = tuple(
        PlayerView(
            number=seat.number,
            name=seat.name,
            colour_name=seat.colour,
            colour=colour_rgb(seat.colour),
            pawn=tokens.get(str(seat.number)),
            score_cents=view.scores.get(seat.number, 0),
            taken=held.get(seat.number, ""),
            note=notes.get(seat.number, ""),
        )
        for seat in seats
    )
    path = PathView(view.path, view.path_label) if view.path else None
    return Snapshot(
        game=info.title,
        seat_heading=info.seat_heading,
        score_unit=info.score_unit,
        files=board.files,
        ranks=board.ranks,
        mat=board.mat,
        variants=tuple(data.get("variants", ())),
        stacks=Snapshot.stacks_from(view.table.stacks()),
        players=players,
        to_move=view.to_move,
        targets=view.targets,
        problems=frozenset(view.marked),
        path=path,
        candidates=view.candidate_labels or view.candidates,
        candidates_heading=("Or enter it here (select, confirm):" if view.phase is Phase.ROLL
                            else "Which move was it?"),
        selected=view.selected,
        last_moves=view.last_moves,
        message=_message(view, waiting_reason, camera_advice),
        result=view.result,
        facts=view.facts,
        tokens=tuple(sorted((name, int(contents.token)) for name, contents in view.table.items()
                            if contents.token is not None and contents.token.isdigit())),
        last_path=view.last_path if board.mat is not None else (),
        rolls=tuple(roll_view(roll) for roll in view.rolls_shown),
    )


def roll_view(roll: RollShown) -> RollView:
    """A roll as the screen shows it; the referee's sources ``random`` (the companion's ROLL)
    and any button's (``panel``, a test's) are named for the players."""
    sources: dict[str, RollSource] = {"camera": "camera", "random": "companion"}
    return RollView(roll.label, roll.faces, sources.get(roll.source, "panel"), roll.halved,
                    roll.entered, roll.colours)


def layout_snapshot(
    files: int, ranks: int, coins: Mapping[str, str], pawns: Mapping[str, str],
    message: Message, game: str = "coin-isolation",
) -> Snapshot:
    """The side screen while calibrating: the board with the coins (square -> letter) and the
    pawns (square -> colour name) to lay out, their squares highlighted, and what to do now.
    Each pawn is listed as a player named by its colour, so its colour is named beside it."""
    players = tuple(
        PlayerView(number, colour, colour, colour_rgb(colour), square)
        for number, (square, colour) in enumerate(sorted(pawns.items()), start=1)
    )
    return Snapshot(
        title="Coin Table Companion: calibration",
        game=get_game(game).info.title,
        files=files,
        ranks=ranks,
        stacks=Snapshot.stacks_from(dict(coins)),
        players=players,
        targets=frozenset(coins) | frozenset(pawns),
        message=message,
    )


def _message(view: RefereeView, waiting_reason: str | None,
             camera_advice: str | None = None) -> Message:
    if view.device_trouble:
        return Message(" ".join(view.device_trouble), "error")
    if view.phase is Phase.READING and waiting_reason:
        return Message(f"Waiting for a clear view of the board: {waiting_reason}.", "warning")
    severity = _severity(view.severity)
    if camera_advice and severity == "info":
        return Message(f"{view.message} {camera_advice}".strip(), "warning")
    return Message(view.message, severity)


def _severity(text: str) -> Severity:
    if text == "error":
        return "error"
    return "warning" if text == "warning" else "info"
