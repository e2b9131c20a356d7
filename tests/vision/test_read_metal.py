"""Metal and presence: a coin glinting white is no empty square, a face's colour overrules a
misleading size, and metal mirroring a coloured light, or dark tarnished copper, is no pawn."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from calibration.geometry import coin_isolation_mat
from contract.observation import Observation
from vision.light import PAPER
from vision.parallax import overhead_camera
from vision.pawn_casts import without_light_casts
from vision.pawns import PawnConfig, find_pawns, pawn_labels
from vision.read import read_frame
from vision.synth import SynthScene, Variation, render
from vision.synth.physical import TableFrame, random_table_scene, render_table

from .helpers import CONFIG, GEOMETRY, PROFILE

#: Confidence from which the referee takes a reading as it is.
SURE = 0.5


@pytest.fixture(scope="module")
def glinting() -> tuple[TableFrame, Observation]:
    """A tuning-family table whose bright lamp clips the paper near it, and the coins there
    white (pennies show only a thin crescent of their edge, a dime none), and its reading."""
    frame = render_table(random_table_scene(14, family="tuning"), seed=0)
    return frame, read_frame(CONFIG, frame.image, GEOMETRY, PROFILE)


def test_a_coin_glinting_white_is_never_read_as_a_surely_empty_square(
        glinting: tuple[TableFrame, Observation]) -> None:
    """Where the paper round a glinting coin is clipped white too, nothing of the coin shows:
    in a frame whose coins glint, a square of clipped paper is unseen, never surely empty."""
    glinting_frame, observation = glinting
    white = ["h3", "h4", "h5"]
    assert all(glinting_frame.truth[name].coins for name in white)
    surely_empty = [name for name in white
                    if observation[name].coin is None and observation[name].confidence >= SURE]
    assert not surely_empty


def test_clipped_paper_is_no_doubt_where_no_coin_glints() -> None:
    """The sprite renderer's coins are matte and its paper is clipped white: with no coin
    glinting, clipped paper hides nothing, and empty squares are read surely empty."""
    scene = SynthScene.build({"d4": "P", "e5": "N"}, {}, GEOMETRY, Variation(), layout_seed=3)
    observation = read_frame(CONFIG, render(scene).image, GEOMETRY, PROFILE)
    empty = [name for name in GEOMETRY.region_names() if name not in ("d4", "e5")
             and GEOMETRY.region(name).kind == "square"]
    doubted = [name for name in empty if observation[name].confidence < SURE]
    assert not doubted


def test_no_coin_is_named_the_wrong_metal_with_confidence(
        glinting: tuple[TableFrame, Observation]) -> None:
    """A nickel measured a penny's size (g2) has a silver face: a doubt, never a sure penny."""
    glinting_frame, observation = glinting
    copper = {"P"}
    wrong_metal = [(name, truth.top, observation[name].coin, observation[name].confidence)
                   for name, truth in glinting_frame.truth.items()
                   if truth.top and observation[name].coin
                   and (truth.top in copper) != (observation[name].coin in copper)
                   and observation[name].confidence >= SURE]
    assert not wrong_metal


def _disc_labels(colour_bgr: tuple[float, float, float]) -> set[str]:
    """The pawn colours :func:`pawn_labels` finds in a 20 mm disc of ``colour_bgr`` (the
    light-normalised view, paper at :data:`PAPER`) on paper, at 4 px/mm."""
    image = np.full((160, 160, 3), PAPER, np.uint8)
    cv2.circle(image, (80, 80), 40, tuple(float(value) for value in colour_bgr), -1,
               cv2.LINE_AA)
    labels = pawn_labels(PawnConfig(), image, PROFILE)
    return {PROFILE.pawns[label - 1].name for label in np.unique(labels) if label}


def test_a_coin_mirroring_a_warm_lamp_is_no_yellow_pawn() -> None:
    # A nickel mirroring a 2,700 K lamp in a frame balanced for a cooler room: a pure
    # yellow brighter than the paper, which no paint is.
    assert _disc_labels((70, 235, 250)) == set()
    # Yellow paint, as bright as paint gets (no brighter than paper), is a pawn.
    assert _disc_labels((25, 160, 184)) == {"yellow"}


def _discs_labels(colour_bgr: tuple[float, float, float], gap_mm: float) -> set[str]:
    """The pawn colours found, casts left out, in two 18 mm discs of ``colour_bgr`` (the
    light-normalised view at 4 px/mm) ``gap_mm`` apart, or in one where the gap is 0."""
    pixels_per_mm = 4
    image = np.full((120 * pixels_per_mm, 200 * pixels_per_mm, 3), PAPER, np.uint8)
    for offset in {-gap_mm / 2, gap_mm / 2}:
        centre = (round((100 + offset) * pixels_per_mm), 60 * pixels_per_mm)
        cv2.circle(image, centre, 9 * pixels_per_mm, colour_bgr, -1, cv2.LINE_AA)
    labels = without_light_casts(PawnConfig(), pawn_labels(PawnConfig(), image, PROFILE),
                                 image, pixels_per_mm)
    return {PROFILE.pawns[label - 1].name for label in np.unique(labels) if label}


def test_silver_coins_near_each_other_mirroring_a_warm_room_are_no_yellow_pawns() -> None:
    # Silver mirroring a 2,700 K room against paper a cold window lights: a warm cast on the
    # black-body line, as pure as a pawn, on two coins 60 mm apart.
    warm_cast = (89.0, 150.0, 183.0)
    assert _discs_labels(warm_cast, 60.0) == set()
    # Alone, or with the next such blob beyond a cast's reach, it is read as it was.
    assert _discs_labels(warm_cast, 0.0) == {"yellow"}
    assert _discs_labels(warm_cast, 150.0) == {"yellow"}
    # Red paint lies far off the black-body line: two red pawns near each other stay pawns.
    assert _discs_labels((20.0, 20.0, 120.0), 60.0) == {"red"}


def test_a_dark_tarnished_penny_is_no_red_pawn() -> None:
    # Copper's orange-brown pushed pure by the camera: hue about 24 degrees, nearer copper's
    # than a red pawn's.
    assert _disc_labels((2, 45, 110)) == set()
    # A red pawn's red, as pure and as dark, is a pawn.
    assert _disc_labels((20, 20, 120)) == {"red"}


def test_a_tall_pawn_seen_at_a_slant_is_no_flat_token() -> None:
    """A pawn standing on a stack, seen from the side, covers as much of the view as a flat
    token, but stretched along the camera's lean: it hides the coins under it."""
    geometry = coin_isolation_mat()
    camera = overhead_camera(geometry)
    pixels_per_mm = 2.0  # the labels' own resolution (half the view's)
    centre = np.array(geometry.play_area.centre) + np.array([120.0, 0.0])
    lean = np.degrees(np.arctan2(*(centre - np.asarray(camera.foot_mm))[::-1]))
    red = 1 + [pawn.name for pawn in PROFILE.pawns].index("red")

    def sighting(length_mm: float, width_mm: float) -> bool:
        size = (int(geometry.height_mm * pixels_per_mm), int(geometry.width_mm * pixels_per_mm))
        labels = np.zeros(size, np.uint8)
        middle = tuple(int(value * pixels_per_mm) for value in centre)
        axes = (int(length_mm / 2 * pixels_per_mm), int(width_mm / 2 * pixels_per_mm))
        cv2.ellipse(labels, middle, axes, float(lean), 0, 360, red, -1)
        found = find_pawns(PawnConfig(), labels, PROFILE, 2 * pixels_per_mm, (0.0, 0.0),
                           camera)
        assert len(found) == 1
        return found[0].flat

    assert not sighting(36.0, 15.0)
    assert sighting(24.0, 24.0)
