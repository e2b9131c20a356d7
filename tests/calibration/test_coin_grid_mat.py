"""Coin Grid's mat: the engine's squares plus tray, reserves and supply, the wall, stars and X's,
the same markers as Coin Isolation's mat, written through `companion mat` as PDF and PNG."""

import itertools
import math

import cv2
import numpy as np
import pytest

from calibration import geometry
from calibration.drawing import TRAY_FRAME_MM
from calibration.geometry import (
    DIE_CLEARANCE_MM,
    DIE_DIAGONAL_MM,
    DIE_LEAN_MM,
    GeometryError,
    Rect,
    coin_grid_mat,
    mat_for_game,
)
from calibration.printing import POINTS_PER_MM, TILE_BORDER_MM, tile_layout
from companion.cli import main
from companion.games.coin_grid import GAME
from companion.games.coin_grid.board import SQUARE_NAMES
from tests.calibration.mat_checks import assert_regions_apart_and_in_play_area
from tests.calibration.test_mats import detect
from tests.calibration.test_printing import black_cells, expected_cells, parse_pdf

SIDE_REGIONS = {"tray": "tray", "reserve-south": "cup", "reserve-north": "cup", "supply": "cup"}
SIZES = [27.0, 50.0, 120.0, 200.0]


def test_the_mat_has_every_square_the_engine_names_plus_tray_reserves_and_supply():
    mat = mat_for_game(GAME.info.mat)
    assert mat == coin_grid_mat()
    names = mat.region_names()
    assert len(names) == len(set(names)) == 72 + 4
    assert set(names) == set(SQUARE_NAMES) | set(SIDE_REGIONS)
    assert {name: mat.region(name).kind for name in SIDE_REGIONS} == SIDE_REGIONS
    assert all(mat.region(name).kind == "square" for name in SQUARE_NAMES)
    assert set(GAME.layout(GAME.new_position(2)).stacks()) <= set(names)


@pytest.mark.parametrize("s", SIZES)
def test_regions_do_not_overlap_lie_in_the_play_area_and_markers_lie_outside(s):
    mat = coin_grid_mat(s)
    play = mat.play_area
    assert_regions_apart_and_in_play_area(mat)
    squares = [r.shape.bounds() for r in mat.regions if r.kind == "square"]
    board = (min(b[0] for b in squares), min(b[1] for b in squares),
             max(b[2] for b in squares), max(b[3] for b in squares))
    for name in SIDE_REGIONS:  # the side regions keep 0.4 s of paper from the board
        left, _, right, _ = mat.region(name).shape.bounds()
        assert right <= board[0] - 0.4 * s + 1e-9 or left >= board[2] + 0.4 * s - 1e-9
    for marker in mat.markers:
        left, top, right, bottom = marker.rect().bounds()
        quiet = mat.quiet_zone_mm
        assert (right + quiet <= play.left + 1e-9 or left - quiet >= play.right - 1e-9)
        assert (bottom + quiet <= play.top + 1e-9 or top - quiet >= play.bottom - 1e-9)
        assert left - quiet >= -1e-9 and right + quiet <= mat.width_mm + 1e-9


@pytest.mark.parametrize("s", SIZES)
def test_the_tray_fits_two_16_mm_dice_with_margin(s):
    tray = mat_for_game("coin-grid", square_mm=s).region("tray").shape
    assert isinstance(tray, Rect)
    width, height = (side - 2 * TRAY_FRAME_MM for side in tray.size)
    die = DIE_DIAGONAL_MM + DIE_LEAN_MM  # any rotation, seen by a camera tilted 35 degrees
    assert round(DIE_DIAGONAL_MM, 2) == 22.63
    # Two dice side by side across the tray, clear paper around and between them.
    assert width >= 2 * die + 3 * DIE_CLEARANCE_MM
    assert height >= die + 2 * DIE_CLEARANCE_MM
    # Along it as well (102.6 mm at the smallest square), so a die rolls in either direction.
    assert height >= 2 * die + 3 * DIE_CLEARANCE_MM


@pytest.mark.parametrize("s", [50.0, 27.0, 64.0])
def test_formulas_documented_in_mats_md_hold(s):
    mat = coin_grid_mat(s)
    c = max(2 * s, 100.0)
    assert (mat.width_mm, mat.height_mm) == pytest.approx((2 * c + 9.2 * s, 14.4 * s))
    assert mat.play_area.bounds() == pytest.approx((1.2 * s, 1.2 * s, 2 * c + 8 * s, 13.2 * s))
    assert [m.centre for m in mat.markers] == [
        pytest.approx(point) for point in
        ((0.6 * s, 0.6 * s), (2 * c + 8.6 * s, 0.6 * s), (2 * c + 8.6 * s, 13.8 * s),
         (0.6 * s, 13.8 * s))
    ]
    assert all(m.side_mm == pytest.approx(0.8 * s) for m in mat.markers)
    assert mat.quiet_zone_mm == pytest.approx(0.2 * s)
    for f, r in itertools.product(range(6), range(12)):
        square = mat.region(geometry.square_name(f, r)).shape
        assert square == Rect(pytest.approx((c + (2.1 + f) * s, (12.7 - r) * s)), (s, s))
    centres = {"supply": (1.2 * s + c / 2, 7.2 * s), "reserve-north": (1.5 * c + 8 * s, 3.2 * s),
               "tray": (1.5 * c + 8 * s, 7.2 * s), "reserve-south": (1.5 * c + 8 * s, 11.2 * s)}
    for name, centre in centres.items():
        assert mat.region(name).shape == Rect(pytest.approx(centre), pytest.approx((c, 3.8 * s)))


def test_the_default_mat_matches_the_numbers_in_mats_md():
    mat = coin_grid_mat()
    assert (mat.width_mm, mat.height_mm) == (660.0, 720.0)
    assert (mat.region("a1").centre, mat.region("f1").centre) == ((205.0, 635.0), (455.0, 635.0))
    assert (mat.region("a12").centre, mat.region("f12").centre) == ((205.0, 85.0), (455.0, 85.0))
    assert {name: mat.region(name).centre for name in SIDE_REGIONS} == {
        "supply": (110.0, 360.0), "reserve-north": (550.0, 160.0), "tray": (550.0, 360.0),
        "reserve-south": (550.0, 560.0)}
    assert [m.centre for m in mat.markers] == [(30.0, 30.0), (630.0, 30.0), (630.0, 690.0),
                                              (30.0, 690.0)]
    walls = [mark for mark in mat.marks if mark.kind == "wall"]
    assert [wall.rect for wall in walls] == [Rect((330.0, 360.0), (300.0, 3.0))]
    assert (len(tile_layout(mat, "a4").tiles), len(tile_layout(mat, "letter").tiles)) == (12, 12)


@pytest.mark.parametrize("s", [50.0, 31.0])
def test_stars_on_both_star_rows_x_on_both_x_rows_and_the_wall_between_the_halves(s):
    mat = coin_grid_mat(s)
    by_kind = {kind: [mark.rect for mark in mat.marks if mark.kind == kind]
               for kind in ("wall", "star", "cross")}
    assert len(mat.marks) == 1 + 12 + 12

    def squares_of(rects):
        return {name for name in SQUARE_NAMES for rect in rects
                if rect.centre == pytest.approx(mat.region(name).centre)}

    star_rows = {f"{f}{rank}" for f in "abcdef" for rank in (1, 12)}
    x_rows = {f"{f}{rank}" for f in "abcdef" for rank in (2, 11)}
    assert squares_of(by_kind["star"]) == star_rows
    assert squares_of(by_kind["cross"]) == x_rows
    assert all(rect.size == pytest.approx((0.4 * s, 0.4 * s)) for rect in by_kind["star"])
    assert all(rect.size == pytest.approx((0.28 * s, 0.28 * s)) for rect in by_kind["cross"])
    (wall,) = by_kind["wall"]
    a6, f6, a7 = (mat.region(name).shape for name in ("a6", "f6", "a7"))
    assert isinstance(a6, Rect) and isinstance(f6, Rect) and isinstance(a7, Rect)
    assert wall.centre[1] == pytest.approx(a6.top) == pytest.approx(a7.bottom)
    assert (wall.left, wall.right) == pytest.approx((a6.left, f6.right))
    assert wall.size[1] == pytest.approx(0.06 * s)


def test_square_size_passes_through_and_is_checked():
    assert mat_for_game("coin-grid", square_mm=40.0).region("a1").shape.size == (40.0, 40.0)
    with pytest.raises(GeometryError, match="out of range for Coin Grid"):
        mat_for_game("coin-grid", square_mm=20.0)


def dark_runs(profile, threshold=200):
    """(start, length) of every run of pixels darker than ``threshold`` in a 1-D grey profile."""
    dark = np.concatenate(([False], profile < threshold, [False]))
    edges = np.flatnonzero(np.diff(dark.astype(np.int8)))
    return [(int(start), int(end - start)) for start, end in zip(edges[::2], edges[1::2],
                                                                 strict=True)]


def test_the_png_from_the_command_shows_the_wall_thicker_than_every_other_line(tmp_path, capsys):
    path = tmp_path / "grid.png"
    assert main(["mat", "--game", "coin-grid", "--out", str(path)]) == 0
    assert "coin-grid mat, 660 x 720 mm" in capsys.readouterr().out
    image = cv2.imread(str(path))
    mat, k = coin_grid_mat(), 300 / 25.4
    assert image.shape[:2] == (round(mat.height_mm * k), round(mat.width_mm * k))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    a1, f1, a12 = (mat.region(name).shape for name in ("a1", "f1", "a12"))
    assert isinstance(a1, Rect) and isinstance(f1, Rect) and isinstance(a12, Rect)
    # Down file a, right of the square names and the stars: the edge of every rank and the wall.
    x = round((a1.left + 0.85 * a1.size[0]) * k)
    column = grey[round((a12.top - 2.0) * k):round((a1.bottom + 2.0) * k), x]
    runs = dark_runs(column)
    assert len(runs) == 13  # 11 lines between ranks (one of them the wall) and the two borders
    thickest = max(runs, key=lambda run: run[1])
    wall_y = (thickest[0] + thickest[1] / 2) / k + a12.top - 2.0
    assert wall_y == pytest.approx(mat.region("a6").shape.top, abs=0.2)
    assert thickest[1] / k == pytest.approx(3.0, abs=0.3)
    assert runs.index(thickest) == 6  # the 7th line from North's edge: between ranks 7 and 6
    grid_lines = [length for _, length in runs[1:6] + runs[7:12]]
    borders = [runs[0][1], runs[-1][1]]  # the play area's 0.8 mm frame at either end
    assert thickest[1] >= 5 * max(grid_lines) and thickest[1] >= 2.5 * max(borders)
    # Across rank 4, between its labels and its middle: every line between files is thin.
    y = round((mat.region("a4").shape.top + 0.85 * a1.size[1]) * k)
    row = grey[y, round((a1.left - 2.0) * k):round((f1.right + 2.0) * k)]
    across = dark_runs(row)
    assert len(across) == 7 and max(length for _, length in across) * 5 <= thickest[1]
    # The markers are found where the geometry says, as on Coin Isolation's mat.
    small = cv2.resize(image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    found = detect(small)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        expected = np.array(mat.marker(marker_id).corners()) * k * 0.25
        assert np.abs(corners - expected).max() < 2.0


def test_the_tray_is_printed_green_and_framed_and_the_reserves_pale():
    mat = coin_grid_mat()
    k = 2.0
    from calibration.mats import render_mat

    image = render_mat(mat, k).astype(int)

    def colour(point):
        return image[round(point[1] * k), round(point[0] * k)]

    tray = mat.region("tray").shape
    assert isinstance(tray, Rect)
    b, g, r = colour(tray.centre)
    assert g > r + 30 and g > b + 20  # green, so white and coloured dice stand out
    assert colour((tray.left + 0.5, tray.centre[1])).max() < 100  # the dark frame
    for name in ("reserve-north", "reserve-south", "supply"):
        assert colour(mat.region(name).centre).min() > 220


@pytest.mark.parametrize("paper", ["large", "a4", "letter"])
def test_the_pdf_from_the_command_tiles_like_coin_isolation_and_carries_the_markers(
        tmp_path, capsys, paper):
    path = tmp_path / "grid.pdf"
    assert main(["mat", "--game", "coin-grid", "--out", str(path), "--paper", paper]) == 0
    out = capsys.readouterr().out
    mat = coin_grid_mat()
    pages = parse_pdf(path.read_bytes())
    found = set()
    if paper == "large":
        ((width, height), stream), = pages
        assert (width, height) == pytest.approx((660 * POINTS_PER_MM, 720 * POINTS_PER_MM),
                                                abs=0.001)
        found = black_cells(stream, height, 0, 0, 0, 0)
        text = stream
    else:
        layout = tile_layout(mat, paper)
        assert len(pages) == len(layout.tiles) and f"on {len(pages)} " in out
        for tile, ((_, page_height), stream) in zip(layout.tiles, pages, strict=True):
            found |= black_cells(stream, page_height, tile.left_mm, tile.top_mm,
                                 TILE_BORDER_MM, TILE_BORDER_MM)
        text = "".join(stream for _, stream in pages)
    assert found == expected_cells(mat)
    for name in (*SQUARE_NAMES, *SIDE_REGIONS):
        assert f"({name}) Tj" in text, name


def test_every_other_mat_is_unchanged_by_the_marks():
    assert geometry.coin_isolation_mat().marks == ()
    assert geometry.test_pit_mat().marks == ()
    assert math.isclose(geometry.coin_isolation_mat().width_mm, 520.0)
