"""The Shakala game tree: every distinct position the mover can reach, and the end.

A move sows all beads of one of the mover's pits (see :mod:`~companion.games.shakala.sowing`
for routes). For each kept route the beads are split among the pits it drops into (each split
once: the order of beads dropped into one pit in different laps matters only for a capture),
then every capture the mover can make with that split is played out:

* the chain is counted back from the last drop through the final run of drops on the
  opponent's side: each a stone into a pit holding exactly one bead at that moment (a bead the
  opponent left, or one dropped earlier in the same move into an empty pit), all gems
  (direct: they go to the mover's cup) or all stones (indirect: one gem per pit of the chain,
  chosen from the opponent's pits first, then from their cup, never fewer than there are);
* where a pit of the chain got a stone and a gem in two laps, the mover may drop the gem last
  and so stop the chain there.

Results are kept once each. Feeding: while gems remain in pits, a mover whose opponent has no
beads keeps only the routes that drop a bead on the opponent's side, if any route does. The
game ends when the player to move has no beads: the player who just moved wins with at least
20 points and loses otherwise.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from functools import lru_cache

from companion.games.base import Termination
from companion.games.shakala.board import other, side_pits
from companion.games.shakala.moves import Drop, ShakalaMove, Take
from companion.games.shakala.position import STONE, WIN_POINTS, Beads, ShakalaPosition
from companion.games.shakala.sowing import Plan, plans, submultisets

#: A capture chain: its kind (``direct``, ``indirect`` or None for none), its pits (last drop
#: first) and, for a direct one, the gems taken as (pit, value).
Chain = tuple[str | None, tuple[int, ...], tuple[Take, ...]]
#: What a move leaves: the pits and the cups.
Outcome = tuple[tuple[Beads, ...], tuple[Beads, Beads]]
DIRECT, INDIRECT = "direct", "indirect"
NO_CHAIN: list[Chain] = [(None, (), ())]


def is_over(position: ShakalaPosition) -> bool:
    """Whether the player to move has no beads in their pits."""
    return not position.has_beads(position.to_move)


def winner(position: ShakalaPosition) -> int:
    """At the end: the player who just moved if they have 20 points, else the player to move."""
    last = other(position.to_move)
    return last if position.points(last) >= WIN_POINTS else position.to_move


def termination(position: ShakalaPosition) -> Termination | None:
    """GOAL when the winner emptied the opponent with 20 points, EMPTIED when the player who
    emptied the opponent had fewer; None before the end."""
    if not is_over(position):
        return None
    return Termination.GOAL if winner(position) != position.to_move else Termination.EMPTIED


def must_feed(position: ShakalaPosition) -> bool:
    """Whether the mover must drop a bead on the opponent's side: gems remain in pits, the
    opponent has no beads, and some move does drop one there."""
    mover = position.to_move
    if not position.gems_in_pits or position.has_beads(other(mover)):
        return False
    return any(plan.feeds for origin in side_pits(mover) if position.pits[origin]
               for plan in plans(origin, len(position.pits[origin])))


def successors(position: ShakalaPosition) -> Iterator[tuple[ShakalaMove, ShakalaPosition]]:
    """Each distinct position the mover can reach, with one move that reaches it."""
    seen: set[Outcome] = set()
    for origin, plan, placed, chain, taken, outcome in _outcomes(position):
        if outcome not in seen:
            seen.add(outcome)
            pits, cups = outcome
            yield (ShakalaMove(origin, _drops(plan, placed, chain), taken),
                   ShakalaPosition(pits=pits, cups=cups, to_move=other(position.to_move),
                                   variants=position.variants))


def count_successors(position: ShakalaPosition) -> int:
    """How many distinct positions the mover can reach (none are built)."""
    return len({outcome for *_, outcome in _outcomes(position)})


def _outcomes(position: ShakalaPosition) -> Iterator[
        tuple[int, Plan, dict[int, Beads], Chain, tuple[Take, ...], Outcome]]:
    """Every sowing the mover can make, with what it drops where, its capture and the pits and
    cups it leaves (the same outcome may come more than once)."""
    if is_over(position):
        return
    feed = must_feed(position)
    for origin in side_pits(position.to_move):
        beads = position.pits[origin]
        if not beads:
            continue
        pits = list(position.pits)
        pits[origin] = ()
        for plan in plans(origin, len(beads)):
            if feed and not plan.feeds:
                continue
            slots = tuple(pit for pit, _ in plan.slots)
            for split in splits(beads, tuple(size for _, size in plan.slots)):
                placed = dict(zip(slots, split, strict=True))
                sown = list(pits)
                for pit, dropped in placed.items():
                    sown[pit] = merged(sown[pit], dropped)
                for chain in _chains(plan.tail, pits, placed):
                    for taken in _captures(position, sown, chain):
                        yield origin, plan, placed, chain, taken, take_gems(position, sown,
                                                                            taken)


#: Pits of at most this many beads have their splits kept (:func:`split_table`); a larger pit
#: can be split in millions of ways, which are made one at a time instead, so the first moves of
#: a huge pit come at once and memory stays flat.
CACHED_SPLIT_BEADS = 10


def splits(beads: Beads, sizes: tuple[int, ...]) -> Iterable[tuple[Beads, ...]]:
    """Each way to give slots of ``sizes`` beads their beads from the multiset ``beads``
    (sorted), each way once, in the order of :func:`split_table`."""
    if len(beads) <= CACHED_SPLIT_BEADS:
        return split_table(beads, sizes)
    kinds = sorted(set(beads))
    return _splits(tuple(beads.count(kind) for kind in kinds), sizes, kinds)


@lru_cache(maxsize=1 << 16)
def split_table(beads: Beads, sizes: tuple[int, ...]) -> tuple[tuple[Beads, ...], ...]:
    """Each way to give slots of ``sizes`` beads their beads from the multiset ``beads``
    (sorted), each way once."""
    kinds = sorted(set(beads))
    return tuple(_splits(tuple(beads.count(kind) for kind in kinds), sizes, kinds))


def _splits(counts: tuple[int, ...], sizes: Sequence[int], kinds: Sequence[int]
            ) -> Iterator[tuple[Beads, ...]]:
    """Each way to give every slot its number of beads from the multiset ``counts``."""
    if not sizes:
        yield ()
        return
    for chosen in submultisets(counts, sizes[0]):
        rest = tuple(have - took for have, took in zip(counts, chosen, strict=True))
        here = tuple(kind for kind, took in zip(kinds, chosen, strict=True)
                     for _ in range(took))
        for tail in _splits(rest, sizes[1:], kinds):
            yield (here, *tail)


def _chains(tail: Sequence[int], before: Sequence[Beads], placed: dict[int, Beads]
            ) -> list[Chain]:
    """The capture chains the mover can make, counted back from the last drop."""
    if not tail:
        return NO_CHAIN
    found: list[Chain] = []

    def step(index: int, kind: str | None, chain: tuple[int, ...], gems: tuple[Take, ...]
             ) -> None:
        if index == len(tail):
            found.append((kind, chain, gems))
            return
        pit = tail[index]
        lone, dropped = before[pit], placed[pit]
        single: int | None = None
        if len(lone) == 1 and dropped == (STONE,):
            single = lone[0]
        elif not lone and len(dropped) == 2 and dropped[0] == STONE:
            single = dropped[1]
        here = None if single is None else (DIRECT if single else INDIRECT)
        may_stop = not lone and len(dropped) == 2 and dropped[0] == STONE != dropped[1]
        if here is None or (kind is not None and here != kind) or may_stop:
            found.append((kind, chain, gems))
        if here is not None and kind in (None, here):
            taken = ((pit, single),) if here == DIRECT and single else ()
            step(index + 1, here, (*chain, pit), gems + taken)

    step(0, None, (), ())
    return found


@lru_cache(maxsize=1 << 16)
def merged(beads: Beads, dropped: Beads) -> Beads:
    """A pit's beads once ``dropped`` fall in, sorted (remembered: the same few small pits
    take the same drops over and over in a search)."""
    return tuple(sorted(beads + dropped))


def _captures(position: ShakalaPosition, sown: list[Beads], chain: Chain
              ) -> Iterable[tuple[Take, ...]]:
    """The gems the chain takes: every choice of an indirect capture."""
    kind, _, gems = chain
    if kind != INDIRECT:
        return (gems,)
    return _indirect_captures(position, sown, chain)


def _indirect_captures(position: ShakalaPosition, sown: list[Beads], chain: Chain
                       ) -> Iterator[tuple[Take, ...]]:
    """Every choice of gems an indirect chain takes: from the opponent's pits first, then
    from their cup."""
    pits = chain[1]
    theirs = [(pit, value) for pit in side_pits(other(position.to_move))
              for value in sorted(set(sown[pit])) if value != STONE]
    counts = tuple(sown[pit].count(value) for pit, value in theirs)
    from_pits = min(len(pits), sum(counts))
    cup = position.cup(other(position.to_move))
    cup_values = sorted(set(cup))
    from_cup = min(len(pits) - from_pits, len(cup))
    cup_counts = tuple(cup.count(value) for value in cup_values)
    for chosen in submultisets(counts, from_pits):
        taken = [where for where, many in zip(theirs, chosen, strict=True)
                 for _ in range(many)]
        for cup_chosen in submultisets(cup_counts, from_cup):
            more = [(None, value) for value, many in zip(cup_values, cup_chosen, strict=True)
                    for _ in range(many)]
            yield (*taken, *more)


def take_gems(position: ShakalaPosition, sown: list[Beads], taken: Sequence[Take]) -> Outcome:
    """The pits and cups after the sowing ``sown`` and the captured gems ``taken``."""
    if not taken:
        return tuple(sown), position.cups
    pits = list(sown)
    mover = position.to_move
    cups = [list(position.cups[0]), list(position.cups[1])]
    for pit, value in taken:
        if pit is None:
            cups[other(mover) - 1].remove(value)
        else:
            beads = list(pits[pit])
            beads.remove(value)
            pits[pit] = tuple(beads)
        cups[mover - 1].append(value)
    return tuple(pits), (tuple(sorted(cups[0])), tuple(sorted(cups[1])))


def after_taking(position: ShakalaPosition, sown: list[Beads], taken: Sequence[Take]
                 ) -> ShakalaPosition:
    """The position after the sowing ``sown`` and the captured gems ``taken``."""
    pits, cups = take_gems(position, sown, taken)
    return ShakalaPosition(pits=pits, cups=cups, to_move=other(position.to_move),
                           variants=position.variants)


def _drops(plan: Plan, placed: dict[int, Beads], chain: Chain) -> tuple[Drop, ...]:
    """One order of the drops that gives ``chain``: in a pit of the chain the stone falls
    last; elsewhere the beads fall in sorted order (a gem after a stone, which stops a chain
    at a pit that got both)."""
    queues = {pit: list(beads) for pit, beads in placed.items()}
    for pit in chain[1]:
        beads = queues[pit]
        beads.remove(STONE)
        beads.append(STONE)
    return tuple((pit, queues[pit].pop(0)) for pit in plan.route)
