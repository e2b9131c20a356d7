"""What a coin's face shows: its colour against the paper, and how bright it is.

The face is sampled on rings inside the top face's outline (away from the rim, where the paper
and the edge's own reflections blur in), leaving out pixels a pawn covers and pixels the camera
clipped (a glint says nothing of the metal's colour; of a face a glint washed out, only the
border where red alone is clipped is left, :func:`_glint_blue_green`). The colour is the
per-channel median of what is left, as ``(ln(red/green), ln(blue/green))`` in the
light-normalised view, where white paper is neutral: copper and brass are far from it towards
red and yellow, silver near it, but every metal also takes the colour of what it mirrors
(:mod:`vision.frame_model` therefore compares coins of one frame with each other, not with
fixed colours).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.light import CLIPPED, PAPER

#: Rings the face is sampled on, as fractions of the top face's radius.
FACE_RINGS = np.array([0.2, 0.35, 0.5, 0.62, 0.74, 0.86])
#: Samples round each ring.
FACE_ANGLES = 32
#: The least share of a face's samples that must be usable for its colour to count.
LEAST_USABLE = 0.15
#: The most the light-normalised view holds (8 bits, paper at :data:`~vision.light.PAPER`).
NORMALISED_TOP = 255

_ANGLES = np.linspace(0, 2 * math.pi, FACE_ANGLES, endpoint=False)
_UNIT_X = (np.cos(_ANGLES)[:, None] * FACE_RINGS[None, :]).ravel()
_UNIT_Y = (np.sin(_ANGLES)[:, None] * FACE_RINGS[None, :]).ravel()


def nan_median(values: FloatArray, axis: int) -> FloatArray:
    """The median along ``axis`` ignoring NaN; NaN where a row holds nothing else (quietly:
    a coin a pawn hides has no face to measure, which is no error). The same values as
    ``np.nanmedian``, by one sort (NaN sorts last) instead of its masked-array path, which
    costs several times more on the short rows measured here."""
    # Rows contiguous: sorting along strided rows costs several times more.
    rows = np.ascontiguousarray(np.moveaxis(np.asarray(values), axis, -1))
    if rows.shape[-1] == 0:
        return np.full(rows.shape[:-1], np.nan, rows.dtype)
    ordered = np.sort(rows, axis=-1)
    counts = rows.shape[-1] - np.count_nonzero(np.isnan(ordered), axis=-1)
    high = counts // 2
    low = np.maximum(np.where(counts % 2 == 1, high, high - 1), 0)
    low_value = np.take_along_axis(ordered, low[..., None], axis=-1)[..., 0]
    high_value = np.take_along_axis(ordered, high[..., None], axis=-1)[..., 0]
    middle = np.true_divide(low_value + high_value, 2.0, dtype=rows.dtype)
    return np.where(counts > 0, middle, np.nan).astype(rows.dtype, copy=False)


def plain_median(values: FloatArray, axis: int) -> FloatArray:
    """``np.median`` along ``axis`` of floats that hold no NaN: the same values, by one sort of
    contiguous rows and the mean of the middle two, without ``np.median``'s partition and
    checks, which cost several times more on the short rows of rays measured here."""
    rows = np.ascontiguousarray(np.moveaxis(np.asarray(values), axis, -1))
    if rows.dtype.kind != "f" or rows.shape[-1] == 0:
        return np.asarray(np.median(values, axis=axis))
    ordered = np.sort(rows, axis=-1)
    half = rows.shape[-1] // 2
    if rows.shape[-1] % 2:
        return np.array(ordered[..., half])
    return np.asarray((ordered[..., half - 1] + ordered[..., half]) / 2)


def face_maps(centres: FloatArray, radii: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Where each face is sampled: ``cv2.remap`` maps with one row per coin."""
    map_x = (centres[:, 0, None] + radii[:, None] * _UNIT_X[None]).astype(np.float32)
    map_y = (centres[:, 1, None] + radii[:, None] * _UNIT_Y[None]).astype(np.float32)
    return map_x, map_y


@dataclass(frozen=True, eq=False)
class Faces:
    """What every coin's face shows: colour (K, 2; NaN where too little is usable),
    brightness (K,; median of the channels' mean, 1 = paper), the share of its samples a pawn
    covers (K,) and the share the camera clipped (K,: a glint, which also blooms the coin's
    outline outwards)."""

    colours: FloatArray
    brightness: FloatArray
    on_pawn: FloatArray
    clipped: FloatArray


def face_colours(
    image: Image, clipped: Image, pawns: Image, centres: FloatArray, radii: FloatArray,
    raw: Image | None = None,
) -> Faces:
    """What the faces at ``centres`` with ``radii`` (top-view px) show (see :class:`Faces`),
    in the normalised ``image``, with the channels the camera clipped (``clipped``, a
    3-channel mask from :func:`clipped_mask`) and the ``pawns`` marked.

    Each ratio comes from the pixels where both its channels are unclipped: a glinting penny
    clips red first, and its blue against green still tells copper from silver. A face left
    with no colour at all is measured again in the camera's own top view ``raw``, where
    given (:func:`_raw_colours`).
    """
    count = len(centres)
    if count == 0:
        return Faces(np.zeros((0, 2)), np.zeros(0), np.zeros(0), np.zeros(0))
    map_x, map_y = face_maps(centres, radii)
    pixels = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    on_pawn = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    on_clip = cv2.remap(clipped, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0  # (K, S, 3)
    values = np.maximum(pixels.astype(np.float32), 1.0)
    seen = ~on_pawn & (values.max(axis=2) > 8)
    # A face brighter than the normalised view holds (about 1.3 times the paper) is cut off
    # there as the camera cuts a glint off: its channels' ratio says nothing of the metal.
    cut = on_clip | (pixels >= NORMALISED_TOP)
    blue, green, red = (values[..., channel] for channel in range(3))
    ratios = []
    for top, channel in ((red, 2), (blue, 0)):
        usable = seen & ~cut[..., channel] & ~cut[..., 1]
        ratio = np.where(usable, np.log(top / green), np.nan)
        with np.errstate(all="ignore"):
            middle = nan_median(ratio, axis=1)
        ratios.append(np.where(usable.mean(axis=1) >= LEAST_USABLE, middle, np.nan))
    colour = np.column_stack(ratios)
    washed = np.flatnonzero(np.isnan(colour).all(axis=1))
    if len(washed):
        colour[washed, 1] = _glint_blue_green(image, clipped, pawns, centres[washed],
                                              radii[washed])
    washed = np.flatnonzero(np.isnan(colour).all(axis=1))
    if raw is not None and len(washed):
        colour[washed] = _raw_colours(raw, clipped, pawns, centres[washed], radii[washed])
    unclipped = seen & ~on_clip.any(axis=2)
    with np.errstate(all="ignore"):
        level = nan_median(np.where(unclipped, values.mean(axis=2), np.nan), axis=1)
    brightness = np.where(unclipped.mean(axis=1) >= LEAST_USABLE, level / PAPER, np.nan)
    glint = on_clip.any(axis=2) & ~on_pawn
    clipped_share = glint.sum(axis=1) / np.maximum((~on_pawn).sum(axis=1), 1)
    return Faces(colour, brightness, on_pawn.mean(axis=1), clipped_share)


#: Rings a washed-out face's glint border is sampled on (fractions of the face's radius), and
#: the least share of those samples that must show red clipped alone.
GLINT_RINGS = np.linspace(0.2, 0.98, 12)
LEAST_GLINT_BORDER = 0.1


def _glint_blue_green(image: Image, clipped: Image, pawns: Image, centres: FloatArray,
                      radii: FloatArray) -> FloatArray:
    """(K,) ``ln(blue/green)`` of faces a glint washed out (NaN where too little shows it):
    the median over the pixels where the camera clipped red alone. Copper reflects red far
    more than green at every angle, so round a copper glint lies a border where red is
    clipped and green and blue are not; its blue against green is the metal's (silver's
    border, where it has one, is the light's own colour)."""
    map_x, map_y = _ring_maps(centres, radii, GLINT_RINGS, FACE_ANGLES)
    pixels = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    on_pawn = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    on_clip = cv2.remap(clipped, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    cut = on_clip | (pixels >= NORMALISED_TOP)
    border = ~on_pawn & cut[..., 2] & ~cut[..., 1] & ~cut[..., 0]
    values = np.maximum(pixels.astype(np.float32), 1.0)
    ratio = np.where(border, np.log(values[..., 0] / values[..., 1]), np.nan)
    with np.errstate(all="ignore"):
        middle = nan_median(ratio, axis=1)
    return np.where(border.mean(axis=1) >= LEAST_GLINT_BORDER, middle, np.nan)


#: The least share of a washed face's samples the camera left unclipped in both channels of a
#: ratio for :func:`_raw_colours` to count it: they lie at the glint's border, where the blur
#: mixes the glint in, so more are needed than of a plain face (:data:`LEAST_USABLE`; the
#: cold tuning set read 299 squares wrong, 23 surely, with 0.15, and 304, 22 with 0.2).
LEAST_RAW_USABLE = 0.2


def _raw_colours(raw: Image, clipped: Image, pawns: Image, centres: FloatArray,
                 radii: FloatArray) -> FloatArray:
    """(K, 2) the colours of faces the normalised view washed out, measured in the camera's
    top view ``raw`` (NaN where too little is usable). A face mirroring a bright window
    passes the normalised view's top (about 1.3 times the paper) over most of it though the
    camera clipped only part of it: there each ratio of two channels the camera left
    unclipped, against the same ratio of the paper beyond the coin (which the normalised
    view makes neutral), is the metal's tint as the normalised view would show it."""
    map_x, map_y = _ring_maps(centres, radii, GLINT_RINGS, FACE_ANGLES)
    pixels = cv2.remap(raw, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    on_pawn = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    on_clip = cv2.remap(clipped, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    values = np.maximum(pixels.astype(np.float32), 1.0)
    ratios = []
    for channel in (2, 0):
        usable = ~on_pawn & ~on_clip[..., channel] & ~on_clip[..., 1]
        ratio = np.where(usable, np.log(values[..., channel] / values[..., 1]), np.nan)
        with np.errstate(all="ignore"):
            middle = nan_median(ratio, axis=1)
        ratios.append(np.where(usable.mean(axis=1) >= LEAST_RAW_USABLE, middle, np.nan))
    paper = _log_ratios(_ring_medians(raw, centres, radii, PAPER_RING, pawns))
    return np.column_stack(ratios) - paper


def pawn_share(pawns: Image, centres: FloatArray, radii: FloatArray) -> FloatArray:
    """(K,) the share of each face's samples (``centres``, ``radii`` in top-view px) that
    the ``pawns`` mask covers."""
    if len(centres) == 0:
        return np.zeros(0)
    map_x, map_y = face_maps(centres, radii)
    covered = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    return np.asarray(covered.mean(axis=1))


def clipped_mask(view: Image) -> Image:
    """Per channel of the (un-normalised) top view: where the camera clipped it (255)."""
    _, clipped = cv2.threshold(view, CLIPPED - 1, 255, cv2.THRESH_BINARY)
    return clipped


#: The ring a coin's edge and its glint's bloom show in, and the paper's ring beyond, as
#: fractions of the outline's radius.
EDGE_RING = (0.88, 1.12)
PAPER_RING = (1.35, 1.5)


def _ring_maps(centres: FloatArray, radii: FloatArray, fractions: FloatArray, angles: int
               ) -> tuple[FloatArray, FloatArray]:
    """``cv2.remap`` maps (one row per coin) of ``angles`` samples round each circle at
    ``fractions`` of each coin's radius."""
    turns = np.linspace(0, 2 * math.pi, angles, endpoint=False)
    unit_x = (np.cos(turns)[:, None] * fractions[None, :]).ravel()
    unit_y = (np.sin(turns)[:, None] * fractions[None, :]).ravel()
    map_x = (centres[:, 0, None] + radii[:, None] * unit_x[None]).astype(np.float32)
    map_y = (centres[:, 1, None] + radii[:, None] * unit_y[None]).astype(np.float32)
    return map_x, map_y


def _ring_medians(image: Image, centres: FloatArray, radii: FloatArray,
                  ring: tuple[float, float], pawns: Image | None = None) -> FloatArray:
    """Per coin, the per-channel median (K, 3) of ``image`` on four circles between the
    ``ring``'s fractions of each radius, leaving out what the ``pawns`` mask covers (NaN
    where it covers all)."""
    map_x, map_y = _ring_maps(centres, radii, np.linspace(ring[0], ring[1], 4),
                              FACE_ANGLES * 2)
    pixels = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    values = pixels.astype(np.float32)
    if pawns is None:
        return plain_median(values, axis=1) + 1.0
    covered = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST,
                        borderMode=cv2.BORDER_REPLICATE) > 0
    if not covered.any():
        return plain_median(values, axis=1) + 1.0
    return nan_median(np.where(covered[..., None], np.nan, values), axis=1) + 1.0


def edge_colours(image: Image, centres: FloatArray, radii: FloatArray,
                 pawns: Image | None = None) -> FloatArray:
    """Per coin (K, 2): the colour of its edge and of the bloom just outside it against the
    paper beyond, as ``(ln(red/green), ln(blue/green))`` differences. A glint clips a coin's
    face white, but its bloom and rounded edge keep a little of the metal's tint (copper's
    red), where the face shows none. What a pawn covers (``pawns``, grown by its colour's
    bleed) is left out: a red pawn leaning over a silver coin's rim is no copper."""
    if len(centres) == 0:
        return np.zeros((0, 2))
    edge = _ring_medians(image, centres, radii, EDGE_RING, pawns)
    paper = _ring_medians(image, centres, radii, PAPER_RING, pawns)
    return _log_ratios(edge) - _log_ratios(paper)


def _log_ratios(values: FloatArray) -> FloatArray:
    """``(ln(red/green), ln(blue/green))`` of BGR values (K, 3)."""
    return np.column_stack([np.log(values[:, 2] / values[:, 1]),
                            np.log(values[:, 0] / values[:, 1])])
