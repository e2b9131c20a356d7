"""A flat face whose pips fail about its outline's middle, read again about its pips' own
middle (step 4 of :mod:`vision.dice`).

A still die's top is a square and its pips lie on a 3x3 grid centred on it (every layout is
symmetric about its middle). The top's outline is found at the coarse detail of the bodies,
and a lone die's may take in a strip of side face or shadow on one side and lose some of its
top on the other (the lean's sweep, the blur): its middle then lies a tenth of the edge or
more off the pips', the pips fail the layout's centring (or one pip lies past the face's
inset and is not found), though they stand clear on their grid. The pips themselves say
where the top's middle is: the strongest spots that make a layout about their own middle,
or the grid the whole face's fit places best (:func:`vision.dice_layout.fit_layout`, which
also finds a pip the spots' inset left out). The face is read again about each such middle,
by every test a face about its outline's middle passes.

A cocked die's outline takes in its raised side face, and its top's pips lie off the
outline's middle just as a shifted flat top's do (read so with no more test, tuning cocked
trays 200-799 read 71 of 912 cocked dice, against 6). So a face read about its pips is kept
only from 4 pips up (its grid, long both ways, shows the top flat, as for a face read in its
own part, :mod:`vision.dice_seam`: a diagonal of 1-3 shows nothing of that), read spot by
spot, and where the die's lone body reaches about that middle as a flat die's to
``recentre_side`` of its edge (:func:`vision.dice_side.side_offness`, which
:func:`vision.dice_side.cocked_by_side` holds to a looser ``most_side_shift``): its outline's
middle, one sign of a flat top, is lost, so its body must show one more closely.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from vision.arrays import FloatArray, Image
from vision.dice_layout import fit_layout, read_face_pips_placed
from vision.dice_pips import spots_middle
from vision.dice_side import side_offness

if TYPE_CHECKING:
    from vision.dice import DiceConfig
    from vision.dice_faces import TopFace

Rect = tuple[tuple[float, float], tuple[float, float], float]


def read_about_pips(config: DiceConfig, image: Image, body: FloatArray, rect: Rect
                    ) -> tuple[int | None, float, str, tuple[float, float] | None] | None:
    """(value, confidence, why, the read pips' middle or None) of the face ``rect`` in
    ``image`` read about its pips' own middle, where that lies ``own_least_shift`` to
    ``recentre_most`` of the edge off the outline's and reads a value of
    ``recentre_least_value`` or more; None where no middle does."""
    centre, size, angle = rect
    edge = (size[0] + size[1]) / 2
    for middle in pips_middles(config, image, rect):
        shift = math.dist(middle, centre)
        if not config.own_least_shift * edge <= shift <= config.recentre_most * edge:
            continue
        value, confidence, why, placed = read_face_pips_placed(
            config, image, body, (middle, size, angle), config.recentre_least_value)
        if value is not None:
            return value, confidence, why, placed
    return None


def pips_middles(config: DiceConfig, image: Image, rect: Rect) -> Iterator[tuple[float, float]]:
    """Where the pips of the face ``rect`` put its middle (``image``'s pixels), each found
    only when the one before did not read: the middle of the strongest spots that make a
    layout about it, then the whole face's fitted grid's. (Spots making a layout of fewer
    than ``recentre_least_value`` pips may read more about their middle, the face's inset
    moved with it: tuning cocked 166's blue die, so they are read too.)"""
    spots = spots_middle(config, image, rect)
    if spots is not None:
        yield spots
    fitted = fit_layout(config, image, rect).middle
    if fitted is not None:
        yield fitted


def flat_about_pips(config: DiceConfig, face: TopFace, colour: str, placed: FloatArray | None,
                    bodies: list[tuple[Image, tuple[int, int]]],
                    lean_at: Callable[[FloatArray], FloatArray], ppm: float,
                    crop: tuple[int, int]) -> bool:
    """Whether a die read about its pips' own middle (``placed``, crop pixels; None where the
    value is the whole face's fit's) shows its body flat about it: its side faces as a flat
    die's to ``recentre_side`` of its edge (:func:`vision.dice_side.side_offness`). Its
    outline's middle, which it fails, is one sign of a flat top lost; a body that cannot
    tell (a neighbour near, a black die, a cut) leaves it unread."""
    if placed is None:
        return False
    off = side_offness(config, face, colour, placed, bodies, lean_at, ppm, crop)
    return off is not None and off <= config.recentre_side
