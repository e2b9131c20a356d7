"""Raster mats: size, colours where the geometry says, markers found where the geometry says."""

import cv2
import numpy as np
import pytest

from calibration import geometry
from calibration.geometry import GeometryError, coin_isolation_mat
from calibration.mats import render_mat


def detect(image):
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    detector = cv2.aruco.ArucoDetector(dictionary, cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(image)
    if ids is None:
        return {}
    return {int(i): c.reshape(4, 2) for i, c in zip(ids.ravel(), corners, strict=True)}


@pytest.mark.parametrize(
    "mat", [coin_isolation_mat(), geometry.test_pit_mat(), geometry.coin_grid_mat()],
    ids=lambda mat: mat.name,
)
def test_rendered_markers_are_detected_at_their_geometry(mat):
    scale = 2.0
    image = render_mat(mat, scale)
    assert image.shape == (round(mat.height_mm * scale), round(mat.width_mm * scale), 3)
    found = detect(image)
    assert sorted(found) == [0, 1, 2, 3]
    for marker_id, corners in found.items():
        expected = np.array(mat.marker(marker_id).corners()) * scale
        assert np.abs(corners - expected).max() < 1.5


def test_squares_alternate_tint_and_a1_is_tinted():
    mat = coin_isolation_mat()
    scale = 2.0
    image = render_mat(mat, scale)

    def colour(name):
        x, y = mat.region(name).centre
        return image[round(y * scale), round(x * scale)].astype(int)

    assert (colour("b1") == 255).all()
    assert colour("a1").sum() < 255 * 3 - 30
    assert (colour("a1") == colour("b2")).all()
    assert colour("a1")[0] > colour("a1")[2]  # bluish tint (BGR): blue above red


def test_scale_out_of_range_is_refused():
    with pytest.raises(GeometryError, match="pixels per mm"):
        render_mat(coin_isolation_mat(), 100.0)
