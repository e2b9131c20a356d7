"""The dice's pixels scored only round candidate dice are those the whole tray's score gives."""

from __future__ import annotations

import cv2
import numpy as np

from vision.dice import DiceConfig
from vision.dice_evidence import body_evidence, candidate_boxes, felt_scores
from vision.dice_pips import median_colour


def _whole_tray(config: DiceConfig, image: np.ndarray, felt: np.ndarray, ppm: float
                ) -> tuple[np.ndarray, np.ndarray]:
    """The die and weaker pixels scored over the whole tray, as find_bodies once did."""
    logs = np.log(felt + 4.0).astype(np.float32)
    chroma, score = felt_scores(config, image, (float(logs[0]), float(logs[1]), float(logs[2])))
    reach = max(3, 2 * round(config.edge_blur_mm * ppm) + 1)
    nearby = cv2.dilate(score, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    edge = score > config.edge_share * nearby
    core = ((score > 1.0) & edge).astype(np.uint8)
    hued = chroma > np.float32(config.grow_chroma * config.chroma)
    weak = ((score > config.grow_share) & edge & hued).astype(np.uint8)
    return core, weak


def _drawn_tray() -> np.ndarray:
    """A tray at 2 px/mm on noisy felt: a white die with black pips, a black die with white
    pips (whose halos break its body up) touching a red one, and a few specks."""
    generator = np.random.default_rng(5)
    tray = np.empty((220, 140, 3), np.float64)
    tray[:] = (108, 136, 88)
    tray[40:72, 30:62] = (235, 235, 235)
    tray[60:66, 43:49] = (20, 20, 20)
    tray[130:162, 70:102] = (25, 25, 25)
    tray[130:162, 102:130] = (40, 40, 200)
    for row, column in ((-1, -1), (-1, 1), (1, -1), (1, 1), (0, 0)):
        y, x = 146 + round(8.6 * row), 86 + round(8.6 * column)
        tray[y - 3:y + 3, x - 3:x + 3] = (240, 240, 240)
    for y, x in ((20, 110), (190, 20), (100, 120)):
        tray[y:y + 2, x:x + 2] = (60, 60, 160)
    tray += generator.normal(0.0, 4.0, tray.shape)
    return cv2.GaussianBlur(np.clip(tray, 0, 255).astype(np.uint8), (0, 0), 0.7)


def test_the_dice_pixels_found_in_boxes_are_the_whole_trays_round_every_die() -> None:
    config = DiceConfig()
    ppm = config.segment_pixels_per_mm
    tray = _drawn_tray()
    felt = median_colour(tray[::3, ::3].reshape(-1, 3))
    core, weak = _whole_tray(config, tray, felt, ppm)
    evidence = body_evidence(config, tray, felt, ppm)
    border = max(2, round(config.border_mm * ppm))
    inside = np.zeros_like(core)
    inside[border:-border, border:-border] = 1
    assert core[130:162, 70:130].any() and core[40:72, 30:62].any()
    assert np.array_equal(evidence.core & inside, core & inside)
    # Weaker pixels count only near a die's: within ``grow_mm`` of it.
    reach = 2 * round(config.grow_mm * ppm) + 1
    near = cv2.dilate(core & inside, np.ones((reach, reach), np.uint8))
    assert weak[near > 0].any()
    assert np.array_equal(evidence.weak & near, weak & near)
    # The boxes round the dice and specks leave most of the felt out.
    boxes = candidate_boxes(config, tray, felt, ppm)
    covered = sum((x1 - x0) * (y1 - y0) for x0, y0, x1, y1 in boxes)
    assert covered < 0.5 * tray.shape[0] * tray.shape[1]


def test_plain_felt_has_no_candidate_die() -> None:
    config = DiceConfig()
    felt = np.full((120, 80, 3), (108, 136, 88), np.uint8)
    evidence = body_evidence(config, felt, np.array([108.0, 136.0, 88.0]), 2.0)
    assert not evidence.core.any() and not evidence.weak.any()
