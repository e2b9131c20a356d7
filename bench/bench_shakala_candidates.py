"""Shakala inference speed (printed, not asserted). Run: PYTHONPATH=. .venv/bin/python
bench/bench_shakala_candidates.py [READINGS]

Target (issue 20): ``candidates`` under 20 ms for any position. The worst positions that can be
built hold every bead of the game in one or two pits (millions of bead orders, forks passed
several times, long capture chains); each case times READINGS camera readings of results drawn
at random without listing the moves (tests/games/shakala/helpers.random_sowing), all regions
sure, then with two pits and a cup in doubt (the referee's ask path). Times are CPU time of
this process (the machine may be shared) with wall time beside them. Counts: readings
identified as one move (must be all of the sure ones). The last line compares, on positions
from random games, the worked-back inference with listing every legal move and comparing
(the straightforward way), in the same run. Also timed: the referee's nearest legal move
to a reading with one coin slipped into another pit (a rejected sowing), found by taking each
region and then each pair in doubt.
"""

import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.games.shakala import GAME
from companion.games.shakala.rules import successors
from contract.observation import Observation, RegionReading
from tests.games.shakala.helpers import board, random_sowing

READINGS = int(sys.argv[1]) if len(sys.argv) > 1 else 60
ALL_GEMS = "1122334411223344"
CASES = {
    "32 beads in H (join)": {"H": "s" * 16 + ALL_GEMS},
    "32 beads in E (fork)": {"E": "s" * 16 + ALL_GEMS},
    "31 in E, lone stone e": {"E": "s" * 15 + ALL_GEMS, "e": "s"},
    "16 + 16 in E and A": {"E": "s" * 8 + "11223344", "A": "s" * 8 + "11223344"},
    "lone stones, gems to take": {"D": "s" * 12 + "1234", "e": "s", "f": "s", "g": "s",
                                  "h": "s", "a": "1234", "b": "1234"},
}


def observe(position, doubted=()):
    looks = GAME.layout(position).looks()
    regions = {name: RegionReading(count=look.count, kinds=look.kinds,
                                   confidence=0.3 if name in doubted else 0.95)
               for name, look in looks.items()}
    for name in doubted:
        regions.setdefault(name, RegionReading(confidence=0.3))
    return Observation(regions)


def timed(call, *arguments):
    """(result, CPU ms, wall ms) of ``call(*arguments)``."""
    cpu, wall = time.process_time(), time.perf_counter()
    result = call(*arguments)
    return result, (time.process_time() - cpu) * 1000, (time.perf_counter() - wall) * 1000


def bench_case(name, pits, rng):
    position = board(pits)
    GAME.candidates(position, observe(position))  # routes of this pit worked out once
    for doubt in (False, True):
        cpu, wall, alone = [], [], 0
        for _ in range(READINGS):
            after = random_sowing(position, rng)
            doubted = ()
            if doubt:
                doubted = (*rng.sample("abcdefgh", 1), *rng.sample("ABCDEFGH", 1),
                           rng.choice(["cup-south", "cup-north"]))
            seen = observe(after, doubted)
            found, took_cpu, took_wall = timed(GAME.candidates, position, seen)
            assert any(GAME.apply(position, move) == after for move in found)
            alone += len(found) == 1
            cpu.append(took_cpu)
            wall.append(took_wall)
        what = "2 pits + a cup in doubt" if doubt else "every region sure"
        print_times(name, what, cpu, wall, f"{alone}/{READINGS} identified as one move")
    bench_nearest(name, position, rng)


def bench_nearest(name, position, rng):
    """A slipped coin (one coin of a pit the move filled lies in the next pit): the referee's
    nearest legal move, each region and pair of regions taken in doubt in turn."""
    cpu, wall, found_made = [], [], 0
    for _ in range(max(3, READINGS // 10)):
        after = random_sowing(position, rng)
        coins = GAME.layout(after).stacks()
        source = rng.choice(sorted(region for region in coins if len(region) == 1))
        target = rng.choice([region for region in "ABCDEFGHabcdefgh" if region != source])
        regions = {name: RegionReading(count=len(text), kinds=tuple(sorted(text)))
                   for name, text in coins.items()}
        moved = coins[source][0]
        left = coins[source][1:]
        regions[source] = RegionReading(count=len(left), kinds=tuple(sorted(left)))
        there = coins.get(target, "") + moved
        regions[target] = RegionReading(count=len(there), kinds=tuple(sorted(there)))
        near, took_cpu, took_wall = timed(GAME.nearest_moves, position, Observation(regions), 8)
        found_made += any(GAME.apply(position, move) == after for move in near)
        cpu.append(took_cpu)
        wall.append(took_wall)
    print_times(name, "nearest to a slipped coin", cpu, wall,
                f"{found_made}/{len(cpu)} found the sowing made")


def print_times(name, what, cpu, wall, counted):
    print(f"{name:28} {what:26} CPU median {statistics.median(cpu):7.2f} ms, max "
          f"{max(cpu):7.2f} ms (wall max {max(wall):7.1f} ms); {counted}")




def random_positions(count, seed=20):
    rng = random.Random(seed)
    found = []
    while len(found) < 3 * count:
        position = GAME.new_position(2)
        for _ in range(200):
            if GAME.is_over(position):
                break
            found.append(position)
            position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
    return rng.sample(found, count)


def listing(position, wanted):
    """The straightforward way: every legal move whose result looks as wanted."""
    return [move for move, child in successors(position) if GAME.layout(child).looks() == wanted]


def bench_against_listing(rng):
    """The inference against listing every move and comparing looks, same readings."""
    inferred = listed = 0.0
    readings = 0
    for position in random_positions(max(10, READINGS // 3)):
        after = rng.choice([child for _, child in successors(position)])
        seen = observe(after)
        wanted = GAME.layout(after).looks()
        _, took, _ = timed(GAME.candidates, position, seen)
        inferred += took
        _, took, _ = timed(listing, position, wanted)
        listed += took
        readings += 1
    print(f"positions from random games ({readings} readings): worked back {inferred:.1f} ms "
          f"CPU, listing every move {listed:.1f} ms CPU: {listed / inferred:.1f}x faster")


if __name__ == "__main__":
    rng = random.Random(2026)
    for case_name, case_pits in CASES.items():
        bench_case(case_name, case_pits, rng)
    bench_against_listing(rng)
