"""A coin's second seed is that coin again: it is not measured, and the coin's outline is
the one its stronger seed finds alone; a weaker seed on another coin is measured."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision import rims
from vision.light import PAPER
from vision.rims import RimConfig, measure_outlines

PIXELS_PER_MM = 2.0


def _two_coins(gap: float = 130.0) -> tuple[np.ndarray, np.ndarray, list[float]]:
    """Normalised paper (with the rays' fourth channel) with two coins ``gap`` px apart (a
    penny-dark one and a grey one, 19 and 24 mm across, their rims a little blurred), and
    the coins' middles and radii (px)."""
    paper = np.full((200, 320, 3), PAPER, np.uint8)
    middles = np.array([[90.0, 100.0], [90.0 + gap, 100.0]])
    radii = [9.5 * PIXELS_PER_MM, 12.0 * PIXELS_PER_MM]
    for (x, y), radius, colour in zip(middles, radii, ((70, 95, 150), (150, 150, 150)),
                                      strict=True):
        cv2.circle(paper, (round(x), round(y)), round(radius), colour, -1, cv2.LINE_AA)
    blurred = cv2.GaussianBlur(paper, (0, 0), 1.0)
    return np.asarray(cv2.cvtColor(blurred, cv2.COLOR_BGR2BGRA)), middles, radii


def _measure(image: np.ndarray, seeds: np.ndarray) -> rims.CoinOutlines:
    flags = np.zeros(image.shape[:2], np.uint8)
    lean = np.tile([1.0, 0.0], (len(seeds), 1))
    return measure_outlines(RimConfig(), image, flags, seeds, lean, PIXELS_PER_MM)


def test_a_coins_second_seed_is_not_measured_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    image, middles, radii = _two_coins()
    # Strongest first: the first coin's off-centre seed, the second coin's, then a weaker
    # seed on each coin: the first coin's other side, the second coin's (no stronger seed
    # lies within a coin's breadth of the second coin's first seed, so it goes first).
    seeds = np.array([middles[0] + [-5.0, 2.0], middles[1] + [3.0, -4.0],
                      middles[0] + [7.0, -3.0], middles[1] + [-8.0, 5.0]])
    measured: list[int] = []
    plain = rims._ray_edges

    def counted(*arguments: object) -> rims._RayEdges:
        measured.append(len(arguments[3]))  # type: ignore[arg-type]
        return plain(*arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(rims, "_ray_edges", counted)
    outlines = _measure(image, seeds)
    # Two seeds' first rays, then the two coins' refined rays: the second seeds are not
    # measured.
    assert measured[0] == 2 and sum(measured[:-1]) == 2
    for row, coin in ((0, 0), (1, 1)):
        assert outlines.agreement[row] > 0.9
        assert np.hypot(*(outlines.centres[row] - middles[coin])) < 1.0
        assert abs(outlines.radii_px[row] - radii[coin]) < 1.5
    for row, coin in ((2, 0), (3, 1)):
        # No outline of its own: nothing to refine, but it lies on its coin.
        assert outlines.agreement[row] == 0.0
        assert np.hypot(*(outlines.centres[row] - middles[coin])) < radii[coin]
    alone = _measure(image, seeds[:2])
    assert np.array_equal(alone.centres, outlines.centres[:2])
    assert np.array_equal(alone.radii_px, outlines.radii_px[:2])


def test_a_weaker_seed_off_every_settled_coin_is_measured() -> None:
    image, middles, _ = _two_coins(gap=47.0)
    # The second coin's seed lies within a coin's breadth of the first coin's (30 mm), so
    # it waits for the first coin's circle, but lies outside it: it is measured.
    seeds = np.array([middles[0] + [5.0, 0.0], middles[1] + [-5.0, 0.0]])
    assert np.hypot(*(seeds[0] - seeds[1])) < 2 * RimConfig().most_radius_mm * PIXELS_PER_MM
    outlines = _measure(image, seeds)
    assert outlines.agreement[1] > 0.9
    assert np.hypot(*(outlines.centres - middles).T).max() < 1.0
