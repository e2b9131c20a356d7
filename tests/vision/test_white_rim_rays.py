"""A nickel in a glint (issue 15): square c2 of cold frame 24 (a warm lamp, a cold window the
flat coins mirror), as the reader saw it at 2 px/mm, the normalised view and the view before
the light was divided out. The glint's bloom clips the face and the paper about it white on
one side, where no ray can show the rim's step: on the rays that can, the rim is a nickel's.
Rays clipped white at the edge are set aside, lifting the outline to acceptance and no
further (:attr:`vision.rims.RimConfig.blind_lift`); without them it was read empty."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.candidates import _flags
from vision.faces import clipped_mask
from vision.ray_samples import with_fourth_channel
from vision.rims import WHITE_FLAG, RimConfig, measure_outlines

FIXTURE = Path(__file__).parent / "data" / "white_rim_nickel.npz"


def _outline(white: bool) -> tuple[float, float, bool]:
    """The outline from the nickel's middle: diameter (mm), agreement, lifted; ``white``:
    whether the flags mark where the camera clipped the view white."""
    with np.load(FIXTURE) as data:
        normalised, view = data["normalised"], data["view"]
        pixels_per_mm, middle = float(data["pixels_per_mm"]), data["middle"]
    flags = _flags(clipped_mask(view), np.zeros(view.shape[:2], np.uint8))
    if not white:
        flags &= ~np.uint8(WHITE_FLAG)
    outline = measure_outlines(RimConfig(), with_fourth_channel(normalised), flags,
                               middle[None, :], np.array([[1.0, 0.0]]), pixels_per_mm)
    return (2 * float(outline.radii_px[0]) / pixels_per_mm, float(outline.agreement[0]),
            bool(outline.lifted[0]))


def test_rays_clipped_white_at_the_rim_lift_a_glinting_coin_to_acceptance_only() -> None:
    diameter, agreement, lifted = _outline(white=True)
    assert lifted and agreement == RimConfig().blind_lift
    assert 20.0 < diameter < 22.5  # a nickel, 21.21 mm
    blind_diameter, blind_agreement, blind_lifted = _outline(white=False)
    assert not blind_lifted and blind_agreement < RimConfig().blind_lift
    assert abs(blind_diameter - diameter) < 1e-9  # the same rim: only its evidence differs
