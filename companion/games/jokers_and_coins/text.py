"""A Jokers and Coins position drawn as text, for `companion rules show` and for logs."""

from __future__ import annotations

from companion.games.jokers_and_coins.cards import RANKS
from companion.games.jokers_and_coins.position import JokersPosition
from companion.games.jokers_and_coins.ring import HOME_SPACES, SUPPLY


def side_line(position: JokersPosition, side: int) -> str:
    """One side of the ring, corner first: a seat's coin shows as its number, an empty space
    as ``.``, an empty IN as ``i``, an empty START as ``s``, an empty corner as ``+``."""
    ring = position.ring
    first = side * ring.side_length
    cells = []
    for place in range(first, first + ring.side_length):
        seat = position.board.get(place)
        if seat is not None:
            cells.append(str(seat))
        elif place in ring.ins:
            cells.append("i")
        elif place in ring.starts:
            cells.append("s")
        else:
            cells.append("+" if place == first else ".")
    return f"t{first + 1:<3} " + " ".join(cells) + f"  t{first + ring.side_length}"


def home_line(position: JokersPosition, seat: int) -> str:
    """A seat's HOME row and supply: ``seat 1: HOME [1 . . 1]  supply 2``."""
    size = position.ring.size
    places = position.coins[seat - 1]
    cells = " ".join(str(seat) if size + space in places else "."
                     for space in range(HOME_SPACES))
    supply = places.count(SUPPLY)
    hand = position.cards.hands[seat - 1]
    return f"seat {seat}: HOME [{cells}]  supply {supply}  hand {hand}"


def draw_position(position: JokersPosition, summary: str) -> str:
    """The ring side by side, each seat's HOME row, the cards everybody knows, then
    ``summary`` (whose turn, or the result)."""
    ring = position.ring
    lines = [f"ring of {ring.sides} sides x {ring.side_length} spaces, clockwise; variants: "
             + (", ".join(ring.variants()) or "none")]
    lines += [side_line(position, side) for side in range(ring.sides)]
    lines += [home_line(position, seat) for seat in range(1, ring.players + 1)]
    teams = [team for team in ring.teams if len(team) > 1]
    if teams:
        lines.append("teams: " + ", ".join("+".join(map(str, team)) for team in teams))
    cards = position.cards
    lines.append(f"draw pile {cards.draw_pile}, discard pile {sum(cards.discard)} face up + "
                 f"{cards.unrecorded} unrecorded, shuffles {cards.shuffles}")
    remaining = cards.remaining()
    lines.append("unseen by rank: " + " ".join(f"{rank}:{remaining[rank]}" for rank in RANKS))
    lines.append(summary)
    return "\n".join(lines)
