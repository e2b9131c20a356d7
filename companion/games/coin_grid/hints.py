"""Evaluation hints for a search of Coin Grid (:mod:`companion.analysis`): material, threats,
a move prior and a playout policy.

A playout is cut short after :data:`PLAYOUT_PLIES` plies and scored by :func:`win_chances`.
A seat's material is what its pieces are worth in battle: an original single coin one die
(:data:`SINGLE`), a double stack two (:data:`DOUBLE`), a dead coin a halved die (:data:`DEAD`);
coins in reserve may become double stacks (:data:`RESERVE_COIN`), and each rank a piece has
advanced towards the enemy star row adds :data:`ADVANCE_PER_RANK` (the way to battles, double
stacks and dead coins). A player with no piece loses, so the estimate is a logistic of the log
of the material ratio with scale :data:`SCALE`.

Material alone does not see what the next roll does: a single coin standing two squares from an
enemy double stack is lost five times in six, yet counts in full. So the seat about to roll
adds what its best move is worth on average over the six faces (:func:`threat`: the best
battle's expected material, a dead coin from the enemy star row, a double stack), and the
other seat :data:`NEXT_THREAT` of its own, since the mover may still parry. A battle is scored
by its two outcomes weighted by their exact odds (:mod:`~companion.games.coin_grid.battle`).

:func:`move_prior` ranks moves before they are played, for the search's progressive widening:
battles by their expected material, dead coins, double stacks, then steps closing in on the
enemy. :func:`playout_move` plays the best-ranked move when it wins something, else a random
one.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from functools import cache

from companion.games.base import Move, Position
from companion.games.coin_grid.battle import odds
from companion.games.coin_grid.board import (
    BOARD,
    FILE_COUNT,
    HOME,
    RANK_COUNT,
    STAR_ROW,
    WALL_ROLL,
    bits,
    king_steps,
    other,
)
from companion.games.coin_grid.moves import DEAD as DEAD_KIND
from companion.games.coin_grid.moves import DOUBLE as DOUBLE_KIND
from companion.games.coin_grid.moves import STEP, CoinGridMove
from companion.games.coin_grid.position import CoinGridPosition, Piece
from companion.games.coin_grid.purpose import distance
from companion.games.coin_grid.rules import battle_outcomes, double_squares, play, walk_layers

#: Plies a playout runs before it is scored.
PLAYOUT_PLIES = 0
#: UCB1's exploration weight: the estimate at 0 plies is deterministic and a coin's lead moves
#: it by about 0.15, so the search's default (1.0) spread a second's playouts almost evenly
#: over a roll's 150-odd moves and the most visited was nearly any of them.
EXPLORATION = 0.25
#: What each piece is worth: about its average battle roll, in dice.
SINGLE = 1.0
DOUBLE = 1.8
DEAD = 0.6
#: A coin in reserve: a double stack to be.
RESERVE_COIN = 0.5
#: The bonus per rank a piece stands from its own star row.
ADVANCE_PER_RANK = 0.03
#: A material ratio of r gives the ahead seat a chance of r ** (1 / SCALE) to 1.
SCALE = 0.12
#: The share of the seat not about to roll's own threat that counts (the mover moves first).
NEXT_THREAT = 0.5
#: The prior of a quiet step per king step it brings the piece nearer the enemy.
CLOSING = 0.02
FACES = range(1, 7)


def piece_value(piece: Piece) -> float:
    """What one piece is worth in battle."""
    if piece.dead:
        return DEAD
    return DOUBLE if piece.double else SINGLE


def material(position: CoinGridPosition, player: int) -> float:
    """``player``'s pieces (the attacker of a battle too), reserve and advancement."""
    mine = position.pieces_of(player)
    value = 0.0
    for square in bits(mine):
        bit = 1 << square
        value += DEAD if position.dead & bit else DOUBLE if position.double & bit else SINGLE
        rank = square // FILE_COUNT
        value += ADVANCE_PER_RANK * (rank if player == 1 else RANK_COUNT - 1 - rank)
    if position.attacker is not None and position.attacker.owner == player:
        value += piece_value(position.attacker)
    return value + RESERVE_COIN * position.reserve(player)


def win_chances(position: Position, threats: bool = True) -> dict[int, float]:
    """Each seat's chance to win from material and (unless ``threats`` is off) threats: 0 or 1
    once a side has no piece; a battle by its outcomes weighted by their odds."""
    assert isinstance(position, CoinGridPosition)
    if position.phase == "battle":
        south = sum(float(weight) * win_chances(play(position, outcome), threats)[1]
                    for outcome, weight in battle_outcomes(position))
        return {1: south, 2: 1.0 - south}
    for player in (1, 2):
        if position.piece_count(player) == 0:
            return {player: 0.0, other(player): 1.0}
    values = {player: material(position, player) for player in (1, 2)}
    if threats:
        for player, share in _threat_shares(position).items():
            values[player] += share * threat(position, player)
    lead = math.log(values[1] / values[2])
    south = 1.0 / (1.0 + math.exp(-lead / SCALE))
    return {1: south, 2: 1.0 - south}


def win_chances_without_threats(position: Position) -> dict[int, float]:
    """Each seat's chance to win from material alone (the bench's ``--without threats``)."""
    return win_chances(position, threats=False)


def _threat_shares(position: CoinGridPosition) -> dict[int, float]:
    """How much of each seat's threat counts: all of the next roller's, :data:`NEXT_THREAT`
    of the other's (at a reward the mover brings the dead coin, then the other rolls)."""
    roller = other(position.to_move) if position.phase == "reward" else position.to_move
    return {roller: 1.0, other(roller): NEXT_THREAT}


def threat(position: CoinGridPosition, player: int) -> float:
    """What ``player``'s best move is worth in material when they next move: with the roll
    in hand, for that face; else the mean over the six faces, or a double stack if better.
    At a reward, the dead coin the mover brings."""
    if position.phase == "reward" and player == position.to_move:
        return DEAD
    best = _best_by_face(position, player)
    if position.phase == "rolled" and player == position.to_move and position.roll:
        return best[position.roll - 1]
    mean = sum(best) / len(best)
    if player == position.to_move and double_squares(position):
        return max(mean, DOUBLE - SINGLE - RESERVE_COIN)
    return mean


def _best_by_face(position: CoinGridPosition, player: int) -> list[float]:
    """For each face 1..6, the best material ``player`` expects from one move (0 at least):
    a battle's expected gain, or a dead coin from the enemy star row. The
    move-every-coin-first rule limits which pieces move."""
    mine, enemy = position.pieces_of(player), position.pieces_of(other(player))
    empty = BOARD & ~position.occupied
    reward_row = STAR_ROW[other(player)] if position.supply else 0
    reach = _dilated(enemy | reward_row)
    unmoved = mine & ~position.moved
    first = unmoved if unmoved & ~position.dead else mine
    best = [0.0] * 6
    movable_first = [bool(first & ~reach)] * 6      # a piece far from the enemy can step
    for origins, fallback in ((first, False), (mine & ~first, True)):
        for origin in bits(origins & reach):
            layers = _layers(origin, empty, enemy, player)
            gains = {square: battle_gain(position, origin, square)
                     for square in bits(layers[-1][1])}
            for face in FACES:
                if fallback and movable_first[face - 1]:
                    continue
                quiet, attacks = layers[face - 1]
                if not fallback and (quiet or attacks):
                    movable_first[face - 1] = True
                value = DEAD if quiet & reward_row else 0.0
                for square in bits(attacks):
                    value = max(value, gains[square])
                best[face - 1] = max(best[face - 1], value)
    return best


def _dilated(squares: int) -> int:
    """Squares within six king steps of ``squares`` (a piece farther away threatens none)."""
    for _ in range(6):
        squares |= king_steps(squares)
    return squares


def _layers(origin: int, empty: int, enemy: int, player: int) -> list[tuple[int, int]]:
    """(quiet squares, attacks) for faces 1..6: the wall crossed only on 4 or more."""
    low = walk_layers(origin, empty, enemy, HOME[player], False, WALL_ROLL - 1)
    high = walk_layers(origin, empty, enemy, HOME[player], True, 6)
    return [*low, *high[WALL_ROLL - 1:]]


def battle_gain(position: CoinGridPosition, origin: int, square: int) -> float:
    """The material the piece on ``origin`` expects from attacking ``square``: the defender
    and its coins into reserve if it wins, itself and its coins to the enemy if it loses."""
    attacker, defender = _kind(position, origin), _kind(position, square)
    return _gain(attacker, defender, _halved(position, origin, square),
                 _halved(position, square, square))


def _kind(position: CoinGridPosition, square: int) -> int:
    """The piece on ``square``: 0 a single coin, 1 a double stack, 2 a dead coin."""
    bit = 1 << square
    return 2 if position.dead & bit else 1 if position.double & bit else 0


def _halved(position: CoinGridPosition, square: int, battle: int) -> bool:
    """Whether rolls against the piece on ``square`` fighting on ``battle`` are halved: a dead
    coin, or a double stack in its owner's half."""
    bit = 1 << square
    if position.dead & bit:
        return True
    owner = 1 if position.south & bit else 2
    return bool(position.double & bit) and bool(HOME[owner] >> battle & 1)


_VALUES = (SINGLE, DOUBLE, DEAD)
_COINS = (1, 2, 1)


@cache
def _gain(attacker: int, defender: int, attacker_halved: bool, defender_halved: bool
          ) -> float:
    """:func:`battle_gain` by the two pieces' kinds and whether each is halved."""
    wins = float(odds(_COINS[attacker], defender_halved, _COINS[defender], attacker_halved)[0])
    won = _VALUES[defender] + RESERVE_COIN * _COINS[defender]
    lost = _VALUES[attacker] + RESERVE_COIN * _COINS[attacker]
    return wins * won - (1.0 - wins) * lost


def move_prior(position: Position, move: Move) -> float:
    """How promising ``move`` looks before it is played: a battle's expected material, a dead
    coin's worth for landing on the enemy star row or bringing one in, a double stack's gain,
    else a little per king step nearer the enemy."""
    assert isinstance(position, CoinGridPosition) and isinstance(move, CoinGridMove)
    if move.kind == DOUBLE_KIND:
        return DOUBLE - SINGLE - RESERVE_COIN
    if move.kind == DEAD_KIND:
        return DEAD
    if move.kind != STEP or move.origin is None or move.square is None:
        return 0.0
    if move.capture:
        return battle_gain(position, move.origin, move.square)
    enemy_star = STAR_ROW[other(position.to_move)]
    if position.supply and enemy_star >> move.square & 1:
        return DEAD
    enemy = position.pieces_of(other(position.to_move))
    return CLOSING * (distance(move.origin, enemy) - distance(move.square, enemy))


def playout_move(position: Position, moves: Sequence[Move], rng: random.Random) -> Move:
    """A playout's move: the best by :func:`move_prior` when it wins material, else any."""
    best, best_value = moves[0], 0.0
    for move in moves:
        value = move_prior(position, move)
        if value > best_value:
            best, best_value = move, value
    return best if best_value > CLOSING * 2 else rng.choice(moves)
