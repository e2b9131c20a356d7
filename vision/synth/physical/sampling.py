"""Bilinear texture look-ups at arbitrary points, for flat arrays of any length.

``cv2.remap`` filters fast but wants maps under 32767 pixels a side; flat sample lists of a
frame are millions long, so they are folded into rows of 1024 and unfolded afterwards.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
_ROW = 1024


def sample(image: FloatArray, x: npt.NDArray[np.floating], y: npt.NDArray[np.floating],
           border: int = cv2.BORDER_REPLICATE) -> FloatArray:
    """``image`` (H x W or H x W x C, float32) at texel coordinates ``x``, ``y`` (any shape).

    Texel centres are at integer coordinates. Returns ``x.shape`` or ``x.shape + (C,)``.
    """
    shape = np.shape(x)
    count = int(np.prod(shape))
    channels = image.shape[2] if image.ndim == 3 else 0
    if count == 0:
        return np.zeros((*shape, channels) if channels else shape, np.float32)
    rows = -(-count // _ROW)
    map_x = np.zeros(rows * _ROW, np.float32)
    map_y = np.zeros(rows * _ROW, np.float32)
    map_x[:count] = np.ravel(x)
    map_y[:count] = np.ravel(y)
    out = cv2.remap(image, map_x.reshape(rows, _ROW), map_y.reshape(rows, _ROW),
                    cv2.INTER_LINEAR, borderMode=border)
    if channels:
        return np.asarray(out.reshape(-1, channels)[:count].reshape(*shape, channels))
    return np.asarray(out.reshape(-1)[:count].reshape(shape))
