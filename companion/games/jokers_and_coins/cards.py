"""What everybody at the table knows about the cards: three poker decks with six Jokers (162
cards; two players set the Jokers aside), the draw pile's size, each hand's size, the discard
pile by rank, and who owes the draw-before-play penalty. Hands themselves are hidden: the
companion never knows a card before it is played.

A turn, as the rules text has it: the mover draws one card (hand 6), plays or discards one
(hand 5). A player who plays without drawing first (the ``!`` of the notation, entered on the
panel by whoever noticed) is left with 4 cards and is penalized: on their next turn they draw
nothing, play from their 4 cards, then draw two (hand 5 again). So a hand of 4 between turns
*is* the penalty. When the draw pile is empty at a draw, the whole discard pile is shuffled
into a new draw pile (the rules text is silent; this is the usual way) and its ranks are
unknown again.

Every card is accounted for at every moment:
``draw pile + hands + discard pile by rank + discards of unrecorded rank (+ 6 Jokers set aside
with two players) == 162``. A rank's *unseen* count (in the draw pile or in some hand) is its
copies less those face up in the discard pile; the public game lets the mover play any rank
with an unseen copy (a 13th seven cannot be played), counted once the mover has drawn: at an
empty draw pile the mover's draw shuffles the discard pile back first (:meth:`Cards.before_play`),
so every rank is unseen again.

JSON (the ``cards`` object of a position; every field required)::

    {"draw_pile": 142,                       cards left to draw
     "hands": {"1": 5, "2": 4},              each seat's hand size between turns (4: penalized)
     "discard_pile": {"A": 1, ..., "joker": 0},  face-up cards by rank since the last shuffle
     "unrecorded_discards": 0,               discards whose rank nobody entered
     "shuffles": 0}                          times the discard pile became the draw pile
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from companion.games.position_fields import bad_field, check_fields

RANKS: tuple[str, ...] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K",
                          "joker")
RANK_INDEX = {rank: index for index, rank in enumerate(RANKS)}
JOKER = RANK_INDEX["joker"]
DECKS = 3
JOKERS = 6
DECK_CARDS = 52 * DECKS + JOKERS
HAND = 5
PENALIZED_HAND = 4
FIELDS = ("draw_pile", "hands", "discard_pile", "unrecorded_discards", "shuffles")


def copies(rank: int, players: int) -> int:
    """Copies of rank index ``rank`` in play: 12 (three decks), Jokers 6 (none for two)."""
    if rank == JOKER:
        return 0 if players == 2 else JOKERS
    return 4 * DECKS


def cards_in_play(players: int) -> int:
    """162 cards, or 156 with two players (the Jokers set aside)."""
    return sum(copies(rank, players) for rank in range(len(RANKS)))


@dataclass(frozen=True)
class Cards:
    """The public state of the cards (see the module docstring); ``hands`` by seat - 1,
    ``discard`` by rank index of :data:`RANKS`."""

    draw_pile: int
    hands: tuple[int, ...]
    discard: tuple[int, ...]
    unrecorded: int = 0
    shuffles: int = 0

    @property
    def players(self) -> int:
        """How many seats hold hands."""
        return len(self.hands)

    def unseen(self, rank: int) -> int:
        """Copies of rank index ``rank`` in the draw pile or in hands (not face up)."""
        return copies(rank, self.players) - self.discard[rank]

    def remaining(self) -> dict[str, int]:
        """Unseen copies by rank name: what the draw pile and the hands hold together."""
        return {rank: self.unseen(index) for index, rank in enumerate(RANKS)}

    def accounted(self) -> int:
        """Every card counted where it is: draw pile, hands, discard pile, set aside."""
        aside = DECK_CARDS - cards_in_play(self.players)
        return self.draw_pile + sum(self.hands) + sum(self.discard) + self.unrecorded + aside

    def penalized(self, seat: int) -> bool:
        """Whether ``seat`` played without drawing last turn and now plays from 4 cards."""
        return self.hands[seat - 1] == PENALIZED_HAND

    def before_play(self, seat: int) -> Cards:
        """The cards as ``seat`` plays from them: a seat that draws first (not penalized) from
        an empty draw pile shuffles the discard pile into a new one, so every card laid since
        the last shuffle may be in its hand. The public game and a search's guesses at the
        hands must count from these cards, not from the face-up pile the draw takes away."""
        if self.draw_pile or self.penalized(seat):
            return self
        return self._shuffle()

    def after_turn(self, seat: int, rank: int | None, no_draw: bool = False) -> Cards:
        """The cards after ``seat`` plays (or discards, ``rank`` None when it is not entered)
        one card; ``no_draw``: the player did not draw first (the penalty)."""
        cards = self
        if cards.penalized(seat):
            return cards._lay(seat, rank)._draw(seat, 2)
        if no_draw:
            return cards._lay(seat, rank)
        return cards._draw(seat, 1)._lay(seat, rank)

    def _lay(self, seat: int, rank: int | None) -> Cards:
        hands = _add(self.hands, seat - 1, -1)
        if rank is None:
            return replace(self, hands=hands, unrecorded=self.unrecorded + 1)
        return replace(self, hands=hands, discard=_add(self.discard, rank, 1))

    def _draw(self, seat: int, count: int) -> Cards:
        cards = self
        for _ in range(count):
            if cards.draw_pile == 0:
                cards = cards._shuffle()
            if cards.draw_pile == 0:
                break
            cards = replace(cards, draw_pile=cards.draw_pile - 1,
                            hands=_add(cards.hands, seat - 1, 1))
        return cards

    def _shuffle(self) -> Cards:
        pile = sum(self.discard) + self.unrecorded
        return replace(self, draw_pile=pile, discard=(0,) * len(RANKS), unrecorded=0,
                       shuffles=self.shuffles + 1)

    def to_json(self) -> dict[str, Any]:
        """The ``cards`` object of the module docstring."""
        return {
            "draw_pile": self.draw_pile,
            "hands": {str(seat + 1): size for seat, size in enumerate(self.hands)},
            "discard_pile": dict(zip(RANKS, self.discard, strict=True)),
            "unrecorded_discards": self.unrecorded,
            "shuffles": self.shuffles,
        }


def dealt(players: int) -> Cards:
    """The cards after the deal: five to each seat, the rest in the draw pile."""
    return Cards(cards_in_play(players) - HAND * players, (HAND,) * players, (0,) * len(RANKS))


def reminder(cards: Cards, seat: int) -> str:
    """The sentence the screen shows the mover about drawing (the rules text's penalty)."""
    if cards.penalized(seat):
        return (f"Player {seat} played without drawing last turn: no draw now; play from your "
                "4 cards, then draw two.")
    return (f"Player {seat}: draw one card before you play; a play made without drawing first "
            "is penalized (next turn you play from 4 cards).")


def read_cards(data: Any, players: int) -> Cards:
    """Read and check the ``cards`` object; every card must be accounted for."""
    check_fields(data, FIELDS, FIELDS, "position's 'cards'")
    draw_pile = _count(data["draw_pile"], "cards.draw_pile", DECK_CARDS)
    hands = _per_seat(data["hands"], players)
    discard = _discard(data["discard_pile"], players)
    unrecorded = _count(data["unrecorded_discards"], "cards.unrecorded_discards", DECK_CARDS)
    shuffles = _count(data["shuffles"], "cards.shuffles", 10**6)
    cards = Cards(draw_pile, hands, discard, unrecorded, shuffles)
    if cards.accounted() != DECK_CARDS:
        raise bad_field("cards", data, f"its cards add up to {cards.accounted()}, not "
                        f"{DECK_CARDS} (draw pile, hands, discard pile, unrecorded discards"
                        f"{', 6 Jokers set aside' if players == 2 else ''})")
    return cards


def _count(value: Any, name: str, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= most:
        raise bad_field(name, value, f"it must be a whole number from 0 to {most}")
    return value


def _per_seat(raw: Any, players: int) -> tuple[int, ...]:
    seats = [str(seat) for seat in range(1, players + 1)]
    if not isinstance(raw, Mapping) or sorted(raw) != sorted(seats):
        raise bad_field("cards.hands", raw,
                        f"it must give a hand size for seats {', '.join(seats)}")
    sizes = []
    for seat in seats:
        size = raw[seat]
        if isinstance(size, bool) or not isinstance(size, int) or size not in (PENALIZED_HAND,
                                                                               HAND):
            raise bad_field(f"cards.hands.{seat}", size, "a hand holds 5 cards between turns, "
                            "or 4 after a play made without drawing")
        sizes.append(size)
    return tuple(sizes)


def _discard(raw: Any, players: int) -> tuple[int, ...]:
    if not isinstance(raw, Mapping) or sorted(raw) != sorted(RANKS):
        raise bad_field("cards.discard_pile", raw, f"it must count every rank: {', '.join(RANKS)}")
    counts = []
    for index, rank in enumerate(RANKS):
        most = copies(index, players)
        counts.append(_count(raw[rank], f"cards.discard_pile.{rank}", most))
    return tuple(counts)


def _add(values: tuple[int, ...], index: int, amount: int) -> tuple[int, ...]:
    return (*values[:index], values[index] + amount, *values[index + 1:])
