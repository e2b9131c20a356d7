"""A die's body with its shadow taken out, where the shadow made its top no square.

A shadow is the felt darker in the felt's own hue; a die's side face is the die's colour
shaded, darker but of the die's hue. Beside a coloured die (red, blue, or white on green
felt) a shadow darker than the least a die shows, or blurred into the die's edge, can join
its body, and the top found from that body runs long on the shadow's side and fails the
square test. Each pixel's chromaticity against the felt, projected on the die's own, tells
the two apart: a shadow's projection is about 0 and the die's (top or side face, lit or
shaded) about 1, the blurred edge between them half. A pixel darker than the felt that shows
less than half the die's hue is shadow (or the felt beside it), and is taken off the body;
pips, brighter than the felt or inside the body, stay. A black die is left as it is: its
shaded side faces and its shadow are both dark, and its hue, measured over the few levels
it has, tells them apart no better than noise (tuning cocked frame 187's black dice lost
their dark sides with it and passed for flat).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.dice_colour import colour_name
from vision.dice_pips import masked_median

if TYPE_CHECKING:
    from vision.dice import DiceConfig

_DISC3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))
#: Each 8-bit level's log, offset by 4 (float32: ``np.log(level + 4.0)`` of a float32 level).
_LOG_TABLE = np.log(np.arange(256, dtype=np.float32) + 4.0).reshape(1, 256)


def without_shadow(config: DiceConfig, image: Image, felt: FloatArray, patch: Image,
                   offset: tuple[int, int], parts: list[Image] | None = None) -> Image | None:
    """The body ``patch`` (uint8 0/1 at ``offset`` in ``image``, the crop whose felt colour is
    ``felt``) less the pixels darker than the felt showing under half the die's hue, its
    pips' holes filled again; None where the die is black, or its hue hardly differs from
    the felt's (a grey die, whose shadow cannot be told by hue), or nothing is taken off, or
    more than ``shadow_most_share`` of the body would be. Given ``parts`` (the body cut into
    its touching dice), each die is measured against its own hue and capped alone; a black
    or grey one among them keeps its pixels."""
    height, width = patch.shape
    x, y = offset
    crop = image[y:y + height, x:x + width]

    # Measured only where a die is not black (a black die keeps its pixels).
    @functools.cache
    def measured() -> tuple[FloatArray, list[FloatArray], FloatArray]:
        level, hue = _level_and_hue(crop, felt)
        return level, hue, cv2.merge(hue)

    regions = [patch] if parts is None else parts
    shadow = np.zeros(patch.shape, bool)
    for region in regions:
        own = _shadow_of(config, crop, felt, measured, region)
        if own is None and parts is None:
            return None
        if own is not None:
            shadow |= own
    if not shadow.any():
        return None
    body = _kept_body(patch, shadow, len(regions))
    # A shadow joins a body as a strip along its side away from the light; taking off more
    # took off something else (a dark die it touches: tuning cocked frame 260's red die,
    # cocked against a black one, lost the black die and passed for one large flat top).
    for region in regions:
        taken = 1.0 - float((body & region).sum()) / float(max(1, region.sum()))
        if taken > config.shadow_most_share:
            return None
    return body


def _level_and_hue(crop: Image, felt: FloatArray) -> tuple[FloatArray, list[FloatArray]]:
    """Each pixel's log brightness against the felt's (its channels' log differences from
    the felt's, averaged) and its log chromaticity against the felt's, a plane a channel
    (those differences less that mean). Taken plane by plane from a table of the 8-bit
    levels' logs, as numpy's ``logs.mean(axis=2)`` and ``logs - mean`` give them over the
    whole crop to the bit (float32: the three added in order, then divided by 3), without
    their slow steps along a 3-long axis."""
    felt_logs = np.log(np.asarray(felt, np.float32) + 4.0)
    planes = cv2.split(cv2.LUT(crop, _LOG_TABLE))
    logs = [plane - felt_logs[channel] for channel, plane in enumerate(planes)]
    level = (logs[0] + logs[1] + logs[2]) / np.float32(3)
    return level, [plane - level for plane in logs]


def _shadow_of(config: DiceConfig, crop: Image, felt: FloatArray,
               measured: Callable[[], tuple[FloatArray, list[FloatArray], FloatArray]],
               region: Image) -> np.ndarray | None:
    """The pixels of ``region`` (one die's body) darker than the felt and showing under half
    its hue (``measured()``: the crop's level and chromaticity against the felt, the latter a
    plane a channel and as one image); None where the die is black or its hue hardly differs
    from the felt's."""
    inner = cv2.erode(region, _DISC3, iterations=2)
    if not inner.any():
        return None
    if colour_name(masked_median(crop, inner), felt) == "black":
        return None
    level, planes, pixels = measured()
    chosen = inner > 0
    # A channel's median alone is what ``np.median`` gives it along the pixels of all three.
    own = np.array([np.median(plane[chosen]) for plane in planes], np.float32)
    strength = float(own @ own)
    if strength < (config.shadow_least_hue * config.chroma) ** 2:
        return None
    share = pixels @ own / np.float32(strength)
    return (share < 0.5) & (level < 0.0) & (region > 0)


def _kept_body(patch: Image, shadow: np.ndarray, dice: int) -> Image:
    """``patch`` less ``shadow``, opened, its ``dice`` largest pieces kept with the pips inside
    them filled again (a white pip shows no die hue either)."""
    body = (patch & ~shadow).astype(np.uint8)
    body = cv2.morphologyEx(body, cv2.MORPH_OPEN, _DISC3)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(body, connectivity=8)
    if count <= 1:
        return np.zeros_like(patch)
    largest = 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:dice]
    kept = np.isin(labels, largest).astype(np.uint8)
    outline, _ = cv2.findContours(kept, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(kept)
    cv2.drawContours(filled, outline, -1, 1, cv2.FILLED)
    return filled & patch


__all__ = ["without_shadow"]
