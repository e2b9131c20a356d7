"""What a coin's face shows: its colour against the paper, and how bright it is.

The face is sampled on rings inside the top face's outline (away from the rim, where the paper
and the edge's own reflections blur in), leaving out pixels a pawn covers and pixels the camera
clipped (a glint says nothing of the metal's colour). The colour is the per-channel median of
what is left, as ``(ln(red/green), ln(blue/green))`` in the light-normalised view, where white
paper is neutral: copper and brass are far from it towards red and yellow, silver near it, but
every metal also takes the colour of what it mirrors (:mod:`vision.frame_model` therefore
compares coins of one frame with each other, not with fixed colours).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray

#: Rings the face is sampled on, as fractions of the top face's radius.
FACE_RINGS = np.array([0.2, 0.35, 0.5, 0.62, 0.74])
#: Samples round each ring.
FACE_ANGLES = 32
#: The least share of a face's samples that must be usable for its colour to count.
LEAST_USABLE = 0.15
#: A channel at or above this in the camera's frame was clipped.
CLIPPED = 250

_ANGLES = np.linspace(0, 2 * math.pi, FACE_ANGLES, endpoint=False)
_UNIT_X = (np.cos(_ANGLES)[:, None] * FACE_RINGS[None, :]).ravel()
_UNIT_Y = (np.sin(_ANGLES)[:, None] * FACE_RINGS[None, :]).ravel()


def face_maps(centres: FloatArray, radii: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Where each face is sampled: ``cv2.remap`` maps with one row per coin."""
    map_x = (centres[:, 0, None] + radii[:, None] * _UNIT_X[None]).astype(np.float32)
    map_y = (centres[:, 1, None] + radii[:, None] * _UNIT_Y[None]).astype(np.float32)
    return map_x, map_y


def face_colours(
    image: Image, clipped: Image, pawns: Image, centres: FloatArray, radii: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Per coin (top-face centres and radii in px): the face colour (K, 2; NaN where too
    little is usable), its brightness (K,; median of the channels' mean, 1 = paper) and the
    share of its samples a pawn covers (K,)."""
    count = len(centres)
    if count == 0:
        return np.zeros((0, 2)), np.zeros(0), np.zeros(0)
    map_x, map_y = face_maps(centres, radii)
    pixels = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    blocked = cv2.remap(cv2.bitwise_or(pawns, clipped), map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    on_pawn = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    values = pixels.astype(np.float32)
    usable = ~blocked & (values.max(axis=2) > 8)
    masked = np.where(usable[..., None], values, np.nan)
    with np.errstate(all="ignore"):
        medians = np.nanmedian(masked, axis=1)  # (K, 3) blue, green, red
    enough = usable.mean(axis=1) >= LEAST_USABLE
    blue, green, red = (np.maximum(medians[:, channel], 1.0) for channel in range(3))
    colour = np.column_stack([np.log(red / green), np.log(blue / green)])
    colour[~enough] = np.nan
    brightness = np.where(enough, (blue + green + red) / 3 / 200.0, np.nan)
    return colour, brightness, on_pawn.mean(axis=1)


def clipped_mask(view: Image) -> Image:
    """Pixels of the (un-normalised) top view where the camera clipped a channel (255)."""
    below = cv2.inRange(view, (0, 0, 0), (CLIPPED - 1,) * 3)
    return cv2.bitwise_not(below)
