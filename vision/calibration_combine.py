"""What calibration measured in the layout frames, combined into a calibration.

Each layout frame's measurements (:class:`LayoutFrame`, made by
:func:`vision.calibrate.measure_layout_frame`) are combined square by square
(:func:`combine_layout`): an object counts from every frame it was found in, and one no frame
found is left out with a warning (its kind learned from the other coins). Measured kinds take
their measured size and their metal its colour; a coin whose face glare washed out takes its
metal's colour from the other coins of that metal, or another metal's with that metal's usual
tint; when glare washed out every coin, only the pawns are learned. Only a layout with no coin
found at all stops calibration.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

import numpy as np

from calibration.profile import CoinLook, PawnLook, VisionProfile
from contract.observation import COIN_KINDS
from vision.errors import CalibrationError
from vision.frame_model import FrameModelConfig

if TYPE_CHECKING:
    from vision.calibrate import CalibrationLayout


@dataclass(frozen=True)
class CoinMeasure:
    """One coin as calibration measured it: ``colour`` is None when glare washed its face out
    in every frame; ``frames`` names the frames it was measured in, ``missed`` those it was
    not (not found there, or the wrong size)."""

    kind: str
    square: str
    diameter_mm: float
    colour: tuple[float, float] | None
    frames: tuple[str, ...] = ()
    missed: tuple[str, ...] = ()


@dataclass(frozen=True)
class PawnMeasure:
    """One pawn as calibration measured it, with the frames it was (and was not) measured in."""

    name: str
    square: str
    colour: tuple[float, float, float]
    diameter_mm: float
    frames: tuple[str, ...] = ()
    missed: tuple[str, ...] = ()


@dataclass(frozen=True)
class Calibration:
    """The learned profile, the measurements it came from, the layout frames they were made
    in, and warnings for the user (a coin washed out by glare)."""

    profile: VisionProfile
    coins: tuple[CoinMeasure, ...]
    pawns: tuple[PawnMeasure, ...]
    frames: tuple[str, ...] = ()
    warnings: tuple[str, ...] = ()

    def report(self) -> tuple[str, ...]:
        """Lines for the user: the frames used, each coin's measured size against its true
        size, each pawn, and which frames an object was left out of."""
        lines = [f"from {counted(len(self.frames), 'layout frame')}: {', '.join(self.frames)}"]
        if self.profile.focal_px is not None:
            lines.append(f"camera focal length about {self.profile.focal_px:.0f} px (from the "
                         "empty mat's perspective, principal point taken in the frame's middle)")
        if self.profile.calibrated:
            offsets = [look.diameter_mm - COIN_KINDS[look.kind][1]
                       for look in self.profile.coins]
            lines.append(f"coins measure {float(np.median(offsets)):+.2f} mm against their true "
                         "size (the reader starts each frame from this and uses the pawn "
                         "colours; each coin's own size and colour are recorded)")
        for coin in self.coins:
            true = COIN_KINDS[coin.kind][1]
            colour = ("washed out by glare" if coin.colour is None
                      else f"{coin.colour[0]:+.2f} {coin.colour[1]:+.2f}")
            lines.append(
                f"{COIN_KINDS[coin.kind][0]:8} on {coin.square}: {coin.diameter_mm:6.2f} mm "
                f"(true {true:.2f}), colour {colour}{_left_out(coin.missed)}"
            )
        for pawn in self.pawns:
            blue, green, red = pawn.colour
            lines.append(
                f"{pawn.name + ' pawn':8} on {pawn.square}: colour against paper "
                f"red {red:.2f} green {green:.2f} blue {blue:.2f}, {pawn.diameter_mm:.1f} mm "
                f"across{_left_out(pawn.missed)}"
            )
        return tuple(lines)


def _left_out(missed: Sequence[str]) -> str:
    return f" (not measured in {', '.join(missed)})" if missed else ""


def counted(number: int, noun: str) -> str:
    """``1 frame``, ``3 frames``."""
    return f"{number} {noun}" + ("" if number == 1 else "s")


@dataclass(frozen=True)
class Problem:
    """Why an object could not be measured in a frame: what was wrong (``no nickel found on
    f3``) and what to do (``put a nickel (N) there``)."""

    what: str
    fix: str


@dataclass(frozen=True)
class LayoutFrame:
    """One frame of the layout as calibration measured it: per square, the object measured
    there or the problem that kept it from being measured."""

    name: str
    coins: Mapping[str, CoinMeasure]
    pawns: Mapping[str, PawnMeasure]
    problems: Mapping[str, Problem]


def listed(names: Sequence[str], most: int = 4) -> str:
    """``c3``, ``c3 and e4``, ``c3, e4 and f6``; more than ``most`` end in ``and N more``."""
    shown = list(names[:most])
    if len(names) > most:
        shown.append(f"{len(names) - most} more")
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} and {shown[-1]}"


def combine_layout(frames: Sequence[LayoutFrame], layout: CalibrationLayout,
                   base: VisionProfile | None = None) -> Calibration:
    """Combine the measurements of ``frames`` into a calibration, and learn.

    Each object is the median of the frames it was measured in: one that some frames missed
    counts from those that saw it. One that no frame measured is left out with a warning
    (its kind's size then comes from the other coins', its colour from its metal's other
    coins), as is a coin whose face glare washed out; only a layout of which no coin at all
    was found stops calibration. Measured kinds get their measured diameter; every kind of a
    measured metal gets that metal's colour; kinds and pawn colours the layout does not hold
    keep their base looks (sizes offset like the measured ones). Raises
    :class:`CalibrationError`.
    """
    if not frames:
        raise CalibrationError("calibration needs at least one frame of the layout")
    base = base or VisionProfile.default()
    found = [(square, _combined_coin(frames, square)) for _, square in layout.coins]
    coins = tuple(coin for _, coin in found if coin is not None)
    if not coins:
        raise CalibrationError(_nothing_found(frames, layout))
    pawns_found = [(square, _combined_pawn(frames, square)) for _, square in layout.pawns]
    pawns = tuple(pawn for _, pawn in pawns_found if pawn is not None)
    missed = [square for square, item in found + pawns_found if item is None]
    warnings = tuple(_missed_warning(frames, square, layout) for square in missed)
    profile, glare = _profile_from(base, coins, pawns)
    return Calibration(profile, coins, pawns, tuple(frame.name for frame in frames),
                       warnings + glare)


def _problem(frames: Sequence[LayoutFrame], square: str) -> Problem | None:
    """The most common problem the frames had with the object on ``square`` (the first of a
    tie), or None when they had none."""
    problems = [frame.problems[square] for frame in frames if square in frame.problems]
    return max(problems, key=problems.count) if problems else None


def _nothing_found(frames: Sequence[LayoutFrame], layout: CalibrationLayout) -> str:
    """The sentence for layout frames in which no coin was measured: the first coin's
    problem, and what to do."""
    square = layout.coins[0][1] if layout.coins else ""
    problem = _problem(frames, square)
    what = problem.what if problem else "no coin of the layout was found"
    where = "" if len(frames) == 1 else f" in any of the {len(frames)} layout frames"
    return (f"{what}{where}, nor any other coin of the layout on its square: put the coins "
            "on the squares shown, alone and flat, with the whole mat in view")


def _missed_warning(frames: Sequence[LayoutFrame], square: str,
                    layout: CalibrationLayout) -> str:
    """One sentence for an object no frame measured: why, and what was learned instead."""
    problem = _problem(frames, square)
    what = problem.what if problem else f"nothing was measured on {square}"
    where = "" if len(frames) == 1 else " in any layout frame"
    kinds = dict((square_of, kind) for kind, square_of in layout.coins)
    if square in kinds:
        name, _, metal = COIN_KINDS[kinds[square]]
        instead = (f"so the {name}'s size was taken from the other coins' and its colour "
                   f"from the other {metal} coins'")
    else:
        instead = "so that pawn keeps its usual colour"
    fix = f": {problem.fix} and calibrate again for a closer profile" if problem else ""
    return f"{what}{where}, {instead}{fix}"


def _combined_coin(frames: Sequence[LayoutFrame], square: str) -> CoinMeasure | None:
    """The median of the coin on ``square`` over the frames that measured it (None when none
    did); its size from those that saw its face when some did, since a glint that washes the
    face out also swells the outline."""
    measures = [frame.coins[square] for frame in frames if square in frame.coins]
    if not measures:
        return None
    missed = tuple(frame.name for frame in frames if square not in frame.coins)
    colours = [measure.colour for measure in measures if measure.colour is not None]
    colour = None
    if colours:
        colour = (_median([c[0] for c in colours]), _median([c[1] for c in colours]))
    sizes = [m.diameter_mm for m in measures if m.colour is not None or not colours]
    return CoinMeasure(measures[0].kind, square, _median(sizes), colour,
                       tuple(m.frames[0] for m in measures), missed)


def _combined_pawn(frames: Sequence[LayoutFrame], square: str) -> PawnMeasure | None:
    """The median of the pawn on ``square`` over the frames that measured it (None when
    none did)."""
    measures = [frame.pawns[square] for frame in frames if square in frame.pawns]
    if not measures:
        return None
    missed = tuple(frame.name for frame in frames if square not in frame.pawns)
    blue, green, red = (_median([m.colour[index] for m in measures]) for index in range(3))
    return PawnMeasure(measures[0].name, square, (blue, green, red),
                       _median([m.diameter_mm for m in measures]),
                       tuple(m.frames[0] for m in measures), missed)


def _median(values: Sequence[float]) -> float:
    return round(float(np.median(values)), 4)


def metal_colours(coins: Sequence[CoinMeasure]) -> dict[str, tuple[float, float]]:
    """Metal -> the median colour of the measured coins of that metal whose face showed it.

    Colour belongs to the metal, not the kind: nickels, dimes and quarters are all silver, and
    letting one tarnished dime's colour differ from one quarter's would make colour noise
    decide between sizes.
    """
    by_metal: dict[str, list[tuple[float, float]]] = {}
    for coin in coins:
        if coin.colour is not None:
            by_metal.setdefault(COIN_KINDS[coin.kind][2], []).append(coin.colour)
    return {
        metal: (_median([c[0] for c in colours]), _median([c[1] for c in colours]))
        for metal, colours in by_metal.items()
    }


def washed_out_warnings(coins: Sequence[CoinMeasure]) -> tuple[str, ...]:
    """One sentence per coin whose face glare washed out in every frame, saying where its
    metal's colour was taken from: the layout's other coins of that metal, or else the
    reader's usual tint of that metal against another metal measured. When glare washed out
    every coin, one sentence says the coins were not learned at all."""
    shown = sorted({COIN_KINDS[coin.kind][2] for coin in coins if coin.colour is not None})
    if not shown:
        return ("glare washed out the face of every coin of the layout, so coins will be "
                "read as without a profile and only the pawns were learned: move the light "
                "so it does not glare on the coins and calibrate again to learn them",)
    warnings = []
    for coin in coins:
        if coin.colour is not None:
            continue
        name, _, metal = COIN_KINDS[coin.kind]
        others = [other for other in coins
                  if other.colour is not None and COIN_KINDS[other.kind][2] == metal]
        advice = ""
        if others:
            sources = listed([f"the {COIN_KINDS[other.kind][0]} on {other.square}"
                              for other in others])
        else:
            sources = f"the {shown[-1]} coins' with {metal}'s usual tint"
            advice = "; calibrate again with the light off it for a closer colour"
        warnings.append(f"glare washed out the face of the {name} on {coin.square}, so its "
                        f"colour was taken from {sources} and its size from the other coins' "
                        f"(glare swells a coin's outline){advice}")
    return tuple(warnings)


def every_metal(shown: Mapping[str, tuple[float, float]]) -> dict[str, tuple[float, float]]:
    """Each metal's colour: as ``shown`` by the layout's coins, else the reader's usual tint
    of that metal against silver, silver itself worked back from a tinted metal shown when
    no silver coin showed its colour. Empty when nothing was shown."""
    tints = dict(FrameModelConfig().tints)
    metals = dict(shown)
    if "silver" not in metals:
        for metal, colour in shown.items():
            if metal in tints:
                metals["silver"] = (round(colour[0] - tints[metal][0], 4),
                                    round(colour[1] - tints[metal][1], 4))
                break
    if "silver" in metals:
        silver = metals["silver"]
        for metal, tint in tints.items():
            metals.setdefault(metal, (round(silver[0] + tint[0], 4),
                                      round(silver[1] + tint[1], 4)))
    return metals


def _profile_from(base: VisionProfile, coins: Sequence[CoinMeasure],
                  pawns: Sequence[PawnMeasure]) -> tuple[VisionProfile, tuple[str, ...]]:
    """Measured kinds take their measured size; every kind takes its metal's colour (see
    :func:`every_metal`); the rest (and kinds glare washed out) keep the base look, sizes
    offset like the measured ones. When glare washed out every coin the coins keep the base
    looks and the profile is not marked calibrated (the reader then reads coins as without
    one). Also returns the warnings for coins washed out by glare (see
    :func:`washed_out_warnings`)."""
    warnings = washed_out_warnings(coins)
    # A coin glare washed out in every frame was measured through the glare: its size is
    # taken as for a kind the layout does not hold.
    measured: Mapping[str, CoinMeasure] = {
        coin.kind: coin for coin in coins if coin.colour is not None
    }
    profile = replace(base, diameter_scale=1.0, calibrated=bool(measured))
    if measured:
        metals = every_metal(metal_colours(coins))
        # A camera's blur and a coin's rounded edge add about the same millimetres to every
        # kind's outline: a kind not measured is offset like the median measured one.
        offsets = [coin.diameter_mm - COIN_KINDS[coin.kind][1] for coin in measured.values()]
        offset = float(np.median(offsets))
        looks = []
        for look in base.coins:
            colour = metals.get(COIN_KINDS[look.kind][2], look.colour)
            if look.kind in measured:
                diameter = measured[look.kind].diameter_mm
            else:
                diameter = round(COIN_KINDS[look.kind][1] + offset, 3)
            looks.append(CoinLook(look.kind, diameter, colour))
        profile = replace(profile, coins=tuple(looks))
    if pawns:
        learned = {pawn.name: PawnLook(pawn.name, pawn.colour) for pawn in pawns}
        kept = tuple(look for look in base.pawns if look.name not in learned)
        profile = replace(profile, pawns=tuple(learned.values()) + kept)
    profile.check("the learned profile")
    return profile, warnings
