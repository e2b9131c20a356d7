"""What a search needs to know of Jokers and Coins beyond the game hooks
(:mod:`companion.analysis`): the public facts of the hidden cards, and an evaluation hint.

``card_facts`` lists the unseen cards (draw pile, hands and discards of unrecorded rank, as
ranks), each hand's size, the draw pile's size and the face-up discard pile, for the search
to deal hands consistent with them. ``win_chances`` scores a playout cut short after
:data:`PLAYOUT_PLIES` plies: each team's progress (coins HOME and the spaces covered), turned
into shares by a softmax whose scale is a coin's trip round the ring.

The playouts are cut at once (0 plies): the tree's leaves are scored by progress directly.
Random plies with randomly dealt hands swing a team's progress by dozens of spaces (one bump
sends a coin back to its supply), which drowned the few spaces between two candidate plays:
with 24 random plies a 1-second search (134 playouts) lost 5 of 6 two-seat games to the greedy
bot and missed plays worth 20 spaces more than any other. Scored at the leaf, a second gives
about 2,000 playouts and the tree itself looks at the replies (issue 22).
"""

from __future__ import annotations

import math
from typing import Any

from companion.games.base import Position
from companion.games.jokers_and_coins.at_table import covered
from companion.games.jokers_and_coins.cards import RANKS
from companion.games.jokers_and_coins.position import JokersPosition

#: Plies a playout runs before it is scored by :func:`win_chances`.
PLAYOUT_PLIES = 0
#: Progress lead (spaces; a coin HOME counts 100) that makes a team about e times likelier.
SCALE = 40.0


def card_facts(position: Position) -> dict[str, Any]:
    """The public facts of the cards, as :class:`companion.analysis.hidden.HiddenDeal` reads
    them: the cards as the mover plays from them (at an empty draw pile, the discard pile
    already shuffled back by the mover's draw, so a drawn card is among the unseen)."""
    assert isinstance(position, JokersPosition)
    cards = position.cards.before_play(position.to_move)
    pool = [rank for index, rank in enumerate(RANKS) for _ in range(cards.unseen(index))]
    face_up = [rank for index, rank in enumerate(RANKS) for _ in range(cards.discard[index])]
    return {"pool": pool, "hands": list(cards.hands), "draw_pile": cards.draw_pile,
            "face_up": face_up}


def win_chances(position: Position) -> dict[int, float]:
    """Each seat's chance to win, from its team's progress (a team's seats share its chance,
    each one wins with it)."""
    assert isinstance(position, JokersPosition)
    progress = covered(position)
    teams = position.ring.teams
    strength = [sum(progress[seat] for seat in team) / len(team) for team in teams]
    top = max(strength)
    weights = [math.exp((value - top) / SCALE) for value in strength]
    total = sum(weights)
    return {seat: weight / total for team, weight in zip(teams, weights, strict=True)
            for seat in team}
