"""Reading synthetic frames end to end: every kind of variation, three markers, pits."""

from __future__ import annotations

from dataclasses import replace

import pytest

from calibration.geometry import test_pit_mat
from vision.errors import MatNotFoundError
from vision.read import read_frame, read_frame_details
from vision.synth import CameraPose, Light, SynthScene, Variation, random_hand, render

from .helpers import CONFIG, GEOMETRY, PROFILE, wrong_regions

#: A board with every coin kind, copper on silver stacks, same-kind stacks, empties and pawns.
COINS = {
    "a1": "P", "b1": "N", "c1": "D", "d1": "Q", "e1": "PP", "f1": "NN", "g1": "QP", "h1": "NP",
    "a2": "D", "b2": "Q", "c2": "N", "d2": "P", "f2": "DD", "g2": "QQ", "h2": "DN",
    "a3": "N", "c3": "P", "d3": "D", "e3": "Q", "g3": "N", "h3": "P",
    "b4": "P", "c4": "N", "d4": "Q", "e4": "D", "f4": "P", "h4": "N",
    "a5": "Q", "b5": "D", "c5": "P", "e5": "N", "f5": "Q", "g5": "D",
    "b6": "N", "c6": "Q", "d6": "P", "e6": "D", "g6": "P", "h6": "Q",
    "a7": "P", "b7": "P", "d7": "N", "e7": "N", "f7": "D", "g7": "Q",
    "a8": "D", "c8": "N", "d8": "P", "e8": "Q", "f8": "N", "h8": "D",
}
PAWNS = {"d1": "red", "e2": "blue", "c6": "green", "h8": "yellow"}

BASE = Variation(noise=2.0, blur=0.5, jpeg_quality=85, tarnish=0.3, placement=0.7)

VARIATIONS = {
    "straight down": BASE,
    "tilt 35 from south": replace(BASE, pose=CameraPose(tilt_deg=35.0, fill=0.9)),
    "tilt 30 from east, turned": replace(
        BASE, pose=CameraPose(tilt_deg=30.0, tilt_azimuth_deg=90.0, rotation_deg=12.0)
    ),
    "warm light": replace(BASE, light=Light(warmth=1.0, gradient=0.3, direction_deg=40.0)),
    "cold light, dim": replace(BASE, light=Light(warmth=-1.0, exposure=0.8, shadows=2)),
    "glare and barrel lens": replace(
        BASE, light=Light(glare=1.0, direction_deg=200.0), lens_k1=-0.04
    ),
    "dull coins, noisy, blurred": replace(
        BASE, tarnish=0.9, noise=5.0, blur=1.2, jpeg_quality=60
    ),
    "coins off-centre": replace(BASE, placement=1.0, pose=CameraPose(tilt_deg=20.0)),
}


@pytest.mark.parametrize("name", sorted(VARIATIONS))
def test_every_square_read_right(name):
    scene = SynthScene.build(COINS, PAWNS, GEOMETRY, VARIATIONS[name], layout_seed=7)
    frame = render(scene, seed=1)
    observation = read_frame(CONFIG, frame.image, GEOMETRY, PROFILE)
    assert wrong_regions(observation, frame.truth) == []
    assert observation.markers_found == (0, 1, 2, 3)
    assert set(observation.meta["timings_ms"]) == {"find", "rectify", "read"}


def test_confidence_is_high_on_a_clean_frame():
    scene = SynthScene.build(COINS, PAWNS, GEOMETRY, BASE, layout_seed=3)
    observation = read_frame(CONFIG, render(scene).image, GEOMETRY, PROFILE)
    confidences = sorted(reading.confidence for reading in observation.regions.values())
    assert confidences[len(confidences) // 10] > 0.8
    assert all(0.0 <= value <= 1.0 for value in confidences)


def test_board_read_from_three_markers_when_a_hand_covers_one():
    hand = random_hand(5, GEOMETRY, cover_marker=2)
    scene = SynthScene.build(COINS, PAWNS, GEOMETRY, BASE, hands=(hand,), layout_seed=7)
    frame = render(scene, seed=2)
    assert 2 in frame.markers_covered
    details = read_frame_details(CONFIG, frame.image, GEOMETRY, PROFILE)
    assert details.location.markers_found == (0, 1, 3)
    assert details.location.markers_missing == (2,)
    assert details.observation.meta["markers_missing"] == [2]
    wrong = wrong_regions(details.observation, frame.truth)
    assert len(wrong) <= 3  # the hand itself may hide a few squares
    assert all(not name.startswith(("a", "b", "c")) for name, *_ in wrong)


def test_two_covered_markers_are_named():
    image = render(SynthScene.build(COINS, PAWNS, GEOMETRY, BASE)).image.copy()
    frame = render(SynthScene.build(COINS, PAWNS, GEOMETRY, BASE))
    for marker_id in (1, 3):
        marker = GEOMETRY.marker(marker_id)
        corners = frame.project(marker.corners())
        low, high = corners.min(axis=0).astype(int) - 5, corners.max(axis=0).astype(int) + 5
        image[low[1] : high[1], low[0] : high[0]] = 128
    with pytest.raises(MatNotFoundError) as caught:
        read_frame(CONFIG, image, GEOMETRY, PROFILE)
    assert caught.value.missing == (1, 3)
    assert caught.value.found == (0, 2)
    assert "markers 1, 3 missing" in str(caught.value)


def test_pits_give_counts_and_kinds():
    geometry = test_pit_mat()
    coins = {"s1": "PPN", "s2": "DQ", "s4": "P", "n1": "NDP", "n3": "D", "n4": "QQ",
             "cup-w": "PND"}
    scene = SynthScene.build(coins, {"s3": "red"}, geometry, BASE, layout_seed=1)
    frame = render(scene, seed=0)
    observation = read_frame(CONFIG, frame.image, geometry, PROFILE)
    assert wrong_regions(observation, frame.truth) == []
    assert observation["s1"].count == 3
    assert observation["s1"].kinds == ("N", "P", "P")
    assert observation["s3"].count == 0
    assert observation["s3"].pawn == "red"
    assert observation["cup-e"].count == 0
