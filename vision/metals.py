"""A coin's kind must agree with the metal its face shows, or the reading is a doubt.

The frame model (:mod:`vision.frame_model`) names every coin from its size and its colour
together. Where the two disagree (a copper top coin on a nickel, whose outline is the
nickel's; a nickel measured a penny's size beside a window that greys every coin) the
likelier of the two wins, often at a confidence that says sure. But sizes mislead more
readily than a face seen whole: a stack's lower coins, a tilted coin's side and a glint's
bloom all change an outline, while nothing on a coin's face turns copper silver or silver
copper against the frame's own coins. So where a face was seen well (neither clipped nor
under a pawn) and its colour alone gives its kind's metal less than ``disagrees``, the
reading is a doubt; where the colour alone is at least ``decides`` sure of another metal,
the coin is named the likeliest kind of that metal, still as a doubt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray
from vision.frame_fit import FrameFit
from vision.frame_priors import KindPrior

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True)
class MetalCheckConfig:
    """When colour overrules size (see the module's description): the colour alone gives
    the kind's metal less than ``disagrees``, and another metal at least ``decides``; a
    reading it overrules is at most ``doubtful`` sure."""

    disagrees: float = 0.5
    decides: float = 0.95
    doubtful: float = 0.45


def settle_metals(config: MetalCheckConfig, frame: FrameFit, priors: tuple[KindPrior, ...],
                  kinds: list[str], confidence: FloatArray, seen: NDArray[np.bool_]
                  ) -> tuple[list[str], FloatArray]:
    """The ``kinds`` and ``confidence`` of the frame's coins (in ``frame``'s order), with
    every coin whose face was ``seen`` well checked against the metal its colour shows."""
    if not len(kinds) or not frame.metals or frame.by_colour.shape != (len(kinds),
                                                                       len(frame.metals)):
        return kinds, confidence
    metal_of = {prior.kind: frame.metals.index(prior.metal) for prior in priors
                if prior.metal in frame.metals}
    kind_metals = np.array([metal_of.get(kind, -1) for kind in frame.kinds])
    chosen = np.array([metal_of.get(kind, -1) for kind in kinds])
    rows = np.arange(len(kinds))
    agreeing = frame.by_colour[rows, np.maximum(chosen, 0)]
    overruled = seen & (chosen >= 0) & (agreeing < config.disagrees)
    settled = list(kinds)
    for row in np.flatnonzero(overruled):
        other = int(np.argmax(frame.by_colour[row]))
        if frame.by_colour[row, other] < config.decides or not (kind_metals == other).any():
            continue
        choices = np.where(kind_metals == other, frame.probabilities[row], -1.0)
        settled[row] = frame.kinds[int(np.argmax(choices))]
    capped = np.where(overruled, np.minimum(confidence, config.doubtful), confidence)
    return settled, np.asarray(capped)
