"""The reader's faster computations give exactly what the plain ones gave."""

from __future__ import annotations

import warnings
from typing import Any

import cv2
import numpy as np

from calibration.geometry import coin_isolation_mat
from vision.faces import nan_median
from vision.frame_statistics import best_split
from vision.light import (
    LightConfig,
    MatReference,
    _ink_gains,
    divide_light,
    mat_reference,
    normalise,
)
from vision.ray_samples import colour_planes, sample_rays, with_fourth_channel
from vision.rectify import RectifyConfig, TopView

from .helpers import rendered_top_view

GEOMETRY = coin_isolation_mat()


def _view() -> tuple[np.ndarray, float]:
    """A rectified top view of a rendered frame full of coins, and its scale."""
    view = rendered_top_view(1003)
    return view.image, view.pixels_per_mm


def _lit_view() -> tuple[LightConfig, TopView, MatReference, np.ndarray, np.ndarray]:
    """The light config, a rendered top view, its mat's reference, the view with the light
    divided out, and the ink gains' table taken from it."""
    image, pixels_per_mm = _view()
    config = LightConfig()
    reference = mat_reference(GEOMETRY, pixels_per_mm, RectifyConfig().margin_mm, 1.0,
                              config.ink_band_mm, config.dark_ink, config.dark_band_mm)
    view = TopView(image, pixels_per_mm, (0.0, 0.0))
    lit = divide_light(config, view, reference)
    return config, view, reference, lit, _ink_gains(config, lit, reference, pixels_per_mm)


def test_nan_median_is_numpys_to_the_bit_with_empty_rows_and_both_precisions() -> None:
    rng = np.random.default_rng(5)
    dtypes: tuple[type[np.floating[Any]], ...] = (np.float32, np.float64)
    for dtype in dtypes:
        for shape in ((40, 192), (30, 48), (12, 256, 3), (6, 1)):
            values = rng.normal(size=shape).astype(dtype)
            values[rng.random(shape) < 0.4] = np.nan
            values[0] = np.nan  # a row with nothing to take the median of
            values[1] = np.round(values[1], 1)  # ties
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", RuntimeWarning)
                expected = np.nanmedian(values, axis=1)
            found = nan_median(values, axis=1)
            assert found.dtype == expected.dtype
            assert np.array_equal(found, expected, equal_nan=True)


def _split_by_loop(order: np.ndarray, least_gap: float, least_spread: float) -> float | None:
    """The colour split as the frame model first computed it, one split at a time."""
    best, split = 0.0, None
    for index in range(1, len(order)):
        low, high = order[:index], order[index:]
        gap = high.mean() - low.mean()
        spread = np.sqrt((low.var() * len(low) + high.var() * len(high)) / len(order))
        score = gap / max(spread, least_spread)
        if gap >= least_gap and score > best:
            best, split = score, (order[index - 1] + order[index]) / 2
    return split


def test_the_colour_split_from_running_sums_is_the_split_of_the_loop() -> None:
    rng = np.random.default_rng(7)
    found_none = found_some = 0
    for trial in range(120):
        silver = rng.normal(0.0, 0.04, rng.integers(0, 30))
        copper = rng.normal(rng.uniform(0.0, 0.4), 0.04, rng.integers(0, 20))
        order = np.sort(np.concatenate([silver, copper]))
        if trial % 3 == 0:
            order = np.round(order, 2)  # equal colours
        expected = _split_by_loop(order, 0.1, 0.03)
        assert best_split(order, 0.1, 0.03) == expected
        found_none += expected is None
        found_some += expected is not None
    assert found_none and found_some  # both outcomes were exercised


def test_ink_gains_from_opencvs_histogram_are_the_gains_of_bincount() -> None:
    config, view, reference, lit, table = _lit_view()
    pixels_per_mm = view.pixels_per_mm
    # The same table from numpy's bincount, as the gains were first computed.
    small = cv2.resize(lit, None, fx=1 / pixels_per_mm, fy=1 / pixels_per_mm,
                       interpolation=cv2.INTER_AREA)
    tones = cv2.resize(reference.image, (small.shape[1], small.shape[0]),
                       interpolation=cv2.INTER_AREA)
    width = 256 // config.ink_levels
    least = config.least_ink_share * tones.shape[0] * tones.shape[1]
    centres = np.arange(config.ink_levels) * width + width / 2
    for channel in range(3):
        band = (tones[:, :, channel] // width).astype(np.intp).ravel()
        counts = np.bincount(band * 256 + small[:, :, channel].ravel(),
                             minlength=config.ink_levels * 256)
        cumulative = counts.reshape(config.ink_levels, 256).cumsum(axis=1)
        used = cumulative[:, -1] >= max(least, 1)
        medians = np.argmax(cumulative >= cumulative[:, -1:] / 2, axis=1)
        gains = np.interp(np.arange(256), centres[used], 200.0 / np.maximum(medians[used], 1))
        assert np.array_equal(table[:, 0, channel], gains.astype(np.float32))


def test_the_gains_product_rounded_apart_is_opencvs_byte_product() -> None:
    """The normalised view is the light-divided view times its tones' gains, rounded to
    bytes as OpenCV's multiply of a byte plane by a float one into bytes rounds them."""
    config, view, reference, lit, table = _lit_view()
    plain = cv2.merge([cv2.multiply(plane, cv2.LUT(tones, np.ascontiguousarray(table[:, :, c])),
                                    dtype=cv2.CV_8U)
                       for c, (plane, tones) in enumerate(zip(cv2.split(lit), reference.planes,
                                                              strict=True))])
    assert np.array_equal(normalise(config, view, reference), plain)


def test_rays_sampled_with_a_fourth_channel_read_the_same_colours() -> None:
    image, pixels_per_mm = _view()
    rng = np.random.default_rng(3)
    height, width = image.shape[:2]
    centres = rng.uniform([0, 0], [width, height], (40, 2))
    radii = np.arange(3.0, 17.0, 0.25) * pixels_per_mm
    plain = colour_planes(sample_rays(image, centres, 48, radii))
    faster = colour_planes(sample_rays(with_fourth_channel(image), centres, 48, radii))
    assert len(faster) == 3
    for mine, theirs in zip(faster, plain, strict=True):
        assert np.array_equal(mine, theirs)
    grey = np.ascontiguousarray(image[..., 0])
    assert with_fourth_channel(grey) is grey  # only a colour image gets a fourth channel
