"""One worker's Monte Carlo tree search (UCT) over the game hooks.

Every node holds a position, its actions and, per seat, the sum of the playouts' win shares
that passed through it. A decision node picks the child best for the seat to move by UCB1;
a chance node samples an outcome by its probability (so a chance node is never a choice). A
new child is scored by one playout (:mod:`companion.analysis.evaluation`). Where hands are
hidden (:mod:`companion.analysis.hidden`), every iteration deals the unseen cards anew and
only the moves the dealt hand allows are considered (information-set search: the tree is the
public game, each iteration one consistent guess of the hands). A roll folded into a decision
(:mod:`companion.analysis.rolls`) is one action, rolling, whose child is a chance node over the
faces. Where the game will be stopped
at a ply cap (``plies_left``), a line that reaches the cap is scored as the cap scores it.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import islice

from companion.analysis.evaluation import Chances, Evaluation
from companion.analysis.hidden import Hands, HiddenDeal
from companion.analysis.rolls import Rolls, folded_rolls
from companion.games.base import Game, Move, Position

#: How many legal moves a node considers (the first ones the engine lists), as the demo's bots
#: do; bounds a node in positions with thousands of paths.
MOVE_LIMIT = 4000
#: UCB1's exploration weight for win shares in [0, 1].
EXPLORATION = 1.0


class Node:
    """A position in the tree with its actions and statistics. ``rolling`` makes it the
    chance node of a roll folded into the decision at ``position``, over those faces; a
    decision with a folded roll lists it as one action, ``roll`` (its first face stands for
    it), whose child is that chance node."""

    __slots__ = ("chance", "children", "moves", "over", "position", "roll", "rolls", "seat",
                 "totals", "visits", "weights")

    def __init__(self, game: Game, position: Position, seats: int,
                 rolling: Rolls | None = None) -> None:
        self.position = position
        self.over = rolling is None and game.is_over(position)
        self.chance = rolling is not None or (not self.over and game.is_chance(position))
        self.seat = 0 if self.over else game.to_move(position)
        self.weights: list[float] = []
        self.roll: Move | None = None
        self.rolls: Rolls = []
        if rolling is not None:
            self.moves: list[Move] = [move for move, _ in rolling]
            self.weights = [weight for _, weight in rolling]
        elif self.chance:
            outcomes = game.chance_outcomes(position)
            self.moves = [move for move, _ in outcomes]
            self.weights = [float(weight) for _, weight in outcomes]
        elif self.over:
            self.moves = []
        else:
            self.moves = list(islice(game.iter_moves(position), MOVE_LIMIT))
            self._fold_rolls(game)
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.totals = [0.0] * seats

    def _fold_rolls(self, game: Game) -> None:
        """List a roll folded into this decision as one action, its first face."""
        self.rolls = folded_rolls(game, self.position)
        faces = {face for face, _ in self.rolls}
        if not faces <= set(self.moves):
            self.rolls = []
            return
        if self.rolls:
            self.roll = self.rolls[0][0]
            self.moves = [move for move in self.moves if move not in faces] + [self.roll]


@dataclass(frozen=True)
class RootStats:
    """What one worker found at the root: per root move its visits and win-share totals."""

    moves: tuple[tuple[Move, int, tuple[float, ...]], ...]
    visits: int
    totals: tuple[float, ...]


class Worker:
    """A tree search from one root position with its own seeded random generator."""

    def __init__(self, evaluation: Evaluation, position: Position, rng: random.Random,
                 deal: HiddenDeal | None = None, plies_left: int | None = None) -> None:
        self.game = evaluation.game
        self.evaluation = evaluation
        self.seats = evaluation.seats
        self.rng = rng
        self.deal = deal
        self.plies_left = plies_left
        self.root = Node(self.game, position, self.seats)

    def run(self, playouts: int | None, deadline: float | None) -> RootStats:
        """Iterate until ``playouts`` iterations or the monotonic ``deadline``, whichever first
        (at least one iteration)."""
        done = 0
        while True:
            self.iterate()
            done += 1
            if playouts is not None and done >= playouts:
                break
            if deadline is not None and time.monotonic() >= deadline:
                break
        return self.stats()

    def stats(self) -> RootStats:
        """The root's children with their visits and totals, in the root's move order."""
        root = self.root
        moves = tuple((move, child.visits, tuple(child.totals))
                      for move in root.moves if (child := root.children.get(move)) is not None)
        return RootStats(moves, root.visits, tuple(root.totals))

    def iterate(self) -> None:
        """One selection, expansion, playout and backup."""
        hands = self.deal.dealt(self.rng) if self.deal is not None else None
        node, path, depth = self.root, [self.root], 0
        while True:
            if node.over:
                reward = self.evaluation.finished(node.position)
                break
            left = self._left(depth)
            if left == 0:
                reward = self.evaluation.stopped(node.position)
                break
            move, fresh = self._select(node, hands)
            if node.roll is not None and move == node.roll:
                node = self._rolling(node)
                path.append(node)
                continue
            if hands is not None and not node.chance:
                hands.play(self.game, node.position, move)
            child = node.children.get(move)
            if child is None:
                child = Node(self.game, self.game.apply(node.position, move), self.seats)
                node.children[move] = child
            path.append(child)
            node = child
            depth += 1
            if fresh:
                reward = self._playout(node.position, hands, self._left(depth))
                break
        for visited in path:
            visited.visits += 1
            totals = visited.totals
            for index, share in enumerate(reward):
                totals[index] += share

    def _rolling(self, node: Node) -> Node:
        """The chance node of the roll folded into ``node``'s decision (made on first use)."""
        assert node.roll is not None
        child = node.children.get(node.roll)
        if child is None:
            child = Node(self.game, node.position, self.seats, node.rolls)
            node.children[node.roll] = child
        return child

    def _select(self, node: Node, hands: Hands | None) -> tuple[Move, bool]:
        """The action to follow from ``node`` and whether it leads to a new child."""
        if node.chance:
            move = self.rng.choices(node.moves, node.weights)[0]
            return move, move not in node.children
        moves: Sequence[Move] = node.moves
        if hands is not None:
            moves = hands.allowed(self.game, node.position, moves)
        untried = [move for move in moves if move not in node.children]
        if untried:
            return self.rng.choice(untried), True
        log_visits = math.log(max(node.visits, 1))
        index = node.seat - 1
        best, best_value = moves[0], -math.inf
        for move in moves:
            child = node.children[move]
            value = (child.totals[index] / child.visits
                     + EXPLORATION * math.sqrt(log_visits / child.visits))
            if value > best_value:
                best, best_value = move, value
        return best, False

    def _left(self, depth: int) -> int | None:
        """Plies left before the game is stopped, ``depth`` plies below the root (None: no
        cap)."""
        return None if self.plies_left is None else max(self.plies_left - depth, 0)

    def _playout(self, position: Position, hands: Hands | None, left: int | None) -> Chances:
        """Random moves from ``position`` to the end, the cutoff or the ply cap (``left``
        plies away), then its score."""
        game, rng, evaluation = self.game, self.rng, self.evaluation
        plies = evaluation.cutoff if left is None else min(evaluation.cutoff, left)
        for _ in range(plies):
            if game.is_over(position):
                return evaluation.finished(position)
            if game.is_chance(position):
                outcomes = game.chance_outcomes(position)
                move = rng.choices([move for move, _ in outcomes],
                                   [float(weight) for _, weight in outcomes])[0]
            else:
                moves: Sequence[Move] = list(islice(game.iter_moves(position), MOVE_LIMIT))
                if hands is not None:
                    moves = hands.allowed(game, position, moves)
                    move = rng.choice(moves)
                    hands.play(game, position, move)
                else:
                    move = rng.choice(moves)
            position = game.apply(position, move)
        if game.is_over(position):
            return evaluation.finished(position)
        if plies == left:
            return evaluation.stopped(position)
        return evaluation.cut_off(position)
