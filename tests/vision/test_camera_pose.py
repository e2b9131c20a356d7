"""The camera's pose over the mat from the mat's homography and a known focal length."""

from __future__ import annotations

import math
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.camera_pose import camera_pose, decompose, focal_from_homography, principal_point
from vision.synth.camera import CameraPose, camera_centre, pose_homography, pose_intrinsics

MAT = (660.0, 720.0)
FRAME = (1920, 1080)
TRAY = np.array([[550.0, 360.0]])

# Tilted cameras at several azimuths, the mat framed off the middle (so the synthetic
# camera's principal point lies far from the frame's), and one nearly straight down.
POSES = [
    CameraPose(31.0, 20.0, 8.0, 0.85, (-0.6, 0.4), 1300.0),
    CameraPose(22.0, 100.0, -12.0, 0.9, (0.7, -0.5), 1650.0),
    CameraPose(35.0, 185.0, 3.0, 0.8, (0.2, 0.8), 1500.0),
    CameraPose(12.0, 265.0, 14.0, 0.92, (-0.8, -0.8), 1250.0),
    CameraPose(3.0, 0.0, 0.0, 0.85, (0.0, 0.0), 1400.0),
]


def _lean_at_tray(foot: tuple[float, float], height: float) -> np.ndarray:
    return (TRAY[0] - np.array(foot)) / height


@pytest.mark.parametrize("pose", POSES)
def test_a_known_pose_comes_back_from_its_homography_and_focal_length(pose: CameraPose) -> None:
    homography = pose_homography(pose, MAT, FRAME)
    focal, principal = pose_intrinsics(pose, MAT, FRAME)
    x, y, height = camera_centre(pose, MAT, FRAME)
    found = principal_point(homography, focal, FRAME)
    assert found is not None
    if pose.tilt_deg > 10:  # straight down, any principal point fits nearly as well
        assert math.dist(found, principal) < 1.0
    camera = camera_pose(homography, FRAME, focal)
    assert math.dist(camera.foot_mm, (x, y)) < 0.01 * height
    assert camera.height_mm == pytest.approx(height, rel=0.01)
    # What the dice reader uses: how far a raised point leans at the tray, per mm of height.
    direction, size = camera.lean(TRAY)
    assert np.linalg.norm(direction[0] * size[0] - _lean_at_tray((x, y), height)) < 0.01


def test_the_pose_survives_marker_noise_where_the_middle_of_the_frame_does_not() -> None:
    pose = POSES[0]
    homography = pose_homography(pose, MAT, FRAME)
    focal, _ = pose_intrinsics(pose, MAT, FRAME)
    x, y, height = camera_centre(pose, MAT, FRAME)
    truth = _lean_at_tray((x, y), height)
    # Refit the homography to corners moved by up to half a pixel, as marker corners are.
    rng = np.random.default_rng(5)
    mat = np.array([[0, 0], [MAT[0], 0], [MAT[0], MAT[1]], [0, MAT[1]], [330, 360]], np.float64)
    pixels = cv2.perspectiveTransform(mat.reshape(-1, 1, 2), homography).reshape(-1, 2)
    noisy, _ = cv2.findHomography(mat, pixels + rng.uniform(-0.5, 0.5, pixels.shape), 0)
    direction, size = camera_pose(noisy, FRAME, focal).lean(TRAY)
    assert np.linalg.norm(direction[0] * size[0] - truth) < 0.02
    # The principal point assumed in the frame's middle misplaces the camera.
    direction, size = camera_pose(noisy, FRAME).lean(TRAY)
    assert np.linalg.norm(direction[0] * size[0] - truth) > 0.1


def test_a_centred_camera_is_found_with_or_without_its_focal_length() -> None:
    focal, height = 1500.0, 1200.0
    tilt = math.radians(25.0)
    rotation = cv2.Rodrigues(np.array([tilt, 0.0, 0.0]))[0]
    centre = np.array([300.0, 900.0, -height])  # mat z points into the table
    translation = -rotation @ centre
    intrinsic = np.array([[focal, 0, FRAME[0] / 2], [0, focal, FRAME[1] / 2], [0, 0, 1]])
    homography = intrinsic @ np.column_stack([rotation[:, 0], rotation[:, 1], translation])
    for camera in (camera_pose(homography, FRAME), camera_pose(homography, FRAME, focal),
                   decompose(homography, focal, (FRAME[0] / 2, FRAME[1] / 2))):
        assert math.dist(camera.foot_mm, (300.0, 900.0)) < 1.0
        assert camera.height_mm == pytest.approx(height, rel=1e-3)


def test_an_impossible_focal_length_falls_back_to_the_middle_of_the_frame() -> None:
    homography = pose_homography(POSES[1], MAT, FRAME)
    assert principal_point(homography, 1e5, FRAME) is None
    camera = camera_pose(homography, FRAME, 1e5)
    assert camera.height_mm > 0 and math.isfinite(camera.foot_mm[0])


# -- the focal length from one view, as `companion calibrate` learns it ---------------------------


def _centred(homography: np.ndarray, principal: tuple[float, float]) -> np.ndarray:
    """``homography`` of a frame moved so that ``principal`` lies in its middle."""
    shift = np.array([[1.0, 0.0, FRAME[0] / 2 - principal[0]],
                      [0.0, 1.0, FRAME[1] / 2 - principal[1]], [0.0, 0.0, 1.0]])
    return np.asarray(shift @ homography)


@pytest.mark.parametrize("pose", POSES[:3:2])
def test_the_focal_length_comes_back_from_a_rendered_view_of_the_mat(pose: CameraPose) -> None:
    from calibration.geometry import coin_grid_mat
    from vision.markers import find_board
    from vision.read import VisionConfig
    from vision.synth import SynthScene, Variation, render

    geometry = coin_grid_mat()
    scene = SynthScene.build({}, {}, geometry, Variation(pose=pose, noise=2.0, jpeg_quality=90))
    location = find_board(VisionConfig().markers, render(scene, 0).image, geometry)
    focal, principal = scene.intrinsics()
    # The estimate takes the principal point in the frame's middle: where it lies there, the
    # focal length comes back (the synthetic camera's lies elsewhere; see the next test).
    found = focal_from_homography(_centred(location.homography, principal), FRAME)
    assert found == pytest.approx(focal, rel=0.03)


def test_a_principal_point_off_the_middle_misleads_the_estimate_and_straight_down_tells_none(
) -> None:
    pose = POSES[0]
    homography = pose_homography(pose, MAT, FRAME)
    focal, principal = pose_intrinsics(pose, MAT, FRAME)
    assert focal_from_homography(_centred(homography, principal), FRAME) == pytest.approx(
        focal, rel=1e-6)
    assert math.dist(principal, (FRAME[0] / 2, FRAME[1] / 2)) > 100
    off = focal_from_homography(homography, FRAME)
    assert off is None or abs(off / focal - 1.0) > 0.02
    assert focal_from_homography(pose_homography(POSES[4], MAT, FRAME), FRAME) is None


def test_calibration_stores_the_focal_length_and_the_table_reads_dice_with_it(tmp_path) -> None:
    from calibration.profile import ProfileError, VisionProfile
    from companion.launch import vision_config_for

    path = tmp_path / "profile.json"
    replace(VisionProfile.default(), focal_px=1512.5).save(path)
    profile = VisionProfile.load(path)
    assert profile.focal_px == 1512.5
    assert vision_config_for(object(), profile).read.dice.focal_px == 1512.5
    assert vision_config_for(object(), VisionProfile.default()).read.dice.focal_px is None

    class Told:
        focal_px = 1400.0
    assert vision_config_for(Told(), profile).read.dice.focal_px == 1400.0
    data = profile.to_json()
    data["focal_px"] = -3
    with pytest.raises(ProfileError, match="focal_px"):
        VisionProfile.from_json(data)
