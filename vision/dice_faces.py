"""Finding each die's top face in its body (the bodies: :mod:`vision.dice_bodies`).

The physics is told in :mod:`vision.dice` (steps 2 and 3): a still die's top face is its
body less the sweep the camera's lean gives a cube of its edge; blobs of touching dice are
eroded by the lean the single dice show and split (two dice at the concave corners where
their outlines meet, when that leaves square tops); a top that is no square of a die's size,
or a body that sweeps further or sideways, is a die cocked up, not flat.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.dice_cuts import defect_cut
from vision.dice_erode import dilate_along, erode_along, erode_beside, touches_other
from vision.dice_hidden import refuse_hidden

if TYPE_CHECKING:
    from vision.dice import DiceConfig

#: A body (0/1 patch at an offset, cut into its dice or not) less its shadow, or None where
#: nothing is taken off (:func:`vision.dice_shadow.without_shadow`).
Unshadowed = Callable[[Image, tuple[int, int], "list[Image] | None"], "Image | None"]



@dataclass(frozen=True)
class TopFace:
    """A top face found in the crop: its mask (a patch whose top-left corner lies at ``offset``
    in the crop), its rectangle (crop pixels) and whether it is a flat die's square top;
    ``cut`` where it was cut from a blob of touching dice (no sweep of its own was tested)."""

    mask: Image
    offset: tuple[int, int]
    rect: tuple[tuple[float, float], tuple[float, float], float]
    flat: bool
    why: str = ""
    cut: bool = False


def _sweep(points: FloatArray) -> tuple[FloatArray, float, float, float]:
    """A blob's principal direction (unit), its length along it, its width across it (px) and
    the area its outline encloses (px^2)."""
    centred = points - points.mean(axis=0)
    covariance = centred.T @ centred / max(1, len(points))
    values, vectors = np.linalg.eigh(covariance)
    axis = vectors[:, int(np.argmax(values))]
    along = centred @ axis
    across = centred @ np.array([-axis[1], axis[0]])
    return axis, float(np.ptp(along)) + 1.0, float(np.ptp(across)) + 1.0, float(len(points))


def top_faces(config: DiceConfig, bodies: list[tuple[Image, tuple[int, int]]], ppm: float,
              lean_at: Callable[[FloatArray], FloatArray],
              unshadowed: Unshadowed | None = None
              ) -> list[TopFace]:
    """The top face of every die in the crop: single dice eroded by their own sweep along the
    camera's lean at them (``lean_at``: crop pixel -> lean, pixels per pixel of height),
    blobs of touching dice by the sweep the single dice show, then split.

    A square swept along a direction is as wide across it as the square, and longer along it
    by the sweep, whatever the square's turn: so the sweep is the blob's length along the lean
    less its width across, which holds however much of the side faces shows against the felt
    (a black die's shaded sides hardly do). A lone die's top no square is looked for again in
    its body less its shadow, ``unshadowed(patch, offset, None)`` (None where nothing is taken
    off); so is a blob of touching dice, first as one die (a shadow can make a die's body look
    two), then, where its split tops are not all flat, each die less its own shadow."""
    groups: list[tuple[Image, tuple[int, int], int]] = []
    faces: list[tuple[TopFace, int]] = []
    edges: list[float] = []
    ratios: list[float] = []
    retry: list[tuple[Image, tuple[int, int], TopFace, int]] = []
    for index, (patch, offset) in enumerate(bodies):
        single = _single_face(config, patch, offset, bodies, ppm, lean_at)
        if single is not None and single[0].why == "top no square" and unshadowed is not None:
            # Found again without its shadow, a top is kept but sets no typical edge or sweep
            # for the blobs of touching dice: its body lost its blurred outline with the shadow.
            again = _unshadowed_face(config, index, bodies, ppm, lean_at, unshadowed)
            if again is not None:
                faces.append((again, index))
                continue
        if single is None:
            groups.append((patch, offset, index))
        elif not single[0].flat:
            # Perhaps two dice face to face rather than one die (cocked, or too large).
            retry.append((patch, offset, single[0], index))
        else:
            faces.append((single[0], index))
            edges.append(single[1])
            ratios.append(single[2])
    typical = float(np.median(edges)) if edges else 16.0 * ppm
    ratio = float(np.median(ratios)) if ratios else None
    for patch, offset, index in groups:
        alone = None
        if unshadowed is not None:
            # A lone die whose shadow joined its body looks like two touching dice: its body
            # less its shadow is tried as one die before the blob is split.
            alone = _unshadowed_face(config, index, bodies, ppm, lean_at, unshadowed)
        if alone is None and edges:
            alone = _beside_face(config, index, bodies, ppm, lean_at, typical, ratio)
        if alone is not None:
            faces.append((alone, index))
            continue
        split = _group_faces(config, patch, offset, ppm, lean_at, typical, ratio)
        if unshadowed is not None and len(split) >= 2 and not all(face.flat for face in split):
            split = _unshadowed_group(config, patch, offset, ppm, lean_at, (typical, ratio),
                                      split, unshadowed)
        faces.extend((replace(face, cut=True), index) for face in split)
    for patch, offset, face, index in retry:
        parts = _group_faces(config, patch, offset, ppm, lean_at, typical, ratio)
        if len(parts) >= 2 and any(part.flat for part in parts):
            faces.extend((replace(part, cut=True), index) for part in parts)
        else:
            faces.append((face, index))
    faces = [(face, index) for face, index in faces if face.mask.any()]
    return refuse_hidden(config, faces, bodies, ppm, lean_at)


def _single_face(config: DiceConfig, patch: Image, offset: tuple[int, int],
                 bodies: list[tuple[Image, tuple[int, int]]], ppm: float,
                 lean_at: Callable[[FloatArray], FloatArray]
                 ) -> tuple[TopFace, float, float] | None:
    """The top face of a body that is one die, with its edge (px) and how far its sides show
    for its edge; None where the body is no single die (a blob of touching dice)."""
    low, high = (edge * ppm for edge in config.edge_mm)
    x0, y0 = offset
    rows, columns = np.nonzero(patch)
    points = np.column_stack([columns, rows]).astype(np.float64)
    lean = np.asarray(lean_at(points.mean(axis=0) + np.array([x0, y0])), np.float64)
    lean_size = float(np.linalg.norm(lean))
    # The blob's own principal axis measures its sweep better than the camera's lean
    # direction does (whose ends catch blur and shadow); the lean gives its sign.
    axis, along, across, _ = _sweep(points)
    if lean_size > 0.02 and axis @ lean < 0:
        axis = -axis
    swept = max(0.0, along - across)
    area = float(len(points))
    edge = math.sqrt(max(1.0, area - swept * across))
    if not (0.85 * low <= edge <= 1.1 * high and across <= config.most_across * edge
            and swept <= 1.5 * edge):
        return None
    # A flat die's side faces show as wide as the camera's lean makes them: a sweep much
    # longer than that is a die cocked up on one side.
    # And it sweeps along the lean: a die cocked up shows a side face on the side it rises,
    # whichever way that is.
    sideways = swept * abs(float(axis[0] * lean[1] - axis[1] * lean[0])) / max(lean_size, 1e-9)
    upright = (swept / edge <= lean_size + config.lean_slack
               and sideways / edge <= config.side_slack)
    # The top face is where an upright cube's would be: the body less the sweep the
    # camera gives a die of this edge here. A die cocked up keeps part of a side face in
    # it, off its pips' middle or no square.
    top = erode_beside(patch, offset, bodies, lean * edge)
    face = _face(config, top, offset, ppm, upright)
    if face.rect[1][0] > 0:
        # The body's edge counts blur and shadow in; the top's own side is the die's.
        side = math.sqrt(face.rect[1][0] * face.rect[1][1])
        if abs(side - edge) > config.edge_agreement * edge:
            top = erode_beside(patch, offset, bodies, lean * side)
            face = _face(config, top, offset, ppm, upright)
    if face.flat and _outside_sweep(patch, face, offset, lean) > config.most_outside:
        face = TopFace(face.mask, face.offset, face.rect, False, "body outside its sweep")
    return face, edge, swept / edge


def _beside_face(config: DiceConfig, index: int, bodies: list[tuple[Image, tuple[int, int]]],
                 ppm: float, lean_at: Callable[[FloatArray], FloatArray], typical: float,
                 ratio: float | None) -> TopFace | None:
    """The top face of ``bodies[index]`` as one die of the edge ``typical`` (px, the lone
    dice's) beside another body, where that makes a flat die's square top of about that
    edge; else None.

    A die cut from a touching one by colour lacks the side face and part of the top the
    other hides, so its area and its width across the lean (a die turned as a diamond) fail
    the lone die's test; counted with its neighbours as body
    (:func:`vision.dice_erode.erode_beside`), its top is the body less the sweep the lone
    dice's sides show (``ratio`` of the edge along the camera's lean, as for touching dice)."""
    patch, offset = bodies[index]
    if not touches_other(patch, offset, bodies, index):
        return None
    lean = _lean_at_middle(patch, offset, lean_at)
    size = float(np.linalg.norm(lean))
    sweep = lean * (size if ratio is None else min(ratio, size)) / max(size, 1e-9)
    face = _face(config, erode_beside(patch, offset, bodies, sweep * typical), offset, ppm)
    if not _flat_dice([face], typical):
        return None
    if _outside_sweep(patch, face, offset, lean) > config.most_outside:
        return None
    return face


def _unshadowed_face(config: DiceConfig, index: int,
                     bodies: list[tuple[Image, tuple[int, int]]], ppm: float,
                     lean_at: Callable[[FloatArray], FloatArray],
                     unshadowed: Unshadowed
                     ) -> TopFace | None:
    """The lone die ``bodies[index]``'s top face found again in its body less its shadow,
    where that makes a flat die's square top; else None."""
    patch, offset = bodies[index]
    body = unshadowed(patch, offset, None)
    if body is None or not body.any():
        return None
    others = [(body, offset) if place == index else other
              for place, other in enumerate(bodies)]
    again = _single_face(config, body, offset, others, ppm, lean_at)
    return again[0] if again is not None and again[0].flat else None


def _unshadowed_group(config: DiceConfig, patch: Image, offset: tuple[int, int], ppm: float,
                      lean_at: Callable[[FloatArray], FloatArray],
                      typical_ratio: tuple[float, float | None], split: list[TopFace],
                      unshadowed: Unshadowed) -> list[TopFace]:
    """The tops of a blob of touching dice found again in its body less each die's shadow,
    where every one of them then passes as a flat die's square top; else ``split``. Its
    shadow gone, the blob may hold fewer dice by area than the split took (never fewer
    than two: a blob taken for one die less its shadow was tried before it was split)."""
    lean = _lean_at_middle(patch, offset, lean_at)
    body = unshadowed(patch, offset, _by_nearest_top(patch, split, lean * typical_ratio[0]))
    if body is None or not body.any():
        return split
    again = _group_faces(config, body, offset, ppm, lean_at, *typical_ratio)
    if 2 <= len(again) <= len(split) and all(face.flat for face in again):
        return again
    return split


def _group_faces(config: DiceConfig, patch: Image, offset: tuple[int, int], ppm: float,
                 lean_at: Callable[[FloatArray], FloatArray], typical: float,
                 ratio: float | None) -> list[TopFace]:
    """The top faces of a blob of touching dice of edge ``typical`` (px) whose sides show
    ``ratio`` of their edge (by default, as the camera's lean makes them). Two dice are cut
    where that leaves square tops (:func:`defect_cut`); where no cut does, the parts are
    returned as they are and refused as no square, never guessed.

    Lone dice's sides show less than the camera's lean makes them (blur, and dark sides
    against the felt); the nearest die of a blob shows its whole side face, whose length the
    lean gives. Where the tops left by ``ratio`` are not all flat, the blob is eroded by the
    lean instead, kept only where that leaves two or more flat tops of about the edge
    (:func:`_flat_dice`)."""
    lean = _lean_at_middle(patch, offset, lean_at)
    size = float(np.linalg.norm(lean))
    faces = _swept_group(config, patch, offset, ppm, lean_at, typical,
                         lean * (size if ratio is None else ratio) / max(size, 1e-9),
                         known=ratio is not None)
    if ratio is None or ratio >= size or all(face.flat for face in faces):
        return faces
    again = _swept_group(config, patch, offset, ppm, lean_at, typical, lean, known=True)
    if len(again) >= 2 and _flat_dice(again, typical):
        return again
    return faces


def _swept_group(config: DiceConfig, patch: Image, offset: tuple[int, int], ppm: float,
                 lean_at: Callable[[FloatArray], FloatArray], typical: float,
                 sweep: FloatArray, known: bool) -> list[TopFace]:
    """:func:`_group_faces` with the blob eroded by ``sweep`` times the edge ``typical``
    (px; ``known`` where lone dice in the frame measured it, not the default).

    A top twice as long as wide is two dice face to face, whatever its area says; a blob
    whose tops are not all flat is tried as two dice at its concave corners."""
    top = erode_along(patch, sweep * typical)
    area = float(top.sum())
    parts = max(1, min(config.most_dice, round(area / (typical * typical))))
    split = [_face(config, part, offset, ppm) for part in _split(top, parts)]
    if known and parts == 1 and not split[0].flat and _two_long(split[0]):
        # A top twice as long as wide is two dice face to face, whatever its area says (the
        # lone dice's edge can be measured large beside a dark die's); only where lone dice
        # gave the edge: a cocked die's top and side face can make such a rectangle too.
        halves = [_face(config, part, offset, ppm) for part in _split(top, 2)]
        if _flat_dice(halves, typical):
            return halves
    if parts < 2 or (parts > 2 and all(face.flat for face in split)):
        return split
    # A side face or shadow the sweep left in counts as more dice by area: where the split
    # fails, a blob taken for three or more is tried as two dice too.
    pair = _pair_faces(config, patch, top, offset, ppm, lean_at, typical,
                       split if parts == 2 else [])
    return split if pair is None else pair


def _flat_dice(faces: list[TopFace], typical: float) -> bool:
    """Whether every one of ``faces`` is a flat die's top of about the edge ``typical`` (px):
    the dice of a throw are one size, their tops measured within 15% by colour, so a quarter
    of the edge either way."""
    return all(face.flat and 0.75 * typical <= math.sqrt(face.rect[1][0] * face.rect[1][1])
               <= 1.25 * typical for face in faces)


def _two_long(face: TopFace) -> bool:
    """Whether ``face``'s rectangle is about twice as long as wide (two squares' worth)."""
    width, height = face.rect[1]
    return 1.6 <= max(width, height) / max(1.0, min(width, height)) <= 2.5


def _pair_faces(config: DiceConfig, patch: Image, top: Image, offset: tuple[int, int],
                ppm: float, lean_at: Callable[[FloatArray], FloatArray], typical: float,
                split: list[TopFace]) -> list[TopFace] | None:
    """The tops of two touching dice cut apart at their outline's concave corners (the
    top's, or else the body's with each part a lone die), where that beats ``split`` (the
    cut across the middle, if any); None where no cut leaves two flat dice's tops."""
    # Two dice's tops meet where their joint outline turns inwards, however they stand
    # against each other; the middle of that outline is their seam only when they stand
    # square face to face. Of the two cuts, the one leaving the squarer tops is kept.
    cut = [_face(config, piece, offset, ppm) for piece in defect_cut(config, top, typical)]
    if len(cut) == 2 and all(face.flat for face in cut):
        if (len(split) != 2 or not all(face.flat for face in split)
                or _unsquareness(cut) < _unsquareness(split)):
            return cut
        return split
    if len(split) == 2 and all(face.flat for face in split):
        return split
    # Where a die's side face fills the corner between their tops, the bodies' outline still
    # turns inwards at the seam's ends: each part of the body cut there must pass as a lone
    # die.
    pieces = defect_cut(config, patch, typical)
    singles = [_single_face(config, piece, offset, [(other, offset) for other in pieces], ppm,
                            lean_at) for piece in pieces]
    faces = [single[0] for single in singles if single is not None and single[0].flat]
    return faces if len(faces) == 2 else None


def _unsquareness(faces: list[TopFace]) -> float:
    """How far the tops ``faces`` are from filled squares, summed: each one's sides'
    difference as a share of the longer, and the share of its rectangle it leaves empty."""
    total = 0.0
    for face in faces:
        width, height = face.rect[1]
        long, short = max(width, height), min(width, height)
        total += (long - short) / max(long, 1.0)
        total += 1.0 - float(face.mask.sum()) / max(1.0, width * height)
    return total


def _outside_sweep(patch: Image, face: TopFace, offset: tuple[int, int], lean: FloatArray
                   ) -> float:
    """The share of a body outside its top face swept towards the camera by the die's height
    (its edge times the camera's ``lean``): none of a flat die is, but a cocked die shows a
    side face on the side it rises, whichever way that is."""
    (x, y), (width, height), angle = face.rect
    edge = math.sqrt(width * height)
    box = cv2.boxPoints(((x - offset[0], y - offset[1]), (width, height), angle))
    hull = cv2.convexHull(np.vstack([box, box - lean[None, :] * edge]).astype(np.float32))
    expected = np.zeros_like(patch)
    cv2.fillConvexPoly(expected, np.round(hull).astype(np.int32).reshape(-1, 2), 1)
    grow = max(3, 2 * round(0.08 * edge) + 1)
    expected = cv2.dilate(expected, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (grow, grow)))
    return float((patch & (1 - expected)).sum()) / max(1.0, float(patch.sum()))


def _lean_at_middle(patch: Image, offset: tuple[int, int],
                    lean_at: Callable[[FloatArray], FloatArray]) -> FloatArray:
    """The camera's lean (pixels per pixel of height) at the middle of the body ``patch``."""
    rows, columns = np.nonzero(patch)
    return np.asarray(lean_at(np.array([columns.mean() + offset[0],
                                        rows.mean() + offset[1]])), np.float64)


def _by_nearest_top(patch: Image, tops: list[TopFace], sweep: FloatArray) -> list[Image]:
    """The body ``patch`` cut into the dice whose tops are ``tops`` (masks at the patch's
    offset): each pixel goes to the die whose body is nearest, a die's body being its top
    swept towards the camera by ``-sweep`` (``sweep``: the camera's lean times the edge, px;
    its side faces show there), its top's own pixels its alone. Tops that are empty are no
    die; with fewer than two left, the body is cut by :func:`_split` into as many pieces."""
    masks = [face.mask for face in tops if face.mask.any()]
    if len(masks) < 2:
        return _split(patch, len(tops))
    owner_of = np.full(patch.shape, -1, np.int32)
    for number, mask in enumerate(masks):
        owner_of[(dilate_along(mask, -sweep) > 0) & (owner_of < 0)] = number
    for number, mask in enumerate(masks):
        owner_of[mask > 0] = number
    seeds = (owner_of < 0).astype(np.uint8)
    # Each seed pixel is its own label; the label of the nearest seed pixel names its die.
    _, labels = cv2.distanceTransformWithLabels(seeds, cv2.DIST_L2, cv2.DIST_MASK_5,
                                                labelType=cv2.DIST_LABEL_PIXEL)
    owner = np.zeros(int(labels.max()) + 1, np.int32)
    owner[labels[seeds == 0]] = owner_of[seeds == 0]
    nearest = owner[labels]
    return [patch & (nearest == number).astype(np.uint8) for number in range(len(masks))]


#: The seed of the k-means that cuts touching dice apart (:func:`_split`).
KMEANS_SEED = 1


def _split(mask: Image, parts: int) -> list[Image]:
    """``mask`` cut into ``parts`` compact pieces (k-means on its pixels' places)."""
    if parts <= 1:
        return [mask]
    rows, columns = np.nonzero(mask)
    if parts == 2:
        # Two dice face to face: their tops make a rectangle twice as long as wide, cut
        # across its middle.
        points = np.column_stack([columns, rows]).astype(np.float32)
        (x, y), (width, height), angle = cv2.minAreaRect(points)
        long, short = max(width, height) + 1.0, min(width, height) + 1.0
        if 1.6 <= long / short <= 2.5:
            turn = math.radians(angle if width >= height else angle + 90.0)
            along = (columns - x) * math.cos(turn) + (rows - y) * math.sin(turn)
            pieces = []
            for side in (along < 0, along >= 0):
                piece = np.zeros_like(mask)
                piece[rows[side], columns[side]] = 1
                pieces.append(piece)
            return pieces
    points = np.column_stack([columns, rows]).astype(np.float32)
    if len(points) < parts:
        return [mask]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.5)
    # k-means starts from OpenCV's global random state: seeded here, the same frame reads the
    # same whatever was read before it.
    cv2.setRNGSeed(KMEANS_SEED)
    _, labels, _ = cv2.kmeans(points, parts, None, criteria, 3,  # type: ignore[call-overload]
                              cv2.KMEANS_PP_CENTERS)
    pieces = []
    for part in range(parts):
        piece = np.zeros_like(mask)
        chosen = labels.ravel() == part
        piece[rows[chosen], columns[chosen]] = 1
        pieces.append(piece)
    return pieces


def _face(config: DiceConfig, top: Image, offset: tuple[int, int], ppm: float,
          upright: bool = True) -> TopFace:
    """The largest piece of ``top`` as a face, with whether it is a flat die's square top."""
    count, labels, stats, _ = cv2.connectedComponentsWithStats(top, connectivity=8)
    if count <= 1:
        return TopFace(top, offset, ((0.0, 0.0), (0.0, 0.0), 0.0), False, "no top face")
    best = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    piece = (labels == best).astype(np.uint8)
    contours, _ = cv2.findContours(piece, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    (x, y), (width, height), angle = cv2.minAreaRect(contours[0])
    # minAreaRect measures between pixel centres; a pixel's extent adds one.
    width, height = width + 1.0, height + 1.0
    long, short = max(width, height), min(width, height)
    fill = float(piece.sum()) / max(1.0, width * height)
    low, high = (edge * ppm for edge in config.edge_mm)
    why = ""
    if not upright:
        why = "sweep leaning"
    elif long - short > config.square_tolerance * long:
        why = "top no square"
    elif fill < config.least_fill:
        why = "top unfilled"
    elif not 0.9 * low <= math.sqrt(width * height) <= 1.2 * high:
        why = "top size"
    rect = ((x + offset[0], y + offset[1]), (width, height), angle)
    return TopFace(piece, offset, rect, not why, why)


__all__ = ["TopFace", "top_faces"]
