"""The array types the vision stages pass between them, named once for every module: images,
float arrays and masks are numpy arrays, typed loosely since OpenCV returns them untyped."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

__all__ = ["BoolArray", "FloatArray", "Image"]

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
    BoolArray = NDArray[np.bool_]
else:
    Image = np.ndarray
    FloatArray = np.ndarray
    BoolArray = np.ndarray
