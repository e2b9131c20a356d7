"""The whole-face layout fit of a die's pips (:mod:`vision.dice_layout`): on faces drawn with
OpenCV (blurred until a 6's columns run together, lit unevenly, cocked), and through the whole
reader on rendered tray frames where finding pips spot by spot fails."""

from __future__ import annotations

import math

import cv2
import numpy as np
import pytest

import vision.dice_layout as dice_layout
from calibration.geometry import Rect
from vision.dice import DiceConfig, explain_tray_in_frame
from vision.dice_layout import fit_layout, read_face_pips
from vision.dice_pips import LAYOUTS
from vision.markers import find_board
from vision.parallax import camera_over_mat
from vision.read import VisionConfig
from vision.synth import render
from vision.synth.dice_sets import tuning_tray

CONFIG = DiceConfig()
#: Pixels of a drawn face's edge (a 16 mm die at the reader's 4 px/mm).
EDGE = 64


def drawn_face(value: int, turn_deg: float, blur: float, squash: float = 1.0,
               shade: float = 0.0, shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """A white face with black round pips of layout ``value`` (0.19 of the edge across, 0.27
    apart) on felt, turned ``turn_deg``, blurred by ``blur`` px, its pips ``squash``-ed across
    the rows (a cocked die's foreshortened top), darkened by ``shade`` towards one side and its
    pips moved ``shift`` (shares of the edge) off the face's middle."""
    size = 2 * EDGE
    image = np.full((size, size, 3), (70, 120, 60), np.uint8)
    middle = np.array([size / 2, size / 2])
    turn = math.radians(turn_deg)
    u = np.array([math.cos(turn), math.sin(turn)])
    v = np.array([-math.sin(turn), math.cos(turn)])
    corners = [middle + EDGE / 2 * (a * u + b * v) for a, b in ((-1, -1), (1, -1), (1, 1),
                                                                 (-1, 1))]
    cv2.fillConvexPoly(image, np.round(np.array(corners)).astype(np.int32), (235, 235, 235))
    pips = next(pips for number, pips in LAYOUTS if number == value)
    for column, row in pips:
        centre = middle + EDGE * ((0.27 * column + shift[0]) * u
                                  + (0.27 * row * squash + shift[1]) * v)
        cv2.circle(image, (round(centre[0]), round(centre[1])), round(0.095 * EDGE),
                   (25, 25, 25), -1, cv2.LINE_AA)
    if shade:
        ramp = np.linspace(1.0 - shade, 1.0, size)[None, :, None]
        image = np.clip(image * ramp, 0, 255).astype(np.uint8)
    return cv2.GaussianBlur(image, (0, 0), blur) if blur else image


def rect_of(turn_deg: float) -> tuple[tuple[float, float], tuple[float, float], float]:
    """The drawn face's rectangle, as the reader's outline would give it."""
    return ((EDGE - 0.5, EDGE - 0.5), (float(EDGE), float(EDGE)), turn_deg)


@pytest.mark.parametrize("value", range(1, 7))
def test_every_layout_is_fitted_at_any_turn_and_through_heavy_blur(value):
    for turn in (0.0, 17.0, 33.0, 71.0):
        for blur in (1.0, 5.0):  # 5 px at 4 px/mm runs a 6's column into one bar
            fit = fit_layout(CONFIG, drawn_face(value, turn, blur), rect_of(turn))
            assert fit.value == value, (turn, blur, fit)
            assert 0.5 <= fit.confidence <= 1.0


def test_a_face_half_in_shadow_is_still_read():
    for value in (4, 5, 6):
        fit = fit_layout(CONFIG, drawn_face(value, 20.0, 2.0, shade=0.45), rect_of(20.0))
        assert fit.value == value, fit


def test_pips_off_the_face_middle_are_not_read():
    # A cocked die's pips lie off the middle of the outline taken for its top.
    for value in (2, 3, 5):
        fit = fit_layout(CONFIG, drawn_face(value, 10.0, 2.0, shift=(0.14, 0.1)),
                         rect_of(10.0))
        assert fit.value is None, fit


# -- through the whole reader, on rendered frames -----------------------------------------------


def _explained(seed: int, cocked: bool) -> list[tuple[int | None, int | None, str]]:
    """(truth, value read, why None) of every die of the tuning tray frame ``seed``."""
    scene = tuning_tray(seed + (100_000 if cocked else 0), cocked)
    image = render(scene, seed).image
    location = find_board(VisionConfig().markers, image, scene.geometry)
    camera = camera_over_mat(location.homography, location.image_size)
    tray = scene.geometry.region("tray").shape
    assert isinstance(tray, Rect)
    readings = explain_tray_in_frame(DiceConfig(focal_px=scene.intrinsics()[0]), image,
                                     location, tray.bounds(), camera)
    found = []
    for die in scene.truth()["tray"].dice:
        near = [item for item in readings if math.dist(item[0].centre_mm, die.centre_mm) < 8.0]
        found.append((die.value, near[0][0].value if near else None,
                      near[0][1] if near else "missed"))
    return found


#: Tuning frames holding blurred sixes whose pips make no layout spot by spot (their columns'
#: peaks merge or wander), found by bench/dice_failures.py.
BLURRED_SIXES = (69, 73, 140, 245)


def test_blurred_sixes_are_read_by_the_whole_face_fit():
    for seed in BLURRED_SIXES:
        for truth, value, why in _explained(seed, cocked=False):
            assert value == truth, (seed, truth, value, why)


#: Tuning frames of cocked dice whose top, with a side face's pip beside it, showed two pips
#: on a diagonal, found by bench/dice_failures.py --cocked.
COCKED_PAIRS = (82, 188, 240)


def test_cocked_dice_showing_a_diagonal_pair_are_not_read():
    for seed in COCKED_PAIRS:
        for truth, value, why in _explained(seed, cocked=True):
            if truth is None:
                assert value is None, (seed, value)
                assert why, seed


@pytest.mark.parametrize("value", (2, 3))
def test_a_two_or_three_is_confirmed_at_its_pips_turn_when_the_outline_is_turned_off(value):
    # An outline keeping a strip of side face is larger than the face and turned some
    # degrees (here 15) off it; the pips' diagonal fixes the grid's turn (fails on main).
    outline = ((EDGE - 0.5, EDGE - 0.5), (1.12 * EDGE, 1.12 * EDGE), 35.0)
    for blur in (2.0, 3.5):
        face = drawn_face(value, 20.0, blur)
        read, confidence, why = read_face_pips(CONFIG, face, np.array([235.0, 235.0, 235.0]),
                                               outline)
        assert read == value, (blur, why)
        assert confidence >= 0.5


@pytest.mark.parametrize("turn_deg", [0.0, 30.0, 45.0])
@pytest.mark.parametrize("centre", [(64.0, 64.0), (36.0, 100.0)])
def test_the_patch_blurs_only_the_part_it_samples_the_same_to_the_bit(
        monkeypatch: pytest.MonkeyPatch, turn_deg: float, centre: tuple[float, float]) -> None:
    image = drawn_face(6, turn_deg, 1.0)
    rect = (centre, (float(EDGE), float(EDGE)), turn_deg)
    part = dice_layout.face_patch(image, rect)

    def blur_all(image: np.ndarray, matrix: np.ndarray, side: int, sigma: float) -> np.ndarray:
        return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma))
    monkeypatch.setattr(dice_layout, "_blurred_under", blur_all)
    assert np.array_equal(part, dice_layout.face_patch(image, rect))


def test_a_face_is_fitted_once_for_its_window_and_rectangle():
    # The first read and the re-read about the pips' middle fit the same window about the
    # same rectangle: the second gets the first's fit; another window of the same pixels, a
    # rectangle moved or another least share are fitted afresh, and agree.
    image = drawn_face(5, 10.0, 2.0)
    first = fit_layout(CONFIG, image, rect_of(10.0))
    assert fit_layout(CONFIG, image, rect_of(10.0)) is first
    again = fit_layout(CONFIG, image.copy(), rect_of(10.0))
    assert again is not first and again == first
    assert fit_layout(CONFIG, image, rect_of(10.0), 0.5) is not first
    moved = ((EDGE + 0.5, EDGE - 0.5), (float(EDGE), float(EDGE)), 10.0)
    assert fit_layout(CONFIG, image, moved) is not first
