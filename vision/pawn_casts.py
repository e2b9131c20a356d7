"""Pawn-coloured blobs that are silver mirroring a light of another colour than the paper's.

A silver coin takes the colour of what it mirrors. Under a warm lamp beside a cold window, a
coin mirroring the window is bluish against the lamp-lit paper, and one mirroring the warm
room yellowish against window-lit paper: as pure, in the light-normalised view, as a pawn's
paint. Two things tell such a cast from paint:

* **Its colour is a ratio of two lights.** Lamps, rooms and daylight are near black bodies,
  whose colours lie along one line in ``(ln(red/green), ln(blue/green))``
  (:data:`vision.light_line.LIGHT_DIRECTION`; from 2,700 K to 12,000 K they move by
  (-1.04, +1.90), Planck's law through the sRGB primaries). A cast is
  the ratio of two such lights, so it lies on that line through the paper's white; a red,
  green, purple or bright yellow paint lies well off it. (The 8-bit view is gamma-encoded,
  which scales both log-ratios alike and keeps the line's direction.)
* **Coins near each other mirror nearly the same light.** Across ``cast_reach_mm`` of the
  board the mirrored direction turns by well under the width of a window or a lamp's glow, so
  a cast tints several coins near each other alike.

Paint can lie on that line too, and only one side of it can be told apart: blue paint lies
on its cold side, as far along it as casts reach (blue pawns measure 0.5-1.0 along it in the
8-bit view, a silver coin mirroring 12,000 K sky against 2,700 K paper up to about
1.0), so colour cannot tell a bluish coin from a blue pawn (nor from blue pawns or tokens
near each other), and the rule leaves the cold side alone. On the warm side, yellow paint
lies well off the line (about 0.5 across it) and
orange far beyond where two lights reach (about 1.2 along it, against ``cast_along`` for a
2,700 K room against 6,500-12,000 K daylight).

So blobs of one pawn colour lying on the black-body line's warm side, within
``cast_along`` along it, at least two of them within ``cast_reach_mm`` of each other, are
casts on coins, not pawns. A lone blob keeps its reading.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.halves import half_size
from vision.light_line import LIGHT_DIRECTION
from vision.pawns import PawnConfig

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: Unit directions along the line of light colours (warmer) in ``(ln(red/green),
#: ln(blue/green))``, and across it.
WARMER = LIGHT_DIRECTION / np.hypot(*LIGHT_DIRECTION)
ACROSS_LIGHT = np.array([-WARMER[1], WARMER[0]])


def without_light_casts(config: PawnConfig, labels: Image, image: Image,
                        pixels_per_mm: float) -> Image:
    """``labels`` (from :func:`vision.pawns.pawn_labels`, at half the normalised ``image``'s
    ``pixels_per_mm``) without the blobs the module's description calls casts."""
    if config.cast_width <= 0:
        return labels
    scale = pixels_per_mm / 2
    least = config.least_area_mm2 * scale**2
    # Flat indices: the same pixels, in the same order, for a fraction of 2-d nonzero's work.
    at = np.flatnonzero(labels)
    if len(at) < 2 * least:
        return labels
    pixels = np.maximum(half_size(image).reshape(-1, 3)[at].astype(np.float64), 1.0)
    colours = np.column_stack([np.log(pixels[:, 2] / pixels[:, 1]),
                               np.log(pixels[:, 0] / pixels[:, 1])])
    if np.count_nonzero(_on_warm_line(config, colours)) < least:
        return labels  # not a blob's worth of a warm cast's colour: the usual frame
    count, blobs, stats, centres = cv2.connectedComponentsWithStats(
        (labels > 0).view(np.uint8), connectivity=8)
    large = stats[:, cv2.CC_STAT_AREA] >= least
    large[0] = False
    which = np.asarray(blobs.reshape(-1)[at], np.intp)
    size = np.maximum(np.bincount(which, minlength=count), 1)
    colour = np.column_stack([np.bincount(which, colours[:, channel], minlength=count) / size
                              for channel in range(2)])
    votes = np.zeros((count, int(labels.max()) + 1))
    np.add.at(votes, (which, labels.reshape(-1)[at]), 1)
    label = votes.argmax(axis=1)
    chosen = np.flatnonzero(large & _on_warm_line(config, colour))
    gaps = np.hypot(*(centres[chosen, None, :] - centres[None, chosen, :]).transpose(2, 0, 1))
    near = (gaps <= config.cast_reach_mm * scale) & (label[chosen, None] == label[None, chosen])
    np.fill_diagonal(near, False)
    casts = np.zeros(count, bool)
    casts[chosen[near.any(axis=1)]] = True
    if not casts.any():
        return labels
    return np.where(casts[blobs], 0, labels).astype(np.uint8)


def _on_warm_line(config: PawnConfig, colours: FloatArray) -> NDArray[np.bool_]:
    """Per ``(ln(red/green), ln(blue/green))`` colour (N, 2): whether it lies within
    ``cast_width`` of the line of light colours, on its warm side, within ``cast_along``."""
    warmth = colours @ WARMER
    return np.asarray((np.abs(colours @ ACROSS_LIGHT) <= config.cast_width) & (warmth > 0)
                      & (warmth <= config.cast_along))
