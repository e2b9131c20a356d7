"""The brightness profiles along rays from a coin's middle (:mod:`vision.rims`): rays smoothed
along their length, the squared change of colour across a few samples, and the paper's level
at the rays' ends. Pure array arithmetic on flattened rays, each function exactly equal to its
plain numpy expression (the speed tests hold them to it)."""

from __future__ import annotations

import numpy as np

from vision.arrays import FloatArray
from vision.faces import plain_median


def squared_rises(planes: list[FloatArray], reach: int) -> FloatArray:
    """The squared length of the colour planes' change (K, J, S - 2 reach, float32) across
    ``reach`` samples each way of every sample of the rays smoothed (1, 2, 1; a ray's end
    samples as they are: noise must not make steps of its own; the rise towards the inside at
    sample ``reach + i`` is element ``i``). Computed on the flattened rays, whose
    last ``2 reach`` samples of each ray (mixing in the next ray) are dropped at the end.

    The samples are whole 8-bit values, so four times the smoothed ray (``a[i-1] + 2 a[i] +
    a[i+1]``), its differences, their squares and the squares' sum over three planes are
    whole numbers below 2**24, exact in float32: the sum over 16 is the squared change of
    the smoothed rays to the bit, without a division of every sample by 4."""
    shape = planes[0].shape
    squared = np.empty(shape, np.float32).reshape(-1)
    change = np.empty_like(squared)
    fourfold = np.empty_like(squared)
    rays = fourfold.reshape(shape)
    middle = fourfold[1:-1]
    length = len(squared) - 2 * reach
    # The flat tail past ``length`` is the last ray's dropped samples: never computed. The
    # first plane's squared change is the sum itself (0 plus a square is that square).
    for number, plane in enumerate(planes):
        flat = plane.reshape(-1)
        np.add(flat[:-2], flat[2:], out=middle)
        np.add(middle, flat[1:-1], out=middle)
        np.add(middle, flat[1:-1], out=middle)
        # A ray's end samples are as they are (their neighbours would mix in other rays).
        np.multiply(plane[..., 0], np.float32(4), out=rays[..., 0])
        np.multiply(plane[..., -1], np.float32(4), out=rays[..., -1])
        target = squared if number == 0 else change
        np.subtract(fourfold[:length], fourfold[2 * reach :], out=target[:length])
        np.multiply(target[:length], target[:length], out=target[:length])
        if number:
            np.add(squared[:length], change[:length], out=squared[:length])
    np.multiply(squared[:length], np.float32(1 / 16), out=squared[:length])
    return squared.reshape(shape)[..., : shape[-1] - 2 * reach]


def paper_levels(planes: list[FloatArray], samples: int
                  ) -> tuple[list[FloatArray], list[FloatArray]]:
    """Per colour plane of rays (K, J, S), each ray's paper (the median of its last
    ``samples``, (K, J)) and each seed's (the median over its rays, (K,)): every plane at
    once, and six samples' median through a sorting network (the same values as sorting)."""
    if samples == 6:
        # Each end sample of every plane's rays contiguous (6, P, K, J): the network's minima
        # and maxima then run over contiguous rows instead of every sixth value.
        ends = np.empty((samples, len(planes), *planes[0].shape[:2]), planes[0].dtype)
        for number, plane in enumerate(planes):
            ends[:, number] = np.moveaxis(plane[:, :, -samples:], 2, 0)
        papers = _middle_of_six(ends)
    else:
        papers = _middle(np.stack([plane[:, :, -samples:] for plane in planes]))
    return list(papers), list(plain_median(papers, axis=2))


#: Compare-exchanges that sort six values (an optimal network: 12 of them in 5 rounds).
_SIX_NETWORK = ((0, 5), (1, 3), (2, 4), (1, 2), (3, 4), (0, 3), (2, 5), (0, 1), (2, 3), (4, 5),
                (1, 2), (3, 4))


def _middle_of_six(samples: FloatArray) -> FloatArray:
    """:func:`_middle` of six samples along the first axis, from elementwise minima and maxima
    instead of a sort of every row of six (the same values)."""
    values = list(samples)
    for low, high in _SIX_NETWORK:
        values[low], values[high] = (np.minimum(values[low], values[high]),
                                     np.maximum(values[low], values[high]))
    return np.asarray((values[2] + values[3]) / 2)


def _middle(samples: FloatArray) -> FloatArray:
    """The median along the last axis of a few samples (the mean of the middle two)."""
    ordered = np.sort(samples, axis=-1)
    half = samples.shape[-1] // 2
    return np.asarray((ordered[..., half - 1] + ordered[..., half]) / 2)
