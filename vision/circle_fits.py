"""Circles and swept discs through a coin's rim points: consensus, robust and stack fits.

Rim points (:mod:`vision.rims`) come one per ray, some of them wrong (a shadow's edge, a
neighbour's, a glint's). :func:`consensus_circles` finds the circle most points agree with from
a seed far off the coin's middle; :func:`fit_circles` refines it, points far off counting less;
a stack leans away from the camera as a disc swept along the lean (:mod:`vision.parallax`),
which :func:`fit_capsules` fits where the far side shows it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import BoolArray, FloatArray
from vision.faces import nan_median

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from vision.rims import RimConfig


def vector_length(across: FloatArray, down: FloatArray) -> FloatArray:
    """The lengths of vectors given by their components: a square root of squares, several
    times cheaper than ``np.hypot`` (which guards against overflow that lengths in pixels
    never reach)."""
    return np.sqrt(across * across + down * down)


@lru_cache(maxsize=4)
def _triplets(ray_count: int, count: int) -> NDArray[np.intp]:
    """``count`` fixed triplets of ray indices spread round the circle (about a third of a
    turn apart, so that three points pin a circle down well)."""
    rng = np.random.default_rng(ray_count)
    first = rng.integers(0, ray_count, count)
    third = ray_count // 3
    second = (first + third + rng.integers(-third // 3, third // 3 + 1, count)) % ray_count
    last = (first + 2 * third + rng.integers(-third // 3, third // 3 + 1, count)) % ray_count
    triplets = np.column_stack([first, second, last])
    triplets.setflags(write=False)
    return triplets


def consensus_circles(
    config: RimConfig, points: FloatArray, valid: BoolArray, pixels_per_mm: float,
    bounds: tuple[FloatArray, FloatArray] | None = None, origins: FloatArray | None = None,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The circle through three rim points that most other rim points agree with, per seed
    (random sample consensus over fixed triplets): centres (K, 2), radii (K,) and how many
    points agree (K,). Robust to a seed far off the coin's middle, whose rays reach the far
    rim only on one side, and to rim points on a neighbour or a shadow. Radii lie within
    ``bounds`` (least and most px, per seed), by default the config's coin radii; a circle
    must hold its rays' ``origins`` (the seeds, where given) within ``seed_reach_mm`` of its
    rim, so that a seed on one coin does not end on the coin touching it."""
    triplets = _triplets(config.ray_count, config.consensus_triplets)
    a, b, c = (points[:, triplets[:, index], :] for index in range(3))  # (K, T, 2)
    usable = valid[:, triplets].all(axis=2)
    # The circumcentre of each triangle.
    bx, by = b[..., 0] - a[..., 0], b[..., 1] - a[..., 1]
    cx, cy = c[..., 0] - a[..., 0], c[..., 1] - a[..., 1]
    determinant = 2 * (bx * cy - by * cx)
    usable &= np.abs(determinant) > 1e-6
    determinant = np.where(usable, determinant, 1.0)
    ux = (cy * (bx**2 + by**2) - by * (cx**2 + cy**2)) / determinant
    uy = (bx * (cx**2 + cy**2) - cx * (bx**2 + by**2)) / determinant
    centres = a + np.stack([ux, uy], axis=2)
    radii = np.hypot(ux, uy)
    if bounds is None:
        least = np.full(len(points), config.least_radius_mm * pixels_per_mm)
        most = np.full(len(points), config.most_radius_mm * pixels_per_mm)
    else:
        least, most = bounds
    usable &= (radii >= least[:, None]) & (radii <= most[:, None])
    if origins is not None:
        reach = radii + config.seed_reach_mm * pixels_per_mm
        usable &= np.hypot(centres[..., 0] - origins[:, None, 0],
                           centres[..., 1] - origins[:, None, 1]) < reach
    across = points[:, None, :, 0] - centres[..., None, 0]
    down = points[:, None, :, 1] - centres[..., None, 1]
    # (K, T, J): a square root of squares, several times cheaper than ``np.hypot`` on the
    # hundreds of thousands of pairs a frame has; the points lie within a coin's reach, so
    # nothing overflows.
    across *= across
    down *= down
    across += down
    distance = np.sqrt(across, out=across)
    tolerance = config.agree_mm * 1.5 * pixels_per_mm
    distance -= radii[..., None]
    agree = np.abs(distance, out=distance) < tolerance
    agree &= valid[:, None, :]
    votes = np.count_nonzero(agree, axis=2)  # a count, without summing booleans as integers
    votes = np.where(usable, votes, -1)
    best = np.argmax(votes, axis=1)
    rows = np.arange(len(points))
    return centres[rows, best], radii[rows, best], votes[rows, best]


def fit_circles(
    config: RimConfig, points: FloatArray, valid: BoolArray, start: FloatArray,
    pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray]:
    """Circles through rim points (K, J, 2), robustly (points far off count less, farther
    still not at all), from ``start`` centres: centres (K, 2) and radii (K,)."""
    centre = start.copy()
    offset = points - centre[:, None, :]
    with np.errstate(all="ignore"):
        radius = nan_median(np.where(valid, vector_length(offset[..., 0], offset[..., 1]), np.nan),
                              axis=1)
    radius = np.nan_to_num(radius, nan=9.0 * pixels_per_mm)
    for _ in range(config.fit_rounds):
        offset = points - centre[:, None, :]
        error = vector_length(offset[..., 0], offset[..., 1]) - radius[:, None]
        centre, radius = _weighted_circle(points, robust_weights(config, error, valid,
                                                                  pixels_per_mm), centre, radius)
    return centre, radius


def robust_weights(config: RimConfig, error: FloatArray, valid: BoolArray,
                    pixels_per_mm: float) -> FloatArray:
    """Huber weights of rim points by their distance from the outline: full within
    ``agree_mm``, falling as 1 / distance beyond, none beyond ``reject_mm``."""
    soft = config.agree_mm * pixels_per_mm
    size = np.abs(error)
    keep = valid & (size < config.reject_mm * pixels_per_mm)
    return np.where(keep, np.minimum(1.0, soft / np.maximum(size, 1e-6)), 0.0)


def _weighted_circle(
    points: FloatArray, weight: FloatArray, centre: FloatArray, radius: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """The weighted algebraic circle fit per row; rows with too little weight keep their
    circle."""
    counted = weight > 0
    x = np.where(counted, points[..., 0] - centre[:, None, 0], 0.0)
    y = np.where(counted, points[..., 1] - centre[:, None, 1], 0.0)
    rows = np.stack([x, y, np.ones_like(x), -(x**2 + y**2)], axis=1)  # (K, 4, J)
    sums = (rows * weight[:, None, :]) @ rows.transpose(0, 2, 1)
    normal = sums[:, :3, :3] + np.eye(3) * 1e-6
    # Too few points, or all on one line: the row keeps its circle.
    solvable = (counted.sum(axis=1) >= 5) & _conditioned(normal, 1e12)
    normal[~solvable] = np.eye(3)
    solution = np.linalg.solve(normal, sums[:, :3, 3:])[..., 0]
    shift = -solution[:, :2] / 2
    new_radius = np.sqrt(np.maximum((shift**2).sum(axis=1) - solution[:, 2], 1e-9))
    sane = solvable & np.isfinite(new_radius) & (np.hypot(shift[:, 0], shift[:, 1]) < radius)
    return (np.where(sane[:, None], centre + shift, centre),
            np.where(sane, new_radius, radius))


def _conditioned(matrices: FloatArray, most: float) -> BoolArray:
    """Whether each symmetric positive definite 3 x 3 matrix (K, 3, 3) has a condition number
    below ``most`` by ``np.linalg.cond``: surely so where its trace cubed over its
    determinant (at least the condition number of such a matrix) lies a hundred times
    below; only the others are decomposed (a singular value decomposition per matrix costs
    far more than the bound)."""
    a, b, c, d, e, f, g, h, i = (matrices[:, row, column] for row in range(3)
                                 for column in range(3))
    determinant = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
    trace = a + e + i
    with np.errstate(all="ignore"):
        sure = (determinant > 0) & (trace**3 < determinant * (most / 100))
    answer = sure.copy()
    doubtful = np.flatnonzero(~sure)
    if len(doubtful):
        answer[doubtful] = np.linalg.cond(matrices[doubtful]) < most
    return answer


def fit_capsules(
    config: RimConfig, points: FloatArray, valid: BoolArray, centres: FloatArray,
    radii: FloatArray, sweep: FloatArray, lean: FloatArray, expected_sweep: FloatArray,
    pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Refine each outline as a disc swept along its lean (the base at ``centres``, the top
    face ``sweep`` px further): Gauss-Newton steps on (centre, radius, sweep) with robust
    weights, the sweep held near ``expected_sweep`` (a single coin's) unless the rim points
    show a taller stack. Returns centres, radii and sweeps."""
    centre, radius, length = centres.copy(), radii.copy(), sweep.copy()
    prior = 1.0 / (config.sweep_spread_mm * pixels_per_mm) ** 2
    for _ in range(config.fit_rounds):
        offset = points - centre[:, None, :]
        along = np.clip((offset * lean[:, None, :]).sum(axis=2), 0.0, length[:, None])
        nearest = offset - along[..., None] * lean[:, None, :]
        distance = np.maximum(vector_length(nearest[..., 0], nearest[..., 1]), 1e-6)
        error = distance - radius[:, None]
        normal = nearest / distance[..., None]
        at_top = along >= length[:, None] - 1e-9
        weight = robust_weights(config, error, valid, pixels_per_mm)
        # d(error)/d(centre x, centre y, radius, sweep)
        jacobian = np.stack([-normal[..., 0], -normal[..., 1], -np.ones_like(error),
                             -(normal * lean[:, None, :]).sum(axis=2) * at_top], axis=2)
        weighted = jacobian * weight[..., None]
        normal_matrix = weighted.transpose(0, 2, 1) @ jacobian + np.eye(4) * 1e-3
        gradient = (weighted * error[..., None]).sum(axis=1)
        normal_matrix[:, 3, 3] += prior
        gradient[:, 3] += prior * (length - expected_sweep)
        step = -np.linalg.solve(normal_matrix, gradient[..., None])[..., 0]
        enough = (weight > 0).sum(axis=1) >= 6
        step[~enough] = 0.0
        centre = centre + step[:, :2]
        radius = np.maximum(radius + step[:, 2], 1.0)
        length = np.maximum(length + step[:, 3], 0.0)
    return centre, radius, length


def capsule_distance(
    points: FloatArray, centres: FloatArray, lean: FloatArray, sweep: FloatArray
) -> FloatArray:
    """Each point's distance from the segment its coin's centre sweeps along the lean: the
    outline of a disc swept that far is where this equals the radius."""
    offset = points - centres[:, None, :]
    along = np.clip((offset * lean[:, None, :]).sum(axis=2), 0.0, sweep[:, None])
    nearest = offset - along[..., None] * lean[:, None, :]
    return vector_length(nearest[..., 0], nearest[..., 1])


def far_sweep(
    points: FloatArray, valid: BoolArray, centres: FloatArray, radii: FloatArray,
    lean: FloatArray,
) -> FloatArray:
    """How far beyond the base circle the far side reaches along the lean (px, >= 0): the
    median over far-side rays of their point's excess over the circle."""
    offset = points - centres[:, None, :]
    along = (offset * lean[:, None, :]).sum(axis=2)
    across = offset[..., 0] * lean[:, None, 1] - offset[..., 1] * lean[:, None, 0]
    circle = np.sqrt(np.maximum(radii[:, None] ** 2 - across**2, 0.0))
    far = valid & (along > 0.5 * radii[:, None])
    excess = np.where(far, along - circle, np.nan)
    with np.errstate(all="ignore"):
        sweep = nan_median(np.where(far.any(axis=1)[:, None], excess, 0.0), axis=1)
    return np.maximum(np.nan_to_num(sweep), 0.0)
