"""A playing card's rank from its face, upright at a known scale: the corner index and the pips.

Two readings that fail in different ways, so that their agreement is the confidence:

* **Pips.** A number card's pips are its rank, whatever the font or the suit: in the face's
  middle (clear of the corner indices), the blobs of ink of one size are counted. An ace has one
  pip, a court card or a joker a picture: ink in blobs far larger than a pip, or many pieces.
* **The corner index.** The topmost glyph of the top-left corner (a card read either way up
  shows an upright index there, as cards are printed point-symmetric) is compared with glyph
  templates drawn in several typefaces. A joker's corner often spells JOKER down the side:
  four or more letters stacked where a rank has one glyph and a suit.

Ink is measured against the card's own white where it lies (a closing of the face's darkest
channel), so a lamp's reflection or a shadow across the card does not read as ink, and glare
that washes the ink out leaves too little to read: the card is then reported unsure.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.card_columns import FrameLine, column_ink
from vision.card_glyphs import best_matches, glyph_of, glyph_templates, mark_templates
from vision.card_letters import Outline, letter_scores, outline


@dataclass(frozen=True)
class RankConfig:
    """How a face is read. Ink is a pixel's darkness against the card's white within
    ``white_mm`` (``ink_level`` and more counts), ``inset_mm`` inside the card's outline,
    raised to full contrast where a lamp's reflection thinned all ink within ``lift_mm``.
    Pips are looked for inside ``pip_area_mm`` (left, top, right, bottom of the upright
    face); blobs smaller than ``least_pip_mm2`` are specks, blobs whose ink fills less than
    ``least_fill`` of their box are frame lines, a blob inside another's box is part of it
    (a framed ace), a small blob cut by the area's edge is a corner index's sliver; the pips
    are the blobs within ``pip_sizes`` of the median blob's area. A blob larger than
    ``picture_mm2`` beside others, or more than ``most_pips`` blobs, is a picture; a court
    card's picture holds a figure of ``court_figure_mm2`` or more (no pip is that large). The index
    is the topmost glyph starting within ``index_start_mm`` of the card's side in
    ``index_area_mm`` (the top of ``joker_area_mm``; both reach ``index_wide_mm`` from the
    side where the glyph runs out of them, as a wide 10 does) filling ``least_glyph_fill``
    of its box (no thin arc of the card's edge) and at least
    ``least_glyph_height_mm`` tall, its parts at least ``least_glyph_mm2`` (lines down the
    corner ``frame_line_mm`` long, a picture's frame, left out where within ``line_mm``
    thick or blank on one side: at most ``line_side_ink`` of ink within ``line_side_mm`` of
    it; a suit's symbol beside a court's letter left apart), those standing on its line
    and less than ``glyph_gap_mm`` apart joined (a blob filling more than
    ``most_glyph_fill`` of its box is a patch of something else, no glyph, unless it is a
    bar three times taller than wide: a plain 1); a glyph run
    together with its suit is cut at its waist, where its ink is narrower than
    ``waist_share`` of its typical row, or at a neck narrower than ``neck_share`` of the widest
    rows above and below it where a suit lies under it; else the mark under it starts within
    ``below_mm`` of its foot. The JOKER column holds ``joker_letters`` glyphs or more in
    ``joker_area_mm``, each less than ``letter_gap_mm`` below the one above, or a word (one
    letter's height wide, at most ``word_width_mm``, clear of the card's edge) at least
    ``word_mm`` tall and three times taller than wide (at least ``long_word_mm`` tall, whatever
    lies under its top: no glyph and its suit run together reach so far). A glyph matches a
    template with a correlation of ``least_match`` (``sure_match`` for full confidence), by a
    margin of ``sure_margin`` over the best other rank, less ``aspect_weight`` times how far
    their boxes' shapes differ (log of the ratio of their height over width). The mark under the
    glyph is a suit where it matches a suit better than a letter by ``least_suit`` (a court with
    no mark found under its letter needs ``clear_match`` and ``clear_margin``). A corner whose
    column holds less ink than ``blank_mm2`` shows no index (specks, the card's edge). The pips'
    count is backed by the index where its rank matches at ``sure_match`` and within
    ``backing_slack`` of the best; a number card's count standing in its columns, where its
    rank matches at ``least_match``, within ``backing_slack`` of the best, and by
    ``rival_margin`` better than each rank a washed middle pip could leave
    (:func:`vision.card_pips.rivals`)."""

    white_mm: float = 16.0
    lift_mm: float = 12.0
    inset_mm: float = 0.7
    ink_level: float = 0.22
    pip_area_mm: tuple[float, float, float, float] = (11.5, 7.0, 51.5, 81.0)
    least_pip_mm2: float = 6.0
    least_fill: float = 0.18
    pip_sizes: tuple[float, float] = (0.45, 2.2)
    picture_mm2: float = 300.0
    court_figure_mm2: float = 200.0
    most_pips: int = 11
    index_area_mm: tuple[float, float, float, float] = (0.0, 0.0, 11.0, 22.0)
    index_start_mm: float = 9.5
    index_wide_mm: float = 16.0
    least_glyph_fill: float = 0.12
    least_glyph_mm2: float = 1.2
    least_glyph_height_mm: float = 2.5
    frame_line_mm: float = 16.0
    line_side_mm: float = 0.7
    line_mm: tuple[float, float] = (0.4, 1.2)
    line_side_ink: float = 0.5
    waist_share: float = 0.35
    neck_share: float = 0.6
    below_mm: float = 6.0
    most_glyph_fill: float = 0.97
    glyph_gap_mm: float = 1.5
    joker_area_mm: tuple[float, float, float, float] = (0.0, 0.0, 11.0, 44.0)
    joker_letters: int = 4
    word_mm: float = 12.0
    long_word_mm: float = 18.0
    word_width_mm: float = 6.0
    letter_gap_mm: float = 3.0
    least_match: float = 0.45
    sure_match: float = 0.55
    sure_margin: float = 0.08
    aspect_weight: float = 0.3
    least_suit: float = 0.05
    court_suit: float = 0.2
    agree_match: float = 0.7
    backing_slack: float = 0.08
    rival_margin: float = 0.08
    clear_match: float = 0.85
    clear_margin: float = 0.3
    blank_mm2: float = 12.0


@dataclass(frozen=True)
class IndexRead:
    """The corner index: each rank's best match (correlation less the aspect's penalty),
    whether the corner spells JOKER, and how much more the mark under the glyph looks like
    a suit than like a letter (-1 where there is none)."""

    scores: tuple[tuple[str, float], ...]
    joker: bool
    suit_below: float = -1.0
    #: Each corner's own reading, where this one joins two (:func:`both_ways`): a letter
    #: and the suit under it must be seen in one corner, not each in another.
    corners: tuple[IndexRead, ...] = ()
    #: The glyph's box, height over width, and its parts (pieces of ink: two for a 10, or a
    #: letter with its suit beside it); 0 where no glyph was found or corners are joined.
    aspect: float = 0.0
    parts: int = 0
    #: The glyph's outline (a straight left stem tells a B from an 8); None where none.
    outline: Outline | None = None
    #: Each court letter's best match (:mod:`vision.card_letters`: B, D, R, V, F, H...).
    letters: tuple[tuple[str, float], ...] = ()
    #: The ink down the corner's column (mm2, where the index and its suit lie, a picture's
    #: frame lines left out; -1 where not measured): a few specks of the paper or the card's
    #: edge where no index is printed, far less than any rank's glyph and suit.
    column_mm2: float = -1.0

    def best(self) -> tuple[str | None, float, float]:
        """The best rank, its match and its margin over the next rank."""
        ranked = sorted(self.scores, key=lambda item: -item[1])
        if not ranked:
            return None, 0.0, 0.0
        return ranked[0][0], ranked[0][1], ranked[0][1] - ranked[1][1]


@dataclass(frozen=True)
class CentreRead:
    """The face's middle: the pips counted (0 when none), or a picture."""

    pips: int
    picture: bool
    ink_share: float
    #: The largest figure's area (mm2): a court's picture holds one far larger than a pip.
    largest_mm2: float = 0.0


def ink_map(face: Image, pixels_per_mm: float, white_mm: float, inset_mm: float = 0.0,
            lift_mm: float = 0.0) -> FloatArray:
    """Each pixel's darkness against the card's white around it (0 white .. 1 black), from
    the darkest of its channels so that red ink counts as much as black; nothing within
    ``inset_mm`` of the card's rounded outline (its edge, and what lies beyond it where the
    card was found a little off); with ``lift_mm``, ink washed by a lamp's reflection is
    raised to its full contrast again (:func:`_lifted`, over ``lift_mm``)."""
    # The channels' least, as ``face.min(axis=2)`` is, without numpy's slow short-axis reduction.
    darkest = np.minimum(np.minimum(face[..., 0], face[..., 1]), face[..., 2]).astype(np.float32)
    step = max(1, round(pixels_per_mm / 2))
    small = darkest[::step, ::step]
    size = max(3, round(white_mm * pixels_per_mm / step) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    white = cv2.morphologyEx(small, cv2.MORPH_CLOSE, kernel)
    white = cv2.GaussianBlur(white, (0, 0), size / 4)
    white = cv2.resize(white, (face.shape[1], face.shape[0]), interpolation=cv2.INTER_LINEAR)
    ink = np.clip(1.0 - darkest / np.maximum(white, 1.0), 0.0, 1.0)
    ink = ink * _interior(face.shape[:2], pixels_per_mm, inset_mm)
    if lift_mm > 0:
        ink = _lifted(ink, step, max(3, round(lift_mm * pixels_per_mm / step) | 1))
    return _without_border(ink, pixels_per_mm, inset_mm)


#: The ink a print shows where no lamp's reflection washes it (a pip's core reaches 0.8 or
#: more); the most glare is made up for four times over, and only where some ink stands
#: out of the card's grain (``LEAST_LIFTED``): plain white is never raised.
FULL_INK, MOST_LIFT, LEAST_LIFTED = 0.6, 4.0, 0.12


def _lifted(ink: FloatArray, step: int, size: int) -> FloatArray:
    """``ink`` made up for a lamp's reflection: a reflection on a glossy card adds the same
    light to the ink and to the white around it, so the ink's contrast falls by the same
    share over the whole reflection (a smooth patch far larger than a pip). Where the
    strongest ink within ``size`` (pixels at ``step``) falls short of :data:`FULL_INK`, the
    ink there is raised by that shortfall (at most :data:`MOST_LIFT` times): a washed pip
    keeps its whole shape, where a fixed level would keep only its core."""
    small = ink[::step, ::step]
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))
    strongest = cv2.GaussianBlur(cv2.dilate(small, kernel), (0, 0), size / 4)
    raised = np.clip(FULL_INK / np.maximum(strongest, FULL_INK / MOST_LIFT), 1.0, MOST_LIFT)
    gain = cv2.GaussianBlur(np.where(strongest >= LEAST_LIFTED, raised, 1.0).astype(np.float32),
                            (0, 0), 1.0)
    whole = cv2.resize(gain, (ink.shape[1], ink.shape[0]), interpolation=cv2.INTER_LINEAR)
    return np.asarray(np.minimum(ink * whole, 1.0), np.float32)


def _without_border(ink: FloatArray, pixels_per_mm: float, inset_mm: float,
                    level: float = 0.3, border_mm: float = 2.0) -> FloatArray:
    """``ink`` without a border printed round the face: a line of ink reaching along most
    of the card's width or height next to its edge is wiped within ``border_mm`` of the edge
    (an index close to it keeps its shape)."""
    dark = (ink >= level).astype(np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(dark, connectivity=8)
    height, width = ink.shape
    near = round((inset_mm + 0.5) * pixels_per_mm)
    band = round(border_mm * pixels_per_mm)
    edge = np.ones(ink.shape, bool)
    edge[band:height - band, band:width - band] = False
    wiped = ink.copy()
    for label in range(1, count):
        left, top, across, down, _ = stats[label]
        touches = left <= near or top <= near or left + across >= width - near or \
            top + down >= height - near
        if touches and (across > 0.6 * width or down > 0.6 * height):
            wiped[(labels == label) & edge] = 0.0
    return np.asarray(wiped)
@lru_cache(maxsize=8)
def _interior(shape: tuple[int, int], pixels_per_mm: float, inset_mm: float) -> FloatArray:
    """1 inside a card's outline inset by ``inset_mm`` (corners rounded 3 mm), else 0."""
    height, width = shape
    inset = round(inset_mm * pixels_per_mm)
    radius = round(3.0 * pixels_per_mm)
    mask = np.zeros(shape, np.float32)
    cv2.rectangle(mask, (inset, inset), (width - 1 - inset, height - 1 - inset), 1.0, -1)
    for x, y in ((0, 0), (width - 1, 0), (0, height - 1), (width - 1, height - 1)):
        corner_x = radius if x == 0 else width - 1 - radius
        corner_y = radius if y == 0 else height - 1 - radius
        square = (slice(min(y, corner_y), max(y, corner_y) + 1),
                  slice(min(x, corner_x), max(x, corner_x) + 1))
        mask[square] = 0.0
        cv2.circle(mask, (corner_x, corner_y), radius - inset, 1.0, -1)
    mask.setflags(write=False)
    return mask


def _blobs(mask: Image, least_pixels: float) -> list[tuple[int, int, int, int, int]]:
    """Connected blobs as (left, top, width, height, area) of at least ``least_pixels``."""
    count, _, stats, _ = cv2.connectedComponentsWithStats(mask.astype(np.uint8), connectivity=8)
    return [tuple(int(value) for value in stats[label])  # type: ignore[misc]
            for label in range(1, count) if stats[label, 4] >= least_pixels]


def _window(ink: FloatArray, area_mm: tuple[float, float, float, float],
            pixels_per_mm: float) -> FloatArray:
    left, top, right, bottom = (round(value * pixels_per_mm) for value in area_mm)
    return ink[top:bottom, left:right]


def read_centre(config: RankConfig, ink: FloatArray, pixels_per_mm: float) -> CentreRead:
    """Count the pips in the face's middle, or tell a picture."""
    window = _window(ink, config.pip_area_mm, pixels_per_mm)
    mask = window >= config.ink_level
    area = pixels_per_mm**2
    found = [blob for blob in _blobs(mask, config.least_pip_mm2 * area)
             if blob[4] >= config.least_fill * blob[2] * blob[3]]
    blobs = _figures(found)
    share = float(mask.mean()) if mask.size else 0.0
    if not blobs:
        return CentreRead(0, False, share)
    areas = np.array([blob[4] for blob in blobs], np.float64) / area
    largest = float(areas.max())
    if len(blobs) < len(found) and largest > config.picture_mm2:
        # A large figure framing others is a picture, not a decorated pip.
        return CentreRead(0, True, share, largest)
    if len(blobs) > 1:
        # A sliver of a corner index cut by the window's edge is no pip: a pip lies whole
        # inside the window, as large as the others.
        small = config.pip_sizes[0] * float(np.median(areas))
        kept = [index for index, blob in enumerate(blobs)
                if areas[index] >= small or not _touches(blob, mask.shape)]
        blobs, areas = [blobs[index] for index in kept], areas[kept]
    if len(blobs) > config.most_pips or (len(blobs) > 1 and largest > config.picture_mm2):
        return CentreRead(0, True, share, largest)
    middle = float(np.median(areas))
    low, high = config.pip_sizes
    pips = int(((areas >= low * middle) & (areas <= high * middle)).sum())
    if len(blobs) == 1 and areas[0] > 4 * config.picture_mm2:
        return CentreRead(0, True, share, largest)
    return CentreRead(pips if pips == len(blobs) else 0, pips != len(blobs), share, largest)


def _figures(blobs: list[tuple[int, int, int, int, int]]
             ) -> list[tuple[int, int, int, int, int]]:
    """``blobs`` without those lying wholly inside another's box: a pip framed by a ring
    or a wreath (an ace's decoration) is one figure with its frame; a number card's pips
    stand apart, never one inside another."""
    def inside(inner: tuple[int, int, int, int, int], outer: tuple[int, int, int, int, int]
               ) -> bool:
        return inner is not outer and outer[0] <= inner[0] and outer[1] <= inner[1] and \
            inner[0] + inner[2] <= outer[0] + outer[2] and \
            inner[1] + inner[3] <= outer[1] + outer[3]
    return [blob for blob in blobs if not any(inside(blob, other) for other in blobs)]


def _touches(blob: tuple[int, int, int, int, int], shape: tuple[int, ...]) -> bool:
    """Whether a blob reaches the edge of a window of ``shape``."""
    return blob[0] == 0 or blob[1] == 0 or blob[0] + blob[2] >= shape[1] or \
        blob[1] + blob[3] >= shape[0]


def _index_glyph(config: RankConfig, ink: FloatArray, pixels_per_mm: float
                 ) -> FloatArray | None:
    """The topmost glyph of the corner (several parts side by side joined, as in 10)."""
    found = _index_marks(config, ink, pixels_per_mm)
    return None if found is None else found[0]


def _index_marks(config: RankConfig, ink: FloatArray, pixels_per_mm: float,
                 column: FloatArray | None = None
                 ) -> tuple[FloatArray, FloatArray | None] | None:
    """The topmost glyph of the corner (several parts side by side joined, as in 10) and
    the mark just under it (a rank's suit, or a word's next letter), or None; looked for
    again in a corner ``index_wide_mm`` wide where the glyph runs out of the usual one
    (``column``: the corner column's ink, :func:`_column_mask`, where already made)."""
    found = _index_marks_within(config, ink, pixels_per_mm, column)
    if found is None or found[0].shape[1] + found[2] < round(
            config.index_area_mm[2] * pixels_per_mm) - 1:
        return None if found is None else found[:2]
    wide = config.index_wide_mm
    wider = replace(config, index_area_mm=(*config.index_area_mm[:2], wide,
                                           config.index_area_mm[3]),
                    joker_area_mm=(*config.joker_area_mm[:2], wide, config.joker_area_mm[3]))
    found = _index_marks_within(wider, ink, pixels_per_mm)
    return None if found is None else found[:2]


def _index_marks_within(config: RankConfig, ink: FloatArray, pixels_per_mm: float,
                        column: FloatArray | None = None
                        ) -> tuple[FloatArray, FloatArray | None, int] | None:
    """:func:`_index_marks` in the corner ``config`` gives, with the glyph's left column."""
    window = _window(ink, config.index_area_mm, pixels_per_mm)
    if column is None:
        column = _column_mask(config, ink, pixels_per_mm)
    mask = column[:window.shape[0], :window.shape[1]]
    blobs = [blob for blob in _blobs(mask, config.least_glyph_mm2 * pixels_per_mm**2)
             if not _edge_line(blob, pixels_per_mm)
             and blob[3] >= config.least_glyph_height_mm * pixels_per_mm
             and (blob[4] <= config.most_glyph_fill * blob[2] * blob[3]
                  or blob[3] >= 3 * blob[2])
             and blob[4] >= config.least_glyph_fill * blob[2] * blob[3]
             and not _in_corner(blob, pixels_per_mm, config.inset_mm)]
    starting = [blob for blob in blobs if blob[0] <= config.index_start_mm * pixels_per_mm]
    if not starting:
        return None
    first = min(starting, key=lambda blob: blob[1])
    left, top, right, bottom = first[0], first[1], first[0] + first[2], first[1] + first[3]
    gap = config.glyph_gap_mm * pixels_per_mm
    inked = np.where(mask, window, 0.0)
    letter_alone: bool | None = None
    for blob in sorted(blobs, key=lambda blob: blob[0]):
        b_left, b_top, b_right, b_bottom = blob[0], blob[1], blob[0] + blob[2], blob[1] + blob[3]
        # The parts of one glyph (1 and 0 of 10) stand on one line, top and foot level.
        level = 0.2 * (bottom - top)
        in_line = abs(b_top - top) <= level and abs(b_bottom - bottom) <= level
        near = b_left <= right + gap and b_right >= left - gap
        if blob is first or not in_line or not near:
            continue
        if _suit_beside(config, inked, blob):
            # A suit beside a court's letter is no part of it (the 0 of a 10 is).
            if letter_alone is None:
                letter_alone = _court_letter_alone(config, inked, first)
            if letter_alone:
                continue
        left, top = min(left, b_left), min(top, b_top)
        right, bottom = max(right, b_right), max(bottom, b_bottom)
    box = (left, top, right, bottom)
    waist = _waist(mask[top:bottom, left:right], config.waist_share)
    if waist is None:
        under = _mark_below(config, ink, pixels_per_mm, box, column)
        # A glyph with nothing under it may have swallowed its suit (a J's hook blurred
        # into a heart); one with a mark under it is whole.
        if under is None:
            waist = _suit_neck(config, np.where(mask, window, 0.0)[top:bottom, left:right])
        if waist is None:
            glyph = np.where(mask[top:bottom, left:right], window[top:bottom, left:right], 0.0)
            return np.asarray(glyph), under, left
    # The glyph and its suit run together (too close for the camera's pixels): cut where
    # the ink is narrowest between them; the part below is the suit.
    below = mask[top + waist:bottom, left:right]
    rows = np.nonzero(below.any(axis=1))[0]
    mark = np.where(below, window[top + waist:bottom, left:right], 0.0)[rows[0]:]
    glyph = np.where(mask[top:top + waist, left:right], window[top:top + waist, left:right], 0.0)
    return np.asarray(glyph), np.asarray(mark), left


def _court_letter_alone(config: RankConfig, ink: FloatArray,
                        blob: tuple[int, int, int, int, int]) -> bool:
    """Whether ``blob`` (in the corner's ``ink``) alone reads best as a court's letter (of
    any deck's: J, Q, K and their French, German and Russian letters), at ``least_match``:
    some decks print the suit beside a court's letter, where a 10 has its 0."""
    x, y, across, down, _ = blob
    scores = best_matches(glyph_of(ink[y:y + down, x:x + across]), glyph_templates(),
                          config.aspect_weight)
    rank = max(scores, key=lambda label: scores[label])
    return rank in ("J", "Q", "K") and scores[rank] >= config.least_match


def _suit_beside(config: RankConfig, ink: FloatArray, blob: tuple[int, int, int, int, int]
                 ) -> bool:
    """Whether ``blob`` (in the corner's ``ink``) is a suit's symbol, matching a suit better
    than a letter by ``court_suit``: beside a court's letter, no part of its glyph."""
    x, y, across, down, _ = blob
    marks = best_matches(glyph_of(ink[y:y + down, x:x + across]), mark_templates(),
                         config.aspect_weight)
    return marks.get("suit", -1.0) - marks.get("letter", -1.0) >= config.court_suit


def _waist(mask: FloatArray, share: float) -> int | None:
    """The row where a glyph run together with the mark under it is narrowest, or None
    when ``mask`` is one glyph: it is not half again taller than wide, or nowhere between
    a third and four fifths of its height is its ink narrower than ``share`` of its
    typical row's (a J's stem is narrow all along)."""
    height, width = mask.shape
    if height < 1.5 * width or height < 6:
        return None
    widths = mask.sum(axis=1).astype(np.float64)
    low, high = height // 3, (4 * height) // 5
    row = low + int(np.argmin(widths[low:high]))
    typical = float(np.median(widths[widths > 0]))
    if widths[row] > share * typical or not widths[row + 1:].any():
        return None
    return row


def _suit_neck(config: RankConfig, glyph: FloatArray) -> int | None:
    """The row where a glyph narrow all along (a J's stem) runs into the suit under it, or
    None: between a third and four fifths of the glyph's height, above the widest row of its
    lower half (the suit's), the row narrowest against the widest rows between it and that
    third (a J's hook) and below it (the suit), narrower than ``neck_share`` of both, where
    the ink under it matches a suit better than a letter by ``court_suit``. A J's hook,
    blurred, touches a wide heart; its stem is narrower than that neck, so :func:`_waist`
    finds none."""
    mask = glyph > 0
    height, width = mask.shape
    if height < 1.5 * width or height < 6:
        return None
    widths = np.convolve(mask.sum(axis=1).astype(np.float64), np.ones(3) / 3, mode="same")
    low = height // 3
    widest = height // 2 + int(np.argmax(widths[height // 2:]))
    rows = np.arange(low + 1, min(widest, (4 * height) // 5))
    if not len(rows):
        return None
    above = np.maximum.accumulate(widths[low:])[rows - low - 1]
    shares = widths[rows] / np.maximum(np.minimum(above, widths[widest]), 1.0)
    row = int(rows[np.argmin(shares)])
    if shares.min() > config.neck_share:
        return None
    under = glyph[row:]
    marks = best_matches(glyph_of(under[np.nonzero(under.any(axis=1))[0][0]:]),
                         mark_templates(), config.aspect_weight)
    return row if marks.get("suit", -1.0) - marks.get("letter", -1.0) >= config.court_suit \
        else None


def _mark_below(config: RankConfig, ink: FloatArray, pixels_per_mm: float,
                box: tuple[int, int, int, int], mask: FloatArray) -> FloatArray | None:
    """The topmost mark under the glyph in ``box`` (window pixels), overlapping it across,
    starting within ``below_mm`` of its foot (``mask``: the column's ink,
    :func:`_column_mask`)."""
    left, _, right, bottom = box
    window = _window(ink, config.joker_area_mm, pixels_per_mm)
    lowest = bottom + config.below_mm * pixels_per_mm
    under = [blob for blob in _blobs(mask, config.least_glyph_mm2 * pixels_per_mm**2)
             if not _edge_line(blob, pixels_per_mm)
             and bottom - 0.5 * pixels_per_mm <= blob[1] <= lowest
             and blob[0] < right and blob[0] + blob[2] > left]
    if not under:
        return None
    x, y, across, down, _ = min(under, key=lambda blob: blob[1])
    return np.asarray(np.where(mask[y:y + down, x:x + across], window[y:y + down, x:x + across],
                               0.0))


def _column_mask(config: RankConfig, ink: FloatArray, pixels_per_mm: float) -> FloatArray:
    """The ink of the corner's column (``joker_area_mm``) without a picture's frame lines
    (:func:`vision.card_columns.column_ink`, with ``config``'s line sizes)."""
    return column_ink(ink, pixels_per_mm, config.joker_area_mm, config.ink_level,
                      FrameLine(config.frame_line_mm, config.line_side_mm, config.line_mm,
                                config.line_side_ink))


def _in_corner(blob: tuple[int, int, int, int, int], pixels_per_mm: float, inset_mm: float
               ) -> bool:
    """Whether a blob is a thin arc in the card's very corner, against both its top and
    left edges: what lies beyond a corner rounded more than a poker card's, no glyph."""
    reach = inset_mm * pixels_per_mm + 1
    return blob[0] <= reach and blob[1] <= reach and blob[4] < 0.3 * blob[2] * blob[3]


def _edge_line(blob: tuple[int, int, int, int, int], pixels_per_mm: float) -> bool:
    """Whether a blob is a line along the card's edge (its printed border, or a sliver of
    what lies beyond it, straight or slanting), not a glyph: thinner than half a millimetre,
    or long and thin (narrow, or little ink for its length)."""
    thin, long = sorted((blob[2], blob[3]))
    long_line = long > 9 * pixels_per_mm and (
        thin < 1.5 * pixels_per_mm or blob[4] < 0.7 * pixels_per_mm * long)
    return thin < 0.5 * pixels_per_mm or long_line


#: What :func:`_stacked_letters` counts for a word whose letters run together.
WORD = 99
#: What it counts for a word taller than any rank's glyph with its suit run under it.
LONG_WORD = 100


def _stacked_letters(config: RankConfig, ink: FloatArray, pixels_per_mm: float) -> int:
    """How many glyphs of letter size stand one above another in a column down the corner,
    from the topmost glyph (a word written down the side, upright or turned)."""
    window = _window(ink, config.joker_area_mm, pixels_per_mm)
    blobs = _blobs(window >= config.ink_level, config.least_glyph_mm2 * pixels_per_mm**2)
    # Slivers along the card's edge (thinner than a millimetre, or a few specks in a large
    # box) are no letters and must not hide the word under them.
    marks = sorted((blob for blob in blobs if not _edge_line(blob, pixels_per_mm)
                    and blob[0] <= config.index_start_mm * pixels_per_mm
                    and min(blob[2], blob[3]) >= pixels_per_mm
                    and blob[4] >= config.least_glyph_fill * blob[2] * blob[3]),
                   key=lambda blob: blob[1])
    if not marks:
        return 0
    top = marks[0]
    # A word is printed clear of the card's edge; a tall strip against it is the edge
    # itself, or what lies beyond it where the card was found a little off.
    clear = top[0] > (config.inset_mm + 0.5) * pixels_per_mm
    if clear and top[3] >= config.word_mm * pixels_per_mm and top[3] >= 3 * top[2] \
            and top[2] <= config.word_width_mm * pixels_per_mm:
        # A word down the side, its letters run together: no rank is this tall and thin,
        # and no rank's glyph with its suit run under it is as tall as a long one.
        return LONG_WORD if top[3] >= config.long_word_mm * pixels_per_mm else WORD
    letters = [blob for blob in marks
               if 1.5 * pixels_per_mm <= max(blob[2], blob[3]) <= 12.0 * pixels_per_mm]
    if not letters:
        return 0
    first = min(letters, key=lambda blob: blob[1])
    column = first[0] + first[2] / 2
    stacked = sorted((blob for blob in letters
                      if abs(blob[0] + blob[2] / 2 - column) <= 1.5 * pixels_per_mm),
                     key=lambda blob: blob[1])
    # A word's letters follow each other closely down the column.
    rows, bottom = 1, first[1] + first[3]
    for blob in stacked[1:]:
        if blob[1] > bottom + config.letter_gap_mm * pixels_per_mm:
            break
        if blob[1] >= bottom - 0.3 * pixels_per_mm:
            rows += 1
            bottom = blob[1] + blob[3]
    return rows


def read_index(config: RankConfig, ink: FloatArray, pixels_per_mm: float) -> IndexRead:
    """The corner index's rank by template, or the JOKER column."""
    letters = _stacked_letters(config, ink, pixels_per_mm)
    joker = letters >= config.joker_letters
    column = _column_mask(config, ink, pixels_per_mm)
    found = _index_marks(config, ink, pixels_per_mm, column)
    column_mm2 = float(np.count_nonzero(column)) / pixels_per_mm**2
    if found is None:
        return IndexRead((), joker, column_mm2=column_mm2)
    glyph = glyph_of(found[0])
    best = best_matches(glyph, glyph_templates(), config.aspect_weight)
    suit_below = -1.0
    if found[1] is not None:
        marks = best_matches(glyph_of(found[1]), mark_templates(), config.aspect_weight)
        suit_below = marks.get("suit", -1.0) - marks.get("letter", -1.0)
    if letters == WORD and suit_below > config.least_suit:
        # A glyph run together with what lies under it, over a suit: a rank, not a word.
        joker = False
    if letters == LONG_WORD:
        # What lies under the word's first letter is the rest of the word, not a suit.
        suit_below = -1.0
    parts = len(_blobs(found[0] >= config.ink_level, config.least_glyph_mm2 * pixels_per_mm**2))
    return IndexRead(tuple(best.items()), joker, suit_below, aspect=glyph.aspect, parts=parts,
                     outline=outline(found[0]),
                     letters=letter_scores(found[0], config.aspect_weight),
                     column_mm2=column_mm2)


def both_ways(first: IndexRead, second: IndexRead) -> IndexRead:
    """The two corners' reading together: each rank's better match of the two."""
    scores = dict(first.scores)
    for rank, score in second.scores:
        scores[rank] = max(scores.get(rank, -1.0), score)
    return IndexRead(tuple(scores.items()), first.joker or second.joker,
                     max(first.suit_below, second.suit_below),
                     (*(first.corners or (first,)), *(second.corners or (second,))))
