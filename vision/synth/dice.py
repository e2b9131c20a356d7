"""Dice of the synthetic table: cubes drawn in 3D onto the flat mat canvas.

A :class:`Die` is a cube with rounded corners and pips, lying flat (its top face up) or cocked
(tilted ``cocked_deg`` about one of its bottom edges, as a die leaning on another die or on the
tray's frame). Every point of it is projected onto the mat plane along the ray to the camera's
centre, so that drawing the result on the mat canvas and taking the canvas through the mat's
homography gives exactly what the camera sees: a still die's top face swept away from the
camera by its height, the side faces towards the camera showing between its base and its top,
pips foreshortened on them. Faces are lit by one light above the table (Lambert), and the die
casts a soft shadow away from it. Each die is drawn supersampled in a patch of its own and
blended in anti-aliased.

Colour schemes are named in :data:`DIE_COLOURS`; the first four are the ones the dice reader
is tuned on, the rest (:data:`HELD_OUT_COLOURS`) only serve held-out evaluation.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

import cv2
import numpy as np
import numpy.typing as npt

Image = npt.NDArray[np.uint8]
FloatArray = npt.NDArray[Any]

#: Colour schemes: name -> (body BGR 0..1, pips BGR 0..1, the colour name vision should report).
DIE_COLOURS: dict[str, tuple[tuple[float, float, float], tuple[float, float, float], str]] = {
    "white": ((0.92, 0.93, 0.93), (0.07, 0.07, 0.08), "white"),
    "red": ((0.12, 0.10, 0.72), (0.95, 0.95, 0.95), "red"),
    "black": ((0.09, 0.09, 0.10), (0.93, 0.93, 0.92), "black"),
    "blue": ((0.68, 0.30, 0.07), (0.95, 0.95, 0.95), "blue"),
    # Held out: never used to tune the reader.
    "ivory": ((0.76, 0.89, 0.95), (0.10, 0.14, 0.22), "white"),
    "crimson": ((0.22, 0.08, 0.58), (0.90, 0.92, 0.95), "red"),
    "yellow": ((0.10, 0.78, 0.93), (0.05, 0.05, 0.05), "yellow"),
    "navy": ((0.45, 0.16, 0.08), (0.98, 0.98, 0.98), "blue"),
    "purple": ((0.55, 0.16, 0.45), (0.95, 0.95, 0.95), "purple"),
}
TUNING_COLOURS: tuple[str, ...] = ("white", "red", "black", "blue")
HELD_OUT_COLOURS: tuple[str, ...] = ("ivory", "crimson", "yellow", "navy", "purple")

#: The light's elevation above the table, for shading and shadows.
LIGHT_ELEVATION_DEG = 55.0
#: Supersampling of a die's patch.
_SUPERSAMPLE = 4


@dataclass(frozen=True)
class Die:
    """One die on the mat: the value on top, where its middle stands (mat mm), its turn about
    the vertical, its colour scheme (a key of :data:`DIE_COLOURS`), its edge (mm), its pips'
    diameter and their distance from the face's middle along each axis (shares of the edge),
    its corner rounding (share of half the edge), the pips' shape, and how far it is cocked:
    ``cocked_deg`` 0 lies flat, more tilts it about the bottom edge on the side
    ``cocked_azimuth_deg`` (0 = +x of the die before its turn) so that face rises."""

    value: int
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0
    colour: str = "white"
    size_mm: float = 16.0
    pip_share: float = 0.19
    spread: float = 0.27
    rounding: float = 0.18
    pip_shape: Literal["round", "square"] = "round"
    cocked_deg: float = 0.0

    def __post_init__(self) -> None:
        if not 1 <= self.value <= 6:
            raise ValueError(f"a die shows 1 to 6, not {self.value!r}")
        if self.colour not in DIE_COLOURS:
            raise ValueError(f"unknown die colour {self.colour!r}; use {', '.join(DIE_COLOURS)}")
        if not 5.0 <= self.size_mm <= 40.0:
            raise ValueError(f"die size {self.size_mm!r} mm is out of range 5..40")

    @property
    def cocked(self) -> bool:
        return self.cocked_deg > 0.0

    @property
    def reported_colour(self) -> str:
        """The colour name a reader should give this die's body."""
        return DIE_COLOURS[self.colour][2]


def pip_layout(value: int) -> tuple[tuple[int, int], ...]:
    """The pips of ``value`` on the 3x3 grid of a face, as (column, row) in -1..1."""
    corners = ((-1, -1), (1, 1))
    layouts: dict[int, tuple[tuple[int, int], ...]] = {
        1: ((0, 0),),
        2: corners,
        3: (*corners, (0, 0)),
        4: (*corners, (1, -1), (-1, 1)),
        5: (*corners, (1, -1), (-1, 1), (0, 0)),
        6: (*corners, (1, -1), (-1, 1), (-1, 0), (1, 0)),
    }
    return layouts[value]


def _face_values(value: int) -> dict[tuple[int, int], int]:
    """The value on each face, by (axis, sign) in the die's own frame; opposite faces sum to 7."""
    others = [v for v in range(1, 7) if v not in (value, 7 - value)]
    first, second = others[0], others[1] if others[1] != 7 - others[0] else others[2]
    return {(2, 1): value, (2, -1): 7 - value, (0, 1): first, (0, -1): 7 - first,
            (1, 1): second, (1, -1): 7 - second}


def _rotation(die: Die) -> FloatArray:
    """The die's orientation: tilt about its own y axis (cocking), then a turn about z."""
    turn = math.radians(die.angle_deg)
    tilt = math.radians(die.cocked_deg)
    spin = np.array([[math.cos(turn), -math.sin(turn), 0], [math.sin(turn), math.cos(turn), 0],
                     [0, 0, 1]])
    lean = np.array([[math.cos(tilt), 0, -math.sin(tilt)], [0, 1, 0],
                     [math.sin(tilt), 0, math.cos(tilt)]])
    return spin @ lean


def _outline(half: float, radius: float, points_per_corner: int = 6) -> FloatArray:
    """A rounded square of half-side ``half`` and corner ``radius``, as (u, v) points."""
    radius = min(max(radius, 0.0), half)
    points = []
    for corner, (cu, cv) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        start = corner * math.pi / 2
        for step in range(points_per_corner):
            angle = start + step / max(1, points_per_corner - 1) * math.pi / 2
            points.append((cu * (half - radius) + radius * math.cos(angle),
                           cv * (half - radius) + radius * math.sin(angle)))
    return np.array(points)


def _pip_outline(die: Die, half_pip: float) -> FloatArray:
    if die.pip_shape == "square":
        return _outline(half_pip * 0.9, half_pip * 0.35, 3)
    angles = np.linspace(0, 2 * math.pi, 16, endpoint=False)
    return np.column_stack([np.cos(angles), np.sin(angles)]) * half_pip


def project_to_mat(points: FloatArray, camera: tuple[float, float, float]) -> FloatArray:
    """3D points (N x 3, mat mm, z up) -> where the camera sees them on the mat plane (N x 2)."""
    cx, cy, height = camera
    scale = height / np.maximum(height - points[:, 2], 1.0)
    return np.column_stack([cx + (points[:, 0] - cx) * scale, cy + (points[:, 1] - cy) * scale])


def draw_die(canvas: Image, die: Die, pixels_per_mm: float,
             camera: tuple[float, float, float], light_direction: tuple[float, float]) -> None:
    """Draw ``die`` with its shadow on a mat canvas (``pixels_per_mm``), seen from ``camera``
    (x mm, y mm, height mm) and lit from ``light_direction`` (unit x, y the light comes from)."""
    draw_dice(canvas, (die,), pixels_per_mm, camera, light_direction)


def draw_dice(canvas: Image, dice: Sequence[Die], pixels_per_mm: float,
              camera: tuple[float, float, float], light_direction: tuple[float, float]) -> None:
    """Draw ``dice`` as :func:`draw_die` draws one: every shadow first, since a shadow falls
    on the mat under any die (touching dice stand about as tall, so none shades another's
    top), then the dice from the farthest from the camera's foot to the nearest, so that
    where two touching dice overlap in the view the nearer hides the farther, as a camera
    sees them, whatever order they were thrown in."""
    shapes = [_die_shape(die, camera, light_direction) for die in dice]
    order = sorted(range(len(dice)), key=lambda index: -math.dist(dice[index].centre_mm,
                                                                 camera[:2]))
    elevation = math.radians(LIGHT_ELEVATION_DEG)
    for index in order:
        _draw_shadow(canvas, shapes[index][0], pixels_per_mm, light_direction, elevation)
    for index in order:
        body, pip_colour, _ = DIE_COLOURS[dice[index].colour]
        hull_points, faces = shapes[index]
        _draw_body(canvas, dice[index], hull_points, faces, body, pip_colour, pixels_per_mm,
                   camera)


def _die_shape(die: Die, camera: tuple[float, float, float],
               light_direction: tuple[float, float]
               ) -> tuple[FloatArray, list[tuple[float, float, FloatArray, list[FloatArray]]]]:
    """The points of ``die``'s rounded outline on all six faces (mat mm, z up), and each face
    the camera sees: its distance from the camera, its shade, its outline and its pips."""
    half = die.size_mm / 2
    rotation = _rotation(die)
    corners = np.array([[sx, sy, sz] for sx in (-half, half) for sy in (-half, half)
                        for sz in (-half, half)]) @ rotation.T
    lift = -corners[:, 2].min()
    origin = np.array([die.centre_mm[0], die.centre_mm[1], lift])
    elevation = math.radians(LIGHT_ELEVATION_DEG)
    towards_light = np.array([light_direction[0] * math.cos(elevation),
                              light_direction[1] * math.cos(elevation), math.sin(elevation)])
    faces = []
    outline = _outline(half, die.rounding * half)
    silhouette = []
    for (axis, sign), value in _face_values(die.value).items():
        normal = np.zeros(3)
        normal[axis] = sign
        u_axis, v_axis = np.eye(3)[[a for a in range(3) if a != axis]]
        to_world = np.column_stack([u_axis, v_axis])  # (u, v) -> die frame

        def on_face(uv: FloatArray, _n: FloatArray = normal, _m: FloatArray = to_world,
                    ) -> FloatArray:
            local = uv @ _m.T + _n * half
            return np.asarray(local @ rotation.T + origin)

        border = on_face(outline)
        silhouette.append(border)
        world_normal = rotation @ normal
        middle = on_face(np.zeros((1, 2)))[0]
        seen = np.array(camera) - middle
        if world_normal @ seen <= 0:
            continue
        shade = 0.42 + 0.62 * max(0.0, float(world_normal @ towards_light))
        spacing = die.spread * die.size_mm
        pips = [on_face(_pip_outline(die, die.pip_share * die.size_mm / 2)
                        + np.array([column * spacing, row * spacing]))
                for column, row in pip_layout(value)]
        faces.append((float(np.linalg.norm(seen)), shade, border, pips))
    return np.vstack(silhouette), faces


def _draw_shadow(canvas: Image, points: FloatArray, pixels_per_mm: float,
                 light_direction: tuple[float, float], elevation: float) -> None:
    """A soft shadow: the die's points cast onto the mat away from the light."""
    reach = points[:, 2] / math.tan(elevation)
    cast = points[:, :2] - np.outer(reach, light_direction)
    hull = cv2.convexHull(np.vstack([cast, points[:, :2]]).astype(np.float32))
    pixels = hull.reshape(-1, 2) * pixels_per_mm
    soft = max(1.0, 1.2 * pixels_per_mm)
    left, top = np.floor(pixels.min(axis=0) - 4 * soft).astype(int)
    right, bottom = np.ceil(pixels.max(axis=0) + 4 * soft).astype(int)
    height, width = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, left), max(0, top), min(width, right), min(height, bottom)
    if x0 >= x1 or y0 >= y1:
        return
    mask = np.zeros((bottom - top, right - left), np.float32)
    cv2.fillPoly(mask, [np.round((pixels - (left, top)) * 16).astype(np.int32)], 1.0,
                 cv2.LINE_AA, 4)
    mask = cv2.GaussianBlur(mask, (0, 0), soft)[y0 - top:y1 - top, x0 - left:x1 - left]
    patch = canvas[y0:y1, x0:x1].astype(np.float32)
    patch *= 1 - 0.4 * mask[..., None]
    canvas[y0:y1, x0:x1] = patch.astype(np.uint8)


def _draw_body(canvas: Image, die: Die, hull_points: FloatArray,
               faces: list[tuple[float, float, FloatArray, list[FloatArray]]],
               body: tuple[float, float, float], pip_colour: tuple[float, float, float],
               pixels_per_mm: float, camera: tuple[float, float, float]) -> None:
    """The die's silhouette (its rounded edges, darker), then each face it shows with its pips,
    drawn supersampled and blended onto ``canvas``."""
    scale = pixels_per_mm * _SUPERSAMPLE
    silhouette = project_to_mat(hull_points, camera)
    left, top = np.floor(silhouette.min(axis=0) * pixels_per_mm).astype(int) - 2
    right, bottom = np.ceil(silhouette.max(axis=0) * pixels_per_mm).astype(int) + 2
    size = ((right - left) * _SUPERSAMPLE, (bottom - top) * _SUPERSAMPLE)
    colour = np.zeros((size[1], size[0], 3), np.float32)
    alpha = np.zeros((size[1], size[0]), np.float32)

    def polygon(points_mm: FloatArray) -> list[npt.NDArray[np.int32]]:
        pixels = (points_mm * scale - np.array([left, top]) * _SUPERSAMPLE) * 16
        return [np.round(pixels).astype(np.int32)]

    hull = cv2.convexHull(silhouette.astype(np.float32)).reshape(-1, 2)
    edge = tuple(0.5 * channel for channel in body)
    cv2.fillPoly(colour, polygon(hull), edge, cv2.LINE_8, 4)
    cv2.fillPoly(alpha, polygon(hull), 1.0, cv2.LINE_8, 4)
    for _, shade, border, pips in sorted(faces, key=lambda face: -face[0]):
        cv2.fillPoly(colour, polygon(project_to_mat(border, camera)),
                     tuple(shade * channel for channel in body), cv2.LINE_8, 4)
        for pip in pips:
            cv2.fillPoly(colour, polygon(project_to_mat(pip, camera)),
                         tuple(shade * channel for channel in pip_colour), cv2.LINE_8, 4)
    colour = cv2.resize(colour, (right - left, bottom - top), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (right - left, bottom - top), interpolation=cv2.INTER_AREA)
    height, width = canvas.shape[:2]
    x0, y0, x1, y1 = max(0, left), max(0, top), min(width, right), min(height, bottom)
    if x0 >= x1 or y0 >= y1:
        return
    weight = alpha[y0 - top:y1 - top, x0 - left:x1 - left, None]
    patch = canvas[y0:y1, x0:x1].astype(np.float32)
    patch = patch * (1 - weight) + colour[y0 - top:y1 - top, x0 - left:x1 - left] * 255 * weight
    canvas[y0:y1, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)


def top_centre_mm(die: Die, camera: tuple[float, float, float]) -> tuple[float, float]:
    """Where the camera sees the middle of the die's upper face on the mat plane (mm)."""
    half = die.size_mm / 2
    rotation = _rotation(die)
    corners = np.array([[sx, sy, sz] for sx in (-half, half) for sy in (-half, half)
                        for sz in (-half, half)]) @ rotation.T
    top = rotation @ np.array([0.0, 0.0, half])
    point = np.array([[die.centre_mm[0] + top[0], die.centre_mm[1] + top[1],
                       top[2] - corners[:, 2].min()]])
    x, y = project_to_mat(point, camera)[0]
    return float(x), float(y)
