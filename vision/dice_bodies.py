"""Finding dice bodies in a tray crop: where the colour differs from the felt's.

The physics is told in :mod:`vision.dice` (step 1): a pixel belongs to a die where its
difference from the felt, in units of the least a die shows, reaches 1 and half the most any
pixel within the blur's reach shows; pieces a dark die's pips break apart are joined by
weaker evidence of a hue unlike the felt's, and each body is closed over its pips. Black dice
are found again from their darkness and hue together (:mod:`vision.dice_dark`). The top
faces are found in the bodies by :mod:`vision.dice_faces`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.dice_beyond import on_felt
from vision.dice_dark import black_only, darkness_and_hue, with_black_bodies

if TYPE_CHECKING:
    from vision.dice import DiceConfig

_LOG_TABLE = np.log(np.arange(256, dtype=np.float32) + 4.0).reshape(1, 256)
_MEAN_ROW = np.full((1, 3), 1.0 / 3.0, np.float32)
_SUM_ROW = np.ones((1, 3), np.float32)
_DISC3 = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3))


@dataclass(frozen=True)
class BodySearch:
    """The crop's bodies as the felt's score finds them (``found``: all of them, largest
    first as found, before ``most_dice`` keeps the first), and each pixel's ``chroma`` and
    ``level`` against the felt, kept for the black dice's search (:func:`black_bodies`)."""

    found: list[tuple[Image, tuple[int, int]]]
    chroma: FloatArray
    level: FloatArray

    def bodies(self, config: DiceConfig) -> list[tuple[Image, tuple[int, int]]]:
        """The bodies read: the first ``most_dice`` found."""
        return self.found[:config.most_dice]


def find_bodies(config: DiceConfig, image: Image, felt: FloatArray, ppm: float,
                beyond: FloatArray | None = None,
                felt_box: tuple[int, int, int, int] | None = None) -> BodySearch:
    """Every die body of the crop as a patch (uint8 0/1, holes (pips) filled, print and specks
    removed) and where its top-left corner lies.

    A pixel's difference from the felt is measured in units of the least a die shows; it
    belongs to a die where that reaches 1 and half the most any pixel within the blur's reach
    shows (the middle of a blurred edge), so that outlines do not grow with the blur and
    touching dice of different colours come apart. Where the crop reaches past the felt
    (``felt_box``), each pixel is measured against ``beyond`` (its background's colour, the
    mat's past the felt) and only bodies standing on the felt are kept
    (:mod:`vision.dice_beyond`)."""
    # Each channel's log less the felt's: one table for all three channels (OpenCV looks a
    # one-channel table up in two thirds of the instructions of a table a channel), then the
    # felt's logs taken off in float32, the same values as a table a channel holds.
    felt_logs = np.log(felt + 4.0).astype(np.float32)
    if beyond is None:
        logs = cv2.subtract(cv2.LUT(image, _LOG_TABLE),  # type: ignore[call-overload]
                            (float(felt_logs[0]), float(felt_logs[1]), float(felt_logs[2]),
                             0.0))
    else:
        logs = cv2.subtract(cv2.LUT(image, _LOG_TABLE),
                            np.log(beyond + 4.0).astype(np.float32))
    level = cv2.transform(logs, _MEAN_ROW)
    squares = cv2.transform(cv2.multiply(logs, logs), _SUM_ROW)
    difference = cv2.subtract(squares, cv2.multiply(level, level, scale=3.0))
    chroma = cv2.sqrt(np.maximum(difference, 0.0, out=difference))
    score = cv2.max(cv2.max(chroma * np.float32(1.0 / config.chroma),
                            level * np.float32(1.0 / config.brighter)),
                    level * np.float32(-1.0 / config.darker))
    return BodySearch(bodies_of_score(config, score, chroma, ppm, felt_box), chroma, level)


def black_bodies(config: DiceConfig, search: BodySearch, image: Image, felt: FloatArray,
                 ppm: float, felt_box: tuple[int, int, int, int] | None
                 ) -> list[tuple[Image, tuple[int, int]]] | None:
    """The bodies of ``search`` with black dice's bodies found from their darkness and hue
    together in their place (:mod:`vision.dice_dark`: each about the least a die shows, they
    find a black die's body together), the first ``most_dice``; None where that finds no
    black body, and the bodies are ``search``'s own."""
    found = black_only(bodies_of_score(config, darkness_and_hue(config, search.chroma,
                                                                search.level),
                                       search.chroma, ppm, felt_box), image, felt)
    if not found:
        return None
    return with_black_bodies(search.found, found, search.chroma.shape[:2])[:config.most_dice]


def bodies_of_score(config: DiceConfig, score: FloatArray, chroma: FloatArray, ppm: float,
                    felt_box: tuple[int, int, int, int] | None
                    ) -> list[tuple[Image, tuple[int, int]]]:
    """The bodies of the crop whose pixels' difference from the felt is ``score`` (in units of
    the least a die shows) and whose chromaticity differs from the felt's by ``chroma``, as
    :func:`find_bodies` gives them (all of them, not only ``most_dice``)."""
    reach = max(3, 2 * round(config.edge_blur_mm * ppm) + 1)
    nearby = cv2.dilate(score, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    edge = score > config.edge_share * nearby
    mask = ((score > 1.0) & edge).astype(np.uint8)
    border = max(2, round(config.border_mm * ppm))
    mask[:border], mask[-border:], mask[:, :border], mask[:, -border:] = 0, 0, 0, 0
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _DISC3)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    least = 0.5 * (config.edge_mm[0] * ppm) ** 2
    # A dark die on light felt scores about 1, and its pips' halos break its body into
    # pieces too small to be a die. Pieces joined by weaker evidence within ``grow_mm`` of
    # them, of a hue unlike the felt's (a shadow is the felt darker, in the felt's own hue),
    # are one body.
    # Made only where a body needs it.
    @functools.cache
    def weak() -> Image:
        hued = chroma > np.float32(config.grow_chroma * config.chroma)
        return ((score > config.grow_share) & edge & hued).astype(np.uint8)

    # White pips on a dark die leave holes and notches in its body, on the top and side faces
    # alike: a pip's width and, around it, the blur's reach where the pip's contrast outshines
    # the body's. Each body alone is closed over them, so no two bodies merge.
    pip = max(3, 2 * round((config.pip_hole_mm + config.edge_blur_mm) * ppm / 2) + 1)
    closing = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (pip, pip))
    groups = _join_pieces(list(contours), opened, weak, least, float(closing.sum()),
                          round(config.grow_mm * ppm))
    # A die is convex: a body no larger than one die that fills too little of its convex
    # hull takes the weaker pixels within the hull too.
    one_die = config.one_die_share * (config.edge_mm[1] * ppm) ** 2
    bodies = [_closed_body(group, closing, weak, mask.shape[:2], config.fill_solidity, one_die)
              for group in groups]
    bodies = [(body, offset) for body, offset in bodies
              if on_felt(body, offset, felt_box, least)]
    return bodies


def _join_pieces(contours: list[np.ndarray], core: Image, weak: Callable[[], Image],
                 least: float, smallest: float, reach: int) -> list[list[np.ndarray]]:
    """The bodies as groups of outlines: each outline of at least ``least`` px^2 (a die's
    size) with the smaller ones that ``weak()`` pixels within ``reach`` px of ``core`` join to
    it (when no other outline that size is joined too), and smaller ones joined only to each
    other where together they reach ``least``. Outlines under ``smallest`` px^2 (specks,
    which would pull a body's outline out once closed) join nothing."""
    areas = [cv2.contourArea(contour) for contour in contours]
    if reach <= 0 or all(area >= least or area < smallest for area in areas):
        return [[contour] for contour, area in zip(contours, areas, strict=True)
                if area >= least]
    size = 2 * reach + 1
    near = cv2.dilate(core, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    _, labels = cv2.connectedComponents(core | (weak() & near), connectivity=8)
    joined: dict[int, list[int]] = {}
    for index, contour in enumerate(contours):
        x, y = contour[0, 0]
        joined.setdefault(int(labels[y, x]), []).append(index)
    groups = []
    for members in joined.values():
        large = [index for index in members if areas[index] >= least]
        pieces = [index for index in members if areas[index] >= smallest]
        if len(large) == 1 or (not large and sum(areas[index] for index in pieces) >= least):
            groups.append([contours[index] for index in pieces])
        else:
            groups.extend([contours[index]] for index in large)
    return groups


def _closed_body(contours: list[np.ndarray], closing: Image, weak: Callable[[], Image],
                 shape: tuple[int, ...], solidity: float, one_die: float
                 ) -> tuple[Image, tuple[int, int]]:
    """One body's outlines filled and closed by ``closing`` as a patch within the crop, and
    where its top-left corner lies. Where the closed body fills less than ``solidity`` of
    its convex hull, and that hull is no larger than ``one_die`` px^2, the ``weak`` pixels
    (uint8 0/1, the crop of ``shape``'s) within the hull are its too."""
    x, y, width, height = cv2.boundingRect(np.vstack(contours))
    pad = 2 + closing.shape[0] // 2
    filled = np.zeros((height + 2 * pad, width + 2 * pad), np.uint8)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED, offset=(pad - x, pad - y))
    closed = cv2.morphologyEx(filled, cv2.MORPH_CLOSE, closing)
    outline, _ = cv2.findContours(closed, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    hull = cv2.convexHull(np.vstack(outline))
    hull_area = cv2.contourArea(hull)
    if float(closed.sum()) < solidity * hull_area and hull_area <= one_die:
        inside: Image = np.zeros_like(filled)
        cv2.drawContours(inside, [hull], -1, 1, cv2.FILLED)
        window: Image = np.zeros_like(filled)
        window[pad:pad + height, pad:pad + width] = weak()[y:y + height, x:x + width]
        more = cv2.bitwise_or(closed, cv2.bitwise_and(inside, window))
        closed = cv2.morphologyEx(more, cv2.MORPH_CLOSE, closing)
    # Kept within the crop, as the later steps index the crop by the patch's place.
    left, top = max(0, x - pad), max(0, y - pad)
    right, bottom = min(shape[1], x + width + pad), min(shape[0], y + height + pad)
    body: Image = np.ascontiguousarray(closed[top - y + pad:bottom - y + pad,
                                              left - x + pad:right - x + pad])
    return body, (left, top)


__all__ = ["BodySearch", "black_bodies", "bodies_of_score", "find_bodies"]
