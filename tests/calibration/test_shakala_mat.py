"""Shakala's mat: the engine's sixteen pits laid out as RULINGS.md draws them, each large enough
for a dozen golden dollars, the two cups beside their owners' halves, and the mat written by
`companion mat` as PNG and PDF with its markers where the geometry says."""

import itertools
import math

import numpy as np
import pytest

from calibration.geometry import Circle, Rect, mat_for_game, mat_names
from calibration.shakala_mat import PIT_RADIUS_MM, shakala_mat
from companion.games.shakala import GAME
from companion.games.shakala.board import PIT_NAMES
from companion.games.shakala.table import REGIONS
from contract.observation import COIN_KINDS
from tests.calibration.mat_checks import assert_regions_apart_and_in_play_area

#: The rows of pits top to bottom as RULINGS.md draws them (South at the bottom).
DRAWN_ROWS = ("d c b a", "h g f e", "E F G H", "A B C D")


def test_the_mat_has_exactly_the_regions_the_game_lays_out():
    mat = mat_for_game(GAME.info.mat)
    assert "shakala" in mat_names() and mat is shakala_mat()
    assert mat.region_names() == REGIONS
    assert {mat.region(name).kind for name in PIT_NAMES} == {"pit"}
    assert {mat.region(name).kind for name in ("cup-south", "cup-north")} == {"cup"}
    assert all(isinstance(mat.region(name).shape, Circle) for name in PIT_NAMES)
    assert set(GAME.layout(GAME.new_position(2)).stacks()) <= set(mat.region_names())


def test_pits_lie_in_rows_and_columns_as_the_rulings_draw_them():
    mat = shakala_mat()
    rows = [row.split() for row in DRAWN_ROWS]
    for upper, lower in itertools.pairwise(rows):
        for above, below in zip(upper, lower, strict=True):
            assert mat.region(above).centre[0] == pytest.approx(mat.region(below).centre[0])
            assert mat.region(above).centre[1] < mat.region(below).centre[1]
    for row in rows:
        ys = {mat.region(name).centre[1] for name in row}
        xs = [mat.region(name).centre[0] for name in row]
        assert len(ys) == 1 and xs == sorted(xs)


def test_each_cup_lies_beside_its_owners_half_on_its_right_hand():
    mat = shakala_mat()
    south, north = mat.region("cup-south").shape, mat.region("cup-north").shape
    assert isinstance(south, Rect) and isinstance(north, Rect)
    board_right = max(mat.region(name).shape.bounds()[2] for name in PIT_NAMES)
    board_left = min(mat.region(name).shape.bounds()[0] for name in PIT_NAMES)
    assert south.left > board_right and north.right < board_left
    middle = (mat.region("E").centre[1] + mat.region("h").centre[1]) / 2
    assert south.top > middle > north.bottom


def test_regions_are_apart_in_the_play_area_and_markers_outside_it():
    mat = shakala_mat()
    assert_regions_apart_and_in_play_area(mat)
    play = mat.play_area
    for marker in mat.markers:
        left, top, right, bottom = marker.rect().bounds()
        assert right <= play.left or left >= play.right
        assert bottom <= play.top or top >= play.bottom


def test_a_pit_holds_twelve_golden_dollars_at_a_hands_packing_density():
    dollar = COIN_KINDS["S"][1]
    assert dollar == pytest.approx(26.49) and dollar == max(k[1] for k in COIN_KINDS.values())
    coins_area = 12 * math.pi * (dollar / 2) ** 2
    pit_area = math.pi * PIT_RADIUS_MM**2
    assert coins_area / pit_area <= 0.5
    # And more room than the tightest packing of twelve discs in a circle (radius 4.0296 r).
    assert 4.0296 * dollar / 2 + 10.0 <= PIT_RADIUS_MM


def test_a_cup_holds_every_gem_apart():
    mat = shakala_mat()
    for name in ("cup-south", "cup-north"):
        cup = mat.region(name).shape
        assert isinstance(cup, Rect)
        dollar = COIN_KINDS["S"][1]
        # 16 gems (both sides') as dollars on a square grid 4 mm apart fit in the cup.
        pitch = dollar + 4.0
        assert (cup.size[0] // pitch) * (cup.size[1] // pitch) >= 16


def test_the_numbers_in_mats_md_hold():
    mat = shakala_mat()
    assert (mat.width_mm, mat.height_mm) == (940.0, 720.0)
    assert mat.play_area == Rect((470.0, 360.0), (820.0, 600.0))
    assert [m.centre for m in mat.markers] == [(30.0, 30.0), (910.0, 30.0), (910.0, 690.0),
                                              (30.0, 690.0)]
    assert all(m.side_mm == 40.0 for m in mat.markers) and mat.quiet_zone_mm == 10.0
    centres = {"d": (245.0, 135.0), "a": (695.0, 135.0), "h": (245.0, 285.0),
               "E": (245.0, 435.0), "H": (695.0, 435.0), "A": (245.0, 585.0),
               "D": (695.0, 585.0)}
    for name, centre in centres.items():
        assert mat.region(name).shape == Circle(centre, 65.0), name
    assert mat.region("cup-south").shape == Rect((830.0, 510.0), (100.0, 280.0))
    assert mat.region("cup-north").shape == Rect((110.0, 210.0), (100.0, 280.0))


def test_region_at_finds_each_pit_by_its_centre_and_nothing_between_pits():
    mat = shakala_mat()
    for name in REGIONS:
        assert mat.region_at(mat.region(name).centre).name == name
    a, b = np.array(mat.region("A").centre), np.array(mat.region("B").centre)
    assert mat.region_at(tuple((a + b) / 2)) is None
