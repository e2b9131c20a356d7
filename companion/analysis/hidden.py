"""Hidden hands: the search's guesses at the cards nobody has seen (Jokers and Coins).

The engine knows only the public cards (hand sizes, the draw pile's size, the face-up discard
pile by rank): its public game lets the mover play any rank with an unseen copy. A search must
not play as if every seat held every card, so each iteration deals the unseen cards at random,
consistently with what is known (:class:`HiddenDeal`), and plays that deal out
(:class:`Hands`): a seat draws from the dealt draw pile and plays only the ranks it holds;
the discard pile is shuffled into a new draw pile when the draw pile runs out, as the engine
does. What is known comes from the game's ``hints`` module, ``card_facts(position)``.

The mover's own hand may be given (a bot knows its cards): the cards it holds between turns,
or those and the card it has just drawn (one more; the draw pile is one card shorter then
than the position says). When it is not (a hint at the
table, where the companion never sees a hand), the mover's first move is not restricted: every
public move is a candidate, and the card it plays is swapped into the mover's dealt hand, so
the estimates say how good each play is for a player who holds that card.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion.analysis.limits import SearchError
from companion.games.base import Game, Move, Position

#: A hand of this size between turns is the draw-before-play penalty: the seat plays from it
#: without drawing, then draws two (see companion/games/jokers_and_coins/cards.py).
PENALIZED_HAND = 4


@dataclass(frozen=True)
class HiddenDeal:
    """What is known of the cards at the searched position, and the mover's hand if known.

    ``pool`` holds every unseen card (draw pile, hands, discards of unrecorded rank) as ranks;
    ``hands`` each seat's hand size; ``draw_pile`` the draw pile's size; ``face_up`` the face-up
    discard pile as ranks; ``mover`` the seat to move and ``hand`` its cards (None: unknown),
    ``drew`` whether ``hand`` includes the card it draws this turn.
    """

    pool: tuple[str, ...]
    hands: tuple[int, ...]
    draw_pile: int
    face_up: tuple[str, ...]
    mover: int
    hand: tuple[str, ...] | None = None
    drew: bool = False

    @classmethod
    def of(cls, facts: Mapping[str, Any], mover: int, hand: Sequence[str] | None) -> HiddenDeal:
        """The deal from a hints module's ``card_facts``; checks that ``hand`` fits them."""
        pool = tuple(facts["pool"])
        sizes = tuple(int(size) for size in facts["hands"])
        if hand is not None:
            rest = list(pool)
            for rank in hand:
                if rank not in rest:
                    raise SearchError(f"the hand {list(hand)} holds a {rank} that is not "
                                      "among the unseen cards")
                rest.remove(rank)
            size = sizes[mover - 1]
            drawing = 0 if size == PENALIZED_HAND else 1
            if len(hand) not in (size, size + drawing):
                raise SearchError(f"the hand {list(hand)} holds {len(hand)} cards; seat "
                                  f"{mover} holds {size} between turns")
        drew = hand is not None and len(hand) > sizes[mover - 1]
        return cls(pool, sizes, int(facts["draw_pile"]), tuple(facts["face_up"]), mover,
                   None if hand is None else tuple(hand), drew)

    def dealt(self, rng: random.Random) -> Hands:
        """One random deal consistent with what is known."""
        rest = list(self.pool)
        if self.hand is not None:
            for rank in self.hand:
                rest.remove(rank)
        rng.shuffle(rest)
        hands: list[list[str]] = []
        for seat, size in enumerate(self.hands, start=1):
            if seat == self.mover and self.hand is not None:
                hands.append(list(self.hand))
            else:
                hands.append([rest.pop() for _ in range(size)])
        draw_pile = [rest.pop() for _ in range(min(len(rest), self.draw_pile - self.drew))]
        laid = list(self.face_up) + rest
        free = self.mover if self.hand is None else None
        return Hands(hands, draw_pile, laid, rng, free, self.mover if self.drew else None)


class Hands:
    """One deal being played out: hands by seat - 1, the draw pile (top last), the cards laid
    since the last shuffle; ``free`` is a seat whose next move is not restricted by its hand,
    ``drawn`` a seat that has drawn its card for this turn already."""

    __slots__ = ("draw_pile", "drawn", "free", "hands", "laid", "rng", "unplayable")

    def __init__(self, hands: list[list[str]], draw_pile: list[str], laid: list[str],
                 rng: random.Random, free: int | None, drawn: int | None = None) -> None:
        self.hands, self.draw_pile, self.laid, self.rng = hands, draw_pile, laid, rng
        self.free, self.drawn = free, drawn
        self.unplayable: list[str] = []

    def allowed(self, game: Game, position: Position, moves: Sequence[Move]) -> list[Move]:
        """The moves among ``moves`` the seat to move can make with its hand and the card it
        draws first; a discard only when it holds a card with no play."""
        seat = game.to_move(position)
        usable = self._usable(seat)
        playable = {game.card_of(move) for move in moves}
        self.unplayable = [rank for rank in usable if rank not in playable]
        if seat == self.free:
            return list(moves)
        found = [move for move in moves if (rank := game.card_of(move)) in usable
                 or (rank is None and self.unplayable)]
        return found or list(moves)

    def play(self, game: Game, position: Position, move: Move) -> None:
        """The seat to move draws (unless penalized), lays the card of ``move`` (for a discard,
        a card it holds with no play) and, when penalized, draws two after."""
        seat = game.to_move(position)
        hand = self.hands[seat - 1]
        penalized = len(hand) == PENALIZED_HAND
        if seat == self.drawn:
            self.drawn = None
        elif not penalized:
            self._draw(hand, 1)
        rank = game.card_of(move)
        if rank is None:
            rank = self.unplayable[0] if self.unplayable else hand[0]
        if seat == self.free:
            self.free = None
            if rank not in hand:
                self._swap_in(hand, rank)
        if rank in hand:
            hand.remove(rank)
            self.laid.append(rank)
        if penalized:
            self._draw(hand, 2)

    def _usable(self, seat: int) -> list[str]:
        """The seat's hand, with the card it will draw unless it is penalized."""
        hand = self.hands[seat - 1]
        if len(hand) == PENALIZED_HAND or seat == self.drawn:
            return hand
        if not self.draw_pile:
            self._shuffle()
        return hand + self.draw_pile[-1:]

    def _draw(self, hand: list[str], count: int) -> None:
        for _ in range(count):
            if not self.draw_pile:
                self._shuffle()
            if self.draw_pile:
                hand.append(self.draw_pile.pop())

    def _shuffle(self) -> None:
        self.draw_pile, self.laid = self.laid, []
        self.rng.shuffle(self.draw_pile)

    def _swap_in(self, hand: list[str], rank: str) -> None:
        """Put a card of ``rank`` into ``hand`` from wherever the deal put one, in exchange for
        one of the hand's cards (the hand was a guess)."""
        for where in (self.draw_pile, *self.hands, self.laid):
            if where is not hand and rank in where:
                index = where.index(rank)
                mine = self.rng.randrange(len(hand))
                where[index], hand[mine] = hand[mine], rank
                return


def hidden_deal(game: Game, position: Position, hints: Any, hand: Sequence[str] | None
                ) -> HiddenDeal | None:
    """The hidden deal of ``position`` where the game hides hands and its hints say what is
    known; None for games of open information."""
    if not game.info.hidden_information:
        if hand is not None:
            raise SearchError(f"{game.info.title} has no hidden hands; give no hand")
        return None
    if hints is None or not hasattr(hints, "card_facts"):
        raise SearchError(f"{game.info.title} hides hands, but its hints module does not say "
                          "what is known of them (card_facts)")
    return HiddenDeal.of(hints.card_facts(position), game.to_move(position), hand)
