"""The ring's own rules make impossible readings doubts, never rename them."""

from __future__ import annotations

from companion.games.jokers_and_coins import GAME
from companion.games.jokers_and_coins.reading_doubts import DOUBTFUL_CONFIDENCE, ring_doubts
from contract.observation import Observation, RegionReading


def _cup(count: int) -> RegionReading:
    return RegionReading(None, None, 0.9, count=count, kinds=("P",) * count)


def test_another_seats_coin_in_a_home_row_is_a_doubt_kept_as_read() -> None:
    regions = {"h2-4": RegionReading("D", None, 0.74), "h3-1": RegionReading("D", None, 0.9),
               "supply-1": _cup(4), "supply-2": _cup(3), "supply-3": _cup(2)}
    judged = ring_doubts(Observation(regions)).regions
    assert judged["h2-4"] == RegionReading("D", None, DOUBTFUL_CONFIDENCE)
    assert judged["h3-1"].confidence == 0.9  # seat 3's dime in seat 3's HOME


def test_more_coins_of_a_kind_than_its_seat_has() -> None:
    # Five nickels on the ring: the least sure is a doubt, still read a nickel.
    sure = {f"t{space}": RegionReading("N", None, 0.9) for space in range(1, 5)}
    regions = {**sure, "t85": RegionReading("N", None, 0.58),
               **{f"supply-{seat}": _cup(0) for seat in (1, 2, 3, 4)}}
    judged = ring_doubts(Observation(regions)).regions
    assert judged["t85"] == RegionReading("N", None, DOUBTFUL_CONFIDENCE)
    assert all(judged[name].confidence == 0.9 for name in sure)


def test_a_kind_no_seat_plays_is_a_doubt() -> None:
    # Three seats: no quarters in this game.
    regions = {"t7": RegionReading("Q", None, 0.8), "t8": RegionReading("P", None, 0.8),
               **{f"supply-{seat}": _cup(3) for seat in (1, 2, 3)}}
    judged = GAME.judged_observation(Observation(regions)).regions
    assert judged["t7"].confidence == DOUBTFUL_CONFIDENCE
    assert judged["t8"].confidence == 0.8
