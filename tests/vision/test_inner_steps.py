"""A dime lying on a nickel: the nickel's rim is the top circle, and the dime's own rim a
second circle inside it, as far in as the two kinds' edges lie apart
(:mod:`vision.inner_steps`). Real OpenCV on drawn coins; the rendered tables' figures are in
the commit that brought it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.inner_steps import InnerStepConfig, TopSteps, at_smaller_rims, inner_step_radii
from vision.rims import RimConfig
from vision.tops import TopConfig, top_circles

from .test_inner_outlines import SIZES

#: Top-view pixels per mm: fine enough to draw a rim a millimetre wide.
PPM = 4.0

#: How far inside a nickel's edge a centred dime's lies (mm).
GAP_MM = (SIZES["N"] - SIZES["D"]) / 2


def _coin(image: np.ndarray, centre: tuple[int, int], diameter_mm: float, edge: int,
          rim: int) -> None:
    """A coin drawn as it shows from above: a rounded edge (``edge`` grey: dark against
    paper, a thin line on another coin's face), a pale raised rim a millimetre wide
    (``rim`` grey) and a grey face."""
    radius = diameter_mm / 2 * PPM
    cv2.circle(image, centre, round(radius), (edge, edge, edge), -1, cv2.LINE_AA)
    cv2.circle(image, centre, round(radius - 0.5 * PPM), (rim, rim, rim), -1, cv2.LINE_AA)
    cv2.circle(image, centre, round(radius - 1.0 * PPM), (125, 125, 125), -1, cv2.LINE_AA)


def _nickels(count: int, stack_at: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A paper image of ``count`` nickels in a row; a dime lies on the one at ``stack_at``,
    half a millimetre off its middle."""
    image = np.full((120, 110 * count, 3), 200, np.uint8)
    centres = np.array([[55.0 + 110 * index, 60.0] for index in range(count)])
    for index, (column, row) in enumerate(centres.astype(int).tolist()):
        _coin(image, (column, row), SIZES["N"], 90, 170)
        if index == stack_at:
            _coin(image, (column + round(0.5 * PPM), row), SIZES["D"], 120, 150)
    blurred: np.ndarray = cv2.GaussianBlur(image, (0, 0), 1.6)
    return blurred, centres, np.full(count, SIZES["N"] / 2 * PPM + 0.5)


def test_a_dime_on_a_nickel_shows_its_rim_inside_the_nickels_and_a_lone_nickel_does_not(
) -> None:
    image, centres, outlines = _nickels(5, stack_at=3)
    rims, tops = RimConfig(), TopConfig()
    flags = np.zeros(image.shape[:2], np.uint8)
    top_radii = top_circles(rims, tops, image, flags, centres, outlines, PPM).radii
    # The top circle is the nickel's rim on every coin, the stack's too.
    assert np.all(np.abs(top_radii - (SIZES["N"] / 2 - 1.0) * PPM) < 0.6 * PPM), top_radii
    config = InnerStepConfig()
    steps = TopSteps(rims, tops, top_radii)
    radii = inner_step_radii(config, steps, image, centres, np.ones(5, bool), PPM)
    near = at_smaller_rims(config, top_radii, radii, [GAP_MM], PPM)
    assert near[:, 0].tolist() == [index == 3 for index in range(5)], radii / PPM
    # A coin not asked about is not measured.
    assert np.isnan(inner_step_radii(config, steps, image, centres, np.zeros(5, bool),
                                     PPM)).all()
