"""The fast inner-outline scores (:mod:`vision.inner_outline_circles`: one remap for every
coin and gap, integer colour changes, roots of the best only) are the plain ones
(:func:`vision.inner_outlines.inner_outline_scores`) to the last bit, on the coins the reader
finds in a rendered frame, for the image of bytes it reads and for the same image as floats."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import vision.read
from vision import inner_outlines
from vision.inner_outline_circles import fast_inner_outline_scores
from vision.inner_outlines import InnerOutlineConfig, inner_outline_doubts, inner_outline_scores
from vision.read import read_frame
from vision.synth import random_scene, random_variation, render

from .helpers import CONFIG, GEOMETRY, PROFILE


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
            plain = inner_outline_scores(config, picture, centres, radii, gaps, looked,
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
        return inner_outline_scores(config, image, centres, radii, gaps, asked | lone[:, None],
                                    pixels_per_mm)

    monkeypatch.setattr(inner_outlines, "_lone_and_asked_scores", every_score)
    plain = [inner_outline_doubts(*arguments) for arguments in (rendered, drawn)]
    assert np.array_equal(bounded[0], plain[0]) and np.array_equal(bounded_again, plain[0])
    assert np.array_equal(bounded[1], plain[1]) and plain[1].tolist() == [
        index == 5 for index in range(8)]
