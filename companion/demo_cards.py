"""The demo's players in a card game: real hands dealt from the shuffled decks, a bot that plays
from its hand, and the played card laid face up on the mover's discard spot.

:class:`DealtCards` is the physical truth the companion never sees: the draw pile in order,
each hand, each seat's discard pile. It is rebuilt from the seed and the cards of the moves
standing in the record, so a resumed demo holds the same hands. A turn is the rules text's:
draw one card (the draw pile, when empty, is the discard piles shuffled), then play or discard
one. The bot (:func:`choose_from_hand`) plays the best (``greedy``; ``purposeful``: the greedy
gain plus the game's :meth:`~companion.games.base.Game.purpose`) or any (``random``) legal play
of the cards it holds, and discards a card when none of them has a play; a ``search`` bot
searches knowing its own cards and guessing the others' (:mod:`companion.analysis.bots`).

Kept apart from :mod:`companion.demo`, whose :class:`~companion.demo.Director` calls it.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from itertools import islice
from typing import TYPE_CHECKING, Any

from calibration.geometry import MatGeometry
from companion.analysis.bots import Bot, bot_move
from companion.games.base import Game, Move, Position
from companion.record.replay import load_timeline
from vision.synth.card_faces import SUITS
from vision.synth.cards import PlayedCard

if TYPE_CHECKING:
    from companion.demo import DemoOptions
    from companion.demo_board import PhysicalBoard
    from companion.table import Table

#: Ranks of one deck, and how many decks and Jokers the game uses (the rules text's three
#: poker decks with six Jokers; two players set the Jokers aside).
DECK_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECKS = 3
JOKERS = 6
HAND = 5
#: How many legal moves the bot looks at before choosing; bounds a turn.
MOVE_LIMIT = 4000
#: What a rival team's lost progress is worth to the greedy bot against its own team's gain:
#: it bumps a rival's coin when that sets the rival back twice as far as its best advance.
#: Counted fully (1.0), bumps for their own sake kept 4-seat games 177 plies long (median of
#: 60 seeds, some over the demo's cap of 300), 163 at one half (bench/bench_jokers_bots.py;
#: with today's purposeful bots, 0, 0.25 and 0.5 give 6-seat medians of 208, 198 and 210.5
#: plies on seeds 1 to 20, within the noise).
RIVAL_WEIGHT = 0.5
#: Faces the demo's cards are drawn with: the synthetic card styles.
FACES = ("drawn:0", "drawn:1", "drawn:2", "drawn:3")

Card = tuple[str, str]


def full_deck(players: int) -> list[Card]:
    """Every card in play as (rank, suit): three decks, and the Jokers with 3 or more seats."""
    cards = [(rank, suit) for _ in range(DECKS) for suit in SUITS for rank in DECK_RANKS]
    if players > 2:
        cards += [("joker", SUITS[index % 2]) for index in range(JOKERS)]
    return cards


@dataclass
class DealtCards:
    """The cards at the table (see the module docstring); ``piles`` by seat - 1, top last."""

    draw_pile: list[Card]
    hands: list[list[Card]]
    piles: list[list[Card]]
    rng: random.Random = field(repr=False)

    @classmethod
    def deal(cls, players: int, seed: int) -> DealtCards:
        """Shuffle the decks and deal five cards to each seat, one at a time from seat 1."""
        rng = random.Random(f"{seed}/deck")
        deck = full_deck(players)
        rng.shuffle(deck)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for _ in range(HAND):
            for hand in hands:
                hand.append(deck.pop())
        return cls(deck, hands, [[] for _ in range(players)], rng)

    @classmethod
    def replayed(cls, players: int, seed: int, played: Sequence[tuple[int, str | None]]
                 ) -> DealtCards:
        """The cards after the seats drew and laid these (seat, rank) cards in turn (rank None:
        a discard whose rank was not recorded; the first card of the hand went)."""
        cards = cls.deal(players, seed)
        for seat, rank in played:
            cards.draw(seat)
            cards.lay(seat, rank)
        return cards

    def draw(self, seat: int) -> None:
        """``seat`` draws one card; an empty draw pile is first refilled from the discard piles."""
        if not self.draw_pile:
            self.draw_pile = [card for pile in self.piles for card in pile]
            self.piles = [[] for _ in self.piles]
            self.rng.shuffle(self.draw_pile)
        if self.draw_pile:
            self.hands[seat - 1].append(self.draw_pile.pop())

    def lay(self, seat: int, rank: str | None) -> Card:
        """``seat`` lays a card of ``rank`` (None: their first card) on their discard pile;
        a rank the seat does not hold is refused, so the table never drifts from the record."""
        hand = self.hands[seat - 1]
        if rank is None:
            index = 0
        else:
            index = next((i for i, card in enumerate(hand) if card[0] == rank), -1)
            if index < 0:
                held = " ".join(card[0] for card in hand)
                raise ValueError(f"seat {seat} holds no {rank} to lay (its hand: {held})")
        card = hand.pop(index)
        self.piles[seat - 1].append(card)
        return card

    def ranks(self, seat: int) -> list[str]:
        """The ranks in ``seat``'s hand, each once, in the order they were drawn."""
        return list(dict.fromkeys(rank for rank, _ in self.hands[seat - 1]))

    def copy(self) -> DealtCards:
        rng = random.Random()
        rng.setstate(self.rng.getstate())
        return DealtCards(list(self.draw_pile), [list(hand) for hand in self.hands],
                          [list(pile) for pile in self.piles], rng)


def choose_from_hand(game: Game, position: Position, ranks: Sequence[str], bot: str,
                     rng: random.Random) -> Move:
    """The bot's move with the ranks it holds: a legal play of one of them (the best for
    ``greedy``: the most progress of the coins it plays against the others'; ``purposeful``:
    that plus what :meth:`~companion.games.base.Game.purpose` says of the play), else a
    discard of one of them, naming its rank."""
    held = set(ranks)
    plays: list[Move] = []
    discard: Move | None = None
    for move in islice(game.iter_moves(position), MOVE_LIMIT):
        for variant in game.card_variants(position, move):
            card = game.card_of(variant)
            if card in held and game.changed_regions(position, variant):
                plays.append(variant)
            elif card in held and discard is None:
                discard = variant
    if not plays:
        if discard is not None:
            return discard
        raise RuntimeError(f"no card of {sorted(held)} can be played or discarded")
    plays.sort(key=lambda move: move.text())
    if bot not in ("greedy", "purposeful"):
        return rng.choice(plays)
    mover = game.to_move(position)
    teams = game.teams(position)
    gains = [_lead(game.progress(game.apply(position, move)), mover, teams) for move in plays]
    if bot == "purposeful":
        gains = [gain + game.purpose(position, move) for gain, move in zip(gains, plays,
                                                                            strict=True)]
    best = max(gains)
    return rng.choice([move for move, gain in zip(plays, gains, strict=True) if gain == best])


def play_dealt_game(game: Game, players: int, seed: int, bots: Sequence[str],
                    most_plies: int) -> tuple[Position, int]:
    """An engine-only game as the demo deals and plays it: hands dealt by ``seed``, each
    mover drawing, then playing from its hand as ``bots`` (by seat in turn) choose, each ply's
    choice seeded as the demo seeds it (``Random(f"{seed}/{plies}")``), forced passes applied
    and counted; stopped after ``most_plies``. Returns the last position and the plies."""
    position = game.new_position(players)
    cards = DealtCards.deal(players, seed)
    plies = 0
    while not game.is_over(position) and plies < most_plies:
        mover = game.to_move(position)
        cards.draw(mover)
        move = choose_from_hand(game, position, cards.ranks(mover),
                                bots[(mover - 1) % len(bots)], random.Random(f"{seed}/{plies}"))
        cards.lay(mover, game.card_of(move))
        position = game.apply(position, move)
        plies += 1
        while not game.is_over(position) and (forced := game.forced(position)) is not None:
            position = game.apply(position, forced)
            plies += 1
    return position, plies


def discard_cards(geometry: MatGeometry, cards: DealtCards, seed: int) -> tuple[PlayedCard, ...]:
    """The top two cards of each seat's discard pile as they lie on its discard spot (a little
    askew, the top one last)."""
    laid: list[PlayedCard] = []
    for seat, pile in enumerate(cards.piles, start=1):
        spot = next((region for region in geometry.regions
                     if region.name == f"discard-{seat}"), None)
        if spot is None:
            continue
        for depth, (rank, suit) in enumerate(pile[-2:]):
            rng = random.Random(f"{seed}/card/{seat}/{len(pile)}/{depth}")
            x, y = spot.centre
            laid.append(PlayedCard(rank, suit, (x + rng.uniform(-4, 4), y + rng.uniform(-4, 4)),
                                   angle_deg=rng.uniform(-180, 180),
                                   face=FACES[rng.randrange(len(FACES))]))
    return tuple(laid)


def _lead(progress: Mapping[int, float], seat: int, teams: Sequence[Sequence[int]]) -> float:
    """The progress of ``seat``'s team less :data:`RIVAL_WEIGHT` of the best other team's."""
    totals = {tuple(team): sum(progress.get(member, 0.0) for member in team) for team in teams}
    own = next((team for team in totals if seat in team), (seat,))
    rivals = [total for team, total in totals.items() if team != own]
    return totals.get(own, progress.get(seat, 0.0)) - RIVAL_WEIGHT * max(rivals, default=0.0)


class CardDirector:
    """The director's part in a card game (mixed into :class:`companion.demo.Director`): the
    hands behind each turn, the bot's play from its hand, the card laid on the discard spot."""

    table: Table
    game: Game
    board: PhysicalBoard
    options: DemoOptions
    _card_history: dict[int, DealtCards]
    _next_cards: DealtCards | None

    if TYPE_CHECKING:  # the director's own
        def _plies(self) -> int: ...

        def _bot(self, mover: int) -> Bot: ...

        def _search_options(self, bot: Bot, rng: random.Random) -> dict[str, Any]: ...

    def _card_move(self, position: Position, mover: int, rng: random.Random) -> Move | None:
        """In a card game, the mover draws, plays from their hand (or discards) and lays the
        card on their discard spot; None in a game without cards."""
        if self.game.card_region(position) is None:
            return None
        cards = self._cards_at(self._plies()).copy()
        cards.draw(mover)
        bot = self._bot(mover)
        if bot.kind == "search":
            hand = [rank for rank, _ in cards.hands[mover - 1]]
            move = bot_move(self.game, position, bot, rng, hand=hand,
                            **self._search_options(bot, rng))
        else:
            move = choose_from_hand(self.game, position, cards.ranks(mover), bot.kind, rng)
        cards.lay(mover, self.game.card_of(move))
        self._next_cards = cards
        self.board.show_cards(discard_cards(self.table.parts.geometry, cards, self.options.seed))
        return move

    def _cards_accepted(self, plies: int) -> None:
        """The move made with the card laid now stands as the ``plies``-th."""
        if self._next_cards is not None:
            self._card_history[plies] = self._next_cards
            self._next_cards = None

    def _cards_at(self, plies: int) -> DealtCards:
        """The cards after the first ``plies`` moves standing in the record."""
        states = self._card_history
        if plies not in states:
            players = len(self.table.parts.seats)
            played = [(seat, self.game.card_of(self.game.parse_move(move)))
                      for seat, move in self._standing()]
            states[plies] = DealtCards.replayed(players, self.options.seed, played[:plies])
        return states[plies]

    def _standing(self) -> list[tuple[int, str]]:
        """The moves standing in the record, as (seat, move)."""
        journal = self.table.parts.journal
        if journal is None or not journal.path.exists():
            return []
        timeline = load_timeline(journal.path.parent)
        return [(step.event.player or 0, step.event.move or "")
                for step in timeline.standing_steps()]
