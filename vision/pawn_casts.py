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

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.halves import half_size
from vision.light_line import LIGHT_DIRECTION
from vision.pawns import PawnConfig

#: Unit directions along the line of light colours (warmer) in ``(ln(red/green),
#: ln(blue/green))``, and across it.
WARMER = LIGHT_DIRECTION / np.hypot(*LIGHT_DIRECTION)
ACROSS_LIGHT = np.array([-WARMER[1], WARMER[0]])


def without_light_casts(config: PawnConfig, labels: Image, image: Image,
                        pixels_per_mm: float) -> Image:
    """``labels`` (from :func:`vision.pawns.pawn_labels`, at half the normalised ``image``'s
    ``pixels_per_mm``) without the blobs the module's description calls casts."""
    if config.cast_width <= 0 or not labels.any():
        return labels
    count, blobs, stats, centres = cv2.connectedComponentsWithStats(
        (labels > 0).view(np.uint8), connectivity=8)
    scale = pixels_per_mm / 2
    large = stats[:, cv2.CC_STAT_AREA] >= config.least_area_mm2 * scale**2
    large[0] = False
    if large.sum() < 2:
        return labels
    colour, label = _blob_colours(labels, blobs, count, half_size(image))
    warmth = colour @ WARMER
    on_line = ((np.abs(colour @ ACROSS_LIGHT) <= config.cast_width) & (warmth > 0)
               & (warmth <= config.cast_along))
    chosen = np.flatnonzero(large & on_line)
    gaps = np.hypot(*(centres[chosen, None, :] - centres[None, chosen, :]).transpose(2, 0, 1))
    near = (gaps <= config.cast_reach_mm * scale) & (label[chosen, None] == label[None, chosen])
    np.fill_diagonal(near, False)
    casts = np.zeros(count, bool)
    casts[chosen[near.any(axis=1)]] = True
    if not casts.any():
        return labels
    return np.where(casts[blobs], 0, labels).astype(np.uint8)


def _blob_colours(labels: Image, blobs: FloatArray, count: int, small: Image
                  ) -> tuple[FloatArray, FloatArray]:
    """Per blob: its mean ``(ln(red/green), ln(blue/green))`` (count, 2) and its commonest
    pawn label (count,)."""
    rows, columns = np.nonzero(labels)
    which = blobs[rows, columns]
    pixels = np.maximum(small[rows, columns].astype(np.float64), 1.0)
    size = np.maximum(np.bincount(which, minlength=count), 1)
    red = np.bincount(which, np.log(pixels[:, 2] / pixels[:, 1]), minlength=count) / size
    blue = np.bincount(which, np.log(pixels[:, 0] / pixels[:, 1]), minlength=count) / size
    votes = np.zeros((count, int(labels.max()) + 1))
    np.add.at(votes, (which, labels[rows, columns]), 1)
    return np.column_stack([red, blue]), votes.argmax(axis=1)
