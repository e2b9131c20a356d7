"""Jokers and Coins at the table: the card laid on the mover's discard spot, what the players
move by hand after a bump, and the lines the side screen shows beside the ring.

The mover lays the card they play face up on their own discard spot (``discard-S`` on the mat),
moves their coin(s) and presses. The referee reads the card there (or takes it from the panel,
or infers it from the coins when only one rank explains them); a card with no legal play is
laid there too and the turn passes, its rank recorded (``discard:7``) when it is known.

A bump is partly done by hand: the mover's coin takes the space, and the bumped coin goes back
to its supply or, for a teammate's coin, onto its owner's IN. The table right after the
mover's own part (:func:`mover_part`) therefore may lack that coin on the IN; the referee
accepts it, marks the IN and waits for the camera to see it there. The ring tells the move;
then the supplies whose count it changes (the bumped coin's owner's, and the mover's on an
entry) are checked too (:func:`finished_by_hand`): where the camera surely counts otherwise,
the referee names the supply to put right and waits; where it is unsure, the screen says so
and the game goes on.
"""

from __future__ import annotations

from companion.games.jokers_and_coins.cards import RANKS
from companion.games.jokers_and_coins.moves import DISCARD, JokersMove
from companion.games.jokers_and_coins.position import JokersPosition
from companion.games.jokers_and_coins.ring import HOME_SPACES, SUPPLY, Ring
from companion.games.jokers_and_coins.rules import distinct_plays, played_seat, unplayable_ranks
from companion.games.jokers_and_coins.table import layout, supply_name
from contract.table_state import TableState

#: How many legal plays of the last card the screen lists before ``...``.
PLAYS_SHOWN = 6
#: What a coin in HOME is worth beyond the spaces it came: it is safe from every bump.
HOME_BONUS = 30.0
#: What each HOME space deeper is worth: a coin left on the first HOME space blocks the row
#: (no coin passes its own), so the coins behind it cannot come HOME.
HOME_DEPTH = 25.0


def discard_spot(seat: int) -> str:
    """The mat region where seat ``seat`` lays the cards they play: ``discard-3``."""
    return f"discard-{seat}"


def discards_by_rank(position: JokersPosition, move: JokersMove) -> list[JokersMove]:
    """A discard of unknown rank as one discard per rank that has no legal play (what the
    players may enter on the panel); any other move as itself."""
    if move.kind != DISCARD or move.card is not None:
        return [move]
    ranks = unplayable_ranks(position)
    return [JokersMove(DISCARD, rank, (), move.no_draw) for rank in ranks] or [move]


def placed_by_hand(before: JokersPosition, after: JokersPosition) -> frozenset[str]:
    """The regions a bumped teammate's coin is put on by hand (its owner's IN); a coin sent
    back to its supply leaves the ring. The coins the mover plays (a partner's, once the
    mover's own are HOME) are the mover's to move, not bumped."""
    ring = before.ring
    moving = {before.to_move, played_seat(before)}
    placed: set[str] = set()
    for seat in range(1, ring.players + 1):
        came = set(after.coins[seat - 1]) - set(before.coins[seat - 1]) - {SUPPLY}
        if seat not in moving:
            placed.update(ring.place_name(seat, place) for place in came)
    return frozenset(placed)


def finished_by_hand(before: JokersPosition, after: JokersPosition) -> frozenset[str]:
    """The regions the camera checks once the move from ``before`` to ``after`` is known: a
    bumped teammate's IN (:func:`placed_by_hand`) and every supply whose count the move
    changes (a bumped coin's owner's, the mover's on an entry)."""
    changed = {supply_name(seat) for seat in range(1, before.players + 1)
               if before.coins[seat - 1].count(SUPPLY) != after.coins[seat - 1].count(SUPPLY)}
    return placed_by_hand(before, after) | changed


def mover_part(before: JokersPosition, after: JokersPosition) -> TableState | None:
    """The table once the mover has made their own part of the move from ``before`` to
    ``after`` (their coin on the space, the bumped coin lifted off), where a bumped teammate's
    coin is still to go onto its IN; None when nothing is left to do by hand."""
    placed = placed_by_hand(before, after)
    if not placed:
        return None
    table = layout(after)
    return TableState({name: contents for name, contents in table.items() if name not in placed})


def covered(position: JokersPosition) -> dict[int, float]:
    """Each seat's progress for a bot: the spaces its coins have come on their way from START to
    IN (:func:`spaces_come`), a coin in HOME counting the whole way to its HOME space plus
    :data:`HOME_BONUS`. So a coin HOME is worth more than any coin on the track on every ring:
    with 6 seats the way from START to IN is 104 spaces, and a flat 100 a coin HOME kept bots
    from ever going HOME."""
    ring = position.ring
    found = {}
    for seat, places in enumerate(position.coins, start=1):
        total = 0.0
        for place in places:
            if place != SUPPLY:
                total += spaces_come(ring, seat, place)
        found[seat] = total
    return found


def spaces_come(ring: Ring, seat: int, place: int) -> float:
    """How far ``seat``'s coin on ``place`` has come: the way from START to IN less the spaces
    left to IN (START is 1, IN the whole way), a HOME space the whole way on plus
    :data:`HOME_BONUS`. A coin just past its IN has a lap to go, so it counts as just behind
    START (0 or a few below), not as nearly home; one just behind START, sent back by a 7, is
    nearly at its IN."""
    way = (ring.ins[seat - 1] - ring.starts[seat - 1]) % ring.size + 1
    if place >= ring.size:
        return way + 1 + HOME_BONUS + HOME_DEPTH * (place - ring.size)
    return way - (ring.ins[seat - 1] - place) % ring.size


def facts(position: JokersPosition, last: tuple[JokersPosition, JokersMove] | None
          ) -> tuple[str, ...]:
    """The lines of the side screen: the card just played and what it could have done, each
    team's progress, and the cards nobody has seen yet by rank."""
    lines: list[str] = []
    if last is not None:
        lines += _last_card(*last)
    lines += _progress(position)
    cards = position.cards
    remaining = cards.remaining()
    ranks = [rank for rank in RANKS if rank != "joker" or position.players > 2]
    counts = [f"{rank}:{remaining[rank]}" for rank in ranks]
    lines.append("Unseen cards: " + " ".join(counts[:7]))
    lines.append("  " + " ".join(counts[7:]))
    lines.append(f"Draw pile {cards.draw_pile}, hands {' '.join(map(str, cards.hands))}, "
                 f"discards {sum(cards.discard)} face up"
                 + (f" + {cards.unrecorded} unread" if cards.unrecorded else "")
                 + (f", reshuffled {cards.shuffles}x" if cards.shuffles else ""))
    return tuple(lines)


def _last_card(before: JokersPosition, move: JokersMove) -> list[str]:
    seat = before.to_move
    if move.card is None:
        return [f"Seat {seat} discarded a card of unknown rank (no legal play)."]
    if move.kind == DISCARD:
        return [f"Seat {seat} discarded a {move.card}: it had no legal play."]
    plays = sorted(made.text() for made in distinct_plays(before, move.card).values())
    shown = ", ".join(plays[:PLAYS_SHOWN]) + (", ..." if len(plays) > PLAYS_SHOWN else "")
    return [f"Seat {seat} played a {move.card}: {move.text()}",
            f"Legal plays of that {move.card} ({len(plays)}): {shown}"]


def _progress(position: JokersPosition) -> list[str]:
    teams = [team for team in position.ring.teams if len(team) > 1]
    if not teams:
        return []
    parts = []
    for team in teams:
        home = sum(position.home_count(seat) for seat in team)
        parts.append(f"{'+'.join(map(str, team))}: {home}/{HOME_SPACES * len(team)}")
    return ["Teams HOME: " + ", ".join(parts)]
