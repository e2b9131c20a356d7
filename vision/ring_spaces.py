"""What a ring's spaces hold: one coin or none, in a printed circle a coin's size.

Every space of the Jokers and Coins ring (issue 21) is a circle printed the size of a coin, and
what the light's division leaves of its ink, or the paper's texture, may show as a faint ring
about the space's middle. A coin shows its raised rim inside its edge (a top circle), and a
coin's edge stands out of the paper by ``CoinConfig.bare_contrast`` or more: of the 304 coins
of 32 five- and six-seat tuning frames (2 to 2.4 mm of mat a camera pixel, the faintest
edges), the 14 with no top circle stood out by 0.11 or more (``docs/FIGURES.md``,
ring-accuracy3), while the ring's phantoms stood out by 0.06 to 0.08 with none. So in a ring's
space an outline with no top circle that stands out by less is no coin: it is not taken, and
casts its presence as the empty reading's doubt. Nor is a faint outline whose rim agrees on
under ``CoinConfig.ragged_agreement`` of its rays, even with a top circle found inside: a
coin's rim is a whole circle, and of the 228 lone coins of 24 five- and six-seat tuning frames
(seeds 83-143) the four that stood out by less than ``bare_contrast`` agreed on 0.96 of their
rays or more (none under 0.5 at any contrast), while the two HOME phantoms (134 h6-3, 143 h1-1:
0.07-0.075, a top circle of the paper's texture inside) agreed on 0.42-0.44. Elsewhere (Coin
Isolation's squares, printed with no circle) such an outline stays a coin, read as a doubt
(:func:`vision.read._partial_evidence`).
"""

from __future__ import annotations

import numpy as np

from vision.arrays import BoolArray
from vision.candidates import Candidates
from vision.read_config import CoinConfig


def printed_rings(config: CoinConfig, candidates: Candidates, alone: BoolArray) -> BoolArray:
    """Per candidate: whether it lies ``alone`` (in a ring's space), standing out of the paper
    by less than ``bare_contrast`` with no top circle inside it or a rim that agrees on under
    ``ragged_agreement`` of its rays: the space's printed circle or the paper's texture, no
    coin."""
    faint = candidates.contrast < config.bare_contrast
    bare = np.isnan(candidates.inner_mm) | (candidates.agreement < config.ragged_agreement)
    return np.asarray(alone & faint & bare, bool)


__all__ = ["printed_rings"]
