"""A smaller coin lying nearly centred on a larger one leaves a darker ring at its foot, the
step of a coin's thickness, where its outline lies too close to the rim's to be looked for
off the middle (:mod:`vision.step_rings`). Real OpenCV on drawn discs; the rendered
tables' figures are in the commit that brought it."""

from __future__ import annotations

import cv2
import numpy as np

from vision.inner_outlines import InnerOutlineConfig, inner_outline_doubts
from vision.step_rings import StepRingConfig, foot_dips, radial_brightness, stands_out

from .test_inner_outlines import METALS, PPM, SIZES

#: How far inside a quarter's edge a nickel's lies when centred (mm).
GAP_MM = (SIZES["Q"] - SIZES["N"]) / 2


def _quarters(count: int, stack_at: int, shiny_at: int | None = None
              ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A paper image of ``count`` quarters in a row (a darker rounded edge, a raised rim, a
    grey face); the one at ``stack_at`` has a nickel lying on its middle, the
    quarter's face in shadow at its foot, and the one at ``shiny_at`` mirrors the room: a
    bright face inside its rim."""
    image = np.full((120, 60 * count, 3), 200, np.uint8)
    centres = np.array([[30.0 + 60 * index, 60.0] for index in range(count)])
    radius = SIZES["Q"] / 2 * PPM
    for index, centre in enumerate(centres):
        point = (round(centre[0]), round(centre[1]))
        cv2.circle(image, point, round(radius), (95, 95, 95), -1, cv2.LINE_AA)
        cv2.circle(image, point, round(radius - 1), (140, 140, 140), -1, cv2.LINE_AA)
        face = 210 if index == shiny_at else 120
        cv2.circle(image, point, round(radius - 2), (face, face, face), -1, cv2.LINE_AA)
        if index == stack_at:
            top = point
            nickel = SIZES["N"] / 2 * PPM
            cv2.circle(image, top, round(nickel + 1), (60, 60, 60), -1, cv2.LINE_AA)
            cv2.circle(image, top, round(nickel), (125, 125, 125), -1, cv2.LINE_AA)
    blurred: np.ndarray = cv2.GaussianBlur(image, (0, 0), 0.8)
    return blurred, centres, np.full(count, radius + 0.5)


def test_the_foot_of_a_centred_top_coin_is_a_dip_and_a_shiny_face_is_not() -> None:
    image, centres, radii = _quarters(8, stack_at=5, shiny_at=2)
    config = StepRingConfig()
    insets, brightness = radial_brightness(config, image, centres, radii,
                                           GAP_MM + config.face_to_mm, PPM)
    dips = foot_dips(config, insets, brightness, GAP_MM)
    others = np.delete(dips, 5)
    assert dips[5] > others.max() + 8, dips
    # The shiny quarter's face is brighter than its rim: no ring darker than either side.
    assert dips[2] <= 0, dips
    lone = np.array([0, 1, 2, 3, 4, 6, 7])
    assert stands_out(config, dips, lone, 5, False).tolist() == [
        index == 5 for index in range(8)]


def test_a_centred_nickel_on_a_quarter_makes_it_a_doubt() -> None:
    image, centres, radii = _quarters(8, stack_at=5)
    doubts = inner_outline_doubts(InnerOutlineConfig(), image, centres, radii, ["Q"] * 8,
                                  np.full(8, 0.99), SIZES, METALS, PPM, np.ones(8, bool))
    assert doubts.tolist() == [index == 5 for index in range(8)]
