"""A number card's pips counted whatever the deck's design: same-coloured blobs of one size in
the card's middle, standing as every deck stands them.

A number card from 2 to 10 shows its rank as that many pips of its suit, all of one size and
one colour, in a layout all French-suited decks share: mirrored left to right, and (but for
the 7's odd pip) the same when the card is turned half round. A corner index lies by the
card's side, its suit mark far smaller than a pip. So the count needs no template of any
deck: the blobs of ink clear of the index columns are grouped by size and colour, the largest
group is the pips, and the layout's symmetry says whether the count can be trusted; pips that
nearly touch run together in a far camera's blur, and are then counted by their ink. An ace
shows one figure in the middle (plain or decorated); a court card or a joker a picture.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import FloatArray, Image


@dataclass(frozen=True)
class PipConfig:
    """How pips are told. Ink (``ink_level`` and more) is looked at inside ``area_mm`` (left,
    top, right, bottom of the upright 63 x 88 mm face); blobs whose middle lies nearer the
    card's side than ``index_column_mm`` belong to a corner index. A pip is a blob of at
    least ``least_pip_mm2`` filling at least ``least_solidity`` of its convex hull; pips of
    one card differ in area by at most ``size_ratio`` and in redness (red less the other
    channels' larger, 0..255) by at most ``redness_gap``. Pips mirror each other within
    ``layout_tolerance`` of a pip's width plus ``layout_slack_mm``. Any other blob larger
    than ``stray_share`` of a pip makes the count unsure, but in the corners within
    ``index_corner_mm`` of the sides (an index's) or round a lone pip (an ace's frame); one
    figure of ``ace_least_mm2`` to
    ``ace_most_mm2`` (a court's or a joker's figure is larger), filling ``ace_solidity`` of
    its hull (a drawing's lines fill less), within ``ace_off_mm`` of the middle, is an
    ace's. The middle column is clear where no ink reaches ``trace_level`` in it but the
    counted pips' (with ``trace_margin_mm`` round each). Pips blurred together make one
    blob as large as a whole number of pips, up to ``most_merged``, within
    ``merged_slack`` of a pip (:func:`_inked`)."""

    ink_level: float = 0.22
    area_mm: tuple[float, float, float, float] = (4.0, 4.0, 59.0, 84.0)
    index_column_mm: float = 10.5
    index_corner_mm: tuple[float, float] = (16.0, 24.0)
    least_pip_mm2: float = 6.0
    least_solidity: float = 0.55
    size_ratio: float = 1.7
    redness_gap: float = 45.0
    layout_tolerance: float = 0.3
    layout_slack_mm: float = 1.5
    stray_share: float = 0.5
    ace_least_mm2: float = 40.0
    ace_most_mm2: float = 700.0
    ace_solidity: float = 0.65
    ace_off_mm: float = 9.0
    trace_level: float = 0.1
    trace_margin_mm: float = 1.0
    most_merged: int = 3
    merged_slack: float = 0.3


@dataclass(frozen=True)
class Blob:
    """One blob of ink on the face: middle and size (mm, mm2), convex fill, redness."""

    x: float
    y: float
    width: float
    height: float
    area: float
    solidity: float
    redness: float


@dataclass(frozen=True)
class PipCount:
    """What the middle shows: ``count`` pips of one size (0 when no group of pips stands
    out), whether they stand in a pip layout (``layout``), whether other large ink shares
    the middle (``stray``), and the largest blob's area (mm2)."""

    count: int
    layout: bool
    stray: bool
    largest_mm2: float
    #: Where the pips stand in a number card's layout: pips in each side column and in the
    #: middle column (None when not in a layout, or not counted so).
    columns: tuple[int, int] | None = None
    #: Whether the middle column between the outermost pips shows no trace of ink but the
    #: counted pips: no pip of a rival's middle column was washed away there.
    middle_clear: bool = False
    #: How many pips the middle's ink makes, where every figure in it is of the pips' colour
    #: and a whole number of them, up to ``most_merged`` (pips blurred together where they
    #: nearly touch, as a large-pipped 9's do); 0 where any figure is not so (a picture).
    inked: int = 0


def blobs_of(config: PipConfig, ink: FloatArray, face: Image, pixels_per_mm: float
             ) -> list[Blob]:
    """The blobs of ink inside ``config.area_mm`` with their middles, sizes and colours."""
    left, top, right, bottom = (round(value * pixels_per_mm) for value in config.area_mm)
    mask = (ink[top:bottom, left:right] >= config.ink_level).astype(np.uint8)
    count, labels, stats, centres = cv2.connectedComponentsWithStats(mask, connectivity=8)
    colour = face[top:bottom, left:right].astype(np.float32)
    # Red less the other channels' larger, as a share of the ink's darkness: a lamp's
    # reflection thins red ink and its darkness alike, so the share holds under glare.
    # The channels' least without numpy's slow reduction over the short last axis.
    darkest = np.minimum(np.minimum(colour[..., 0], colour[..., 1]), colour[..., 2])
    darkness = np.maximum(255 - darkest, 20)
    redness_map = 255 * (colour[..., 2] - np.maximum(colour[..., 0], colour[..., 1])) / darkness
    least = config.least_pip_mm2 * pixels_per_mm**2
    found = []
    for label in range(1, count):
        x0, y0, across, down, area = (int(value) for value in stats[label])
        if area < least:
            continue
        inside = labels[y0:y0 + down, x0:x0 + across] == label
        contours, _ = cv2.findContours(inside.astype(np.uint8), cv2.RETR_EXTERNAL,
                                       cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.contourArea(cv2.convexHull(np.vstack(contours)))
        redness = float(redness_map[y0:y0 + down, x0:x0 + across][inside].mean())
        found.append(Blob((centres[label][0] + left) / pixels_per_mm,
                          (centres[label][1] + top) / pixels_per_mm,
                          across / pixels_per_mm, down / pixels_per_mm,
                          area / pixels_per_mm**2, area / max(hull, 1.0), redness))
    return found


def count_pips(config: PipConfig, ink: FloatArray, face: Image, pixels_per_mm: float,
               card_mm: tuple[float, float] = (63.0, 88.0)) -> PipCount:
    """Count the pips in the middle of an upright face (``ink`` its ink map, ``face`` its
    BGR image, both at ``pixels_per_mm``)."""
    every = blobs_of(config, ink, face, pixels_per_mm)
    width = card_mm[0]
    middle = [blob for blob in every if config.index_column_mm <= blob.x
              <= width - config.index_column_mm]
    if not middle:
        return PipCount(0, False, False, 0.0)
    largest = max(blob.area for blob in middle)
    pips = _pip_group(config, middle)
    least = config.stray_share * min(pip.area for pip in pips)
    strays = [blob for blob in middle if blob not in pips and blob.area >= least
              and not _index_corner(config, blob, card_mm)
              and not _frames(config, blob, pips)]
    if len(pips) == 1:
        ace = pips[0]
        centred = abs(ace.x - width / 2) <= config.ace_off_mm and \
            abs(ace.y - card_mm[1] / 2) <= config.ace_off_mm
        sized = config.ace_least_mm2 <= ace.area <= config.ace_most_mm2 and \
            ace.solidity >= config.ace_solidity
        return PipCount(1, centred and sized, bool(strays), largest)
    columns = _layout(config, pips)
    clear = columns is not None and _middle_clear(config, ink, pips, pixels_per_mm)
    return PipCount(len(pips), columns is not None, bool(strays), largest, columns, clear,
                    _inked(config, pips, strays))


def _inked(config: PipConfig, pips: list[Blob], strays: list[Blob]) -> int:
    """How many pips ``pips`` and ``strays`` make together, where each stray is of the
    pips' colour, as solid as a pip, and as large as a whole number of them (within
    ``merged_slack`` of a pip, up to ``most_merged``): pips that touch in the camera's blur
    make one blob of their summed area; a picture's figures are of other colours or sizes.
    0 where any stray is not so, or there is none."""
    if not strays or len(pips) < 2:
        return 0
    size = float(np.median([pip.area for pip in pips]))
    colour = float(np.median([pip.redness for pip in pips]))
    total = len(pips)
    for blob in strays:
        share = blob.area / size
        whole = round(share)
        if not 2 <= whole <= config.most_merged or abs(share - whole) > config.merged_slack \
                or abs(blob.redness - colour) > config.redness_gap \
                or blob.solidity < config.least_solidity:
            return 0
        total += whole
    return total


def _middle_clear(config: PipConfig, ink: FloatArray, pips: list[Blob], pixels_per_mm: float
                  ) -> bool:
    """Whether the middle column (the middle half of a pip's width, between the top and
    bottom pips' middles) shows no ink above ``trace_level`` (averaged over half a pip) but
    the counted pips (each with ``trace_margin_mm`` round it): a lamp's reflection leaves a
    trace of a pip it washes (raised again by the ink map), so where none shows, no middle
    pip is missing. A washed middle pip's trace fills that half; a pip's whole width would
    reach the blurred rims of large side pips, which stand as close as that."""
    xs = [pip.x for pip in pips]
    ys = [pip.y for pip in pips]
    middle_x = (min(xs) + max(xs)) / 2
    half = float(np.median([pip.width for pip in pips])) / 2
    left = round((middle_x - half / 2) * pixels_per_mm)
    right = round((middle_x + half / 2) * pixels_per_mm)
    top, bottom = round(min(ys) * pixels_per_mm), round(max(ys) * pixels_per_mm)
    strip = ink[top:bottom, left:right].copy()
    if strip.size == 0:
        return False
    margin = config.trace_margin_mm
    for pip in pips:
        x0 = round((pip.x - pip.width / 2 - margin) * pixels_per_mm) - left
        x1 = round((pip.x + pip.width / 2 + margin) * pixels_per_mm) - left
        y0 = round((pip.y - pip.height / 2 - margin) * pixels_per_mm) - top
        y1 = round((pip.y + pip.height / 2 + margin) * pixels_per_mm) - top
        strip[max(y0, 0):max(y1, 0), max(x0, 0):max(x1, 0)] = 0.0
    # Averaged over half a pip: the card's grain and a pip's blurred rim are specks and
    # slivers; a washed pip's trace is as large as a pip.
    size = max(3, round(half * pixels_per_mm))
    return bool(cv2.blur(strip, (size, size)).max() < config.trace_level)


def _index_corner(config: PipConfig, blob: Blob, card_mm: tuple[float, float]) -> bool:
    """Whether ``blob`` lies in a corner where an index stands (reaching into the middle
    in some designs): no stray figure beside the pips."""
    width, height = card_mm
    x_reach, y_reach = config.index_corner_mm
    return (blob.x < x_reach or blob.x > width - x_reach) and \
        (blob.y < y_reach or blob.y > height - y_reach)


def _frames(config: PipConfig, blob: Blob, pips: list[Blob]) -> bool:
    """Whether ``blob`` is a small frame round a lone pip (an ace's wreath or ring), not
    a figure of its own."""
    if len(pips) != 1 or blob.area > config.ace_most_mm2:
        return False
    pip = pips[0]
    return abs(blob.x - pip.x) <= blob.width / 2 and abs(blob.y - pip.y) <= blob.height / 2 \
        and blob.width >= pip.width and blob.height >= pip.height


def _pip_group(config: PipConfig, blobs: list[Blob]) -> list[Blob]:
    """The largest group of compact blobs of one size and colour (the larger blobs' group
    where two are as large): a number card's pips."""
    compact = [blob for blob in blobs if blob.solidity >= config.least_solidity]
    best: list[Blob] = []
    for reference in compact or blobs:
        group = [blob for blob in compact
                 if 1 / config.size_ratio <= blob.area / reference.area <= config.size_ratio
                 and abs(blob.redness - reference.redness) <= config.redness_gap]
        if len(group) > len(best) or (len(group) == len(best) and best and
                                      sum(b.area for b in group) > sum(b.area for b in best)):
            best = group
    if not best:
        best = [max(blobs, key=lambda blob: blob.area)]
    return best


def _layout(config: PipConfig, pips: list[Blob]) -> tuple[int, int] | None:
    """Where ``pips`` stand, as (pips in each side column, pips in the middle column), when
    they stand as a number card's do (else None): each has a partner mirrored across the
    group's middle line, each has one turned half round about the group's middle (but one,
    on a 7), and their columns are a number card's (:data:`COLUMNS`)."""
    xs = np.array([pip.x for pip in pips])
    ys = np.array([pip.y for pip in pips])
    centre_x = (xs.min() + xs.max()) / 2
    centre_y = (ys.min() + ys.max()) / 2
    size = float(np.median([max(pip.width, pip.height) for pip in pips]))
    tolerance = config.layout_tolerance * size + config.layout_slack_mm

    def partnered(target_x: FloatArray, target_y: FloatArray) -> FloatArray:
        apart = np.hypot(xs[None, :] - target_x[:, None], ys[None, :] - target_y[:, None])
        return np.asarray(apart.min(axis=1) <= tolerance)

    mirrored = partnered(2 * centre_x - xs, ys)
    turned = partnered(2 * centre_x - xs, 2 * centre_y - ys)
    unturned = int((~turned).sum())
    if not mirrored.all() or not (unturned == 0 or (len(pips) == 7 and unturned == 1)):
        return None
    middle = int((np.abs(xs - centre_x) <= tolerance).sum())
    columns = ((len(pips) - middle) // 2, middle)
    return columns if columns in COLUMNS.get(len(pips), ()) else None


#: How French-suited decks stand the pips of each number card: pips in each side column,
#: and in the middle column (some decks stand an 8 four a side, a 7 two a side and three
#: down the middle). A pip washed away by a
#: lamp's reflection seldom leaves another card's columns; where it can (a 7 without its odd
#: pip stands as a 6), the index must tell them apart (:func:`rivals`).
COLUMNS: dict[int, tuple[tuple[int, int], ...]] = {
    2: ((0, 2),), 3: ((0, 3),), 4: ((2, 0),), 5: ((2, 1),), 6: ((3, 0),), 7: ((3, 1), (2, 3)),
    8: ((3, 2), (4, 0)), 9: ((4, 1),), 10: ((4, 2),),
}


def rivals(rank: str, columns: tuple[int, int] | None = None) -> tuple[str, ...]:
    """The number ranks a count of ``rank`` standing in ``columns`` (any of the rank's
    layouts when not given) could be short of: those standing as many a side with more pips
    down the middle, which a lamp's reflection can wash away without breaking the layout's
    symmetry (a 7 without its odd pip stands as a 6). No wash adds a pip of the same size
    and colour, and a side pip lost breaks the mirror."""
    if not rank.isdigit() or int(rank) not in COLUMNS:
        return ()
    seen = (columns,) if columns is not None else COLUMNS[int(rank)]
    return tuple(str(count) for count, layouts in COLUMNS.items()
                 if str(count) != rank and any(side == seen_side and middle > seen_middle
                                               for side, middle in layouts
                                               for seen_side, seen_middle in seen))
