"""Work the reader no longer does gives what doing it gave: faces of outlines that can be no
coin, and rays sampled beyond where the decision looks."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import coin_isolation_mat
from vision import rims
from vision.candidates import Candidates, _faces_of_possible_coins, coin_presence
from vision.faces import clipped_mask, edge_colours, face_colours
from vision.ray_samples import with_fourth_channel
from vision.read_config import CoinConfig
from vision.rims import (
    GLINT_FLAG,
    PAWN_FLAG,
    WHITE_FLAG,
    CoinOutlines,
    RimConfig,
    _circle_profile,
)

from .helpers import rendered_top_view

GEOMETRY = coin_isolation_mat()


def _view() -> tuple[np.ndarray, float]:
    """A rectified top view of a rendered frame full of coins, and its scale."""
    view = rendered_top_view(1004)
    return view.image, view.pixels_per_mm


def _outlines(count: int, image: np.ndarray, pixels_per_mm: float) -> CoinOutlines:
    """Outlines anywhere on the view, of coin sizes, their agreement from none to full."""
    rng = np.random.default_rng(5)
    height, width = image.shape[:2]
    agreement = rng.choice([0.0, 0.1, 0.2, 0.25, 0.2500001, 0.3, 0.4, 0.7, 1.0], count)
    return CoinOutlines(rng.uniform([0, 0], [width, height], (count, 2)),
                        rng.uniform(7, 13, count) * pixels_per_mm, np.zeros(count), agreement,
                        rng.uniform(0, 0.5, count), np.zeros(count), np.zeros(count, bool))


def test_faces_are_measured_where_a_coin_may_be_and_read_nowhere_else() -> None:
    image, pixels_per_mm = _view()
    config = CoinConfig()
    outlines = _outlines(120, image, pixels_per_mm)
    clipped = clipped_mask(image)
    pawns = np.zeros(image.shape[:2], np.uint8)
    pawns[100:300, 200:500] = 255  # a pawn's mask over some of the faces
    tops = outlines.centres + 2.0
    radii = 0.8 * outlines.radii_px
    faces, edges = _faces_of_possible_coins(config, image, clipped, pawns, outlines.centres,
                                            radii, tops, outlines)
    every = face_colours(image, clipped, pawns, outlines.centres, radii)
    every_edge = edge_colours(image, tops, outlines.radii_px, pawns)
    count = len(outlines.agreement)
    candidates = Candidates(
        np.zeros((count, 2)), np.zeros((count, 2)), np.full(count, 20.0), np.full(count, np.nan),
        every.colours, every_edge, outlines.agreement, np.zeros(count), every.on_pawn > 0.5,
        every.clipped, np.ones(count), np.ones(count), np.zeros(count, np.intp),
        np.zeros(count, np.intp), np.ones(count, bool), np.zeros((count, 2)), np.zeros(count),
        np.ones(count), np.zeros(count, bool))
    present = coin_presence(config, candidates) > 0
    assert present.any() and (~present).any()
    for name in ("colours", "brightness", "on_pawn", "clipped"):
        assert np.array_equal(getattr(faces, name)[present], getattr(every, name)[present],
                              equal_nan=True)
    assert np.array_equal(edges[present], every_edge[present], equal_nan=True)
    assert np.isnan(faces.colours[~present]).all() and np.isnan(edges[~present]).all()
    assert not faces.on_pawn[~present].any() and not faces.clipped[~present].any()


def _whole_rays(config: RimConfig, image: np.ndarray, flags: np.ndarray, centres: np.ndarray,
                radii: np.ndarray, guesses: np.ndarray, window: float
                ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The rises along the whole of every ray, as the profile first read them."""
    rise, middles, marks = rims._marked_rises(config, image, flags, centres, radii)
    return rise, np.broadcast_to(middles, (len(centres), len(middles))), marks


def test_the_circle_profile_from_the_rays_near_the_guess_is_the_whole_rays_profile(
        monkeypatch: pytest.MonkeyPatch) -> None:
    image, pixels_per_mm = _view()
    config = RimConfig()
    rng = np.random.default_rng(9)
    height, width = image.shape[:2]
    count = 150
    centres = rng.uniform([0, 0], [width, height], (count, 2))
    # Guesses of every size, some beyond the rays' ends (no window inside them at all).
    guesses = rng.uniform(1.0, 20.0, count) * pixels_per_mm
    radii = np.arange(config.ray_begin_mm, config.ray_end_mm, config.ray_step_mm) * pixels_per_mm
    flags = np.zeros(image.shape[:2], np.uint8)
    flags[200:400, 300:700] = PAWN_FLAG
    flags[image.max(axis=2) >= 250] |= GLINT_FLAG
    flags[image.min(axis=2) >= 250] |= WHITE_FLAG
    rays_image = with_fourth_channel(image)
    near = _circle_profile(config, rays_image, flags, centres, guesses, radii, pixels_per_mm)
    monkeypatch.setattr(rims, "_rises_near", _whole_rays)
    whole = _circle_profile(config, rays_image, flags, centres, guesses, radii, pixels_per_mm)
    for mine, theirs in zip(near, whole, strict=True):
        assert np.array_equal(mine, theirs)
    assert (near[1] > 0.5).sum() >= 1  # some rays from the centres show an edge


def test_rays_that_cross_no_pawn_are_clear_of_one_as_the_full_test_finds() -> None:
    rng = np.random.default_rng(4)
    radii = np.arange(3.0, 17.0, 0.25) * 3.2
    on_pawn = rng.random((60, 48, len(radii))) < 0.02
    on_pawn[rng.random(60) < 0.6] = False  # most seeds' rays cross no pawn
    edge = rng.uniform(radii[0] - 5, radii[-1] + 5, (60, 48))
    fast = rims._pawn_near_edge(on_pawn, edge, radii, 4)
    # The plain test of every ray: a pawn sample within four samples of its edge.
    at = np.searchsorted(radii, edge)
    near = np.clip(at[..., None] + np.arange(-4, 5), 0, len(radii) - 1)
    full = np.take_along_axis(on_pawn, near, axis=2).any(axis=2)
    assert fast.any() and np.array_equal(fast, full)
