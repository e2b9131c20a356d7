"""A penny on paper the camera clipped white (issue 15): square e4 of stress frame 1064 (a
sloppy, laminated mat whose glare clips the paper's red and green), as the reader saw it at
2 px/mm, the normalised view and the view before the light was divided out. The penny shows
only as its darker rim, too faint over a coin-sized window for a seed; from its middle, the
rays find that rim with the fixed least step: what loses such a coin is the seed, not the
rays' floor (lowering the floor there outlined the coin's soft halo instead, 22 mm across)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.candidates import _flags
from vision.faces import clipped_mask
from vision.ray_samples import with_fourth_channel
from vision.rims import RimConfig, measure_outlines

FIXTURE = Path(__file__).parent / "data" / "clipped_paper_rings.npz"

#: Where the penny's ring lies in the crop (px): the middle of its darkest ring.
PENNY_MIDDLE = (70.5, 60.5)


def test_a_faint_rim_on_clipped_paper_is_outlined_from_the_coins_middle() -> None:
    with np.load(FIXTURE) as data:
        normalised, view = data["e4_normalised"], data["e4_view"]
        pixels_per_mm = float(data["pixels_per_mm"])
    flags = _flags(clipped_mask(view), np.zeros(view.shape[:2], np.uint8))
    assert (flags > 0).mean() > 0.5  # the paper is clipped
    outline = measure_outlines(RimConfig(), with_fourth_channel(normalised), flags,
                               np.array([PENNY_MIDDLE]), np.array([[1.0, 0.0]]), pixels_per_mm)
    assert outline.agreement[0] >= 0.6
    assert 19.0 < 2 * outline.radii_px[0] / pixels_per_mm < 21.5  # a penny, 19.05 mm
    assert 0.05 <= outline.contrast[0] < 0.12  # faint, yet over the presence test's floor
