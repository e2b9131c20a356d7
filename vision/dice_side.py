"""A cocked die told by where its side faces show: its body's reach about its pips' middle.

A flat die seen by a tilted camera shows its top square and, towards the camera, a strip of
side faces as wide as its height times the camera's lean (:meth:`CameraOverMat.lean`): its
body reaches as far on either side of its top's middle across the lean, and further towards
the camera than away from it by its edge times the lean. A die cocked ``t`` about an edge
shows the side face it raises ``sin t`` of its edge wide (0.34 at 20°), on the side it
rises, whichever way that is, while its top is foreshortened by only ``1 - cos t`` (6% at
20°); and where the top faces the camera it looks square from it and the strip towards the
camera is gone (issue 19's tuning cocked frames 375 and 410: a white 3 and a blue 4 cocked
21-23°, their tops squares to 6%). So a die whose body's reach about its pips' middle differs
from a flat die's by ``most_side_shift`` of its edge (under ``sin 20°``: the body's outline
at the segments' detail is good to a pixel or two) is cocked, and unreadable.

It is measured only where the body shows the die's own side faces: a die read from its pips
spot by spot (their middle is the top's; a fit of the whole face gives none), not cut from
touching dice, with no other body within ``side_clear_mm`` (a neighbour hides a side face, or
its own joins the body), away from the crop's border (a body cut there lacks a side), and not
black (a black die's shaded sides and its shadow differ in nothing the body sees).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray, Image

if TYPE_CHECKING:
    from vision.dice import DiceConfig
    from vision.dice_faces import TopFace

#: Why a die whose side faces show it cocked is unreadable.
SIDE_WHY = "side face off its lean"


def side_shift(body: Image, offset: tuple[int, int], middle: FloatArray, lean: FloatArray,
               edge: float) -> tuple[float, float]:
    """How far ``body`` (a 0/1 patch at ``offset``) reaches about its top's ``middle``
    (crop pixels), less a flat die's reach, in shares of its ``edge`` (px): along the
    ``lean`` (how much further towards the camera than away, less the lean) and across it
    (how much further on one side than the other)."""
    size = float(np.hypot(lean[0], lean[1]))
    along = np.asarray(lean, np.float64) / max(size, 1e-9)
    across = np.array([-along[1], along[0]])
    rows, columns = np.nonzero(body)
    points = np.column_stack([columns + offset[0] - middle[0], rows + offset[1] - middle[1]])
    reach_along = points @ along
    reach_across = points @ across
    # A pixel's extent adds half a pixel at each end.
    towards = -float(reach_along.min()) + 0.5
    away = float(reach_along.max()) + 0.5
    left = -float(reach_across.min()) + 0.5
    right = float(reach_across.max()) + 0.5
    return (towards - away) / edge - size, abs(left - right) / edge


def cocked_by_side(config: DiceConfig, face: TopFace, colour: str, middle: FloatArray,
                   bodies: list[tuple[Image, tuple[int, int]]],
                   lean_at: Callable[[FloatArray], FloatArray], ppm: float,
                   crop: tuple[int, int]) -> bool:
    """Whether the lone die of ``face`` (named ``colour``, its pips' ``middle`` in crop
    pixels, found at ``ppm`` in a crop ``crop`` (height, width) pixels, where the camera's
    lean is ``lean_at(middle)``) shows a side face where a flat die shows none, by
    ``most_side_shift`` of its edge; False where its body cannot tell."""
    off = side_offness(config, face, colour, middle, bodies, lean_at, ppm, crop)
    return off is not None and off > config.most_side_shift


def side_offness(config: DiceConfig, face: TopFace, colour: str, middle: FloatArray,
                 bodies: list[tuple[Image, tuple[int, int]]],
                 lean_at: Callable[[FloatArray], FloatArray], ppm: float,
                 crop: tuple[int, int]) -> float | None:
    """How far the body of the lone die of ``face`` reaches about its pips' ``middle``
    otherwise than a flat die's (:func:`side_shift`, both ways together, a share of the
    edge), as :func:`cocked_by_side` takes it; None where its body cannot tell."""
    own = telling_body(config, face, colour, bodies, ppm, crop)
    if own is None:
        return None
    body, offset = own
    (_, (width, height), _) = face.rect
    edge = math.sqrt(width * height)
    along, across = side_shift(body, offset, middle, lean_at(middle), edge)
    return math.hypot(along, across)


def telling_body(config: DiceConfig, face: TopFace, colour: str,
                 bodies: list[tuple[Image, tuple[int, int]]], ppm: float,
                 crop: tuple[int, int]) -> tuple[Image, tuple[int, int]] | None:
    """The body of ``face``'s die where it shows the die's own side faces (a flat face not
    cut from touching dice, not black, away from the crop's border, no other body within
    ``side_clear_mm``), as the module's text says; None where it cannot."""
    if face.cut or not face.flat or colour == "black":
        return None
    own = _body_of(bodies, face.rect[0])
    if own is None:
        return None
    body, offset = own
    border = max(2, round(config.border_mm * ppm)) + 1
    if (offset[0] <= border or offset[1] <= border
            or offset[0] + body.shape[1] >= crop[1] - border
            or offset[1] + body.shape[0] >= crop[0] - border):
        return None
    if _nearest_other(bodies, own) < config.side_clear_mm * ppm:
        return None
    return own


def _body_of(bodies: list[tuple[Image, tuple[int, int]]], point: tuple[float, float]
             ) -> tuple[Image, tuple[int, int]] | None:
    """The body holding ``point`` (crop pixels), or None."""
    for body, (x0, y0) in bodies:
        column, row = round(point[0]) - x0, round(point[1]) - y0
        if 0 <= row < body.shape[0] and 0 <= column < body.shape[1] and body[row, column]:
            return body, (x0, y0)
    return None


def _nearest_other(bodies: list[tuple[Image, tuple[int, int]]],
                   own: tuple[Image, tuple[int, int]]) -> float:
    """The least distance (crop pixels) between ``own``'s bounding box and another body's."""
    body, (x0, y0) = own
    x1, y1 = x0 + body.shape[1], y0 + body.shape[0]
    nearest = math.inf
    for other, (ox0, oy0) in bodies:
        if other is body:
            continue
        ox1, oy1 = ox0 + other.shape[1], oy0 + other.shape[0]
        gap_x = max(0, ox0 - x1, x0 - ox1)
        gap_y = max(0, oy0 - y1, y0 - oy1)
        nearest = min(nearest, math.hypot(gap_x, gap_y))
    return nearest


__all__ = ["SIDE_WHY", "cocked_by_side", "side_offness", "side_shift", "telling_body"]
