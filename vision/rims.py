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

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import BoolArray, FloatArray, Image
from vision.circle_fits import (
    capsule_distance,
    consensus_circles,
    far_sweep,
    fit_capsules,
    fit_circles,
    vector_length,
)
from vision.faces import nan_median, plain_median
from vision.light import PAPER
from vision.ray_edges import RayEdges
from vision.ray_profiles import paper_levels, squared_rises
from vision.ray_samples import (
    colour_planes,
    gather_along_rays,
    ray_directions,
    ray_maps,
    sample_maps,
)

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Bits of the flags image rays sample beside the colours: a pawn, a pixel the camera clipped
#: in a channel, and one it clipped white (in all three).
PAWN_FLAG = 1
GLINT_FLAG = 2
WHITE_FLAG = 4


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
    single coin's within about ``sweep_spread_mm`` unless the rim shows more. Rays the camera
    clipped white at the edge, set aside, lift an outline's agreement to ``blind_lift`` at
    most.
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
    least_votes: float = 0.2
    seed_reach_mm: float = 1.5
    far_reach_mm: float = 4.0
    least_radius_mm: float = 6.0
    most_radius_mm: float = 15.0
    plain_retry: float = 0.4
    plain_retry_covered: float = 0.1
    blind_lift: float = 0.4


@dataclass(frozen=True, eq=False)
class CoinOutlines:
    """Every seed's fitted outline, in top-view pixels: base centres (K, 2), radii (K,), how
    far the top face lies swept along the lean (K,), the share of the rays no pawn crosses
    that agree with the outline (K,), the median height of the edge over the paper (K,; 0-1
    of paper), the share of rays a pawn crosses near the edge (K,) and whether the agreement
    reached ``blind_lift`` only once the rays the camera clipped white at the edge were set
    aside (K,; see :func:`_circle_profile`)."""

    centres: FloatArray
    radii_px: FloatArray
    sweep_px: FloatArray
    agreement: FloatArray
    contrast: FloatArray
    covered: FloatArray
    lifted: BoolArray

    def top_centres(self, lean: FloatArray) -> FloatArray:
        """Centres of the top faces: the base centres swept along ``lean`` (K, 2 unit)."""
        return self.centres + lean * self.sweep_px[:, None]


def _profiles(config: RimConfig, planes: list[FloatArray]) -> tuple[FloatArray, FloatArray]:
    """Per ray, the largest channel difference from the paper at its end (K, J, S), from the
    rays' colour planes (each (K, J, S)), and per seed the level the paper itself reaches with
    its noise (K,), in the same units."""
    papers, seed_papers = paper_levels(planes, config.paper_samples)
    # A ray ending on something else (a neighbour, a shadow) compares with the seed's paper.
    odd = np.zeros(papers[0].shape, bool)
    for paper, seed_paper in zip(papers, seed_papers, strict=True):
        odd |= np.abs(paper - seed_paper[:, None]) > config.least_step * PAPER
    # The first plane's difference is the profile itself (the largest of one absolute
    # difference and the zeros it would be compared with is that difference).
    profile = np.empty(planes[0].shape, np.float32)
    difference = np.empty_like(profile)
    for number, (plane, paper, seed_paper) in enumerate(zip(planes, papers, seed_papers,
                                                            strict=True)):
        reference = np.where(odd, seed_paper[:, None], paper).astype(np.float32)
        if number == 0:
            np.abs(np.subtract(plane, reference[:, :, None], out=profile), out=profile)
            continue
        np.subtract(plane, reference[:, :, None], out=difference)
        np.maximum(profile, np.abs(difference, out=difference), out=profile)
    # The paper's own level and noise from the half of the rays that end on the plainest
    # paper (with an off-centre seed, some rays end on the coin).
    far = profile[:, :, -config.paper_samples :]
    plainest = np.argsort(far.mean(axis=2), axis=1)[:, : config.ray_count // 2]
    far = np.take_along_axis(far, plainest[..., None], axis=1).reshape(len(profile), -1)
    level = plain_median(far, axis=1)
    noise = 1.4826 * plain_median(np.abs(far - level[:, None]), axis=1)
    return profile, level + config.noise_factor * noise


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
    threshold = _float32_below(np.maximum(config.least_step * PAPER, floor))
    # Compared from each ray's outer end inwards, into a contiguous array: the outermost
    # sample above is the first one above (no reversed copy for the search).
    inwards = np.empty((*profile.shape[:2], usable), bool)
    np.greater(profile[:, :, usable - 1 :: -1], threshold[:, None, None], out=inwards)
    found = inwards.any(axis=2)
    last = usable - 1 - np.argmax(inwards, axis=2)
    window = max(3, round(config.peak_window_mm / config.ray_step_mm))
    offsets = np.arange(-window, 3)  # inwards of the last sample above, and two beyond it
    reach = config.rise_samples
    indices = np.clip(last[..., None] + offsets, reach, samples - 1 - reach)
    # The rise towards the inside at each sample, over ``reach`` samples each way of the
    # profile smoothed a little (noise must not make steps of its own).
    squared = gather_along_rays(squared_rises(planes, reach), indices - reach)
    rise = np.sqrt(squared).astype(np.float64)
    # Only the rays of seeds that reach a glint can step into one.
    glinting = np.flatnonzero(glint.reshape(len(glint), -1).any(axis=1))
    if len(glinting):
        into_glint = gather_along_rays(glint[glinting], indices[glinting] - reach)
        glinted = rise[glinting]
        glinted[into_glint] *= config.glint_step
        rise[glinting] = glinted
    steepest = _largest_along_rays(rise)
    before = np.concatenate([rise[..., :1], rise[..., :-1]], axis=2)
    after = np.concatenate([rise[..., 1:], rise[..., -1:]], axis=2)
    peaks = (rise >= before) & (rise >= after) & (rise >= 0.5 * steepest[..., None])
    outer = peaks.shape[2] - 1 - np.argmax(peaks[..., ::-1], axis=2)
    # Sub-sample position of the step from a parabola through the rises about it.
    left = gather_along_rays(before, outer[..., None])[..., 0]
    middle = gather_along_rays(rise, outer[..., None])[..., 0]
    right = gather_along_rays(after, outer[..., None])[..., 0]
    curvature = left - 2 * middle + right
    shift = np.where(curvature < -1e-6, 0.5 * (left - right) / np.where(
        curvature < -1e-6, curvature, -1.0), 0.0)
    position = gather_along_rays(indices, outer[..., None])[..., 0] + np.clip(shift, -0.5, 0.5)
    step = radii[1] - radii[0]
    radius = radii[0] + position * step
    inside = np.clip(np.round(position).astype(int) - 2, 0, samples - 1)
    height = gather_along_rays(profile, inside[..., None])[..., 0]
    ran_out = found & (last >= usable - 1)
    return radius, found & ~ran_out & (steepest > 0), height / PAPER, ran_out


def _largest_along_rays(values: FloatArray) -> FloatArray:
    """The largest of each ray's few samples (K, J, W -> K, J): elementwise maxima of the W
    columns, the same values as ``values.max(axis=2)`` for a fraction of its reduction's
    work on rows this short."""
    largest = values[..., 0].copy()
    for column in range(1, values.shape[2]):
        np.maximum(largest, values[..., column], out=largest)
    return largest


def _float32_below(values: FloatArray) -> FloatArray:
    """The largest float32 at or below each value: a float32 array is greater than it
    exactly where it is greater than the value itself, without being cast to float64."""
    below = values.astype(np.float32)
    return np.where(below.astype(np.float64) > values,
                    np.nextafter(below, np.float32(-np.inf)), below)


def _ray_edges(
    config: RimConfig, image: Image, flags: Image, centres: FloatArray, radii: FloatArray,
) -> RayEdges:
    """Sample rays from ``centres`` and find each one's edge (``flags`` marks pawns and the
    pixels the camera clipped, see :data:`PAWN_FLAG`)."""
    count, rays = len(centres), config.ray_count
    maps = ray_maps(centres, rays, radii)
    planes = colour_planes(sample_maps(image, maps, count, rays))
    profile, floor = _profiles(config, planes)
    marks = sample_maps(flags, maps, count, rays, cv2.INTER_NEAREST)
    edge, valid, peak, ran_out = _edges(config, profile, floor, radii, planes,
                                        (marks & GLINT_FLAG) > 0)
    crossed = _pawn_near_edge((marks & PAWN_FLAG) > 0, edge, radii,
                              round(1.0 / config.ray_step_mm))
    points = centres[:, None, :] + ray_directions(rays)[None] * edge[..., None]
    return RayEdges(points, valid & ~crossed, peak, crossed, ran_out)


def measure_outlines(
    config: RimConfig, image: Image, flags: Image, seeds: FloatArray,
    lean: FloatArray, pixels_per_mm: float, blur_px: FloatArray | None = None,
    lean_per_mm: FloatArray | None = None,
) -> CoinOutlines:
    """Fit an outline at every seed (K, 2 top-view px) of the normalised ``image``; ``flags``
    marks pawn pixels (:data:`PAWN_FLAG`) and the pixels the camera clipped
    (:data:`GLINT_FLAG`), ``lean`` is each seed's unit lean direction (K, 2) and
    ``blur_px`` how many top-view pixels one camera pixel spans there (K,; 1 by default)
    and ``lean_per_mm`` how far a raised point leans per mm of height (K,; 0 by default).

    Rays run from each seed, then again from the middle of the circle most of the first rays
    rim points agree with (between ``least_radius_mm`` and ``most_radius_mm``, over
    ``consensus_triplets`` triplets of rays), for each distinct circle that ``least_votes`` of
    the rays agree with (the rest are left with no agreement). A tall stack is
    longer along its lean than the rays reach: where the far side's rays ran out on the
    stack, rays from a centre further along the lean add the far side.
    """
    if len(seeds) == 0:
        empty = np.zeros(0)
        return CoinOutlines(np.zeros((0, 2)), empty, empty, empty, empty, empty,
                            np.zeros(0, bool))
    if blur_px is None:
        blur_px = np.ones(len(seeds))
    if lean_per_mm is None:
        lean_per_mm = np.zeros(len(seeds))
    radii = np.arange(config.ray_begin_mm, config.ray_end_mm, config.ray_step_mm) * pixels_per_mm
    seeds = np.asarray(seeds, np.float64)
    edges = _ray_edges(config, image, flags, seeds, radii)
    # A seed far off a large coin's middle has rays that end on the coin: those seeds' rays
    # run ``far_reach_mm`` further.
    short = np.flatnonzero(edges.ran_out.mean(axis=1) >= config.stack_ran_out)
    if len(short):
        longer = np.arange(config.ray_begin_mm, config.ray_end_mm + config.far_reach_mm,
                           config.ray_step_mm) * pixels_per_mm
        edges = edges.replaced(_ray_edges(config, image, flags, seeds[short], longer), short)
    found, found_radii, votes = consensus_circles(config, edges.points, edges.valid,
                                                  pixels_per_mm, origins=seeds)
    # The consensus circle passes through three rim points; all the rays' points agreeing
    # with it place its middle better for the second rays.
    agreed = (np.abs(vector_length(*(edges.points - found[:, None, :]).transpose(2, 0, 1))
                     - found_radii[:, None]) < config.reject_mm * pixels_per_mm) & edges.valid
    found, found_radii = fit_circles(config, edges.points, agreed, found, pixels_per_mm)
    # Only distinct circles that enough rays agree with are worth refining: many seeds lie
    # on one coin, or on nothing round.
    worth = _distinct(found, found_radii, votes, config.least_votes * config.ray_count)
    outlines = CoinOutlines(np.where((votes >= 6)[:, None], found, seeds), found_radii,
                            np.zeros(len(seeds)), np.zeros(len(seeds)), np.zeros(len(seeds)),
                            np.zeros(len(seeds)), np.zeros(len(seeds), bool))
    if not len(worth):
        return outlines
    refined = _refine(config, image, flags, found[worth], lean[worth],
                      pixels_per_mm, blur_px[worth], lean_per_mm[worth], radii)
    for target, values in zip(
        (outlines.centres, outlines.radii_px, outlines.sweep_px, outlines.agreement,
         outlines.contrast, outlines.covered, outlines.lifted),
        (refined.centres, refined.radii_px, refined.sweep_px, refined.agreement,
         refined.contrast, refined.covered, refined.lifted), strict=True,
    ):
        target[worth] = values
    return outlines


def _distinct(centres: FloatArray, radii: FloatArray, votes: FloatArray, least: float
              ) -> NDArray[np.intp]:
    """Indices of the circles at least ``least`` rays agree with, each circle once (the
    best-agreed of circles whose middles lie within a third of a radius of each other)."""
    order = np.argsort(-votes)
    order = order[votes[order] >= least]
    gaps = np.hypot(*(centres[order, None, :] - centres[None, order, :]).transpose(2, 0, 1))
    close = gaps < radii[order][None, :] / 3  # close[i, j]: i lies on j's circle
    kept = np.zeros(len(order), bool)
    for rank in range(len(order)):
        kept[rank] = not (close[rank, :rank] & kept[:rank]).any()
    return np.sort(order[kept])


def _refine(
    config: RimConfig, image: Image, flags: Image, centres: FloatArray,
    lean: FloatArray, pixels_per_mm: float, blur_px: FloatArray, lean_per_mm: FloatArray,
    radii: FloatArray,
) -> CoinOutlines:
    """Outlines refined from circles' middles: rays again from there, the circle fitted to
    them, a tall stack's far side and swept disc, and the radius from the circle profile."""
    edges = _ray_edges(config, image, flags, centres, radii)
    centres, radius = fit_circles(config, edges.points, edges.valid, centres, pixels_per_mm)
    sweep = far_sweep(edges.points, edges.valid, centres, radius, lean)
    long = _ran_out_far(config, edges, centres, lean)
    if len(long):
        further = centres[long] + lean[long] * config.stack_step_mm * pixels_per_mm
        edges = edges.joined(_ray_edges(config, image, flags, further, radii), long)
        sweep[long] = np.maximum(sweep[long], config.stack_step_mm * pixels_per_mm)
    expected = config.coin_thickness_mm * pixels_per_mm * lean_per_mm
    # A stack shows as a disc swept along the lean; an ordinary coin's sweep is too small to
    # fit, and fitting it would bend the circle to what rectification leaves of a lens.
    tall = np.flatnonzero((sweep >= config.tall_sweep_mm * pixels_per_mm)
                          & (sweep >= 3 * expected))
    # The plain circle fitted to the rays, kept in case the swept disc agrees worse.
    circle_centres, circle_radius = centres[tall].copy(), radius[tall].copy()
    if len(tall):
        start = centres[tall] - lean[tall] * (sweep[tall] / 2)[:, None]
        centres[tall], radius[tall], sweep[tall] = fit_capsules(
            config, edges.points[tall], edges.valid[tall], start,
            radius[tall] - sweep[tall] / 4, sweep[tall], lean[tall], expected[tall],
            pixels_per_mm)
    short = np.ones(len(centres), bool)
    short[tall] = False
    sweep[short] = expected[short]
    error = capsule_distance(edges.points, centres, lean, sweep) - radius[:, None]
    tolerance = np.maximum(config.agree_mm * pixels_per_mm, config.agree_camera_px * blur_px)
    agree = edges.valid & (np.abs(error) < tolerance[:, None])
    rays = config.ray_count
    covered = edges.crossed[:, :rays].mean(axis=1)
    seen = np.maximum(1.0 - covered, config.least_seen)
    agreement = (agree[:, :rays].mean(axis=1) if edges.valid.shape[1] == rays
                 else _agreement(agree, long, rays)) / seen
    lifted = np.zeros(len(centres), bool)
    if short.any():
        radius[short], agreement[short], covered[short], lifted[short] = _circle_profile(
            config, image, flags, centres[short], radius[short], radii, pixels_per_mm)
    if len(tall):
        _plain_where_swept_disagrees(config, image, flags, tall, circle_centres, circle_radius,
                                     radii, pixels_per_mm, expected,
                                     (centres, radius, sweep, agreement, covered, lifted))
    contrast = np.nan_to_num(nan_median(np.where(edges.valid, edges.peak, np.nan), axis=1),
                             nan=0.0).astype(np.float64)
    return CoinOutlines(centres, radius, sweep, np.minimum(agreement, 1.0), contrast, covered,
                        lifted)


def _plain_where_swept_disagrees(
    config: RimConfig, image: Image, flags: Image, tall: NDArray[np.intp],
    circle_centres: FloatArray, circle_radius: FloatArray, radii: FloatArray,
    pixels_per_mm: float, expected: FloatArray,
    outlines: tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, BoolArray],
) -> None:
    """Measure the ``tall`` outlines whose swept disc fewer than ``plain_retry`` of the rays
    agree with as plain coins too (:func:`_circle_profile` round ``circle_centres`` and
    ``circle_radius``, the circle fitted before the disc was swept), and where the plain
    coin agrees better, write it into ``outlines`` (centres, radii, sweeps, agreement,
    share covered, lifted; changed in place).

    A single coin's shadow cast along its lean by a low light (a window's, long and soft)
    darkens the paper past the rays' end on its far side, as a tall stack's side would: the
    rays there run out, and the outline is fitted as a disc swept far along the lean, whose
    far end lies on the shadow's soft edge, which few rays agree with. The coin's own rim,
    a circle, shows all round. Outlines whose rays a pawn or a flat token crosses near their
    edge (more than ``plain_retry_covered`` of them) are left as they are: a token's rim
    beside them would pass for a plain coin's."""
    centres, radius, sweep, agreement, covered, lifted = outlines
    doubtful = ((agreement[tall] < config.plain_retry)
                & (covered[tall] <= config.plain_retry_covered))
    if not doubtful.any():
        return
    rows = tall[doubtful]
    plain_radius, plain_agreement, plain_covered, plain_lifted = _circle_profile(
        config, image, flags, circle_centres[doubtful], circle_radius[doubtful], radii,
        pixels_per_mm)
    better = plain_agreement > agreement[rows]
    rows = rows[better]
    centres[rows] = circle_centres[doubtful][better]
    radius[rows], sweep[rows] = plain_radius[better], expected[rows]
    agreement[rows], covered[rows] = plain_agreement[better], plain_covered[better]
    lifted[rows] = plain_lifted[better]


def ray_rises(
    config: RimConfig, image: Image, flags: Image, centres: FloatArray, radii: FloatArray,
) -> tuple[FloatArray, FloatArray, BoolArray]:
    """How sharply the colour changes along rays from ``centres`` (K, J, S - 2 reach: the
    length of the colour planes' change across ``rise_samples`` samples each way, of the rays
    smoothed a little), a step into pixels the camera clipped counting ``glint_step`` of
    itself; the radii (px) the changes are centred on; and where a pawn lies (K, J, S).
    ``radii`` as in :func:`vision.ray_samples.sample_rays`, ``flags`` as in
    :func:`measure_outlines`."""
    rise, middles, marks = _marked_rises(config, image, flags, centres, radii)
    return rise, middles, (marks & PAWN_FLAG) > 0


def _marked_rises(
    config: RimConfig, image: Image, flags: Image, centres: FloatArray, radii: FloatArray,
) -> tuple[FloatArray, FloatArray, NDArray[np.uint8]]:
    """:func:`ray_rises`, with the flags themselves where it gives where a pawn lies."""
    count, rays, reach = len(centres), config.ray_count, config.rise_samples
    maps = ray_maps(centres, rays, radii)
    planes = colour_planes(sample_maps(image, maps, count, rays))
    squared = squared_rises(planes, reach)
    marks = sample_maps(flags, maps, count, rays, cv2.INTER_NEAREST)
    clipped = (marks[..., : -2 * reach] & GLINT_FLAG) > 0
    rise = np.sqrt(squared)
    rise[clipped] *= np.float32(config.glint_step)
    return rise, radii[..., reach:-reach], marks


def _circle_profile(
    config: RimConfig, image: Image, flags: Image, centres: FloatArray, guesses: FloatArray,
    radii: FloatArray, pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray, FloatArray, BoolArray]:
    """Each coin's radius from rays out of its fitted centre, the share of the rays no pawn
    crosses (at least ``least_seen`` of them all) that show its edge there, the share of
    rays a pawn crosses near the edge, and whether that share reached ``blind_lift`` only
    once the rays the camera clipped white at the edge were set aside.

    The colour's change across each ray (as in :func:`_edges`) is averaged over the rays no
    pawn crosses: a circular edge adds up to a sharp peak at its radius, whatever the noise
    of a single ray, while a shadow or a glint's bloom spreads. The radius is the outermost
    peak at least half the highest within ``peak_window_mm`` of ``guesses``; a ray shows the
    edge when its own change there is at least half its steepest within that window.
    """
    count, rays = len(centres), config.ray_count
    reach = config.rise_samples
    window = config.peak_window_mm * pixels_per_mm
    rise, inner, marks = _rises_near(config, image, flags, centres, radii, guesses, window)
    near = np.abs(inner - guesses[:, None]) <= window  # (K, S')
    crossed = (((marks & PAWN_FLAG) > 0)[..., reach:-reach] & near[:, None, :]).any(axis=2)
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
    radius = inner[rows, outer] + np.clip(shift, -0.5, 0.5) * step
    own = rise[rows, :, outer]  # (K, J): each ray's change at the radius
    steepest = np.where(near[:, None, :], rise, 0.0).max(axis=2)
    shows = (own >= 0.5 * steepest) & ~crossed
    found = peaks.any(axis=1)
    seen = np.maximum((~crossed).sum(axis=1), rays * config.least_seen)
    agreement = shows.sum(axis=1) / seen
    # A ray the camera clipped white at the edge (a glint's bloom over the rim, a hot spot on
    # the paper) can show no rim there: it tells nothing against the outline, nor for it.
    # Set aside, such rays lift an outline to ``blind_lift`` at most (the rim seen is the
    # evidence, and it is partial).
    blind = _white_at(marks[..., reach:-reach], outer)
    sighted = np.maximum((~crossed & (shows | ~blind)).sum(axis=1), rays * config.least_seen)
    lifted = found & (agreement < config.blind_lift) & (
        shows.sum(axis=1) / sighted >= config.blind_lift)
    agreement = np.where(lifted, config.blind_lift, agreement)
    return (np.where(found, radius, guesses), np.where(found, agreement, 0.0),
            crossed.mean(axis=1), lifted)


def _white_at(marks: NDArray[np.uint8], outer: NDArray[np.intp]) -> BoolArray:
    """Per ray (K, J): whether the camera clipped the view white within a sample of the
    ``outer`` sample (K,) of ``marks`` (K, J, S'): there a rim cannot show its step, so a
    ray that shows none is no evidence against the outline."""
    samples = marks.shape[2]
    around = np.clip(outer[:, None] + np.arange(-1, 2)[None, :], 0, samples - 1)  # (K, 3)
    near = np.take_along_axis(marks, np.broadcast_to(around[:, None, :],
                                                     (*marks.shape[:2], 3)), axis=2)
    return np.asarray(((near & WHITE_FLAG) > 0).any(axis=2), bool)


def _rises_near(
    config: RimConfig, image: Image, flags: Image, centres: FloatArray, radii: FloatArray,
    guesses: FloatArray, window: float,
) -> tuple[FloatArray, FloatArray, NDArray[np.uint8]]:
    """:func:`ray_rises` along each ray only where :func:`_circle_profile` looks: the rises
    (K, J, W) centred within ``window`` px of each coin's ``guesses`` radius and a sample
    beyond on either side, their radii (K, W) and the flags there (K, J, W + 2 reach).
    Each coin's rays are sampled at a run of the same ``radii`` (S,) that reaches two samples
    beyond those rises (the smoothing and the rise's reach), or to the ray's own end, so
    every rise is the one the whole ray gives, for about two thirds of the samples."""
    reach = config.rise_samples
    middles = radii[reach:-reach]
    wanted = np.abs(middles[None, :] - guesses[:, None]) <= window + 2 * (radii[1] - radii[0])
    first = np.argmax(wanted, axis=1)
    last = len(middles) - 1 - np.argmax(wanted[:, ::-1], axis=1)
    length = min(int((last - first).max(initial=0)) + 1 + 2 * reach + 2, len(radii))
    # Rises from ``first`` on need samples from one before it (the smoothing) in the ray's
    # own indices; a run that would pass an end of the ray is moved inside it.
    start = np.clip(first - 1, 0, len(radii) - length)
    along = radii[start[:, None] + np.arange(length)[None, :]]  # (K, length)
    return _marked_rises(config, image, flags, centres, along)


def _agreement(agree: BoolArray, long: NDArray[np.intp], rays: int) -> FloatArray:
    """The share of rays that agree: of the first set of rays, or of both where a second
    set was added."""
    share = agree[:, :rays].mean(axis=1)
    share[long] = agree[long].mean(axis=1)
    return share


def _ran_out_far(config: RimConfig, edges: RayEdges, centres: FloatArray, lean: FloatArray
                 ) -> NDArray[np.intp]:
    """Seeds whose far-side rays mostly ran out on the coin (``stack_ran_out`` of them): a
    stack longer than the rays reach."""
    directions = ray_directions(config.ray_count)
    far = directions @ lean.T > 0.5  # (J, K)
    share = (edges.ran_out & far.T).sum(axis=1) / np.maximum(far.sum(axis=0), 1)
    return np.flatnonzero(share >= config.stack_ran_out)


def _pawn_near_edge(on_pawn: BoolArray, edge: FloatArray, radii: FloatArray, reach: int
                    ) -> BoolArray:
    """Rays with a pawn within ``reach`` samples of their edge: the edge may be the pawn's,
    or the pawn leans over the coin's rim there. A pawn standing on the coin, which the rays
    leave before they reach the rim, does not count."""
    crossing = np.flatnonzero(on_pawn.reshape(len(on_pawn), -1).any(axis=1))
    if len(crossing) < len(on_pawn):  # the rays of a seed that cross no pawn are clear of one
        near_pawn = np.zeros(edge.shape, bool)
        if len(crossing):
            near_pawn[crossing] = _pawn_near_edge(on_pawn[crossing], edge[crossing], radii, reach)
        return near_pawn
    at = np.searchsorted(radii, edge)
    offsets = np.arange(-reach, reach + 1)
    near = np.clip(at[..., None] + offsets, 0, len(radii) - 1)
    return np.asarray(gather_along_rays(on_pawn, near).any(axis=2))


