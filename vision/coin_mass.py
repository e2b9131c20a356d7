"""A lone coin's size by how its contrast against the paper spreads, which blur cannot change.

At the ring's coarse views (a camera pixel spanning 1.4-2.3 mm) a coin's outline follows its
blurred and sampled extent, which strays up to a whole kind from its true size with the face's
drawing and the pixels' phase. A blur (any spread of the light that keeps its sum) moves a
coin's contrast outwards but keeps its sum, and adds to its second moment about the centre
only what it adds to every coin: for a disc of radius ``r`` and any face level, twice the
second moment over the sum is ``r^2``, and a Gaussian blur of ``s`` adds ``2 s^2`` to it.
Both are sums over all the coin's pixels, which the pixels' phase moves far less than the one
edge. So over a window well beyond a lone coin, measured against the paper's own level around
it and along the colour of its face, the spread diameter ``2 sqrt(2 M2 / M0)`` tells sizes
apart however soft the edge; its level divides out. The frame's blur, the coins' shadows and
sides and their faces' shading (darker towards the rim) add to it about alike for every coin
of a frame, so the spread is read against the frame's other lone coins: ``spread^2 = a size^2
+ b`` fitted to those read at ``reference_confidence`` or more (at six seats whole kinds are
read only as doubts), and only kinds found among them are compared.

A lone coin (in a ring's space) whose outline lies between two kinds of its metal (more than
``outline_toward`` of the way to the other: on its side of its own kind's) and whose spread
lies more than ``spread_past`` of the way to that same kind has two measures of its size that
disagree: a reading the frame was sure of becomes a doubt (its kind kept), and a doubt takes
the kind the spread names, the measure blur cannot move; the referee confirms either. The
face's level is measured in its middle, so a face as bright as the paper has no spread (NaN)
and keeps its reading.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray, Image
from vision.frame_fit import FrameFit

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from vision.candidates import Candidates
    from vision.rectify import TopView


@dataclass(frozen=True)
class CoinMassConfig:
    """The spread's window (``window_mm`` from the coin's centre, the paper's level from the
    ``paper_band_mm`` beyond it), the face's colour (within ``face_share`` of the outline's
    diameter from the centre), the frame's references (lone coins read at
    ``reference_confidence`` or more, at least ``least_references`` of them) and the rule (an
    outline more than ``outline_toward`` and a spread more than ``spread_past`` of the way to
    another kind of its metal: at most ``doubtful`` sure, and that kind if no surer)."""

    window_mm: float = 16.0
    paper_band_mm: float = 3.0
    face_share: float = 0.25
    reference_confidence: float = 0.4
    least_references: int = 3
    outline_toward: float = 0.0
    spread_past: float = 0.6
    doubtful: float = 0.45


def paper_window(config: CoinMassConfig, image: Image, centre_px: tuple[float, float],
                 pixels_per_mm: float) -> tuple[FloatArray, FloatArray, FloatArray] | None:
    """The square of ``image`` reaching ``window_mm + paper_band_mm`` about ``centre_px``
    (column, row) as (H, W, channels) floats, each pixel's squared distance (mm) from the
    centre, and the paper's level (the median of the band past ``window_mm``); None where the
    square leaves the image."""
    column, row = centre_px
    reach = (config.window_mm + config.paper_band_mm) * pixels_per_mm
    height, width = image.shape[:2]
    left, top = int(np.floor(column - reach)), int(np.floor(row - reach))
    right, bottom = int(np.ceil(column + reach)) + 1, int(np.ceil(row + reach)) + 1
    if left < 0 or top < 0 or right > width or bottom > height:
        return None
    patch = np.asarray(image[top:bottom, left:right], np.float64).reshape(bottom - top,
                                                                          right - left, -1)
    rows, columns = np.mgrid[top:bottom, left:right]
    radius_squared = ((columns - column) ** 2 + (rows - row) ** 2) / pixels_per_mm ** 2
    band = (radius_squared >= config.window_mm ** 2) & (
        radius_squared < (config.window_mm + config.paper_band_mm) ** 2)
    return patch, radius_squared, np.median(patch[band], axis=0)


def spread_diameter(config: CoinMassConfig, image: Image, centre_px: tuple[float, float],
                    diameter_mm: float, pixels_per_mm: float) -> float:
    """The diameter (mm) of the disc whose contrast spreads as the coin's does about
    ``centre_px`` (column, row) in ``image`` (NaN where the window leaves the image or the
    coin does not stand out of the paper)."""
    found = paper_window(config, image, centre_px, pixels_per_mm)
    if found is None:
        return float("nan")
    patch, radius_squared, paper = found
    contrast = patch - paper
    face = contrast[radius_squared < (config.face_share * diameter_mm) ** 2].mean(axis=0)
    if not np.isfinite(face).all() or float(face @ face) <= 0:
        return float("nan")
    inside = radius_squared < config.window_mm ** 2
    along = contrast[inside] @ face / float(face @ face)
    mass, moment = float(along.sum()), float((along * radius_squared[inside]).sum())
    if mass <= 0 or moment <= 0:
        return float("nan")
    return 2.0 * float(np.sqrt(2.0 * moment / mass))

def spread_diameters(config: CoinMassConfig, view: TopView, image: Image,
                     centres_mm: FloatArray, diameters_mm: FloatArray,
                     alone: NDArray[np.bool_]) -> FloatArray:
    """Per coin: its spread diameter (:func:`spread_diameter`) in ``image`` (the top view
    ``view``'s pixels), for the coins ``alone`` only (NaN elsewhere)."""
    spreads = np.full(len(diameters_mm), np.nan)
    for position in np.flatnonzero(alone):
        centre = view.to_pixels(float(centres_mm[position][0]), float(centres_mm[position][1]))
        spreads[position] = spread_diameter(config, image, centre, float(diameters_mm[position]),
                                            view.pixels_per_mm)
    return spreads


@dataclass(frozen=True)
class SpreadScale:
    """``spread^2 = slope size^2 + intercept`` as the frame's references fit it, and the
    kinds among them (the only kinds it may compare)."""

    slope: float
    intercept: float
    kinds: frozenset[str]

    def squared(self, size_mm: float) -> float:
        """The squared spread a coin of ``size_mm`` would show in this frame."""
        return self.slope * size_mm ** 2 + self.intercept


def frame_spread_scale(config: CoinMassConfig, kinds: list[str], sizes: dict[str, float],
                       spreads: FloatArray, confidence: FloatArray,
                       leave_out: int | None = None) -> SpreadScale | None:
    """The scale fitted to the frame's lone coins read surely, but for ``leave_out`` (the
    slope taken as 1 where they are all of one kind); None with too few of them."""
    sure = [position for position, kind in enumerate(kinds)
            if kind in sizes and np.isfinite(spreads[position]) and position != leave_out
            and confidence[position] >= config.reference_confidence]
    if len(sure) < config.least_references:
        return None
    squared_sizes = np.array([sizes[kinds[position]] ** 2 for position in sure])
    squared_spreads = spreads[sure] ** 2
    present = frozenset(kinds[position] for position in sure)
    if len(present) < 2:
        return SpreadScale(1.0, float(np.median(squared_spreads - squared_sizes)), present)
    slope, intercept = np.polyfit(squared_sizes, squared_spreads, 1)
    return SpreadScale(float(slope), float(intercept), present) if slope > 0 else None


def reread_by_spread(config: CoinMassConfig, frame: FrameFit, kinds: list[str],
                     sizes: dict[str, float], metal_of: dict[str, str], diameters: FloatArray,
                     spreads: FloatArray, confidence: FloatArray) -> tuple[list[str], FloatArray]:
    """The kinds and confidences once every lone coin (a finite spread) whose outline lies
    more than ``outline_toward`` and whose spread more than ``spread_past`` of the way to
    another kind of its metal is at most ``doubtful`` sure, read as that kind where it was
    no surer. The spreads are compared by the frame's other coins
    (:func:`frame_spread_scale`), and only between kinds found among them."""
    read, sure = list(kinds), np.asarray(confidence, np.float64).copy()
    if frame.outline_mm.shape != (len(kinds), len(frame.kinds)):
        return read, sure
    for position in np.flatnonzero(np.isfinite(spreads)):
        kind = kinds[position]
        scale = frame_spread_scale(config, kinds, sizes, spreads, confidence, int(position))
        if scale is None or kind not in scale.kinds or kind not in frame.kinds:
            continue
        outline = frame.outline_mm[position]
        own_outline = outline[frame.kinds.index(kind)]
        best, best_share = None, config.spread_past
        for other in scale.kinds & set(frame.kinds):
            if other == kind or metal_of.get(other) != metal_of.get(kind):
                continue
            outline_gap = outline[frame.kinds.index(other)] - own_outline
            spread_gap = scale.squared(sizes[other]) - scale.squared(sizes[kind])
            if outline_gap == 0 or spread_gap == 0:
                continue
            toward = (diameters[position] - own_outline) / outline_gap
            share = (spreads[position] ** 2 - scale.squared(sizes[kind])) / spread_gap
            if toward > config.outline_toward and share > best_share:
                best, best_share = other, float(share)
        if best is not None:
            # A sure reading the spread disagrees with becomes a doubt; a doubt takes the kind
            # the spread names.
            read[position] = kind if sure[position] > config.doubtful else best
            sure[position] = min(float(sure[position]), config.doubtful)
    return read, sure


def reread_lone_coins(config: CoinMassConfig, view: TopView, image: Image,
                      candidates: Candidates, chosen: NDArray[np.intp], frame: FrameFit,
                      kinds: list[str], sizes: dict[str, float], metal_of: dict[str, str],
                      confidence: FloatArray, alone: NDArray[np.bool_],
                      ) -> tuple[list[str], FloatArray]:
    """:func:`reread_by_spread` for the ``chosen`` candidates, their spreads measured in
    ``image`` (the top view ``view`` with the light divided out) for those ``alone``."""
    diameters = candidates.diameters_mm[chosen]
    spreads = spread_diameters(config, view, image, candidates.centres_mm[chosen], diameters,
                               alone)
    return reread_by_spread(config, frame, kinds, sizes, metal_of, diameters, spreads,
                            confidence)
