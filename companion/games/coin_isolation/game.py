"""Coin Isolation (Ken Samuel), both editions and all 13 variants, as a registered game.

The rulings in ``RULINGS.md`` are followed; positions are described in
:mod:`companion.games.coin_isolation.position`, the move notation in
:mod:`companion.games.coin_isolation.moves`, the search in
:mod:`companion.games.coin_isolation.search`, move generation and effects in
:mod:`companion.games.coin_isolation.rules`, camera matching in
:mod:`companion.games.coin_isolation.candidates`.

Decisions where the rulings are silent (variants meeting, and corner cases):

1. ``many-many-pennies`` with ``many-pennies``: the many-many counts (30/20/10/4) are used.
2. ``mixed-change`` with ``mixed-change-2008``: the 2008 rule (half the source coins, rounded
   down, the player choosing which) replaces the one-coin rule.
3. ``greedy`` with ``semi-greedy``: semi-greedy's choice (0 to all coins) applies.
4. ``transplant`` with ``transplant-variant-variant``: the pawn moves first (the latter applies).
5. ``greedy``/``semi-greedy`` with mixed change: only coins of the named type are taken (the
   mixed-change rule that the taken coin is of the path type still holds). ``cleanup`` with mixed
   change: every coin of the named type moves from each path square.
6. Mixed change with transplant: the collected path coins are placed on empty squares; the
   source coin(s) still move to the target, after the placements.
7. Mixed change with a path of empty squares (``empty-squares``): the source coin(s) still move
   to the target (rule 1 of mixed change applies to every move); no coin type is named.
8. ``standing-still`` takes exactly one coin whatever greedy, semi-greedy or cleanup say; under
   mixed change the player names its type (``N:stay``) and nothing else moves. A renegade cannot
   stand still (a renegade never takes coins).
9. ``renegade``: declaring is part of a move (``renegade:c1-c2``): the player declares and moves
   as a renegade in the same turn, so the camera can tell from the move itself. Declaring is
   never forced: a player whose only moves would need a declaration may pass. A renegade moves
   their pawn along any path (one coin type, or empty squares) and nothing else changes, so there
   is one renegade move per target square.
10. Paths of empty squares (``empty-squares``, renegades) change nothing but the pawn, so there is
    one such move per target square.
11. A transplant path is legal only if there are enough empty squares for the collected coins.
12. The end: besides every player passing in a row (and, with ``empty-squares``, no coin left),
    when a variant allows turns that take no coin (``semi-greedy``, ``empty-squares``,
    ``renegade``) the game also ends after ``QUIET_LIMIT_ROUNDS`` (10) rounds in a row in which
    nobody took a coin; otherwise pawns could wander forever. The count is ``quiet`` in the JSON.
13. Tie-break with 3 or 4 players: the tied player who took a coin most recently wins, using
    ``take_order`` (most recent taker first); a semi-greedy zero take is not a take.
14. A player whose pawn is off the board (passed on the first turn) starts from their first row
    again on the next turn.

Speed: ``legal_targets`` and ``candidates`` never list moves and stay fast everywhere (the 4x6
diagonal penny block with its 2.6e7 outcomes included). A full ``legal_moves`` list is built
from (visited squares, last square) states; it is as long as the outcomes are many, so callers
that only need some moves (bots) should take them lazily from ``iter_moves``. Known slow case:
transplant with diagonal on a nearly full board, where most path outcomes collapse into the same
position (refilled squares) and the list can take a minute.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from companion.games.base import (
    Game,
    GameInfo,
    IllegalMoveError,
    Move,
    Position,
    Result,
    RulesError,
)
from companion.games.coin_isolation.board import DEFAULT_SIDES, SQUARE_NAMES, bits
from companion.games.coin_isolation.moves import CoinIsolationMove, fast_path_move
from companion.games.coin_isolation.position import (
    GAME_NAME,
    VARIANTS,
    CoinIsolationPosition,
    random_position,
)
from companion.games.coin_isolation.rules import (
    check,
    is_over,
    iter_moves,
    legal_targets,
    play,
    termination,
)
from companion.games.coin_isolation.search import (
    count_outcomes,
    outcome_paths,
    path_classes,
    start_squares,
)
from companion.games.coin_isolation.text import draw_position
from contract.observation import Observation
from contract.schemas import load_schema
from contract.table_state import TableState

__all__ = ["VARIANTS", "CoinIsolation", "CoinIsolationMove", "CoinIsolationPosition"]

PASS_MOVE = CoinIsolationMove(kind="pass")
#: Variants whose legal moves are exactly the (squares, target) outcomes of coin paths.
_PLAIN_VARIANTS = frozenset({"diagonal", "many-pennies", "many-many-pennies", "greedy", "cleanup"})


class CoinIsolation(Game):
    """The Coin Isolation rules engine; positions and moves are the classes named above."""

    name = GAME_NAME
    variants = VARIANTS
    info = GameInfo(
        title="Coin Isolation", min_players=2, max_players=4, mat="coin-isolation",
        coin_kinds="PNDQ", token_colours=("red", "blue", "green", "yellow"), score_unit="¢",
        seat_heading="Coins taken", seat_names=DEFAULT_SIDES,
    )

    def new_position(
        self, players: int, variants: Sequence[str] = (), seed: int | None = None
    ) -> CoinIsolationPosition:
        """A random starting layout (player 1 to move, default seats)."""
        return random_position(players, variants, seed)

    def position_from_json(self, data: Mapping[str, Any]) -> CoinIsolationPosition:
        """Read a position; raises :class:`~companion.games.base.PositionError`."""
        return CoinIsolationPosition.from_json(data)

    def position_schema(self) -> Mapping[str, Any]:
        """``contract/schemas/position-coin-isolation.schema.json``."""
        return load_schema("position-coin-isolation")

    def parse_move(self, text: str) -> CoinIsolationMove:
        """Parse move notation; raises :class:`~companion.games.base.NotationError`."""
        return CoinIsolationMove.parse(text)

    def to_move(self, position: Position) -> int:
        """The player whose turn it is."""
        return _position(position).to_move

    def iter_moves(self, position: Position) -> Iterator[CoinIsolationMove]:
        """Legal moves one at a time (transplant placements multiply them); ``pass`` last, when the
        player has no move short of declaring renegade."""
        position = _position(position)
        if is_over(position):
            return
        own_move = False
        for move in iter_moves(position):
            own_move = own_move or not move.renegade
            yield move
        if not own_move:
            yield PASS_MOVE

    def legal_moves(self, position: Position) -> list[Move]:
        """One move per distinct outcome; ``pass`` only when there is no move; empty at the end."""
        position = _position(position)
        if not position.variant_set <= _PLAIN_VARIANTS or is_over(position):
            return list(self.iter_moves(position))
        starts = start_squares(position, position.to_move)
        diagonal = "diagonal" in position.variant_set
        moves: list[Move] = []
        with _collector_paused():
            for path_class in path_classes(position, with_empty=False):
                moves += map(fast_path_move, outcome_paths(starts, path_class.allowed, diagonal))
        return moves or [PASS_MOVE]

    def apply(self, position: Position, move: Move) -> CoinIsolationPosition:
        """The position after ``move``; raises :class:`IllegalMoveError`."""
        position = _position(position)
        if not isinstance(move, CoinIsolationMove):
            raise IllegalMoveError(f"{move!r} is not a Coin Isolation move")
        check(position, move)
        return play(position, move)

    def is_over(self, position: Position) -> bool:
        """Whether the game has ended."""
        return is_over(_position(position))

    def scores(self, position: Position) -> dict[int, int]:
        """Cents taken by each player."""
        position = _position(position)
        return {player: position.score(player) for player in range(1, position.players + 1)}

    def seat_coins(self, position: Position) -> dict[int, str]:
        """The coins each player has taken."""
        position = _position(position)
        return {player: position.taken[player - 1] for player in range(1, position.players + 1)}

    def result(self, position: Position) -> Result:
        """Highest total wins; a tie goes to the tied player who took a coin most recently."""
        position = _position(position)
        scores = self.scores(position)
        best = max(scores.values())
        tied = tuple(player for player, score in scores.items() if score == best)
        winners = tied
        if len(tied) > 1:
            recent = next((player for player in position.take_order if player in tied), None)
            if recent is not None:
                winners = (recent,)
        return Result(
            winners=winners,
            scores=tuple(scores.items()),
            tie_broken=len(tied) > 1 and len(winners) == 1,
            unit=self.info.score_unit,
            termination=termination(position),
            tie_break="the last to take",
        )

    def legal_targets(self, position: Position) -> frozenset[str]:
        """Squares the player to move can end on (flood fills; the source when standing still)."""
        return frozenset(SQUARE_NAMES[index] for index in bits(legal_targets(_position(position))))

    def candidates(self, position: Position, observation: Observation) -> list[Move]:
        """Every legal move whose result the camera would see as ``observation``."""
        from companion.games.coin_isolation.candidates import candidates

        return list(candidates(_position(position), observation))

    def layout(self, position: Position) -> TableState:
        """Each square's stack, bottom to top, and each pawn on its square, labelled by its
        player's number."""
        position = _position(position)
        stacks = {SQUARE_NAMES[index]: stack for index, stack in enumerate(position.squares)}
        pawns = {str(player): None if square is None else SQUARE_NAMES[square]
                 for player, square in enumerate(position.pawns, 1)}
        return TableState.of_stacks(stacks, pawns)

    def position_from_reading(self, template: Position, observation: Observation
                              ) -> CoinIsolationPosition:
        """The template (players, variants, seats, pawns) with the coins the camera read, one
        a square: a starting layout is one coin a square."""
        data = _position(template).to_json()
        data["squares"] = {name: reading.coin for name, reading in observation.regions.items()
                           if reading.coin is not None}
        return self.position_from_json(data)

    def draw(self, position: Position) -> str:
        """The board as text, rank 8 at the top; see :func:`draw_position`."""
        return draw_position(_position(position), self.result(_position(position)))

    def perft(self, position: Position, depth: int) -> int:
        """Leaves of the move tree; a plain last ply is counted without building moves."""
        position = _position(position)
        if depth <= 0:
            return 1
        if depth == 1:
            return self._count_moves(position)
        return sum(
            self.perft(play(position, move), depth - 1) for move in self.iter_moves(position)
        )

    def _count_moves(self, position: CoinIsolationPosition) -> int:
        if is_over(position):
            return 0
        if not position.variant_set <= _PLAIN_VARIANTS:
            return sum(1 for _ in self.iter_moves(position))
        starts = start_squares(position, position.to_move)
        diagonal = "diagonal" in position.variant_set
        total = sum(
            count_outcomes(starts, path_class.allowed, diagonal)
            for path_class in path_classes(position, with_empty=False)
        )
        return total or 1


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Pause Python's cycle collector while building many small acyclic objects (about 30%
    faster for the largest move lists); it is restored as it was."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _position(position: Position) -> CoinIsolationPosition:
    if not isinstance(position, CoinIsolationPosition):
        raise RulesError(f"{type(position).__name__} is not a Coin Isolation position")
    return position


GAME = CoinIsolation()
