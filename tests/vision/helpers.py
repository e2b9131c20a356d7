"""Shared helpers for the vision tests: synthetic frames with their ground truth."""

from __future__ import annotations

from calibration.geometry import coin_isolation_mat
from calibration.profile import VisionProfile
from vision.read import VisionConfig

CONFIG = VisionConfig()
PROFILE = VisionProfile.default().only_kinds("PNDQ")
GEOMETRY = coin_isolation_mat()


def wrong_regions(observation, truth) -> list[tuple[str, str, str | None, str | None]]:
    """(region, true coins, coin read, pawn read) for every region read wrong."""
    wrong = []
    for name, region in truth.items():
        reading = observation.regions[name]
        expected: tuple[object, ...] = (region.top, region.pawn)
        got: tuple[object, ...] = (reading.coin, reading.pawn)
        if region.loose:
            expected = (len(region.coins), tuple(sorted(region.coins)), region.pawn)
            got = (reading.count, tuple(reading.kinds), reading.pawn)
        if expected != got:
            wrong.append((name, region.coins, reading.coin, reading.pawn))
    return wrong
