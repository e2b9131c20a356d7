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

Dice games (issue 22's second round, measured on Coin Grid in ``bench/bench_search.py``):

- **Chance nodes are averaged, not sampled blindly.** A playout that stops on a chance node of
  few outcomes (a battle, a die) is scored by the outcomes' estimates weighted by their odds,
  and in the tree a chance node's value is its outcomes' values weighted by their odds; the
  outcome followed is the one furthest below its share of the visits (stratified), so a few
  visits already see each outcome in proportion.
- **Progressive widening** where the game's hints give a move prior (``move_prior``): below
  the root, a decision considers its moves best prior first, and only ``WIDENING *
  visits ** WIDENING_POWER`` of them (the root tries every move).
- **A playout policy** where the hints give one (``playout_move``) instead of uniform moves.
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
from companion.analysis.limits import ALL_PARTS, SearchParts
from companion.analysis.rolls import Rolls, folded_rolls
from companion.games.base import Game, Move, Position

#: How many legal moves a node considers (the first ones the engine lists), as the demo's bots
#: do; bounds a node in positions with thousands of paths.
MOVE_LIMIT = 4000
#: UCB1's exploration weight for win shares in [0, 1] (a game's hints may set their own).
EXPLORATION = 1.0
#: A chance node of at most this many outcomes where a playout stops is scored by every
#: outcome's estimate weighted by its odds (a battle, a die), not by one sampled outcome.
AVERAGED_OUTCOMES = 8
#: Progressive widening: a node below the root with n visits considers its first
#: ``ceil(WIDENING * (n + 1) ** WIDENING_POWER)`` moves by the hints' prior.
WIDENING = 2.0
WIDENING_POWER = 0.5


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
                 deal: HiddenDeal | None = None, plies_left: int | None = None,
                 parts: SearchParts = ALL_PARTS) -> None:
        self.game = evaluation.game
        self.parts = parts
        self.evaluation = evaluation
        self.seats = evaluation.seats
        self.rng = rng
        self.deal = deal
        self.plies_left = plies_left
        self.exploration = (EXPLORATION if evaluation.exploration is None
                            else evaluation.exploration)
        self.root = self._node(position)

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

    def _node(self, position: Position) -> Node:
        """A new node; a decision's moves best first by the hints' prior when it has one (ties
        keep the engine's order)."""
        node = Node(self.game, position, self.seats)
        prior = self.evaluation.prior
        widening = self.parts.progressive_widening
        if prior is not None and widening and not node.chance and len(node.moves) > 1:
            scores = {move: prior(position, move) for move in node.moves if move != node.roll}
            node.moves.sort(key=lambda move: -scores.get(move, 0.0))
        return node

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
                child = self._node(self.game.apply(node.position, move))
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
            move = self._outcome(node)
            return move, move not in node.children
        moves: Sequence[Move] = node.moves
        if hands is not None:
            moves = hands.allowed(self.game, node.position, moves)
        widened = self._widened(node, moves)
        untried = [move for move in widened if move not in node.children]
        if untried:
            return (untried[0] if widened is not moves else self.rng.choice(untried)), True
        log_visits = math.log(max(node.visits, 1))
        index = node.seat - 1
        best, best_value = widened[0], -math.inf
        for move in widened:
            child = node.children[move]
            value = (self._value(child, index)
                     + self.exploration * math.sqrt(log_visits / child.visits))
            if value > best_value:
                best, best_value = move, value
        return best, False

    def _widened(self, node: Node, moves: Sequence[Move]) -> Sequence[Move]:
        """The moves a decision considers now: all at the root or without a prior, else the
        first few by prior, more as the node is visited (progressive widening)."""
        if (node is self.root or self.evaluation.prior is None
                or not self.parts.progressive_widening
                or self.deal is not None):
            return moves
        count = math.ceil(WIDENING * (node.visits + 1) ** WIDENING_POWER)
        return moves if count >= len(moves) else moves[:count]

    def _outcome(self, node: Node) -> Move:
        """A chance node's outcome to follow: by its odds, or with averaging the one furthest
        below its share of the visits (stratified sampling)."""
        if not self.parts.chance_averaging:
            return self.rng.choices(node.moves, node.weights)[0]
        total = sum(node.weights)
        seen = node.visits + 1
        best, best_gap = node.moves[0], -math.inf
        for move, weight in zip(node.moves, node.weights, strict=True):
            child = node.children.get(move)
            gap = weight / total - (child.visits if child is not None else 0) / seen
            if gap > best_gap:
                best, best_gap = move, gap
        return best

    def _value(self, node: Node, index: int) -> float:
        """Seat ``index``'s mean win share through ``node``; a chance node's with averaging
        is its outcomes' means weighted by their odds (outcomes not yet seen left out)."""
        if not (node.chance and self.parts.chance_averaging and node.children):
            return node.totals[index] / node.visits
        weighted = mass = 0.0
        for move, weight in zip(node.moves, node.weights, strict=True):
            child = node.children.get(move)
            if child is not None and child.visits:
                weighted += weight * child.totals[index] / child.visits
                mass += weight
        return weighted / mass if mass else node.totals[index] / node.visits

    def _left(self, depth: int) -> int | None:
        """Plies left before the game is stopped, ``depth`` plies below the root (None: no
        cap)."""
        return None if self.plies_left is None else max(self.plies_left - depth, 0)

    def _playout(self, position: Position, hands: Hands | None, left: int | None) -> Chances:
        """Moves from ``position`` (uniform, or by the hints' policy) to the end, the cutoff or
        the ply cap (``left`` plies away), then its score."""
        game, rng, evaluation = self.game, self.rng, self.evaluation
        policy = evaluation.policy
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
                elif policy is not None:
                    move = policy(position, moves, rng)
                else:
                    move = rng.choice(moves)
            position = game.apply(position, move)
        if game.is_over(position):
            return evaluation.finished(position)
        if plies == left:
            return evaluation.stopped(position)
        return self._estimate(position)

    def _estimate(self, position: Position) -> Chances:
        """The cut-off estimate; at a chance node of few outcomes, their estimates weighted by
        their odds (with averaging on)."""
        game, evaluation = self.game, self.evaluation
        if (not self.parts.chance_averaging or hands_hidden(self.deal)
                or not game.is_chance(position)):
            return evaluation.cut_off(position)
        outcomes = game.chance_outcomes(position)
        if len(outcomes) > AVERAGED_OUTCOMES:
            return evaluation.cut_off(position)
        sums = [0.0] * self.seats
        mass = 0.0
        for move, weight in outcomes:
            after = game.apply(position, move)
            chances = (evaluation.finished(after) if game.is_over(after)
                       else evaluation.cut_off(after))
            share = float(weight)
            mass += share
            for index, chance in enumerate(chances):
                sums[index] += share * chance
        return tuple(total / mass for total in sums)


def hands_hidden(deal: HiddenDeal | None) -> bool:
    """Whether hands are hidden (a chance node there is a draw of many cards: sampled)."""
    return deal is not None
