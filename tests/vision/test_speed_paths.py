"""The shortcuts taken for speed give what the plain computations give."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import replace

import numpy as np
import pytest

import vision.markers as markers
from calibration.geometry import coin_isolation_mat
from vision.allocator import keep_freed_memory
from vision.markers import BoardLocation, MarkerConfig, find_board, forget_lens
from vision.synth import CameraPose, SynthScene, Variation, render

GEOMETRY = coin_isolation_mat()
LENS = Variation(pose=CameraPose(tilt_deg=20.0), lens_k1=-0.03, noise=2.0, jpeg_quality=90)


def test_allocator_tuning_is_applied_once_and_harmless() -> None:
    first = keep_freed_memory()
    assert keep_freed_memory() is first
    if sys.platform.startswith("linux") and first:
        assert isinstance(bytearray(40 << 20), bytearray)  # large allocations still work


@pytest.fixture
def lens_fits(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[float]]:
    """Counts lens searches; the lens memory starts and ends empty."""
    searches: list[float] = []
    search = markers._fit_lens

    def counted(*args: object, **kwargs: object) -> tuple[float, object, float]:
        result = search(*args, **kwargs)  # type: ignore[arg-type]
        searches.append(result[0])
        return result

    monkeypatch.setattr(markers, "_fit_lens", counted)
    forget_lens()
    yield searches
    forget_lens()


def _image(variation: Variation = LENS, coins: dict[str, str] | None = None) -> np.ndarray:
    return render(SynthScene.build(coins or {"d4": "Q"}, {}, GEOMETRY, variation)).image


def _apart_px(one: BoardLocation, other: BoardLocation) -> float:
    left, top, right, bottom = GEOMETRY.play_area.bounds()
    corners = [(left, top), (right, top), (right, bottom), (left, bottom), (260.0, 260.0)]
    return float(np.linalg.norm(one.to_image(corners) - other.to_image(corners), axis=1).max())


def test_a_still_camera_reuses_its_lens_and_finds_the_board_where_a_fresh_fit_does(
    lens_fits: list[float],
) -> None:
    config = MarkerConfig()
    image = _image()
    fresh = find_board(config, image, GEOMETRY)
    searched = len(lens_fits)
    assert searched > 0
    # The same camera a moment later: other coins, other noise, markers where they were.
    later = _image(replace(LENS, noise=3.0), {"d4": "Q", "e5": "P", "c3": "N"})
    reused = find_board(config, later, GEOMETRY)
    assert len(lens_fits) == searched  # no lens search
    assert reused.lens_k1 == fresh.lens_k1
    forget_lens()
    refitted = find_board(config, later, GEOMETRY)
    assert len(lens_fits) > searched
    assert _apart_px(reused, refitted) < 0.1


def test_a_moved_camera_fits_its_lens_again(lens_fits: list[float]) -> None:
    config = MarkerConfig()
    find_board(config, _image(), GEOMETRY)
    searched = len(lens_fits)
    moved = _image(replace(LENS, pose=CameraPose(tilt_deg=22.0, rotation_deg=1.0)))
    location = find_board(config, moved, GEOMETRY)
    assert len(lens_fits) > searched
    forget_lens()
    assert _apart_px(location, find_board(config, moved, GEOMETRY)) == 0.0


def test_the_lens_is_fitted_again_after_lens_reuse_frames(lens_fits: list[float]) -> None:
    config = MarkerConfig(lens_reuse_frames=2)
    image = _image()
    for _ in range(3):
        find_board(config, image, GEOMETRY)
    searched = len(lens_fits)
    find_board(config, image, GEOMETRY)
    assert len(lens_fits) > searched
    never = MarkerConfig(lens_reuse_frames=0)
    find_board(never, image, GEOMETRY)
    searched = len(lens_fits)
    find_board(never, image, GEOMETRY)
    assert len(lens_fits) > searched
