"""A 6 whose pips blur into two bars, read at the bars' own turn (step 4 of
:mod:`vision.dice`).

A 6's pips stand in two columns of three, a grid spacing apart along each column and two
across. Blurred by the camera (a faint die, a far one), each column's three pips run together
into one dark bar, as long as two spacings and a pip, and the spots found one by one make no
layout. The whole face's fit (:func:`vision.dice_layout.fit_layout`) still models merged pips,
but its grid is placed at the outline's turn, and an outline that took in a strip of side face
or shadow is turned some degrees against the pips: then the bars run across the grid's points
and no layout stands out. The bars themselves say how the top is turned: their sides make
most of the contrast's gradients, across them, so :func:`bars_turn` takes the turn of the
contrast's grain, where two parallel bars of a 6's length and spacing must match the face's
contrast closely (not a 4's or 5's pips), and :func:`read_bars` reads the face by the whole face's
fit at that turn, which must find a 6 by every test a face at its outline's turn passes (its
pips alike, standing clear of the empty points, centred). Only a 6 is read so: a 4's or 5's
grid turned against its outline (tuning 708) lines up at the same turn, but a cocked die's
top read so as a 4 (tc cocked 680), its columns no bars. Nothing here says the top is flat:
:mod:`vision.dice` keeps such a reading only where the die's body shows it flat about the
bars' middle, as for a face read about its pips' own middle (:mod:`vision.dice_recentre`).
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.dice_layout import (
    BLOB_SIGMA,
    OFFSETS,
    PATCH_PER_EDGE,
    SPACINGS,
    face_patch,
    fit_layout,
    local_contrast,
    patch_sigma,
)
from vision.dice_recentre import read_about_pips

if TYPE_CHECKING:
    from vision.dice import DiceConfig

Rect = tuple[tuple[float, float], tuple[float, float], float]

#: Turns tried either side of the contrast's grain, degrees.
FINE_TURN = 3.0
#: A pip's radius as a share of the edge (pips are 0.14-0.25 of the edge across).
PIP_RADIUS = 0.09

#: How well two bars must match the face's contrast (correlation) to be read as a 6's: a
#: 6's blurred columns match 0.84-0.92 at their turn; a 4's corners or a 5's (two bars
#: broken in the middle) 0.37-0.6.
BARS_LEAST_FIT = 0.7

_erf = np.vectorize(math.erf)


@lru_cache(maxsize=4)
def _bar_templates(side: int) -> FloatArray:
    """Two parallel bars (columns) of a 6 for every grid spacing and placement of
    :mod:`vision.dice_layout` on a patch of ``side`` pixels, each less its mean and scaled to
    unit length: spacings x offsets down x offsets across, then ``side`` x ``side``."""
    sigma = BLOB_SIGMA * PATCH_PER_EDGE
    radius = PIP_RADIUS * PATCH_PER_EDGE
    along = np.arange(side, dtype=np.float64) - (side - 1) / 2
    offsets = np.array(OFFSETS) * PATCH_PER_EDGE
    templates = []
    for spacing in np.array(SPACINGS) * PATCH_PER_EDGE:
        reach = spacing + radius
        for down in offsets:
            y = along - down
            # A bar two spacings and a pip long, its ends blurred as a pip's sides are.
            length = 0.5 * (_erf((y + reach) / (math.sqrt(2) * sigma))
                            - _erf((y - reach) / (math.sqrt(2) * sigma)))
            for across in offsets:
                x = along - across
                width = np.exp(-((x - spacing) ** 2) / (2 * sigma * sigma)) \
                    + np.exp(-((x + spacing) ** 2) / (2 * sigma * sigma))
                template = np.outer(length, width)
                template -= template.mean()
                templates.append(template / np.linalg.norm(template))
    return np.array(templates).reshape(len(SPACINGS), len(offsets), len(offsets), side, side)


def bars_fit(contrast: FloatArray) -> float:
    """How well two parallel bars of a 6 (either way round, at the best spacing and
    placement) match ``contrast`` (a square patch): their correlation with it, 0-1."""
    side = contrast.shape[0]
    centred = contrast - contrast.mean()
    norm = float(np.linalg.norm(centred))
    if norm < 1e-9:
        return 0.0
    templates = _bar_templates(side).reshape(-1, side * side)
    best = 0.0
    for patch in (centred, centred.T):
        # Either sign: the plain colour is the patch's median, which a 6 blurred over half
        # the face pulls towards its pips' (as :func:`vision.dice_layout.fit_layout` says).
        best = max(best, float(np.abs(templates @ patch.ravel()).max()) / norm)
    return best


def bars_turn(image: Image, rect: Rect) -> tuple[float, float]:
    """(turn in degrees against ``rect``'s, how well the bars fit there) at which two bars
    of a 6 match the face ``rect`` in ``image`` best: the contrast's own grain (bars' sides
    make most of its gradients, across them) gives the turn, tried as it is and
    :data:`FINE_TURN` either side."""
    centre, size, angle = rect
    sigma = patch_sigma((size[0] + size[1]) / 2)
    smoothed = None if sigma is None else np.asarray(cv2.GaussianBlur(image, (0, 0), sigma))

    def contrast_at(turn: float) -> FloatArray:
        patch = face_patch(image, (centre, size, angle + turn), smoothed)
        return local_contrast(patch).astype(np.float64)

    down, across = np.gradient(contrast_at(0.0))
    grain = 0.5 * math.degrees(math.atan2(2.0 * float((across * down).sum()),
                                          float((across * across - down * down).sum())))
    return max((bars_fit(contrast_at(turn)), turn)
               for turn in (grain - FINE_TURN, grain, grain + FINE_TURN))[::-1]


def read_moved(config: DiceConfig, image: Image, body: FloatArray, rect: Rect
               ) -> tuple[int | None, float, str, tuple[float, float] | None] | None:
    """:func:`vision.dice_recentre.read_about_pips`, else (where that reads nothing, or reads
    with no pips' middle to hold the die's body to) :func:`read_bars`."""
    again = read_about_pips(config, image, body, rect)
    if again is not None and again[3] is not None:
        return again
    return read_bars(config, image, rect) or again


def read_bars(config: DiceConfig, image: Image, rect: Rect
              ) -> tuple[int | None, float, str, tuple[float, float] | None] | None:
    """(6, confidence, "", the fitted grid's middle in ``image``'s pixels) where the face
    ``rect`` shows a 6's two bars (matched :data:`BARS_LEAST_FIT` at least) and the whole
    face's fit at their turn reads a 6; None otherwise."""
    turn, fit = bars_turn(image, rect)
    if fit < BARS_LEAST_FIT:
        return None
    centre, size, angle = rect
    layout = fit_layout(config, image, (centre, size, angle + turn))
    if layout.value != 6 or layout.middle is None:
        return None
    return 6, layout.confidence, "", layout.middle
