"""The foot of a smaller top coin: a darker ring round its edge, on the coin under it.

A smaller coin lying on a larger one stands a whole coin's thickness (1.35 to 1.95 mm) above
the ring of the larger coin's face that shows round it. That ring lies at the foot of the
step, where the top coin hides much of the lamp and the room from it, and the top coin's
rounded edge turns away from the light: all round the coin, the view is darker about as far
inside the outline as the two kinds' radii differ than on the top face inside that ring, and
than the band outside it. A lone coin's face runs on level from its raised rim (a fraction of
a millimetre high) to its middle. Taken all round a circle (a median over angles), a design
or a glint counts for little, and where the top coin lies a little off the middle the ring
is only widened: so this finds the nearly centred top coins, whose inner outline
(:mod:`vision.inner_outlines`) lies too close to the rim's to be looked for off the middle.

Brightnesses are of the normalised view (paper about 180, whatever the light), so a dip
means something only against the frame's coins read surely, as the inner outlines' scores do.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image
from vision.frame_statistics import above_reference

if TYPE_CHECKING:
    from numpy.typing import NDArray

#: OpenCV's remap takes maps of fewer rows than this; the points are laid out this wide.
_ROW = 1024


@dataclass(frozen=True)
class StepRingConfig:
    """How a top coin's foot ring is looked for (lengths in mm).

    Each coin's brightness is the median over ``angles`` angles on circles every
    ``inset_step_mm`` inside its outline. For a gap between two kinds' radii, the ring is the
    darkest of those circles from ``ring_before_mm`` short of the gap to ``ring_after_mm``
    beyond it (the top coin lies a little off the middle, the edge is blurred); the top face
    is the mean from ``face_from_mm`` to ``face_to_mm`` beyond the gap, and the band outside
    the ring the brightest circle in the ``outside_mm`` before the ring's span begins (the
    coin's own face or rim there, not the paper beyond its outline: a shiny lone coin's
    rounded edge is darker than its mirror face, but no darker than its rim). The dip (the
    lesser of those two less the ring) makes a coin a doubt where it lies
    ``doubt_spreads`` robust spreads (at least ``least_spread``) above the dips of the
    frame's lone coins and of its own kind's sure coins (see
    :func:`vision.inner_outlines.inner_outline_doubts`)."""

    inset_step_mm: float = 0.25
    angles: int = 48
    ring_before_mm: float = 0.5
    ring_after_mm: float = 0.75
    face_from_mm: float = 2.0
    face_to_mm: float = 3.0
    outside_mm: float = 0.5
    doubt_spreads: float = 5.0
    least_spread: float = 1.0


def radial_brightness(config: StepRingConfig, image: Image, centres: FloatArray,
                      radii: FloatArray, deepest_mm: float, pixels_per_mm: float
                      ) -> tuple[FloatArray, FloatArray]:
    """The insets (I,; mm from the outline inward, to ``deepest_mm``) and each coin's median
    brightness (mean of the colour channels) round the circle at each inset (N, I), for
    outlines of top-view ``centres`` (N, 2) and ``radii`` (N,) px."""
    insets = np.arange(0.0, deepest_mm + 1e-9, config.inset_step_mm)
    count = len(centres)
    if count == 0:
        return insets, np.zeros((0, len(insets)))
    turn = np.linspace(0, 2 * np.pi, config.angles, endpoint=False)
    circle_radii = np.maximum(radii[:, None] - insets[None, :] * pixels_per_mm, 0.0)
    total = count * len(insets) * config.angles
    padded = -(-total // _ROW) * _ROW
    maps = []
    for axis, unit in enumerate((np.cos(turn), np.sin(turn))):
        along = np.zeros(padded, np.float32)
        along[:total] = (centres[:, axis, None, None]
                         + circle_radii[..., None] * unit).reshape(-1)
        maps.append(along.reshape(-1, _ROW))
    map_x, map_y = maps
    samples = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR,
                        borderMode=cv2.BORDER_REPLICATE)
    channels = samples.reshape(padded, -1)[:total]
    # The channels summed one by one (exact in integers; a reduction over three is slow),
    # and the median of the sums divided by three.
    kind = np.int32 if np.issubdtype(channels.dtype, np.integer) else np.float64
    summed = np.add(np.add(channels[:, 0], channels[:, 1], dtype=kind), channels[:, 2],
                    dtype=kind)
    medians = np.median(summed.reshape(count, len(insets), config.angles), axis=2)
    return insets, np.asarray(medians, np.float64) / 3.0


def foot_dips(config: StepRingConfig, insets: FloatArray, brightness: FloatArray,
              gap_mm: float) -> FloatArray:
    """Each coin's dip at a smaller top coin's foot ``gap_mm`` inside its outline: how much
    darker the darkest circle about the gap is than both the top face inside it and the
    band just outside it (see :class:`StepRingConfig`; ``brightness`` from
    :func:`radial_brightness`): a ring darker than what lies either side of it."""
    tolerance = 1e-9
    ring = ((insets >= gap_mm - config.ring_before_mm - tolerance)
            & (insets <= gap_mm + config.ring_after_mm + tolerance))
    face = ((insets >= gap_mm + config.face_from_mm - tolerance)
            & (insets <= gap_mm + config.face_to_mm + tolerance))
    ring_starts = gap_mm - config.ring_before_mm
    outside = ((insets <= ring_starts + tolerance)
               & (insets >= ring_starts - config.outside_mm - tolerance))
    if not ring.any() or not face.any() or not outside.any():
        return np.full(len(brightness), np.nan)
    darkest = brightness[:, ring].min(axis=1)
    around = np.minimum(brightness[:, face].mean(axis=1), brightness[:, outside].max(axis=1))
    return np.asarray(around - darkest, np.float64)


def stands_out(config: StepRingConfig, dips: FloatArray, reference: NDArray[np.intp],
               least_coins: int, when_too_few: bool) -> NDArray[np.bool_]:
    """Per coin: whether its dip lies ``doubt_spreads`` robust spreads above the dips of the
    ``reference`` coins (``when_too_few`` for every coin where fewer than ``least_coins``
    of them were measured)."""
    return above_reference(dips, reference, least_coins, config.doubt_spreads,
                           config.least_spread, when_too_few)
