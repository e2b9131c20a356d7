"""A die's body colour named, after white-balancing by the tray felt's printed colour: shared
by the reader's readings (:mod:`vision.dice`) and the search for black dice's bodies
(:mod:`vision.dice_dark`)."""

from __future__ import annotations

import cv2
import numpy as np

from calibration.drawing import TRAY_FILL
from vision.arrays import FloatArray

#: A colour whose white-balanced value (HSV, 0-255) lies under this is black.
BLACK_VALUE = 70


def colour_name(body: FloatArray, felt: FloatArray) -> str:
    """A die's body colour (BGR) named after white-balancing by the felt's printed colour."""
    printed = np.array(TRAY_FILL[::-1], np.float32)
    balanced = np.clip(np.asarray(body, np.float32) * printed / np.maximum(felt, 1.0), 0, 255)
    pixel = balanced.astype(np.uint8).reshape(1, 1, 3)
    hue, saturation, value = (int(channel) for channel in cv2.cvtColor(
        pixel, cv2.COLOR_BGR2HSV)[0, 0])
    if value < BLACK_VALUE:
        return "black"
    if saturation < 70:
        return "white" if value > 140 else "grey"
    if hue < 10 or hue >= 160:
        return "red"
    if hue < 22:
        return "orange"
    if hue < 38:
        return "yellow"
    if hue < 85:
        return "green"
    if hue < 130:
        return "blue"
    return "purple"


__all__ = ["BLACK_VALUE", "colour_name"]
