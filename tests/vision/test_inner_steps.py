"""A dime lying on a nickel: the nickel's rim is the top circle, and the dime's own rim a
second circle inside it, as far in as the two kinds' edges lie apart
(:mod:`vision.inner_steps`). Real OpenCV on drawn coins; the rendered tables' figures are in
the commit that brought it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.inner_steps import InnerStepConfig, TopSteps, at_smaller_rims, inner_step_radii
from vision.rims import RimConfig
from vision.tops import TopConfig

from .test_inner_outlines import SIZES

#: Top-view pixels per mm: fine enough to draw a rim a millimetre wide.
PPM = 4.0

#: How far inside a nickel's edge a centred dime's lies (mm).
GAP_MM = (SIZES["N"] - SIZES["D"]) / 2


def _coin(image: np.ndarray, centre: tuple[float, float], diameter_mm: float, edge: int,
          rim: int) -> None:
    """A coin drawn as it shows from above (to a sixteenth of a pixel): a rounded edge half
    a millimetre wide (``edge`` grey: dark against paper, hardly darker than the rim on
    another coin's face), a raised rim as wide (``rim`` grey) and a grey face."""
    for inset_mm, grey in ((0.0, edge), (0.5, rim), (1.0, 125)):
        cv2.circle(image, (round(centre[0] * 16), round(centre[1] * 16)),
                   round((diameter_mm / 2 - inset_mm) * PPM * 16), (grey, grey, grey), -1,
                   cv2.LINE_AA, 4)


def _nickels(count: int, stack_at: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A paper image of ``count`` nickels in a row; a dime lies on the one at ``stack_at``,
    half a millimetre off its middle."""
    image = np.full((120, 110 * count, 3), 200, np.uint8)
    centres = np.array([[55.0 + 110 * index, 60.0] for index in range(count)])
    for index, (column, row) in enumerate(centres.tolist()):
        _coin(image, (column, row), SIZES["N"], 90, 170)
        if index == stack_at:
            _coin(image, (column + 0.5 * PPM, row), SIZES["D"], 145, 150)
    blurred: np.ndarray = cv2.GaussianBlur(image, (0, 0), 1.6)
    return blurred, centres, np.full(count, SIZES["N"] / 2 * PPM + 0.5)


def test_a_dime_on_a_nickel_shows_its_rim_inside_the_nickels_and_a_lone_nickel_does_not(
) -> None:
    image, centres, _ = _nickels(5, stack_at=3)
    # The top circle is the nickel's rim on every coin, the stack's too (as the renderer's
    # stacks show it: the dime's edge is a thin line on the nickel's face).
    top_radii = np.full(5, (SIZES["N"] / 2 - 1.0) * PPM)
    config = InnerStepConfig()
    steps = TopSteps(RimConfig(), TopConfig(), top_radii)
    radii = inner_step_radii(config, steps, image, centres, np.ones(5, bool), PPM)
    # The dime's rim lies a gap further in; a lone nickel's second circle is its own rim's
    # blurred foot, short of that.
    near = at_smaller_rims(config, top_radii, radii, [GAP_MM], PPM)
    assert near[:, 0].tolist() == [index == 3 for index in range(5)], radii / PPM
    assert abs(top_radii[3] - radii[3] - GAP_MM * PPM) < config.tolerance_mm * PPM
    # A coin not asked about, or with no top circle, is not measured.
    assert np.isnan(inner_step_radii(config, steps, image, centres, np.zeros(5, bool),
                                     PPM)).all()
    unfound = TopSteps(RimConfig(), TopConfig(), np.full(5, np.nan))
    assert np.isnan(inner_step_radii(config, unfound, image, centres, np.ones(5, bool),
                                     PPM)).all()
