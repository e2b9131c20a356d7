"""Shakala (seed 004, by Christian Freeling) as a registered game: the hooks of
:class:`~companion.games.base.Game` over the modules of this package.

The rulings of ``RULINGS.md`` are followed; the board and its tracks are in
:mod:`~companion.games.shakala.board`, positions in :mod:`~companion.games.shakala.position`,
the notation in :mod:`~companion.games.shakala.moves`, the game tree in
:mod:`~companion.games.shakala.rules` (routes in :mod:`~companion.games.shakala.sowing`),
checking a written move in :mod:`~companion.games.shakala.legality`, the table in
:mod:`~companion.games.shakala.table`.

Where the rulings are silent, this engine decides:

1. Feeding is judged at the start of the move: gems in some pit and an opponent without beads.
2. The 20 points to win stay 20 whatever gem values a variant sets.
3. The game has no limit on moves (the rulings set none); the end is only an emptied side, and
   random or greedy play can circle in an endgame of stones for ever. The demo's purposeful
   bots play to end it (:mod:`~companion.games.shakala.purpose`).
4. An indirect capture may take any gem on the opponent's side after the sowing, gems the mover
   has just dropped there included ("any gem from any of the opponent's pits").
5. A legal move is a distinct position: ``legal_moves`` writes one order of drops for each;
   :meth:`Shakala.apply` accepts any order a player may choose (the position decides).
6. Gem coins follow the values in force, smallest first: dime, nickel, quarter, small dollar
   (``S``, the letter the contract already had for the Sacagawea dollar).
7. At the table (:mod:`~companion.games.shakala.inference` and
   :mod:`~companion.games.shakala.at_table`): a move is worked back from every pit's and
   cup's coins; a pit or cup read with a confidence under 0.5 may hold anything, so the
   referee asks where the doubt matters; the demo stops after
   :attr:`Shakala.demo_ply_cap` turns, a safety net far above the length of a game between
   its purposeful bots.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from companion.games.base import (
    Game,
    GameInfo,
    IllegalMoveError,
    Move,
    Position,
    Result,
    RulesError,
    remembered_perft,
)
from companion.games.shakala import at_table
from companion.games.shakala.board import PIT_NAMES, SIDES, other, side_pits
from companion.games.shakala.inference import (
    doubted_regions,
    fitting_moves,
    nearest_moves,
    seen_beads,
)
from companion.games.shakala.legality import play_checked
from companion.games.shakala.moves import ShakalaMove, parse_move
from companion.games.shakala.position import (
    GAME_NAME,
    VARIANT_NOTES,
    ShakalaPosition,
    starting_position,
)
from companion.games.shakala.purpose import purpose
from companion.games.shakala.rules import (
    count_successors,
    is_over,
    successors,
    termination,
    winner,
)
from companion.games.shakala.table import COIN_KINDS, bead_coins, layout, position_from_reading
from companion.games.shakala.text import SIDE_NAMES, draw_position
from contract.observation import Observation
from contract.table_state import TableState

__all__ = ["Shakala", "ShakalaMove", "ShakalaPosition"]


class Shakala(Game):
    """The Shakala rules engine (2 players, South moves first unless ``north-first``)."""

    name = GAME_NAME
    info = GameInfo(
        title="Shakala", min_players=2, max_players=2, mat="shakala", coin_kinds=COIN_KINDS,
        token_colours=("red", "blue"), score_unit=" points", seat_heading="Cup",
        seat_names={2: SIDES}, variants=VARIANT_NOTES,
    )
    #: The rulings set no move limit, so the demo stops here (and says so) unless the game ends
    #: first: a safety net, over three times the longest game (167 plies) the purposeful bots
    #: played on the held-out seeds of ``bench/bench_shakala_lengths.py``.
    demo_ply_cap = 600
    #: Bots that take gems, keep them and play the endgame to its end.
    demo_bots = ("purposeful", "purposeful")

    def new_position(self, players: int = 2, variants: Sequence[str] = (),
                     seed: int | None = None) -> ShakalaPosition:
        """The start: a stone and a gem in every pit (``seed`` is not used)."""
        self.info.check_players(players)
        return starting_position(variants)

    def position_from_json(self, data: Mapping[str, Any]) -> ShakalaPosition:
        """Read a position; raises :class:`~companion.games.base.PositionError`."""
        return ShakalaPosition.from_json(data)

    def parse_move(self, text: str) -> ShakalaMove:
        """Parse the notation of :mod:`~companion.games.shakala.moves`."""
        return parse_move(text)

    def to_move(self, position: Position) -> int:
        """The player whose turn it is."""
        return _position(position).to_move

    def iter_moves(self, position: Position) -> Iterator[Move]:
        """One move per distinct reachable position, one at a time."""
        return (move for move, _ in successors(_position(position)))

    def legal_moves(self, position: Position) -> list[Move]:
        """One move per distinct reachable position; none at the end."""
        return list(self.iter_moves(position))

    def apply(self, position: Position, move: Move) -> ShakalaPosition:
        """The position after ``move``; raises :class:`IllegalMoveError` saying why not."""
        if not isinstance(move, ShakalaMove):
            raise IllegalMoveError(f"{move!r} is not a Shakala move")
        return play_checked(_position(position), move)

    def perft(self, position: Position, depth: int) -> int:
        """Leaves of the game tree ``depth`` moves deep, over the engine's own children."""
        return _perft(_position(position), depth)

    def is_over(self, position: Position) -> bool:
        """Whether the player to move has no beads."""
        return is_over(_position(position))

    def scores(self, position: Position) -> dict[int, int]:
        """The points in each player's cup."""
        position = _position(position)
        return {player: position.points(player) for player in (1, 2)}

    def seat_coins(self, position: Position) -> dict[int, str]:
        """The coins in each player's cup."""
        position = _position(position)
        coins = bead_coins(position.variants)
        return {player: "".join(coins[value] for value in position.cup(player))
                for player in (1, 2)}

    def result(self, position: Position) -> Result:
        """The player who emptied the opponent wins with 20 points, else loses."""
        position = _position(position)
        return Result(winners=(winner(position),), scores=tuple(self.scores(position).items()),
                      unit=self.info.score_unit, termination=termination(position))

    def purpose(self, position: Position, move: Move) -> float:
        """What ``move`` does beyond the points it takes: the end, the points the opponent's
        reply takes back in the endgame, starving the opponent with 20 points (see
        :mod:`~companion.games.shakala.purpose`)."""
        position = _position(position)
        return purpose(position, self.apply(position, move))

    def legal_targets(self, position: Position) -> frozenset[str]:
        """The mover's pits that hold beads (the pits they can pick up)."""
        position = _position(position)
        if is_over(position):
            return frozenset()
        return frozenset(PIT_NAMES[pit] for pit in side_pits(position.to_move)
                         if position.pits[pit])

    def candidates(self, position: Position, observation: Observation) -> list[Move]:
        """The moves whose resulting pits and cups look like ``observation`` (worked back from
        the reading, see :mod:`~companion.games.shakala.inference`): one at most where every
        region is read with confidence; else every move that fits the sure regions, the one
        that fits the whole reading first, so the referee asks where the doubt matters."""
        position = _position(position)
        exact = self.candidates_except(position, observation, frozenset())
        doubted = doubted_regions(observation)
        if not doubted:
            return exact
        fitting = self.candidates_except(position, observation, doubted)
        return exact + [move for move in fitting if move not in exact]

    def candidates_except(self, position: Position, observation: Observation,
                          unsure: frozenset[str]) -> list[Move]:
        """The moves whose pits and cups look like ``observation`` except in ``unsure``."""
        position = _position(position)
        seen = seen_beads(position, observation, unsure)
        return [] if seen is None else list(fitting_moves(position, seen))

    def forced(self, position: Position) -> Move | None:
        """None: Shakala has no pass, and a player with beads always has a sowing to choose
        (listing moves to find out could take for ever in a pit of many beads)."""
        return None

    def nearest_moves(self, position: Position, observation: Observation, most: int
                      ) -> list[Move] | None:
        """The moves whose pits and cups differ from ``observation`` in one region, else two
        (a slipped bead); none when all differ in more."""
        return list(nearest_moves(_position(position), observation, most))

    def choice_labels(self, position: Position, moves: Sequence[Move]) -> list[str]:
        """What tells each move from the others: the route at a fork, the gem taken."""
        return at_table.choice_labels(_position(position), [_move(move) for move in moves])

    def layout(self, position: Position) -> TableState:
        """The pits' and cups' coins (see :mod:`~companion.games.shakala.table`)."""
        return layout(_position(position))

    def position_from_reading(self, template: Position, observation: Observation
                              ) -> ShakalaPosition:
        """The start the camera read; it must be the template variants' start."""
        return position_from_reading(_position(template), observation)

    def prompt(self, position: Position) -> str:
        """What the mover does now, with feeding and the endgame when they apply."""
        return at_table.prompt(_position(position))

    def table_note(self, position: Position, move: Move) -> str:
        """The gems ``move`` captured and the endgame beginning, in a sentence."""
        position = _position(position)
        return at_table.table_note(position, _move(move), self.apply(position, move))

    def repetition_note(self, times: int) -> str:
        """From the third time a position stands: that it has come back (the rulings set no
        limit, so play goes on)."""
        if times < 3:
            return ""
        return (f"This position has now come up {times} times; the rules set no limit, play "
                "on until a player to move has no beads.")

    def seat_notes(self, position: Position) -> dict[int, str]:
        """Each player's beads in pits (and 20+ points once reached)."""
        return at_table.seat_notes(_position(position))

    def draw(self, position: Position) -> str:
        """The board as text (see :mod:`~companion.games.shakala.text`)."""
        position = _position(position)
        if is_over(position):
            summary = f"game over: {self.result(position).text()}"
        else:
            mover = position.to_move
            summary = f"player {mover} ({SIDE_NAMES[mover - 1]}) to move"
            if not position.has_beads(other(mover)) and position.gems_in_pits:
                summary += f"; {SIDE_NAMES[other(mover) - 1]} must be fed"
        return draw_position(position, summary)


def _perft(position: ShakalaPosition, depth: int) -> int:
    return remembered_perft(position, depth, _child_positions, count_successors)


def _child_positions(position: ShakalaPosition) -> Iterator[ShakalaPosition]:
    return (child for _, child in successors(position))


def _move(move: Move) -> ShakalaMove:
    if not isinstance(move, ShakalaMove):
        raise RulesError(f"{move!r} is not a Shakala move")
    return move


def _position(position: Position) -> ShakalaPosition:
    if not isinstance(position, ShakalaPosition):
        raise RulesError(f"{type(position).__name__} is not a Shakala position")
    return position


GAME = Shakala()
