"""Sampling an image along rays from circle centres: the rays every outline measurement
(:mod:`vision.rims`, :mod:`vision.tops`) reads colours and flags along, as ``cv2.remap`` maps."""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image

if TYPE_CHECKING:
    from numpy.typing import NDArray


@lru_cache(maxsize=4)
def ray_directions(ray_count: int) -> FloatArray:
    """Unit directions of ``ray_count`` rays evenly round a circle (J, 2), read-only."""
    angles = np.linspace(0.0, 2 * math.pi, ray_count, endpoint=False)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    directions.setflags(write=False)
    return directions


def ray_maps(centres: FloatArray, ray_count: int, radii: FloatArray
             ) -> tuple[FloatArray, FloatArray]:
    """``cv2.remap`` maps of ``ray_count`` rays from each centre at ``radii`` px ((S,) for
    every centre or (K, S) each its own): float32 (K * J, S) each, one row a ray."""
    directions = ray_directions(ray_count)
    length = radii.shape[-1]
    along = radii.reshape(-1, 1, length)  # (1|K, 1, S)
    maps = []
    for axis in range(2):
        offsets = (directions[None, :, axis, None] * along).reshape(len(along), -1)
        # Added in float64 centre by centre (a contiguous row plus a number: numpy's fast
        # loop, several times cheaper than the sum broadcast over every centre's rows), then
        # rounded to float32.
        coordinate = np.empty((len(centres), offsets.shape[1]))
        for row, centre in enumerate(centres[:, axis]):
            np.add(offsets[row % len(offsets)], centre, out=coordinate[row])
        maps.append(coordinate.astype(np.float32).reshape(-1, length))
    return maps[0], maps[1]


def sample_maps(image: Image, maps: tuple[FloatArray, FloatArray], count: int, ray_count: int,
                interpolation: int = cv2.INTER_LINEAR) -> FloatArray:
    """``image`` sampled at ``maps`` (from :func:`ray_maps`): (K, J, S) or (K, J, S, C)."""
    sampled = cv2.remap(image, maps[0], maps[1], interpolation, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(sampled).reshape(count, ray_count, maps[0].shape[1], *image.shape[2:])


def sample_rays(
    image: Image, centres: FloatArray, ray_count: int, radii: FloatArray,
    interpolation: int = cv2.INTER_LINEAR,
) -> FloatArray:
    """``image`` sampled along ``ray_count`` rays from each centre at ``radii`` px ((S,) for
    every centre or (K, S) each its own): an array (K, J, S) or (K, J, S, C) for a C-channel
    image."""
    return sample_maps(image, ray_maps(centres, ray_count, radii), len(centres), ray_count,
                       interpolation)


def colour_planes(samples: FloatArray) -> list[FloatArray]:
    """The blue, green and red planes (each (K, J, S) float32) of colour ray samples (of a
    BGR image, or of one with a fourth channel, see :func:`with_fourth_channel`)."""
    count, rays, length, channels = samples.shape[:4]
    planes = cv2.split(samples.reshape(count * rays, length, channels))[:3]
    return [plane.reshape(count, rays, length).astype(np.float32) for plane in planes]


def with_fourth_channel(image: Image) -> Image:
    """A BGR uint8 image with a fourth channel added, for sampling rays: OpenCV's remap
    interpolates four interleaved channels faster than three, to the same values in the
    first three (other images are returned as they are)."""
    if image.ndim != 3 or image.shape[2] != 3 or image.dtype != np.uint8:
        return image
    return np.asarray(cv2.cvtColor(image, cv2.COLOR_BGR2BGRA))


def gather_along_rays(values: FloatArray, indices: NDArray[np.intp]) -> FloatArray:
    """``values`` (K, J, S) at per-ray ``indices`` (K, J, W) along the last axis: a faster
    ``np.take_along_axis`` for this one shape."""
    count, rays, length = values.shape
    flat = indices + (np.arange(count * rays) * length).reshape(count, rays, 1)
    return np.asarray(values.reshape(-1)[flat])


__all__ = ["colour_planes", "gather_along_rays", "ray_directions", "ray_maps", "sample_maps",
           "sample_rays", "with_fourth_channel"]
