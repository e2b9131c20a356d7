"""Coin-coloured area no coin found explains (vision/loose_area.py): a coin too blurred for an
edge still shows as area unlike paper, which makes a loose count doubtful."""

import cv2
import numpy as np

from vision.light import PAPER
from vision.loose_area import AreaConfig, unexplained_faces

PPM = 2.0
DIME_RADIUS_MM = 17.91 / 2


def cup_with_a_blurred_dime() -> np.ndarray:
    """A 64 mm cup of paper at 2 px/mm with a grey dime, blurred as a far camera sees it."""
    patch = np.full((128, 128, 3), PAPER, np.float32)
    cv2.circle(patch, (80, 64), round(DIME_RADIUS_MM * PPM), (150.0, 150.0, 155.0), -1)
    return cv2.GaussianBlur(patch, (0, 0), 2.5)


def test_a_dime_no_circle_was_fitted_to_is_unexplained_area():
    patch = cup_with_a_blurred_dime()
    free = np.ones(patch.shape[:2], bool)
    none = np.zeros((0, 2)), np.zeros(0)
    faces = unexplained_faces(AreaConfig(), patch, free, *none, PPM, DIME_RADIUS_MM)
    assert faces >= AreaConfig().doubtful_faces and faces > 0.5
    found = np.array([[80.0, 64.0]]), np.array([DIME_RADIUS_MM * PPM])
    assert unexplained_faces(AreaConfig(), patch, free, *found, PPM, DIME_RADIUS_MM) == 0.0


def test_plain_paper_and_the_print_left_out_are_no_coin():
    paper = np.full((128, 128, 3), PAPER, np.float32)
    free = np.ones(paper.shape[:2], bool)
    none = np.zeros((0, 2)), np.zeros(0)
    assert unexplained_faces(AreaConfig(), paper, free, *none, PPM, DIME_RADIUS_MM) == 0.0
    patch = cup_with_a_blurred_dime()
    printed = np.zeros(patch.shape[:2], bool)
    printed[:, 50:] = True  # where the mat's print lies, nothing is looked at
    assert unexplained_faces(AreaConfig(), patch, ~printed, *none, PPM, DIME_RADIUS_MM) == 0.0


def test_a_lamps_haze_brighter_than_paper_is_no_coin():
    """Between crowded coins the light's normalisation can leave a haze brighter than paper in
    every channel (a hot spot); a coin is darker than paper in some channel, so the haze asks
    for nothing, while a blurred brass coin beside it still does."""
    patch = np.full((128, 128, 3), PAPER, np.float32)
    cv2.circle(patch, (64, 64), 40, (1.3 * PAPER,) * 3, -1)
    patch = cv2.GaussianBlur(patch, (0, 0), 6.0)
    free = np.ones(patch.shape[:2], bool)
    none = np.zeros((0, 2)), np.zeros(0)
    assert unexplained_faces(AreaConfig(), patch, free, *none, PPM, DIME_RADIUS_MM) == 0.0
    cv2.circle(patch, (30, 30), round(DIME_RADIUS_MM * PPM), (90.0, 190.0, 215.0), -1)  # BGR
    brass = cv2.GaussianBlur(patch, (0, 0), 2.5)
    assert unexplained_faces(AreaConfig(), brass, free, *none, PPM, DIME_RADIUS_MM) \
        >= AreaConfig().doubtful_faces
