"""Reading every region of a rectified mat: which coin lies on top, which pawn stands there.

The physics it relies on, so that it holds for cameras and coins it has never seen:

* **Light** is divided out against the printed mat itself: the top view is compared with the
  mat's own rendering, and the paper's local brightness and tint (a median over a window larger
  than any coin) becomes white. Warm, cold and uneven light and soft shadows larger than a coin
  all vanish; a coin's colour is then its metal's reflectance.
* **Where things are**: foreground is what is darker than paper, coloured, or textured (a
  shiny silver coin can be as bright as paper, but its relief and rim are not smooth), away
  from the printed lines. The deepest point of each foreground blob in a region is a seed.
* **Size**: from each seed, rays find where the last stretch unlike the paper beyond ends, at
  the steepest fall; a circle is fitted to those rim points giving less weight to points
  outside it, because shadows, the visible edge of a tilted coin and a pawn leaning over the
  rim only ever add to one side. The diameter in millimetres tells dime, penny, nickel, quarter
  and dollar apart (17.91, 19.05, 21.21, 24.26, 26.49 mm). Blur and lens error make a whole
  frame's coins look a little larger or smaller; since coin sizes are discrete, the shift that
  puts most coins on a size of their metal is taken out (:func:`size_shift`).
* **Metal**: the median colour inside the rim, away from glare and pawn, as
  ``(ln(red/green), ln(blue/green))``: copper is far from the neutral silver coins, brass lies
  between. A middle of another metal than the face means a smaller coin on top (a penny on a
  quarter, a dime on a penny), and the top coin is the middle's.
* **Pawns**: pixels that are saturated (or nearly black) and nearer a pawn colour than any metal,
  enough of them to cover a good share of a pawn's disc. A blob mostly under a pawn is the pawn
  and its shadow, not a coin.

Not yet told apart: a smaller silver coin on a larger silver one (a dime on a quarter) reads as
the larger coin, since nothing in colour or outline separates the top rim from the lower coin's
own raised rim reliably.

Regions of kind ``pit`` and ``cup`` hold loose coins: every seed there is a coin, and the reading
gives the count and the kinds. :func:`read_frame` is the whole pipeline from a camera frame.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from calibration.geometry import Circle, MatGeometry, Rect
from companion.observation import Observation, RegionReading
from vision.markers import BoardLocation, MarkerConfig, find_board
from vision.profile import VisionProfile
from vision.rectify import RectifyConfig, TopView, rectify, view_bounds

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray

#: The value paper takes in the normalised top view (leaves headroom for glare above white).
PAPER = 200.0
#: Region kinds that hold several loose coins rather than one stack.
LOOSE_KINDS = ("pit", "cup")


@dataclass(frozen=True)
class ReadConfig:
    """How regions are read; the coin and pawn looks come from the :class:`VisionProfile`.

    ``light_window_mm`` must exceed the largest coin (and the largest cluster of coins in a pit
    that should still be read well); ``seed_radius_mm`` is the least inscribed radius of a blob
    worth measuring (a pawn's is 7 mm); rays run ``ray_count`` ways out to
    ``ray_reach_mm`` beyond the largest coin's rim. ``outside_weight`` is the weight of rim
    points outside the fitted circle (shadows and edges only ever add outside). Up to
    ``max_size_shift_mm`` of common size error per frame is taken out (see :func:`size_shift`).
    """

    light_pixels_per_mm: float = 0.25
    light_window_mm: float = 46.0
    reference_blur_px: float = 1.0
    ink_band_mm: float = 1.2
    colour_step: float = 0.25
    texture_mm: float = 0.5
    texture_step: float = 0.05
    seed_radius_mm: float = 5.0
    ray_count: int = 40
    ray_step_mm: float = 0.25
    ray_reach_mm: float = 2.0
    blob_reach_mm: float = 4.0
    rim_step: float = 0.15
    paper_tolerance: float = 0.3
    rim_window_mm: float = 0.6
    outside_weight: float = 0.2
    fit_rounds: int = 5
    max_size_shift_mm: float = 1.5
    min_visible_share: float = 0.35
    min_loose_rim_share: float = 0.3
    pawn_margin_mm: float = 0.5
    hidden_coin_ratio: float = 0.8
    hidden_coin_doubt: float = 0.4
    min_coins_for_shift: int = 4
    max_loose_coins: int = 40


@dataclass(frozen=True)
class VisionConfig:
    """The whole pipeline's configuration: finding, rectifying, reading."""

    markers: MarkerConfig = field(default_factory=MarkerConfig)
    rectify: RectifyConfig = field(default_factory=RectifyConfig)
    read: ReadConfig = field(default_factory=ReadConfig)


@dataclass(frozen=True)
class CoinFit:
    """One measured coin in the top view: centre in mat mm, diameter in mm, colour, quality."""

    centre_mm: tuple[float, float]
    diameter_mm: float
    colour: tuple[float, float]
    rim_share: float


@dataclass(frozen=True)
class PawnSighting:
    """One pawn seen: its colour name, centre in mat mm and the share of its disc seen."""

    name: str
    centre_mm: tuple[float, float]
    share: float


@dataclass(frozen=True, eq=False)
class Normalised:
    """The top view with the paper's light divided out: paper is :data:`PAPER` in every channel.

    ``image`` is BGR uint8; ``darkest`` its per-pixel darkest channel; ``deviation`` the largest
    difference of any channel from paper; ``foreground`` the mask
    of coins and pawns with holes filled; ``depth`` the distance (px) to the nearest paper.
    """

    image: Image
    darkest: Image
    deviation: Image
    foreground: Image
    depth: FloatArray


# -- light ---------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class MatReference:
    """The printed mat as the top view would show it under white light, and where its ink is.

    ``image`` is slightly blurred BGR; ``ink`` marks (255) a band around printed lines and
    letters, where texture says nothing about coins.
    """

    image: Image
    ink: Image


@lru_cache(maxsize=8)
def mat_reference(
    geometry: MatGeometry, pixels_per_mm: float, margin_mm: float, blur_px: float,
    ink_band_mm: float,
) -> MatReference:
    """The :class:`MatReference` of ``geometry`` for a top view of this scale and margin."""
    from calibration.mats import render_mat

    left, top, width, height = view_bounds(RectifyConfig(pixels_per_mm, margin_mm), geometry)
    full = render_mat(geometry, pixels_per_mm)
    shift = np.array([[1.0, 0.0, -left * pixels_per_mm], [0.0, 1.0, -top * pixels_per_mm]])
    view = cv2.warpAffine(full, shift, (width, height), borderMode=cv2.BORDER_REPLICATE)
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    edges = cv2.morphologyEx(grey, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8))
    _, ink = cv2.threshold(edges, 6, 255, cv2.THRESH_BINARY)
    band = max(1, round(ink_band_mm * pixels_per_mm))
    ink = cv2.dilate(ink, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * band + 1,) * 2))
    if blur_px > 0:
        view = cv2.GaussianBlur(view, (0, 0), blur_px)
    view = np.maximum(view, 40)  # never divide by (near) black
    view.setflags(write=False)
    ink.setflags(write=False)
    return MatReference(view, ink)


def normalise(
    config: ReadConfig, view: TopView, reference: MatReference, profile: VisionProfile
) -> Normalised:
    """Divide out the light against the printed mat, then find the foreground.

    Foreground is what is darker than paper, or coloured, or textured (a silver coin can be as
    bright as paper, but its relief and rim are not smooth), with holes filled.
    """
    ratio = cv2.divide(view.image, reference.image, scale=100.0)  # paper: 100 x local light
    light_scale = config.light_pixels_per_mm / view.pixels_per_mm
    small = cv2.resize(ratio, None, fx=light_scale, fy=light_scale, interpolation=cv2.INTER_AREA)
    window = int(config.light_window_mm * config.light_pixels_per_mm) | 1
    light = cv2.medianBlur(small, window)
    light = cv2.GaussianBlur(light, (0, 0), max(1.0, window / 6))
    light = cv2.resize(light, (ratio.shape[1], ratio.shape[0]), interpolation=cv2.INTER_LINEAR)
    image = cv2.divide(ratio, np.maximum(light, 1), scale=PAPER)
    blue, green, red = cv2.split(image)
    darkest = cv2.min(cv2.min(blue, green), red)
    brightest = cv2.max(cv2.max(blue, green), red)
    level = PAPER * (1.0 - profile.foreground_darkness)
    _, mask = cv2.threshold(darkest, level, 255, cv2.THRESH_BINARY_INV)
    colourful = cv2.subtract(brightest, darkest)
    _, coloured = cv2.threshold(colourful, config.colour_step * PAPER, 255, cv2.THRESH_BINARY)
    texture = _texture(config, image, view.pixels_per_mm)
    textured = cv2.bitwise_and(texture, cv2.bitwise_not(reference.ink))
    mask = cv2.bitwise_or(cv2.bitwise_or(mask, coloured), textured)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
    mask = _fill_holes(mask)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    away = cv2.absdiff(image, np.full_like(image, round(PAPER)))
    deviation = cv2.max(cv2.max(away[..., 0], away[..., 1]), away[..., 2])
    return Normalised(image, darkest, deviation, mask, depth)


def _texture(config: ReadConfig, image: Image, pixels_per_mm: float) -> Image:
    """Where the normalised image is not smooth: local mean gradient above a threshold (255)."""
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    along_x = cv2.Sobel(grey, cv2.CV_16S, 1, 0)
    along_y = cv2.Sobel(grey, cv2.CV_16S, 0, 1)
    magnitude = cv2.addWeighted(cv2.convertScaleAbs(along_x), 0.5,
                                cv2.convertScaleAbs(along_y), 0.5, 0)
    smooth = cv2.GaussianBlur(magnitude, (0, 0), config.texture_mm * pixels_per_mm)
    _, textured = cv2.threshold(smooth, config.texture_step * PAPER, 255, cv2.THRESH_BINARY)
    return textured


def _fill_holes(mask: Image) -> Image:
    """``mask`` with every background region not connected to the border filled (glare spots)."""
    padded = cv2.copyMakeBorder(mask, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    flood = padded.copy()
    flood_mask = np.zeros((padded.shape[0] + 2, padded.shape[1] + 2), np.uint8)
    cv2.floodFill(flood, flood_mask, (0, 0), 255)
    holes = cv2.bitwise_not(flood)
    return cv2.bitwise_or(mask, holes[1:-1, 1:-1])


# -- pawns ---------------------------------------------------------------------------------------


def _chroma(blue: FloatArray, green: FloatArray, red: FloatArray) -> FloatArray:
    """``(ln(red/green), ln(blue/green))`` per pixel, as an N x 2 array."""
    green = np.maximum(green, 1.0)
    return np.column_stack(
        [np.log(np.maximum(red, 1.0) / green), np.log(np.maximum(blue, 1.0) / green)]
    )


@lru_cache(maxsize=4)
def pawn_table(profile: VisionProfile) -> Image:
    """For every normalised colour (5 bits a channel, index ``b << 10 | g << 5 | r``): 0, or
    1 + the index of the pawn colour it belongs to. A colour is a pawn's when it is saturated
    and nearer that pawn's chroma than any metal's or paper's, or (for a black pawn) dark."""
    levels = np.arange(32, dtype=np.float64) * 8 + 4
    blue, green, red = (axis.ravel() for axis in np.meshgrid(levels, levels, levels, indexing="ij"))
    brightest = np.maximum(np.maximum(blue, green), red)
    darkest = np.minimum(np.minimum(blue, green), red)
    saturation = 1 - darkest / brightest
    labels = np.zeros(blue.size, np.uint8)
    looks = [np.array(pawn.colour, np.float64) for pawn in profile.pawns]
    dark = [index for index, colour in enumerate(looks) if colour.max() < profile.pawn_dark_value]
    bright = [index for index in range(len(looks)) if index not in dark]
    if bright:
        chroma = _chroma(blue, green, red)
        references = [_chroma(*(looks[i][:, None] * PAPER))[0] for i in bright]
        references += [np.array(look.colour) for look in profile.coins]
        references.append(np.zeros(2))  # paper and shadow
        table = np.array(references)
        nearest = np.argmin(((chroma[:, None, :] - table[None]) ** 2).sum(axis=2), axis=1)
        candidate = (saturation >= profile.pawn_min_saturation) & (brightest >= 0.15 * PAPER)
        is_pawn = candidate & (nearest < len(bright))
        labels[is_pawn] = np.array(bright)[nearest[is_pawn]] + 1
    if dark:
        labels[brightest < profile.pawn_dark_value * PAPER] = dark[0] + 1
    labels.setflags(write=False)
    return labels


def pawn_labels(normalised: Normalised, profile: VisionProfile) -> Image:
    """Per pixel: 0, or 1 + the index of the pawn colour the pixel belongs to.

    Classified at half resolution through :func:`pawn_table` (a pawn is 14 mm across, so
    nothing is lost) and scaled back up.
    """
    image = normalised.image
    height, width = image.shape[:2]
    if not profile.pawns:
        return np.zeros((height, width), np.uint8)
    small = cv2.resize(image, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    quantised = np.right_shift(np.asarray(small, np.uint8), 3).astype(np.uint16)
    index = (quantised[..., 0] << 10) | (quantised[..., 1] << 5) | quantised[..., 2]
    labels = pawn_table(profile)[index]
    return cv2.resize(labels, (width, height), interpolation=cv2.INTER_NEAREST)


# -- where regions lie in the top view -----------------------------------------------------------


@dataclass(frozen=True, eq=False)
class RegionWindow:
    """A region's bounding box in top-view pixels, and for round regions a mask within it."""

    name: str
    kind: str
    box: tuple[int, int, int, int]
    mask: Image | None


@lru_cache(maxsize=8)
def region_windows(
    geometry: MatGeometry, pixels_per_mm: float, origin_mm: tuple[float, float],
    size: tuple[int, int],
) -> tuple[RegionWindow, ...]:
    """Every region of ``geometry`` as a pixel window of a top view with this scale and origin."""
    width, height = size
    windows = []
    for region in geometry.regions:
        left, top, right, bottom = region.shape.bounds()
        x0 = max(0, round((left - origin_mm[0]) * pixels_per_mm))
        y0 = max(0, round((top - origin_mm[1]) * pixels_per_mm))
        x1 = min(width, round((right - origin_mm[0]) * pixels_per_mm))
        y1 = min(height, round((bottom - origin_mm[1]) * pixels_per_mm))
        mask = None
        if isinstance(region.shape, Circle):
            mask = np.zeros((y1 - y0, x1 - x0), np.uint8)
            centre_x = (region.shape.centre[0] - origin_mm[0]) * pixels_per_mm - 0.5 - x0
            centre_y = (region.shape.centre[1] - origin_mm[1]) * pixels_per_mm - 0.5 - y0
            radius = region.shape.radius * pixels_per_mm
            cv2.circle(mask, (round(centre_x), round(centre_y)), round(radius), 1, -1)
        windows.append(RegionWindow(region.name, region.kind, (x0, y0, x1, y1), mask))
    return tuple(windows)


@lru_cache(maxsize=8)
def region_map(windows: tuple[RegionWindow, ...], size: tuple[int, int]) -> FloatArray:
    """Per top-view pixel: the index of the region it lies in, or -1."""
    width, height = size
    index_map = np.full((height, width), -1, np.int16)
    for index, window in enumerate(windows):
        x0, y0, x1, y1 = window.box
        patch = index_map[y0:y1, x0:x1]
        if window.mask is None:
            patch[patch < 0] = index
        else:
            patch[(patch < 0) & (window.mask > 0)] = index
    index_map.setflags(write=False)
    return index_map


def _seeds(
    config: ReadConfig, depth: FloatArray, window: RegionWindow, least: float
) -> list[tuple[float, float, float]]:
    """Seeds (column, row, depth) of the blobs in a region: one for a stack, all for loose coins."""
    x0, y0, x1, y1 = window.box
    patch = depth[y0:y1, x0:x1]
    if window.mask is not None:
        patch = patch * window.mask
    found: list[tuple[float, float, float]] = []
    wanted = config.max_loose_coins if window.kind in LOOSE_KINDS else 1
    if wanted > 1:
        patch = patch.copy()
    while len(found) < wanted and patch.size:
        index = int(np.argmax(patch))
        row, column = divmod(index, patch.shape[1])
        value = float(patch[row, column])
        if value < least:
            break
        found.append((float(column + x0), float(row + y0), value))
        if wanted > 1:
            cv2.circle(patch, (column, row), max(1, round(value * 1.05)), 0.0, -1)
    return found


# -- measuring coins -----------------------------------------------------------------------------


def _ray_exits(
    config: ReadConfig, normalised: Normalised, pawns: Image, centres: FloatArray,
    begin_px: float, end_px: float, step_px: float,
) -> tuple[FloatArray, NDArray[np.bool_]]:
    """Where each ray from each centre leaves the coin: (K, J, 2) points and a (K, J) validity."""
    count = len(centres)
    angles = np.linspace(0, 2 * math.pi, config.ray_count, endpoint=False)
    radii = np.arange(begin_px, end_px, step_px)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    xs = centres[:, None, None, 0] + directions[None, :, None, 0] * radii[None, None, :]
    ys = centres[:, None, None, 1] + directions[None, :, None, 1] * radii[None, None, :]
    map_x = xs.reshape(count * len(angles), -1).astype(np.float32)
    map_y = ys.reshape(count * len(angles), -1).astype(np.float32)
    values = cv2.remap(normalised.foreground, map_x, map_y, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    pawn_samples = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                             borderMode=cv2.BORDER_REPLICATE)
    values = values.reshape(count, len(angles), -1)
    on_pawn = pawn_samples.reshape(count, len(angles), -1) > 0
    level = np.full((count, 1, 1), 127.5)
    below = values < level
    exits = np.argmax(below, axis=2)
    valid = below.any(axis=2) & (exits > 0)
    index = np.clip(exits, 1, len(radii) - 1)
    before = np.take_along_axis(values, (index - 1)[..., None], axis=2)[..., 0]
    after = np.take_along_axis(values, index[..., None], axis=2)[..., 0]
    fraction = np.clip((before - level[..., 0]) / np.maximum(before - after, 1e-6), 0, 1)
    radius = radii[index - 1] + fraction * (radii[1] - radii[0])
    near = np.clip(index[..., None] + np.arange(-2, 2)[None, None, :], 0, len(radii) - 1)
    valid &= ~np.take_along_axis(on_pawn, near, axis=2).any(axis=2)
    points = centres[:, None, :] + directions[None, :, :] * radius[..., None]
    return points, valid


def _rim_points(
    config: ReadConfig, normalised: Normalised, pawns: Image, centres: FloatArray,
    begin_px: float, end_px: float, step_px: float,
) -> tuple[FloatArray, NDArray[np.bool_]]:
    """The outermost rim along each ray: where the last stretch unlike paper ends, placed at
    the steepest fall of the difference from paper (the edge of a blurred step)."""
    count = len(centres)
    angles = np.linspace(0, 2 * math.pi, config.ray_count, endpoint=False)
    radii = np.arange(begin_px, end_px, step_px)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    xs = centres[:, None, None, 0] + directions[None, :, None, 0] * radii[None, None, :]
    ys = centres[:, None, None, 1] + directions[None, :, None, 1] * radii[None, None, :]
    map_x = xs.reshape(count * len(angles), -1).astype(np.float32)
    map_y = ys.reshape(count * len(angles), -1).astype(np.float32)
    colours = cv2.remap(normalised.image, map_x, map_y, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE).astype(np.float32)
    pawn_samples = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                             borderMode=cv2.BORDER_REPLICATE)
    samples = len(radii)
    colours = colours.reshape(count, len(angles), samples, 3)
    on_pawn = pawn_samples.reshape(count, len(angles), -1) > 0
    # The paper just beyond the coin, as this ray sees it: shadows and uneven light cancel.
    paper = colours[:, :, -4:, :].mean(axis=2, keepdims=True)
    values = np.abs(colours - paper).max(axis=3).astype(np.float64)
    paper_like = (np.abs(paper[:, :, 0, :] - PAPER) < config.paper_tolerance * PAPER).all(axis=2)
    unlike = values > config.rim_step * PAPER
    last = samples - 1 - np.argmax(unlike[..., ::-1], axis=2)
    valid = unlike.any(axis=2) & (last < samples - 4) & paper_like
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
    return points, valid


def _fit_circles(
    config: ReadConfig, points: FloatArray, valid: NDArray[np.bool_], reject_px: float
) -> tuple[FloatArray, FloatArray, FloatArray]:
    """Circles through rim points, down-weighting points outside: (K, 2) centres, (K,) radii,
    (K,) share of rays within ``reject_px`` / 3 of the circle."""
    count = valid.sum(axis=1)[:, None]
    summed = (points * valid[..., None]).sum(axis=1)
    origin = np.where(count > 0, summed / np.maximum(count, 1), points.mean(axis=1))
    x = points[..., 0] - origin[:, None, 0]
    y = points[..., 1] - origin[:, None, 1]
    weights = valid.astype(np.float64)
    centre = np.zeros((len(points), 2))
    radius = np.zeros(len(points))
    for _ in range(config.fit_rounds):
        design = np.stack([x, y, np.ones_like(x)], axis=2)
        target = -(x**2 + y**2)
        weighted = design * weights[..., None]
        normal = np.einsum("kji,kjl->kil", weighted, design) + np.eye(3) * 1e-9
        right = np.einsum("kji,kj->ki", weighted, target)
        solution = np.linalg.solve(normal, right[..., None])[..., 0]
        centre = -solution[:, :2] / 2
        radius = np.sqrt(np.maximum((centre**2).sum(axis=1) - solution[:, 2], 1e-9))
        distance = np.hypot(x - centre[:, None, 0], y - centre[:, None, 1])
        error = distance - radius[:, None]
        weights = np.where(error > 0, config.outside_weight, 1.0)
        weights = weights * valid * (np.abs(error) < reject_px)
    distance = np.hypot(x - centre[:, None, 0], y - centre[:, None, 1])
    close = valid & (np.abs(distance - radius[:, None]) < reject_px / 3)
    return centre + origin, radius, close.mean(axis=1)


def _colours(
    normalised: Normalised, pawns: Image, centres: FloatArray, radii: FloatArray,
    fractions: FloatArray,
) -> tuple[FloatArray, FloatArray]:
    """Median metal colour on rings at ``fractions`` of each radius, away from glare and pawn:
    (K, 2) chroma, NaN where too little was visible; and the share of the rings not under a
    pawn."""
    angles = np.linspace(0, 2 * math.pi, 36, endpoint=False)
    offsets_x = np.cos(angles)[:, None] * fractions[None, :]
    offsets_y = np.sin(angles)[:, None] * fractions[None, :]
    map_x = (centres[:, 0, None] + radii[:, None] * offsets_x.ravel()[None]).astype(np.float32)
    map_y = (centres[:, 1, None] + radii[:, None] * offsets_y.ravel()[None]).astype(np.float32)
    pixels = cv2.remap(normalised.image, map_x, map_y, cv2.INTER_LINEAR,
                       borderMode=cv2.BORDER_REPLICATE).astype(np.float64)
    on_pawn = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
    darkest = pixels.min(axis=2)
    usable = (on_pawn == 0) & (darkest < 0.93 * PAPER) & (pixels.max(axis=2) > 12)
    flat = pixels.reshape(-1, 3)
    chroma = _chroma(flat[:, 0], flat[:, 1], flat[:, 2]).reshape(len(centres), -1, 2)
    chroma[~usable] = np.nan
    counts = usable.sum(axis=1)
    # The median sample (NaNs sort last): a coin's metal even where a pawn's colour bleeds in.
    ordered = np.sort(chroma, axis=1)
    middle = np.take_along_axis(ordered, (counts // 2)[:, None, None].repeat(2, axis=2), axis=1)
    result = np.where((counts >= 8)[:, None], middle[:, 0, :], np.nan)
    return result, (on_pawn == 0).mean(axis=1)


def measure_coins(
    config: ReadConfig, normalised: Normalised, pawns: Image, seeds: FloatArray,
    pixels_per_mm: float, profile: VisionProfile,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray, FloatArray]:
    """Fit a coin at each seed (top-view pixels): centres (K, 2) px, diameters mm, face colours
    (K, 2), colours of the middle (a disc smaller than any coin: the top coin's), rim shares."""
    if len(seeds) == 0:
        empty = np.zeros((0,))
        return np.zeros((0, 2)), empty, np.zeros((0, 2)), np.zeros((0, 2)), empty
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
    centres, _, _ = _fit_circles(config, points, valid, reject_px * 2)
    enough = valid.sum(axis=1) >= config.ray_count // 3
    centres = np.where(enough[:, None], centres, seeds)
    begin_px = 0.5 * smallest * pixels_per_mm
    points, valid = _rim_points(config, normalised, pawns, centres, begin_px, end_px, step_px)
    centres, radii, share = _fit_circles(config, points, valid, reject_px)
    rings = np.array([0.3, 0.42, 0.54, 0.66, 0.76])
    faces, visible = _colours(normalised, pawns, centres, radii, rings)
    middle = smallest * pixels_per_mm / np.maximum(radii, 1.0)
    middles, _ = _colours(normalised, pawns, centres, radii * middle, rings)
    diameters = 2 * radii / pixels_per_mm / profile.diameter_scale
    # A blob mostly covered by a pawn is the pawn and its shadow, not a coin under it.
    diameters[visible < config.min_visible_share] = np.nan
    return centres, diameters, faces, middles, share


# -- deciding ------------------------------------------------------------------------------------


def _hidden_coin_doubt(
    config: ReadConfig, normalised: Normalised, centres: FloatArray, diameters: FloatArray,
    kinds: list[str], pixels_per_mm: float, profile: VisionProfile,
) -> FloatArray:
    """A confidence factor per coin: ``hidden_coin_doubt`` where a smaller coin of the same
    metal may lie on top, else 1.

    Inside a coin, the strongest edge along each ray is normally its own raised rim, a circle at
    about 0.85 of its radius; a smaller coin on top puts its edge further in. When that circle
    is both well defined and clearly smaller than ``hidden_coin_ratio`` of the outline, the
    reading is doubtful (the referee then does not hold the square against a fitting move).
    """
    factor = np.ones(len(kinds))
    looks = {look.kind: look for look in profile.coins}
    suspects = [
        index for index, kind in enumerate(kinds)
        if np.isfinite(diameters[index]) and any(
            other.colour == looks[kind].colour and other.diameter_mm < looks[kind].diameter_mm
            for other in profile.coins
        )
    ]
    if not suspects:
        return factor
    chosen = np.array(suspects)
    grey = cv2.cvtColor(normalised.image, cv2.COLOR_BGR2GRAY)
    angles = np.linspace(0, 2 * math.pi, config.ray_count, endpoint=False)
    directions = np.column_stack([np.cos(angles), np.sin(angles)])
    begin = 0.3 * min(look.diameter_mm for look in profile.coins) * pixels_per_mm
    outline = diameters[chosen] / 2 * pixels_per_mm
    fractions = np.linspace(0.0, 1.0, 32)
    radii = begin + (outline[:, None] - 0.8 * pixels_per_mm - begin) * fractions[None, :]
    xs = centres[chosen, None, None, 0] + directions[None, :, None, 0] * radii[:, None, :]
    ys = centres[chosen, None, None, 1] + directions[None, :, None, 1] * radii[:, None, :]
    count = len(chosen) * len(angles)
    values = cv2.remap(grey, xs.reshape(count, -1).astype(np.float32),
                       ys.reshape(count, -1).astype(np.float32), cv2.INTER_LINEAR)
    values = values.reshape(len(chosen), len(angles), -1).astype(np.float64)
    strongest = np.argmax(np.abs(values[..., 2:] - values[..., :-2]), axis=2) + 1
    edge = np.take_along_axis(radii[:, None, :], strongest[..., None], axis=2)[..., 0]
    points = centres[chosen, None, :] + directions[None] * edge[..., None]
    _, inner, share = _fit_circles(
        replace(config, outside_weight=1.0), points,
        np.ones(points.shape[:2], bool), 1.5 * pixels_per_mm,
    )
    doubtful = (share >= 0.5) & (inner / outline < config.hidden_coin_ratio)
    doubtful &= outline - 0.8 * pixels_per_mm > begin
    factor[chosen[doubtful]] = config.hidden_coin_doubt
    return factor


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


def size_shift(
    config: ReadConfig, profile: VisionProfile, diameters: FloatArray, colours: FloatArray,
    shares: FloatArray,
) -> float:
    """The frame's common size error (mm), found from the coins themselves.

    Blur and a slightly wrong lens fit make every coin of a frame look a little larger or
    smaller. Coin sizes are discrete and known, and the metal narrows each coin's kinds (a
    copper coin is a penny whatever its size), so the shift that brings most coins onto a
    size of their metal is that error. Needs ``min_coins_for_shift`` well-fitted coins.
    """
    usable = np.isfinite(diameters) & (shares >= 0.5)
    if usable.sum() < config.min_coins_for_shift or config.max_size_shift_mm <= 0:
        return 0.0
    sizes = np.array([look.diameter_mm for look in profile.coins])
    metals = np.array([look.colour for look in profile.coins])
    colour_score = _colour_score(profile, colours[usable], metals)
    allowed = colour_score <= max(9.0, float(colour_score.min(axis=1).max(initial=0.0)))
    allowed |= ~allowed.any(axis=1, keepdims=True)
    limit, step = config.max_size_shift_mm, 0.05
    shifts = np.arange(-limit, limit + step / 2, step)
    gaps = diameters[usable][None, :, None] - shifts[:, None, None] - sizes[None, None, :]
    gaps = np.where(allowed[None], np.abs(gaps), np.inf).min(axis=2)
    cost = np.minimum(gaps, 1.0).sum(axis=1) + 0.02 * np.abs(shifts) * usable.sum()
    return float(shifts[int(np.argmin(cost))])


def _colour_score(profile: VisionProfile, colours: FloatArray, metals: FloatArray) -> FloatArray:
    """Squared colour distance in sigmas from each kind's metal; 0 where the colour is unknown."""
    gap = ((colours[:, None, :] - metals[None]) ** 2).sum(axis=2)
    return np.asarray(np.nan_to_num(gap / profile.colour_sigma**2, nan=0.0))


def _pawns_in(
    labels: Image, regions_at: FloatArray, count: int, profile: VisionProfile,
    pixels_per_mm: float,
) -> list[tuple[str | None, float]]:
    """Per region: the pawn colour standing there (or None) and the share of its disc seen,
    counted for every region at once."""
    colours = len(profile.pawns) + 1
    inside = regions_at >= 0
    keys = regions_at[inside].astype(np.int64) * colours + labels[inside]
    counts = np.bincount(keys, minlength=count * colours).reshape(count, colours)[:, 1:]
    disc = math.pi * (profile.pawn_diameter_mm / 2 * pixels_per_mm) ** 2
    result: list[tuple[str | None, float]] = []
    for row in counts:
        if row.size == 0:
            result.append((None, 0.0))
            continue
        best = int(np.argmax(row))
        share = float(row[best]) / disc
        name = profile.pawns[best].name if share >= profile.pawn_min_share else None
        result.append((name, share))
    return result


def _pawn_confidence(share: float, least: float) -> float:
    """How sure a pawn decision is, from the share of a pawn disc seen (0 = none, 1 = whole)."""
    if share >= least:
        return float(min(1.0, 0.6 + (share - least) / max(least, 1e-6)))
    return float(min(1.0, 0.6 + (least - share) / max(least, 1e-6) * 0.4))


@dataclass(frozen=True, eq=False)
class ViewReading:
    """Everything read from one top view: the readings, plus every coin and pawn measured."""

    regions: dict[str, RegionReading]
    coins: tuple[tuple[str, CoinFit, str, float], ...]


def read_view(
    config: ReadConfig, view: TopView, geometry: MatGeometry, profile: VisionProfile
) -> ViewReading:
    """Read every region of ``geometry`` in a rectified top view."""
    ppm = view.pixels_per_mm
    margin = geometry.play_area.left - view.origin_mm[0]
    reference = mat_reference(
        geometry, ppm, margin, config.reference_blur_px, config.ink_band_mm
    )
    normalised = normalise(config, view, reference, profile)
    labels = pawn_labels(normalised, profile)
    height, width = view.image.shape[:2]
    windows = region_windows(geometry, ppm, view.origin_mm, (width, height))
    regions_at = region_map(windows, (width, height))
    seeds: list[tuple[float, float, float]] = []
    for window in windows:
        seeds.extend(_seeds(config, normalised.depth, window, config.seed_radius_mm * ppm))
    seed_array = np.array([(x, y) for x, y, _ in seeds], np.float64).reshape(-1, 2)
    # Exclude a margin around pawns too: their dark rims blend into what lies under them.
    margin = 2 * round(config.pawn_margin_mm * ppm) + 1
    cover = cv2.dilate(labels, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (margin, margin)))
    centres, diameters, colours, middles, shares = measure_coins(
        config, normalised, cover, seed_array, ppm, profile
    )
    shift = size_shift(config, profile, diameters, colours, shares)
    diameters = diameters - shift
    kinds, confidences = classify(profile, diameters, colours, middles)
    confidences = confidences * _hidden_coin_doubt(
        config, normalised, centres, diameters, kinds, ppm, profile
    )
    smallest = min(look.diameter_mm for look in profile.coins)
    least_coin = (smallest + profile.pawn_diameter_mm) / 2
    found: dict[str, list[tuple[CoinFit, str, float]]] = {}
    for index, (column, row) in enumerate(centres):
        if not np.isfinite(diameters[index]) or diameters[index] < least_coin:
            continue  # a pawn on bare paper, or a speck
        centre_mm = view.to_mm(float(column), float(row))
        inside = 0 <= round(row) < height and 0 <= round(column) < width
        region_index = int(regions_at[round(row), round(column)]) if inside else -1
        if region_index < 0:
            continue
        region = windows[region_index]
        fit = CoinFit(
            centre_mm, float(diameters[index]), (float(colours[index, 0]),
            float(colours[index, 1])), float(shares[index]),
        )
        confidence = float(confidences[index]) * min(1.0, float(shares[index]) / 0.4)
        found.setdefault(region.name, []).append((fit, kinds[index], confidence))
    regions: dict[str, RegionReading] = {}
    measured: list[tuple[str, CoinFit, str, float]] = []
    pawns = _pawns_in(labels, regions_at, len(windows), profile, ppm)
    for window, (pawn, pawn_share) in zip(windows, pawns, strict=True):
        pawn_confidence = _pawn_confidence(pawn_share, profile.pawn_min_share)
        least_share = config.min_loose_rim_share if window.kind in LOOSE_KINDS else 0.0
        coins = _distinct(found.get(window.name, []), smallest / 2, least_share)
        measured.extend((window.name, fit, kind, conf) for fit, kind, conf in coins)
        if window.kind in LOOSE_KINDS:
            confidence = min([pawn_confidence, *(conf for _, _, conf in coins)])
            kinds_seen = tuple(sorted({kind for _, kind, _ in coins}))
            regions[window.name] = RegionReading(
                None, pawn, confidence, count=len(coins), kinds=kinds_seen
            )
        elif coins:
            fit, kind, confidence = max(coins, key=lambda item: item[0].rim_share)
            regions[window.name] = RegionReading(kind, pawn, min(confidence, pawn_confidence))
        else:
            regions[window.name] = RegionReading(None, pawn, pawn_confidence)
    return ViewReading(regions, tuple(measured))


def _distinct(
    coins: list[tuple[CoinFit, str, float]], apart_mm: float, least_share: float
) -> list[tuple[CoinFit, str, float]]:
    """Coins found twice (two seeds in one coin, or a gap between touching coins) counted once:
    the better fits are kept, and a fit whose rim was hardly seen is dropped."""
    kept: list[tuple[CoinFit, str, float]] = []
    for item in sorted(coins, key=lambda entry: -entry[0].rim_share):
        fit = item[0]
        if fit.rim_share < least_share:
            continue
        if all(
            math.dist(fit.centre_mm, other.centre_mm)
            >= max(apart_mm, 0.8 * max(fit.diameter_mm, other.diameter_mm) / 2)
            for other, _, _ in kept
        ):
            kept.append(item)
    return kept


# -- the whole pipeline --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FrameReading:
    """A frame read end to end: the observation, where the board was, and the top view."""

    observation: Observation
    location: BoardLocation
    view: TopView
    coins: tuple[tuple[str, CoinFit, str, float], ...]


def read_frame_details(
    config: VisionConfig, image: Image, geometry: MatGeometry, profile: VisionProfile
) -> FrameReading:
    """Find the mat, rectify it and read it, timing each stage (``meta["timings_ms"]``).

    Raises :class:`~vision.errors.MatNotFoundError` when too few markers are seen.
    """
    start = time.perf_counter()
    location = find_board(config.markers, image, geometry)
    found = time.perf_counter()
    view = rectify(config.rectify, image, location, geometry)
    rectified = time.perf_counter()
    reading = read_view(config.read, view, geometry, profile)
    done = time.perf_counter()
    timings = {
        "find": round((found - start) * 1000, 2),
        "rectify": round((rectified - found) * 1000, 2),
        "read": round((done - rectified) * 1000, 2),
    }
    observation = Observation(
        regions=reading.regions,
        markers_found=location.markers_found,
        milliseconds=(done - start) * 1000,
        meta={
            "mat": geometry.name,
            "markers_missing": list(location.markers_missing),
            "timings_ms": timings,
        },
    )
    return FrameReading(observation, location, view, reading.coins)


def read_frame(
    config: VisionConfig, image: Image, geometry: MatGeometry, profile: VisionProfile
) -> Observation:
    """The observation of one camera frame: find the mat, rectify, read every region."""
    return read_frame_details(config, image, geometry, profile).observation


__all__ = [
    "ReadConfig",
    "Rect",
    "VisionConfig",
    "classify",
    "read_frame",
    "read_frame_details",
    "read_view",
]
