"""A top face beside another die placed again by where its own colour meets the other's, for
its pips to be read again (step 4 of :mod:`vision.dice`).

A die's top is a square of its own colour. Beside a touching die, the outline's rectangle
is found at the bodies' coarse detail, where the seam between two bodies (and the sweep
that takes off a die's side faces) may leave the top short on the side that faces the
other die and long on the other side, by up to a tenth of the edge: the pips nearest the
seam then fall outside the face's middle, or the grid lies off the outline's middle, and
the die is left unread. Blur mixes light, so the seam between two dice is where the picture
lies halfway between their colours; a nearer die hides only the farther one's near side
face (two dice of a throw stand at one height), never its top, so each top reaches that
seam, less the farther die's side face where they stand apart. The face's own pixels are
those nearer its colour than the other die's and than the felt's, joined to its middle
(pips, holes in it, filled); its side that faces the other die is put where they end along
the line joining the two dice, the square keeping its size and turn, and the pixels that
are not its own are painted its colour so that the other die's pips do not stand out.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.dice_colour import colour_name
from vision.dice_layout import read_face_pips_placed
from vision.dice_pips import masked_median
from vision.dice_seam import painted_outside, region_holding

if TYPE_CHECKING:
    from vision.dice import DiceConfig
    from vision.dice_faces import TopFace

Rect = tuple[tuple[float, float], tuple[float, float], float]

#: How far past the outline's rectangle (a share of its edge, each way) the face's own
#: pixels are looked for: more than a top found short by the seam lacks (the blur's reach
#: each side of it, about a sixth of a 16 mm die's edge).
REACH = 0.25
#: The share of the face's own pixels past its seam's end (along the line to the other
#: die) that is taken as stray, so one pixel does not set the end.
STRAY = 0.02


#: How far apart (in edges) two tops' middles may lie for the dice to touch: side by side
#: they lie one edge apart, corner to corner up to the diagonal's length.
BESIDE = 1.5


def nearest_beside(faces: list[TopFace], face: TopFace) -> TopFace | None:
    """The other top of ``faces`` nearest ``face``, where it lies near enough to touch it
    (:data:`BESIDE` of its edge); else None."""
    edge = math.sqrt(face.rect[1][0] * face.rect[1][1])
    near = [(math.dist(face.rect[0], other.rect[0]), index)
            for index, other in enumerate(faces) if other is not face and other.mask.any()]
    near = [item for item in near if item[0] <= BESIDE * edge]
    return faces[min(near)[1]] if near else None


def other_die(image: Image, face: TopFace, beside: TopFace) -> tuple[FloatArray, FloatArray]:
    """The colour (BGR median of its top in ``image``, where the faces were found) of the
    die ``beside`` ``face``, and the unit vector from ``face``'s middle towards its."""
    height, width = beside.mask.shape
    x0, y0 = beside.offset
    colour = masked_median(image[y0:y0 + height, x0:x0 + width], beside.mask)
    towards = np.subtract(beside.rect[0], face.rect[0]).astype(np.float64)
    return colour, towards / max(float(np.linalg.norm(towards)), 1e-9)


def own_pixels(window: Image, rect: Rect, colour: FloatArray, other: FloatArray,
               felt: FloatArray) -> Image | None:
    """The face's own pixels (uint8 0/1) of ``window`` (BGR) within ``rect`` grown by
    :data:`REACH` of its edge: nearer the face's ``colour`` than halfway to ``other`` (the
    other die's) and to ``felt``, each along the line between the two colours, joined to the
    rectangle's middle, holes filled. None where the middle holds none."""
    (cx, cy), (width, height), angle = rect
    edge = (width + height) / 2
    grown = ((cx, cy), (width + 2 * REACH * edge, height + 2 * REACH * edge), angle)
    inside = np.zeros(window.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, np.round(cv2.boxPoints(grown)).astype(np.int32), 1)
    pixels = window.astype(np.float32)
    own = inside > 0
    for away in (other, felt):
        step = np.asarray(away, np.float32) - np.asarray(colour, np.float32)
        length = float(step @ step)
        if length < 1.0:
            continue
        along = (pixels - np.asarray(colour, np.float32)) @ (step / length)
        own &= along < 0.5
    middle = np.zeros(window.shape[:2], np.uint8)
    cv2.fillConvexPoly(middle, np.round(cv2.boxPoints(
        ((cx, cy), (0.5 * width, 0.5 * height), angle))).astype(np.int32), 1)
    return region_holding(own.astype(np.uint8), middle)


def seam_shift(own: Image, rect: Rect, towards: FloatArray) -> float:
    """How far (pixels) ``rect`` must move along the unit ``towards`` (to the other die) for
    its side facing that way to lie where its ``own`` pixels end along it."""
    (cx, cy), (width, height), angle = rect
    turn = math.radians(angle)
    axes = np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]])
    # The square's reach from its middle along ``towards``: to the side that line crosses.
    sizes = np.array([width, height]) / 2
    cosines = np.abs(axes @ towards)
    reach = float(min(size / cosine
                      for size, cosine in zip(sizes, cosines, strict=True) if cosine > 1e-6))
    found = cv2.findNonZero(own)
    if found is None:
        return 0.0
    along = (found.reshape(-1, 2).astype(np.float64) - np.array([cx, cy])) @ towards
    return float(np.quantile(along, 1.0 - STRAY)) - reach


def read_beside(config: DiceConfig, window: Image, rect: Rect,
                colours: tuple[FloatArray, FloatArray], felt: FloatArray, towards: FloatArray,
                most_shift: float
                ) -> tuple[int | None, float, str, tuple[float, float] | None] | None:
    """The pips of the face ``rect`` (in ``window``'s pixels) read again with its side that
    faces the other die (``towards`` it, a unit vector) put at their seam, ``colours`` being
    the face's and the other die's (BGR): the reading where that reads a value, else None.

    Only a square top (its sides within ``most_stretch`` of each other) of a die named apart
    from the other is placed so, and only towards the other die, by ``most_shift`` pixels at
    most (the blur's reach each side of the seam): the seam is where the picture lies halfway
    between two colours, which two dice of one name do not show, and a top found short by
    the seam lacks no more than the blur took. A die cocked against another shows a top with
    its side face, no square, or of its own colour past the rectangle on the side away from
    the other die (tuning cocked frames 188, 412, 679, 726), and is left as it was."""
    width, height = rect[1]
    if colour_name(colours[0], felt) == colour_name(colours[1], felt) or \
            1.0 - min(width, height) / max(width, height, 1e-9) > config.most_stretch:
        return None
    own = own_pixels(window, rect, colours[0], colours[1], felt)
    if own is None:
        return None
    shift = seam_shift(own, rect, towards)
    if not 0.0 <= shift <= most_shift:
        return None
    (cx, cy), size, angle = rect
    placed = ((cx + shift * float(towards[0]), cy + shift * float(towards[1])), size, angle)
    value, confidence, why, middle = read_face_pips_placed(
        config, painted_outside(window, own, colours[0]), colours[0], placed)
    return None if value is None else (value, confidence, why, middle)


__all__ = ["nearest_beside", "other_die", "own_pixels", "read_beside", "seam_shift"]
