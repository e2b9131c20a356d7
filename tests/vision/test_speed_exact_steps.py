"""The reader's shortcuts of the second speed pass give exactly what the plain computations
gave: the frame model's kept size likelihoods, the rays' paper levels, the circle fits'
conditioning test, the seeds' dilation by an ellipse, medians of floats, the view shrunk to
half once for every stage, and the labelling passes left out where nothing is to label."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.arrays import FloatArray
from vision.circle_fits import _conditioned
from vision.faces import plain_median
from vision.frame_model import _Frame
from vision.halves import half_size
from vision.pawns import PawnConfig, _without_mirrors
from vision.presence import _components
from vision.ray_profiles import paper_levels
from vision.seeds import dilated_by_ellipse

from .helpers import random_frame_fit


def test_the_fit_with_kept_size_likelihoods_is_the_fit_computed_afresh(
        monkeypatch: pytest.MonkeyPatch) -> None:
    kept = [random_frame_fit(seed) for seed in range(12)]
    monkeypatch.setattr(_Frame, "_size_parts", _Frame._size_parts.__wrapped__)  # type: ignore[attr-defined]
    for seed, fit in enumerate(kept):
        afresh = random_frame_fit(seed)
        assert np.array_equal(fit.probabilities, afresh.probabilities)
        assert fit.offset_mm == afresh.offset_mm and fit.tints == afresh.tints
        assert np.array_equal(fit.single, afresh.single)
        assert np.array_equal(fit.silver_field, afresh.silver_field)


def test_the_rays_paper_levels_are_the_medians_of_sorted_samples() -> None:
    rng = np.random.default_rng(3)
    for samples in (6, 5, 8):
        planes = [rng.integers(0, 256, (30, 48, 40)).astype(np.float32) for _ in range(3)]
        planes[1][:, :10, -samples:] = 200.0  # ties, as on plain paper
        planes[2][::2] = np.round(planes[2][::2] / 64) * 64  # few levels: more ties
        papers, seeds = paper_levels(planes, samples)
        for plane, paper, seed in zip(planes, papers, seeds, strict=True):
            ordered = np.sort(plane[:, :, -samples:], axis=-1)
            half = samples // 2
            expected = (ordered[..., half - 1] + ordered[..., half]) / 2
            assert paper.dtype == expected.dtype and np.array_equal(paper, expected)
            assert np.array_equal(seed, np.median(expected, axis=1))


def test_the_conditioning_shortcut_answers_as_the_condition_number() -> None:
    rng = np.random.default_rng(11)
    points = rng.normal(0, 30, (200, 48, 2))
    weights = rng.uniform(0, 1, (200, 48))
    weights[:20, 2:] = 0.0  # two points: a singular fit
    points[20:40, :, 1] = 3 * points[20:40, :, 0] + 5  # on one line
    across, down = points[..., 0], points[..., 1]
    rows = np.stack([across, down, np.ones_like(across), -(across**2 + down**2)], axis=1)
    sums = (rows * weights[:, None, :]) @ rows.transpose(0, 2, 1)
    # Conditioned about the limit, either side of it: decomposed.
    near_limit = [np.diag([1e9, 1.0, least]) for least in (5e-4, 9e-4, 2e-3, 1e-2)]
    matrices = np.concatenate([sums[:, :3, :3] + np.eye(3) * 1e-6, near_limit])
    expected = np.linalg.cond(matrices) < 1e12
    assert np.array_equal(_conditioned(matrices, 1e12), expected)
    assert expected.any() and not expected.all()


def test_dilating_by_the_ellipses_rectangles_is_dilating_by_the_ellipse() -> None:
    rng = np.random.default_rng(13)
    for size in (3, 5, 9, 13, 15, 21):
        for image in (rng.uniform(0, 70, (97, 131)).astype(np.float32),
                      rng.integers(0, 256, (60, 45)).astype(np.uint8)):
            ellipse = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
            assert np.array_equal(dilated_by_ellipse(image, size), cv2.dilate(image, ellipse))


def test_the_plain_median_is_numpys_median_of_floats() -> None:
    rng = np.random.default_rng(17)
    for dtype in (np.float32, np.float64):
        for shape, axis in (((40, 48), 1), ((3, 30, 48), 2), ((12, 33, 3), 1), ((7, 144), 1),
                            ((5, 1), 1), ((0, 6), 1), ((9, 4), 0)):
            values: FloatArray = rng.normal(size=shape).astype(dtype)
            values[::2] = np.round(values[::2], 1)  # ties
            found, expected = plain_median(values, axis), np.median(values, axis=axis)
            assert found.dtype == expected.dtype and np.array_equal(found, expected)


def test_the_kept_half_is_opencvs_shrink_of_the_view_as_each_stage_made_it() -> None:
    rng = np.random.default_rng(19)
    view = rng.integers(0, 256, (120, 96, 3)).astype(np.uint8)
    view.setflags(write=False)  # as the normalised view is
    half = half_size(view)
    assert half is half_size(view) and not half.flags.writeable  # made once, kept
    assert np.array_equal(half, cv2.resize(view, (48, 60), interpolation=cv2.INTER_AREA))
    assert np.array_equal(half, cv2.resize(view, None, fx=0.5, fy=0.5,
                                           interpolation=cv2.INTER_AREA))  # the seeds' call
    rendering = np.full((120, 96, 3), 200, np.uint8)
    rendering.setflags(write=False)  # the mat's, shrunk every frame before the view is
    kept = half_size(rendering)
    assert half_size(view) is half and half_size(rendering) is kept  # both kept
    changing = view.copy()  # writable: never kept, for it may change
    assert half_size(changing) is not half_size(changing)
    beneath = changing[:, :]  # read-only, over a writable array
    beneath.setflags(write=False)
    assert half_size(beneath) is not half_size(beneath)


def test_components_of_an_empty_mask_are_opencvs() -> None:
    rng = np.random.default_rng(23)
    for mask in (np.zeros((40, 30), np.uint8), (rng.random((40, 30)) < 0.1).astype(np.uint8) * 255):
        count, blobs, stats = _components(mask)
        expected_count, expected_blobs, expected_stats, _ = cv2.connectedComponentsWithStats(
            mask, connectivity=8)
        assert count == expected_count and np.array_equal(blobs, expected_blobs)
        assert np.array_equal(stats, expected_stats)


def _mirrors_removed(config: PawnConfig, labels: np.ndarray, brightest: np.ndarray
                     ) -> np.ndarray:
    """Pawn labels without the blobs brighter than paint, counted for every frame."""
    count, blobs, stats, _ = cv2.connectedComponentsWithStats(
        (labels > 0).astype(np.uint8), connectivity=8)
    bright = brightest > np.floor(config.paint_brightest * 200.0)
    glowing = np.bincount(blobs[bright], minlength=count)
    mirrors = glowing >= config.specular_share * np.maximum(stats[:, cv2.CC_STAT_AREA], 1)
    mirrors[0] = False
    return np.where(mirrors[blobs], 0, labels).astype(np.uint8)


def test_pawn_labels_with_no_pixel_brighter_than_paint_keep_every_blob() -> None:
    rng = np.random.default_rng(29)
    config = PawnConfig()
    labels = np.zeros((60, 60), np.uint8)
    labels[5:15, 5:15], labels[30:40, 20:35] = 1, 2
    for glint in (0, 40, 255):  # none, a few and many bright pixels on the second blob
        brightest = rng.integers(100, 215, (60, 60)).astype(np.uint8)
        brightest[30:40, 20:35][rng.random((10, 15)) < glint / 255] = 240
        assert np.array_equal(_without_mirrors(config, labels, brightest),
                              _mirrors_removed(config, labels, brightest))
