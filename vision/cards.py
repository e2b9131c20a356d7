"""Reading the card face up on a discard spot: where the top card lies, and its rank.

:func:`read_discard_in_frame` warps just the spot from the camera frame through the mat's
homography at ``CardConfig.pixels_per_mm`` (a card lies flat, so the warp undoes the camera's
tilt exactly), and :func:`read_discard` reads that image in three steps:

1. **The top card.** A poker card is a 63 x 88 mm rectangle. The top card of a pile is the one
   whose whole outline shows: its edges stand against the spot's felt or against the cards
   under it (a card's edge always shows a thin line or shadow), while a card beneath has part
   of its outline hidden under the top one. A card's sides are straight lines 63 and 88 mm
   long, so its turn is one of the straight lines' in view (:func:`line_turns`); at each of
   those turns every place is scored by the *weakest* of the eight half-sides of the card's
   outline there, on the share of its length where the image shows a straight edge along it
   (content inside a card, pips and pictures, has edges every way, a card's side one way);
   the best is then fitted to the card's sides at full detail (:func:`refine_pose`). Where
   the best score is under ``least_outline``, no outline is whole: a white card lying on a
   white card may show no edge there at all (both beyond the camera's range), so a card is
   also sought whose sides show an edge but for a few half-sides lying in blank white
   (:func:`unseen_side_poses`); of those, the one read most surely is taken (a card under
   another lacks a corner's index), never surely. Where there is none, the spot holds no card.
2. **Upright face.** The card is cut out of the view at its turn, long side down; either way up
   reads the same, as cards are printed point-symmetric.
3. **Rank** (:mod:`vision.card_ranks` reads the corner index and the middle, :mod:`vision.card_pips`
   counts the pips, :mod:`vision.card_judge` weighs them): the card turned half round is the
   same image turned, so one ink map serves both corners. The confidence says how well
   readings that fail in different ways agree; anything else is unsure, and the panel asks.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from contract.observation import CardReading
from vision.arrays import FloatArray, Image
from vision.card_judge import judge
from vision.card_pips import PipConfig, PipCount, count_pips
from vision.card_ranks import (
    CentreRead,
    IndexRead,
    RankConfig,
    both_ways,
    ink_map,
    read_centre,
    read_index,
)
from vision.markers import BoardLocation
from vision.rectify import TopView, rectify_window

#: A poker card, width x height (mm).
CARD_SIZE_MM: tuple[float, float] = (63.0, 88.0)


@dataclass(frozen=True)
class CardConfig:
    """How the top card is found and read. The spot is warped from the frame at
    ``pixels_per_mm`` with ``margin_mm`` around it and searched at ``search_pixels_per_mm``;
    each half-side's edge is measured over ``side_share`` of it (clear of the rounded
    corners), ``edge_tolerance_mm`` either side of the line: a pixel is on an edge where the
    gradient across the side exceeds the gradient along it by ``edge_level`` (8-bit levels
    per search pixel). A card's weakest half-side shows an edge along ``least_outline`` of
    its length; the pose is then refined within ``refine_mm`` (:func:`refine_pose`). Only the
    turns of the straight lines in view are tried (:func:`line_turns`): the ``line_turns``
    strongest turns, ``distinct_deg`` apart, of lines at least ``line_mm`` long (a card's side
    is one), each with the long side either way, the ``first_lines`` strongest first and the
    others only where no outline there shows ``whole_outline``; ``angle_step_deg`` steps at
    every turn are the slower exhaustive search. ``rank`` reads the face."""

    pixels_per_mm: float = 6.0
    margin_mm: float = 15.0
    search_pixels_per_mm: float = 1.5
    angle_step_deg: float = 3.0
    side_share: float = 0.36
    edge_tolerance_mm: float = 0.5
    edge_level: float = 3.0
    least_outline: float = 0.6
    refine_mm: float = 2.5
    line_mm: float = 30.0
    line_turns: int = 6
    first_lines: int = 3
    whole_outline: float = 0.9
    distinct_deg: float = 1.5
    rank: RankConfig = field(default_factory=RankConfig)
    pips: PipConfig = field(default_factory=PipConfig)
    #: Confidences of the outcomes: both readings agree; one reading alone; none.
    agree_confidence: float = 0.97
    alone_confidence: float = 0.4
    unread_confidence: float = 0.15
    #: A card told by its structure alone where a reading that fails otherwise cannot back
    #: it (:func:`vision.card_judge.judge`): read, but confirmed on the panel.
    shape_confidence: float = 0.6
    #: A white card on a white card may show no edge where it lies on the other (both white
    #: beyond the camera's range): where no outline is whole, a card is also sought whose
    #: half-sides show an edge along ``least_outline`` of their length, but for at most
    #: ``unseen_sides`` of them lying in blank white instead (flat, at least ``white_share``
    #: of the spot's white), edge and blank together along ``unseen_outline`` of each; the
    #: ``unseen_candidates`` best such places are read, and the one read most surely is taken
    #: at no more than ``unseen_confidence`` (the panel confirms it).
    unseen_sides: int = 4
    white_share: float = 0.85
    unseen_outline: float = 0.8
    unseen_candidates: int = 4
    unseen_confidence: float = 0.6


@dataclass(frozen=True)
class CardPose:
    """Where the top card lies in the crop: its middle (pixels at the search scale), its turn
    (degrees, the long side's direction from the image's y axis) and its outline's score."""

    centre: tuple[float, float]
    angle_deg: float
    score: float


def _turned(gray: FloatArray, angle_deg: float) -> FloatArray:
    """The image turned by ``angle_deg`` about its middle."""
    height, width = gray.shape
    turn = cv2.getRotationMatrix2D((width / 2 - 0.5, height / 2 - 0.5), angle_deg, 1.0)
    return np.asarray(cv2.warpAffine(gray, turn, (width, height), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))


def _band(config: CardConfig) -> int:
    """The width (search pixels) of the band either side of a side's line."""
    return 2 * max(1, round(config.edge_tolerance_mm * config.search_pixels_per_mm)) + 1


def _rotated_edges(config: CardConfig, gray: FloatArray, angle_deg: float
                   ) -> tuple[FloatArray, FloatArray]:
    """The image turned by ``angle_deg`` about its middle, and where it shows a straight
    edge across rows (horizontal sides) and across columns (vertical sides): the gradient
    across stronger than along by ``edge_level``, within ``edge_tolerance_mm`` of the line."""
    return _edges(config, _turned(gray, angle_deg))


def _edges(config: CardConfig, turned: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Where ``turned`` shows a straight edge across rows and across columns
    (:func:`_rotated_edges`)."""
    # The gradients' difference is compared with four times the level rather than divided by
    # the Sobel kernel's 4: a power of two, so the same comparison bit for bit, and cheaper.
    steeper = (np.abs(cv2.Sobel(turned, cv2.CV_32F, 0, 1, ksize=3))
               - np.abs(cv2.Sobel(turned, cv2.CV_32F, 1, 0, ksize=3)))
    level = 4 * config.edge_level
    size = _band(config)
    # Dilated as bytes (0 or 1, as exact as floats and lighter), then made floats to average
    # (a box average of bytes straight to floats scales by a rounder 1/n: not the same).
    rows = cv2.dilate((steeper > level).view(np.uint8), np.ones((size, 1), np.uint8))
    columns = cv2.dilate((steeper < -level).view(np.uint8), np.ones((1, size), np.uint8))
    return rows.astype(np.float32), columns.astype(np.float32)


def _half_sides(config: CardConfig, rows: FloatArray, columns: FloatArray
                ) -> tuple[list[FloatArray], tuple[slice, slice]] | None:
    """For every place of the card's middle, each of its eight half-sides' share of length
    marked in ``rows`` (horizontal sides) or ``columns`` (vertical sides), over the places
    ``inner`` where the card stays in the image (None where there are none)."""
    scale = config.search_pixels_per_mm
    half_w, half_h = (side * scale / 2 for side in CARD_SIZE_MM)
    length_w = max(3, round(config.side_share * CARD_SIZE_MM[0] * scale))
    length_h = max(3, round(config.side_share * CARD_SIZE_MM[1] * scale))
    along_rows = cv2.blur(rows, (length_w, 1))
    along_columns = cv2.blur(columns, (1, length_h))
    height, width = rows.shape
    reach_x, reach_y = math.ceil(half_w) + 1, math.ceil(half_h) + 1
    if width <= 2 * reach_x or height <= 2 * reach_y:
        return None
    inner = (slice(reach_y, height - reach_y), slice(reach_x, width - reach_x))
    quarter_w, quarter_h = half_w / 2, half_h / 2

    def shifted(image: FloatArray, dx: float, dy: float) -> FloatArray:
        x, y = round(dx), round(dy)
        return image[inner[0].start + y:inner[0].stop + y, inner[1].start + x:inner[1].stop + x]

    sides = [shifted(along_rows, sx * quarter_w, sy * half_h)
             for sx in (-1, 1) for sy in (-1, 1)]
    sides += [shifted(along_columns, sx * half_w, sy * quarter_h)
              for sx in (-1, 1) for sy in (-1, 1)]
    return sides, inner


def _outline_scores(config: CardConfig, rows: FloatArray, columns: FloatArray
                    ) -> FloatArray:
    """For every place of the card's middle: the weakest of its eight half-sides' share of
    length showing an edge (zero where the card would leave the image)."""
    found = _half_sides(config, rows, columns)
    if found is None:
        return np.zeros((0, 0), np.float32)
    sides, inner = found
    scores = np.zeros_like(rows)
    scores[inner] = _least(sides) + 0.05 * _mean(sides)
    return scores


def _least(planes: list[FloatArray]) -> FloatArray:
    """The elementwise least of ``planes`` (as ``np.minimum.reduce``, without stacking)."""
    least = planes[0].copy()
    for plane in planes[1:]:
        np.minimum(least, plane, out=least)
    return least


def _mean(planes: list[FloatArray]) -> FloatArray:
    """The elementwise mean of ``planes``, summed in their order as ``np.mean(planes,
    axis=0)`` sums them (so bit for bit the same), without stacking them."""
    total = planes[0].copy()
    for plane in planes[1:]:
        total += plane
    return total / np.float32(len(planes)) if total.dtype == np.float32 else total / len(planes)


def _best_at(config: CardConfig, gray: FloatArray, angles: FloatArray) -> CardPose:
    """The best outline over ``angles``: its middle is given in the unturned image."""
    best = CardPose((0.0, 0.0), 0.0, -1.0)
    height, width = gray.shape
    for angle in angles:
        rows, columns = _rotated_edges(config, gray, float(angle))
        scores = _outline_scores(config, rows, columns)
        if scores.size == 0:
            continue
        y, x = np.unravel_index(int(np.argmax(scores)), scores.shape)
        score = float(scores[y, x])
        if score > best.score:
            # Back from the turned image to the crop.
            turn = cv2.getRotationMatrix2D((width / 2 - 0.5, height / 2 - 0.5), float(angle), 1)
            back = cv2.invertAffineTransform(turn)
            point = back @ np.array([float(x), float(y), 1.0])
            best = CardPose((float(point[0]), float(point[1])), float(angle), score)
    return best


def line_turns(config: CardConfig, small: FloatArray) -> FloatArray:
    """The turns (degrees, 0..180) worth trying for a card in ``small`` (gray, at the search
    scale): a card's four sides are straight lines at least 63 mm long, so its turn is one of
    the lines' in view. Each of the ``line_turns`` strongest directions of lines ``line_mm``
    long (a Hough transform of the image's edges, lines taken by their votes, a direction
    within ``distinct_deg`` of a stronger one left out) gives two turns: the card's long side
    along it or across it."""
    edges = cv2.Canny(np.clip(small, 0, 255).astype(np.uint8), 20, 50)
    votes = max(10, round(config.line_mm * config.search_pixels_per_mm))
    lines = cv2.HoughLines(edges, 1, math.pi / 360, votes)
    found: list[float] = []
    for theta in () if lines is None else np.degrees(lines[:, 0, 1]) % 90.0:
        if all(abs((theta - other + 45.0) % 90.0 - 45.0) > config.distinct_deg
               for other in found):
            found.append(float(theta))
            if len(found) == config.line_turns:
                break
    # A line's normal at theta from the x axis is a side at theta from the y axis: the turn
    # the outline search measures.
    return np.array([turn for theta in found for turn in (theta, theta + 90.0)], np.float64)


def search_image(config: CardConfig, crop: Image, pixels_per_mm: float) -> FloatArray:
    """``crop`` (BGR at ``pixels_per_mm``) in gray at the search scale, lightly smoothed."""
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY).astype(np.float32)
    factor = config.search_pixels_per_mm / pixels_per_mm
    small = cv2.resize(gray, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    return np.asarray(cv2.GaussianBlur(small, (0, 0), 0.7))


def _best_of_lines(config: CardConfig, small: FloatArray, turns: FloatArray) -> CardPose:
    """The best outline at ``turns`` (two a line direction, strongest lines first): the
    strongest ``first_lines`` directions are tried first, and the rest only where no outline
    there showed ``whole_outline`` of its weakest half-side (a card on top shows its whole
    outline; one whose sides are partly hidden, or no card, falls short)."""
    first = 2 * config.first_lines
    pose = _best_at(config, small, turns[:first])
    if pose.score >= config.whole_outline or len(turns) <= first:
        return pose
    rest = _best_at(config, small, turns[first:])
    return rest if rest.score > pose.score else pose


def find_card(config: CardConfig, crop: Image, pixels_per_mm: float, exhaustive: bool = False
              ) -> CardPose | None:
    """The top card's pose in ``crop`` (BGR, a discard spot at ``pixels_per_mm``), centre in
    crop pixels, or None when the spot holds no card. Only the turns of the lines in view
    are tried (:func:`line_turns`), or every ``angle_step_deg`` when ``exhaustive``."""
    small = search_image(config, crop, pixels_per_mm)
    factor = config.search_pixels_per_mm / pixels_per_mm
    if exhaustive:
        pose = _best_at(config, small, np.arange(0.0, 180.0, config.angle_step_deg))
    else:
        pose = _best_of_lines(config, small, line_turns(config, small))
    if pose.score < config.least_outline:
        return None
    centre = (pose.centre[0] / factor, pose.centre[1] / factor)
    pose = CardPose(centre, pose.angle_deg % 180.0, pose.score)
    return pose


def _blank(config: CardConfig, turned: FloatArray, white: float
           ) -> tuple[FloatArray, FloatArray]:
    """Where ``turned`` is blank white (flat, at least ``white_share`` of ``white``) all
    across the band of a horizontal side's line (rows) and of a vertical side's (columns)."""
    level = 4 * config.edge_level
    flat = ((np.abs(cv2.Sobel(turned, cv2.CV_32F, 0, 1, ksize=3)) <= level)
            & (np.abs(cv2.Sobel(turned, cv2.CV_32F, 1, 0, ksize=3)) <= level)
            & (turned >= config.white_share * white)).view(np.uint8)
    size = _band(config)
    rows = cv2.erode(flat, np.ones((size, 1), np.uint8))
    columns = cv2.erode(flat, np.ones((1, size), np.uint8))
    return rows.astype(np.float32), columns.astype(np.float32)


def _unseen_scores(config: CardConfig, turned: FloatArray, white: float) -> FloatArray:
    """For every place of the card's middle in ``turned``: the weakest of its half-sides'
    share showing an edge or blank white, where at most ``unseen_sides`` of them fall short
    of ``least_outline`` of edge alone (zero elsewhere)."""
    edges = _half_sides(config, *_edges(config, turned))
    blanks = _half_sides(config, *_blank(config, turned, white))
    scores = np.zeros_like(turned)
    if edges is None or blanks is None:
        return scores
    inner = edges[1]
    seen = sum((edge >= config.least_outline).astype(np.float32) for edge in edges[0])
    either = [np.minimum(edge + blank, 1.0) for edge, blank in
              zip(edges[0], blanks[0], strict=True)]
    whole = seen >= len(either) - config.unseen_sides
    scores[inner] = np.where(whole, _least(either) + 0.05 * _mean(edges[0]), 0.0)
    return scores


def unseen_side_poses(config: CardConfig, crop: Image, pixels_per_mm: float
                      ) -> list[CardPose]:
    """Where a card whose outline is whole but for sides lying in blank white may lie in
    ``crop`` (:data:`CardConfig.unseen_sides`), best first: at each line's turn the best
    place and the best one a card's width away from it (a card under another lies at the
    same turn sometimes), each of at least ``unseen_outline``."""
    small = search_image(config, crop, pixels_per_mm)
    factor = config.search_pixels_per_mm / pixels_per_mm
    white = float(np.percentile(small, 99))
    height, width = small.shape
    apart = CARD_SIZE_MM[0] * config.search_pixels_per_mm / 2
    poses = []
    for angle in line_turns(config, small):
        scores = _unseen_scores(config, _turned(small, float(angle)), white)
        turn = cv2.getRotationMatrix2D((width / 2 - 0.5, height / 2 - 0.5), float(angle), 1)
        back = cv2.invertAffineTransform(turn)
        for _ in range(2):
            y, x = np.unravel_index(int(np.argmax(scores)), scores.shape)
            score = float(scores[y, x])
            if score < config.unseen_outline:
                break
            point = back @ np.array([float(x), float(y), 1.0])
            poses.append(CardPose((float(point[0]) / factor, float(point[1]) / factor),
                                  float(angle) % 180.0, score))
            cv2.circle(scores, (int(x), int(y)), round(apart), 0.0, -1)
    poses.sort(key=lambda pose: -pose.score)
    distinct: list[CardPose] = []
    for pose in poses:
        if all(math.dist(pose.centre, other.centre) > 5 * pixels_per_mm
               or abs((pose.angle_deg - other.angle_deg + 90.0) % 180.0 - 90.0) > 5.0
               for other in distinct):
            distinct.append(pose)
    return distinct[:config.unseen_candidates]


def _corners(pose: CardPose, pixels_per_mm: float, share: float,
             size_mm: tuple[float, float] = CARD_SIZE_MM) -> FloatArray:
    """The corners (crop pixels) of a rectangle of ``size_mm`` (a card's by default) lying
    as the card does, its sides scaled by ``share``."""
    turn = math.radians(pose.angle_deg)
    # The turned image had the card upright; its axes in the crop are turned back.
    axis_x = np.array([math.cos(turn), math.sin(turn)])
    axis_y = np.array([-math.sin(turn), math.cos(turn)])
    half_w, half_h = (side * pixels_per_mm * share / 2 for side in size_mm)
    centre = np.array(pose.centre)
    return np.array([centre + sx * half_w * axis_x + sy * half_h * axis_y
                     for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1))])


def upright_face(crop: Image, pose: CardPose, pixels_per_mm: float, half_turn: bool = False
                 ) -> Image:
    """The card cut out of ``crop`` upright (63 x 88 mm at ``pixels_per_mm``), turned half
    round when ``half_turn``."""
    corners = _corners(pose, pixels_per_mm, 1.0).astype(np.float32)
    if half_turn:
        corners = np.roll(corners, 2, axis=0)
    width, height = (round(side * pixels_per_mm) for side in CARD_SIZE_MM)
    target = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32) - 0.5
    transform = cv2.getAffineTransform(corners[:3], target[:3])
    return np.asarray(cv2.warpAffine(crop, transform, (width, height), flags=cv2.INTER_LINEAR,
                                     borderMode=cv2.BORDER_REPLICATE))


def refine_pose(config: CardConfig, crop: Image, pose: CardPose, pixels_per_mm: float
                ) -> CardPose:
    """``pose`` fitted to the card's sides at the crop's full detail: the card is cut out
    upright with ``refine_mm`` to spare, each half-side's line is found where the edge across
    it is strongest within ``refine_mm``, and the middle and the turn are moved to fit them."""
    spare = config.refine_mm
    width, height = CARD_SIZE_MM
    grown = (width + 2 * spare, height + 2 * spare)
    scale = pixels_per_mm
    outer = CardPose(pose.centre, pose.angle_deg, pose.score)
    corners = _corners(outer, pixels_per_mm, 1.0, grown).astype(np.float32)
    size = (round(grown[0] * scale), round(grown[1] * scale))
    target = np.array([[0, 0], [size[0], 0], [size[0], size[1]]], np.float32) - 0.5
    upright = cv2.warpAffine(crop, cv2.getAffineTransform(corners[:3], target),
                             size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    gray = cv2.GaussianBlur(cv2.cvtColor(upright, cv2.COLOR_BGR2GRAY).astype(np.float32),
                            (0, 0), 0.8)
    down = np.abs(cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3))
    across = np.abs(cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3))
    reach = round(2 * spare * scale)

    def line(edges: FloatArray, start: int, stop: int, low: int, axis: int) -> float:
        band = edges[start:stop, low:low + reach] if axis == 1 else \
            edges[low:low + reach, start:stop]
        profile = band.mean(axis=0 if axis == 1 else 1)
        return float(low + int(np.argmax(profile))) / scale - spare

    quarter_w, quarter_h = round(grown[0] * scale / 4), round(grown[1] * scale / 4)
    middle_w, middle_h = size[0] // 2, size[1] // 2
    span_w, span_h = round(0.3 * width * scale), round(0.3 * height * scale)
    left = [line(across, y - span_h // 2, y + span_h // 2, 0, 1)
            for y in (quarter_h, middle_h + quarter_h)]
    right = [line(across, y - span_h // 2, y + span_h // 2, size[0] - reach, 1) - width
             for y in (quarter_h, middle_h + quarter_h)]
    top = [line(down, x - span_w // 2, x + span_w // 2, 0, 0)
           for x in (quarter_w, middle_w + quarter_w)]
    bottom = [line(down, x - span_w // 2, x + span_w // 2, size[1] - reach, 0) - height
              for x in (quarter_w, middle_w + quarter_w)]
    shift_x = (sum(left) + sum(right)) / 4
    shift_y = (sum(top) + sum(bottom)) / 4
    # A side's line lower down lying further right turns the card clockwise in the view.
    lean_long = ((left[1] - left[0]) + (right[1] - right[0])) / 2 / (height / 2)
    lean_short = ((top[0] - top[1]) + (bottom[0] - bottom[1])) / 2 / (width / 2)
    turn = math.degrees(math.atan((lean_long + lean_short) / 2))
    axis_turn = math.radians(pose.angle_deg)
    axis_x = np.array([math.cos(axis_turn), math.sin(axis_turn)])
    axis_y = np.array([-math.sin(axis_turn), math.cos(axis_turn)])
    centre = np.array(pose.centre) + (shift_x * axis_x + shift_y * axis_y) * scale
    return CardPose((float(centre[0]), float(centre[1])), pose.angle_deg - turn, pose.score)


@dataclass(frozen=True)
class FaceRead:
    """What the reader sees on a card cut upright: the face, its ink, the middle's pips
    and picture, and each corner's index (the top-left one, then the bottom-right one)."""

    face: Image
    ink: FloatArray
    centre: CentreRead
    pips: PipCount
    corners: tuple[IndexRead, IndexRead]


def read_face(config: CardConfig, face: Image, pixels_per_mm: float) -> FaceRead:
    """Read ``face`` (upright, at ``pixels_per_mm``): the card turned half round is the
    same image turned, so its ink is the ink turned too (one ink map, not two)."""
    rank = config.rank
    ink = ink_map(face, pixels_per_mm, rank.white_mm, rank.inset_mm, rank.lift_mm)
    turned = np.ascontiguousarray(ink[::-1, ::-1])
    return FaceRead(face, ink, read_centre(rank, ink, pixels_per_mm),
                    count_pips(config.pips, ink, face, pixels_per_mm),
                    (read_index(rank, ink, pixels_per_mm),
                     read_index(rank, turned, pixels_per_mm)))


def read_discard(config: CardConfig, crop: Image, pixels_per_mm: float,
                 origin_mm: tuple[float, float] = (0.0, 0.0)) -> CardReading | None:
    """The card on top of the pile in ``crop`` (BGR uint8, a discard spot seen from above at
    ``pixels_per_mm``; ``origin_mm`` is the mat point of its top-left corner), or None when
    no card lies there."""
    if crop.ndim != 3 or crop.shape[2] != 3 or crop.size == 0:
        raise ValueError(f"a discard spot is a BGR image, not an array of shape {crop.shape}")
    pose = find_card(config, crop, pixels_per_mm)
    if pose is None:
        return _read_unseen_sides(config, crop, pixels_per_mm, origin_mm)
    pose = refine_pose(config, crop, pose, pixels_per_mm)
    rank, confidence = _read_at(config, crop, pose, pixels_per_mm)
    return _reading(rank, confidence, pose, pixels_per_mm, origin_mm)


def _read_at(config: CardConfig, crop: Image, pose: CardPose, pixels_per_mm: float
             ) -> tuple[str | None, float]:
    """The rank and confidence of the card lying at ``pose`` in ``crop``."""
    seen = read_face(config, upright_face(crop, pose, pixels_per_mm), pixels_per_mm)
    return judge(config, seen.centre, both_ways(*seen.corners), seen.pips)


def _read_unseen_sides(config: CardConfig, crop: Image, pixels_per_mm: float,
                       origin_mm: tuple[float, float]) -> CardReading | None:
    """Where no card's outline is whole: the card whose outline is whole but for sides in
    blank white (:func:`unseen_side_poses`) that reads most surely (a card under it lacks
    a corner, so reads less surely), at no more than ``unseen_confidence``; None where there
    is none."""
    best: tuple[str | None, float, CardPose] | None = None
    for pose in unseen_side_poses(config, crop, pixels_per_mm):
        pose = refine_pose(config, crop, pose, pixels_per_mm)
        rank, confidence = _read_at(config, crop, pose, pixels_per_mm)
        if best is None or confidence > best[1]:
            best = (rank, confidence, pose)
    if best is None:
        return None
    rank, confidence, pose = best
    return _reading(rank, min(confidence, config.unseen_confidence), pose, pixels_per_mm,
                    origin_mm)


def _reading(rank: str | None, confidence: float, pose: CardPose, pixels_per_mm: float,
             origin_mm: tuple[float, float]) -> CardReading:
    """The reading of the card at ``pose`` (crop pixels; the crop's top-left corner is
    ``origin_mm`` on the mat)."""
    middle = (origin_mm[0] + (pose.centre[0] + 0.5) / pixels_per_mm,
              origin_mm[1] + (pose.centre[1] + 0.5) / pixels_per_mm)
    return CardReading(rank, confidence, middle)


def read_discard_in_view(config: CardConfig, view: TopView, box: tuple[int, int, int, int]
                         ) -> CardReading | None:
    """The card in the window ``box`` (pixels x0, y0, x1, y1) of a top view."""
    x0, y0, x1, y1 = box
    scale = view.pixels_per_mm
    origin = (view.origin_mm[0] + x0 / scale, view.origin_mm[1] + y0 / scale)
    return read_discard(config, np.ascontiguousarray(view.image[y0:y1, x0:x1]), scale, origin)


def read_discard_in_frame(config: CardConfig, image: Image, location: BoardLocation,
                          bounds_mm: tuple[float, float, float, float]) -> CardReading | None:
    """The card on the discard spot ``bounds_mm`` (mat mm: left, top, right, bottom) of a
    camera frame, warped from the frame itself at ``config.pixels_per_mm`` with
    ``config.margin_mm`` around it (a card laid carelessly reaches over the spot's edge)."""
    left, top, right, bottom = bounds_mm
    margin = config.margin_mm
    bounds_mm = (left - margin, top - margin, right + margin, bottom + margin)
    view = rectify_window(image, location, bounds_mm, config.pixels_per_mm,
                          interpolation=cv2.INTER_LINEAR)
    height, width = view.image.shape[:2]
    return read_discard_in_view(config, view, (0, 0, width, height))
