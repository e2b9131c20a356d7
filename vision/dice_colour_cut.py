"""A body holding two touching dice of unlike colours cut where their colours meet.

One lamp lights a tray: every pixel of a die is its body's colour times how much light its
face takes (a lit top, shaded side faces), so a die's pixels lie along one line from dark to
its lit colour, and the blur between two dice mixes their two colours along the line joining
them. Where two dice of unlike hue touch, the felt's score finds one body, and a cut of its
outline (straight across, or at its concave corners) does not follow their edges: the seam
lies where each pixel is nearer one die's line of colours than the other's, which follows
each die's own outline, side faces and all. A die's side face stays with its own body (a
shaded red side face is red, not black: a cut by darkness gave a cocked red die's side face
to its black neighbour, and its clean top passed for flat: tuning cocked frame 188), so the
lone die's tests of its sweep still see it.

The two dice's colours are told by their hue (chromaticity): two dice of one hue, or a black
and a white die (both without hue), are left to the outline's cut.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from calibration.drawing import TRAY_FILL
from contract.observation import DieReading
from vision.arrays import FloatArray, Image
from vision.dice_colour import colour_name
from vision.dice_side import SIDE_WHY

#: A body patch (uint8 0/1) and where its top-left corner lies in the crop.
Body = tuple[Image, tuple[int, int]]

#: Added to each channel before a pixel's chromaticity is taken, so that a dark pixel's
#: noise (a black die's few levels) counts for little and it reads as without hue.
CHROMA_FLOOR = 12.0
#: The least difference in chromaticity (each channel's share of the three) between two
#: dice's colours for their hues to count as unlike (a red or blue die against a white or
#: black one differs by 0.15-0.35). A red die's lit top and its shaded, greyer side faces
#: can differ as much (0.2: tuning cocked frames 272, 459, 748), so the two colours must
#: also be named apart (:func:`vision.dice_colour.colour_name`).
LEAST_HUE_STEP = 0.09
#: The darkest a face is lit, as a share of its lit colour: each die's colours run from
#: this share of its lit colour to all of it. None: a side face turned from the lamp is
#: nearly black, and a floor of a quarter gave a red die's dark side faces to its black
#: neighbour (tuning cocked frame 188).
SHADED_SHARE = 0.0
#: How the reader's reason for a None begins where a flat top's pips failed.
PIPS_WHY = "pips"
#: The share of a body's pixels the two colours are found from (every so many).
COLOUR_SAMPLE = 2

_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _gain(felt: FloatArray) -> FloatArray:
    """Each channel's gain white-balancing the crop by the felt's printed colour."""
    return (np.asarray(TRAY_FILL[::-1], np.float32)
            / np.maximum(np.asarray(felt, np.float32), 1.0)).astype(np.float32)


def balanced(image: Image, felt: FloatArray) -> FloatArray:
    """``image`` (BGR) white-balanced by the felt's printed colour, as float32."""
    return (image.astype(np.float32) * _gain(felt)).astype(np.float32)


def _chromaticity(pixels: FloatArray) -> FloatArray:
    """Each pixel's (rows of BGR) share of its three channels, floored by
    :data:`CHROMA_FLOOR`: the first two shares (the third follows)."""
    floored = pixels + np.float32(CHROMA_FLOOR)
    return (floored[:, :2] / floored.sum(axis=1, keepdims=True)).astype(np.float32)


def _two_colours(pixels: FloatArray) -> tuple[FloatArray, FloatArray] | None:
    """The lit colours (BGR) of the two dice whose pixels are ``pixels`` (rows of BGR),
    found as two groups of chromaticity (of every :data:`COLOUR_SAMPLE` th pixel: two dice
    hold a thousand or more each); None where the groups' hues are alike."""
    pixels = pixels[::COLOUR_SAMPLE]
    if len(pixels) < 8:
        return None
    shares = _chromaticity(pixels)
    # Two colours lie apart along the hues' main axis: the groups start split across it at
    # their mean, and settle by k-means (the same groups each time, no random start).
    centred = shares - shares.mean(axis=0)
    _, vectors = np.linalg.eigh(centred.T @ centred)
    start = (centred @ vectors[:, 1] > 0).astype(np.int32).reshape(-1, 1)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 1e-4)
    _, labels, centres = cv2.kmeans(shares, 2, start, criteria, 1,
                                    cv2.KMEANS_USE_INITIAL_LABELS)
    step = centres[0] - centres[1]
    if float(np.sqrt(step @ step)) < LEAST_HUE_STEP:
        return None
    labels = labels.ravel()
    colours = []
    for group in (0, 1):
        chosen = labels == group
        # The group's core: the half of its pixels nearest its hue (the blur towards the
        # other die, and a coloured die's white pips, lie farther off).
        spread = np.sqrt(((shares[chosen] - centres[group]) ** 2).sum(axis=1))
        members = pixels[chosen][spread <= np.median(spread)]
        level = members.sum(axis=1)
        # The lit face: the brighter half of the core (its shaded sides set aside).
        lit = members[level >= np.median(level)]
        colours.append(np.median(lit, axis=0).astype(np.float32))
    return colours[0], colours[1]


def _distance_to_line(pixels: FloatArray, colour: FloatArray) -> FloatArray:
    """Each pixel's (rows of BGR) distance from the colours a face of lit colour ``colour``
    shows, from :data:`SHADED_SHARE` of it to all of it."""
    length = float(colour @ colour)
    share = np.clip((pixels @ colour) / max(length, 1.0), SHADED_SHARE, 1.0)
    nearest = share[:, None] * colour[None, :]
    return np.sqrt(((pixels - nearest) ** 2).sum(axis=1))


def _filled_largest(mask: Image) -> Image:
    """The largest connected part of ``mask`` (opened by a cross, so that a thread of blur
    joins nothing), its holes (pips) filled."""
    opened = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _CROSS)
    outlines, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled: Image = np.zeros_like(mask)
    if outlines:
        largest = max(outlines, key=cv2.contourArea)
        cv2.drawContours(filled, [largest], -1, 1, cv2.FILLED)
    return filled


def colour_parts(mask: Image, colours: FloatArray, felt: FloatArray, least: float
                 ) -> tuple[Image, Image] | None:
    """``mask`` (uint8 0/1) cut where its pixels (``colours``: balanced BGR, the mask's
    shape) are nearer one die's line of colours than the other's: two parts, each filled
    and at least ``least`` px; None where its pixels show no two unlike hues, or the two
    are named alike (a die's lit top and its shaded, greyer side faces: a red die's are
    both red), or a part is too small to be a die."""
    rows, columns = np.nonzero(mask)
    pixels = colours[rows, columns]
    found = _two_colours(pixels)
    if found is None:
        return None
    gain = _gain(felt)
    if colour_name(found[0] / gain, felt) == colour_name(found[1] / gain, felt):
        return None
    first = _distance_to_line(pixels, found[0]) <= _distance_to_line(pixels, found[1])
    nearer: Image = np.zeros_like(mask)
    nearer[rows[first], columns[first]] = 1
    one = _filled_largest(nearer)
    other = _filled_largest(mask & (1 - one))
    one = one & (1 - other)
    if min(float(one.sum()), float(other.sum())) < least:
        return None
    return one, other


@dataclass(frozen=True)
class ColourCuts:
    """The parts of the crop's bodies that each hold two dice of unlike hue, cut in two
    (``parts``, two a cut, in order), and each cut's two parts' middles (crop px,
    ``pairs``): read alone, the parts are the bodies the dice they hold are read from."""

    parts: list[Body]
    pairs: list[tuple[tuple[float, float], tuple[float, float]]]

    def pairs_mm(self, origin_mm: tuple[float, float], ppm: float
                 ) -> list[tuple[tuple[float, float], tuple[float, float]]]:
        """``pairs`` on the mat (mm), the crop's pixel (0, 0) covering ``origin_mm`` at
        ``ppm`` pixels a mm."""
        def on_mat(point: tuple[float, float]) -> tuple[float, float]:
            return (origin_mm[0] + (point[0] + 0.5) / ppm,
                    origin_mm[1] + (point[1] + 0.5) / ppm)
        return [(on_mat(first), on_mat(second)) for first, second in self.pairs]


def colour_cuts(bodies: list[Body], image: Image, felt: FloatArray, least: float,
                places: list[tuple[float, float]]) -> ColourCuts | None:
    """Each of ``bodies`` (in ``image``, the crop whose felt is ``felt``) whose box holds one
    of ``places`` (crop px: the dice left unread) and that holds two dice of unlike hue,
    each part at least ``least`` px (the least die's top; a black die's pips or a side face
    are less), cut in two where their colours meet (:func:`colour_parts`); None where none
    is."""
    cut: list[Body] = []
    pairs: list[tuple[tuple[float, float], tuple[float, float]]] = []
    for patch, (x, y) in bodies:
        parts = None
        height, width = patch.shape
        if (float(patch.sum()) >= 2 * least
                and any(x <= px < x + width and y <= py < y + height for px, py in places)):
            window = balanced(image[y:y + height, x:x + width], felt)
            parts = colour_parts(patch, window, felt, least)
        if parts is None:
            continue
        cut.extend(_trimmed(part, (x, y)) for part in parts)
        first, second = (_middle(part, (x, y)) for part in parts)
        pairs.append((first, second))
    return ColourCuts(cut, pairs) if pairs else None


def uncut_unread(readings: tuple[tuple[DieReading, str], ...]) -> list[tuple[float, float]]:
    """The centres (mat mm) of the dice of ``readings`` left unread whose bodies are looked
    at for two colours: all but those refused by their side faces (:data:`SIDE_WHY`), whose
    flat top was found in their own body as one die, not cut from touching dice, with no
    other body within reach (:func:`vision.dice_side.cocked_by_side`): no second die shares that
    body, and the look (a 2-means of its pixels) is spared."""
    return [die.centre_mm for die, why in readings if die.value is None and why != SIDE_WHY]


def whole_cuts(again: tuple[tuple[DieReading, str], ...],
               first: tuple[tuple[DieReading, str], ...],
               pairs_mm: list[tuple[tuple[float, float], tuple[float, float]]], reach_mm: float
               ) -> tuple[tuple[DieReading, str], ...]:
    """The readings ``again`` (of the bodies cut by colour) less those of every cut (its
    parts' middles ``pairs_mm``, mat mm; a reading belongs to the nearer part within
    ``reach_mm``) whose two dice are not each read a value, here once or in the ``first``
    read (which keeps a die it read). A die cocked against another shows its top cut clean
    from the other by colour (tuning cocked frames 188, 260, 270, 280: a red die against a
    black or white one), and its side faces can pass for a flat die's; the die it leans on
    is then cocked too, or its part of the cut no flat top (the cocked die's colour took
    some of it). Two still dice show two flat tops (refused, if at all, only by their pips:
    ``why`` empty or starting :data:`PIPS_WHY`), both read."""
    places = [middle for pair in pairs_mm for middle in pair]
    owners = _owners(again, places, reach_mm)
    first_owners = _owners(first, places, reach_mm)
    dropped: set[int] = set()
    for part in range(len(places)):
        here = [again[index] for index, owner in enumerate(owners) if owner == part]
        before = [first[index][0].value for index, owner in enumerate(first_owners)
                  if owner == part]
        flat = len(here) == 1 and (not here[0][1] or here[0][1].startswith(PIPS_WHY))
        read = (flat and here[0][0].value is not None) or (len(before) == 1
                                                           and before[0] is not None)
        if not (flat and read):
            dropped.update((part - part % 2, part - part % 2 + 1))
    return tuple(item for item, owner in zip(again, owners, strict=True)
                 if owner not in dropped)


def with_cuts(first: tuple[tuple[DieReading, str], ...],
              again: tuple[tuple[DieReading, str], ...],
              pairs_mm: list[tuple[tuple[float, float], tuple[float, float]]], reach_mm: float
              ) -> tuple[tuple[DieReading, str], ...]:
    """The ``first`` read with the dice of each colour cut kept by :func:`whole_cuts`
    (``again``, its parts' middles ``pairs_mm``) in place of the first read's unread dice
    there: a die the first read read keeps its reading, and where the first read took the
    two dice for one (its middle between them, or one of them missed) both take their
    readings; ordered top to bottom, as read."""
    places = [middle for pair in pairs_mm for middle in pair]
    owners = _owners(again, places, reach_mm)
    first_owners = _owners(first, places, reach_mm)
    cut = {owner for owner in owners if owner is not None}
    read_first = {owner for (die, _), owner in zip(first, first_owners, strict=True)
                  if owner in cut and die.value is not None}
    kept = [item for item, owner in zip(first, first_owners, strict=True)
            if owner not in cut or item[0].value is not None]
    kept += [item for item, owner in zip(again, owners, strict=True)
             if owner is not None and owner not in read_first]
    return tuple(sorted(kept, key=lambda item: (item[0].centre_mm[1], item[0].centre_mm[0])))


def _owners(readings: tuple[tuple[DieReading, str], ...], places: list[tuple[float, float]],
            reach_mm: float) -> list[int | None]:
    """For each reading, the index of the nearest of ``places`` (mat mm) within
    ``reach_mm`` of its centre, or None."""
    owners: list[int | None] = []
    for die, _ in readings:
        distances = [math.dist(die.centre_mm, place) for place in places]
        nearest = int(np.argmin(distances)) if distances else 0
        owners.append(nearest if distances and distances[nearest] <= reach_mm else None)
    return owners


def _middle(part: Image, offset: tuple[int, int]) -> tuple[float, float]:
    """The middle (crop px) of ``part``'s pixels (a patch at ``offset``)."""
    rows, columns = np.nonzero(part)
    return float(columns.mean()) + offset[0], float(rows.mean()) + offset[1]


def _trimmed(part: Image, offset: tuple[int, int]) -> Body:
    """``part`` (a patch at ``offset``) cut to its set pixels."""
    points = cv2.findNonZero(part)
    x, y, width, height = cv2.boundingRect(points)
    return (np.ascontiguousarray(part[y:y + height, x:x + width]),
            (offset[0] + x, offset[1] + y))


__all__ = ["ColourCuts", "colour_cuts", "colour_parts", "uncut_unread", "whole_cuts",
           "with_cuts"]
