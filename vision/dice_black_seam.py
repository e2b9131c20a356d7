"""Where a black die touches a die of another colour, the seam between their bodies placed
where the blurred picture is halfway between their colours.

Bodies are found by their chromaticity against the felt (log colour ratios), which no
change of brightness alters: a red, blue or white die's blur spread over a black neighbour
keeps the neighbour's chromaticity however dark the blend, so the neighbour's body takes a
strip of the black die's top (up to the blur's reach) and the black die's body loses it,
and neither top is then a square. Blur mixes light, not log ratios: the true edge between
two dice is where the picture lies halfway between their two colours. So, within the two
bodies and the pixels between them, each pixel that lies nearer the black die's colour than
the neighbour's (along the line joining the two) and joins the black die's body is the
black die's; the rest stays the neighbour's.
"""

from __future__ import annotations

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.dice_colour import colour_name
from vision.dice_pips import masked_median

#: A body patch (uint8 0/1) and where its top-left corner lies in the crop.
Body = tuple[Image, tuple[int, int]]

_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _whole(body: Body, shape: tuple[int, int]) -> Image:
    """``body`` as a mask of the whole crop (``shape``, rows by columns)."""
    patch, (x, y) = body
    mask: Image = np.zeros(shape, np.uint8)
    mask[y:y + patch.shape[0], x:x + patch.shape[1]] = patch
    return mask


def _patch(mask: Image) -> Body | None:
    """The crop's ``mask`` as a patch cut to its set pixels, or None where none is set."""
    points = cv2.findNonZero(mask)
    if points is None:
        return None
    x, y, width, height = cv2.boundingRect(points)
    return np.ascontiguousarray(mask[y:y + height, x:x + width]), (x, y)


def _filled(mask: Image) -> Image:
    """``mask``'s outlines filled (a black die's white pips are holes in its body)."""
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled: Image = np.zeros_like(mask)
    cv2.drawContours(filled, outlines, -1, 1, cv2.FILLED)
    return filled


def _largest(mask: Image) -> Image:
    """The largest connected part of ``mask``."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    if count <= 2:
        return mask
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    return (labels == biggest).astype(np.uint8)


def _joined_to(seed: Image, candidates: Image) -> Image:
    """The parts of ``candidates`` that touch ``seed``."""
    count, labels = cv2.connectedComponents(candidates, connectivity=4)
    if count <= 1:
        return candidates
    touching = np.unique(labels[(cv2.dilate(seed, _CROSS) != 0) & (candidates != 0)])
    return np.isin(labels, touching[touching > 0]).astype(np.uint8)


def _within(mask: Image, reach: float) -> Image:
    """The pixels within ``reach`` px of ``mask``."""
    distance = cv2.distanceTransform(1 - mask, cv2.DIST_L2, 3)
    return (distance <= reach).astype(np.uint8)


def _nearer(image: Image, dark: FloatArray, light: FloatArray) -> Image | None:
    """The pixels of ``image`` nearer the ``dark`` colour than the ``light`` one, along the
    line joining the two (blur mixes the two along it); None where the two are alike."""
    line = light - dark
    length = float(line @ line)
    if length < 1.0:
        return None
    place = (image.reshape(-1, 3).astype(np.float32) - dark) @ (line / length)
    return (place.reshape(image.shape[:2]) < 0.5).astype(np.uint8)


def reseamed(black: Image, other: Image, image: Image, felt: FloatArray, taken: Image,
             reach: float) -> tuple[Image, Image] | None:
    """The ``black`` die's body and the ``other`` die's (crop masks, within the blur's
    ``reach`` px of each other) with their seam moved to where ``image`` lies halfway
    between their two colours: the pixels of ``other``, and those between the two (none of
    ``taken``, the other bodies), within ``reach`` of the black body, nearer the black die's
    colour than the other's and the ``felt``'s, and joined to its body become its own.
    Farther off, a dark pixel of ``other`` is its own shaded side face, not blur. None where
    nothing moves."""
    dark = masked_median(image, black)
    nearer = _nearer(image, dark, masked_median(image, other))
    if nearer is None:
        return None
    # Nor is a pixel of the felt's between them the black die's.
    felt_side = _nearer(image, dark, np.asarray(felt, np.float32))
    if felt_side is not None:
        nearer &= felt_side
    both = cv2.bitwise_or(black, other)
    between = _within(other, reach) & (1 - both) & (1 - taken)
    moved = _joined_to(black, nearer & _within(black, reach) & (other | between))
    if not moved.any():
        return None
    new_black = _filled(cv2.bitwise_or(black, moved))
    new_other = _largest(other & (1 - new_black))
    return new_black, new_other


def black_seams(bodies: list[Body], image: Image, felt: FloatArray, reach: float
                ) -> list[Body] | None:
    """``bodies`` (in ``image``, the crop) with the seam of each black body that lies within
    the blur's ``reach`` px of a body of another colour placed halfway between their colours
    (:func:`reseamed`); None where no seam moves."""
    shape = image.shape[:2]
    masks = [_whole(body, shape) for body in bodies]
    names = [colour_name(masked_median(image, mask), felt) for mask in masks]
    changed = False
    for index, name in enumerate(names):
        if name != "black":
            continue
        near = _within(masks[index], reach)
        for other, other_name in enumerate(names):
            if other_name == "black" or not (near & masks[other]).any():
                continue
            taken = np.zeros(shape, np.uint8)
            for number, mask in enumerate(masks):
                if number not in (index, other):
                    taken |= mask
            moved = reseamed(masks[index], masks[other], image, felt, taken, reach)
            if moved is not None:
                masks[index], masks[other] = moved
                near = _within(masks[index], reach)
                changed = True
    if not changed:
        return None
    return [body for body in (_patch(mask) for mask in masks) if body is not None]


__all__ = ["black_seams", "reseamed"]
