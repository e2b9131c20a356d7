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
from vision.synth import CameraPose, SynthScene, Variation, random_scene, random_variation, render

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
    search = markers.fit_lens

    def counted(*args: object, **kwargs: object) -> tuple[float, object, float]:
        result = search(*args, **kwargs)  # type: ignore[arg-type]
        searches.append(result[0])
        return result

    monkeypatch.setattr(markers, "fit_lens", counted)
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
    again = find_board(config, image, GEOMETRY)  # the same frame: exactly the fresh fit
    assert len(lens_fits) == searched
    assert np.array_equal(again.homography, fresh.homography)
    assert again.lens_k1 == fresh.lens_k1
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


def test_a_still_camera_finds_its_markers_where_they_were(
    lens_fits: list[float], monkeypatch: pytest.MonkeyPatch
) -> None:
    config = MarkerConfig()
    image = _image()
    find_board(config, image, GEOMETRY)
    size = (image.shape[1], image.shape[0])
    previous = markers._LENS_MEMORY.corners(config, GEOMETRY, size)
    assert previous is not None and len(previous) == 4
    grey = markers.to_grey(_image(replace(LENS, noise=3.0), {"e5": "D"}))
    scale = config.detect_width / grey.shape[1]
    small = markers._shrink(grey, scale)
    near = markers._detect_near(small, scale, previous)
    whole = markers._detect(small, scale)
    assert near.keys() == whole.keys() == previous.keys()
    assert all(np.array_equal(near[key], whole[key]) for key in whole)
    searches: list[float] = []
    search = markers._detect

    def counted(small: np.ndarray, scale: float) -> dict[int, np.ndarray]:
        searches.append(scale)
        return search(small, scale)

    monkeypatch.setattr(markers, "_detect", counted)
    find_board(config, image, GEOMETRY)
    assert searches == []  # found near where they were, no search of the whole frame


def test_a_covered_marker_sends_the_search_over_the_whole_frame(lens_fits: list[float]) -> None:
    config = MarkerConfig()
    image = _image()
    find_board(config, image, GEOMETRY)
    size = (image.shape[1], image.shape[0])
    previous = markers._LENS_MEMORY.corners(config, GEOMETRY, size)
    assert previous is not None
    covered = image.copy()
    left, top = np.floor(previous[0].min(axis=0)).astype(int) - 4
    right, bottom = np.ceil(previous[0].max(axis=0)).astype(int) + 4
    covered[top:bottom, left:right] = (60, 90, 150)  # a hand over marker 0
    scale = config.detect_width / image.shape[1]
    small = markers._shrink(markers.to_grey(covered), scale)
    assert markers._detect_near(small, scale, previous) == {}
    location = find_board(config, covered, GEOMETRY)
    assert location.markers_missing == (0,)


@pytest.mark.parametrize("seed", [3, 11, 29])
def test_markers_found_by_the_rough_search_refine_to_the_corners_of_a_full_search(
    seed: int,
) -> None:
    scene = random_scene(seed, random_variation(seed, 35.0))
    grey = markers.to_grey(render(scene, seed).image)
    scale = MarkerConfig().detect_width / grey.shape[1]
    small = markers._shrink(grey, scale)
    rough = markers._markers_in(small, scale, (0, 0), rough=True)
    full = markers._markers_in(small, scale, (0, 0))
    found = markers._detect(small, scale)
    assert len(rough) == 4 and rough.keys() == full.keys() == found.keys()
    assert all(np.array_equal(found[key], rough[key]) for key in rough)
    refined, reference = markers._refine(grey, found, scale), markers._refine(grey, full, scale)
    assert max(np.abs(refined[key] - reference[key]).max() for key in full) < 0.1


def test_markers_the_rough_search_misses_are_searched_for_in_the_whole_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    grey = markers.to_grey(_image())
    scale = MarkerConfig().detect_width / grey.shape[1]
    small = markers._shrink(grey, scale)
    full = markers._markers_in(small, scale, (0, 0))
    plain = markers._markers_in
    monkeypatch.setattr(  # the rough search sees only three markers
        markers, "_markers_in",
        lambda small, scale, offset, rough=False: (
            {key: value for key, value in plain(small, scale, offset, rough).items() if key}
            if rough else plain(small, scale, offset)
        ),
    )
    found = markers._detect(small, scale)
    assert found.keys() == full.keys() and len(found) == 4
    assert all(np.array_equal(found[key], full[key]) for key in full)
