"""Shakala's mat: the engine's sixteen pits laid out as RULINGS.md draws them, each large enough
for a dozen golden dollars, the two cups beside their owners' halves, and the mat written by
`companion mat` as PNG and PDF with its markers where the geometry says."""

import itertools
import math

import cv2
import numpy as np
import pytest

from calibration.drawing import INNER_TRACK, OUTER_TRACK
from calibration.geometry import Circle, Rect, mat_for_game, mat_names
from calibration.mats import render_mat
from calibration.printing import TILE_BORDER_MM, tile_layout
from calibration.shakala_mat import GEM_COIN_NAMES, PIT_RADIUS_MM, shakala_mat
from companion.cli import main
from companion.games.shakala import GAME
from companion.games.shakala.board import FORKS, PIT_NAMES, next_pits
from companion.games.shakala.position import start_gems
from companion.games.shakala.table import GEM_COINS, REGIONS
from contract.observation import COIN_KINDS
from tests.calibration.mat_checks import assert_regions_apart_and_in_play_area
from tests.calibration.test_mats import detect
from tests.calibration.test_printing import black_cells, expected_cells, parse_pdf

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


def track_arrows(kind):
    """(from pit, to pit, mark) of every arrow of ``kind`` between two pits (legend arrows
    left out): the pits nearest its tail and its head."""
    mat = shakala_mat()
    found = []
    for mark in mat.marks:
        if mark.kind != kind:
            continue
        tail, head = mark.path[0], mark.path[-1]
        nearest = [min(PIT_NAMES, key=lambda name, point=point: math.dist(
            mat.region(name).centre, point)) for point in (tail, head)]
        if math.dist(mat.region(nearest[0]).centre, tail) < PIT_RADIUS_MM + 5:
            found.append((nearest[0], nearest[1], mark))
    return found


def arrows(kind):
    """(from pit, to pit) of every arrow of ``kind`` between two pits."""
    return [(origin, target) for origin, target, _ in track_arrows(kind)]


def engine_steps(inner: bool):
    """Every step of the engine's track from pit to pit: the inner track, or the outer one."""
    steps: set[tuple[str, str]] = set()
    for pit in range(16):
        following = next_pits(pit)
        if pit in FORKS:
            following = following[:1] if inner else following[1:]
        steps.update((PIT_NAMES[pit], PIT_NAMES[target]) for target in following)
    inner_pits = set("EFGHefgh")
    outer_pits = set("EABCDHeabcdh")
    keep = inner_pits if inner else outer_pits
    return {step for step in steps if set(step) <= keep}


def test_an_arrow_leads_from_each_pit_to_the_next_along_each_track_as_the_engine_sows():
    assert sorted(arrows("inner-track")) == sorted(engine_steps(inner=True))
    assert sorted(arrows("outer-track")) == sorted(engine_steps(inner=False))
    assert len(arrows("inner-track")) == 8 and len(arrows("outer-track")) == 12
    # Both forks lead two ways, both joins are reached two ways.
    every = arrows("inner-track") + arrows("outer-track")
    for fork in "Ee":
        assert len({to for origin, to in every if origin == fork}) == 2
    for join in "Hh":
        assert len({origin for origin, to in every if to == join}) == 2


def test_arrows_lie_in_the_paper_between_pits_and_shared_stretches_side_by_side():
    mat = shakala_mat()
    tracks = [mark for mark in mat.marks if mark.kind.endswith("-track")]
    for mark in tracks:
        for point in mark.path:
            assert mat.region_at(point) is None
            assert mat.play_area.contains(point)
    middle = mat.play_area.centre[0]
    for stretch in (("H", "e"), ("h", "E")):
        xs = {kind: [mark.path[0][0] for origin, target, mark in track_arrows(kind)
                     if (origin, target) == stretch] for kind in ("inner-track", "outer-track")}
        (inner,), (outer,) = xs["inner-track"], xs["outer-track"]
        assert abs(inner - outer) >= 6.0  # side by side, not drawn over each other
        assert abs(inner - middle) < abs(outer - middle)  # the inner one nearer the middle


def test_forks_and_joins_are_named_between_the_two_pits_they_lead_to_or_come_from():
    mat = shakala_mat()
    labels = {mark.text: mark.rect.centre for mark in mat.marks if mark.kind == "label"}
    for name, word, neighbours in (("E", "fork", "FA"), ("e", "fork", "fa"),
                                   ("H", "join", "GD"), ("h", "join", "gd")):
        x, y = labels[f"{name} {word}"]
        assert mat.region_at((x, y)) is None
        pits = sorted(PIT_NAMES, key=lambda pit: math.dist(mat.region(pit).centre, (x, y)))
        assert set(pits[:4]) >= {name, *neighbours}


def test_every_pit_prints_rulings_default_gem_value_and_the_legend_names_its_coin():
    mat = shakala_mat()
    values = start_gems(())
    gems = [mark for mark in mat.marks if mark.kind == "label" and mark.text.startswith("gem ")]
    assert len(gems) == 16
    for mark in gems:
        pit = mat.region_at(mark.rect.centre)
        assert pit is not None and pit.kind == "pit"
        assert mark.text == f"gem {values[PIT_NAMES.index(pit.name) % 8]}"
    legend = [mark.text for mark in mat.marks if mark.kind == "label"]
    for value, (coin, letter) in enumerate(zip(GEM_COIN_NAMES, GEM_COINS, strict=True), 1):
        assert f"{coin} {value}" in legend
        assert COIN_KINDS[letter][0] in coin


def test_the_png_from_the_command_shows_both_tracks_in_their_colours_and_the_markers(
        tmp_path, capsys):
    path = tmp_path / "shakala.png"
    assert main(["mat", "--game", "shakala", "--out", str(path), "--dpi", "100"]) == 0
    assert "shakala mat, 940 x 720 mm" in capsys.readouterr().out
    image = cv2.imread(str(path))
    mat, k = shakala_mat(), 100 / 25.4
    assert image.shape[:2] == (round(mat.height_mm * k), round(mat.width_mm * k))
    for kind, colour in (("inner-track", INNER_TRACK), ("outer-track", OUTER_TRACK)):
        for mark in mat.marks:
            if mark.kind == kind:
                (x0, y0), (x1, y1) = mark.path
                x, y = (x0 + x1) / 2, (y0 + y1) / 2
                seen = image[round(y * k), round(x * k)][::-1].astype(int)
                assert np.abs(seen - np.array(colour)).max() < 40, (kind, seen)
    for name in PIT_NAMES:  # the middle of every pit is blank for the coins
        x, y = mat.region(name).centre
        window = image[round((y - 40) * k):round((y + 40) * k), round((x - 40) * k):
                       round((x + 40) * k)]
        assert window.min() > 200
    small = cv2.resize(image, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
    found = detect(small)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        expected = np.array(mat.marker(marker_id).corners()) * k * 0.5
        assert np.abs(corners - expected).max() < 2.0


def test_the_rendered_mat_is_found_by_the_markers_at_a_small_scale():
    mat = shakala_mat()
    image = render_mat(mat, 2.0)
    assert sorted(detect(image)) == [0, 1, 2, 3]


@pytest.mark.parametrize("paper", ["large", "a4"])
def test_the_pdf_from_the_command_tiles_and_carries_markers_letters_and_values(
        tmp_path, capsys, paper):
    path = tmp_path / "shakala.pdf"
    assert main(["mat", "--game", "shakala", "--out", str(path), "--paper", paper]) == 0
    out = capsys.readouterr().out
    mat = shakala_mat()
    pages = parse_pdf(path.read_bytes())
    found = set()
    if paper == "large":
        ((_, height), stream), = pages
        found = black_cells(stream, height, 0, 0, 0, 0)
        text = stream
    else:
        layout = tile_layout(mat, paper)
        assert len(pages) == len(layout.tiles) == 16 and "on 16 " in out
        for tile, ((_, page_height), stream) in zip(layout.tiles, pages, strict=True):
            found |= black_cells(stream, page_height, tile.left_mm, tile.top_mm,
                                 TILE_BORDER_MM, TILE_BORDER_MM)
        text = "".join(stream for _, stream in pages)
    assert found == expected_cells(mat)
    for word in (*REGIONS, "gem 1", "gem 4", "E fork", "h join", "golden dollar 4"):
        assert f"({word}) Tj" in text, word
