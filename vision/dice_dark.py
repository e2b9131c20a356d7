"""Black dice's bodies, found from their darkness and their hue together.

A shadow is the felt darker in the felt's own hue, so darkness alone marks a die only past the
darkest shadow (``DiceConfig.darker``); a black die on coloured felt is darker than the felt
and as grey as the felt is coloured at once, each about the least a die shows (its top lies
about 0.8 of ``darker`` below the felt), so neither alone finds all of its body and the halos
of its white pips leave pieces (two halves of a 5, a 6's middle) that each pass for a die.
Taken together, as the length of the pair, the two find the whole body. Only a body that the
pair finds and whose colour is black takes the place of what the usual score found there: a
white, red or blue die, whose shaded side faces and blurred shadow the pair would also take
in, keeps its body as before. And the pair is asked only where the usual bodies leave a
black die unread, and only for the dice left unread (:func:`unread_taken_from`): applied to
every black body, it also reshaped some that read (a black 6 on dark felt turned by 18°, a
black die beside a blue one traded for it).
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import cv2
import numpy as np

from contract.observation import DieReading
from vision.arrays import FloatArray, Image
from vision.dice_colour import colour_name
from vision.dice_pips import masked_median

if TYPE_CHECKING:
    from vision.dice import DiceConfig

#: A body patch (uint8 0/1) and where its top-left corner lies in the crop.
Body = tuple[Image, tuple[int, int]]


def darkness_and_hue(config: DiceConfig, chroma: FloatArray, level: FloatArray) -> FloatArray:
    """Each pixel's chroma and darkness against the felt, each in units of the least a die
    shows (``chroma``, ``darker``; brighter pixels count no darkness), taken together as the
    length of the pair."""
    chroma_units = chroma * np.float32(1.0 / config.chroma)
    darkness = np.maximum(level * np.float32(-1.0 / config.darker), np.float32(0.0))
    return cv2.sqrt(cv2.add(cv2.multiply(chroma_units, chroma_units),
                            cv2.multiply(darkness, darkness)))


def black_only(bodies: list[Body], image: Image, felt: FloatArray) -> list[Body]:
    """The ``bodies`` whose median colour in ``image`` is named black."""
    kept = []
    for patch, (x, y) in bodies:
        height, width = patch.shape
        colour = masked_median(image[y:y + height, x:x + width], patch)
        if colour_name(colour, felt) == "black":
            kept.append((patch, (x, y)))
    return kept


def with_black_bodies(bodies: list[Body], black: list[Body], shape: tuple[int, int]
                      ) -> list[Body]:
    """``bodies`` with the ``black`` bodies in place of what they cover (a crop of ``shape``,
    rows by columns): a body that lies mostly under a black one is dropped, and one that a
    black body only overlaps (a neighbour it was joined to) keeps its own pixels."""
    if not black:
        return bodies
    covered = np.zeros(shape, np.uint8)
    for patch, (x, y) in black:
        covered[y:y + patch.shape[0], x:x + patch.shape[1]] |= patch
    kept = []
    for patch, (x, y) in bodies:
        under = covered[y:y + patch.shape[0], x:x + patch.shape[1]] & patch
        shared = int(under.sum())
        if shared == 0:
            kept.append((patch, (x, y)))
        elif 2 * shared < int(patch.sum()):
            kept.append((patch - under, (x, y)))
    return kept + black


def unread_taken_from(first: tuple[tuple[DieReading, str], ...],
                      again: tuple[tuple[DieReading, str], ...], same_mm: float
                      ) -> tuple[tuple[DieReading, str], ...]:
    """The ``first`` read, each die it left unread taken from the read ``again`` with black
    bodies (the die within ``same_mm`` of it there) where that reads a value; where several
    unread dice of the first read (pieces of one body) lie that near one die read again, it
    is taken once; ordered top to bottom, as read. A die the first read read keeps its
    reading: its body was whole enough to show a flat top and its pips."""
    kept: list[tuple[DieReading, str]] = []
    taken: set[int] = set()
    for die, why in first:
        close = min(((math.dist(die.centre_mm, other.centre_mm), index)
                     for index, (other, _) in enumerate(again)), default=None)
        if (die.value is not None or close is None or close[0] > same_mm
                or again[close[1]][0].value is None):
            kept.append((die, why))
        elif close[1] not in taken:
            taken.add(close[1])
            kept.append(again[close[1]])
    return tuple(sorted(kept, key=lambda item: (item[0].centre_mm[1], item[0].centre_mm[0])))

__all__ = ["Body", "black_only", "darkness_and_hue", "unread_taken_from",
           "with_black_bodies"]
