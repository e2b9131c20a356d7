"""Checks every mat's geometry must pass, shared by the tests of each mat."""

from __future__ import annotations

import itertools

from calibration.geometry import MatGeometry


def assert_regions_apart_and_in_play_area(mat: MatGeometry) -> None:
    """Every region lies in the play area, and no two regions' bounds overlap."""
    play = mat.play_area
    for region in mat.regions:
        left, top, right, bottom = region.shape.bounds()
        assert play.left - 1e-9 <= left and right <= play.right + 1e-9
        assert play.top - 1e-9 <= top and bottom <= play.bottom + 1e-9
    for first, second in itertools.combinations(mat.regions, 2):
        a, b = first.shape.bounds(), second.shape.bounds()
        overlap_x = min(a[2], b[2]) - max(a[0], b[0])
        overlap_y = min(a[3], b[3]) - max(a[1], b[1])
        assert overlap_x <= 1e-9 or overlap_y <= 1e-9, (first.name, second.name)
