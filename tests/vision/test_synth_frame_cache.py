"""The synthetic camera keeps a still scene's lit picture and scaled noise between frames; every
frame must still be, byte for byte, what the whole pipeline computed afresh gives."""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import pytest

import vision.synth as synth
from calibration.geometry import mat_for_game
from vision.synth import SynthScene, random_hand, random_variation, render, with_hands
from vision.synth.effects import GAIN_ONE, draw_hands, light_field


def _afresh(scene: SynthScene, seed: int) -> np.ndarray:
    """The frame computed step by step as the renderer did before it kept anything: board,
    hands, blur, light, glare, the noise bank's window scaled, JPEG."""
    variation = scene.variation
    frame: Any = np.array(synth._board_frame(with_hands(scene)), copy=True)
    draw_hands(frame, synth._hand_placements(scene), variation.light.direction_deg)
    if variation.blur > 0.05:
        frame = cv2.GaussianBlur(frame, (0, 0), variation.blur)
    gain, glare = light_field(variation.light, scene.image_size)
    result = cv2.multiply(frame, gain, scale=1.0 / GAIN_ONE)
    if glare is not None:
        result = cv2.add(result, glare)
    height, width = result.shape[:2]
    positive, negative = synth.effects._noise_bank(height, width)
    dy, dx = (int(value) for value in np.random.default_rng(seed).integers(0, 64, 2))
    scale = variation.noise / synth.effects._BANK_SIGMA
    up = cv2.convertScaleAbs(positive[dy:dy + height, dx:dx + width], alpha=scale)
    down = cv2.convertScaleAbs(negative[dy:dy + height, dx:dx + width], alpha=scale)
    result = cv2.subtract(cv2.add(result, up), down)
    _, encoded = cv2.imencode(".jpg", result, [cv2.IMWRITE_JPEG_QUALITY,
                                               variation.jpeg_quality])
    return np.asarray(cv2.imdecode(encoded, cv2.IMREAD_COLOR))


@pytest.mark.parametrize("game", ["coin-grid", "shakala"])
def test_frames_of_a_kept_scene_equal_the_frames_computed_afresh(game: str) -> None:
    geometry = mat_for_game(game)
    names = [region.name for region in geometry.regions][:8]
    board = SynthScene.build({name: "PNQ"[index % 3] for index, name in enumerate(names)}, {},
                             geometry, random_variation(11, geometry=geometry), layout_seed=11)
    handed = with_hands(board, random_hand(4, geometry))
    # Board, then a hand over it, then the board again: each scene's frames come back from
    # what was kept, with their own noise.
    for scene in (board, handed, board, handed):
        for seed in (0, 1, 99991):
            frame = render(scene, seed)
            assert np.array_equal(frame.image, _afresh(scene, seed))
            assert frame.image.flags.writeable
    assert render(handed, 3).markers_covered == render(handed, 4).markers_covered
    assert not np.array_equal(render(board, 0).image, render(board, 1).image)


def test_a_frame_handed_out_can_be_drawn_on_without_changing_the_next() -> None:
    geometry = mat_for_game("coin-grid")
    scene = SynthScene.build({"c3": "P"}, {}, geometry, random_variation(2, geometry=geometry))
    first = render(scene, 5).image
    kept = first.copy()
    first[:] = 0
    assert np.array_equal(render(scene, 5).image, kept)
