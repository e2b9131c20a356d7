"""How a playout is scored: the game's result at the end, or an estimate part-way.

A playout plays random moves (chance outcomes by their odds) until the game ends or
``cutoff`` plies have been played; a finished game scores its winners (a tie shares the win, a
team wins together), a cut-off one is scored by an evaluation. Without hints the evaluation is
the generic one: the seat ahead on :meth:`~companion.games.base.Game.progress` wins (ties
share). A game may add a ``hints`` module to its package (``companion/games/<game>/hints.py``)
with ``PLAYOUT_PLIES`` (a shorter cutoff) and ``win_chances(position)`` (a graded estimate, e.g.
material and mobility); :func:`evaluation_for` finds it without the game naming it. It may also
give ``move_prior(position, move)`` (how promising a move looks before it is played, for the
tree's progressive widening) and ``playout_move(position, moves, rng)`` (a playout's move
instead of a uniform one), and ``EXPLORATION``, UCB1's exploration weight when its estimates
are sharper than random playouts' (a deterministic estimate at 0 plies needs less exploring),
and ``win_chances_without_threats(position)`` where its estimate has a threat term that
:class:`~companion.analysis.limits.SearchParts` can turn off.
"""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from types import ModuleType

from companion.analysis.limits import ALL_PARTS, SearchParts
from companion.games.base import Game, Move, Position

#: Plies a playout runs without hints before it is scored by progress: long enough that Coin
#: Isolation's games (about 35 plies) end, short enough that a Coin Grid or Shakala playout
#: (700 to thousands of random plies) does not eat the whole budget.
GENERIC_PLAYOUT_PLIES = 120

Chances = tuple[float, ...]
Estimate = Callable[[Position], Mapping[int, float]]
Prior = Callable[[Position, Move], float]
Policy = Callable[[Position, Sequence[Move], random.Random], Move]


@dataclass(frozen=True)
class Evaluation:
    """How playouts of one game are cut short and scored; ``seats`` is how many seats play,
    ``estimate`` the win chance per seat of a position a playout stops in, ``prior`` how
    promising a move looks (for progressive widening), ``policy`` a playout's move."""

    game: Game
    seats: int
    cutoff: int
    estimate: Estimate | None = None
    prior: Prior | None = None
    policy: Policy | None = None
    exploration: float | None = None

    def finished(self, position: Position) -> Chances:
        """The result of a finished game as each seat's share of the win."""
        result = self.game.result(position)
        winners = result.winners or tuple(range(1, self.seats + 1))
        share = 1.0 if result.team else 1.0 / len(winners)
        return tuple(share if seat in winners else 0.0 for seat in range(1, self.seats + 1))

    def cut_off(self, position: Position) -> Chances:
        """The estimate for a playout stopped before the end."""
        if self.estimate is not None:
            chances = self.estimate(position)
            return tuple(float(chances.get(seat, 0.0)) for seat in range(1, self.seats + 1))
        return leader_wins(self.game.progress(position), self.seats)

    def stopped(self, position: Position) -> Chances:
        """The result of a game stopped at a ply cap: the leader on progress wins."""
        return leader_wins(self.game.progress(position), self.seats)


def leader_wins(progress: Mapping[int, float], seats: int) -> Chances:
    """The generic estimate: the seat(s) furthest on win, sharing a tie."""
    best = max(progress.values(), default=0.0)
    leaders = [seat for seat in range(1, seats + 1) if progress.get(seat, 0.0) == best]
    return tuple(1.0 / len(leaders) if seat in leaders else 0.0 for seat in range(1, seats + 1))


def hints_module(game: Game) -> ModuleType | None:
    """The game's optional ``hints`` module (beside its ``game`` module), or None."""
    package = type(game).__module__.rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.hints")
    except ModuleNotFoundError as error:
        if error.name != f"{package}.hints":
            raise
        return None


def evaluation_for(game: Game, position: Position, use_hints: bool = True,
                   parts: SearchParts = ALL_PARTS) -> Evaluation:
    """How playouts from ``position`` are scored: with the game's hints where it has them and
    ``use_hints`` is set, else the generic way; ``parts`` may turn the hints' policy or threats
    off and set the playout's plies."""
    seats = len(game.scores(position))
    hints = hints_module(game) if use_hints else None
    if hints is None or not hasattr(hints, "win_chances"):
        plies = GENERIC_PLAYOUT_PLIES if parts.playout_plies is None else parts.playout_plies
        return Evaluation(game, seats, plies)
    cutoff = int(getattr(hints, "PLAYOUT_PLIES", GENERIC_PLAYOUT_PLIES))
    if parts.playout_plies is not None:
        cutoff = parts.playout_plies
    estimate = hints.win_chances
    if not parts.threats:
        estimate = getattr(hints, "win_chances_without_threats", estimate)
    policy = getattr(hints, "playout_move", None) if parts.playout_policy else None
    return Evaluation(game, seats, cutoff, estimate, getattr(hints, "move_prior", None),
                      policy, getattr(hints, "EXPLORATION", None))
