"""The small statistics the frame model (:mod:`vision.frame_model`) is built from: a
Student-t's log-density, the best split of sorted values into two groups, a robust weighted
spread, how far colours lie from the metals' tints, and whether values stand out of a
reference's (which the stack checks ask of their scores)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import BoolArray, FloatArray

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: A tinted metal's colour counts as its own from this share of its tint up to :data:`TINT_LONG`
#: times it (see :func:`tint_gaps`).
TINT_SHORT = 0.6
TINT_LONG = 2.5

#: The Student-t density's scale at 0 by degrees of freedom: Gamma((v+1)/2) / (sqrt(v pi)
#: Gamma(v/2)).
T_SCALE = {2.0: 0.35355, 3.0: 0.36755, 4.0: 0.375, 5.0: 0.37961}


def student_log_density(squared: FloatArray, dof: float) -> FloatArray:
    """Log-density (up to a constant) of a Student-t at squared standardised distances."""
    return -0.5 * (dof + 1) * np.log1p(squared / dof)


def best_split(order: FloatArray, least_gap: float, least_spread: float) -> float | None:
    """Where sorted values split best into a low and a high group: the split whose groups'
    means lie farthest apart for their pooled spread (at least ``least_spread``), among the
    splits whose means lie ``least_gap`` apart or more; None where no split does. Every
    split at once, from running sums."""
    count = len(order)
    if count < 2:
        return None
    sizes = np.arange(1, count, dtype=np.float64)
    sums, squares = np.cumsum(order)[:-1], np.cumsum(order**2)[:-1]
    low_mean = sums / sizes
    high_mean = (order.sum() - sums) / (count - sizes)
    # Each group's sum of squared deviations from its mean.
    low_deviation = np.maximum(squares - sums * low_mean, 0.0)
    high_deviation = np.maximum((order**2).sum() - squares
                                - (order.sum() - sums) * high_mean, 0.0)
    gap = high_mean - low_mean
    spread = np.sqrt((low_deviation + high_deviation) / count)
    score = np.where(gap >= least_gap, gap / np.maximum(spread, least_spread), 0.0)
    best = int(np.argmax(score))
    if score[best] <= 0.0:
        return None
    return float((order[best] + order[best + 1]) / 2)


def tint_gaps(residual: FloatArray, tints: FloatArray, rows: BoolArray,
               stretch: FloatArray | None = None) -> FloatArray:
    """(N, M) squared distance of each colour (its residual from the silver field, N x 2)
    from each metal's tint (M x 2), for the ``rows`` that count. Along a tint, a gap counts
    ``1 / stretch`` of itself (M,: the frame's coins of that metal differ more in how
    strongly they are tinted than across it); without a ``stretch``, a colour stronger than
    its tint costs little: only falling short of :data:`TINT_SHORT` of it, or exceeding it
    :data:`TINT_LONG` times, counts along the tint. Across it every colour counts. Silver's
    tint is none."""
    strength = np.hypot(tints[:, 0], tints[:, 1])  # (M,)
    unit = tints / np.maximum(strength, 1e-9)[:, None]
    along = residual @ unit.T  # (N, M)
    across = residual[:, None, 0] * unit[None, :, 1] - residual[:, None, 1] * unit[None, :, 0]
    if stretch is None:
        short = np.maximum(TINT_SHORT * strength[None] - along, 0.0)
        long = 0.5 * np.maximum(along - TINT_LONG * strength[None], 0.0)
        tinted = short**2 + long**2 + across**2
    else:
        tinted = ((along - strength[None]) / stretch[None]) ** 2 + across**2
    plain = (residual**2).sum(axis=1)[:, None]
    squared = np.where(strength[None] > 1e-6, tinted, plain)
    return np.where(rows[:, None], squared, 0.0)


def weighted_spread(values: FloatArray, weights: FloatArray) -> float:
    """A robust spread: 1.4826 times the weighted median absolute value."""
    if weights.sum() <= 0:
        return 0.0
    order = np.argsort(np.abs(values))
    cumulative = np.cumsum(weights[order])
    middle = order[np.searchsorted(cumulative, cumulative[-1] / 2)]
    return float(1.4826 * abs(values[middle]))


def above_reference(values: FloatArray, reference: NDArray[np.intp], least_count: int,
                    spreads: float, least_spread: float, when_too_few: bool,
                    least_relative_spread: float = 0.0) -> NDArray[np.bool_]:
    """Per value: whether it lies ``spreads`` robust spreads (1.4826 times the median absolute
    deviation, at least ``least_spread`` and ``least_relative_spread`` of the median) above
    the median of the finite ``values`` at ``reference``; ``when_too_few`` for every value
    where fewer than ``least_count`` of those are finite. NaN stands out of nothing."""
    measured = values[reference]
    measured = measured[np.isfinite(measured)]
    if len(measured) < least_count:
        return np.full(len(values), when_too_few)
    middle = float(np.median(measured))
    spread = max(1.4826 * float(np.median(np.abs(measured - middle))), least_spread,
                 least_relative_spread * middle)
    return np.nan_to_num(values, nan=-np.inf) > middle + spreads * spread


__all__ = [
    "TINT_LONG",
    "TINT_SHORT",
    "T_SCALE",
    "above_reference",
    "best_split",
    "student_log_density",
    "tint_gaps",
    "weighted_spread",
]
