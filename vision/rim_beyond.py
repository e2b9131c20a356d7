"""A dime whose outline may be a nickel's face's edge, the rim's ring lying beyond it: a doubt.

A coin's rim is a raised ring of the same metal, lit and shaded unlike the face. Under a cold
window a nickel's face can mirror the light far brighter than the paper while its rim's dark
ring stands out less from grey paper than the face does: the steepest step round the coin is
then the face's edge, and the outline (:func:`vision.rims._circle_profile`) is drawn there,
a rim's width (1-1.5 mm) inside the coin's own edge, and the nickel measures 2-2.6 mm small,
near a dime's size. Along the rays such an outline shows two steps merged by the blur (face
to ring, ring to paper): the colour keeps changing steeply, at least ``rim_share`` of the
outline's own step, over a rim's width and more (``rim_reach_mm``) beyond it, where a single
coin's outline shows one blurred step that falls off within a millimetre.

A coin read as the smallest kind of its metal whose edge so spreads outwards, and whose
outline already lies more than ``past`` of the way to a larger kind of its metal by the
frame's own expected outlines, may reach as far as that larger kind: the frame's certainty
rests on a size the rim may not bound, so the reading is at most ``doubtful`` sure (its kind
is kept; the referee confirms it).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray, Image
from vision.frame_fit import FrameFit
from vision.rims import RimConfig, ray_rises
from vision.sure_evidence import smallest_toward_larger

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from vision.candidates import Candidates
    from vision.parallax import CameraOverMat
    from vision.rectify import TopView


@dataclass(frozen=True)
class RimBeyondConfig:
    """When an outline's edge spreads a rim's width beyond it (see the module's
    description): the mean change along the rays stays at least ``rim_share`` of the
    outline's own (its largest within ``step_mm`` of the outline) out to ``rim_reach_mm``
    beyond it, and the coin measures more than ``past`` of the way to a larger kind of its
    metal; such a reading is at most ``doubtful`` sure. Only where a camera pixel spans at most
    a millimetre (``least_camera_ppm``) is a rim's width more than the blur of one step: at a
    ring mat's coarse views (a camera pixel spanning 1.4-2.3 mm) every edge so spreads."""

    least_camera_ppm: float = 1.0
    rim_share: float = 0.4
    rim_reach_mm: float = 1.75
    step_mm: float = 0.25
    past: float = 0.0
    doubtful: float = 0.45


def spread_beyond(config: RimBeyondConfig, rims: RimConfig, image: Image,
                  centres_px: FloatArray, radii_px: FloatArray, pixels_per_mm: float
                  ) -> NDArray[np.bool_]:
    """Per outline (centres (K, 2) and radii (K,) in top-view px of the normalised
    ``image``): whether the colour's mean change along its rays stays at least
    ``rim_share`` of the outline's own step out to ``rim_reach_mm`` beyond it."""
    count = len(centres_px)
    if count == 0:
        return np.zeros(0, bool)
    # Rises are centred one sample in from each end of the radii sampled.
    offsets = np.arange(-2 * config.step_mm, config.rim_reach_mm + 1.5 * config.step_mm,
                        config.step_mm)
    radii = radii_px[:, None] + offsets[None, :] * pixels_per_mm  # (K, S)
    flags = np.zeros(image.shape[:2], np.uint8)
    rise, _, _ = ray_rises(rims, image, flags, np.asarray(centres_px, np.float64), radii)
    mean = rise.mean(axis=1)  # (K, S - 2), at offsets[1:-1]
    middles = offsets[1:-1]
    at_outline = np.abs(middles) <= config.step_mm + 1e-9
    beyond = (middles > 1e-9) & (middles <= config.rim_reach_mm + 1e-9)
    own = mean[:, at_outline].max(axis=1)
    return np.asarray((own > 0) & (mean[:, beyond].min(axis=1) >= config.rim_share * own),
                      bool)


def rim_beyond_doubt(config: RimBeyondConfig, rims: RimConfig, view: TopView, image: Image,
                     frame: FrameFit, kinds: list[str], metal_of: dict[str, str],
                     sizes: dict[str, float], candidates: Candidates, chosen: NDArray[np.intp],
                     confidence: FloatArray, camera: CameraOverMat) -> FloatArray:
    """The confidences of the ``chosen`` candidates read as ``kinds`` once every coin read
    as the smallest kind of its metal, measured toward a larger one, whose edge spreads a
    rim's width beyond its outline is capped at ``doubtful`` (``image``: the light-normalised
    top ``view``; ``camera`` tells where its pixels are fine enough to show a rim)."""
    diameters = candidates.diameters_mm[chosen]
    toward = smallest_toward_larger(frame, kinds, sizes, metal_of, diameters, config.past)
    fine = camera.pixels_per_mm(candidates.centres_mm[chosen]) >= config.least_camera_ppm
    rows = np.flatnonzero(toward & fine & (confidence > config.doubtful))
    if not len(rows):
        return confidence
    ppm = view.pixels_per_mm
    centres_px = (candidates.centres_mm[chosen][rows] - np.asarray(view.origin_mm)) * ppm - 0.5
    spread = spread_beyond(config, rims, image, centres_px, diameters[rows] * ppm / 2, ppm)
    capped = np.array(confidence, np.float64, copy=True)
    doubted = rows[spread]
    capped[doubted] = np.minimum(capped[doubted], config.doubtful)
    return capped


__all__ = ["RimBeyondConfig", "rim_beyond_doubt", "spread_beyond"]
