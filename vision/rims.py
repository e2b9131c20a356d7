"""Measuring coins in the light-normalised top view: each coin's outline, lean and face.

From a seed near a coin's middle, rays run outwards. Along each ray the colour's distance from
the paper beyond the coin is a profile; the coin's edge is where the outermost feature of that
profile that stands out of the paper's noise falls to half its height. That holds whatever the
coin looks like: a dark penny is a plateau, a bright silver coin on white paper only the dark
ring of its rounded edge, a coin in the lamp's glint a bright plateau, and a blurred step's
half height is where the step is. It adds to no coin a bias that depends on its contrast
beyond what the frame's size model (:mod:`vision.frame_model`) takes out.

A raised thing leans away from the camera in the top view (:mod:`vision.parallax`): a stack is
its base disc swept that way by its height. So the circle is fitted to the rim points on the
camera's side and across, where the outline is the base's own, and the far side only tells how
far the top face lies swept (:attr:`CoinOutlines.sweep_px`). Shadows and a pawn leaning over
the rim only ever add outside the coin, so points outside the circle count for less.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
    BoolArray = NDArray[np.bool_]
else:
    Image = np.ndarray
    FloatArray = np.ndarray
    BoolArray = np.ndarray

#: The value paper takes in the normalised top view (see :mod:`vision.light`).
PAPER = 200.0


@dataclass(frozen=True)
class RimConfig:
    """How outlines are found and fitted (lengths in mm).

    Rays (``ray_count`` of them) are sampled every ``ray_step_mm`` from ``ray_begin_mm`` to
    ``ray_end_mm``; the last ``paper_samples`` of each are the paper the coin is compared with.
    A profile stands out where it exceeds ``least_step`` of paper or ``noise_factor`` times the
    paper's own noise; the edge is the outermost steep step within ``peak_window_mm`` inside
    the outermost sample that stands out (see :func:`_edges`). The fits run ``fit_rounds``
    rounds: points within ``agree_mm`` of the outline count fully, farther ones less, and
    points beyond ``reject_mm`` not at all. A ray agrees with the outline (the circle swept
    along the lean) within ``agree_mm``, or ``agree_camera_px`` camera pixels where those are
    coarser. Where
    ``stack_ran_out`` of the far side's rays run out on the coin, rays from ``stack_step_mm``
    further along the lean find the far side of a tall stack. Outlines whose far side reaches
    ``tall_sweep_mm`` beyond the circle (and three times a single coin's sweep, a coin being
    ``coin_thickness_mm`` high) are fitted as a disc swept along the lean, the sweep held near a
    single coin's within about ``sweep_spread_mm`` unless the rim shows more.
    """

    ray_count: int = 48
    ray_step_mm: float = 0.25
    ray_begin_mm: float = 3.0
    ray_end_mm: float = 17.0
    paper_samples: int = 6
    least_step: float = 0.06
    noise_factor: float = 4.0
    peak_window_mm: float = 4.0
    fit_rounds: int = 5
    reject_mm: float = 2.5
    agree_mm: float = 0.6
    agree_camera_px: float = 0.8
    stack_ran_out: float = 0.3
    stack_step_mm: float = 7.0
    coin_thickness_mm: float = 1.6
    sweep_spread_mm: float = 2.0
    tall_sweep_mm: float = 2.0
    rise_samples: int = 1
    glint_step: float = 0.3
    least_seen: float = 0.3
    outer_peak_share: float = 0.5
    consensus_triplets: int = 40
    least_radius_mm: float = 6.0
    most_radius_mm: float = 15.0


@dataclass(frozen=True, eq=False)
class CoinOutlines:
    """Every seed's fitted outline, in top-view pixels: base centres (K, 2), radii (K,), how
    far the top face lies swept along the lean (K,), the share of the rays no pawn crosses
    that agree with the outline (K,), the median height of the edge over the paper (K,; 0-1
    of paper) and the share of rays a pawn crosses near the edge (K,)."""

    centres: FloatArray
    radii_px: FloatArray
    sweep_px: FloatArray
    agreement: FloatArray
    contrast: FloatArray
    covered: FloatArray

    def top_centres(self, lean: FloatArray) -> FloatArray:
        """Centres of the top faces: the base centres swept along ``lean`` (K, 2 unit)."""
        return self.centres + lean * self.sweep_px[:, None]


@lru_cache(maxsize=4)
def _directions(ray_count: int) -> FloatArray:
    angles = np.linspace(0.0, 2 * math.pi, ray_count, endpoint=False)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    directions.setflags(write=False)
    return directions


def sample_rays(
    image: Image, centres: FloatArray, ray_count: int, radii: FloatArray,
    interpolation: int = cv2.INTER_LINEAR,
) -> FloatArray:
    """``image`` sampled along ``ray_count`` rays from each centre at ``radii`` px: an array
    (K, J, S) or (K, J, S, C) for a C-channel image."""
    directions = _directions(ray_count)
    xs = centres[:, None, None, 0] + directions[None, :, None, 0] * radii[None, None, :]
    ys = centres[:, None, None, 1] + directions[None, :, None, 1] * radii[None, None, :]
    shape = (len(centres) * ray_count, len(radii))
    sampled = cv2.remap(image, xs.reshape(shape).astype(np.float32),
                        ys.reshape(shape).astype(np.float32), interpolation,
                        borderMode=cv2.BORDER_REPLICATE)
    return np.asarray(sampled).reshape(len(centres), ray_count, len(radii), *image.shape[2:])


def _profiles(config: RimConfig, planes: list[FloatArray]) -> tuple[FloatArray, FloatArray]:
    """Per ray, the largest channel difference from the paper at its end (K, J, S), from the
    rays' colour planes (each (K, J, S)), and per seed the level the paper itself reaches with
    its noise (K,), in the same units."""
    papers = [_middle(plane[:, :, -config.paper_samples :]) for plane in planes]
    seed_papers = [np.median(paper, axis=1) for paper in papers]  # (K,) each
    # A ray ending on something else (a neighbour, a shadow) compares with the seed's paper.
    odd = np.zeros(papers[0].shape, bool)
    for paper, seed_paper in zip(papers, seed_papers, strict=True):
        odd |= np.abs(paper - seed_paper[:, None]) > config.least_step * PAPER
    profile = np.zeros(planes[0].shape, np.float32)
    for plane, paper, seed_paper in zip(planes, papers, seed_papers, strict=True):
        reference = np.where(odd, seed_paper[:, None], paper).astype(np.float32)
        np.maximum(profile, np.abs(plane - reference[:, :, None]), out=profile)
    # The paper's own level and noise from the half of the rays that end on the plainest
    # paper (with an off-centre seed, some rays end on the coin).
    far = profile[:, :, -config.paper_samples :]
    plainest = np.argsort(far.mean(axis=2), axis=1)[:, : config.ray_count // 2]
    far = np.take_along_axis(far, plainest[..., None], axis=1).reshape(len(profile), -1)
    level = np.median(far, axis=1)
    noise = 1.4826 * np.median(np.abs(far - level[:, None]), axis=1)
    return profile, level + config.noise_factor * noise


def _middle(samples: FloatArray) -> FloatArray:
    """The median along the last axis of a few samples (the mean of the middle two)."""
    ordered = np.sort(samples, axis=-1)
    half = samples.shape[-1] // 2
    return np.asarray((ordered[..., half - 1] + ordered[..., half]) / 2)


def _edges(
    config: RimConfig, profile: FloatArray, floor: FloatArray, radii: FloatArray,
    planes: list[FloatArray], glint: BoolArray,
) -> tuple[FloatArray, BoolArray, FloatArray, BoolArray]:
    """Per ray: the edge radius (px), whether one was found, the height of the profile just
    inside it, and whether the ray ran out on the coin (unlike paper up to its paper
    samples).

    Going inwards from the outermost sample that stands out of the paper's noise, the edge is
    the outermost step of colour (in any direction: the colour planes' change across the
    step) that is at least half the steepest within ``peak_window_mm``: a coin's edge is sharp
    (the camera's blur), while a shadow's penumbra, the darkening round a coin's foot or a
    glint's bloom beyond it change gently, and a bright face's own glint further in does not
    pull the edge inwards past the dark ring of a silver coin's rim. A step into pixels the
    camera clipped (``glint``, per sample) counts for ``glint_step`` of its height: a glint
    inside a coin's rim is no edge, though it is the steepest step of all.
    """
    samples = profile.shape[2]
    usable = samples - config.paper_samples
    threshold = np.maximum(config.least_step * PAPER, floor)
    above = profile[:, :, :usable] > threshold[:, None, None]
    found = above.any(axis=2)
    last = usable - 1 - np.argmax(above[:, :, ::-1], axis=2)
    window = max(3, round(config.peak_window_mm / config.ray_step_mm))
    offsets = np.arange(-window, 3)  # inwards of the last sample above, and two beyond it
    reach = config.rise_samples
    indices = np.clip(last[..., None] + offsets, reach, samples - 1 - reach)
    # The rise towards the inside at each sample, over ``reach`` samples each way of the
    # profile smoothed a little (noise must not make steps of its own).
    squared = np.zeros(indices.shape, np.float32)
    for plane in planes:
        smooth = plane.copy()
        smooth[..., 1:-1] = (plane[..., :-2] + 2 * plane[..., 1:-1] + plane[..., 2:]) / 4
        change = (np.take_along_axis(smooth, indices - reach, axis=2)
                  - np.take_along_axis(smooth, indices + reach, axis=2))
        squared += change * change
    into_glint = np.take_along_axis(glint, indices - reach, axis=2)
    rise = np.sqrt(squared) * np.where(into_glint, config.glint_step, 1.0)
    steepest = rise.max(axis=2)
    before = np.concatenate([rise[..., :1], rise[..., :-1]], axis=2)
    after = np.concatenate([rise[..., 1:], rise[..., -1:]], axis=2)
    peaks = (rise >= before) & (rise >= after) & (rise >= 0.5 * steepest[..., None])
    outer = peaks.shape[2] - 1 - np.argmax(peaks[..., ::-1], axis=2)
    # Sub-sample position of the step from a parabola through the rises about it.
    left = np.take_along_axis(before, outer[..., None], axis=2)[..., 0]
    middle = np.take_along_axis(rise, outer[..., None], axis=2)[..., 0]
    right = np.take_along_axis(after, outer[..., None], axis=2)[..., 0]
    curvature = left - 2 * middle + right
    shift = np.where(curvature < -1e-6, 0.5 * (left - right) / np.where(
        curvature < -1e-6, curvature, -1.0), 0.0)
    position = np.take_along_axis(indices, outer[..., None], axis=2)[..., 0] + np.clip(
        shift, -0.5, 0.5)
    step = radii[1] - radii[0]
    radius = radii[0] + position * step
    inside = np.clip(np.round(position).astype(int) - 2, 0, samples - 1)
    height = np.take_along_axis(profile, inside[..., None], axis=2)[..., 0]
    ran_out = found & (last >= usable - 1)
    return radius, found & ~ran_out & (steepest > 0), height / PAPER, ran_out


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


def _consensus_circles(
    config: RimConfig, points: FloatArray, valid: BoolArray, pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """The circle through three rim points that most other rim points agree with, per seed
    (random sample consensus over fixed triplets): centres (K, 2), radii (K,) and how many
    points agree (K,). Robust to a seed far off the coin's middle, whose rays reach the far
    rim only on one side, and to rim points on a neighbour or a shadow."""
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
    least, most = config.least_radius_mm * pixels_per_mm, config.most_radius_mm * pixels_per_mm
    usable &= (radii >= least) & (radii <= most)
    distance = np.hypot(points[:, None, :, 0] - centres[..., None, 0],
                        points[:, None, :, 1] - centres[..., None, 1])  # (K, T, J)
    tolerance = config.agree_mm * 1.5 * pixels_per_mm
    votes = ((np.abs(distance - radii[..., None]) < tolerance) & valid[:, None, :]).sum(axis=2)
    votes = np.where(usable, votes, -1)
    best = np.argmax(votes, axis=1)
    rows = np.arange(len(points))
    return centres[rows, best], radii[rows, best], votes[rows, best]


def _fit(
    config: RimConfig, points: FloatArray, valid: BoolArray, start: FloatArray,
    pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray]:
    """Circles through rim points (K, J, 2), robustly (points far off count less, farther
    still not at all), from ``start`` centres: centres (K, 2) and radii (K,)."""
    centre = start.copy()
    offset = points - centre[:, None, :]
    with np.errstate(all="ignore"):
        radius = np.nanmedian(np.where(valid, np.hypot(offset[..., 0], offset[..., 1]), np.nan),
                              axis=1)
    radius = np.nan_to_num(radius, nan=9.0 * pixels_per_mm)
    for _ in range(config.fit_rounds):
        offset = points - centre[:, None, :]
        error = np.hypot(offset[..., 0], offset[..., 1]) - radius[:, None]
        centre, radius = _weighted_circle(points, _robust_weights(config, error, valid,
                                                                  pixels_per_mm), centre, radius)
    return centre, radius


def _robust_weights(config: RimConfig, error: FloatArray, valid: BoolArray,
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
    x = points[..., 0] - centre[:, None, 0]
    y = points[..., 1] - centre[:, None, 1]
    rows = np.stack([x, y, np.ones_like(x), -(x**2 + y**2)], axis=1)  # (K, 4, J)
    sums = (rows * weight[:, None, :]) @ rows.transpose(0, 2, 1)
    solvable = (weight > 0).sum(axis=1) >= 5
    ridge = np.eye(3) * 1e-6
    solution = np.linalg.solve(sums[:, :3, :3] + ridge, sums[:, :3, 3:])[..., 0]
    shift = -solution[:, :2] / 2
    new_radius = np.sqrt(np.maximum((shift**2).sum(axis=1) - solution[:, 2], 1e-9))
    sane = solvable & np.isfinite(new_radius) & (np.hypot(shift[:, 0], shift[:, 1]) < radius)
    return (np.where(sane[:, None], centre + shift, centre),
            np.where(sane, new_radius, radius))


def _fit_capsules(
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
        distance = np.maximum(np.hypot(nearest[..., 0], nearest[..., 1]), 1e-6)
        error = distance - radius[:, None]
        normal = nearest / distance[..., None]
        at_top = along >= length[:, None] - 1e-9
        weight = _robust_weights(config, error, valid, pixels_per_mm)
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


@dataclass(frozen=True, eq=False)
class _RayEdges:
    """Where the rays from K centres found their coin's edge: points (K, J, 2) px, whether
    each counts (K, J), the edge's height (K, J), whether a pawn lies at it (K, J), and
    whether the ray ran out on the coin without reaching paper (K, J)."""

    points: FloatArray
    valid: BoolArray
    peak: FloatArray
    crossed: BoolArray
    ran_out: BoolArray

    def joined(self, other: _RayEdges, rows: NDArray[np.intp]) -> _RayEdges:
        """These rays with ``other``'s (measured for ``rows`` of them) added: the rows
        not in ``rows`` get invalid copies."""
        def join(mine: FloatArray, theirs: FloatArray) -> FloatArray:
            extra = np.array(mine)
            extra[rows] = theirs
            return np.concatenate([mine, extra], axis=1)

        missing = np.ones(self.valid.shape, bool)
        missing[rows] = False
        return _RayEdges(join(self.points, other.points),
                         join(self.valid, other.valid) & ~np.concatenate(
                             [np.zeros_like(missing), missing], axis=1),
                         join(self.peak, other.peak), join(self.crossed, other.crossed),
                         join(self.ran_out, other.ran_out))


def _ray_edges(
    config: RimConfig, image: Image, pawns: Image, glint: Image, centres: FloatArray,
    radii: FloatArray,
) -> _RayEdges:
    """Sample rays from ``centres`` and find each one's edge (``glint`` marks the pixels the
    camera clipped)."""
    count = len(centres)
    colours = sample_rays(image, centres, config.ray_count, radii)
    planes = [plane.astype(np.float32).reshape(count, config.ray_count, -1)
              for plane in cv2.split(colours.reshape(-1, len(radii), 3))]
    profile, floor = _profiles(config, planes)
    clipped = sample_rays(glint, centres, config.ray_count, radii, cv2.INTER_NEAREST) > 0
    edge, valid, peak, ran_out = _edges(config, profile, floor, radii, planes, clipped)
    on_pawn = sample_rays(pawns, centres, config.ray_count, radii, cv2.INTER_NEAREST) > 0
    crossed = _pawn_near_edge(on_pawn, edge, radii, round(1.0 / config.ray_step_mm))
    points = centres[:, None, :] + _directions(config.ray_count)[None] * edge[..., None]
    return _RayEdges(points, valid & ~crossed, peak, crossed, ran_out)


def measure_outlines(
    config: RimConfig, image: Image, pawns: Image, glint: Image, seeds: FloatArray,
    lean: FloatArray, pixels_per_mm: float, blur_px: FloatArray | None = None,
    lean_per_mm: FloatArray | None = None,
) -> CoinOutlines:
    """Fit an outline at every seed (K, 2 top-view px) of the normalised ``image``; ``pawns``
    marks pawn pixels (non-zero), ``glint`` the pixels the camera clipped (non-zero), ``lean``
    is each seed's unit lean direction (K, 2) and
    ``blur_px`` how many top-view pixels one camera pixel spans there (K,; 1 by default)
    and ``lean_per_mm`` how far a raised point leans per mm of height (K,; 0 by default).

    Rays run from each seed, then again from the middle of the circle most of the first rays
    rim points agree with (between ``least_radius_mm`` and ``most_radius_mm``, over
    ``consensus_triplets`` triplets of rays). A tall stack is
    longer along its lean than the rays reach: where the far side's rays ran out on the
    stack, rays from a centre further along the lean add the far side.
    """
    if len(seeds) == 0:
        empty = np.zeros(0)
        return CoinOutlines(np.zeros((0, 2)), empty, empty, empty, empty, empty)
    if blur_px is None:
        blur_px = np.ones(len(seeds))
    radii = np.arange(config.ray_begin_mm, config.ray_end_mm, config.ray_step_mm) * pixels_per_mm
    centres = np.asarray(seeds, np.float64)
    edges = _ray_edges(config, image, pawns, glint, centres, radii)
    found, _, votes = _consensus_circles(config, edges.points, edges.valid, pixels_per_mm)
    centres = np.where((votes >= 6)[:, None], found, centres)
    # The second pass runs its rays from the consensus circle's middle.
    edges = _ray_edges(config, image, pawns, glint, centres, radii)
    centres, radius = _fit(config, edges.points, edges.valid, centres, pixels_per_mm)
    sweep = _sweep(edges.points, edges.valid, centres, radius, lean)
    long = _ran_out_far(config, edges, centres, lean)
    if len(long):
        further = centres[long] + lean[long] * config.stack_step_mm * pixels_per_mm
        edges = edges.joined(_ray_edges(config, image, pawns, glint, further, radii), long)
        sweep[long] = np.maximum(sweep[long], config.stack_step_mm * pixels_per_mm)
    expected = config.coin_thickness_mm * pixels_per_mm * (
        np.zeros(len(centres)) if lean_per_mm is None else lean_per_mm)
    # A stack shows as a disc swept along the lean; an ordinary coin's sweep is too small to
    # fit, and fitting it would bend the circle to what rectification leaves of a lens.
    tall = np.flatnonzero((sweep >= config.tall_sweep_mm * pixels_per_mm)
                          & (sweep >= 3 * expected))
    if len(tall):
        start = centres[tall] - lean[tall] * (sweep[tall] / 2)[:, None]
        centres[tall], radius[tall], sweep[tall] = _fit_capsules(
            config, edges.points[tall], edges.valid[tall], start,
            radius[tall] - sweep[tall] / 4, sweep[tall], lean[tall], expected[tall],
            pixels_per_mm)
    short = np.ones(len(centres), bool)
    short[tall] = False
    sweep[short] = expected[short]
    error = _capsule_distance(edges.points, centres, lean, sweep) - radius[:, None]
    tolerance = np.maximum(config.agree_mm * pixels_per_mm, config.agree_camera_px * blur_px)
    agree = edges.valid & (np.abs(error) < tolerance[:, None])
    rays = config.ray_count
    covered = edges.crossed[:, :rays].mean(axis=1)
    seen = np.maximum(1.0 - covered, config.least_seen)
    agreement = (agree[:, :rays].mean(axis=1) if edges.valid.shape[1] == rays
                 else _agreement(agree, long, rays)) / seen
    if short.any():
        radius[short], agreement[short], covered[short] = _circle_profile(
            config, image, pawns, glint, centres[short], radius[short], radii, pixels_per_mm)
    contrast = np.array([np.median(row[ok]) if ok.any() else 0.0
                         for row, ok in zip(edges.peak, edges.valid, strict=True)])
    return CoinOutlines(centres, radius, sweep, np.minimum(agreement, 1.0), contrast, covered)


def _circle_profile(
    config: RimConfig, image: Image, pawns: Image, glint: Image, centres: FloatArray,
    guesses: FloatArray, radii: FloatArray, pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Each coin's radius from rays out of its fitted centre, the share of the rays no pawn
    crosses (at least ``least_seen`` of them all) that show its edge there, and the share of
    rays a pawn crosses near the edge.

    The colour's change across each ray (as in :func:`_edges`) is averaged over the rays no
    pawn crosses: a circular edge adds up to a sharp peak at its radius, whatever the noise
    of a single ray, while a shadow or a glint's bloom spreads. The radius is the outermost
    peak at least half the highest within ``peak_window_mm`` of ``guesses``; a ray shows the
    edge when its own change there is at least half its steepest within that window.
    """
    count, rays = len(centres), config.ray_count
    colours = sample_rays(image, centres, rays, radii)
    planes = [plane.astype(np.float32).reshape(count, rays, -1)
              for plane in cv2.split(colours.reshape(-1, len(radii), 3))]
    reach = config.rise_samples
    squared = np.zeros((count, rays, len(radii) - 2 * reach), np.float32)
    for plane in planes:
        smooth = plane.copy()
        smooth[..., 1:-1] = (plane[..., :-2] + 2 * plane[..., 1:-1] + plane[..., 2:]) / 4
        change = smooth[..., : -2 * reach] - smooth[..., 2 * reach :]
        squared += change * change
    clipped = sample_rays(glint, centres, rays, radii, cv2.INTER_NEAREST) > 0
    # rise[..., i] is centred on radii[i + reach]; steps into a glint count for less.
    rise = np.sqrt(squared) * np.where(clipped[..., : -2 * reach], config.glint_step, 1.0)
    inner = radii[reach:-reach]
    on_pawn = sample_rays(pawns, centres, rays, radii, cv2.INTER_NEAREST) > 0
    window = config.peak_window_mm * pixels_per_mm
    near = np.abs(inner[None, :] - guesses[:, None]) <= window  # (K, S')
    crossed = (on_pawn[..., reach:-reach] & near[:, None, :]).any(axis=2)
    weight = (~crossed).astype(np.float32)
    mean = (rise * weight[..., None]).sum(axis=1) / np.maximum(weight.sum(axis=1), 1)[:, None]
    mean = np.where(near, mean, 0.0)
    highest = mean.max(axis=1, keepdims=True)
    left = np.concatenate([mean[:, :1], mean[:, :-1]], axis=1)
    right = np.concatenate([mean[:, 1:], mean[:, -1:]], axis=1)
    peaks = (mean >= left) & (mean >= right) & (mean >= config.outer_peak_share * highest) & near
    outer = mean.shape[1] - 1 - np.argmax(peaks[:, ::-1], axis=1)
    rows = np.arange(count)
    a, b, c = left[rows, outer], mean[rows, outer], right[rows, outer]
    curvature = a - 2 * b + c
    shift = np.where(curvature < -1e-6, 0.5 * (a - c) / np.where(curvature < -1e-6,
                                                                   curvature, -1.0), 0.0)
    step = radii[1] - radii[0]
    radius = inner[outer] + np.clip(shift, -0.5, 0.5) * step
    own = rise[rows, :, outer]  # (K, J): each ray's change at the radius
    steepest = np.where(near[:, None, :], rise, 0.0).max(axis=2)
    shows = (own >= 0.5 * steepest) & ~crossed
    found = peaks.any(axis=1)
    seen = np.maximum((~crossed).sum(axis=1), rays * config.least_seen)
    return (np.where(found, radius, guesses), np.where(found, shows.sum(axis=1) / seen, 0.0),
            crossed.mean(axis=1))


def _agreement(agree: BoolArray, long: NDArray[np.intp], rays: int) -> FloatArray:
    """The share of rays that agree: of the first set of rays, or of both where a second
    set was added."""
    share = agree[:, :rays].mean(axis=1)
    share[long] = agree[long].mean(axis=1)
    return share


def _ran_out_far(config: RimConfig, edges: _RayEdges, centres: FloatArray, lean: FloatArray
                 ) -> NDArray[np.intp]:
    """Seeds whose far-side rays mostly ran out on the coin (``stack_ran_out`` of them): a
    stack longer than the rays reach."""
    directions = _directions(config.ray_count)
    far = directions @ lean.T > 0.5  # (J, K)
    share = (edges.ran_out & far.T).sum(axis=1) / np.maximum(far.sum(axis=0), 1)
    return np.flatnonzero(share >= config.stack_ran_out)


def _pawn_near_edge(on_pawn: BoolArray, edge: FloatArray, radii: FloatArray, reach: int
                    ) -> BoolArray:
    """Rays with a pawn within ``reach`` samples of their edge: the edge may be the pawn's,
    or the pawn leans over the coin's rim there. A pawn standing on the coin, which the rays
    leave before they reach the rim, does not count."""
    at = np.searchsorted(radii, edge)
    offsets = np.arange(-reach, reach + 1)
    near = np.clip(at[..., None] + offsets, 0, len(radii) - 1)
    return np.asarray(np.take_along_axis(on_pawn, near, axis=2).any(axis=2))


def _capsule_distance(
    points: FloatArray, centres: FloatArray, lean: FloatArray, sweep: FloatArray
) -> FloatArray:
    """Each point's distance from the segment its coin's centre sweeps along the lean: the
    outline of a disc swept that far is where this equals the radius."""
    offset = points - centres[:, None, :]
    along = np.clip((offset * lean[:, None, :]).sum(axis=2), 0.0, sweep[:, None])
    nearest = offset - along[..., None] * lean[:, None, :]
    return np.hypot(nearest[..., 0], nearest[..., 1])


def _sweep(
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
        sweep = np.nanmedian(np.where(far.any(axis=1)[:, None], excess, 0.0), axis=1)
    return np.maximum(np.nan_to_num(sweep), 0.0)
