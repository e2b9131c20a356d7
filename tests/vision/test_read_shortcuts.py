"""The reading stage's shortcuts for speed give what the plain computations give."""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np
import pytest

from vision.errors import MatNotFoundError
from vision.light import PAPER, MatReference, divide_light, mat_reference
from vision.markers import find_board, forget_lens
from vision.read import VisionConfig, read_frame_details
from vision.rectify import TopView, _fine_maps, _lens_grid, rectify, view_bounds, view_homography
from vision.synth import random_scene, random_variation, render

from .helpers import GEOMETRY, PROFILE, rendered_top_view

CONFIG = VisionConfig()


def _plain_light(view: TopView) -> np.ndarray:
    """The light divided out as first written: the full-size light always clamped to 1."""
    config = CONFIG.read.light
    reference = _reference(view)
    ratio = cv2.divide(view.image, reference.image, scale=100.0)
    scale = config.light_pixels_per_mm / view.pixels_per_mm
    small = cv2.resize(ratio, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    window = int(config.light_window_mm * config.light_pixels_per_mm) | 1
    light = cv2.GaussianBlur(cv2.medianBlur(small, window), (0, 0), max(1.0, window / 6))
    light = cv2.resize(light, (ratio.shape[1], ratio.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.asarray(cv2.divide(ratio, np.maximum(light, 1), scale=PAPER))


def _reference(view: TopView) -> MatReference:
    config = CONFIG.read.light
    margin = GEOMETRY.play_area.left - view.origin_mm[0]
    return mat_reference(
        GEOMETRY, view.pixels_per_mm, margin, config.reference_blur_px, config.ink_band_mm
    )


@pytest.mark.parametrize("black", [False, True])
def test_the_light_is_clamped_only_where_it_reaches_black(black: bool) -> None:
    view = rendered_top_view(7)
    if black:  # a dark patch wider than the light's window: the light there is 0
        image = view.image.copy()
        image[100:400, 100:400] = 0
        view = TopView(image, view.pixels_per_mm, view.origin_mm)
    normalised = divide_light(CONFIG.read.light, view, _reference(view))
    assert np.array_equal(normalised, _plain_light(view))


@pytest.mark.parametrize("lens", [False, True])
def test_the_four_channel_warp_gives_the_plain_three_channel_warp(lens: bool) -> None:
    # A camera pose that puts part of the mat's margin outside the frame, so the warp also
    # samples beyond the frame's edge.
    scene = random_scene(31, random_variation(31, 35.0))
    image = render(scene, 31).image
    location = find_board(CONFIG.markers, image, scene.geometry)
    if not lens:
        location = dataclasses.replace(location, lens_k1=0.0)
    image = np.ascontiguousarray(image[200:-200, 300:-300])  # the board runs off the frame
    view = rectify(CONFIG.rectify, image, location, scene.geometry)
    _, _, width, height = view_bounds(CONFIG.rectify, scene.geometry)
    homography = view_homography(CONFIG.rectify, location, scene.geometry)
    if lens:
        grid = _lens_grid(homography, location, (width, height), CONFIG.rectify.map_step)
        map_x, map_y = _fine_maps(grid, (width, height), CONFIG.rectify.map_step)
        plain = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    else:
        plain = cv2.warpPerspective(
            image, homography, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
            borderMode=cv2.BORDER_REPLICATE,
        )
    assert view.image.shape == plain.shape == (height, width, 3)
    assert np.array_equal(view.image, plain)


def test_a_location_the_gate_found_skips_finding_the_board() -> None:
    scene = random_scene(44, random_variation(44, 35.0))
    image = render(scene, 44).image
    forget_lens()  # both searches fit the lens afresh, as the gate's own search would
    location = find_board(CONFIG.markers, image, scene.geometry)
    forget_lens()
    found = read_frame_details(CONFIG, image, scene.geometry, PROFILE)
    given = read_frame_details(CONFIG, image, scene.geometry, PROFILE, location)
    assert given.observation.regions == found.observation.regions
    assert given.location is location
    # Paint the markers over: finding them fails, but the given location still reads the board.
    blank = image.copy()
    for corners in location.to_image(
        np.concatenate(list(scene.geometry.marker_corners().values()))
    ).reshape(-1, 4, 2):
        inner = corners.mean(axis=0) + 0.8 * (corners - corners.mean(axis=0))  # not the border
        cv2.fillConvexPoly(blank, np.round(inner).astype(np.int32), (255, 255, 255))
    with pytest.raises(MatNotFoundError):
        find_board(CONFIG.markers, blank, scene.geometry)
    reading = read_frame_details(CONFIG, blank, scene.geometry, PROFILE, location)
    assert reading.observation.regions == given.observation.regions
