"""Coin Grid (seed 001, 2015) as a registered game: the hooks of
:class:`~companion.games.base.Game` over the modules of this package.

The rulings of ``RULINGS.md`` are followed; positions are described in
:mod:`~companion.games.coin_grid.position`, the notation in
:mod:`~companion.games.coin_grid.moves`, the game tree and the rules in
:mod:`~companion.games.coin_grid.rules`, battle odds in :mod:`~companion.games.coin_grid.battle`,
the table in :mod:`~companion.games.coin_grid.table`.

Where the rulings are silent, this engine decides (each is tested):

1. Turn start: with a double stack to make, the node is a decision whose children are the
   double stacks and the six rolls (``is_chance`` is false, and :meth:`CoinGrid.chance_outcomes`
   still gives the faces, 1/6 each, for whoever rolls for the mover); with none, it is a chance
   node of the six faces.
2. Half damage is judged where the battle is fought: a double stack, attacking or defending,
   halves the rolls against it when the battle square is in its owner's half. Both sides can be
   halved at once (a dead coin against a dead coin).
3. The coin under a double stack is any reserve coin and is not recorded: reserves are counts,
   and a lost double stack gives the winner two coins.
4. A reward's exchange may give up any of the mover's own pieces on their star or X row (a double
   stack too, both coins leaving play); the exchanged piece goes to nobody's reserve. With both
   rows full of other players' pieces only declining is left. A won battle that takes the
   defender's last piece ends the game at once, with no reward.
5. The game ends as soon as a player has no piece in play; reserve coins do not keep a player
   in the game. Scores are the coins each player holds: on the board (a double stack is two)
   and in reserve. There is no limit on turns (the rulings set none); random games end, in a
   few hundred to a few thousand steps.
6. A step is its origin and target (``b2-c4``): routes to the same square are one child, and
   steps of different pieces to one square are different children (they leave different
   squares empty).
7. A pass is in the tree but never happens: a player's 24 pieces at most cannot box each other
   in on a 36-square half, an enemy piece can always be attacked, and the wall only stops steps
   outward, so some piece always has a step.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from companion.games.base import (
    DiceRoll,
    Game,
    GameInfo,
    IllegalMoveError,
    Move,
    Position,
    Result,
    RulesError,
)
from companion.games.coin_grid import at_table
from companion.games.coin_grid.board import SIDES, SQUARE_NAMES, bits
from companion.games.coin_grid.legality import check
from companion.games.coin_grid.moves import CoinGridMove, parse_move
from companion.games.coin_grid.perft import perft as fast_perft
from companion.games.coin_grid.position import (
    GAME_NAME,
    VARIANT_NOTES,
    VARIANTS,
    CoinGridPosition,
    starting_position,
)
from companion.games.coin_grid.purpose import purpose
from companion.games.coin_grid.rules import (
    ROLLS,
    battle_outcomes,
    children,
    decisions,
    double_squares,
    is_chance,
    is_over,
    play,
    reward_squares,
    step_reaches,
    termination,
    winners,
)
from companion.games.coin_grid.table import (
    COIN_KINDS,
    layout,
    looks_like,
    position_from_reading,
)
from companion.games.coin_grid.text import SIDE_NAMES, draw_position
from contract.observation import Observation
from contract.table_state import TableState, seen_looks

__all__ = ["VARIANTS", "CoinGrid", "CoinGridMove", "CoinGridPosition"]

FACE_CHANCE = Fraction(1, 6)


class CoinGrid(Game):
    """The Coin Grid rules engine (2 players, South moves first)."""

    name = GAME_NAME
    variants = VARIANTS
    demo_bots = ("purposeful", "purposeful")
    info = GameInfo(
        title="Coin Grid", min_players=2, max_players=2, mat="coin-grid",
        coin_kinds=COIN_KINDS, chance=True, token_colours=("red", "blue"),
        score_unit=" coins", seat_heading="Held", seat_names={2: SIDES},
        variants=VARIANT_NOTES,
    )

    def new_position(self, players: int = 2, variants: Sequence[str] = (),
                     seed: int | None = None) -> CoinGridPosition:
        """The start (South to roll); in the short game ``seed`` picks the 6 squares."""
        self.info.check_players(players)
        return starting_position(variants, seed)

    def position_from_json(self, data: Mapping[str, Any]) -> CoinGridPosition:
        """Read a position; raises :class:`~companion.games.base.PositionError`."""
        return CoinGridPosition.from_json(data)

    def parse_move(self, text: str) -> CoinGridMove:
        """Parse the notation of :mod:`~companion.games.coin_grid.moves`."""
        return parse_move(text)

    def to_move(self, position: Position) -> int:
        """The player whose turn it is (the attacker during a battle)."""
        return _position(position).to_move

    def legal_moves(self, position: Position) -> list[Move]:
        """The mover's choices (none at a chance node or at the end): double stacks and rolls
        at a turn start where a double stack can be made, steps or ``pass`` after a roll,
        ``decline`` and dead-coin squares at a reward."""
        return list(decisions(_position(position)))

    def is_chance(self, position: Position) -> bool:
        """A battle, or a turn start where the mover can only roll."""
        return is_chance(_position(position))

    def chance_outcomes(self, position: Position) -> list[tuple[Move, Fraction]]:
        """The six faces (1/6 each) at a turn start, a battle's outcomes with exact odds (ties
        rolled again); empty elsewhere."""
        position = _position(position)
        if is_over(position):
            return []
        if position.phase == "start":
            return [(roll, FACE_CHANCE) for roll in ROLLS]
        return list(battle_outcomes(position))

    def dice_rolls(self, position: Position) -> tuple[DiceRoll, ...]:
        """The mover's die at a turn start; the attacker's then the defender's dice in a battle
        (see :mod:`~companion.games.coin_grid.at_table`)."""
        return at_table.dice_rolls(_position(position))

    def outcome_of_dice(self, position: Position, faces: Sequence[Sequence[int]]
                        ) -> Move | None:
        """``roll:N``, or the battle's winner (None: a tie, rolled again)."""
        return at_table.outcome_of_dice(_position(position), faces)

    def table_note(self, position: Position, move: Move) -> str:
        """The loser's coins into the winner's reserve; a reserve coin under a double stack."""
        if not isinstance(move, CoinGridMove):
            return ""
        return at_table.table_note(_position(position), move)

    def prompt(self, position: Position) -> str:
        """Roll or double, where to move and what must wait, where a dead coin may go."""
        return at_table.prompt(_position(position))

    def children(self, position: Position) -> list[Move]:
        """Every child of the node, as RULINGS.md's game tree has them."""
        return list(children(_position(position)))

    def apply(self, position: Position, move: Move) -> CoinGridPosition:
        """The position after ``move``; raises :class:`IllegalMoveError` saying why not."""
        position = _position(position)
        if not isinstance(move, CoinGridMove):
            raise IllegalMoveError(f"{move!r} is not a Coin Grid move")
        check(position, move)
        return play(position, move)

    def perft(self, position: Position, depth: int) -> int:
        """Leaves of the game tree ``depth`` steps deep; the last step is counted, not built."""
        return _perft(_position(position), depth)

    def is_over(self, position: Position) -> bool:
        """Whether a player has no piece left."""
        return is_over(_position(position))

    def scores(self, position: Position) -> dict[int, int]:
        """Coins each player holds: on the board (a double stack is two) and in reserve."""
        position = _position(position)
        return {player: position.coins_on_board(player) + position.reserve(player)
                for player in (1, 2)}

    def seat_coins(self, position: Position) -> dict[int, str]:
        """None: reserves are counts (the coin kinds in them are not tracked)."""
        return {}

    def seat_notes(self, position: Position) -> dict[int, str]:
        """Each player's reserve and the dead coins they brought in that still stand."""
        return at_table.seat_notes(_position(position))

    def result(self, position: Position) -> Result:
        """The player with pieces left wins."""
        position = _position(position)
        scores = self.scores(position)
        return Result(winners=winners(position), scores=tuple(scores.items()),
                      unit=self.info.score_unit, termination=termination(position))

    def legal_targets(self, position: Position) -> frozenset[str]:
        """Squares to highlight: where the rolled piece can end, where a double stack can be
        made, or where the dead coin can go."""
        position = _position(position)
        if is_over(position):
            return frozenset()
        squares = 0
        if position.phase == "rolled":
            for _, quiet, attacks in step_reaches(position):
                squares |= quiet | attacks
        elif position.phase == "start":
            squares = double_squares(position)
        elif position.phase == "reward":
            squares = reward_squares(position)[0]
        return frozenset(SQUARE_NAMES[square] for square in bits(squares))

    def candidates(self, position: Position, observation: Observation) -> list[Move]:
        """The mover's choices whose result looks like ``observation`` (a double stack, a roll
        and declining change nothing the camera sees; a dime attacking a nickel may look like
        the nickel alone: :func:`~companion.games.coin_grid.table.looks_like`)."""
        position = _position(position)
        seen = seen_looks(observation)
        return [move for move in decisions(position)
                if looks_like(layout(play(position, move)), seen)]

    def purpose(self, position: Position, move: Move) -> float:
        """Battles, double stacks and closing in on the enemy (see
        :mod:`~companion.games.coin_grid.purpose`)."""
        if not isinstance(move, CoinGridMove):
            return 0.0
        return purpose(_position(position), move)

    def layout(self, position: Position) -> TableState:
        """The coins on the squares (see :mod:`~companion.games.coin_grid.table`)."""
        return layout(_position(position))

    def position_from_reading(self, template: Position, observation: Observation
                              ) -> CoinGridPosition:
        """The start the camera read, with the template's variants and supply."""
        return position_from_reading(_position(template), observation)

    def draw(self, position: Position) -> str:
        """The board as text, rank 12 on top; see
        :func:`~companion.games.coin_grid.text.draw_position`."""
        position = _position(position)
        return draw_position(position, self._summary(position))

    def _summary(self, position: CoinGridPosition) -> str:
        if is_over(position):
            return f"game over: {self.result(position).text()}"
        side = SIDE_NAMES[position.to_move - 1]
        step = {"start": "to roll or make a double stack", "rolled": f"rolled {position.roll}",
                "battle": "in battle", "reward": "may bring a dead coin in"}[position.phase]
        return f"player {position.to_move} ({side}) {step}"


def _perft(position: CoinGridPosition, depth: int) -> int:
    return fast_perft(position, depth)


def _position(position: Position) -> CoinGridPosition:
    if not isinstance(position, CoinGridPosition):
        raise RulesError(f"{type(position).__name__} is not a Coin Grid position")
    return position


GAME = CoinGrid()
