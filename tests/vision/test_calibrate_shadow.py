"""The empty mat under a person's shadow, seen by a dark, noisy webcam, is empty: calibration
judges it by round outlines of a coin's size, not by shading (physically based frames)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from calibration.geometry import coin_isolation_mat
from vision.calibrate import CalibrationConfig, CalibrationError, learn_background
from vision.synth.physical import TableScene, render_table, tuning_variation

GEOMETRY = coin_isolation_mat()
SIZE = (800, 450)


def shadowed_scene(coins: dict[str, str]) -> TableScene:
    """A tuning table with a person leaning over the mat under a small, strong lamp (a dark,
    sharp-edged shadow across the middle squares), under-exposed by 1.5 stops, with strong
    sensor noise, vignetting and JPEG at quality 60, at 800 x 450."""
    variation = tuning_variation(202)
    light = replace(variation.light, blocker=True, blocker_target_mm=(60.0, 0.0),
                    blocker_radius_mm=120.0, blocker_height_mm=250.0, lamp_radius_mm=8.0,
                    lamp_to_room=8.0)
    sensor = replace(variation.sensor, shot=0.02, read=0.02, exposure_error_ev=-1.5, jpeg=60,
                     vignetting=1.0)
    camera = replace(variation.camera, px_per_mm=variation.camera.px_per_mm * SIZE[0] / 1920)
    variation = replace(variation, light=light, sensor=sensor, camera=camera)
    scene = TableScene.build(coins, {}, GEOMETRY, variation, layout_seed=202)
    return replace(scene, image_size=SIZE)


@pytest.fixture(scope="module")
def empty() -> np.ndarray:
    return render_table(shadowed_scene({}), 0).image


def test_a_shadowed_noisy_empty_mat_is_accepted(empty: np.ndarray) -> None:
    background = learn_background(CalibrationConfig(), GEOMETRY, [empty])
    # The background is the shadowed mat itself: darker where the shadow falls.
    assert background.shape[2] == 3
    assert float(background.min()) < 0.5 * float(np.percentile(background, 90))


def test_a_coin_on_the_shadowed_mat_is_still_refused() -> None:
    """The quarter lies in the lamp's light; the coins deep in the shadow are too dark for
    any camera to show (their squares' own print is lost in the noise there)."""
    image = render_table(shadowed_scene({"b2": "Q", "e4": "D", "f5": "N"}), 0).image
    with pytest.raises(CalibrationError, match=r"^clear the mat: something lies on b2"):
        learn_background(CalibrationConfig(), GEOMETRY, [image])
