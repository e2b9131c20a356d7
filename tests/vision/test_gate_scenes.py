"""Small camera scenes for the gate tests: the real printed mat, warped into a tilted view.

Objects are drawn on the mat in millimetres before the warp, so a coin, a pawn, a hand or a
sleeve lands where it would on a real table; lighting and sensor noise are applied after.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

import cv2
import numpy as np

from calibration.geometry import MatGeometry, coin_isolation_mat
from calibration.mats import render_mat

PIXELS_PER_MM = 2.0
FRAME_SIZE = (1280, 720)
COPPER = (60, 105, 175)
SILVER = (175, 172, 168)
SKIN = (120, 160, 215)
BRASS = (70, 150, 190)


@cache
def mat_picture(geometry: MatGeometry | None = None) -> np.ndarray:
    image = render_mat(geometry or coin_isolation_mat(), PIXELS_PER_MM)
    image.setflags(write=False)
    return image


def mat_to_image(shift: tuple[float, float] = (0.0, 0.0), tilt: float = 0.25,
                 geometry: MatGeometry | None = None) -> np.ndarray:
    """Homography from mat millimetres to pixels of a 1280x720 frame, a little in perspective:
    the mat 650 pixels tall at its near edge, as wide as its shape makes it."""
    geometry = geometry or coin_isolation_mat()
    source = np.array(
        [[0, 0], [geometry.width_mm, 0], [geometry.width_mm, geometry.height_mm],
         [0, geometry.height_mm]], np.float32
    )
    dx, dy = shift
    half = 360 * geometry.width_mm / geometry.height_mm
    inset = 60 * tilt
    target = np.array(
        [[640 - half + 50 + inset + dx, 40 + dy], [640 + half - 50 - inset + dx, 40 + dy],
         [640 + half + dx, 690 + dy], [640 - half + dx, 690 + dy]], np.float32
    )
    return cv2.getPerspectiveTransform(source, target)


@dataclass
class Scene:
    """What lies on the mat (in mm) and how the camera sees it."""

    coins: list[tuple[tuple[float, float], float, tuple[int, int, int]]] = field(
        default_factory=list
    )
    pawns: list[tuple[tuple[float, float], tuple[int, int, int]]] = field(default_factory=list)
    polygons: list[tuple[list[tuple[float, float]], tuple[int, int, int]]] = field(
        default_factory=list
    )
    shift: tuple[float, float] = (0.0, 0.0)
    light: float = 1.0
    geometry: MatGeometry = field(default_factory=coin_isolation_mat)

    def frame(self, seed: int = 0) -> np.ndarray:
        picture = mat_picture(self.geometry).copy()
        scale = PIXELS_PER_MM

        def px(point: tuple[float, float]) -> tuple[int, int]:
            return round(point[0] * scale), round(point[1] * scale)

        for centre, diameter, colour in self.coins:
            cv2.circle(picture, px(centre), round(diameter / 2 * scale), colour, -1, cv2.LINE_AA)
        for centre, colour in self.pawns:
            cv2.circle(picture, px(centre), round(11 * scale), colour, -1, cv2.LINE_AA)
            cv2.circle(picture, px(centre), round(6 * scale), (255, 255, 255), 2, cv2.LINE_AA)
        for points, colour in self.polygons:
            cv2.fillPoly(picture, [np.array([px(p) for p in points], np.int32)], colour)
        homography = mat_to_image(self.shift, geometry=self.geometry)
        frame = np.full((FRAME_SIZE[1], FRAME_SIZE[0], 3), 90, np.uint8)
        warped = cv2.warpPerspective(
            picture, homography @ np.diag([1 / scale, 1 / scale, 1.0]), FRAME_SIZE,
            dst=frame, borderMode=cv2.BORDER_TRANSPARENT,
        )
        # Uneven light: brighter at the top left, plus sensor noise.
        ramp = np.linspace(1.0, 0.8, FRAME_SIZE[0], dtype=np.float32)[None, :, None]
        lit = warped.astype(np.float32) * ramp * self.light
        noise = np.random.default_rng(seed).normal(0, 3.0, lit.shape).astype(np.float32)
        image = np.clip(lit + noise, 0, 255).astype(np.uint8)
        return image


def board_with_pieces() -> Scene:
    """A mid-game board: coins of every kind, one of them a stack, two pawns."""
    geometry: MatGeometry = coin_isolation_mat()

    def at(name: str, dx: float = 0.0, dy: float = 0.0) -> tuple[float, float]:
        x, y = geometry.region(name).centre
        return (x + dx, y + dy)

    return Scene(
        coins=[
            (at("a1"), 19.05, COPPER), (at("b2", 6, -5), 21.21, SILVER),
            (at("c3"), 17.91, SILVER), (at("h8", -8, 8), 24.26, SILVER),
            (at("a8"), 19.05, COPPER), (at("h1", 5, 5), 19.05, COPPER),
            (at("d5"), 24.26, SILVER), (at("e4", -4, 0), 19.05, COPPER),
        ],
        pawns=[(at("f6"), (40, 40, 200)), (at("c6"), (200, 90, 30))],
    )


def hand_over(scene: Scene) -> Scene:
    """The same scene with an arm reaching in over South's edge to square d3."""
    arm = [(190.0, 560.0), (250.0, 560.0), (245.0, 230.0), (225.0, 205.0), (200.0, 210.0),
           (185.0, 235.0)]
    return Scene(scene.coins, scene.pawns, [*scene.polygons, (arm, SKIN)], scene.shift)


def hand_on_marker(scene: Scene, marker_id: int) -> Scene:
    """A hand resting on one corner marker, reaching in from outside the mat."""
    x, y = coin_isolation_mat().marker(marker_id).centre
    dx = 1.0 if x > 260 else -1.0
    palm = [(x - 28 * dx, y - 28), (x + 120 * dx, y - 20), (x + 120 * dx, y + 20),
            (x - 28 * dx, y + 28)]
    return Scene(scene.coins, scene.pawns, [*scene.polygons, (palm, SKIN)], scene.shift)


def sleeve_over(scene: Scene) -> Scene:
    """A dark blue sleeve (no skin showing) reaching in from the East edge."""
    sleeve = [(560.0, 230.0), (560.0, 300.0), (380.0, 290.0), (380.0, 245.0)]
    return Scene(scene.coins, scene.pawns, [*scene.polygons, (sleeve, (90, 40, 30))],
                 scene.shift)
