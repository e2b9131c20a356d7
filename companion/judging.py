"""How the referee compares what the camera saw with the rules: pure helpers, no devices.

The camera sees, per region, the top coin of a stack (never its height), how many loose coins of
which kinds lie in a pit or cup, and any pawn. These helpers turn a position into that appearance
(through the game's :meth:`~companion.games.base.Game.layout`), list the regions where an
observation differs from it, and find the legal move whose appearance is nearest to what was
seen, so a rejected move can be explained as "what to put back where".
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from itertools import islice

from companion.games.base import Game, Move, Position
from contract.observation import COIN_KINDS, Observation, RegionReading
from contract.table_state import RegionLook, coins_text, seen_looks

#: How many legal moves a rejection looks through for the nearest one; enough for ordinary
#: positions, and a bound on the time a reject takes in the adversarial ones.
NEAREST_MOVE_LIMIT = 3000
#: A square read with less confidence than this is one the camera is unsure of.
UNSURE_CONFIDENCE = 0.5
#: How many squares the camera may be overruled on when the players insist on a board it
#: refused (pressing again without touching it).
INSIST_SQUARES = 2


@dataclass(frozen=True)
class Difference:
    """One region where the board seen differs from the board expected."""

    square: str
    expected: RegionLook
    seen: RegionLook

    def instruction(self) -> str:
        """What to do to this region to make it look as expected, in a player's words."""
        parts: list[str] = []
        if (self.expected.count, self.expected.kinds) != (self.seen.count, self.seen.kinds):
            parts.append(f"{self.square} should hold {_loose_text(self.expected)}, "
                         f"not {_loose_text(self.seen)}")
        if self.expected.coin != self.seen.coin:
            if self.expected.coin is None:
                parts.append(f"take the {coin_name(self.seen.coin)} off {self.square}")
            elif self.seen.coin is None:
                parts.append(f"put a {coin_name(self.expected.coin)} back on {self.square}")
            else:
                parts.append(
                    f"{self.square} should show a {coin_name(self.expected.coin)} on top, "
                    f"not a {coin_name(self.seen.coin)}"
                )
        if self.expected.pawn != self.seen.pawn:
            if self.expected.pawn is None:
                parts.append(f"take the pawn off {self.square}")
            else:
                parts.append(f"pawn {self.expected.pawn} belongs on {self.square}")
        return " and ".join(parts)


def _loose_text(look: RegionLook) -> str:
    """Loose coins in words: ``3 coins (2 pennies, 1 nickel)`` or ``no coins``."""
    if not look.count:
        return "no coins"
    kinds = ", ".join(f"{look.kinds.count(kind)} {coin_plural(kind, look.kinds.count(kind))}"
                      for kind in COIN_KINDS if kind in look.kinds)
    return f"{look.count} coin{'s' if look.count != 1 else ''}" + (f" ({kinds})" if kinds else "")


def coin_plural(letter: str, count: int) -> str:
    """The coin's name for ``count`` of them (``P``, 2 -> ``pennies``)."""
    name = coin_name(letter)
    if count == 1:
        return name
    return name[:-1] + "ies" if name.endswith("y") else name + "s"


def coin_name(letter: str | None) -> str:
    """The coin's everyday name (``P`` -> ``penny``)."""
    if letter is None:
        return "nothing"
    return COIN_KINDS[letter][0] if letter in COIN_KINDS else letter


def appearance(game: Game, position: Position) -> dict[str, RegionLook]:
    """Region -> what the camera should see in ``position``, from the game's layout."""
    return game.layout(position).looks()


def differences(expected: Mapping[str, RegionLook], seen: Mapping[str, RegionLook]
                ) -> list[Difference]:
    """Every region whose look differs, in board order (a1, a2, ... h8)."""
    empty = RegionLook()
    return [
        Difference(square, expected.get(square, empty), seen.get(square, empty))
        for square in sorted(set(expected) | set(seen), key=_board_order)
        if expected.get(square, empty) != seen.get(square, empty)
    ]


def nearest_move(
    game: Game, position: Position, seen: Mapping[str, RegionLook],
    moves: Iterable[Move] | None = None,
) -> tuple[Move, list[Difference]] | None:
    """The legal move whose result looks most like ``seen`` (first of equals), with its differences.

    Looks through at most :data:`NEAREST_MOVE_LIMIT` moves, so a rejection stays quick even where a
    position has millions of legal moves.
    """
    best, diff = nearest_moves(game, position, seen, most=1, moves=moves)
    return (best[0], diff) if best else None


def nearest_moves(
    game: Game, position: Position, seen: Mapping[str, RegionLook], most: int = 8,
    moves: Iterable[Move] | None = None,
) -> tuple[list[Move], list[Difference]]:
    """Every legal move (up to ``most``, first found first) whose result looks as much like
    ``seen`` as any, and the differences of the first; looks through at most
    :data:`NEAREST_MOVE_LIMIT` of ``moves`` (by default every legal move, unless the game finds
    the nearest itself: :meth:`~companion.games.base.Game.nearest_moves`)."""
    if moves is None:
        near = game.nearest_moves(position, _observation_of(seen), most)
        if near is not None:  # the game's own search; empty when no move is near
            if not near:
                return [], []
            return near, differences(appearance(game, game.apply(position, near[0])), seen)
    candidates = moves if moves is not None else game.iter_moves(position)
    best: list[Move] = []
    best_diff: list[Difference] = []
    for move in islice(candidates, NEAREST_MOVE_LIMIT):
        diff = differences(appearance(game, game.apply(position, move)), seen)
        if not best or len(diff) < len(best_diff):
            best, best_diff = [move], diff
        elif len(diff) == len(best_diff) and len(best) < most:
            best.append(move)
        if not best_diff and len(best) >= most:
            break  # nothing nearer is possible, and no room for more alike
    return best, best_diff


def _observation_of(seen: Mapping[str, RegionLook]) -> Observation:
    """The observation a camera reports when it sees ``seen``."""
    return Observation({name: RegionReading(look.coin, look.pawn, count=look.count,
                                            kinds=look.kinds) for name, look in seen.items()})


def unsure_squares(
    observation: Observation, threshold: float = UNSURE_CONFIDENCE
) -> frozenset[str]:
    """Squares the camera read with a confidence below ``threshold``."""
    return frozenset(
        name for name, reading in observation.regions.items() if reading.confidence < threshold
    )


def unchanged_since(before: Observation, now: Observation) -> bool:
    """Whether the camera sees the board ``now`` as it did ``before``, regions it is unsure of
    in either aside: the players pressed again without touching it."""
    unsure = unsure_squares(now) | unsure_squares(before)
    return all(difference.square in unsure
               for difference in differences(seen_looks(before), seen_looks(now)))


def moves_fitting_except(
    game: Game, position: Position, observation: Observation, unsure: frozenset[str]
) -> list[Move]:
    """Legal moves whose look differs from ``observation`` only on ``unsure`` squares.

    The camera's doubtful squares are not held against a move; the squares it is sure of must
    all agree. Looks through at most :data:`NEAREST_MOVE_LIMIT` moves, unless the game works
    them out itself (:meth:`~companion.games.base.Game.candidates_except`).
    """
    if not unsure:
        return []
    worked_out = game.candidates_except(position, observation, unsure)
    if worked_out is not None:
        return worked_out
    seen = seen_looks(observation)
    return [
        move
        for move in islice(game.iter_moves(position), NEAREST_MOVE_LIMIT)
        if all(
            difference.square in unsure
            for difference in differences(appearance(game, game.apply(position, move)), seen)
        )
    ]


def count_note(game: Game, template: Position, position: Position) -> str:
    """A sentence when ``position`` holds other coins than the game's standard set
    (``template``'s), or nothing: ``I count 3 pennies; a standard set has 4 pennies.``"""
    counts = game.layout(position).coin_counts()
    expected = game.layout(template).coin_counts()
    if counts == expected:
        return ""
    return f"I count {coins_text(counts)}; a standard set has {coins_text(expected)}."


def describe(diffs: list[Difference], limit: int = 4) -> str:
    """A short instruction list: 'take the penny off c3; put a nickel back on d4'."""
    shown = "; ".join(difference.instruction() for difference in diffs[:limit])
    more = len(diffs) - limit
    return shown + (f"; and {more} more" if more > 0 else "")


def _board_order(square: str) -> tuple[int, str]:
    digits = "".join(character for character in square if character.isdigit())
    return (int(digits) if digits else 0, square)
