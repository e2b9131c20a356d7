"""Jokers and Coins (seed 003, adapted by Craig Blumer) as a registered game: the hooks of
:class:`~companion.games.base.Game` over the modules of this package.

The rulings of ``RULINGS.md`` are followed: the ring in
:mod:`~companion.games.jokers_and_coins.ring`, positions in
:mod:`~companion.games.jokers_and_coins.position`, the cards everybody knows in
:mod:`~companion.games.jokers_and_coins.cards`, the notation in
:mod:`~companion.games.jokers_and_coins.moves`, the rules and the public game tree in
:mod:`~companion.games.jokers_and_coins.rules`, the table in
:mod:`~companion.games.jokers_and_coins.table`.

Where the rulings are silent, this engine decides (each is tested):

1. A rank may be played while a copy of it is unseen (not face up in the discard pile): the
   public game cannot play a 13th seven. A discard's rank is not entered (one child, as the
   rulings have it); it counts among the discards of unrecorded rank.
2. The draw pile, when empty at a draw, is refilled by shuffling the whole discard pile.
3. The draw-before-play penalty is entered as ``!`` after a play; it is not a child of the
   tree (the tree follows a player who draws).
4. The Hit Man may hit any other seat's coin, a teammate's too (bumped to its IN). When it
   lands where a forward 10 would, the two are one child, shown as the forward move.
5. Scores are coins in each seat's own HOME; a team wins together (every seat of the team
   is a winner).
6. "Has coins to move" (a teammate helped) means has a coin outside HOME; the coins a seat
   plays are one seat's at a time, so a 6 is never split between two seats' coins.
7. A Joker played for a teammate's coins (one's own all HOME) moves the teammate's coin; a
   Joker may take a coin from the track as well as from the supply, onto any other seat's
   track coin (a teammate's goes to its IN), never onto a HOME coin.
8. Legal moves are listed rank by rank (A to 10, J, Q, K, Joker), single coins before
   splits, then entering and the Hit Man; ``discard`` last.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from companion.games.base import (
    Game,
    GameInfo,
    IllegalMoveError,
    Move,
    Position,
    Result,
    RulesError,
    Termination,
    remembered_perft,
)
from companion.games.jokers_and_coins import strategy
from companion.games.jokers_and_coins.at_table import (
    covered,
    discard_spot,
    discards_by_rank,
    facts,
    finished_by_hand,
    mover_part,
)
from companion.games.jokers_and_coins.cards import reminder
from companion.games.jokers_and_coins.moves import (
    DISCARD,
    ENTER,
    HITMAN,
    JokersMove,
    parse_move,
)
from companion.games.jokers_and_coins.position import (
    GAME_NAME,
    MAX_PLAYERS,
    MIN_PLAYERS,
    JokersPosition,
    starting_position,
)
from companion.games.jokers_and_coins.reading_doubts import ring_doubts
from companion.games.jokers_and_coins.ring import SUPPLY, VARIANT_NOTES
from companion.games.jokers_and_coins.rules import (
    after,
    count_successors,
    iter_legal,
    play,
    played_seat,
    successors,
    winning_team,
)
from companion.games.jokers_and_coins.table import (
    COIN_KINDS,
    SEAT_COINS,
    SEAT_PIECES,
    bump_notes,
    layout,
    position_from_reading,
    ring_looks,
    supplies_counted,
)
from companion.games.jokers_and_coins.text import draw_position
from companion.judging import unsure_squares
from contract.observation import Observation
from contract.table_state import RegionLook, TableState, seen_looks

__all__ = ["JokersAndCoins", "JokersMove", "JokersPosition"]

#: The demo's ply cap by seats (bench/bench_jokers_bots.py, the demo's purposeful bots, seeds
#: 1 to 20): 2 seats end in 57 plies (median; at most 100), 4 in 117 (at most 170), 5 in 167
#: (at most 208), 6 in about 200 (at most about 300): two teams' eight coins each round a
#: ring of 108 spaces. Before the bots valued a coin HOME above one on the track, 6-seat
#: games never ended (3000 plies).
DEMO_PLIES = {2: 300, 3: 300, 4: 300, 5: 300, 6: 400}
SEAT_NAMES = {players: tuple(f"seat {seat} ({SEAT_PIECES[seat - 1]})"
                             for seat in range(1, players + 1))
              for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)}
#: The kinds in play by seats: seat S plays ``SEAT_COINS[S]``, so two seats play pennies and
#: nickels only, three add dimes. The camera then names a coin among these alone: a nickel
#: measured a quarter's size (a 1080p camera's few pixels on a lone silver coin) stays a nickel
#: where no seat plays quarters (docs/FIGURES.md, ring-more-tuning).
PLAYED_KINDS = {players: "".join(SEAT_COINS[seat] for seat in sorted(SEAT_COINS) if seat <= players)
                for players in range(MIN_PLAYERS, MAX_PLAYERS + 1)}


class JokersAndCoins(Game):
    """The Jokers and Coins rules engine (2 to 6 seats, seat 1 moves first)."""

    name = GAME_NAME
    #: Purposeful bots for every seat: they play for their team (:meth:`teams`), take coins
    #: HOME and keep far-come coins out of reach (:meth:`purpose`).
    demo_bots = ("purposeful",)
    #: Seat colours (the screen, and the rings printed on the mat: calibration/ring_mat.py):
    #: Okabe-Ito colours. Seats 5 and 6 play blue and yellow tokens: the pair every common
    #: colour-blindness still tells apart (and by lightness alone), far in hue from copper.
    info = GameInfo(
        title="Jokers and Coins", min_players=MIN_PLAYERS, max_players=MAX_PLAYERS,
        mat="jokers-and-coins", coin_kinds=COIN_KINDS, hidden_information=True,
        token_colours=("orange", "purple", "green", "red", "blue", "yellow"),
        score_unit=" home", seat_heading="Supply", seat_names=SEAT_NAMES,
        variants=VARIANT_NOTES, demo_plies=DEMO_PLIES, flat_tokens=True,
        coin_kinds_by_players=PLAYED_KINDS,
    )

    def new_position(self, players: int = 4, variants: Sequence[str] = (),
                     seed: int | None = None) -> JokersPosition:
        """The start: seat 1 to move, every coin in its supply (``seed`` is not used)."""
        self.info.check_players(players)
        return starting_position(players, variants)

    def position_from_json(self, data: Mapping[str, Any]) -> JokersPosition:
        """Read a position; raises :class:`~companion.games.base.PositionError`."""
        return JokersPosition.from_json(data)

    def parse_move(self, text: str) -> JokersMove:
        """Parse the notation of :mod:`~companion.games.jokers_and_coins.moves`."""
        return parse_move(text)

    def to_move(self, position: Position) -> int:
        """The seat whose turn it is."""
        return _position(position).to_move

    def iter_moves(self, position: Position) -> Iterator[Move]:
        """The legal moves, rank by rank (A to Joker), then ``discard``."""
        return iter_legal(_position(position))

    def legal_moves(self, position: Position) -> list[Move]:
        """One move per distinct resulting position (none at the end)."""
        return list(self.iter_moves(position))

    def apply(self, position: Position, move: Move) -> JokersPosition:
        """The position after ``move``; raises :class:`IllegalMoveError` saying why not."""
        if not isinstance(move, JokersMove):
            raise IllegalMoveError(f"{move!r} is not a Jokers and Coins move")
        return play(_position(position), move)

    def perft(self, position: Position, depth: int) -> int:
        """Leaves of the public game tree ``depth`` plies deep; the last ply is counted."""
        return _perft(_position(position), depth)

    def is_over(self, position: Position) -> bool:
        """Whether a seat or team has every coin HOME."""
        return winning_team(_position(position)) is not None

    def scores(self, position: Position) -> dict[int, int]:
        """Coins in each seat's own HOME."""
        position = _position(position)
        return {seat: position.home_count(seat) for seat in range(1, position.players + 1)}

    def result(self, position: Position) -> Result:
        """The seat or team with every coin HOME wins."""
        position = _position(position)
        team = winning_team(position) or ()
        return Result(winners=tuple(team), scores=tuple(self.scores(position).items()),
                      unit=self.info.score_unit, termination=Termination.GOAL,
                      team=len(team) > 1)

    def seat_coins(self, position: Position) -> dict[int, str]:
        """Each coin seat's supply, as coin letters (token seats are in :meth:`seat_notes`)."""
        position = _position(position)
        return {seat: letter * position.coins[seat - 1].count(SUPPLY)
                for seat, letter in SEAT_COINS.items() if seat <= position.players}

    def seat_notes(self, position: Position) -> dict[int, str]:
        """Hand size and supply of each seat, and a penalty owed."""
        position = _position(position)
        notes = {}
        for seat in range(1, position.players + 1):
            hand = position.cards.hands[seat - 1]
            supply = position.coins[seat - 1].count(SUPPLY)
            penalty = ", penalized" if position.cards.penalized(seat) else ""
            notes[seat] = f"{hand} cards{penalty}, {supply} in supply"
        return notes

    def legal_targets(self, position: Position) -> frozenset[str]:
        """Track and HOME spaces where the coin moved by some legal play ends."""
        position = _position(position)
        ring, seat = position.ring, played_seat(position)
        targets = set()
        for move in self.iter_moves(position):
            assert isinstance(move, JokersMove) and seat is not None
            if move.kind == ENTER:
                targets.add(ring.place_name(seat, ring.starts[seat - 1]))
            elif move.kind == HITMAN:
                targets.add(ring.place_name(seat, ring.hit_corners[seat - 1]))
            targets.update(end for _, end in move.steps)
        return frozenset(targets)

    def candidates(self, position: Position, observation: Observation) -> list[Move]:
        """Legal moves whose resulting coins on the ring look like ``observation``, or like the
        mover's own part of the move (a bumped teammate's coin not yet on its IN); the same
        coin play with different cards gives several, and a discard changes nothing. The
        supplies are checked once the move is known (:meth:`finished_by_hand`).

        A space the camera is unsure of is never held against a move, even when its reading
        fits another play: a Joker or an entry that lands from the supply on another seat's
        coin changes one space of the ring alone, and that space read unsure as it was before
        looks like a discard. The plays its reading fits come first."""
        position = _position(position)
        unsure = unsure_squares(observation)
        seen = ring_looks(seen_looks(observation))
        found: list[Move] = []
        doubtful: list[Move] = []
        for move, child in successors(position):
            shown = (ring_looks(layout(child).looks()), _ring_part(position, child))
            if any(table is not None and table == seen for table in shown):
                found.append(move)
            elif unsure and any(table is not None and _alike_except(table, seen, unsure)
                                for table in shown):
                doubtful.append(move)
        return found + doubtful

    def candidates_except(self, position: Position, observation: Observation,
                          unsure: frozenset[str]) -> list[Move] | None:
        """Legal moves whose resulting coins, or the mover's own part of them, look like
        ``observation`` in every region but the ``unsure`` ones: a doubt elsewhere on the ring
        must not hide a bump whose coin is still to go onto its IN."""
        position = _position(position)
        seen = ring_looks(seen_looks(observation))
        found: list[Move] = []
        for move, child in successors(position):
            shown = (layout(child), mover_part(position, child))
            if any(table is not None and _alike_except(ring_looks(table.looks()), seen, unsure)
                   for table in shown):
                found.append(move)
        return found

    def card_region(self, position: Position) -> str | None:
        """The mover's discard spot, ``discard-S``."""
        return discard_spot(_position(position).to_move)

    def card_of(self, move: Move) -> str | None:
        """The rank the move plays (None for a discard of unknown rank)."""
        return move.card if isinstance(move, JokersMove) else None

    def card_variants(self, position: Position, move: Move) -> list[Move]:
        """A discard of unknown rank as a discard of each rank with no legal play."""
        if not isinstance(move, JokersMove):
            return [move]
        variants: list[Move] = list(discards_by_rank(_position(position), move))
        return variants

    def mover_part(self, position: Position, move: Move) -> TableState | None:
        """The ring before a bumped teammate's coin is put on its IN by hand."""
        position = _position(position)
        return mover_part(position, self.apply(position, move))

    def judged_observation(self, observation: Observation) -> Observation:
        """The reading with each supply judged by its count alone, and the ring's readings
        that break what the ring holds made doubts (:mod:`.reading_doubts`)."""
        return supplies_counted(ring_doubts(observation))

    def finished_by_hand(self, position: Position, move: Move) -> frozenset[str]:
        """A bumped teammate's IN and the supplies the move fills or takes from."""
        position = _position(position)
        return finished_by_hand(position, self.apply(position, move))

    def progress(self, position: Position) -> dict[int, float]:
        """Coins HOME (100 each) and the spaces each seat's coins have come from START."""
        return covered(_position(position))

    def purpose(self, position: Position, move: Move) -> float:
        """How much the play lowers the risk of the mover's team's coins being bumped (see
        :mod:`~companion.games.jokers_and_coins.strategy`)."""
        before = _position(position)
        return strategy.purpose(before, self.apply(before, move), before.to_move)

    def teams(self, position: Position) -> tuple[tuple[int, ...], ...]:
        """Pairs of opposite seats with 4 and 6 seats (or two threes), else every seat alone."""
        return _position(position).ring.teams

    def facts(self, position: Position, last: tuple[Position, Move] | None
              ) -> tuple[str, ...]:
        """The card just played and its legal plays, team progress and the unseen cards."""
        if last is None or not isinstance(last[1], JokersMove):
            return facts(_position(position), None)
        return facts(_position(position), (_position(last[0]), last[1]))

    def layout(self, position: Position) -> TableState:
        """The coins on the ring (see :mod:`~companion.games.jokers_and_coins.table`)."""
        return layout(_position(position))

    def position_from_reading(self, template: Position, observation: Observation
                              ) -> JokersPosition:
        """The layout the camera read, on the template's ring, cards freshly dealt."""
        return position_from_reading(_position(template), observation)

    def prompt(self, position: Position) -> str:
        """Whose coins the mover plays, the reminder to draw first, and what to do at the
        table: lay the card on the discard spot, move, press."""
        position = _position(position)
        if self.is_over(position):
            return ""
        seat = played_seat(position)
        whose = "" if seat == position.to_move else f" (you move seat {seat}'s coins)"
        mover = position.to_move
        return (reminder(position.cards, mover) + whose + f" Lay the card you play on "
                f"{discard_spot(mover)}, move, then press END{mover} (a card with no legal "
                "play: lay it there and press).")

    def table_note(self, position: Position, move: Move) -> str:
        """Where a bumped coin goes (by hand); a discarded card goes on the discard pile."""
        position = _position(position)
        if not isinstance(move, JokersMove):
            return ""
        if move.kind == DISCARD:
            return "Lay the card with no legal play on the discard pile; the turn passes."
        notes = bump_notes(position, self.apply(position, move), played_seat(position) or 0)
        text = "; ".join(notes)
        return f"{text[0].upper()}{text[1:]}." if notes else ""

    def draw(self, position: Position) -> str:
        """The ring as text; see :func:`~companion.games.jokers_and_coins.text.draw_position`."""
        position = _position(position)
        if self.is_over(position):
            summary = f"game over: {self.result(position).text()}"
        else:
            seat = played_seat(position)
            whose = "" if seat == position.to_move else f", moving seat {seat}'s coins"
            summary = f"seat {position.to_move} to play{whose}"
        return draw_position(position, summary)


def discard_child(position: JokersPosition) -> JokersPosition:
    """The position after a discard (for tests and tools)."""
    return after(position, position.coins, None)


def _perft(position: JokersPosition, depth: int) -> int:
    return remembered_perft(position, depth, _child_positions, count_successors)


def _child_positions(position: JokersPosition) -> Iterator[JokersPosition]:
    return (child for _, child in successors(position))


def _position(position: Position) -> JokersPosition:
    if not isinstance(position, JokersPosition):
        raise RulesError(f"{type(position).__name__} is not a Jokers and Coins position")
    return position


GAME = JokersAndCoins()


def _ring_part(position: JokersPosition, child: JokersPosition) -> dict[str, RegionLook] | None:
    """The ring once the mover has made their own part of the move (None: nothing is left to
    do by hand)."""
    part = mover_part(position, child)
    return None if part is None else ring_looks(part.looks())


def _alike_except(expected: Mapping[str, RegionLook], seen: Mapping[str, RegionLook],
                  unsure: frozenset[str]) -> bool:
    """Whether every region but the ``unsure`` ones looks the same in both."""
    empty = RegionLook()
    return all(expected.get(name, empty) == seen.get(name, empty)
               for name in (expected.keys() | seen.keys()) - unsure)
