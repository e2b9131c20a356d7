"""Real frames for the calibration tests: the synthetic table's plain camera at 1280x720 (fast
to render and to read), the calibration layout on it, glints, and folders of photos."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import cv2
import numpy as np

from calibration.geometry import coin_isolation_mat
from contract.observation import COIN_KINDS
from vision import synth
from vision.calibrate import calibration_layout

GEOMETRY = coin_isolation_mat()
#: Penny c3, nickel f3, dime c6, quarter f6; red pawn d4, blue pawn e5.
LAYOUT = calibration_layout(GEOMETRY, "PNDQ", ("red", "blue"))
SIZE = (1280, 720)


def scene(coins: Mapping[str, str], pawns: Mapping[str, str] | None = None) -> synth.SynthScene:
    """The mat with ``coins`` (square -> letters) and ``pawns`` under the plain camera."""
    return synth.SynthScene.build(coins, pawns or {}, GEOMETRY, synth.Variation(),
                                  layout_seed=11, image_size=SIZE)


def layout_scene(without: str = "") -> synth.SynthScene:
    """The calibration layout, less the objects on the squares named in ``without``."""
    coins = {square: kind for square, kind in LAYOUT.squares().items() if square not in without}
    pawns = {square: colour for square, colour in LAYOUT.pawns_by_square().items()
             if square not in without}
    return scene(coins, pawns)


def frame(shown: synth.SynthScene, seed: int = 0) -> np.ndarray:
    """One camera frame of ``shown``; ``seed`` changes only the sensor noise."""
    return synth.render_frame(shown, seed)


def wash_out(image: np.ndarray, shown: synth.SynthScene, square: str) -> np.ndarray:
    """``image`` with a glint that clips the face of the coin on ``square`` white, all but a
    thin ring by its rim (as a lamp reflected in a shiny coin does)."""
    coins, _ = shown.placements()
    coin = next(placed for placed in coins if placed.region == square)
    x_mm, y_mm = coin.centre_mm
    centre, edge = shown.project([(x_mm, y_mm), (x_mm + COIN_KINDS[coin.letter][1] / 2, y_mm)])
    radius = float(np.hypot(*(edge - centre)))
    rows, columns = np.mgrid[0:image.shape[0], 0:image.shape[1]]
    inside = (columns - centre[0]) ** 2 + (rows - centre[1]) ** 2 < (0.85 * radius) ** 2
    glint = cv2.GaussianBlur(np.where(inside, 255.0, 0.0).astype(np.float32), (0, 0),
                             0.1 * radius)
    return np.clip(image.astype(np.float32) + glint[..., None], 0, 255).astype(np.uint8)


def write_photos(folder: Path, photos: Mapping[str, np.ndarray]) -> Path:
    """Write ``photos`` (file name -> image) into ``folder`` (made if need be); returns it."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, image in photos.items():
        assert cv2.imwrite(str(folder / name), image), name
    return folder
