"""Working out a Shakala move from what the camera saw of every pit and cup.

The camera reports how many coins of each kind lie in each pit and cup, which is the whole
position: every bead is one coin and every value in force has its own coin kind, so two legal
moves (distinct positions, by the rulings) never look alike to a camera that reads every region
right. Listing every legal move and comparing is far too slow where one pit holds many beads
(millions of bead orders), so the sowing is worked backwards instead: for each pit the mover
could have picked up and each route (:func:`~companion.games.shakala.sowing.plans`), the beads
each pit received follow from what it holds now, up to the gems a capture took from the
opponent's pits; only those splits are played out, with the engine's own capture chains, and
kept when the pits and cups they leave are the ones seen.

Regions the camera is unsure of (``unsure``) may hold anything: their beads are then chosen
freely, which is how the referee finds the moves that differ only where the reading is in doubt
(several moves: it asks; see :func:`choice_labels` for what it shows of each).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from itertools import combinations

from companion.games.shakala.board import PIT_NAMES, other, owner, side_pits
from companion.games.shakala.moves import ShakalaMove, Take
from companion.games.shakala.position import STONE, Beads, ShakalaPosition
from companion.games.shakala.rules import (
    INDIRECT,
    Chain,
    Outcome,
    _captures,
    _chains,
    _drops,
    is_over,
    must_feed,
    take_gems,
)
from companion.games.shakala.sowing import Plan, plans, submultisets
from companion.games.shakala.table import CUP_REGIONS, REGIONS, bead_coins
from contract.observation import Observation

#: What the camera saw: each pit's beads and each cup's gems, None where unknown (unsure).
Seen = tuple[tuple[Beads | None, ...], tuple[Beads | None, Beads | None]]
#: A region read with less confidence than this is in doubt (the referee's
#: ``companion.judging.UNSURE_CONFIDENCE``, which a test holds equal).
DOUBT_BELOW = 0.5
#: How many regions a rejected sowing may differ in for its nearest legal move to be sought.
NEAREST_REGIONS = 2


def doubted_regions(observation: Observation) -> frozenset[str]:
    """The pits and cups the camera read with too little confidence to rule on."""
    return frozenset(name for name, reading in observation.regions.items()
                     if name in REGIONS and reading.confidence < DOUBT_BELOW)


def seen_beads(position: ShakalaPosition, observation: Observation,
               unsure: frozenset[str] = frozenset()) -> Seen | None:
    """The beads the camera saw in every pit and cup as the position's values (None for a
    region in ``unsure``), or None when some sure region holds what no position can (a coin of
    no kind in force, a stacked reading)."""
    values = {coin: bead for bead, coin in bead_coins(position.variants).items()}
    found: list[Beads | None] = []
    for region in (*PIT_NAMES, *CUP_REGIONS):
        if region in unsure:
            found.append(None)
            continue
        reading = observation.regions.get(region)
        if reading is None or (reading.coin is None and not reading.count):
            found.append(())
            continue
        if reading.coin is not None or reading.pawn is not None \
                or reading.count != len(reading.kinds) \
                or any(kind not in values for kind in reading.kinds):
            return None
        found.append(tuple(sorted(values[kind] for kind in reading.kinds)))
    return tuple(found[:16]), (found[16], found[17])


def nearest_moves(position: ShakalaPosition, observation: Observation, most: int,
                  farthest: int = NEAREST_REGIONS) -> list[ShakalaMove]:
    """Up to ``most`` moves whose result differs from ``observation`` in the fewest pits and
    cups, one region and then two (the pits a slipped bead leaves and lands in); none when
    every move differs in more. Each region or pair is taken in doubt in turn, so the sowing
    the player made is found even among millions of bead orders."""
    found: dict[ShakalaMove, None] = {}
    for size in range(1, farthest + 1):
        for regions in combinations(REGIONS, size):
            seen = seen_beads(position, observation, frozenset(regions))
            if seen is None:
                continue
            for move in fitting_moves(position, seen):
                found.setdefault(move, None)
                if len(found) >= most:
                    return list(found)
        if found:
            return list(found)
    return []


def fitting_moves(position: ShakalaPosition, seen: Seen) -> list[ShakalaMove]:
    """One move per distinct position the mover can reach that agrees with ``seen`` in every
    region it knows; at most one when it knows them all."""
    if is_over(position):
        return []
    found: dict[Outcome, ShakalaMove] = {}
    feed = must_feed(position)
    for origin in side_pits(position.to_move):
        beads = position.pits[origin]
        if not beads:
            continue
        for plan in plans(origin, len(beads)):
            if feed and not plan.feeds:
                continue
            for move, outcome in _plan_moves(position, seen, origin, plan):
                found.setdefault(outcome, move)
    return list(found.values())


def _plan_moves(position: ShakalaPosition, seen: Seen, origin: int, plan: Plan
                ) -> Iterator[tuple[ShakalaMove, Outcome]]:
    """The moves along ``plan`` whose outcome agrees with ``seen``."""
    before = list(position.pits)
    before[origin] = ()
    drops = dict(plan.slots)
    if not _counts_agree(position, seen, before, drops):
        return
    for placed in _placements(position, seen, before, position.pits[origin], plan.slots):
        sown = list(before)
        for pit, dropped in placed.items():
            sown[pit] = tuple(sorted(sown[pit] + dropped))
        for chain in _chains(plan.tail, before, placed):
            for taken in _takes(position, seen, sown, chain):
                outcome = take_gems(position, sown, taken)
                if _agrees(outcome, seen):
                    yield ShakalaMove(origin, _drops(plan, placed, chain), taken), outcome


def _counts_agree(position: ShakalaPosition, seen: Seen, before: Sequence[Beads],
                  drops: Mapping[int, int]) -> bool:
    """Whether every pit the camera knows can hold what it holds after a route dropping
    ``drops`` beads a pit: the mover's pits exactly their beads plus the drops, the
    opponent's at most that many (a capture takes gems), and a pit the route misses as it was
    but for gems captured from it."""
    pits, _ = seen
    theirs = side_pits(other(position.to_move))
    for pit, now in enumerate(pits):
        if now is None:
            continue
        received = drops.get(pit, 0)
        if pit not in theirs:
            if len(now) != len(before[pit]) + received:
                return False
        elif len(now) > len(before[pit]) + received:
            return False
        if received == 0 and _short_by_gems(before[pit], now) is None:
            return False
    return True


def _short_by_gems(had: Beads, now: Beads) -> Counter[int] | None:
    """The gems ``had`` holds beyond ``now`` when ``now`` is ``had`` less some gems, else None."""
    left = Counter(had)
    left.subtract(now)
    if any(count < 0 for count in left.values()) or left[STONE] > 0:
        return None
    return +left


def _placements(position: ShakalaPosition, seen: Seen, before: Sequence[Beads],
                origin_beads: Beads, slots: Sequence[tuple[int, int]]
                ) -> Iterator[dict[int, Beads]]:
    """Every split of the origin's beads among ``slots`` that leaves each pit as seen: exactly
    for the mover's pits, up to gems captured for the opponent's, freely where unknown."""
    kinds = sorted(set(origin_beads))
    counts = tuple(origin_beads.count(kind) for kind in kinds)
    mover = position.to_move
    pits, _ = seen
    # The pits the camera knows first (the mover's fix their beads exactly), those in doubt
    # last: by then few beads are left to give them, and the last takes what remains.
    slots = sorted(slots, key=lambda slot: (pits[slot[0]] is None, owner(slot[0]) != mover))

    def fill(index: int, left: tuple[int, ...], placed: dict[int, Beads]
             ) -> Iterator[dict[int, Beads]]:
        if index == len(slots):
            yield dict(placed)
            return
        pit, size = slots[index]
        for chosen in _slot_options(pits[pit], before[pit], owner(pit) == mover, left, size,
                                    kinds):
            placed[pit] = tuple(kind for kind, many in zip(kinds, chosen, strict=True)
                                for _ in range(many))
            rest = tuple(have - took for have, took in zip(left, chosen, strict=True))
            yield from fill(index + 1, rest, placed)
        placed.pop(pit, None)

    yield from fill(0, counts, {})


def _slot_options(now: Beads | None, had: Beads, mine: bool, left: tuple[int, ...], size: int,
                  kinds: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """The counts per kind (of ``kinds``) a pit holding ``had`` may have received, ``size``
    beads out of ``left``, to hold ``now`` after any capture: exactly the difference for the
    mover's pits; for the opponent's, the difference plus any gems a capture took again."""
    if now is None:
        yield from submultisets(left, size)
        return
    for value in set(now) | set(had):
        if value not in kinds:
            gone = had.count(value) - now.count(value)
            if gone < 0 or (gone and (mine or value == STONE)):
                return
    need = tuple(now.count(kind) - had.count(kind) for kind in kinds)
    if mine:
        if sum(need) == size and all(0 <= took <= have for took, have in
                                     zip(need, left, strict=True)):
            yield need
        return
    base = tuple(max(0, took) for took in need)
    extra = size - sum(base)
    if extra < 0 or any(took > have for took, have in zip(base, left, strict=True)):
        return
    spare = tuple(0 if kind == STONE else have - took
                  for kind, have, took in zip(kinds, left, base, strict=True))
    for more in submultisets(spare, extra):
        yield tuple(took + add for took, add in zip(base, more, strict=True))


def _takes(position: ShakalaPosition, seen: Seen, sown: Sequence[Beads], chain: Chain
           ) -> Iterator[tuple[Take, ...]]:
    """The gems the chain may take that can leave the pits and cups as seen: worked out from
    the opponent's pits and cup where the camera knows them all, else every choice."""
    kind, chain_pits, gems = chain
    if kind != INDIRECT:
        yield gems
        return
    pits, cups = seen
    theirs = side_pits(other(position.to_move))
    their_cup = cups[other(position.to_move) - 1]
    if their_cup is None or any(pits[pit] is None for pit in theirs):
        yield from _captures(position, list(sown), chain)
        return
    taken: list[Take] = []
    for pit in theirs:
        now = pits[pit]
        assert now is not None
        short = _short_by_gems(sown[pit], now)
        if short is None:
            return
        taken += [(pit, value) for value in sorted(short.elements())]
    from_cup = _short_by_gems(position.cup(other(position.to_move)), their_cup)
    if from_cup is None:
        return
    taken += [(None, value) for value in sorted(from_cup.elements())]
    if _may_take(position, sown, len(chain_pits), taken):
        yield tuple(taken)


def _may_take(position: ShakalaPosition, sown: Sequence[Beads], chain_length: int,
              taken: Sequence[Take]) -> bool:
    """Whether an indirect capture of ``chain_length`` gems may take ``taken``: as many from
    the opponent's pits as they hold up to that number, the rest from their cup."""
    theirs = side_pits(other(position.to_move))
    in_pits = sum(1 for pit in theirs for bead in sown[pit] if bead != STONE)
    from_pits = min(chain_length, in_pits)
    from_cup = min(chain_length - from_pits, len(position.cup(other(position.to_move))))
    return (sum(1 for pit, _ in taken if pit is not None) == from_pits
            and sum(1 for pit, _ in taken if pit is None) == from_cup)


def _agrees(outcome: Outcome, seen: Seen) -> bool:
    pits, cups = outcome
    seen_pits, seen_cups = seen
    return all(now is None or now == pit for pit, now in zip(pits, seen_pits, strict=True)) \
        and all(now is None or now == cup for cup, now in zip(cups, seen_cups, strict=True))
