"""Battle odds, exact: who wins a Coin Grid battle, as fractions.

Each side rolls one die, a double stack two dice summed. The total rolled against a dead coin
(anywhere on the board) or against a double stack standing in its owner's half is halved,
rounded down (RULINGS.md); "standing" is the battle square, for the attacker as for the
defender. Ties are rolled again, so a side's chance of winning is its chance of rolling higher
divided by the chance that the roll is not a tie. A side that can never roll higher has no
outcome at all (the battle node then has one child).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

from companion.games.coin_grid.board import HOME
from companion.games.coin_grid.position import Piece

FACES = range(1, 7)


@cache
def totals(dice: int, halved: bool) -> tuple[tuple[int, Fraction], ...]:
    """Each total ``dice`` dice can make (halved and rounded down when ``halved``) with its
    exact probability, lowest total first."""
    counts: dict[int, int] = {}
    for faces in product(FACES, repeat=dice):
        total = sum(faces) // 2 if halved else sum(faces)
        counts[total] = counts.get(total, 0) + 1
    whole = 6**dice
    return tuple((total, Fraction(count, whole)) for total, count in sorted(counts.items()))


@cache
def odds(attacker_dice: int, attacker_halved: bool, defender_dice: int, defender_halved: bool
         ) -> tuple[Fraction, Fraction]:
    """(attacker wins, defender wins) with ties rolled again: the two sum to 1."""
    higher = lower = Fraction(0)
    for (mine, p_mine), (theirs, p_theirs) in product(
        totals(attacker_dice, attacker_halved), totals(defender_dice, defender_halved)
    ):
        if mine > theirs:
            higher += p_mine * p_theirs
        elif mine < theirs:
            lower += p_mine * p_theirs
    decided = higher + lower
    return higher / decided, lower / decided


def half_damage(piece: Piece, square: int) -> bool:
    """Whether rolls against ``piece`` fighting on ``square`` are halved: it is a dead coin, or
    a double stack in its owner's half."""
    return piece.dead or (piece.double and bool(HOME[piece.owner] >> square & 1))


def battle_odds(attacker: Piece, defender: Piece, square: int) -> tuple[Fraction, Fraction]:
    """(attacker wins, defender wins) for a battle on ``square``."""
    return odds(attacker.coins, half_damage(defender, square),
                defender.coins, half_damage(attacker, square))
