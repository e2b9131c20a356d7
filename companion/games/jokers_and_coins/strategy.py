"""What a Jokers and Coins player who wants to win weighs beyond the progress a play adds: the
risk of leaving a far-come coin where an opponent is likely to bump it back to the supply
(:meth:`JokersAndCoins.purpose`, for the demo's ``purposeful`` bots in
:mod:`companion.demo_cards`).

The greedy score (:func:`~companion.games.jokers_and_coins.at_table.covered`, a team's progress
against its rivals') already takes coins HOME and values a bump by how far the bumped coin had
come. What it does not see is the next turns: with six seats, four opponents move before a
seat plays again, and a coin left 10 spaces ahead of an opponent's coin (a 10, J, Q or K) is
bumped more often than not. A person moves the coin out of reach, or another coin, when the
progress is the same. The risk is an expected loss in the same spaces as the progress: a coin's
spaces come times the chance that some opponent holds a card that lands on it (a hand of five
cards from a deck where each rank is one in thirteen; Jokers, 6 splits and whether the
opponent would rather do something else are left out).
"""

from __future__ import annotations

from functools import cache

from companion.games.jokers_and_coins.at_table import spaces_come
from companion.games.jokers_and_coins.moves import ENTERING_CARDS, HITMAN_CARDS
from companion.games.jokers_and_coins.position import JokersPosition
from companion.games.jokers_and_coins.ring import SUPPLY
from companion.games.jokers_and_coins.rules import FORWARD

#: Cards in an opponent's hand when it moves (it draws to five before playing).
HAND = 5
#: Ranks in a deck (Jokers left out).
RANK_COUNT = 13
#: The backward count of a 7.
BACKWARD = 7
#: What the risk of a bump weighs against progress (0.5 and 0.75 did no better on seeds 1-20;
#: 0, the greedy bot, left 6-seat games 20 plies longer). A bonus for each coin in play, for
#: the choice of plays it gives, made games longer (more coins to bump) and is left out.
RISK_WEIGHT = 1.0


def exposure(position: JokersPosition, seats: tuple[int, ...]) -> float:
    """The expected spaces ``seats``' coins on the track lose to opponents' bumps before the
    seats play again: each coin's spaces come times the chance some opponent can land on it."""
    ring = position.ring
    size = ring.size
    opponents = [seat for seat in range(1, ring.players + 1) if seat not in seats]
    total = 0.0
    for seat in seats:
        for place in position.coins[seat - 1]:
            if 0 <= place < size:
                come = max(spaces_come(ring, seat, place), 0.0)
                total += come * _bump_chance(position, place, opponents)
    return total


def purpose(before: JokersPosition, after: JokersPosition, mover: int) -> float:
    """How much the play from ``before`` to ``after`` lowers the risk to the mover's team's
    coins (negative when it leaves them more exposed)."""
    team = before.ring.team_of[mover]
    return RISK_WEIGHT * (exposure(before, team) - exposure(after, team))


def _bump_chance(position: JokersPosition, place: int, opponents: list[int]) -> float:
    """The chance that at least one opponent can land on ``place`` with the cards it holds."""
    ring = position.ring
    size = ring.size
    safe = 1.0
    for seat in opponents:
        ranks = 0
        for origin in position.coins[seat - 1]:
            if 0 <= origin < size:
                ranks += _forward_ranks().get((place - origin) % size, 0)
                ranks += (origin - place) % size == BACKWARD
        if place == ring.starts[seat - 1] and SUPPLY in position.coins[seat - 1]:
            ranks += len(ENTERING_CARDS)
        if place == ring.hit_corners[seat - 1] and position.board.get(
                ring.starts[seat - 1]) == seat:
            ranks += len(HITMAN_CARDS)
        if ranks:
            safe *= _miss(min(ranks, RANK_COUNT))
    return 1.0 - safe


@cache
def _forward_ranks() -> dict[int, int]:
    """Distance -> how many of the 13 ranks move a coin exactly that far forward (a 6 too)."""
    counts = {6: 1}
    for count in FORWARD.values():
        counts[count] = counts.get(count, 0) + 1
    return counts


@cache
def _miss(ranks: int) -> float:
    """The chance that a hand of :data:`HAND` cards holds none of ``ranks`` of the 13 ranks."""
    return float((1 - ranks / RANK_COUNT) ** HAND)
