"""What a ring's spaces hold: one coin or none, where the paper's texture and the light's
division may trace a faint ring.

No circle is printed round a ring's space (ticks mark it), yet what the light's division
leaves of the ticks' ink, or the paper's texture, may show as a faint ring about the space's
middle. A coin shows its raised rim inside its edge (a top circle), and a coin's edge stands
out of the paper by ``CoinConfig.bare_contrast`` or more: of the 304 coins of 32 five- and
six-seat tuning frames (2 to 2.4 mm of mat a camera pixel, the faintest edges), the 14 with no
top circle stood out by 0.11 or more (``docs/FIGURES.md``, ring-accuracy3), while the ring's
phantoms stood out by 0.06 to 0.08 with none. Nor does a phantom's rim agree on
``CoinConfig.ragged_agreement`` of its rays, top circle or not (the two HOME phantoms of seeds
134 and 143 agreed on 0.42-0.44; lone coins so faint on 0.96 or more).

But a coin also has a face, metal that the lamp lights less than the white paper about it,
while a phantom's middle is that paper. Over the 480 tuning frames (seeds 0-479) the middle
(within ``CoinMassConfig.face_share`` of the outline's diameter of its centre) of every bare
faint outline in an empty space lay within 1.4 % of the paper's level (measured
``window_mm`` to ``window_mm + paper_band_mm`` out), that of every coin 4 % or more below it
(4.2 % on paper the camera clipped white under a glare; 15 % for seed 397's faint nickel).
So in a ring's space a faint bare outline is no coin (not taken; it casts its presence as the
empty reading's doubt) only where its middle lies less than ``CoinConfig.bare_face`` below the
paper. One kept rests on a faint edge: it is read as a doubt
(:func:`vision.read._partial_evidence`) and weighs nothing in the frame's fit, so that it
moves no other coin's reading. Elsewhere (Coin Isolation's squares) such an outline stays a
coin, read as a doubt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import BoolArray, Image
from vision.candidates import Candidates
from vision.coin_mass import CoinMassConfig, paper_window
from vision.read_config import CoinConfig

if TYPE_CHECKING:
    from vision.rectify import TopView


def bare_outlines(config: CoinConfig, candidates: Candidates, alone: BoolArray) -> BoolArray:
    """Per candidate: whether it lies ``alone`` (in a ring's space), standing out of the paper
    by less than ``bare_contrast`` with no top circle inside it or a rim that agrees on under
    ``ragged_agreement`` of its rays."""
    faint = candidates.contrast < config.bare_contrast
    bare = np.isnan(candidates.inner_mm) | (candidates.agreement < config.ragged_agreement)
    return np.asarray(alone & faint & bare, bool)


def middle_darkness(config: CoinMassConfig, image: Image, centre_px: tuple[float, float],
                    diameter_mm: float, pixels_per_mm: float) -> float:
    """How far below the paper's level about it (its median ``window_mm`` to ``window_mm +
    paper_band_mm`` from ``centre_px``, column and row) the middle of an outline of
    ``diameter_mm`` lies in ``image``, as a share of that level (NaN where the window leaves
    the image)."""
    found = paper_window(config, image, centre_px, pixels_per_mm)
    if found is None:
        return float("nan")
    patch, radius_squared, paper = found
    middle = patch[radius_squared < (config.face_share * diameter_mm) ** 2].mean(axis=0)
    level = float(paper.sum())
    return float((paper - middle).sum()) / level if level > 0 else float("nan")


def printed_rings(config: CoinConfig, mass: CoinMassConfig, view: TopView, image: Image,
                  candidates: Candidates, alone: BoolArray) -> BoolArray:
    """Per candidate: whether it is a bare faint outline in a ring's space
    (:func:`bare_outlines`) whose middle lies less than ``bare_face`` below the paper about it
    in ``image`` (the top view ``view`` with the light divided out): the paper's texture or
    the ink's trace, no coin."""
    printed = bare_outlines(config, candidates, alone)
    for position in np.flatnonzero(printed):
        centre = view.to_pixels(float(candidates.tops_mm[position][0]),
                                float(candidates.tops_mm[position][1]))
        darkness = middle_darkness(mass, image, centre, float(candidates.diameters_mm[position]),
                                   view.pixels_per_mm)
        printed[position] = not darkness >= config.bare_face
    return printed


__all__ = ["bare_outlines", "middle_darkness", "printed_rings"]
