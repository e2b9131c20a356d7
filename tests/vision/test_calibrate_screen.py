"""`companion calibrate` on the side screen: each step shows the board with what to lay out,
the live camera, and what the camera waits for (a real pygame window on the dummy driver)."""

from __future__ import annotations

import os

os.environ["SDL_VIDEODRIVER"] = "dummy"
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from pathlib import Path

import cv2
import numpy as np
import pytest

from calibration.geometry import coin_isolation_mat, test_pit_mat
from companion.cli.calibrate import _grid_size, _Session, _Window
from companion.display.layout import compute_layout
from companion.display.screen import Screen
from vision.calibrate import CalibrationConfig, CalibrationError, calibration_layout
from vision.camera import open_camera
from vision.gate import SteadyGate

SIZE = (1280, 720)


def _square_pixels(image: np.ndarray, name: str) -> np.ndarray:
    layout = compute_layout(SIZE, 8, 8, 2)
    box = layout.square(name)
    return image[box.y : box.y + box.height, box.x : box.x + box.width]


def test_each_step_shows_the_layout_and_the_camera(tmp_path: Path) -> None:
    geometry = coin_isolation_mat()
    layout = calibration_layout(geometry, "PNDQ", ("red", "blue"))
    screen = Screen(SIZE)
    window = _Window(screen, geometry, "coin-isolation")
    shown: list[tuple[Path, dict[str, str], dict[str, str]]] = []
    ask = window.ask

    def ask_and_keep(coins: dict[str, str], pawns: dict[str, str], text: str) -> None:
        ask(coins, pawns, text)
        path = tmp_path / f"step-{len(shown) + 1}.png"
        screen.request_screenshot(path)
        shown.append((path, dict(coins), dict(pawns)))

    window.ask = ask_and_keep  # type: ignore[method-assign]
    camera = open_camera("sim://?seed=2&fps=10")
    try:
        session = _Session(camera, SteadyGate(geometry), geometry, CalibrationConfig(), 60.0,
                           window)
        calibration = session.calibrate(layout, 1)
        last = screen.snapshot
    finally:
        camera.close()
        window.close()
    assert {look.kind for look in calibration.profile.coins} >= set("PNDQ")
    assert [(coins, pawns) for _, coins, pawns in shown] == [
        ({}, {}), (layout.squares(), layout.pawns_by_square())
    ]
    assert dict(last.stacks) == layout.squares()
    assert {player.pawn: player.colour_name for player in last.players} == (
        layout.pawns_by_square()
    )
    assert last.message is not None and last.message.text.startswith("Step 2 of 2")
    assert last.camera is not None and last.camera.grid_corners is not None
    empty, asked = (cv2.imread(str(path)) for path, _, _ in shown)
    assert empty is not None and asked is not None
    for square in [*layout.squares(), *layout.pawns_by_square()]:
        # The square of every object to lay out changes from the empty board's (a piece is
        # drawn there, its square highlighted); another square does not.
        difference = cv2.absdiff(_square_pixels(empty, square), _square_pixels(asked, square))
        assert difference.mean() > 10, square
    untouched = cv2.absdiff(_square_pixels(empty, "h1"), _square_pixels(asked, "h1"))
    assert untouched.mean() < 1


def test_closing_the_window_stops_calibration(tmp_path: Path) -> None:
    geometry = coin_isolation_mat()
    screen = Screen(SIZE)
    window = _Window(screen, geometry, "coin-isolation")
    screen.request_quit()
    camera = open_camera("sim://?seed=2&fps=10")
    try:
        session = _Session(camera, SteadyGate(geometry), geometry, CalibrationConfig(), 60.0,
                           window)
        with pytest.raises(CalibrationError, match="window was closed; nothing was saved"):
            session.calibrate(calibration_layout(geometry, "PNDQ", ("red",)), 1)
    finally:
        camera.close()
        window.close()


def test_only_grid_mats_are_drawn_on_the_screen() -> None:
    assert _grid_size(coin_isolation_mat(40.0)) == (8, 8)
    assert _grid_size(test_pit_mat()) is None
