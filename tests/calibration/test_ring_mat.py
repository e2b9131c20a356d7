"""The Jokers and Coins mat: the engine's ring for 2 to 6 seats, each seat's supply, discard spot
and coloured START, IN and HOME marks, printed through `companion mat` as PNG and tiled PDF."""

import itertools
import math

import cv2
import numpy as np
import pytest

from calibration.geometry import Circle, GeometryError, Rect, mat_for_game
from calibration.mats import render_mat
from calibration.printing import tile_layout
from calibration.ring_mat import (
    CARD_MM,
    SEAT_COLOURS,
    RingLayout,
    jokers_mat,
    ring_mat,
)
from companion.cli import main
from companion.games import get_game
from companion.games.jokers_and_coins.ring import ring_for
from contract.colours import colour_rgb
from tests.calibration.test_mats import detect

GAME = get_game("jokers-and-coins")
QUARTER_MM = 24.26
PLAYERS = [2, 3, 4, 5, 6]
RING_VARIANTS = [(), ("side-12", "in-2", "start-5"), ("side-30", "in-20", "start-8"),
                 ("side-10", "in-1", "start-9")]


def shape_gap(first, second):
    """Paper between two shapes (negative when they overlap), for circles and upright squares."""
    if isinstance(first, Rect) and isinstance(second, Circle):
        first, second = second, first
    if isinstance(first, Circle) and isinstance(second, Circle):
        return math.dist(first.centre, second.centre) - first.radius - second.radius
    if isinstance(first, Circle):
        left, top, right, bottom = second.bounds()
        x = min(max(first.centre[0], left), right)
        y = min(max(first.centre[1], top), bottom)
        return math.dist(first.centre, (x, y)) - first.radius
    a, b = first.bounds(), second.bounds()
    return max(max(a[0], b[0]) - min(a[2], b[2]), max(a[1], b[1]) - min(a[3], b[3]))


def ring_regions(players, variants=()):
    ring = ring_for(players, variants)
    seats = range(1, players + 1)
    return (list(ring.regions()) + [f"supply-{seat}" for seat in seats]
            + [f"discard-{seat}" for seat in seats])


@pytest.mark.parametrize("players", PLAYERS)
def test_the_mat_has_every_region_the_engine_names_and_a_supply_and_discard_per_seat(players):
    mat = mat_for_game(GAME.info.mat, players=players)
    assert list(mat.region_names()) == ring_regions(players)
    kinds = {region.name: region.kind for region in mat.regions}
    assert {kinds[name] for name in ring_for(players, ()).regions()} == {"track"}
    assert {kind for name, kind in kinds.items() if name.startswith("supply")} == {"cup"}
    assert {kind for name, kind in kinds.items() if name.startswith("discard")} == {"discard"}
    assert mat_for_game(GAME.info.mat) is jokers_mat(4)


@pytest.mark.parametrize(("players", "variants"),
                         list(itertools.product(PLAYERS, RING_VARIANTS)))
def test_no_two_regions_touch_and_all_lie_in_the_play_area_clear_of_the_markers(players,
                                                                                 variants):
    mat = mat_for_game(GAME.info.mat, players=players, variants=variants)
    assert list(mat.region_names()) == ring_regions(players, variants)
    play = mat.play_area
    for region in mat.regions:
        left, top, right, bottom = region.shape.bounds()
        assert play.left <= left and right <= play.right
        assert play.top <= top and bottom <= play.bottom
    for first, second in itertools.combinations(mat.regions, 2):
        assert shape_gap(first.shape, second.shape) >= 3.9, (first.name, second.name)
    for marker in mat.markers:
        left, top, right, bottom = marker.rect().bounds()
        assert right + mat.quiet_zone_mm <= play.left + 1e-9 or (
            left - mat.quiet_zone_mm >= play.right - 1e-9)


@pytest.mark.parametrize("players", PLAYERS)
def test_spaces_hold_a_quarter_and_follow_the_polygon_clockwise_from_south(players):
    mat = jokers_mat(players)
    ring = ring_for(players, ())
    centres = np.array([mat.region(f"t{index + 1}").centre for index in range(ring.size)])
    assert all(mat.region(name).shape.radius * 2 >= QUARTER_MM + 3.5
               for name in ring.regions())
    steps = np.linalg.norm(np.diff(np.vstack([centres, centres[:1]]), axis=0), axis=1)
    corners = {index for index in range(0, ring.size, ring.side_length)}
    # Along a side the spaces are one pitch apart; around a corner a chord of the polygon.
    assert np.allclose([steps[i] for i in range(ring.size) if (i + 1) % ring.size not in
                        corners], 32.0)
    # Shoelace area: positive in y-down coordinates is clockwise as seen from above.
    x, y = centres[:, 0], centres[:, 1]
    assert 0.5 * float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) > 0
    # Seat 1's side runs along South's (bottom) edge, right to left.
    first_side = centres[: ring.side_length]
    assert np.allclose(first_side[:, 1], first_side[0, 1])
    assert first_side[0, 1] == pytest.approx(centres[:, 1].max())
    assert np.all(np.diff(first_side[:, 0]) < 0)


@pytest.mark.parametrize(("players", "variants"),
                         list(itertools.product(PLAYERS, RING_VARIANTS[:2])))
def test_each_seat_home_row_leaves_its_in_space_inwards_and_its_places_lie_outside(players,
                                                                                   variants):
    mat = mat_for_game(GAME.info.mat, players=players, variants=variants)
    ring = ring_for(players, variants)
    middle = np.mean([mat.region(f"t{index + 1}").centre for index in range(ring.size)],
                     axis=0)
    for seat in range(1, players + 1):
        corner = np.array(mat.region(f"t{ring.corners[seat - 1] + 1}").centre)
        along = np.array(mat.region(f"t{ring.corners[seat - 1] + 2}").centre) - corner
        outward = np.array([along[1], -along[0]]) / np.linalg.norm(along)
        if np.dot(middle - corner, outward) > 0:
            outward = -outward

        def out(name, corner=corner, outward=outward):
            """How far region ``name`` lies outside the seat's side of the ring (mm)."""
            return float(np.dot(np.array(mat.region(name).centre) - corner, outward))

        in_space = np.array(mat.region(f"t{ring.ins[seat - 1] + 1}").centre)
        home = [f"h{seat}-{space}" for space in range(1, 5)]
        assert np.linalg.norm(np.array(mat.region(home[0]).centre) - in_space) == (
            pytest.approx(32.0))
        depths = [out(name) for name in home]
        assert depths == sorted(depths, reverse=True) and depths[0] < -20.0
        assert out(f"supply-{seat}") >= 14.0 + 10.0 + 32.0 - 1e-6
        assert out(f"discard-{seat}") >= 14.0 + 10.0 + 60.0 - 1e-6


def test_the_discard_spot_holds_a_poker_card_at_any_rotation():
    spot = jokers_mat(6).region("discard-5").shape
    assert isinstance(spot, Rect)
    half_diagonal = math.hypot(*CARD_MM) / 2
    for degrees in range(0, 180, 5):
        angle = math.radians(degrees)
        corners = [(sx * CARD_MM[0] / 2 * math.cos(angle) - sy * CARD_MM[1] / 2
                    * math.sin(angle), sx * CARD_MM[0] / 2 * math.sin(angle) + sy
                    * CARD_MM[1] / 2 * math.cos(angle))
                   for sx, sy in itertools.product((-1, 1), repeat=2)]
        assert all(spot.contains((spot.centre[0] + x, spot.centre[1] + y)) for x, y in corners)
    assert min(spot.size) >= 2 * half_diagonal + 10.0


def test_seat_colours_mark_start_in_and_home_corners_are_dark_and_no_ink_lies_in_a_space():
    players = 6
    mat = jokers_mat(players)
    ring = ring_for(players, ())
    k = 2.0
    image = render_mat(mat, k).astype(int)
    middle = np.mean([mat.region(f"t{index + 1}").centre for index in range(ring.size)],
                     axis=0)

    def pixel(point):
        return image[round(point[1] * k), round(point[0] * k)][::-1]

    def beside(name, reach):
        """The printed colour ``reach`` mm outside space ``name``, away from the ring's
        middle."""
        centre = np.array(mat.region(name).centre)
        away = (centre - middle) / np.linalg.norm(centre - middle)
        return pixel(centre + away * (14.0 + reach))

    for seat in range(1, players + 1):
        colour = np.array(colour_rgb(SEAT_COLOURS[seat - 1]))
        start = f"t{ring.starts[seat - 1] + 1}"
        assert np.abs(beside(start, 8.0) - colour).max() <= 30, seat
        assert beside(f"t{ring.starts[seat - 1] + 3}", 8.0).min() > 240  # unmarked: paper
        row = [mat.region(f"t{ring.ins[seat - 1] + 1}").centre,
               *(mat.region(f"h{seat}-{space}").centre for space in range(1, 5))]
        step = (np.array(row[1]) - np.array(row[0])) / 32.0
        across = np.array([-step[1], step[0]])
        for centre in row[1:]:  # the HOME row runs between two lines of the seat's colour
            for sign in (1, -1):
                assert np.abs(pixel(np.array(centre) + sign * 23.0 * across)
                              - colour).max() <= 30, seat
            assert pixel(np.array(centre) + 21.0 * across).min() > 240  # paper between
    for corner in ring.corners:
        assert beside(f"t{corner + 1}", 8.0).max() < 100
    for region in mat.regions:
        if region.kind == "track":
            x, y = region.centre
            radius = round(region.shape.radius * k) - 1
            patch = image[round(y * k) - radius:round(y * k) + radius,
                          round(x * k) - radius:round(x * k) + radius].min(axis=2)
            rows, columns = np.mgrid[-radius:radius, -radius:radius] + 0.5
            inside = rows**2 + columns**2 < (radius - 1) ** 2
            assert patch[inside].min() == 255, region.name
    assert tuple(GAME.info.token_colours) == SEAT_COLOURS


def test_the_png_from_the_command_has_its_markers_where_the_geometry_says(tmp_path, capsys):
    path = tmp_path / "ring.png"
    assert main(["mat", "--game", "jokers-and-coins", "--players", "3", "--dpi", "100",
                 "--out", str(path)]) == 0
    mat = jokers_mat(3)
    assert f"{mat.width_mm:g} x {mat.height_mm:g} mm" in capsys.readouterr().out
    assert mat.width_mm == round(mat.width_mm) and mat.height_mm == round(mat.height_mm)
    image = cv2.imread(str(path))
    k = 100 / 25.4
    assert image.shape[:2] == (round(mat.height_mm * k), round(mat.width_mm * k))
    found = detect(image)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        assert np.abs(corners - np.array(mat.marker(marker_id).corners()) * k).max() < 2.0


@pytest.mark.parametrize("players", [2, 6])
def test_large_mats_tile_over_a4_and_letter_as_the_pdf_command_writes_them(players, tmp_path):
    mat = jokers_mat(players)
    for paper in ("a4", "letter"):
        layout = tile_layout(mat, paper)
        assert len(layout.tiles) == layout.rows * layout.columns > 4
        covered_right = max(tile.left_mm + tile.width_mm for tile in layout.tiles)
        covered_bottom = max(tile.top_mm + tile.height_mm for tile in layout.tiles)
        assert covered_right >= mat.width_mm and covered_bottom >= mat.height_mm
    path = tmp_path / "ring.pdf"
    assert main(["mat", "--game", "jokers-and-coins", "--players", str(players), "--paper",
                 "a4", "--out", str(path)]) == 0
    assert path.read_bytes().count(b"/Type /Page") - path.read_bytes().count(
        b"/Type /Pages") == len(tile_layout(mat, "a4").tiles)


def test_bad_options_get_one_sentence(capsys):
    with pytest.raises(GeometryError, match="2 to 6 players, not 7"):
        mat_for_game("jokers-and-coins", players=7)
    with pytest.raises(GeometryError, match="no number of players"):
        mat_for_game("coin-isolation", players=3)
    with pytest.raises(GeometryError, match="must differ"):
        mat_for_game("jokers-and-coins", variants=("in-8",))
    with pytest.raises(GeometryError, match="HOME row does not fit"):
        ring_mat(RingLayout(4, in_offset=0))
    assert main(["mat", "--game", "coin-grid", "--variants", "side-12", "--out", "x.png"]) == 2
    assert "no variants" in capsys.readouterr().err


def test_the_numbers_in_mats_md_hold():
    sizes = {2: (805, 1064), 3: (817, 857), 4: (1064, 1064), 5: (1264, 1245), 6: (1406, 1486)}
    pages = {2: (18, 24), 3: (20, 20), 4: (24, 30), 5: (35, 35), 6: (48, 48)}
    for players, size in sizes.items():
        mat = jokers_mat(players)
        assert (mat.width_mm, mat.height_mm) == size
        assert mat.play_area.bounds() == (90, 90, size[0] - 90, size[1] - 90)
        assert mat.marker(0).centre == (45, 45)
        assert (len(tile_layout(mat, "a4").tiles), len(tile_layout(mat, "letter").tiles)) == (
            pages[players])
    mat = jokers_mat(4)
    centres = {"t1": (820, 820), "t4": (724, 820), "t9": (564, 820), "h1-1": (724, 788),
               "h1-4": (724, 692), "supply-1": (618.4, 876), "discard-1": (516.4, 904),
               "t19": (244, 820)}
    for name, centre in centres.items():
        assert mat.region(name).centre == pytest.approx(centre)
    triangle = jokers_mat(3)
    in_space, home = (np.array(triangle.region(name).centre) for name in ("t4", "h1-1"))
    # Seat 1's side runs to the left (-x): its HOME row is turned 10 degrees that way.
    assert np.degrees(np.arctan2(-(home - in_space)[0], -(home - in_space)[1])) == (
        pytest.approx(10.0))
