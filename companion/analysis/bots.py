"""The bots that play the demo and the search bench: ``random``, ``greedy``, ``purposeful`` and
``search``.

A bot is named by text, ``random``, ``greedy``, ``purposeful``, ``search`` (one second a move)
or ``search:SECONDS``; :func:`parse_bot` reads it. :func:`bot_move` picks the bot's move from a
position: ``random`` any legal move, ``greedy`` the one that adds most to its score (a battle's
outcomes by their odds; ties at random), ``purposeful`` the greedy gain plus what the game says
the move does to get on with it (:meth:`~companion.games.base.Game.purpose`: Coin Grid's
battles and advances, Shakala's look-ahead and drive to the end; a game without one is played
greedily), and of equally good moves it leaves those that lead back to a position the game has
already stood in (``seen``) while another is left, ``search`` the most visited move
of a Monte Carlo tree search (:mod:`companion.analysis.search`). In a card game the bot plays
from the cards it holds (:func:`companion.demo_cards.choose_from_hand` for random, greedy and
purposeful; the search knows the bot's own hand and guesses the others').
"""

from __future__ import annotations

import random
from collections.abc import Collection, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from itertools import islice

from companion.analysis.limits import ALL_PARTS, SearchError, SearchLimits, SearchParts
from companion.analysis.search import search
from companion.games.base import Game, Move, Position

KINDS = ("random", "greedy", "purposeful", "search")
#: How many legal moves a random or greedy bot looks at before choosing; bounds a turn in
#: huge positions (the demo's own bound).
BOT_MOVE_LIMIT = 4000
#: A search bot's time a move when its name gives none.
DEFAULT_SECONDS = 1.0


@dataclass(frozen=True)
class Bot:
    """A bot: its kind and, for a search, its time or playouts a move and the parts of the
    search it runs (all by default)."""

    kind: str
    seconds: float | None = None
    playouts: int | None = None
    parts: SearchParts = ALL_PARTS

    def text(self) -> str:
        """The bot's name as :func:`parse_bot` reads it (playout bounds have no text)."""
        if self.kind != "search" or self.seconds is None:
            return self.kind
        return f"search:{self.seconds:g}"

    def limits(self, seed: int, workers: int = 1, plies_left: int | None = None
               ) -> SearchLimits:
        """The search limits of a search bot's move (``plies_left``: before the game is
        stopped at a ply cap and scored by progress)."""
        seconds = self.seconds if self.playouts is None else None
        return SearchLimits(seconds=seconds, playouts=self.playouts, seed=seed, workers=workers,
                            plies_left=plies_left, parts=self.parts)


def parse_bot(text: str) -> Bot:
    """``random``, ``greedy``, ``purposeful``, ``search`` or ``search:SECONDS`` as a
    :class:`Bot`; raises :class:`SearchError` in a sentence otherwise."""
    kind, _, rest = text.strip().partition(":")
    if kind not in KINDS or (rest and kind != "search"):
        raise SearchError(f"unknown bot {text.strip()!r}; use random, greedy, purposeful, search "
                          "or search:SECONDS")
    if kind != "search":
        return Bot(kind)
    if not rest:
        return Bot(kind, DEFAULT_SECONDS)
    try:
        seconds = float(rest)
    except ValueError:
        seconds = -1.0
    if not 0 < seconds <= 600:
        raise SearchError(f"bot {text.strip()!r}: the search time must be a number of seconds "
                          "above 0 up to 600, as in search:1.5")
    return Bot(kind, seconds)


def bot_move(game: Game, position: Position, bot: Bot, rng: random.Random, *,
             hand: Sequence[str] | None = None, seed: int = 0,
             pool: Executor | None = None, plies_left: int | None = None,
             seen: Collection[Position] = ()) -> Move:
    """The move ``bot`` makes in ``position`` (a decision, not a chance node). ``hand`` is the
    mover's cards in a card game (after drawing); ``seed`` seeds a search, ``pool`` runs it in
    another process (so the caller's threads keep running); ``plies_left`` tells a search
    when the game will be stopped at a ply cap and scored by progress; ``seen`` holds the
    positions the game has stood in, which a purposeful bot does not go back to when an
    equally good move leads elsewhere."""
    if bot.kind == "search":
        limits = bot.limits(seed, plies_left=plies_left)
        best = search(game, position, limits, hand=hand, pool=pool).best
        return best if hand is None else _with_card(game, position, best, hand)
    if hand is not None:
        from companion.demo_cards import choose_from_hand

        return choose_from_hand(game, position, list(dict.fromkeys(hand)), bot.kind, rng)
    moves = sorted(islice(game.iter_moves(position), BOT_MOVE_LIMIT),
                   key=lambda move: move.text())
    if bot.kind == "random":
        return rng.choice(moves)
    mover = game.to_move(position)
    gains = [gain(game, position, move, mover) for move in moves]
    if bot.kind == "purposeful":
        gains = [value + game.purpose(position, move) for move, value in zip(moves, gains,
                                                                              strict=True)]
    top = max(gains)
    chosen = [move for move, value in zip(moves, gains, strict=True) if value == top]
    if bot.kind == "purposeful" and seen:
        chosen = [move for move in chosen if game.apply(position, move) not in seen] or chosen
    return rng.choice(chosen)


def gain(game: Game, position: Position, move: Move, mover: int) -> float:
    """What ``move`` adds to the mover's score, on average over a chance node it leads to
    (a battle's outcomes by their odds)."""
    before = game.scores(position)[mover]
    after = game.apply(position, move)
    if not game.is_chance(after):
        return game.scores(after)[mover] - before
    return sum(float(chance) * (game.scores(game.apply(after, outcome))[mover] - before)
               for outcome, chance in game.chance_outcomes(after))


def _with_card(game: Game, position: Position, move: Move, hand: Sequence[str]) -> Move:
    """``move`` naming a card of ``hand`` (a discard of unknown rank becomes a discard of a
    held rank with no play)."""
    if game.card_of(move) is not None:
        return move
    for variant in game.card_variants(position, move):
        if game.card_of(variant) in hand:
            return variant
    raise SearchError(f"no card of {sorted(set(hand))} can make {move.text()}")
