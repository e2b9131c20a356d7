"""The steady-frame gate on warped pictures of the real mat, fed made-up timestamps."""

from __future__ import annotations

import math

import numpy as np
import pytest

from calibration.geometry import coin_isolation_mat
from calibration.shakala_mat import shakala_mat
from tests.vision.test_gate_scenes import (
    BRASS,
    COPPER,
    SKIN,
    Scene,
    board_with_pieces,
    hand_on_marker,
    hand_over,
    sleeve_over,
)
from vision.gate import (
    GateConfig,
    GateVerdict,
    SteadyGate,
    gate_limits,
    markers_missing_reason,
    view_masks,
)
from vision.markers import MarkerConfig, find_board

STEP = 0.1  # seconds between frames, as a 10 fps feed
Coin = tuple[tuple[float, float], float, tuple[int, int, int]]


def feed(gate: SteadyGate, scenes: list[Scene], start: float = 0.0) -> list[GateVerdict]:
    verdicts = []
    for number, scene in enumerate(scenes):
        verdict, _ = gate.look(start + number * STEP, scene.frame(seed=number))
        verdicts.append(verdict)
    return verdicts


def test_a_still_board_counts_after_settling() -> None:
    gate = SteadyGate(coin_isolation_mat())
    verdicts = feed(gate, [board_with_pieces()] * 7)
    assert [verdict.steady for verdict in verdicts] == [False] * 4 + [True] * 3
    assert verdicts[0].reason == "waiting for the board to settle"
    assert verdicts[0].code == "settling"
    assert verdicts[4].still_s == pytest.approx(0.4)
    assert verdicts[6].reason == "steady"


def test_the_settle_time_is_configurable() -> None:
    gate = SteadyGate(coin_isolation_mat(), GateConfig(settle_s=0.2))
    verdicts = feed(gate, [Scene()] * 4)
    assert [verdict.steady for verdict in verdicts] == [False, False, True, True]


def test_a_hand_over_the_board_is_rejected_then_the_board_must_settle_again() -> None:
    gate = SteadyGate(coin_isolation_mat())
    board = board_with_pieces()
    verdicts = feed(gate, [board] * 5 + [hand_over(board)] * 6 + [board] * 7)
    assert verdicts[4].steady
    for verdict in verdicts[5:11]:
        assert not verdict.steady
        assert verdict.code == "hand" and verdict.reason == "a hand is over the board"
    after = verdicts[11:]
    # The first frame without the hand differs from the last with it: the settle starts after.
    assert [verdict.steady for verdict in after] == [False] * 5 + [True] * 2
    assert after[0].reason == "waiting for the board to settle"


def test_a_still_hand_is_still_rejected() -> None:
    gate = SteadyGate(coin_isolation_mat())
    verdicts = feed(gate, [hand_over(Scene())] * 10)
    assert not any(verdict.steady for verdict in verdicts)
    assert {verdict.code for verdict in verdicts} == {"hand"}


def test_a_sleeve_without_skin_is_rejected() -> None:
    gate = SteadyGate(coin_isolation_mat())
    verdicts = feed(gate, [sleeve_over(board_with_pieces())] * 6)
    assert not any(verdict.steady for verdict in verdicts)
    assert verdicts[-1].code == "foreign"
    assert "over the board" in verdicts[-1].reason


def test_coins_and_pawns_are_not_foreign() -> None:
    gate = SteadyGate(coin_isolation_mat())
    verdicts = feed(gate, [board_with_pieces()] * 5)
    assert {verdict.code for verdict in verdicts} == {"settling", "steady"}


DULL = (110, 112, 115)  # a tarnished silver coin, dark enough to count as an object


def test_taken_coins_in_the_margin_are_not_foreign() -> None:
    gate = SteadyGate(coin_isolation_mat())
    taken = board_with_pieces()
    taken.coins = [*taken.coins, ((200.0, 490.0), 24.26, DULL), ((240.0, 492.0), 26.49, COPPER),
                   ((470.0, 300.0), 24.26, DULL), ((30.0, 200.0), 21.21, DULL)]
    assert feed(gate, [taken] * 5)[-1].steady


def test_dim_light_is_not_foreign() -> None:
    gate = SteadyGate(coin_isolation_mat())
    dim = board_with_pieces()
    dim.light = 0.55
    assert feed(gate, [dim] * 5)[-1].steady


def test_a_moving_board_is_never_steady() -> None:
    gate = SteadyGate(coin_isolation_mat())
    sliding = [Scene(shift=(4.0 * number, 1.5 * number)) for number in range(8)]
    verdicts = feed(gate, sliding)
    assert not any(verdict.steady for verdict in verdicts)
    assert all(verdict.code == "moving" for verdict in verdicts[1:])
    assert verdicts[1].reason == "waiting for the board to settle"
    stopped = feed(gate, [sliding[-1]] * 6, start=1.0)
    assert [verdict.steady for verdict in stopped] == [False] * 4 + [True] * 2


def test_a_coin_put_down_restarts_the_settle_time() -> None:
    gate = SteadyGate(coin_isolation_mat())
    geometry = coin_isolation_mat()
    with_coin = Scene(coins=[(geometry.region("e5").centre, 19.05, COPPER)])
    verdicts = feed(gate, [Scene()] * 5 + [with_coin] * 6)
    assert verdicts[4].steady
    assert verdicts[5].code == "moving"
    assert [verdict.steady for verdict in verdicts[6:]] == [False] * 4 + [True]


def test_a_missing_marker_is_named() -> None:
    gate = SteadyGate(coin_isolation_mat())
    verdicts = feed(gate, [Scene()] * 5 + [hand_on_marker(Scene(), 2)] * 2 + [Scene()] * 2)
    assert verdicts[4].steady
    for verdict in verdicts[5:7]:
        assert not verdict.steady
        assert verdict.code == "markers" and verdict.reason == "marker 2 not seen"
        assert verdict.missing_markers == (2,)
    assert not any(verdict.steady for verdict in verdicts[7:])  # the settle time starts again


def test_no_board_found() -> None:
    gate = SteadyGate(coin_isolation_mat())
    verdict, location = gate.look(0.0, np.full((720, 1280, 3), 128, np.uint8))
    assert location is None
    assert verdict.code == "no-board" and "no markers seen" in verdict.reason
    covered = hand_on_marker(hand_on_marker(Scene(), 2), 3)
    verdict, location = gate.look(0.1, covered.frame())
    assert location is None
    assert verdict.reason == "board not found: markers 2 and 3 not seen"
    assert verdict.missing_markers == (2, 3)


def test_update_takes_a_location_found_elsewhere() -> None:
    gate = SteadyGate(coin_isolation_mat())
    image = Scene().frame()
    location = find_board(MarkerConfig(), image, coin_isolation_mat())
    assert gate.update(0.0, image, location).code == "settling"
    assert gate.update(0.5, image, location).steady


@pytest.mark.parametrize(
    ("missing", "reason"),
    [((2,), "marker 2 not seen"), ((1, 3), "markers 1 and 3 not seen"),
     ((0, 1, 2), "markers 0, 1 and 2 not seen")],
)
def test_missing_marker_wording(missing: tuple[int, ...], reason: str) -> None:
    assert markers_missing_reason(missing) == reason


def _shadowed(image: np.ndarray, centre_x: float) -> np.ndarray:
    """``image`` under the soft shadow of someone leaning over: a blurred ellipse 35% darker."""
    import cv2

    outline = np.zeros(image.shape[:2], np.float32)
    cv2.ellipse(outline, (round(centre_x), 380), (260, 180), 0, 0, 360, 1.0, -1)
    shade = cv2.GaussianBlur(outline, (0, 0), 40)
    return (image * (1 - 0.35 * shade)[..., None]).astype(np.uint8)


def test_a_shadow_sweeping_over_the_board_holds_the_gate_until_it_stops() -> None:
    gate = SteadyGate(coin_isolation_mat())
    board = board_with_pieces()
    frames = [board.frame(seed=number) for number in range(5)]
    frames += [_shadowed(board.frame(seed=5 + step), 250 + 40 * step) for step in range(12)]
    resting = 250 + 40 * 11
    frames += [_shadowed(board.frame(seed=17 + step), resting) for step in range(7)]
    verdicts = [gate.look(number * STEP, image)[0] for number, image in enumerate(frames)]
    assert verdicts[4].steady
    sweeping = verdicts[5:17]
    assert [verdict.code for verdict in sweeping] == ["moving"] * 12
    # A shadow that stays put is light, not an object: the board counts once it has settled.
    assert [verdict.steady for verdict in verdicts[17:]] == [False] * 4 + [True] * 3


def _penny_pile(count: int) -> Scene:
    """``count`` pennies touching in a row of rows around d4, inside the play area (a Shakala
    pit or cup holds such a pile): copper looks like skin."""
    x, y = coin_isolation_mat().region("d4").centre
    pennies = [((x + 19.0 * (index % 4) - 28.5, y + 19.0 * (index // 4) - 19.0), 19.05, COPPER)
               for index in range(count)]
    return Scene(coins=pennies)


def test_a_still_pile_of_touching_pennies_is_not_a_hand() -> None:
    gate = SteadyGate(coin_isolation_mat())
    verdicts = feed(gate, [_penny_pile(7)] * 7)
    assert "hand" not in {verdict.code for verdict in verdicts}
    assert verdicts[-1].steady


def test_a_large_skin_patch_inside_the_play_area_is_a_hand() -> None:
    """A hand whose arm is out of view, or sleeved, still counts when no coin pile is as big."""
    x, y = coin_isolation_mat().region("d4").centre
    palm = [(x - 45, y - 45), (x + 45, y - 45), (x + 45, y + 45), (x - 45, y + 45)]
    gate = SteadyGate(coin_isolation_mat())
    verdicts = feed(gate, [Scene(polygons=[(palm, SKIN)])] * 6)
    assert {verdict.code for verdict in verdicts} == {"hand"}


def _touching(centre: tuple[float, float], count: int, diameter: float,
              colour: tuple[int, int, int], skip: int = 0) -> list[Coin]:
    """``count`` coins packed as tightly as flat coins lie, each touching its neighbours, in
    rings around ``centre`` (the first ``skip`` places left to other coins)."""
    places = [(0.0, 0.0)]
    ring = 1
    while len(places) < skip + count:
        for index in range(6 * ring):
            side, step = divmod(index, ring)
            places.append((ring * math.cos(math.pi / 3 * side)
                           + step * math.cos(math.pi / 3 * (side + 2)),
                           ring * math.sin(math.pi / 3 * side)
                           + step * math.sin(math.pi / 3 * (side + 2))))
        ring += 1
    return [((centre[0] + diameter * x, centre[1] + diameter * y), diameter, colour)
            for x, y in places[skip:skip + count]]


def _oblong(centre: tuple[float, float], size: tuple[float, float],
            angle_deg: float) -> list[tuple[float, float]]:
    """The corners of a ``size`` rectangle (mm) centred on ``centre``, turned ``angle_deg``."""
    cos, sin = math.cos(math.radians(angle_deg)), math.sin(math.radians(angle_deg))
    width, height = size[0] / 2, size[1] / 2
    return [(centre[0] + cos * x - sin * y, centre[1] + sin * x + cos * y)
            for x, y in ((-width, -height), (width, -height), (width, height), (-width, height))]


def _judged(scene: Scene) -> GateVerdict:
    verdict, _ = SteadyGate(scene.geometry).look_still(scene.frame())
    return verdict


PHONE = (70.0, 145.0)  # a phone's size in mm
PHONE_BLACK = (40, 40, 42)


def test_a_pit_of_twelve_touching_pennies_is_not_foreign() -> None:
    """3,400 mm^2 of copper is more than a square holds but less than a Shakala pit does."""
    mat = shakala_mat()
    pile = _touching(mat.region("F").centre, 12, 19.05, COPPER)
    assert _judged(Scene(coins=pile, geometry=mat)).steady
    on_squares = _touching(coin_isolation_mat().region("d4").centre, 12, 19.05, COPPER)
    assert not _judged(Scene(coins=on_squares)).steady


def test_a_pit_piled_with_pennies_and_golden_dollars_is_no_hand() -> None:
    """Twelve pennies ringed by seven golden dollars, all touching (about 7,300 mm^2 of metal
    the colour of skin, more than the 6,500 mm^2 the gate once allowed a lone skin patch)."""
    mat = shakala_mat()
    centre = mat.region("g").centre
    pile = _touching(centre, 12, 19.05, COPPER) + _touching(centre, 7, 26.49, BRASS, skip=12)
    verdict = _judged(Scene(coins=pile, geometry=mat))
    assert verdict.steady, verdict.reason
    cup = _touching(mat.region("cup-south").centre, 16, 26.49, BRASS)
    assert _judged(Scene(coins=cup, geometry=mat)).steady


def test_a_palm_across_the_pits_is_a_hand() -> None:
    mat = shakala_mat()
    (left, top), (right, bottom) = mat.region("F").centre, mat.region("f").centre
    between_four = ((left + right) / 2, (top + bottom) / 2)
    between_two = (left, (top + bottom) / 2)  # across the gap between F and g
    for middle in (between_four, between_two):
        palm = _oblong(middle, (90.0, 100.0), 10.0)
        verdict = _judged(Scene(polygons=[(palm, SKIN)], geometry=mat))
        assert verdict.code == "hand", middle


def test_a_phone_or_a_sleeve_over_the_pits_is_foreign() -> None:
    mat = shakala_mat()
    (left, top), (right, bottom) = mat.region("F").centre, mat.region("f").centre
    between_four = ((left + right) / 2, (top + bottom) / 2)
    between_two = (left, (top + bottom) / 2)  # across the gap between F and g
    for middle, angle in ((between_four, 30.0), (between_four, 90.0), (between_two, 0.0)):
        phone = _oblong(middle, PHONE, angle)
        verdict = _judged(Scene(polygons=[(phone, PHONE_BLACK)], geometry=mat))
        assert verdict.code == "foreign", (middle, angle)
    sleeve = [(mat.width_mm, 300.0), (mat.width_mm, 370.0), (600.0, 360.0), (600.0, 315.0)]
    verdict = _judged(Scene(polygons=[(sleeve, (90, 40, 30))], geometry=mat))
    assert verdict.code == "foreign"
    on_squares = _oblong(coin_isolation_mat().region("d4").centre, PHONE, 20.0)
    verdict = _judged(Scene(polygons=[(on_squares, PHONE_BLACK)]))
    assert verdict.reason == "something large lies over the board"


def test_what_a_region_holds_follows_its_size() -> None:
    config = GateConfig()
    for mat in (coin_isolation_mat(), shakala_mat()):
        gate = SteadyGate(mat)
        masks = view_masks(mat, config.mm_per_pixel, config)
        limits = gate_limits(mat, masks, config)
        assert limits.holds_mm2[0] == config.foreign_area_mm2
        for number, region in enumerate(mat.regions, start=1):
            assert limits.holds_mm2[number] == max(region.shape.area(),
                                                   config.foreign_area_mm2)
            x, y = region.centre
            pixel = (round(y / config.mm_per_pixel), round(x / config.mm_per_pixel))
            assert limits.labels[pixel] == number
        assert gate.geometry is mat
    squares = gate_limits(coin_isolation_mat(), view_masks(coin_isolation_mat(), 2.0), config)
    assert not squares.unreachable.any()  # squares tile the board: a coin may lie anywhere
    pits = gate_limits(shakala_mat(), view_masks(shakala_mat(), 2.0), config)
    assert pits.unreachable.any()  # the paper between four pits is out of every coin's reach
