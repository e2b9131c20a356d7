"""Which standard layout a flat die's pips make, fitted as a whole rather than spot by spot.

A still die's top face is parallel to the mat, so in the mat's top view it is a square, and its
pips are round spots at the points of a square 3x3 grid centred on the face (every layout is
symmetric about its middle), spaced a quarter of the edge or so. Blurred by the camera, each
pip is a blob, and the blobs of a 6's columns run together. :func:`fit_layout` resamples the
face's middle square to its own axes, takes each pixel's colour difference from the face's
plain colour along the pips' colour (so felt or a side face caught at the edge mostly does not
look like a pip), and models it as a constant plus one blob of a fitted height at each of the
nine grid points, fitted by least squares for every grid placement and spacing near the
outline's middle: overlapping blobs share the contrast between them, so three pips merged into
a bar still give three heights. The placement that explains most of the contrast is the grid;
the nine heights, against the tallest, say which points hold a pip, and the value is the legal
layout whose pips stand most clearly above its empty points. A flat face's pips are centred on
it and alike, so a grid off the outline's middle, or a layout whose pips of one height explain
little of the contrast (a cocked die's top with a side face beside it), is not read.
:func:`read_face_pips` is the reader's pip step: spots first (:mod:`vision.dice_pips`), a 2 or
3 confirmed by the fit, spots making no layout handed to the fit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.dice_pips import GRID, LAYOUTS, median_colour, read_pips
from vision.recent import RecentResults

if TYPE_CHECKING:
    from vision.dice import DiceConfig

#: Patch pixels per die edge: a pip (0.14-0.25 of the edge) is 3-6 patch pixels across, its
#: grid spacing about 6.
PATCH_PER_EDGE = 24
#: The patch covers the face's middle this share of its edge (pips reach 0.4 of it from the
#: middle; the outline's last pixels may be side face or felt).
PATCH_SHARE = 0.88
#: Grid spacings tried, as shares of the edge (dice's layouts are 0.22-0.32 of the edge apart).
SPACINGS = (0.22, 0.25, 0.28, 0.31)
#: The grid's middle is tried this far (share of the edge) from the outline's, each way.
OFFSETS = (-0.12, -0.08, -0.04, 0.0, 0.04, 0.08, 0.12)
#: A blob's spread (Gaussian sigma) as a share of the edge: a pip 0.19 across is a disc of
#: sigma 0.067, blurred a little more by the camera.
BLOB_SIGMA = 0.08


@dataclass(frozen=True)
class LayoutFit:
    """The fitted layout: its ``value`` (None when the pips make no layout clearly, and then
    ``why``), the ``gap`` (the least pip's height less the tallest empty point's, as a share
    of the tallest pip), the reading's ``confidence``, the ``share`` of the face's contrast
    that pips of one height at its layout's points explain, and the ``heights`` of the nine
    grid points in :data:`vision.dice_pips.GRID` order (shares of the tallest); the fitted
    grid's ``middle`` in the image's pixels (None where the pips are faint)."""

    value: int | None
    gap: float
    confidence: float
    share: float
    heights: tuple[float, ...]
    why: str = ""
    middle: tuple[float, float] | None = None


_LAYOUT_MASKS = np.array([[point in pips for point in GRID] for _, pips in LAYOUTS])
_LAYOUT_VALUES = np.array([value for value, _ in LAYOUTS])


def face_patch(image: Image, rect: tuple[tuple[float, float], tuple[float, float], float],
               smoothed: Image | None = None) -> Image:
    """The face's middle (:data:`PATCH_SHARE` of its edge) resampled square to its own axes,
    :data:`PATCH_PER_EDGE` pixels an edge (columns along the rectangle's width); ``smoothed``,
    where given, is ``image`` blurred once by :func:`patch_sigma` for many patches."""
    (cx, cy), (width, height), angle = rect
    edge = (width + height) / 2
    side = round(PATCH_SHARE * PATCH_PER_EDGE)
    step = edge / PATCH_PER_EDGE
    turn = math.radians(angle)
    u = np.array([math.cos(turn), math.sin(turn)]) * step
    v = np.array([-math.sin(turn), math.cos(turn)]) * step
    half = (side - 1) / 2
    origin = np.array([cx, cy]) - half * (u + v)
    matrix = np.array([[u[0], v[0], origin[0]], [u[1], v[1], origin[1]]])
    # Shrinking 4 px/mm to the patch's ~1.5 needs the detail smoothed away first.
    sigma = patch_sigma(edge)
    source = image if sigma is None else smoothed if smoothed is not None else \
        _blurred_under(image, matrix, side, sigma)
    return cv2.warpAffine(source, matrix, (side, side),
                          flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                          borderMode=cv2.BORDER_REPLICATE)


def patch_sigma(edge: float) -> float | None:
    """The Gaussian blur (px) a face of ``edge`` px needs before its patch is sampled, None
    where it needs none."""
    shrink = edge / PATCH_PER_EDGE
    return None if shrink < 1.6 else 0.45 * shrink


def _blurred_under(image: Image, matrix: FloatArray, side: int, sigma: float) -> Image:
    """``image`` blurred by a Gaussian of ``sigma`` where the patch ``matrix`` (patch px ->
    image px, ``side`` square) samples it, and its pixels elsewhere unset: only the face's
    middle is blurred (about half the window), and the pixels sampled are the same to the bit
    (each reads the kernel's reach, inside the part blurred or at the window's own edge)."""
    corners = np.array([[0.0, 0.0, 1.0], [side - 1.0, 0.0, 1.0], [0.0, side - 1.0, 1.0],
                        [side - 1.0, side - 1.0, 1.0]]) @ matrix.T
    # The kernel's reach (OpenCV takes 3 sigmas for 8-bit images, 4 for others) and the
    # pixel after the one a sample falls in.
    margin = math.ceil(4.0 * sigma) + 3
    height, width = image.shape[:2]
    x0 = max(0, math.floor(float(corners[:, 0].min())) - margin)
    y0 = max(0, math.floor(float(corners[:, 1].min())) - margin)
    x1 = min(width, math.ceil(float(corners[:, 0].max())) + margin + 1)
    y1 = min(height, math.ceil(float(corners[:, 1].max())) + margin + 1)
    if x0 >= x1 or y0 >= y1:
        return np.asarray(cv2.GaussianBlur(image, (0, 0), sigma))
    blurred = np.empty_like(image)
    blurred[y0:y1, x0:x1] = cv2.GaussianBlur(image[y0:y1, x0:x1], (0, 0), sigma)
    return blurred


def local_contrast(patch: Image) -> FloatArray:
    """Each patch pixel's colour difference from the face's plain colour (the patch's median:
    pips cover a fifth of a face at most) along the pips' own colour direction (the mean
    difference of the most different fifth of the face's middle disc, where only pips and no
    border lie): pips stand out one way, and felt or a side face the patch catches at its
    edge mostly does not look like them."""
    pixels = patch.reshape(-1, 3).astype(np.float32)
    # An odd count's median is its middle value, which ranking finds alone (np.median's
    # general path costs several times as much on a patch).
    plain = median_colour(pixels) if len(pixels) % 2 else np.median(pixels, axis=0)
    difference = pixels - plain
    side = patch.shape[0]
    along = np.arange(side) - (side - 1) / 2
    radius = np.hypot(along[:, None], along[None, :]).ravel()
    middle = difference[radius <= 0.42 * PATCH_PER_EDGE]
    size = (middle * middle).sum(axis=1)
    strongest = middle[size >= np.percentile(size, 85)]
    direction = strongest.mean(axis=0)
    norm = float(np.linalg.norm(direction))
    if norm < 1e-6:
        return np.zeros((side, side), np.float32)
    signed = difference @ (direction / norm)
    return signed.reshape(side, side)


def _blobs(side: int, spacings: FloatArray, offsets: FloatArray, sigma: float) -> FloatArray:
    """1-D blob profiles at the grid's three places along one axis, for every spacing and
    offset (patch px): spacings by offsets by 3 by ``side``."""
    middle = (side - 1) / 2 + offsets[None, :, None] \
        + spacings[:, None, None] * np.array([-1.0, 0.0, 1.0])[None, None, :]
    along = np.arange(side, dtype=np.float64)
    return np.exp(-((along - middle[..., None]) ** 2) / (2.0 * sigma * sigma))


@dataclass(frozen=True)
class _Placement:
    """The best grid placement's least-squares problem: ``normal`` (10 by 10: the nine blobs
    and the constant), ``right`` (their products with the contrast), the ``solution`` (nine
    heights and the constant), the contrast ``explained`` beyond a constant, and where the
    grid lies (``spacing``, ``offset`` (x, y); patch px)."""

    normal: FloatArray
    right: FloatArray
    solution: FloatArray
    explained: float
    spacing: tuple[float, float]
    offset: tuple[float, float]


@lru_cache(maxsize=4)
def _grid_model(side: int) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The blobs of every grid placement on a patch of ``side`` pixels, which no image
    changes: the 1-D profiles (spacings by offsets by 3 places, rows of ``side``), the
    least-squares normal matrices of the nine blobs and the constant (spacings by offsets
    down by offsets across, 10 by 10) and their inverses."""
    sigma = BLOB_SIGMA * PATCH_PER_EDGE
    offsets = np.array(OFFSETS) * PATCH_PER_EDGE
    spacings = np.array(SPACINGS) * PATCH_PER_EDGE
    blobs = _blobs(side, spacings, offsets, sigma)
    gram = np.einsum("sakx,salx->sakl", blobs, blobs)
    sums = blobs.sum(axis=3)
    pairs, count = len(spacings), len(offsets)
    normal = np.zeros((pairs, count, count, 10, 10))
    normal[..., :9, :9] = np.einsum("sajl,sbkm->sabjklm", gram, gram).reshape(
        pairs, count, count, 9, 9)
    normal[..., :9, 9] = np.einsum("saj,sbk->sabjk", sums, sums).reshape(
        pairs, count, count, 9)
    normal[..., 9, :9] = normal[..., :9, 9]
    normal[..., 9, 9] = float(side * side)
    normal[..., range(9), range(9)] += 1e-3
    return blobs, offsets, normal, np.linalg.inv(normal)


def _place(contrast: FloatArray) -> _Placement:
    """The grid placement (of the :data:`SPACINGS` and :data:`OFFSETS`) whose nine blobs and
    a constant explain most of ``contrast`` (a square patch)."""
    side = contrast.shape[0]
    blobs, offsets, normal, inverse = _grid_model(side)
    pairs, count = blobs.shape[:2]
    flat = blobs.reshape(-1, side)
    # responses[s, oy, j, ox, k]: the contrast under the blob at row j, column k.
    every = (flat @ contrast @ flat.T).reshape(pairs, count, 3, pairs, count, 3)
    index = np.arange(pairs)
    responses = every[index, :, :, index]
    total = float(contrast.sum())
    right = np.empty((pairs, count, count, 10))
    right[..., :9] = responses.transpose(0, 1, 3, 2, 4).reshape(pairs, count, count, 9)
    right[..., 9] = total
    solution = np.einsum("sabij,sabj->sabi", inverse, right)
    explained = (solution * right).sum(axis=-1) - total * total / contrast.size
    s, oy, ox = np.unravel_index(int(np.argmax(explained)), explained.shape)
    spacing = float(SPACINGS[s] * PATCH_PER_EDGE)
    return _Placement(normal[s, oy, ox], right[s, oy, ox], solution[s, oy, ox],
                      float(explained[s, oy, ox]), (spacing, spacing),
                      (float(offsets[ox]), float(offsets[oy])))


def _layout_share(placement: _Placement, mask: FloatArray, variance: float) -> float:
    """The share of the contrast's variance that the layout ``mask`` (nine 0/1) explains
    with pips all of one height (a face's pips are alike) at the placement's grid points."""
    normal, right = placement.normal, placement.right
    pips = float(mask @ normal[:9, :9] @ mask)
    covered = float(mask @ normal[:9, 9])
    system = np.array([[pips, covered], [covered, normal[9, 9]]])
    target = np.array([float(mask @ right[:9]), right[9]])
    height, constant = np.linalg.solve(system, target)
    if height <= 0:
        return 0.0
    explained = height * target[0] + constant * target[1] - right[9] ** 2 / normal[9, 9]
    return float(explained) / max(variance, 1e-9)


def _clearest_layout(heights: FloatArray) -> tuple[int, float]:
    """The legal layout (index into :data:`vision.dice_pips.LAYOUTS`) whose pips' least height
    stands furthest above its empty points' greatest (none counted below 0), and that gap as a
    share of the tallest height (-1 when no height is positive)."""
    strength = float(heights.max())
    if strength <= 0:
        return 0, -1.0
    shares = heights / strength
    inside = np.where(_LAYOUT_MASKS, shares[None, :], np.inf).min(axis=1)
    outside = np.maximum(np.where(_LAYOUT_MASKS, -np.inf, shares[None, :]).max(axis=1), 0.0)
    gaps = inside - outside
    layout = int(np.argmax(gaps))
    return layout, float(gaps[layout])


#: The last fits: a face whose pips fail is fitted whole about its outline's middle by the
#: first read and again by the re-read about its pips' own middle (:mod:`vision.dice_recentre`),
#: in the same window (four kept: a re-read in the face's own part comes between).
_RECENT_FITS: RecentResults[LayoutFit] = RecentResults(4)


def fit_layout(config: DiceConfig, image: Image,
               rect: tuple[tuple[float, float], tuple[float, float], float],
               least_share: float | None = None) -> LayoutFit:
    """The layout the pips of the flat face ``rect`` (centre, size, angle in ``image``'s
    pixels, as :func:`cv2.minAreaRect` gives it) make in ``image`` (BGR), fitted as the
    module's text says, and read as ``config`` (``fit_*``) asks; ``least_share``, when
    given, stands for ``config.fit_least_share``. Fitted once for an image and rectangle
    however often it is asked for."""
    return _RECENT_FITS.get(image, (rect, config, least_share),
                            lambda: _fit_layout(config, image, rect, least_share))


def _fit_layout(config: DiceConfig, image: Image,
                rect: tuple[tuple[float, float], tuple[float, float], float],
                least_share: float | None) -> LayoutFit:
    """:func:`fit_layout`, fitted."""
    contrast = local_contrast(face_patch(image, rect)).astype(np.float64)
    placement = _place(contrast)
    # The plain colour is the patch's median, which a heavily blurred 6 (its columns spread
    # over half the face) pulls towards the pips': then the face, not the pips, stands out
    # along the chosen direction. Both signs explain the contrast equally; the pips' is the
    # one whose heights make a layout more clearly.
    flipped = replace(placement, right=-placement.right, solution=-placement.solution)
    placement, layout, gap = max(
        ((candidate, *_clearest_layout(candidate.solution[:9]))
         for candidate in (placement, flipped)), key=lambda item: item[2])
    heights = placement.solution[:9]
    strength = float(heights.max())
    if strength < config.least_contrast:
        return LayoutFit(None, 0.0, 0.0, 0.0, tuple(0.0 for _ in GRID), "pips faint")
    shares = heights / strength
    variance = float((contrast * contrast).sum()) - float(contrast.sum()) ** 2 / contrast.size
    share = _layout_share(placement, _LAYOUT_MASKS[layout].astype(np.float64), variance)
    rounded = tuple(round(float(height), 3) for height in shares)
    middle = _grid_middle(rect, placement.offset)
    why = ""
    if gap < config.fit_gap:
        why = "no layout stands out"
    elif max(abs(offset) for offset in placement.offset) > \
            config.fit_most_offset * PATCH_PER_EDGE:
        # A flat face's pips are centred on it; a cocked die's lie off its outline's middle.
        why = "off the face's middle"
    elif share < (config.fit_least_share if least_share is None else least_share):
        why = "unlike a face's pips"
    if why:
        return LayoutFit(None, gap, 0.0, share, rounded, why, middle)
    span = config.fit_sure_gap - config.fit_gap
    confidence = 0.5 + 0.5 * float(np.clip((gap - config.fit_gap) / span, 0.0, 1.0))
    return LayoutFit(int(_LAYOUT_VALUES[layout]), gap, confidence, share, rounded, "", middle)


def _grid_middle(rect: tuple[tuple[float, float], tuple[float, float], float],
                 offset: tuple[float, float]) -> tuple[float, float]:
    """The middle of a grid placed ``offset`` (patch pixels along the patch's columns and
    rows) from the middle of :func:`face_patch`'s patch of ``rect``, in the image's pixels."""
    (cx, cy), (width, height), angle = rect
    step = (width + height) / 2 / PATCH_PER_EDGE
    turn = math.radians(angle)
    across, down = offset[0] * step, offset[1] * step
    return (cx + across * math.cos(turn) - down * math.sin(turn),
            cy + across * math.sin(turn) + down * math.cos(turn))


def read_face_pips(config: DiceConfig, image: Image, body: FloatArray,
                   rect: tuple[tuple[float, float], tuple[float, float], float],
                   least_value: int = 1) -> tuple[int | None, float, str]:
    """(value or None, confidence, why None) of the flat face ``rect`` in ``image``: its
    pips found spot by spot (:func:`vision.dice_pips.read_pips`), a 2 or 3 confirmed by the whole
    face's fit and a face whose spots make no layout read by that fit alone. A value under
    ``least_value`` is None at once (not fitted to be confirmed)."""
    return read_face_pips_placed(config, image, body, rect, least_value)[:3]


def read_face_pips_placed(config: DiceConfig, image: Image, body: FloatArray,
                          rect: tuple[tuple[float, float], tuple[float, float], float],
                          least_value: int = 1
                          ) -> tuple[int | None, float, str, tuple[float, float] | None]:
    """:func:`read_face_pips`, with the read pips' middle in ``image``'s pixels where they
    were found spot by spot (None where the value is the whole face's fit's, or None)."""
    value, confidence, why, pips_middle = read_pips(config, image, body, rect)
    middle = None if pips_middle is None else (pips_middle[0], pips_middle[1])
    if value is not None and value < least_value:
        return None, 0.0, f"pips: {value} under {least_value}", None
    size, angle = rect[1], rect[2]
    if value in config.confirmed_values and pips_middle is not None:
        # Two or three pips on a diagonal say nothing of the grid's squareness, and a cocked
        # die's top with a side face's pip beside it makes one: the face as a whole, taken
        # about the pips' middle (the outline's may be off by part of a neighbour), must
        # show that layout with nothing else standing out.
        fit = fit_layout(config, image, (pips_middle[:2], size, angle))
        if fit.value != value:
            # The outline's turn may be some degrees off the face's (a side face's strip
            # left in it); the pips' own diagonal fixes the grid's turn exactly. Pips placed
            # by themselves must explain more of the face (a cocked die's side-face pip,
            # foreshortened and shaded otherwise, explains less than a real face's).
            turned = fit_layout(config, image, (pips_middle[:2], size, pips_middle[2]),
                                config.fit_turned_least_share)
            fit = turned if turned.value == value else fit
        if fit.value != value:
            seen = fit.why or f"fitted as {fit.value}"
            return None, min(confidence, config.uneven_confidence), \
                f"pips: not confirmed ({seen})", None
        return value, confidence, why, middle
    if value is not None or not why.startswith("pips:") or why == "pips: faint":
        return value, confidence, why, middle if value is not None else None
    # The pips found spot by spot make no layout clearly (a 6's columns blurred into bars,
    # a pip under a glint): the layout fitted as a whole may still be clear.
    fit = fit_layout(config, image, rect)
    if fit.value is None:
        return None, confidence, f"{why}; fitted: {fit.why}", None
    if fit.value < least_value:
        return None, confidence, f"{why}; fitted: {fit.value} under {least_value}", None
    return fit.value, fit.confidence, "", None
