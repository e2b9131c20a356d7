"""What the ring itself knows that makes a camera reading of it doubtful.

Seats 1 to 4 play four coins each of their own kind (:data:`~.table.SEAT_COINS`), so the ring
holds four of a kind at most, a kind no seat of this game plays lies nowhere, and seat S's
HOME row holds seat S's coins only. A reading that breaks one of these
has misread a coin, or a player has misplaced one: either way the referee must not take it
without asking. These rules only lower a reading's confidence, never rename a coin: a coin read
as another seat's kind in a HOME row stays read so (an illegal placement stays visible), and
the panel confirms it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import replace

from companion.games.jokers_and_coins.ring import COINS
from companion.games.jokers_and_coins.table import SEAT_COINS, SUPPLY_PREFIX
from contract.observation import Observation, RegionReading

#: A doubt: under :data:`companion.judging.UNSURE_CONFIDENCE`, as the camera's own doubts are.
DOUBTFUL_CONFIDENCE = 0.45

_HOME = re.compile(r"h([1-9][0-9]*)-[1-9][0-9]*")
_SPACE = re.compile(r"t[1-9][0-9]*|h[1-9][0-9]*-[1-9][0-9]*")


def _seats(regions: Mapping[str, RegionReading]) -> int:
    """How many seats the ring read has: its highest supply or HOME row's seat."""
    seats = [int(name[len(SUPPLY_PREFIX):]) for name in regions
             if name.startswith(SUPPLY_PREFIX) and name[len(SUPPLY_PREFIX):].isdigit()]
    seats += [int(match.group(1)) for name in regions if (match := _HOME.fullmatch(name))]
    return max(seats, default=0)


def _doubtful(reading: RegionReading) -> RegionReading:
    """``reading`` no surer than a doubt."""
    return replace(reading, confidence=min(reading.confidence, DOUBTFUL_CONFIDENCE))


def _home_doubts(regions: dict[str, RegionReading]) -> None:
    """A coin in seat S's HOME row that is not seat S's kind is a doubt (kept as read)."""
    for name, reading in regions.items():
        home = _HOME.fullmatch(name)
        if home and reading.coin is not None and reading.coin != SEAT_COINS.get(
                int(home.group(1))):
            regions[name] = _doubtful(reading)


def _count_doubts(regions: dict[str, RegionReading], seats: int) -> None:
    """Where the ring shows more coins of a kind than its seat has (four; none for a kind no
    seat of this game plays), the least sure of them, as many as are too many, are doubts:
    one of them at least is misread. A supply's count is no bound: a pile's count is read
    less surely than a space (on the ring's tuning frames, four less the supply's count made
    a right quarter a doubt and caught no misreading the rest do not)."""
    for seat, kind in SEAT_COINS.items():
        allowed = COINS if seat <= seats else 0
        spaces = sorted((reading.confidence, name) for name, reading in regions.items()
                        if _SPACE.fullmatch(name) and reading.coin == kind)
        for _, name in spaces[:max(len(spaces) - allowed, 0)]:
            regions[name] = _doubtful(regions[name])


def ring_doubts(observation: Observation) -> Observation:
    """``observation`` with the ring's readings that break what the ring holds made doubts
    (see the module docstring)."""
    regions = dict(observation.regions)
    _home_doubts(regions)
    seats = _seats(regions)
    if seats:
        _count_doubts(regions, seats)
    return replace(observation, regions=regions)


__all__ = ["DOUBTFUL_CONFIDENCE", "ring_doubts"]
