"""A lens refit that leaves the board where it was is no motion: the gate looks through the lens.

:mod:`vision.markers` refits the lens every so often (:class:`~vision.lens_memory.LensMemory`);
a refit trades a little lens distortion for a slightly different homography, so the homography
alone moves by pixels while the board, seen through homography and lens, moves by less than one.
"""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import coin_isolation_mat
from vision import synth
from vision.gate import SteadyGate
from vision.markers import BoardLocation, MarkerConfig, detect_markers, find_board, locate

GEOMETRY = coin_isolation_mat()
#: A camera with a clearly curved lens (k1 near 0.027), and the calibration layout on the mat.
SCENE = synth.SynthScene.build(
    {"c3": "P", "f3": "N", "c6": "D", "f6": "Q"}, {"d4": "red", "e5": "blue"}, GEOMETRY,
    synth.random_variation(1), layout_seed=1,
)


@pytest.fixture(scope="module")
def frames() -> list[np.ndarray]:
    return [synth.render_frame(SCENE, seed) for seed in range(8)]


def _refit(image: np.ndarray, location: BoardLocation, change: float) -> BoardLocation:
    """The board found again in ``image`` with the lens ``change`` away from ``location``'s:
    the homography is fitted to the markers through that lens, as a refit does."""
    quads = detect_markers(MarkerConfig(), image)
    return locate(MarkerConfig(), quads, GEOMETRY, location.image_size,
                  known_lens_k1=location.lens_k1 + change)


def _largest_shift(first: np.ndarray, second: np.ndarray) -> float:
    return float(np.linalg.norm(first - second, axis=1).max())


def test_a_lens_refit_moving_the_board_less_than_a_pixel_keeps_the_board_steady(
    frames: list[np.ndarray],
) -> None:
    location = find_board(MarkerConfig(), frames[0], GEOMETRY)
    refits = [_refit(frames[0], location, change) for change in (0.01, -0.01)]
    for refit in refits:
        # Through the lens the board stays put; the homography alone moves by pixels.
        assert _largest_shift(refit.play_area_polygon(GEOMETRY),
                              location.play_area_polygon(GEOMETRY)) < 1.0
        homography_only = [BoardLocation(found.homography, found.markers_found, (), 0.0,
                                         found.image_size) for found in (refit, location)]
        assert _largest_shift(*(found.play_area_polygon(GEOMETRY)
                                for found in homography_only)) > 2.5
    gate = SteadyGate(GEOMETRY)
    findings = [location] * 5 + [refits[0], refits[0], location, refits[1]]
    verdicts = [gate.update(0.1 * index, frames[index % len(frames)], finding)
                for index, finding in enumerate(findings)]
    assert [verdict.code for verdict in verdicts] == ["settling"] * 4 + ["steady"] * 5
    assert verdicts[-1].still_s == pytest.approx(0.8)


def test_a_board_that_really_moves_still_counts_as_moving(frames: list[np.ndarray]) -> None:
    """The lens is no excuse: the same frame moved by 4 pixels is motion."""
    gate = SteadyGate(GEOMETRY)
    for index in range(5):
        verdict, _ = gate.look(0.1 * index, frames[index])
    assert verdict.steady
    shifted = np.roll(frames[5], 4, axis=1)
    verdict, _ = gate.look(0.5, shifted)
    assert verdict.code == "moving"
