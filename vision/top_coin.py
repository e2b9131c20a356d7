"""The top coin of a stack of one metal, read from its own raised rim.

A smaller coin on a larger one of the same metal (a dime on a quarter, a nickel on a quarter, a
dime on a nickel) leaves the outline and the colour of the larger one; only the top coin's own
rim, a rim's width inside its edge, and the dark ring of its edge tell it apart. This module
finds that rim inside every outline (:func:`top_rims`) and decides from it, the outline's size
and the rim's offset whether the reading turns to the smaller kind (:func:`top_coins`). Where
the ring model of :mod:`vision.silver_tops` reads silver outlines, these rules read the rest:
coins of other metals (and silver ones when the model is switched off).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from vision.coin_fit import fit_circles, ray_maps
from vision.light import Normalised
from vision.profile import CoinLook, VisionProfile
from vision.read_config import ReadConfig

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray


def _inner_rims(
    config: ReadConfig, grey: Image, pawns: Image, centres: FloatArray, outline_px: FloatArray,
    pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray, FloatArray, FloatArray]:
    """The circle of the strongest edges inside each outline: (K, 2) centres, (K,) radii px,
    (K,) share of unhidden rays near the circle, (K,) count of rays no pawn crosses.

    Along each ray the strongest edge inside a coin is normally the top coin's raised rim (the
    wall of the rim and, for a coin on another, its own edge and shadow just outside): a circle
    about a rim's width inside the top coin's edge, wherever that coin lies on the stack.
    """
    begin = config.inner_rim_begin * outline_px
    end = np.maximum(outline_px - config.inner_rim_margin_mm * pixels_per_mm, begin + 1.0)
    fractions = np.linspace(0.0, 1.0, 32)
    radii = begin[:, None] + (end - begin)[:, None] * fractions[None, :]
    directions, map_x, map_y = ray_maps(centres, config.ray_count, radii)
    rays = config.ray_count
    values = cv2.remap(grey, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    values = values.reshape(len(centres), rays, -1).astype(np.float32)
    on_pawn = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
    valid: NDArray[np.bool_] = np.asarray(
        ~(on_pawn.reshape(len(centres), rays, -1) > 0).any(axis=2), dtype=bool
    )
    strongest = np.argmax(np.abs(values[..., 2:] - values[..., :-2]), axis=2) + 1
    edge = np.take_along_axis(radii[:, None, :], strongest[..., None], axis=2)[..., 0]
    points = centres[:, None, :] + directions[None] * edge[..., None]
    inner_centres, inner, share = fit_circles(
        replace(config, outside_weight=1.0, fit_rounds=3), points, valid, 1.5 * pixels_per_mm
    )
    seen = valid.sum(axis=1)
    return inner_centres, inner, share * rays / np.maximum(seen, 1), seen.astype(float)


def _ring_darkness(
    grey: Image, pawns: Image, centres: FloatArray, radii: FloatArray
) -> FloatArray:
    """How much darker a coin's edge ring (0.93 of ``radii``) is than inside and outside it,
    over the directions no pawn covers.

    A coin's edge shows as a dark ring: its rim wall, the shadow it casts, its side under a
    tilted camera. A coin lying on another shows one where the lower coin's face is plain.
    """
    angles = np.linspace(0, 2 * math.pi, 32, endpoint=False)
    fractions = np.array([0.62, 0.93, 1.12])
    offsets_x = (np.cos(angles)[:, None] * fractions[None, :]).ravel()
    offsets_y = (np.sin(angles)[:, None] * fractions[None, :]).ravel()
    map_x = (centres[:, 0, None] + radii[:, None] * offsets_x[None]).astype(np.float32)
    map_y = (centres[:, 1, None] + radii[:, None] * offsets_y[None]).astype(np.float32)
    values = cv2.remap(grey, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    values = values.astype(np.float64).reshape(len(centres), len(angles), 3)
    covered = cv2.remap(pawns, map_x, map_y, cv2.INTER_NEAREST, borderMode=cv2.BORDER_REPLICATE)
    clear: NDArray[np.bool_] = np.asarray(
        ~(covered.reshape(len(centres), len(angles), 3) > 0).any(axis=2), dtype=bool
    )
    means = (values * clear[..., None]).sum(axis=1) / np.maximum(clear.sum(axis=1), 1)[:, None]
    return np.asarray((means[:, 0] + means[:, 2]) / 2 - means[:, 1])


@dataclass(frozen=True, eq=False)
class TopRims:
    """The top coin's rim of some coins: where its centre lies (px), the top coin's diameter
    it gives (mm), how far it lies off the outline's centre (mm), and how well it was seen:
    ``fitted`` well enough to turn a reading, ``weak`` enough to doubt one, ``open`` on enough
    rays no pawn covers, ``clear`` on every ray."""

    centres: FloatArray
    diameters: FloatArray
    offsets: FloatArray
    fitted: NDArray[np.bool_]
    weak: NDArray[np.bool_]
    open: NDArray[np.bool_]
    clear: NDArray[np.bool_]


def top_rims(
    config: ReadConfig, grey: Image, pawns: Image, centres: FloatArray, outline_px: FloatArray,
    diameters: FloatArray, pixels_per_mm: float, profile: VisionProfile,
) -> TopRims:
    """The top coin's rim inside each outline (:func:`_inner_rims`), and its diameter.

    The rim's width is found from the frame's coins themselves (most lie alone, so the median
    gap between outline and rim is a rim's width), so the top coin's diameter is the rim
    circle's plus twice that width, in the same mm as ``diameters`` (the outlines').
    """
    inner_centres, inner, share, seen = _inner_rims(
        config, grey, pawns, centres, outline_px, pixels_per_mm
    )
    enough = seen >= config.ray_count / 3
    fitted = (share >= config.inner_rim_share) & enough
    widths = (outline_px - inner)[fitted & (seen == config.ray_count)]
    width = (float(np.median(widths)) if len(widths) >= config.min_coins_for_shift
             else config.rim_width_mm * pixels_per_mm)
    rim_gap = (inner + width - outline_px) / pixels_per_mm / profile.diameter_scale
    return TopRims(
        inner_centres, diameters + 2 * rim_gap - config.top_bias_mm,
        np.hypot(*(inner_centres - centres).T) / pixels_per_mm, fitted,
        enough & (share >= config.weak_rim_share), enough, seen == config.ray_count,
    )


@dataclass(frozen=True)
class TopChoice:
    """What one coin's top rim says: the smaller kind its top coin turns into (or None), the
    confidence factor of the reading as it stands, the confidence of the turned reading, and
    how dark the turned coin's edge ring must be against the outline's (0: no need)."""

    look: CoinLook | None
    factor: float
    turned: float = 0.0
    ring_ratio: float = 0.0


def _outline_and_smaller(profile: VisionProfile, kind: str) -> tuple[CoinLook, list[CoinLook]]:
    """The look of ``kind``, and the smaller kinds of its metal (which could lie on top)."""
    outline = next(look for look in profile.coins if look.kind == kind)
    return outline, [look for look in profile.coins
                     if look.colour == outline.colour and look.diameter_mm < outline.diameter_mm]


def _top_choice(
    config: ReadConfig, profile: VisionProfile, kind: str, diameter: float, rims: TopRims,
    at: int,
) -> TopChoice:
    """For one coin read as ``kind`` from an outline of ``diameter`` mm: whether its top coin
    is a smaller kind of its metal (see :func:`top_coins` for the evidence each case needs)."""
    outline, smaller = _outline_and_smaller(profile, kind)
    if not smaller:
        return TopChoice(None, 1.0)
    if not rims.weak[at]:  # unseen: a smaller coin on top could hide in the blur
        return TopChoice(None, config.unseen_rim_doubt if rims.open[at]
                         else config.hidden_coin_doubt)
    top = float(rims.diameters[at])
    fits = [look for look in smaller
            if top < (look.diameter_mm + outline.diameter_mm) / 2 + config.top_margin_mm]
    if not fits:  # the top coin is the outline's kind, unless the rim lies well off-centre
        stacked = rims.offsets[at] >= config.stack_offset_mm
        return TopChoice(None, config.hidden_coin_doubt if stacked else 1.0)
    top_look = min(fits, key=lambda look: abs(top - look.diameter_mm))
    doubt = config.hidden_coin_doubt
    largest = all(look.diameter_mm <= outline.diameter_mm
                  for look in profile.coins if look.colour == outline.colour)
    below = max(look.diameter_mm for look in profile.coins
                if look.diameter_mm < outline.diameter_mm)
    small = diameter < (below + outline.diameter_mm) / 2 + config.small_outline_mm
    offset = rims.offsets[at]
    gap = abs(top - top_look.diameter_mm)
    close = rims.fitted[at] and gap < config.top_tolerance_mm
    if small and not largest and top < (top_look.diameter_mm + outline.diameter_mm) / 2:
        turned = config.top_coin_confidence if close else config.off_centre_confidence
        return TopChoice(top_look, doubt, turned)  # no single coin of its kind is that small
    if close and small:
        return TopChoice(top_look, doubt, config.top_coin_confidence, config.top_ring_ratio)
    if close and largest and offset >= config.top_offset_mm:
        return TopChoice(top_look, doubt, config.off_centre_confidence, config.top_ring_ratio)
    if rims.clear[at] and gap < config.top_near_mm and offset >= config.least_stack_offset_mm:
        return TopChoice(top_look, doubt, config.off_centre_confidence, config.clear_ring_ratio)
    return TopChoice(None, doubt)


def top_coins(
    config: ReadConfig, normalised: Normalised, pawns: Image, centres: FloatArray,
    outline_px: FloatArray, diameters: FloatArray, kinds: list[str], pixels_per_mm: float,
    profile: VisionProfile,
) -> tuple[list[str], FloatArray]:
    """The top coin of each stack from its own rim: kinds and a confidence factor per coin.

    The outline is the lowest, largest coin of a stack (or the union of a stack's offset
    coins), so a smaller coin of the same metal on top (a dime on a quarter or a penny, dimes
    under a pawn) reads as the outline's kind. The top coin's raised rim gives its diameter
    (:func:`top_rims`). When that names a smaller kind of the outline's metal, the reading is
    doubtful; it turns to the smaller kind when the outline cannot be a single coin of its
    kind: too small for it (a dime on a penny, a stack of dimes swollen by their offsets; for
    a kind with a larger one of its metal the size alone proves a stack, given a rim inside
    nearer the smaller kind's size, since no single coin measures that far under its own), or
    the largest kind of its metal with the rim off its centre (stacked coins never line up
    exactly), and the top coin's edge also shows as a dark ring (:func:`_ring_darkness`) at
    least ``top_ring_ratio`` as dark as the outline's own. Otherwise a rim within
    ``top_near_mm`` of the smaller kind's size, at least ``least_stack_offset_mm`` off the
    outline's centre, seen on every ray and with an edge ring ``clear_ring_ratio`` as dark,
    turns it too: a dime on a nickel, whose edge lies where the nickel's own rim wall does
    (0.84 against 0.86 of the radius), shows only by lying off-centre, so the rest stay
    doubted. Where the top rim is not seen at all, a coin that may carry a smaller one of its
    metal is doubted too.
    """
    factor = np.ones(len(kinds))
    finite = np.flatnonzero(np.isfinite(diameters))
    if not any(_outline_and_smaller(profile, kinds[index])[1] for index in finite):
        return list(kinds), factor  # every reading stands as it is
    grey = normalised.grey_image()
    rims = top_rims(config, grey, pawns, centres[finite], outline_px[finite], diameters[finite],
                    pixels_per_mm, profile)
    flips: list[tuple[int, int, CoinLook, TopChoice]] = []
    result = list(kinds)
    for at, index in enumerate(finite):
        choice = _top_choice(config, profile, kinds[index], float(diameters[index]), rims, at)
        factor[index] = choice.factor
        if choice.look is not None and choice.ring_ratio <= 0:
            result[index], factor[index] = choice.look.kind, choice.turned
        elif choice.look is not None:
            flips.append((int(index), at, choice.look, choice))
    if not flips:
        return result, factor
    chosen = np.array([flip[0] for flip in flips])
    shift_px = outline_px[chosen] - diameters[chosen] / 2 * pixels_per_mm * profile.diameter_scale
    top_mm = np.array([look.diameter_mm for _, _, look, _ in flips])
    top_px = top_mm / 2 * pixels_per_mm * profile.diameter_scale + shift_px
    darkness = _ring_darkness(grey, pawns, rims.centres[[flip[1] for flip in flips]], top_px)
    darkness /= np.maximum(_ring_darkness(grey, pawns, centres[chosen], outline_px[chosen]), 1e-3)
    for (coin, _, look, choice), dark in zip(flips, darkness, strict=True):
        if dark >= choice.ring_ratio:
            result[coin], factor[coin] = look.kind, choice.turned
    return result, factor
