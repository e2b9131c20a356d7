"""How finely the camera sees the mat, measured from where the markers put it, and the advice
the players get when a camera is too coarse to tell the coins' sizes apart."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from bench.bench_ring_read import random_position, table_scene
from calibration.geometry import mat_for_game
from companion.games import get_game
from companion.games.jokers_and_coins import GAME
from companion.screen_view import _message
from companion.table import starting_referee
from vision.frame_model import fit_frame
from vision.frame_priors import FrameModelConfig
from vision.markers import MarkerConfig, find_board
from vision.synth import random_scene, random_variation, render
from vision.view_scale import LEAST_PIXELS_PER_MM, coarse_view_advice, seen_pixels_per_mm

from .helpers import COIN_SIZES_MM, FRAME_PRIORS


def _located(players: int, size: tuple[int, int]):
    geometry = mat_for_game(GAME.info.mat, players=players)
    scene = replace(table_scene(3, random_position(3, players), geometry, size),
                    variation=random_variation(1))
    return find_board(MarkerConfig(), render(scene, 3).image, geometry), geometry


@pytest.mark.parametrize(("size", "coarse"), [((1920, 1080), True), ((3840, 2160), False)])
def test_a_six_seat_mat_is_too_coarse_for_a_1080p_camera_and_not_for_a_4k_one(
        size: tuple[int, int], coarse: bool) -> None:
    location, geometry = _located(6, size)
    scale = seen_pixels_per_mm(location, geometry)
    # The whole mat's far side, foreshortened by the tilt, is seen at most at the
    # picture's shorter side over the mat's longer one.
    assert scale <= min(size) / max(geometry.width_mm, geometry.height_mm) * 1.05
    advice = coarse_view_advice(location, geometry)
    assert (advice is not None) == coarse == (scale < LEAST_PIXELS_PER_MM)
    if advice is not None:
        assert f"{scale:.2f} pixels per mm" in advice and "4K" in advice


def test_the_advice_stands_beside_the_referees_news_but_never_over_trouble() -> None:
    view = starting_referee(get_game("coin-isolation"), 2, (), 1).view()
    advice = "The camera sees the mat at 0.60 pixels per mm, too coarse."
    beside = _message(view, None, advice)
    assert beside.severity == "warning" and beside.text == f"{view.message} {advice}".strip()
    assert _message(view, None, None).text == view.message
    trouble = replace(view, device_trouble=("The panel is unplugged.",))
    assert _message(trouble, None, advice).text == "The panel is unplugged."


def test_coin_isolation_seen_by_a_1080p_camera_at_a_tilt_needs_no_advice() -> None:
    scene = random_scene(1001, random_variation(1001, 35.0))
    image = render(scene, 1001).image
    assert image.shape[:2] == (1080, 1920)
    location = find_board(MarkerConfig(), image, scene.geometry)
    assert seen_pixels_per_mm(location, scene.geometry) >= LEAST_PIXELS_PER_MM
    assert coarse_view_advice(location, scene.geometry) is None


def test_a_size_a_step_off_is_less_sure_where_a_camera_pixel_spans_more_of_the_mat() -> None:
    """Four coins of each kind at their sizes and a nickel measured 2.2 mm large (nearer a
    quarter's size): seen at 2.3 mm a camera pixel (a 1080p camera over the six-seat ring), its
    size is less sure than at 1 mm a pixel, where the frame reads as if unknown."""
    rng = np.random.default_rng(0)
    kinds = [*"PNDQ" * 4, "N"]
    diameters = np.array([COIN_SIZES_MM[kind] for kind in kinds]) + 1.0
    diameters += rng.normal(0, 0.3, len(kinds))
    diameters[-1] = COIN_SIZES_MM["N"] + 1.0 + 2.2
    colours = np.array([(0.2, -0.1) if kind == "P" else (0.0, 0.0) for kind in kinds])
    colours += rng.normal(0, 0.02, colours.shape)
    positions = rng.uniform(0, 400, (len(kinds), 2))

    def fitted(pixel_mm: float | None) -> tuple[list[str], np.ndarray]:
        spans = None if pixel_mm is None else np.full(len(kinds), pixel_mm)
        return fit_frame(FrameModelConfig(), FRAME_PRIORS, positions, diameters,
                         np.ones(len(kinds)), colours, pixel_mm=spans).best()

    (unknown, unknown_sure), (fine, fine_sure) = fitted(None), fitted(1.0)
    coarse, coarse_sure = fitted(2.3)
    assert fine == unknown == coarse == [*kinds[:-1], "Q"]
    assert np.array_equal(fine_sure, unknown_sure)
    assert coarse_sure[-1] < fine_sure[-1] - 0.05


def test_a_silver_coin_swollen_by_a_coarse_view_keeps_its_size_and_its_top_circle_adds_nothing(
) -> None:
    """A nickel whose outline and top circle both measure 1.8 mm large, as a coarse camera's
    blur swells a silver coin's faint edge: seen at 2.3 mm a camera pixel it stays a nickel
    (its size allows for the swelling, and its top circle, a millimetre inside the outline,
    is no second sight of it), where its top circle changes nothing; at 1 mm a pixel it is
    weighed as before."""
    rng = np.random.default_rng(0)
    kinds = [*"PNDQ" * 4, "N"]
    sizes = np.array([COIN_SIZES_MM[kind] for kind in kinds])
    diameters = sizes + 1.0 + rng.normal(0, 0.3, len(kinds))
    tops = sizes - 2.0 + rng.normal(0, 0.3, len(kinds))
    diameters[-1], tops[-1] = sizes[-1] + 1.0 + 1.8, sizes[-1] - 2.0 + 1.8
    colours = np.array([(0.2, -0.1) if kind == "P" else (0.0, 0.0) for kind in kinds])
    colours += rng.normal(0, 0.02, colours.shape)
    positions = rng.uniform(0, 400, (len(kinds), 2))
    unseen_top = np.where(np.arange(len(kinds)) == len(kinds) - 1, np.nan, tops)

    def fitted(pixel_mm: float, inner: np.ndarray) -> np.ndarray:
        spans = np.ones(len(kinds))
        spans[-1] = pixel_mm
        return fit_frame(FrameModelConfig(), FRAME_PRIORS, positions, diameters,
                         np.ones(len(kinds)), colours, inner_mm=inner,
                         pixel_mm=spans).probabilities

    coarse = fitted(2.3, tops)
    assert np.array_equal(coarse, fitted(2.3, unseen_top))
    assert [FRAME_PRIORS[int(kind)].kind for kind in coarse.argmax(axis=1)] == kinds
    assert not np.array_equal(fitted(1.0, tops), fitted(1.0, unseen_top))
