"""The rises at an edge window only (:func:`vision.rims._squared_rises_at`) are the whole
rays' rises (:func:`vision.rims._squared_rises`) gathered there, to the bit, on rays sampled
from a rendered frame's top view."""

from __future__ import annotations

import numpy as np

from tests.vision.test_speed_exact_rays import _planes
from vision.ray_samples import gather_along_rays
from vision.rims import _squared_rises, _squared_rises_at


def test_rises_at_a_window_are_the_whole_rays_rises_gathered() -> None:
    planes = _planes()
    count, rays, length = planes[0].shape
    rng = np.random.default_rng(5)
    for reach in (1, 2):
        last = length - 1 - 2 * reach
        starts = rng.integers(0, last - 6, (count, rays, 1))
        positions = np.clip(starts + np.arange(-2, 8), 0, last)  # ends of the rays among them
        whole = gather_along_rays(_squared_rises(planes, reach), positions)
        at = _squared_rises_at(planes, reach, positions)
        assert at.dtype == np.float32 and np.array_equal(at, whole)
        assert (at > 0).mean() > 0.5  # rays over coins and paper, not blank ones
