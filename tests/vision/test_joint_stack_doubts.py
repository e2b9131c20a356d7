"""A smaller top coin whose edge and foot ring are each too faint to stand out alone of the
frame's lone coins makes its stack a doubt when the two witnesses add up
(``InnerOutlineConfig.joint_spreads``, :mod:`vision.inner_outlines`); lone coins stay sure.
Real OpenCV on drawn, noisy discs."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.frame_statistics import spreads_above
from vision.inner_outlines import InnerOutlineConfig, inner_outline_doubts

from .test_inner_outlines import METALS, PPM, SIZES

COUNT = 8
STACK_AT = 5


def _faint_stack(edge: int, face: int, shift_mm: float) -> tuple[np.ndarray, np.ndarray,
                                                                  np.ndarray]:
    """Quarters in a row on paper (a dark rounded edge, a raised rim), with noise; the one at
    ``STACK_AT`` has a nickel on it ``shift_mm`` off its middle whose edge (``edge``) and
    face (``face``) are only a little unlike the quarter's face (120)."""
    image = np.full((120, 60 * COUNT, 3), 200, np.uint8)
    centres = np.array([[30.0 + 60 * index, 60.0] for index in range(COUNT)])
    radius = SIZES["Q"] / 2 * PPM
    for index, centre in enumerate(centres):
        point = (round(centre[0]), round(centre[1]))
        cv2.circle(image, point, round(radius), (95, 95, 95), -1, cv2.LINE_AA)
        cv2.circle(image, point, round(radius - 2), (130, 130, 130), -1, cv2.LINE_AA)
        cv2.circle(image, point, round(radius - 3), (120, 120, 120), -1, cv2.LINE_AA)
        if index == STACK_AT:
            top = (round(centre[0] + shift_mm * PPM), round(centre[1]))
            nickel = SIZES["N"] / 2 * PPM
            cv2.circle(image, top, round(nickel), (edge, edge, edge), -1, cv2.LINE_AA)
            cv2.circle(image, top, round(nickel - 1.5), (face, face, face), -1, cv2.LINE_AA)
    noisy = image + np.random.default_rng(1).normal(0, 4, image.shape)
    blurred: np.ndarray = cv2.GaussianBlur(np.clip(noisy, 0, 255).astype(np.uint8), (0, 0),
                                           0.8)
    return blurred, centres, np.full(COUNT, radius + 0.5)


@pytest.mark.parametrize(("edge", "face"), [(105, 120), (115, 125)])
def test_two_faint_witnesses_of_one_top_coin_make_a_doubt_neither_makes_alone(
        edge: int, face: int) -> None:
    image, centres, radii = _faint_stack(edge, face, 1.2)
    arguments = (image, centres, radii, ["Q"] * COUNT, np.full(COUNT, 0.99), SIZES, METALS,
                 PPM, np.ones(COUNT, bool))
    alone = inner_outline_doubts(replace(InnerOutlineConfig(), joint_spreads=np.inf),
                                 *arguments)
    joint = inner_outline_doubts(InnerOutlineConfig(), *arguments)
    assert not alone.any()
    assert joint.tolist() == [index == STACK_AT for index in range(COUNT)]


def test_spreads_above_counts_robust_spreads_over_the_reference_median() -> None:
    values = np.array([10.0, 11.0, 9.0, 10.0, 12.0, 8.0, 20.0, np.nan])
    reference = np.arange(6)
    spreads = spreads_above(values, reference, 5, 1.0)
    # Median 10, median absolute deviation 1 (spread 1.4826).
    assert spreads[6] == pytest.approx(10 / 1.4826)
    assert np.isnan(spreads[7])
    assert np.isnan(spreads_above(values, reference[:3], 5, 1.0)).all()
