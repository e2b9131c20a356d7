"""Mat geometry: square names and layout, markers outside the play area, lookups, registry."""

import dataclasses
import itertools
import math
import pickle

import pytest

from calibration import geometry
from calibration.geometry import (
    Circle,
    GeometryError,
    Marker,
    MatGeometry,
    Rect,
    Region,
    coin_isolation_mat,
    mat_for_game,
)
from tests.calibration.mat_checks import assert_regions_apart_and_in_play_area


def all_mats() -> list[MatGeometry]:
    return [coin_isolation_mat(), coin_isolation_mat(32.0), geometry.test_pit_mat(),
            geometry.coin_grid_mat(), geometry.coin_grid_mat(27.0)]


def test_coin_isolation_has_64_named_squares_in_chess_order():
    mat = coin_isolation_mat()
    names = mat.region_names()
    assert len(names) == 64 == len(set(names))
    assert set(names) == {f"{f}{r}" for f in "abcdefgh" for r in range(1, 9)}
    assert all(region.kind == "square" for region in mat.regions)


def test_rank_one_is_at_south_bottom_and_file_a_at_left():
    mat = coin_isolation_mat()
    a1, h1, a8 = (mat.region(name).centre for name in ("a1", "h1", "a8"))
    assert a1[1] > a8[1]  # rank 1 is lower in the image (South's edge)
    assert a1[0] < h1[0]  # file a is on the left as South sees it
    assert a1[1] == h1[1]
    assert math.isclose(a1[1] - a8[1], 7 * 50.0)


def test_squares_tile_the_play_area_and_neighbours_share_edges():
    mat = coin_isolation_mat(square_mm=45.0)
    total = sum(region.shape.area() for region in mat.regions)
    assert math.isclose(total, mat.play_area.area())
    for file, rank in itertools.product(range(7), range(8)):
        here = mat.region(geometry.square_name(file, rank)).shape
        right = mat.region(geometry.square_name(file + 1, rank)).shape
        assert isinstance(here, Rect) and isinstance(right, Rect)
        assert math.isclose(here.right, right.left) and here.top == right.top
    for file, rank in itertools.product(range(8), range(7)):
        here = mat.region(geometry.square_name(file, rank)).shape
        above = mat.region(geometry.square_name(file, rank + 1)).shape
        assert isinstance(here, Rect) and isinstance(above, Rect)
        assert math.isclose(here.top, above.bottom) and here.left == above.left


@pytest.mark.parametrize("mat", all_mats(), ids=lambda mat: f"{mat.name}-{mat.width_mm}")
def test_markers_are_four_distinct_ids_outside_play_area_inside_mat(mat):
    assert sorted(mat.marker_ids()) == [0, 1, 2, 3]
    play = mat.play_area
    for marker in mat.markers:
        left, top, right, bottom = marker.rect().bounds()
        quiet = mat.quiet_zone_mm
        assert left - quiet >= -1e-9 and top - quiet >= -1e-9
        assert right + quiet <= mat.width_mm + 1e-9 and bottom + quiet <= mat.height_mm + 1e-9
        outside = (
            right + quiet <= play.left + 1e-9
            or left - quiet >= play.right - 1e-9
            or bottom + quiet <= play.top + 1e-9
            or top - quiet >= play.bottom - 1e-9
        )
        assert outside, marker


@pytest.mark.parametrize("mat", all_mats(), ids=lambda mat: f"{mat.name}-{mat.width_mm}")
def test_regions_do_not_overlap_and_lie_in_play_area(mat):
    assert_regions_apart_and_in_play_area(mat)


def test_region_at_finds_the_square_under_a_point_and_none_outside():
    mat = coin_isolation_mat()
    for region in mat.regions:
        x, y = region.centre
        assert mat.region_at((x + 20.0, y - 20.0)) == region
    assert mat.region_at((1.0, 1.0)) is None
    assert mat.region_at((mat.play_area.right + 1.0, mat.play_area.centre[1])) is None


def test_pit_mat_has_circular_pits_and_cups():
    mat = geometry.test_pit_mat()
    pits = [region for region in mat.regions if region.kind == "pit"]
    cups = [region for region in mat.regions if region.kind == "cup"]
    assert len(pits) == 8 and len(cups) == 2
    assert all(isinstance(pit.shape, Circle) for pit in pits)
    s1 = mat.region("s1")
    assert mat.region_at(s1.centre) == s1
    x, y = s1.centre
    assert mat.region_at((x + s1.shape.radius + 1.0, y)) is None


def test_marker_corners_are_in_aruco_order():
    marker = Marker(7, (100.0, 50.0), 40.0)
    assert marker.corners() == ((80.0, 30.0), (120.0, 30.0), (120.0, 70.0), (80.0, 70.0))


def test_values_repr_round_trip():
    mat = coin_isolation_mat()
    namespace = {"Region": Region, "Rect": Rect, "Circle": Circle, "Marker": Marker,
                 "MatGeometry": MatGeometry}
    assert eval(repr(mat), namespace) == mat


def test_registry_and_errors():
    assert mat_for_game("coin-isolation") == coin_isolation_mat()
    assert mat_for_game("coin-isolation", square_mm=40.0).play_area.size == (320.0, 320.0)
    with pytest.raises(GeometryError, match="no mat for game 'chess'"):
        mat_for_game("chess")
    with pytest.raises(GeometryError, match="no region 'z9'"):
        coin_isolation_mat().region("z9")
    with pytest.raises(GeometryError, match="out of range"):
        coin_isolation_mat(square_mm=2.0)


@pytest.mark.parametrize("s", [50.0, 37.0])
def test_formulas_documented_in_mats_md_hold(s):
    mat = coin_isolation_mat(s)
    assert mat.width_mm == mat.height_mm == pytest.approx(10.4 * s)
    assert mat.play_area.bounds() == pytest.approx((1.2 * s, 1.2 * s, 9.2 * s, 9.2 * s))
    centres = [mat.marker(i).centre for i in range(4)]
    expected = [(0.6 * s, 0.6 * s), (9.8 * s, 0.6 * s), (9.8 * s, 9.8 * s), (0.6 * s, 9.8 * s)]
    assert centres == [pytest.approx(c) for c in expected]
    assert all(m.side_mm == pytest.approx(0.8 * s) for m in mat.markers)
    assert mat.quiet_zone_mm == pytest.approx(0.2 * s)
    for f, r in itertools.product(range(8), range(8)):
        centre = mat.region(geometry.square_name(f, r)).centre
        assert centre == pytest.approx((1.2 * s + (f + 0.5) * s, 1.2 * s + (7 - r + 0.5) * s))


def test_pit_mat_matches_mats_md():
    mat = geometry.test_pit_mat()
    assert (mat.width_mm, mat.height_mm) == (560.0, 260.0)
    assert [mat.region(f"s{k}").centre for k in range(1, 5)] == [
        (175.0, 165.0), (245.0, 165.0), (315.0, 165.0), (385.0, 165.0)
    ]
    assert mat.region("n1").centre == (175.0, 95.0)
    assert mat.region("cup-w").shape == Rect((95.0, 130.0), (70.0, 130.0))
    assert mat.region("cup-e").shape == Rect((465.0, 130.0), (70.0, 130.0))
    assert [m.centre for m in mat.markers] == [(30.0, 30.0), (530.0, 30.0), (530.0, 230.0),
                                              (30.0, 230.0)]


def test_a_mat_hashes_like_an_equal_one_and_pickles_without_its_cached_hash():
    """The hash is cached per object (it keys every frame's caches) yet equal mats hash alike,
    a changed mat does not, and a pickle carries no hash computed in this process."""
    mat = coin_isolation_mat()
    assert hash(mat) == hash(mat) == hash(coin_isolation_mat(square_mm=50.0))
    assert mat == coin_isolation_mat(square_mm=50.0)
    assert hash(mat) != hash(coin_isolation_mat(square_mm=45.0))
    assert hash(dataclasses.replace(mat, name="other")) != hash(mat)
    restored = pickle.loads(pickle.dumps(mat))
    assert "_hash" not in restored.__dict__
    assert restored == mat and hash(restored) == hash(mat)
