"""A die's top seen past the tray's felt: how far beyond the felt to look, and what to measure
the die against there.

A die stands in the tray, but the camera sees its top where the ray through it meets the mat:
swept away from the camera's foot by the die's height times the lean there. Near the tray's
side that faces away from the camera, a still die's top and pips can lie past the felt, over
the mat around it, and a crop of the felt alone cuts them off (the top is then no square). The
tray is read again over the felt widened on those sides by the farthest a die's top can
reach, each pixel measured against the felt inside it and against the mat's own colour
outside it, and a body kept only where it stands on the felt. A top cut from touching dice
is not taken past the felt (:func:`refuse_cut_past_felt`). The wider read only fills in
what the felt's read left unread, and with a 4-6 only (:func:`only_flat_new`).
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import TYPE_CHECKING

import numpy as np

from contract.observation import DieReading
from vision.arrays import FloatArray, Image
from vision.dice_pips import median_colour
from vision.parallax import CameraOverMat

if TYPE_CHECKING:
    from vision.dice_faces import TopFace

#: How much further a die's top reaches than its height times the lean (the ray meets the
#: mat further out than the lean says by the camera's height over its height less the die's),
#: and the blur of its outline, in mm.
_REACH_SLACK = 1.1
_BLUR_MM = 1.5


def beyond_felt(camera: CameraOverMat, bounds_mm: tuple[float, float, float, float],
                tallest_mm: float, step_mm: float) -> tuple[float, float, float, float]:
    """How far (mm: left, top, right, bottom) a still die's top of edge ``tallest_mm`` can be
    seen past each side of the felt ``bounds_mm``, a whole number of ``step_mm`` (a pixel):
    the lean's outward part on that side times the die's height, none where it leans in."""
    left, top, right, bottom = bounds_mm
    middles = np.array([[left, (top + bottom) / 2], [(left + right) / 2, top],
                        [right, (top + bottom) / 2], [(left + right) / 2, bottom]])
    outward = np.array([[-1.0, 0.0], [0.0, -1.0], [1.0, 0.0], [0.0, 1.0]])
    direction, size = camera.lean(middles)
    reach = []
    for side in range(4):
        out = float(direction[side] @ outward[side]) * float(size[side])
        if out <= 0.0:
            reach.append(0.0)
            continue
        mm = out * tallest_mm * _REACH_SLACK + _BLUR_MM
        reach.append(math.ceil(mm / step_mm) * step_mm)
    return reach[0], reach[1], reach[2], reach[3]


def background(image: Image, felt_box: tuple[int, int, int, int] | None
               ) -> tuple[FloatArray, FloatArray | None]:
    """The felt's colour (the median of the pixels within ``felt_box``, x0, y0, x1, y1, or
    of the whole crop) and, where the crop reaches past the felt, an image of what each pixel
    is measured against: the felt's colour on it, the mat's median colour around it."""
    height, width = image.shape[:2]
    if felt_box is None or felt_box == (0, 0, width, height):
        return median_colour(image[::3, ::3].reshape(-1, 3)), None
    x0, y0, x1, y1 = felt_box
    felt = median_colour(image[y0:y1, x0:x1][::3, ::3].reshape(-1, 3))
    outside = np.ones((height, width), bool)
    outside[y0:y1, x0:x1] = False
    mat = median_colour(image[outside][::3])
    colours = np.empty((height, width, 3), np.float32)
    colours[:] = mat
    colours[y0:y1, x0:x1] = felt
    return felt, colours


def on_felt(body: Image, offset: tuple[int, int], felt_box: tuple[int, int, int, int] | None,
            least: float) -> bool:
    """Whether at least ``least`` pixels of ``body`` (a patch at ``offset``) lie on the felt: a
    die rests in the tray, and what lies wholly past it is the mat's print."""
    if felt_box is None:
        return True
    x0, y0, x1, y1 = felt_box
    left, top = offset
    part = body[max(0, y0 - top):max(0, y1 - top), max(0, x0 - left):max(0, x1 - left)]
    return float(part.sum()) >= least


def sides_reached(bodies: list[tuple[Image, tuple[int, int]]], shape: tuple[int, ...],
                  border: int) -> tuple[bool, bool, bool, bool]:
    """Which sides of a crop of ``shape`` (left, top, right, bottom) a body reaches, within a
    pixel of the ``border`` px left out along them: a die there may be cut off."""
    height, width = shape[:2]
    reached = [False, False, False, False]
    for body, (left, top) in bodies:
        rows, columns = np.nonzero(body)
        if len(rows) == 0:
            continue
        reached[0] |= int(columns.min()) + left <= border
        reached[1] |= int(rows.min()) + top <= border
        reached[2] |= int(columns.max()) + left >= width - 1 - border
        reached[3] |= int(rows.max()) + top >= height - 1 - border
    return reached[0], reached[1], reached[2], reached[3]


def refuse_cut_past_felt(faces: list[TopFace], felt_box: tuple[int, int, int, int] | None
                         ) -> list[TopFace]:
    """``faces``, each one cut from a blob of touching dice whose top reaches past the felt
    refused: such a top has passed no test of its sweep, only of its squareness, and a die
    cocked against another may show a square top there (the felt's edge used to cut it
    off)."""
    if felt_box is None:
        return faces
    x0, y0, x1, y1 = felt_box
    kept = []
    for face in faces:
        if face.cut and face.flat:
            rows, columns = np.nonzero(face.mask)
            columns = columns + face.offset[0]
            rows = rows + face.offset[1]
            if (columns.min() < x0 or rows.min() < y0 or columns.max() >= x1
                    or rows.max() >= y1):
                face = replace(face, flat=False, why="touching dice past the felt")
        kept.append(face)
    return kept


def only_flat_new(first: tuple[tuple[DieReading, str], ...],
                  widened: tuple[tuple[DieReading, str], ...], least_value: int,
                  same_mm: float) -> tuple[tuple[DieReading, str], ...]:
    """The ``first`` read (the felt alone), each die it left unread taken from the
    ``widened`` read (the die within ``same_mm`` of it there) where that reads a value of
    ``least_value`` or more, and each die found only in the widened read added with such a
    value (None under it). A top seen past the felt passed only the tests of a square, and a
    cocked die's 1-3 can show one; four pips or more lie on a grid as long both ways only on
    a flat face. A die the felt's read read keeps its reading: the felt showed all of it."""
    def flat(die: DieReading, why: str) -> tuple[DieReading, str]:
        if die.value is not None and die.value < least_value:
            return (replace(die, value=None, confidence=0.0),
                    f"past the felt: {die.value} under {least_value}")
        return die, why

    def near(die: DieReading, others: tuple[tuple[DieReading, str], ...]
             ) -> tuple[DieReading, str] | None:
        close = [(math.dist(die.centre_mm, other.centre_mm), index)
                 for index, (other, _) in enumerate(others)]
        close = [item for item in close if item[0] <= same_mm]
        return others[min(close)[1]] if close else None

    kept = []
    for die, why in first:
        again = near(die, widened) if die.value is None else None
        if again is not None and again[0].value is not None:
            taken = flat(*again)
            kept.append(taken if taken[0].value is not None else (die, taken[1]))
        else:
            kept.append((die, why))
    kept.extend(flat(die, why) for die, why in widened if near(die, first) is None)
    return tuple(sorted(kept, key=lambda item: (item[0].centre_mm[1], item[0].centre_mm[0])))


__all__ = ["background", "beyond_felt", "on_felt", "only_flat_new", "refuse_cut_past_felt",
           "sides_reached"]
