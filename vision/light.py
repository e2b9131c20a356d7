"""Light divided out against the printed mat, and the foreground of coins and pawns.

The top view is compared with the mat's own rendering, and the paper's local brightness and
tint (a median over a window larger than any coin) becomes white, so warm, cold and uneven
light and soft shadows larger than a coin vanish; a coin's colour is then its metal's
reflectance. Foreground is what is darker than paper, coloured, or textured beyond the frame's
own noise; where glare clipped the camera, the broken edge rings of coins are filled in.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from calibration.geometry import MatGeometry
from vision.profile import VisionProfile
from vision.read_config import ReadConfig
from vision.rectify import RectifyConfig, TopView, view_bounds

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray

#: The value paper takes in the normalised top view (leaves headroom for glare above white).
PAPER = 200.0


@dataclass(frozen=True, eq=False)
class Normalised:
    """The top view with the paper's light divided out: paper is :data:`PAPER` in every channel.

    ``image`` is BGR uint8; ``darkest`` its per-pixel darkest channel; ``foreground`` the mask
    of coins and pawns with holes filled; ``depth`` the distance (px) to the nearest paper;
    ``grey`` the image in grey (made for the texture; there for any later stage that needs it,
    so that it is converted once), None where a caller built the view without it.
    """

    image: Image
    darkest: Image
    foreground: Image
    depth: FloatArray
    grey: Image | None = None

    def grey_image(self) -> Image:
        """``grey``, or the image converted to grey when the view was built without it."""
        if self.grey is not None:
            return self.grey
        return cv2.cvtColor(self.image, cv2.COLOR_BGR2GRAY)


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
    # Never divide by black. Linear interpolation never goes below its darkest sample, so
    # clamping the full-size light (costly) is needed only when the small one reaches 0.
    darkest_light = int(light.min())
    light = cv2.resize(light, (ratio.shape[1], ratio.shape[0]), interpolation=cv2.INTER_LINEAR)
    if darkest_light < 1:
        np.maximum(light, 1, out=light)
    image = cv2.divide(ratio, light, scale=PAPER)
    blue, green, red = cv2.split(image)
    darkest = cv2.min(cv2.min(blue, green), red)
    brightest = cv2.max(cv2.max(blue, green), red)
    level = PAPER * (1.0 - profile.foreground_darkness)
    _, mask = cv2.threshold(darkest, level, 255, cv2.THRESH_BINARY_INV)
    colourful = cv2.subtract(brightest, darkest)
    _, coloured = cv2.threshold(colourful, config.colour_step * PAPER, 255, cv2.THRESH_BINARY)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    texture = _texture(config, grey, view.pixels_per_mm)
    textured = cv2.bitwise_and(texture, cv2.bitwise_not(reference.ink))
    mask = cv2.bitwise_or(cv2.bitwise_or(mask, coloured), textured)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, kernel, iterations=2)
    mask = _fill_clipped_outlines(config, view, mask, profile)
    mask = _fill_holes(mask)
    depth = cv2.distanceTransform(mask, cv2.DIST_L2, 3)
    return Normalised(image, darkest, mask, depth, grey)


def _texture(config: ReadConfig, grey: Image, pixels_per_mm: float) -> Image:
    """Where the normalised image (``grey``) is not smooth: local mean gradient above a
    threshold (255).

    The threshold is ``texture_step`` of paper, or ``texture_noise`` times the frame's median
    local gradient when that is higher: most of the view is bare paper, so the median is what
    sensor noise and compression alone make of it, which in a dim, noisy frame (more so on a
    dark printed square, where dividing out the light amplifies noise) is as high as a coin's
    relief; texture must stand out from that, or the whole square turns to foreground.
    """
    along_x, along_y = cv2.spatialGradient(grey)  # both 3x3 Sobel derivatives in one pass
    magnitude = cv2.addWeighted(cv2.convertScaleAbs(along_x), 0.5,
                                cv2.convertScaleAbs(along_y), 0.5, 0)
    sigma = config.texture_mm * pixels_per_mm
    size = 2 * math.ceil(2 * sigma) + 1  # two sigmas each way (OpenCV's three cost twice as much)
    smooth = cv2.GaussianBlur(magnitude, (size, size), sigma)
    noise = _median(smooth[::2, ::2])  # a quarter of the pixels is plenty for the noise
    step = max(config.texture_step * PAPER, config.texture_noise * noise)
    _, textured = cv2.threshold(smooth, step, 255, cv2.THRESH_BINARY)
    return textured


def _median(image: Image) -> float:
    """The median of a uint8 image, from its histogram (far faster than sorting)."""
    counts = cv2.calcHist([image], [0], None, [256], [0, 256]).ravel()
    return float(np.searchsorted(np.cumsum(counts), image.size / 2))


def _fill_clipped_outlines(
    config: ReadConfig, view: TopView, mask: Image, profile: VisionProfile
) -> Image:
    """``mask`` with the outlines of coins in clipped glare filled in (their convex hulls).

    Where glare drives the camera to its brightest value, a silver coin's face is as white as
    the paper: brightness says nothing there, and all that shows of the coin is the dark ring of
    its edge, often broken where the glare is strongest, so hole filling cannot close it. Blobs
    are joined across gaps up to ``clip_reach_mm``; a group that lies in or beside clipped
    pixels, and whose hull is round and coin-sized, is taken to be such a ring and filled.
    Clipped paper is flat, so little else there makes blobs.
    """
    reach = 2 * round(config.clip_reach_mm * view.pixels_per_mm) + 1
    found = _glare_area(config, view.image, 2 * reach + 1)
    if found is None:
        return mask
    left, top, width, height = found
    inside = mask[top : top + height, left : left + width]
    # Pieces of one broken ring become one group; grouped at half resolution, as only the
    # groups' boxes are needed (the outer outlines' boxes, which are the groups' own).
    half = cv2.resize(inside, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    join = reach + 1
    grouped = cv2.dilate(half, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (join, join)))
    outlines, hierarchy = cv2.findContours(grouped, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    largest = max(look.diameter_mm for look in profile.coins) * view.pixels_per_mm * 1.15
    smallest = min(look.diameter_mm for look in profile.coins) * view.pixels_per_mm * 0.75
    filled = mask.copy()
    target = filled[top : top + height, left : left + width]
    crop = view.image[top : top + height, left : left + width]
    for outline, links in zip(outlines, hierarchy[0] if hierarchy is not None else [],
                              strict=True):
        if links[3] >= 0:
            continue  # the outline of a hole in a group, not of a group
        x, y, group_width, group_height = (2 * value for value in cv2.boundingRect(outline))
        across = max(group_width, group_height) - 2 * join + 2  # the pieces' own extent
        if not smallest <= across <= largest:
            continue
        box = (slice(y, y + group_height), slice(x, x + group_width))
        piece = inside[box]
        pixels = cv2.countNonZero(piece)
        if pixels < 8 or pixels >= 0.6 * across**2:
            continue  # a speck, or already a solid blob: nothing to fill
        near = _near_clipped(config, crop, (x, y, group_width, group_height), reach)
        if cv2.countNonZero(cv2.bitwise_and(piece, near)) < 0.5 * pixels:
            continue
        points = cv2.findNonZero(piece)
        hull = cv2.convexHull(points + np.array([x, y], np.int32))
        if _coin_like(hull, pixels, smallest, largest):
            cv2.fillConvexPoly(target, hull, 255)
    return filled


def _near_clipped(
    config: ReadConfig, image: Image, box: tuple[int, int, int, int], reach: int
) -> Image:
    """Within ``box`` (left, top, width, height) of ``image``: the pixels (255) within the
    ``reach`` x ``reach`` ellipse of a clipped pixel (a channel at ``clip_level`` or more).
    Clipped pixels are looked for only that far around the box, as few groups get this far."""
    x, y, width, height = box
    image_height, image_width = image.shape[:2]
    radius = reach // 2
    x0, y0 = max(0, x - radius), max(0, y - radius)
    x1, y1 = min(image_width, x + width + radius), min(image_height, y + height + radius)
    around = image[y0:y1, x0:x1]
    clipped = cv2.bitwise_not(cv2.inRange(around, (0, 0, 0), (config.clip_level - 1,) * 3))
    near = cv2.dilate(clipped, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    return near[y - y0 : y - y0 + height, x - x0 : x - x0 + width]


def _glare_area(config: ReadConfig, image: Image, pad: int) -> tuple[int, int, int, int] | None:
    """The box (left, top, width, height; even sides) around glare clipped over 2 x 2 cells of
    ``clip_cell_px`` or more (one pixel sampled a cell), padded by ``pad``; None without such
    glare. Specks (a coin's or a pawn's highlight) are ignored: they hide no coin's face."""
    cell = config.clip_cell_px
    height, width = image.shape[:2]
    samples = image[cell // 2 :: cell, cell // 2 :: cell]  # one pixel a cell
    below = cv2.inRange(samples, (0, 0, 0), (config.clip_level - 1,) * 3)
    glare = cv2.erode(cv2.bitwise_not(below), np.ones((2, 2), np.uint8))  # 2 x 2 cells at least
    if cv2.countNonZero(glare) == 0:
        return None
    left, top, cells_wide, cells_high = cv2.boundingRect(glare)
    x0, y0 = max(0, left * cell - pad), max(0, top * cell - pad)
    x1 = min(width, (left + cells_wide) * cell + pad)
    y1 = min(height, (top + cells_high) * cell + pad)
    x1, y1 = x0 + (x1 - x0) // 2 * 2, y0 + (y1 - y0) // 2 * 2  # even, for halving
    return x0, y0, x1 - x0, y1 - y0


def _coin_like(hull: Image, pixels: int, smallest: float, largest: float) -> bool:
    """Whether a group of pieces is a coin's broken ring: its hull round (at least 0.6 of its
    enclosing circle), that circle between ``smallest`` and ``largest`` across (px), and the
    pieces long enough to go half around it (specks of ink or noise do not)."""
    _, radius = cv2.minEnclosingCircle(hull)
    if not smallest <= 2 * radius <= largest:
        return False
    return bool(cv2.contourArea(hull) >= 0.6 * math.pi * radius**2 and pixels >= math.pi * radius)


def _fill_holes(mask: Image) -> Image:
    """``mask`` with every background region not connected to the border filled (glare spots).

    The holes are found at half resolution, where a 2 x 2 block is foreground only when all
    of it is: a hole there is background that no border-connected background reaches, so its
    pixels are holes at full resolution too, and every hole is found but one walled off by a
    line a pixel thin. The flood fill, which runs over all the paper, costs a quarter as much.
    """
    height, width = mask.shape
    even = cv2.copyMakeBorder(mask, 0, height % 2, 0, width % 2, cv2.BORDER_CONSTANT, value=0)
    half = cv2.resize(even, (even.shape[1] // 2, even.shape[0] // 2),
                      interpolation=cv2.INTER_AREA)
    _, solid = cv2.threshold(half, 254, 255, cv2.THRESH_BINARY)
    flood = cv2.copyMakeBorder(solid, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    flood_mask = np.zeros((flood.shape[0] + 2, flood.shape[1] + 2), np.uint8)
    cv2.floodFill(flood, flood_mask, (0, 0), 255)
    holes = cv2.bitwise_not(flood)[1:-1, 1:-1]
    holes = cv2.resize(holes, (even.shape[1], even.shape[0]), interpolation=cv2.INTER_NEAREST)
    return cv2.bitwise_or(mask, holes[:height, :width])


def chromaticity(blue: FloatArray, green: FloatArray, red: FloatArray) -> FloatArray:
    """``(ln(red/green), ln(blue/green))`` per pixel, as an N x 2 array."""
    green = np.maximum(green, 1.0)
    return np.column_stack(
        [np.log(np.maximum(red, 1.0) / green), np.log(np.maximum(blue, 1.0) / green)]
    )
