"""Where rays from candidate coins' middles found the coin's edge (:mod:`vision.rims`): the
rays' edge points and flags, with the two ways a second set of rays is combined with the
first (a far reach replacing short rays, a stack's further centre adding its own)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import BoolArray, FloatArray

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True, eq=False)
class RayEdges:
    """Where the rays from K centres found their coin's edge: points (K, J, 2) px, whether
    each counts (K, J), the edge's height (K, J), whether a pawn lies at it (K, J), and
    whether the ray ran out on the coin without reaching paper (K, J)."""

    points: FloatArray
    valid: BoolArray
    peak: FloatArray
    crossed: BoolArray
    ran_out: BoolArray

    def replaced(self, other: RayEdges, rows: NDArray[np.intp]) -> RayEdges:
        """These rays with those of ``rows`` replaced by ``other``'s."""
        fields = (self.points, self.valid, self.peak, self.crossed, self.ran_out)
        theirs = (other.points, other.valid, other.peak, other.crossed, other.ran_out)
        copies = [np.array(mine) for mine in fields]
        for copy, values in zip(copies, theirs, strict=True):
            copy[rows] = values
        return RayEdges(*copies)

    def joined(self, other: RayEdges, rows: NDArray[np.intp]) -> RayEdges:
        """These rays with ``other``'s (measured for ``rows`` of them) added: the rows
        not in ``rows`` get invalid copies."""
        def join(mine: FloatArray, theirs: FloatArray) -> FloatArray:
            extra = np.array(mine)
            extra[rows] = theirs
            return np.concatenate([mine, extra], axis=1)

        missing = np.ones(self.valid.shape, bool)
        missing[rows] = False
        return RayEdges(join(self.points, other.points),
                         join(self.valid, other.valid) & ~np.concatenate(
                             [np.zeros_like(missing), missing], axis=1),
                         join(self.peak, other.peak), join(self.crossed, other.crossed),
                         join(self.ran_out, other.ran_out))
