"""The rules of Jokers and Coins as RULINGS.md settles them: which coins a seat plays, what each
card does, bumping, HOME, the public game tree and the end.

The public game (what ``perft`` counts): the mover may play any rank with an unseen copy
(:mod:`~companion.games.jokers_and_coins.cards`); each distinct resulting position is a child,
and ``discard`` is one more child when some such rank has no legal play. A card's plays:

* forward N (A 1, 2-5, 8, 9, 10, J Q K 10): the full count; no passing or landing on a coin of
  the moving coin's owner, HOME included; a move that reaches the owner's IN (or starts on it)
  may turn into HOME when the rest of the count fits (both are children);
* 6: forward 6 with one coin, or split a+b (each at least 1) between two coins, played one
  after the other, each a legal forward move;
* 7: backward 7 on the track (never into or out of HOME);
* A J Q K enter: a supply coin onto START, unless one of the seat's own coins stands there;
* J Q K Hit Man: the coin on START jumps to the corner ahead when another seat's coin stands
  there, whatever lies between;
* Joker (3+ players): a coin from the supply or the track lands on any other seat's track coin.

Landing on another seat's coin bumps it: a teammate's coin goes to its owner's IN (to its supply
if IN is taken), an opponent's to its supply. Coins in HOME are safe.
"""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.base import IllegalMoveError
from companion.games.jokers_and_coins.cards import RANK_INDEX, RANKS
from companion.games.jokers_and_coins.moves import (
    DISCARD,
    ENTER,
    ENTERING_CARDS,
    HITMAN,
    HITMAN_CARDS,
    JOKER,
    STEP,
    JokersMove,
)
from companion.games.jokers_and_coins.position import JokersPosition
from companion.games.jokers_and_coins.ring import HOME_SPACES, SUPPLY, Ring

#: The forward count of each card that moves forward (the 6 and 7 have their own rules).
FORWARD = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10,
           "K": 10}
Coins = tuple[tuple[int, ...], ...]
Play = tuple[JokersMove, Coins]


class Table:
    """A mutable working copy of the coins while a play is made: coins by seat - 1 and the
    track (index -> seat)."""

    __slots__ = ("board", "coins", "ring")

    def __init__(self, ring: Ring, coins: list[list[int]], board: dict[int, int]) -> None:
        self.ring, self.coins, self.board = ring, coins, board

    @classmethod
    def of(cls, position: JokersPosition) -> Table:
        return cls(position.ring, [list(places) for places in position.coins],
                   dict(position.board))

    def copy(self) -> Table:
        return Table(self.ring, [list(places) for places in self.coins], dict(self.board))

    def frozen(self) -> Coins:
        return tuple(tuple(sorted(places)) for places in self.coins)

    def move(self, seat: int, origin: int, target: int) -> None:
        """Move ``seat``'s coin from ``origin`` to ``target``, bumping a coin standing there."""
        ring, board = self.ring, self.board
        self.coins[seat - 1].remove(origin)
        if 0 <= origin < ring.size:
            del board[origin]
        if 0 <= target < ring.size:
            bumped = board.get(target)
            board[target] = seat
            if bumped is not None:
                self._bump(seat, bumped, target)
        self.coins[seat - 1].append(target)

    def _bump(self, seat: int, bumped: int, place: int) -> None:
        """The coin of ``bumped`` on ``place`` goes to its IN (a teammate of ``seat``, IN
        free) or to its supply."""
        places = self.coins[bumped - 1]
        places.remove(place)
        home_in = self.ring.ins[bumped - 1]
        if bumped in self.ring.team_of[seat] and home_in not in self.board:
            self.board[home_in] = bumped
            places.append(home_in)
        else:
            places.append(SUPPLY)

    def forward(self, seat: int, place: int, count: int) -> list[int]:
        """Where ``seat``'s coin on ``place`` can end ``count`` spaces forward (track, HOME)."""
        ring, board = self.ring, self.board
        size = ring.size
        if place >= size:
            return self._inside_home(seat, place - size, count)
        found: list[int] = []
        to_in = (ring.ins[seat - 1] - place) % size
        reach = min(count, to_in)
        if any(board.get((place + step) % size) == seat for step in range(1, reach + 1)):
            return found
        if all(board.get((place + step) % size) != seat for step in range(reach + 1, count + 1)):
            found.append((place + count) % size)
        if to_in < count:
            found += self._inside_home(seat, -1, count - to_in)
        return found

    def _inside_home(self, seat: int, space: int, count: int) -> list[int]:
        """HOME space ``space`` (-1: IN) forward ``count``, when it fits and passes no coin."""
        target = space + count
        if target >= HOME_SPACES:
            return []
        size = self.ring.size
        own = self.coins[seat - 1]
        if any(size + step in own for step in range(space + 1, target + 1)):
            return []
        return [size + target]

    def backward(self, seat: int, place: int, count: int) -> list[int]:
        """Where ``seat``'s track coin on ``place`` ends ``count`` spaces backward."""
        size = self.ring.size
        if place < 0 or place >= size:
            return []
        if any(self.board.get((place - step) % size) == seat for step in range(1, count + 1)):
            return []
        return [(place - count) % size]


def played_seat(position: JokersPosition) -> int | None:
    """Whose coins the mover plays: their own until all four are HOME, then the teammates'
    (in :attr:`Ring.helped` order) that still have coins out; None once the team is home."""
    mover = position.to_move
    for seat in (mover, *position.ring.helped[mover]):
        if position.home_count(seat) < HOME_SPACES:
            return seat
    return None


def winning_team(position: JokersPosition) -> tuple[int, ...] | None:
    """The team (or lone seat) with every coin HOME, if any."""
    for team in position.ring.teams:
        if all(position.home_count(seat) == HOME_SPACES for seat in team):
            return team
    return None


def available_ranks(position: JokersPosition) -> list[str]:
    """Ranks the mover may play in the public game: those with an unseen copy once the mover
    has drawn (a draw from an empty pile shuffles the discard pile back first)."""
    cards = position.cards.before_play(position.to_move)
    return [rank for index, rank in enumerate(RANKS) if cards.unseen(index)]


def card_plays(position: JokersPosition, card: str) -> Iterator[Play]:
    """Every play of ``card`` with its resulting coins, duplicates included (one per way of
    making it: both orders of a split, a Hit Man that equals a forward 10), in the order
    moves are listed: single coins, splits, a Joker's, entering, the Hit Man."""
    seat = played_seat(position)
    if seat is None:
        return
    table = Table.of(position)
    if card == "joker":
        yield from _joker(table, seat)
    elif card == "7":
        yield from _singles(table, seat, card, -7)
    elif card == "6":
        yield from _singles(table, seat, card, 6)
        yield from _splits(table, seat)
    elif card in FORWARD:
        yield from _singles(table, seat, card, FORWARD[card])
    if card in ENTERING_CARDS:
        yield from _enter(table, seat, card)
    if card in HITMAN_CARDS:
        yield from _hitman(table, seat, card)


def distinct_plays(position: JokersPosition, card: str) -> dict[Coins, JokersMove]:
    """The plays of ``card``, one per resulting placement of the coins (the first found)."""
    found: dict[Coins, JokersMove] = {}
    for move, coins in card_plays(position, card):
        found.setdefault(coins, move)
    return found


def successors(position: JokersPosition) -> list[tuple[JokersMove, JokersPosition]]:
    """The children of the public game tree, each with its move (empty at the end). Plays of
    different ranks are different children, except where the discard pile is shuffled into
    the draw pile right after the play (a penalized turn's two draws) and the ranks vanish."""
    if winning_team(position) is not None:
        return []
    found: dict[JokersPosition, JokersMove] = {}
    unplayable = False
    for rank in available_ranks(position):
        plays = distinct_plays(position, rank)
        unplayable = unplayable or not plays
        for coins, move in plays.items():
            found.setdefault(after(position, coins, RANK_INDEX[rank]), move)
    if unplayable:
        found.setdefault(after(position, position.coins, None), JokersMove(DISCARD))
    return [(move, child) for child, move in found.items()]


def count_successors(position: JokersPosition) -> int:
    """``len(successors(position))``, without building the children where no shuffle after
    the play can make two ranks' children alike."""
    if winning_team(position) is not None:
        return 0
    if _ranks_may_merge(position):
        return len(successors(position))
    counts = [len(distinct_plays(position, rank)) for rank in available_ranks(position)]
    return sum(counts) + (0 in counts)


def iter_legal(position: JokersPosition) -> Iterator[JokersMove]:
    """The moves of :func:`successors` one at a time, rank by rank (A to Joker), then
    ``discard``."""
    if winning_team(position) is not None:
        return
    if _ranks_may_merge(position):
        yield from (move for move, _ in successors(position))
        return
    unplayable = False
    for rank in available_ranks(position):
        plays = distinct_plays(position, rank)
        unplayable = unplayable or not plays
        yield from plays.values()
    if unplayable:
        yield JokersMove(DISCARD)


def _ranks_may_merge(position: JokersPosition) -> bool:
    """Whether the discard pile may be shuffled away right after this play (a penalized
    mover draws two afterwards from a pile of fewer), so two ranks' children can be alike."""
    cards = position.cards
    return cards.penalized(position.to_move) and cards.draw_pile < 2


def after(position: JokersPosition, coins: Coins, rank: int | None,
          no_draw: bool = False) -> JokersPosition:
    """The position once the mover has played card ``rank`` (None: a discard) leaving
    ``coins``: the cards updated and the next seat to move."""
    mover = position.to_move
    cards = position.cards.after_turn(mover, rank, no_draw)
    return JokersPosition(position.ring, coins, mover % position.players + 1, cards)


def play(position: JokersPosition, move: JokersMove) -> JokersPosition:
    """The position after ``move``; raises :class:`IllegalMoveError` saying why not."""
    mover = position.to_move
    if winning_team(position) is not None:
        raise IllegalMoveError(f"{move.text()}: the game is over")
    if move.no_draw and position.cards.penalized(mover):
        raise IllegalMoveError(f"{move.text()}: player {mover} draws nothing this turn "
                               "(penalized), so the play cannot be marked as made without "
                               "drawing; drop the '!'")
    if move.kind == DISCARD:
        return _discard(position, move)
    assert move.card is not None
    if not position.cards.before_play(mover).unseen(RANK_INDEX[move.card]):
        raise IllegalMoveError(f"{move.text()}: every {move.card} is face up in the discard "
                               "pile, so nobody holds one")
    wanted = (move.kind, move.steps)
    for made, coins in card_plays(position, move.card):
        if (made.kind, made.steps) == wanted:
            return after(position, coins, RANK_INDEX[move.card], move.no_draw)
    raise IllegalMoveError(_why_not(position, move))


def _discard(position: JokersPosition, move: JokersMove) -> JokersPosition:
    if move.card is not None:
        return _discard_known(position, move, move.card)
    if all(distinct_plays(position, rank) for rank in available_ranks(position)):
        raise IllegalMoveError(f"{move.text()}: player {position.to_move} has a legal play "
                               "with every card, so no card is discarded")
    return after(position, position.coins, None, move.no_draw)


def _discard_known(position: JokersPosition, move: JokersMove, card: str) -> JokersPosition:
    """A discard of a known rank: legal when a copy is unseen and the card has no play."""
    if card not in available_ranks(position):
        raise IllegalMoveError(f"{move.text()}: every {card} is face up in the discard pile "
                               "(or out of this game), so nobody holds one")
    plays = distinct_plays(position, card)
    if plays:
        shown = ", ".join(sorted(made.text() for made in plays.values())[:6])
        raise IllegalMoveError(f"{move.text()}: a {card} has a legal play ({shown}), so it "
                               "must be played, not discarded")
    return after(position, position.coins, RANK_INDEX[card], move.no_draw)


def unplayable_ranks(position: JokersPosition) -> list[str]:
    """The ranks the mover could hold (a copy unseen) that have no legal play: the cards a
    discard may show, in the order of :data:`RANKS`."""
    return [rank for rank in available_ranks(position) if not distinct_plays(position, rank)]


def _why_not(position: JokersPosition, move: JokersMove) -> str:
    seat = played_seat(position)
    legal = sorted({made.text() for made, _ in card_plays(position, move.card or "")})
    shown = ", ".join(legal[:8]) + (", ..." if len(legal) > 8 else "") if legal else "none"
    whose = "their own" if seat == position.to_move else f"seat {seat}'s"
    return (f"{move.text()} is not legal: player {position.to_move} plays {whose} coins, and "
            f"the legal plays of a {move.card} are: {shown}")


def _enter(table: Table, seat: int, card: str) -> Iterator[Play]:
    start = table.ring.starts[seat - 1]
    if SUPPLY in table.coins[seat - 1] and table.board.get(start) != seat:
        work = table.copy()
        work.move(seat, SUPPLY, start)
        yield JokersMove(ENTER, card), work.frozen()


def _hitman(table: Table, seat: int, card: str) -> Iterator[Play]:
    ring = table.ring
    start, corner = ring.starts[seat - 1], ring.hit_corners[seat - 1]
    if table.board.get(start) == seat and table.board.get(corner, seat) != seat:
        work = table.copy()
        work.move(seat, start, corner)
        yield JokersMove(HITMAN, card), work.frozen()


def _joker(table: Table, seat: int) -> Iterator[Play]:
    ring = table.ring
    sources = sorted({place for place in table.coins[seat - 1] if place < ring.size})
    targets = sorted(place for place, owner in table.board.items() if owner != seat)
    for source in sources:
        for target in targets:
            work = table.copy()
            work.move(seat, source, target)
            step = (ring.place_name(seat, source), ring.place_name(seat, target))
            yield JokersMove(JOKER, "joker", (step,)), work.frozen()


def _singles(table: Table, seat: int, card: str, count: int) -> Iterator[Play]:
    ring = table.ring
    for place in sorted(set(table.coins[seat - 1]) - {SUPPLY}):
        ends = (table.backward(seat, place, -count) if count < 0
                else table.forward(seat, place, count))
        for end in ends:
            work = table.copy()
            work.move(seat, place, end)
            step = (ring.place_name(seat, place), ring.place_name(seat, end))
            yield JokersMove(STEP, card, (step,)), work.frozen()


def _splits(table: Table, seat: int) -> Iterator[Play]:
    ring = table.ring
    places = sorted(set(table.coins[seat - 1]) - {SUPPLY})
    for first_count in range(1, 6):
        for first in places:
            for first_end in table.forward(seat, first, first_count):
                half = table.copy()
                half.move(seat, first, first_end)
                step = (ring.place_name(seat, first), ring.place_name(seat, first_end))
                for second in places:
                    if second == first:
                        continue
                    for second_end in half.forward(seat, second, 6 - first_count):
                        work = half.copy()
                        work.move(seat, second, second_end)
                        other = (ring.place_name(seat, second), ring.place_name(seat, second_end))
                        yield JokersMove(STEP, "6", (step, other)), work.frozen()
