"""How far a measured coin is from each kind: its colour against each metal's, and the
frame's common size error, found from the coins themselves (their sizes are discrete).

Blur and a slightly wrong lens fit make every coin of a frame look a little larger or smaller.
Coin sizes are discrete and known, and the metal narrows each coin's kinds, so the shift that
brings most coins onto a size of their metal is that error, found per metal where a frame
holds enough of its coins (:func:`metal_shifts`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from vision.profile import VisionProfile
from vision.read_config import ReadConfig

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[Any]
else:
    FloatArray = np.ndarray


def colour_score(profile: VisionProfile, colours: FloatArray, metals: FloatArray) -> FloatArray:
    """Squared colour distance in sigmas from each kind's metal; 0 where the colour is unknown.

    Glare adds white light to a coin as to the paper, which pales its colour towards neutral
    along a straight line (in these log ratios, nearly so): a penny in glare keeps copper's
    hue but not its strength. So a coloured metal's colour is any on the line from its own
    towards neutral down to ``metal_fade`` of it: paler still, a colour counts in
    ``fade_sigma``, stronger than the metal's own in ``colour_sigma``, and across the line in
    ``colour_sigma`` scaled as glare scaled the colour (its strays pale with it, so a silver
    coin tinted red by a pawn is no paled penny). Silver, neutral already, stays a point
    (``colour_sigma`` every way), as far from copper as ever.
    """
    strength = np.sqrt((metals**2).sum(axis=1))
    unit = metals / np.maximum(strength, 1e-9)[:, None]
    along = colours @ unit.T  # (N, K): how far along each metal's line towards it
    across = colours @ np.column_stack([-unit[:, 1], unit[:, 0]]).T
    paler = np.maximum(profile.metal_fade * strength - along, 0.0)
    stronger = np.maximum(along - strength, 0.0)
    # Glare scales a colour's strays from its metal's line as it scales the colour.
    kept = np.clip(along / np.maximum(strength, 1e-9), profile.metal_fade, 1.0)
    faded = ((paler / profile.fade_sigma) ** 2 + (stronger / profile.colour_sigma) ** 2
             + (across / (profile.colour_sigma * kept)) ** 2)
    plain = ((colours[:, None, :] - metals[None]) ** 2).sum(axis=2) / profile.colour_sigma**2
    gap = np.where(strength[None] > 1e-6, faded, plain)
    return np.asarray(np.nan_to_num(gap, nan=0.0))


def size_shift(
    config: ReadConfig, profile: VisionProfile, diameters: FloatArray, colours: FloatArray,
    shares: FloatArray,
) -> float:
    """The frame's common size error (mm): the shift that brings most coins onto a size of
    their metal. Needs ``min_coins_for_shift`` well-fitted coins."""
    usable = np.isfinite(diameters) & (shares >= 0.5)
    if usable.sum() < config.min_coins_for_shift or config.max_size_shift_mm <= 0:
        return 0.0
    sizes, allowed = _allowed_sizes(profile, colours[usable])
    limit, step = config.max_size_shift_mm, 0.05
    shifts = np.arange(-limit, limit + step / 2, step)
    gaps = diameters[usable][None, :, None] - shifts[:, None, None] - sizes[None, None, :]
    gaps = np.where(allowed[None], np.abs(gaps), np.inf).min(axis=2)
    cost = np.minimum(gaps, 1.0).sum(axis=1) + 0.02 * np.abs(shifts) * usable.sum()
    return float(shifts[int(np.argmin(cost))])


def _allowed_sizes(profile: VisionProfile, colours: FloatArray) -> tuple[FloatArray, FloatArray]:
    """Every kind's size, and per coin which kinds its colour allows (all where none does)."""
    sizes = np.array([look.diameter_mm for look in profile.coins])
    metals = np.array([look.colour for look in profile.coins])
    score = colour_score(profile, colours, metals)
    allowed = score <= max(9.0, float(score.min(axis=1).max(initial=0.0)))
    allowed |= ~allowed.any(axis=1, keepdims=True)
    return sizes, allowed


def metal_shifts(
    config: ReadConfig, profile: VisionProfile, diameters: FloatArray, colours: FloatArray,
    shares: FloatArray,
) -> FloatArray:
    """Each coin's size error (mm): the frame's (:func:`size_shift`), found from its own
    metal's coins where a frame holds enough of them.

    Blur widens an edge by how far its blurred step stays unlike the paper, which depends on
    the coin's contrast with the paper: dark copper swells more than bright silver. One shift
    for all would then put a frame of many pennies' swelling onto its quarters and nickels.
    """
    shifts = np.full(len(diameters), np.nan)
    if len(diameters) == 0:
        return shifts
    metals = np.array([look.colour for look in profile.coins])
    nearest = np.argmin(colour_score(profile, colours, metals), axis=1)
    known = ~np.isnan(colours).any(axis=1)
    for metal in {look.colour for look in profile.coins}:
        group = known & (metals[nearest] == np.array(metal)).all(axis=1)
        if (group & (shares >= 0.5)).sum() >= config.min_coins_for_shift:
            shifts[group] = size_shift(
                config, profile, diameters[group], colours[group], shares[group]
            )
    rest = np.isnan(shifts)
    if rest.any():  # the frame's shift, only where some coins need it
        shifts[rest] = size_shift(config, profile, diameters, colours, shares)
    return shifts
