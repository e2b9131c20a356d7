"""The fast inner-outline scores (:mod:`vision.inner_outline_circles`: one remap for every
coin and gap, integer colour changes, roots of the best only) are the plain ones
(:func:`plain_inner_outline_scores`, the score as first written) to the last bit, on the
coins the reader finds in a rendered frame, for the image of bytes it reads and for the same
image as floats."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import cv2
import numpy as np
import pytest

import vision.read
from vision import inner_outlines
from vision.inner_outline_circles import centre_offsets, fast_inner_outline_scores
from vision.inner_outlines import InnerOutlineConfig, inner_outline_doubts
from vision.read import read_frame
from vision.synth import random_scene, random_variation, render

from .helpers import CONFIG, GEOMETRY, PROFILE


def _plain_best_circles(config: InnerOutlineConfig, image: np.ndarray, centres: np.ndarray,
                  outline_radii: np.ndarray, gap_mm: float, pixels_per_mm: float) -> np.ndarray:
    """Per outline (``centres`` (C, 2), ``outline_radii`` (C,) px): the best score of circles
    ``gap_mm`` (or up to ``deeper_mm`` more) inside it, off its middle; NaN where none fits."""
    ppm = pixels_per_mm
    offsets = centre_offsets((gap_mm + config.sweep_allowance_mm) * ppm,
                              config.centre_step_mm * ppm, config.least_shift_mm * ppm)
    insets = np.arange(gap_mm, gap_mm + config.deeper_mm + 1e-9, config.radius_step_mm) * ppm
    radii = outline_radii[:, None] - insets[None, :]  # (C, R)
    turn = np.linspace(0, 2 * np.pi, config.angles, endpoint=False)
    unit = np.stack([np.cos(turn), np.sin(turn)], axis=1)  # (A, 2)
    across = config.across_mm * ppm
    # (C, M, R, A, 2): each circle's points on its edge, about its outline's middle.
    middles = (offsets[None, :, None, None, :]
               + radii[:, None, :, None, None] * unit[None, None, None])
    inside = (outline_radii[:, None, None, None] - np.hypot(middles[..., 0], middles[..., 1])
              >= config.inside_mm * ppm)  # (C, M, R, A)
    points = np.stack([middles + sign * across * unit for sign in (1.0, -1.0)])
    points += centres[None, :, None, None, None, :]
    flat = points.astype(np.float32).reshape(-1, config.angles, 2)
    samples = cv2.remap(image, flat[..., 0], flat[..., 1], cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)[..., :3].astype(np.float32)
    samples = samples.reshape(2, *inside.shape, 3)
    change = np.sqrt(((samples[0] - samples[1]) ** 2).sum(axis=-1))
    # The quantile of each circle's changes where it lies inside (NaN sorts last).
    counts = inside.sum(axis=-1)
    ordered = np.sort(np.where(inside, change, np.nan), axis=-1)
    rank = np.floor(config.quantile * np.maximum(counts - 1, 0)).astype(np.intp)
    quantiles = np.take_along_axis(ordered, rank[..., None], axis=-1)[..., 0]
    quantiles = np.where(counts >= config.least_arc * config.angles, quantiles, -np.inf)
    best = quantiles.reshape(len(centres), -1).max(axis=1)
    return np.where(np.isfinite(best), best, np.nan)


def plain_inner_outline_scores(
    config: InnerOutlineConfig, image: np.ndarray, centres: np.ndarray, radii: np.ndarray,
    gaps_mm: Sequence[float], looked: np.ndarray, pixels_per_mm: float,
) -> np.ndarray:
    """For each coin (top-face ``centres`` (N, 2) and outline ``radii`` (N,) px in the
    normalised ``image``) and each of ``gaps_mm`` where ``looked`` (N, G): the score of the
    best circle that far inside the outline, off its middle (NaN where not looked for)."""
    scores = np.full((len(centres), len(gaps_mm)), np.nan)
    for column, gap in enumerate(gaps_mm):
        rows = np.flatnonzero(looked[:, column])
        if len(rows):
            scores[rows, column] = _plain_best_circles(config, image, centres[rows], radii[rows],
                                                 float(gap), pixels_per_mm)
    return scores



def _reader_arguments(monkeypatch: pytest.MonkeyPatch, seed: int) -> tuple[Any, ...]:
    """What the reader passes to :func:`inner_outline_doubts` for a rendered frame."""
    calls: list[tuple[Any, ...]] = []

    def recorded(*arguments: Any) -> Any:
        calls.append(arguments)
        return inner_outline_doubts(*arguments)

    monkeypatch.setattr(vision.read, "inner_outline_doubts", recorded)
    image = render(random_scene(seed, random_variation(seed, 35.0)), seed).image
    read_frame(CONFIG, image, GEOMETRY, PROFILE)
    assert len(calls) == 1
    return calls[0]


def test_fast_scores_are_the_plain_scores_on_a_rendered_frame(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, image, centres, radii, *_, pixels_per_mm, _ = _reader_arguments(monkeypatch, 1001)
    config = InnerOutlineConfig()
    gaps = [1.0, 1.525, 3.175]
    # Every coin at every gap, and a ragged choice (some gaps with no coin at all).
    rng = np.random.default_rng(0)
    ragged = rng.random((len(centres), len(gaps))) < 0.4
    ragged[:, 0] = False
    for looked in (np.ones((len(centres), len(gaps)), bool), ragged):
        for picture in (image, image.astype(np.float32)):
            fast = fast_inner_outline_scores(config, picture, centres, radii, gaps, looked,
                                             pixels_per_mm)
            plain = plain_inner_outline_scores(config, picture, centres, radii, gaps, looked,
                                         pixels_per_mm)
            assert np.array_equal(fast, plain, equal_nan=True)
            assert np.isfinite(fast[looked]).mean() > 0.9  # coins, not empty circles


def test_doubts_bounding_the_lone_coins_first_are_the_doubts_of_every_score(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from tests.vision.test_inner_outlines import METALS, PPM, SIZES, _drawn_coins

    rendered = _reader_arguments(monkeypatch, 1001)
    monkeypatch.undo()
    image, centres, radii = _drawn_coins(8, stack_at=5)
    drawn = (InnerOutlineConfig(), image, centres, radii, ["Q"] * 8, np.full(8, 0.99), SIZES,
             METALS, PPM, np.ones(8, bool))
    bounded = [inner_outline_doubts(*arguments) for arguments in (rendered, drawn)]
    skipped: list[bool] = []
    original = inner_outlines._may_stand_out

    def watched(*arguments: Any) -> bool:
        skipped.append(not original(*arguments))
        return original(*arguments)

    monkeypatch.setattr(inner_outlines, "_may_stand_out", watched)
    bounded_again = inner_outline_doubts(*rendered)
    assert any(skipped)  # the rendered frame has a gap whose lone coins were only bounded

    def every_score(config: InnerOutlineConfig, image: Any, centres: Any, radii: Any,
                    gaps: Any, asked: Any, lone: Any, pixels_per_mm: float) -> Any:
        return plain_inner_outline_scores(config, image, centres, radii, gaps,
                                          asked | lone[:, None],
                                    pixels_per_mm)

    monkeypatch.setattr(inner_outlines, "_lone_and_asked_scores", every_score)
    plain = [inner_outline_doubts(*arguments) for arguments in (rendered, drawn)]
    assert np.array_equal(bounded[0], plain[0]) and np.array_equal(bounded_again, plain[0])
    assert np.array_equal(bounded[1], plain[1]) and plain[1].tolist() == [
        index == 5 for index in range(8)]
