"""Measuring coins in the normalised top view, and deciding their kinds.

* **Size**: from each seed, rays find where the last stretch unlike the paper beyond ends, at
  the steepest fall; a circle is fitted to those rim points giving less weight to points
  outside it, because shadows, the visible edge of a tilted coin and a pawn leaning over the
  rim only ever add to one side. The diameter in millimetres tells dime, penny, nickel, quarter
  and dollar apart (17.91, 19.05, 21.21, 24.26, 26.49 mm). Blur and lens error make a whole
  frame's coins look a little larger or smaller; since coin sizes are discrete, the shift that
  puts most coins on a size of their metal is taken out, per metal where a frame holds enough
  of its coins, since dark copper swells more under blur than bright silver
  (:mod:`vision.coin_size`). Beside a pawn, points outside the circle count
  for even less (the pawn leans over the rim and shades the paper).
* **Metal**: the median colour inside the rim, away from glare and pawn, as
  ``(ln(red/green), ln(blue/green))``: copper is far from the neutral silver coins, brass lies
  between; glare pales copper towards neutral along its own line, so a penny in glare is
  still copper (:func:`vision.coin_size.colour_score`); beside a pawn it is read away from
  the pawn, whose colour bleeds onto the coin. A middle of another metal than the face means
  a smaller coin on top (a penny on a quarter, a dime on a penny), and the top coin is the
  middle's.
* **Top coin of one metal**: a smaller coin on a larger one of the same metal (a dime on a
  quarter), or a stack whose offset coins make the outline too large, is read from the top
  coin's own raised rim, a rim's width inside its edge (:mod:`vision.top_coin`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.coin_size import colour_score as _colour_score
from vision.light import PAPER, Normalised, chromaticity
from vision.profile import VisionProfile
from vision.read_config import ReadConfig

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray


#: Where a coin's face colour is sampled, as fractions of its radius: inside the rim, round the
#: relief in the middle.
FACE_RINGS = np.array([0.3, 0.42, 0.54, 0.66, 0.76])


@dataclass(frozen=True)
class CoinFit:
    """One measured coin in the top view: centre in mat mm, diameter in mm, colour, quality."""

    centre_mm: tuple[float, float]
    diameter_mm: float
    colour: tuple[float, float]
    rim_share: float


@lru_cache(maxsize=8)
def _directions(ray_count: int) -> FloatArray:
    """(J, 2) unit vectors of ``ray_count`` directions evenly round from +x (read-only)."""
    angles = np.linspace(0, 2 * math.pi, ray_count, endpoint=False)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    directions.setflags(write=False)
    return directions


def ray_maps(
    centres: FloatArray, ray_count: int, radii: FloatArray
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Where to sample ``ray_count`` rays from each of K centres at ``radii`` ((S,) for every
    centre, or (K, S) each its own): the (J, 2) unit directions, and the x and y maps for
    :func:`cv2.remap` as float32 (K * J, S) arrays, one row per ray."""
    directions = _directions(ray_count)
    samples = radii.shape[-1]
    if radii.ndim == 1:  # the same offsets from every centre: compute them once
        xs = centres[:, None, None, 0] + (directions[:, 0, None] * radii[None])[None]
        ys = centres[:, None, None, 1] + (directions[:, 1, None] * radii[None])[None]
    else:
        along = radii[:, None, :]
        xs = centres[:, None, None, 0] + directions[None, :, None, 0] * along
        ys = centres[:, None, None, 1] + directions[None, :, None, 1] * along
    shape = (len(centres) * ray_count, samples)
    return directions, xs.reshape(shape).astype(np.float32), ys.reshape(shape).astype(np.float32)


def _ray_exits(
    config: ReadConfig, normalised: Normalised, pawns: Image, centres: FloatArray,
    begin_px: float, end_px: float, step_px: float,
) -> tuple[FloatArray, NDArray[np.bool_]]:
    """Where each ray from each centre leaves the coin: (K, J, 2) points and a (K, J) validity."""
    count = len(centres)
    radii = np.arange(begin_px, end_px, step_px)
    directions, map_x, map_y = ray_maps(centres, config.ray_count, radii)
    rays = config.ray_count
    values = cv2.remap(normalised.foreground, map_x, map_y, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE).reshape(count, rays, -1)
    pawn_samples = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                             borderMode=cv2.BORDER_REPLICATE)
    on_pawn = pawn_samples.reshape(count, rays, -1) > 0
    level = 127.5  # half way through the mask's step; whole samples compare on uint8
    below = values <= 127
    exits = np.argmax(below, axis=2)
    valid = below.any(axis=2) & (exits > 0)
    index = np.clip(exits, 1, len(radii) - 1)
    before = np.take_along_axis(values, (index - 1)[..., None], axis=2)[..., 0].astype(float)
    after = np.take_along_axis(values, index[..., None], axis=2)[..., 0].astype(float)
    fraction = np.clip((before - level) / np.maximum(before - after, 1e-6), 0, 1)
    radius = radii[index - 1] + fraction * (radii[1] - radii[0])
    near = np.clip(index[..., None] + np.arange(-2, 2)[None, None, :], 0, len(radii) - 1)
    valid &= ~np.take_along_axis(on_pawn, near, axis=2).any(axis=2)
    points = centres[:, None, :] + directions[None, :, :] * radius[..., None]
    return points, valid


def _rim_points(
    config: ReadConfig, normalised: Normalised, pawns: Image, centres: FloatArray,
    begin_px: float, end_px: float, step_px: float,
) -> tuple[FloatArray, NDArray[np.bool_], NDArray[np.bool_]]:
    """The outermost rim along each ray: where the last stretch unlike paper ends, placed at
    the steepest fall of the difference from paper (the edge of a blurred step); whether it
    was found; and whether the ray ended on no paper and no pawn (it ends on the coin)."""
    count = len(centres)
    radii = np.arange(begin_px, end_px, step_px)
    directions, map_x, map_y = ray_maps(centres, config.ray_count, radii)
    rays = config.ray_count
    colours = cv2.remap(normalised.image, map_x, map_y, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    pawn_samples = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                             borderMode=cv2.BORDER_REPLICATE)
    samples = len(radii)
    on_pawn = pawn_samples.reshape(count, rays, -1) > 0
    # The paper just beyond the coin, as this ray sees it: shadows and uneven light cancel.
    # Four times its mean is a whole number, so the largest channel difference is exact in
    # int16, one contiguous plane per channel (numpy is slow over a trailing axis of 3).
    planes = [plane.astype(np.int16) for plane in cv2.split(colours)]
    paper4 = np.stack([plane[:, -4:].sum(axis=1) for plane in planes], axis=1)
    largest = np.abs(4 * planes[0] - paper4[:, None, 0])
    for channel in (1, 2):
        np.maximum(largest, np.abs(4 * planes[channel] - paper4[:, None, channel]),
                   out=largest)
    values = (largest * 0.25).reshape(count, rays, samples)
    paper = (paper4 * 0.25).reshape(count, rays, 3)
    paper_like = (np.abs(paper - PAPER) < config.paper_tolerance * PAPER).all(axis=2)
    unlike = values > config.rim_step * PAPER
    last = samples - 1 - np.argmax(unlike[..., ::-1], axis=2)
    ends_on_coin = unlike.any(axis=2) & (last >= samples - 4)
    valid = unlike.any(axis=2) & ~ends_on_coin & paper_like
    ran_out = (ends_on_coin | ~paper_like) & ~on_pawn[..., -4:].any(axis=2)
    fall = values[..., :-1] - values[..., 1:]  # fall[i]: from radii[i] to radii[i + 1]
    window = max(2, round(config.rim_window_mm / config.ray_step_mm))
    offsets = np.arange(-window, 2)
    candidates = np.clip(last[..., None] + offsets[None, None, :], 0, samples - 2)
    falls = np.take_along_axis(fall, candidates, axis=2)
    steepest = np.take_along_axis(candidates, np.argmax(falls, axis=2)[..., None], axis=2)[..., 0]
    radius = radii[steepest] + 0.5 * step_px
    near = np.clip(steepest[..., None] + np.arange(-2, 3)[None, None, :], 0, samples - 1)
    valid &= ~np.take_along_axis(on_pawn, near, axis=2).any(axis=2)
    points = centres[:, None, :] + directions[None, :, :] * radius[..., None]
    return points, valid, ran_out


def fit_circles(
    config: ReadConfig, points: FloatArray, valid: NDArray[np.bool_], reject_px: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Circles through rim points, down-weighting points outside: (K, 2) centres, (K,) radii,
    (K,) share of rays within ``reject_px`` / 3 of the circle."""
    count = valid.sum(axis=1)[:, None]
    summed = (points * valid[..., None]).sum(axis=1)
    origin = np.where(count > 0, summed / np.maximum(count, 1), points.mean(axis=1))
    x = points[..., 0] - origin[:, None, 0]
    y = points[..., 1] - origin[:, None, 1]
    # Per point the row (x, y, 1, -(x^2 + y^2)): one batched product per round gives the
    # weighted normal equations of the algebraic fit and their right-hand side together.
    rows = np.stack([x, y, np.ones_like(x), -(x**2 + y**2)], axis=1)
    columns = rows.transpose(0, 2, 1)
    ridge = np.eye(3) * 1e-9
    weights = valid.astype(np.float64)
    centre = np.zeros((len(points), 2))
    radius = np.zeros(len(points))
    for _ in range(config.fit_rounds):
        sums = (rows * weights[:, None, :]) @ columns
        solution = np.linalg.solve(sums[:, :3, :3] + ridge, sums[:, :3, 3:])[..., 0]
        centre = -solution[:, :2] / 2
        radius = np.sqrt(np.maximum((centre**2).sum(axis=1) - solution[:, 2], 1e-9))
        error = np.hypot(x - centre[:, None, 0], y - centre[:, None, 1]) - radius[:, None]
        weights = np.where(error > 0, config.outside_weight, 1.0)
        weights *= valid & (np.abs(error) < reject_px)
    distance = np.hypot(x - centre[:, None, 0], y - centre[:, None, 1])
    close = valid & (np.abs(distance - radius[:, None]) < reject_px / 3)
    return centre + origin, radius, close.mean(axis=1)


#: Unit offsets of the face samples: 36 directions on each of :data:`FACE_RINGS`.
_FACE_ANGLES = np.linspace(0, 2 * math.pi, 36, endpoint=False)
_FACE_X = (np.cos(_FACE_ANGLES)[:, None] * FACE_RINGS[None, :]).ravel()
_FACE_Y = (np.sin(_FACE_ANGLES)[:, None] * FACE_RINGS[None, :]).ravel()


def _face_maps(centres: FloatArray, radii: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Where each coin's face is sampled: remap maps, one row per coin."""
    map_x = (centres[:, 0, None] + radii[:, None] * _FACE_X[None]).astype(np.float32)
    map_y = (centres[:, 1, None] + radii[:, None] * _FACE_Y[None]).astype(np.float32)
    return map_x, map_y


def _visible(pawns: Image, centres: FloatArray, radii: FloatArray) -> FloatArray:
    """The share of each coin's face samples no pawn covers."""
    map_x, map_y = _face_maps(centres, radii)
    on_pawn = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
    return np.asarray((on_pawn == 0).mean(axis=1))


def _colours(
    normalised: Normalised, pawns: Image, centres: FloatArray, radii: FloatArray
) -> tuple[FloatArray, FloatArray]:
    """Median metal colour on rings at :data:`FACE_RINGS` of each radius, away from glare and pawn:
    (K, 2) chroma, NaN where too little was visible; and the share of the rings not under a
    pawn. Each row is its own, so callers measure several discs in one call."""
    map_x, map_y = _face_maps(centres, radii)
    pixels = cv2.remap(normalised.image, map_x, map_y, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE)
    on_pawn = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
    # Channel planes in uint8: reductions over a trailing axis of 3 are slow in numpy.
    blue, green, red = cv2.split(pixels)
    darkest = cv2.min(cv2.min(blue, green), red)
    brightest = cv2.max(cv2.max(blue, green), red)
    usable = (on_pawn == 0) & (darkest < 0.93 * PAPER) & (brightest > 12)
    blue, green, red = (plane.ravel().astype(np.float64) for plane in (blue, green, red))
    chroma = chromaticity(blue, green, red).reshape(len(centres), -1, 2)
    chroma[~usable] = np.nan
    counts = usable.sum(axis=1)
    # The median sample (NaNs sort last): a coin's metal even where a pawn's colour bleeds in.
    ordered = np.sort(chroma, axis=1)
    middle = np.take_along_axis(ordered, (counts // 2)[:, None, None].repeat(2, axis=2), axis=1)
    result = np.where((counts >= 8)[:, None], middle[:, 0, :], np.nan)
    return result, (on_pawn == 0).mean(axis=1)


def _faces_and_middles(
    normalised: Normalised, pawns: Image, centres: FloatArray, radii: FloatArray,
    middle: FloatArray,
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Face colours, colours of the middle (``middle`` of each radius), and the visible share
    of the faces, from one :func:`_colours` call."""
    count = len(centres)
    colours, visible = _colours(normalised, pawns, np.concatenate([centres, centres]),
                                np.concatenate([radii, radii * middle]))
    return colours[:count], colours[count:], visible[:count]


def measure_coins(
    config: ReadConfig, normalised: Normalised, pawns: Image, seeds: FloatArray,
    pixels_per_mm: float, profile: VisionProfile,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Fit a coin at each seed (top-view pixels): centres (K, 2) px, diameters mm, face colours
    (K, 2), colours of the middle (a disc smaller than any coin: the top coin's), rim shares,
    and the share of the face no pawn covers (a blob mostly covered is a pawn, or a coin a
    pawn stands on: see :func:`vision.read.read_view`)."""
    if len(seeds) == 0:
        empty = np.zeros((0,))
        return np.zeros((0, 2)), empty, np.zeros((0, 2)), np.zeros((0, 2)), empty, empty
    largest = max(look.diameter_mm for look in profile.coins) / 2 * profile.diameter_scale
    smallest = min(look.diameter_mm for look in profile.coins) / 2 * profile.diameter_scale
    end_px = (largest + config.ray_reach_mm) * pixels_per_mm
    reject_px = 2.5 * pixels_per_mm
    step_px = config.ray_step_mm * pixels_per_mm
    # First the blob's own outline (texture makes it a little larger than the coin), for a
    # centre; where too few rays leave the blob, the seed stays the centre.
    blob_end_px = end_px + config.blob_reach_mm * pixels_per_mm
    points, valid = _ray_exits(
        config, normalised, pawns, seeds, 1.0 * pixels_per_mm, blob_end_px, step_px * 2
    )
    blob_centres, blob_radii, _ = fit_circles(config, points, valid, reject_px * 2)
    enough = valid.sum(axis=1) >= config.ray_count // 3
    centres = np.where(enough[:, None], blob_centres, seeds)
    begin_px = 0.5 * smallest * pixels_per_mm
    points, valid, ran_out = _rim_points(
        config, normalised, pawns, centres, begin_px, end_px, step_px
    )
    # A stack whose offset coins spread beyond the largest coin's reach needs longer rays
    # where many end on the stack and find no paper: as far beyond its blob as others go
    # beyond the largest coin.
    reach_px = config.ray_reach_mm * pixels_per_mm
    short = ran_out.sum(axis=1) >= config.ray_count * config.short_rays
    wide = np.flatnonzero(enough & short & (blob_radii + reach_px / 2 > end_px))
    if len(wide):
        far = float(blob_radii[wide].max()) + reach_px
        points[wide], valid[wide], _ = _rim_points(
            config, normalised, pawns, centres[wide], begin_px, far, step_px
        )
    centres, radii, share = fit_circles(config, points, valid, reject_px)
    visible = _visible(pawns, centres, radii)
    # Glare can wash a silver coin out until its rim shows on few rays: a circle through
    # those few is a guess. Its outline in the foreground (filled from its texture and broken
    # edge ring) gives the centre, and the rim points seen the radius about it.
    rays = valid.sum(axis=1)
    washed = np.flatnonzero(enough & (visible >= config.beside_pawn_visible)
                            & (rays < config.min_rim_rays * config.ray_count))
    if len(washed):
        centres[washed] = blob_centres[washed]
        reach = np.hypot(*(points[washed] - blob_centres[washed, None, :]).transpose(2, 0, 1))
        ordered = np.sort(np.where(valid[washed], reach, np.inf), axis=1)
        about = np.take_along_axis(ordered, (rays[washed, None] - 1) // 2, axis=1)[:, 0]
        radii[washed] = np.where(rays[washed] >= 6, about, blob_radii[washed])
        near = np.abs(reach - radii[washed, None]) < reject_px / 3
        share[washed] = near.mean(axis=1)
        visible[washed] = _visible(pawns, centres[washed], radii[washed])
    # A pawn on or beside a coin leans over its rim and shades the paper next to it: both only
    # ever add rim points outside the coin, so those count for less there.
    beside = np.flatnonzero(visible < config.beside_pawn_visible)
    if len(beside):
        pawn_config = replace(config, outside_weight=config.pawn_outside_weight)
        centres[beside], radii[beside], share[beside] = fit_circles(
            pawn_config, points[beside], valid[beside], reject_px
        )
    middle = smallest * pixels_per_mm / np.maximum(radii, 1.0)
    faces, middles, visible = _faces_and_middles(normalised, pawns, centres, radii, middle)
    if len(beside):
        _away_from_pawns(config, normalised, pawns, centres, radii, middle, beside, faces, middles,
                         pixels_per_mm)
    diameters = 2 * radii / pixels_per_mm / profile.diameter_scale
    return centres, diameters, faces, middles, share, visible


def _away_from_pawns(
    config: ReadConfig, normalised: Normalised, pawns: Image, centres: FloatArray,
    radii: FloatArray, middle: FloatArray, beside: NDArray[np.intp], faces: FloatArray,
    middles: FloatArray, pixels_per_mm: float,
) -> None:
    """Face and middle colours of coins beside a pawn, from their part farther than
    ``pawn_colour_margin_mm`` from it, where enough of that is seen (in place).

    A pawn's colour bleeds onto the coin beyond its own outline (blur, its reflection and
    translucent edge): a blue pawn pulls a penny's copper towards a neutral silver.
    """
    reach = round(config.pawn_colour_margin_mm * pixels_per_mm)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    wide = pawns.copy()
    height, width = pawns.shape[:2]
    for (x, y), radius in zip(centres[beside], radii[beside], strict=True):
        # Only around each coin: widening the whole view's pawns costs a millisecond.
        left, top = max(int(x - radius) - 2 * reach, 0), max(int(y - radius) - 2 * reach, 0)
        right = min(int(x + radius) + 2 * reach + 2, width)
        bottom = min(int(y + radius) + 2 * reach + 2, height)
        if right > left and bottom > top:
            wide[top:bottom, left:right] = cv2.dilate(pawns[top:bottom, left:right], kernel)
    colours = _faces_and_middles(normalised, wide, centres[beside], radii[beside],
                                 middle[beside])
    for target, found in zip((faces, middles), colours[:2], strict=True):
        seen = ~np.isnan(found).any(axis=1)
        target[beside[seen]] = found[seen]


def classify(
    profile: VisionProfile, diameters: FloatArray, colours: FloatArray, middles: FloatArray
) -> tuple[list[str], FloatArray]:
    """The most likely top coin kind of each measurement and how sure that is (0-1).

    ``colours`` is the whole face's, ``middles`` the colour of a disc smaller than any coin
    around the centre. When the middle's metal differs from the face's, a smaller coin of
    another metal lies on top of a larger one (a penny on a quarter): the top coin is then the
    middle metal's coin that fits inside the measured outline.
    """
    kinds = [look.kind for look in profile.coins]
    sizes = np.array([look.diameter_mm for look in profile.coins])
    metals = np.array([look.colour for look in profile.coins])
    size_score = ((diameters[:, None] - sizes[None]) / profile.diameter_sigma_mm) ** 2
    colour_score = _colour_score(profile, colours, metals)
    middle_score = _colour_score(profile, middles, metals)
    other_metal = (middle_score.min(axis=1, initial=np.inf) < 4.0) & (
        np.take_along_axis(middle_score, np.argmin(size_score + colour_score, axis=1)[:, None],
                           axis=1)[:, 0] > 9.0
    )
    fits_inside = sizes[None] <= diameters[:, None] + 2 * profile.diameter_sigma_mm
    stacked_score = np.where(
        fits_inside, middle_score + 0.1 * size_score, np.inf
    )
    score = np.where(other_metal[:, None], stacked_score, size_score + colour_score)
    score = np.where(np.isfinite(score), score, 1e6)
    best = np.argmin(score, axis=1)
    rows = np.arange(len(best))
    relative = np.exp(-(score - score[rows, best][:, None]) / 2)
    share = 1.0 / relative.sum(axis=1)
    best_score = score[rows, best]
    plausible = np.exp(-np.maximum(0.0, best_score - 6.0) / 6.0)
    colour_known = np.where(np.isnan(colours).any(axis=1), 0.6, 1.0)
    stacked = np.where(other_metal, 0.8, 1.0)
    return [kinds[index] for index in best], share * plausible * colour_known * stacked
