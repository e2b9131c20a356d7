"""Finding the mat from its markers, rectifying, and the homography the gate uses."""

from __future__ import annotations

import numpy as np
import pytest

from calibration.geometry import coin_isolation_mat
from vision.errors import ImageReadError, MatNotFoundError
from vision.markers import MarkerConfig, detect_markers, find_board
from vision.rectify import RectifyConfig, rectify
from vision.synth import CameraPose, SynthScene, Variation, render

GEOMETRY = coin_isolation_mat()


def _frame(**pose):
    variation = Variation(pose=CameraPose(**pose), noise=2.0, jpeg_quality=90)
    return render(SynthScene.build({"d4": "Q"}, {}, GEOMETRY, variation))


@pytest.mark.parametrize("pose", [{}, {"tilt_deg": 35.0, "rotation_deg": 10.0},
                                  {"tilt_deg": 25.0, "tilt_azimuth_deg": 90.0}])
def test_homography_matches_the_true_one(pose):
    frame = _frame(**pose)
    location = find_board(MarkerConfig(), frame.image, GEOMETRY)
    assert location.markers_found == (0, 1, 2, 3)
    assert location.markers_missing == ()
    left, top, right, bottom = GEOMETRY.play_area.bounds()
    corners = [(left, top), (right, top), (right, bottom), (left, bottom), (260.0, 260.0)]
    error = np.linalg.norm(location.to_image(corners) - frame.project(corners), axis=1)
    assert error.max() < 1.5
    back = location.to_mat(location.to_image(corners))
    assert np.allclose(back, corners, atol=1e-6)


def test_lens_distortion_is_fitted():
    variation = Variation(lens_k1=-0.04, noise=1.0)
    frame = render(SynthScene.build({}, {}, GEOMETRY, variation))
    location = find_board(MarkerConfig(), frame.image, GEOMETRY)
    assert -0.05 < location.lens_k1 < -0.025
    points = [(100.0, 100.0), (460.0, 260.0), (260.0, 460.0)]
    error = np.linalg.norm(location.to_image(points) - frame.project(points), axis=1)
    assert error.max() < 2.0


def test_play_area_polygon_and_mask_for_the_gate():
    frame = _frame(tilt_deg=20.0)
    location = find_board(MarkerConfig(), frame.image, GEOMETRY)
    polygon = location.play_area_polygon(GEOMETRY)
    assert polygon.shape == (4, 2)
    mask = location.play_area_mask(GEOMETRY)
    assert mask.shape == frame.image.shape[:2]
    centre = location.to_image([GEOMETRY.play_area.centre])[0]
    assert mask[round(centre[1]), round(centre[0])] == 255
    assert mask[0, 0] == 0
    assert 1.0 < location.pixels_per_mm(GEOMETRY) < 3.0


def test_rectified_view_puts_mat_points_where_they_belong():
    frame = _frame(tilt_deg=30.0, rotation_deg=-8.0)
    location = find_board(MarkerConfig(), frame.image, GEOMETRY)
    view = rectify(RectifyConfig(), frame.image, location, GEOMETRY)
    left, top, right, bottom = GEOMETRY.play_area.bounds()
    assert view.image.shape[:2] == (round((bottom - top + 6) * 2), round((right - left + 6) * 2))
    assert view.to_mm(*view.to_pixels(123.0, 321.0)) == pytest.approx((123.0, 321.0))
    # The play area's dark border line lies where the geometry says.
    column, row = view.to_pixels(left, GEOMETRY.play_area.centre[1])
    grey = view.image[round(row), :].mean(axis=1)
    darkest = int(np.argmin(grey[: round(column) + 8]))
    assert abs(darkest - column) <= 2


def test_no_markers_names_all_of_them():
    blank = np.full((1080, 1920, 3), 200, np.uint8)
    with pytest.raises(MatNotFoundError) as caught:
        find_board(MarkerConfig(), blank, GEOMETRY)
    assert caught.value.missing == (0, 1, 2, 3)
    assert "markers 0, 1, 2, 3 missing" in str(caught.value)


def test_detect_markers_rejects_non_images():
    with pytest.raises(ImageReadError):
        detect_markers(MarkerConfig(), np.zeros((0, 0), np.uint8))
    with pytest.raises(ImageReadError):
        detect_markers(MarkerConfig(), np.zeros((10, 10), np.float32))
