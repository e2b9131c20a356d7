"""Light and the printer's tones are divided out against the mat's own rendering."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.light import (
    PAPER,
    LightConfig,
    divide_light,
    mat_reference,
    normalise,
    raise_glints,
)
from vision.rectify import RectifyConfig, TopView, view_bounds

from .helpers import GEOMETRY

CONFIG = LightConfig()
PIXELS_PER_MM = 2.0


def _printed_view(dark_gain: float, light_level: float) -> tuple[TopView, np.ndarray]:
    """The mat as a printer whose darker tones come out ``dark_gain`` times as bright as the
    file's would print it, lit at ``light_level`` of white with a gradient across; and where
    the plain paper and tones lie away from ink lines (a mask)."""
    rectify_config = RectifyConfig(PIXELS_PER_MM)
    left, top, _, _ = view_bounds(rectify_config, GEOMETRY)
    margin = GEOMETRY.play_area.left - left
    reference = mat_reference(GEOMETRY, PIXELS_PER_MM, margin, CONFIG.reference_blur_px,
                              CONFIG.ink_band_mm)
    printed = reference.image.astype(np.float64)
    dark = printed.mean(axis=2) < 240
    printed[dark] *= dark_gain
    width = printed.shape[1]
    gradient = np.linspace(0.8, 1.0, width)[None, :, None]
    image = np.clip(printed * light_level * gradient, 0, 255).astype(np.uint8)
    away_from_ink = reference.ink == 0
    return TopView(image, PIXELS_PER_MM, (left, top)), away_from_ink


def _error(image: np.ndarray, where: np.ndarray) -> float:
    """The mean distance from paper of the pixels ``where`` marks."""
    return float(np.abs(image[where].astype(np.float64) - PAPER).mean())


@pytest.mark.parametrize("dark_gain", [0.9, 1.1])
def test_a_printers_own_tones_normalise_to_paper(dark_gain: float) -> None:
    view, plain = _printed_view(dark_gain, 0.7)
    reference = mat_reference(GEOMETRY, PIXELS_PER_MM, GEOMETRY.play_area.left - view.origin_mm[0],
                              CONFIG.reference_blur_px, CONFIG.ink_band_mm)
    dark = (reference.image.mean(axis=2) < 240) & plain
    light_only = divide_light(CONFIG, view, reference)
    normalised = normalise(CONFIG, view, reference)
    for tone in (dark, plain & ~dark):  # the printer's blue squares; white squares and margin
        assert abs(float(np.median(normalised[tone])) - PAPER) <= 2
    # The local light alone leaves the printer's error in, on both tones (its window spans
    # both near every edge); each tone's gain takes most of it out.
    assert _error(light_only, plain) >= 4
    assert _error(normalised, plain) <= 0.7 * _error(light_only, plain)


def test_only_coin_sized_discs_of_clipped_white_are_raised() -> None:
    """At 2 px/mm: a clipped disc of a dime's size on paper the camera did not clip is raised
    to the view's top; clipped paper larger than any coin, and a clipped corner of a square
    cut off by the mat's ink, are left as they are."""
    raw = np.full((400, 400, 3), 240, np.uint8)
    cv2.circle(raw, (60, 60), 18, (255, 255, 255), -1)  # a dime glinting whole
    cv2.rectangle(raw, (150, 150), (390, 390), (255, 255, 255), -1)  # a hot spot
    corner = np.array([[150, 10], [190, 10], [150, 50]], np.int32)
    cv2.fillPoly(raw, [corner], (255, 255, 255))
    normalised = np.full(raw.shape, round(PAPER) + 6, np.uint8)
    raised = raise_glints(CONFIG, raw, normalised, PIXELS_PER_MM, (110.0, 700.0), 32.0)
    assert (raised[60, 60] == 255).all()
    for column, row in ((300, 300), (155, 20)):
        assert (raised[row, column] == normalised[row, column]).all(), (column, row)
