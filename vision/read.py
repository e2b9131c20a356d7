"""Reading every region of a rectified mat: which coin lies on top, which pawn stands there.

The stages, each a pure function of its configuration and an image (to hold on any camera):

1. :mod:`vision.light` divides the light out against the printed mat: paper becomes white;
   :mod:`vision.channel_noise` smooths a channel that division left far noisier than the rest.
2. :mod:`vision.pawns` finds the strongly coloured pawns and where each one stands.
3. :mod:`vision.seeds` finds where coins may lie, :mod:`vision.rims` fits each one's outline
   (a stack's base disc, :mod:`vision.parallax`), :mod:`vision.faces` samples its face's colour.
4. :mod:`vision.frame_model` names every coin of the frame at once, from how its coins compare
   (sizes against the mat's millimetres, metals against the silver around them); its
   probabilities are the readings' confidences.

Regions of kind ``pit`` and ``cup`` hold loose coins: every coin there is counted (the count
and the kinds). A ``tray``'s dice are read by :mod:`vision.dice`, the card on a ``discard``
spot by :mod:`vision.cards`. :func:`read_frame` is the whole pipeline from a frame.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from calibration.geometry import MatGeometry
from calibration.profile import VisionProfile
from contract.observation import COIN_KINDS, Observation, RegionReading
from vision.arrays import FloatArray, Image
from vision.candidates import (
    Candidates,
    coin_presence,
    empty_doubt,
    joined,
    loose_candidates,
    measure_candidates,
    select_coins,
)
from vision.cards import read_discard_in_frame, read_discard_in_view
from vision.channel_noise import balance_channel_noise
from vision.coin_mass import reread_lone_coins
from vision.dice import read_tray, read_tray_in_frame
from vision.frame_fit import FrameFit
from vision.frame_model import FrameModelConfig, KindPrior, fit_frame
from vision.inner_outlines import inner_outline_doubts, seen_whole
from vision.light import mat_reference, normalise, raise_glints, reference_blur
from vision.loose import read_by_circles
from vision.markers import BoardLocation, MarkerConfig, find_board
from vision.metals import settle_metals
from vision.parallax import CameraOverMat, camera_over_mat, overhead_camera
from vision.pawn_casts import without_light_casts
from vision.pawns import (
    PawnSighting,
    find_pawns,
    inside_tokens,
    pawn_labels,
    pawn_mask,
    pawns_by_region,
)
from vision.pile_sizes import between_silver_kinds, under_smallest_silver
from vision.presence import empty_doubts, unlike_paper
from vision.read_config import ALONE_KINDS, LOOSE_KINDS, CoinConfig, ReadConfig
from vision.rectify import RectifyConfig, TopView, rectify
from vision.regions import RegionWindow, region_windows
from vision.rim_beyond import rim_beyond_doubt
from vision.ring_spaces import bare_outlines, printed_rings
from vision.size_doubt import SmallerTops, plausible_kinds, smaller_tops, stack_doubts
from vision.sure_evidence import disagreeing_evidence

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True)
class VisionConfig:
    """The whole pipeline's configuration: finding, rectifying, reading."""

    markers: MarkerConfig = field(default_factory=MarkerConfig)
    rectify: RectifyConfig = field(default_factory=RectifyConfig)
    read: ReadConfig = field(default_factory=ReadConfig)


# -- where regions lie in the top view -----------------------------------------------------------


@dataclass(frozen=True)
class CoinFit:
    """One measured coin: its base centre and diameter (mm, before the frame's size offset is
    taken out), its face colour (``(ln(red/green), ln(blue/green))`` against the paper, NaN
    where unseen) and the share of its rays that agree with its outline."""

    centre_mm: tuple[float, float]
    diameter_mm: float
    colour: tuple[float, float]
    rim_share: float


@dataclass(frozen=True, eq=False)
class ViewReading:
    """Everything read from one top view: the readings, plus every coin and pawn measured."""

    regions: dict[str, RegionReading]
    coins: tuple[tuple[str, CoinFit, str, float], ...]
    pawns: tuple[PawnSighting, ...] = ()
    frame: FrameFit | None = None


def _kind_priors(profile: VisionProfile) -> tuple[KindPrior, ...]:
    """The frame model's kinds: the profile's coins with their true sizes and metals."""
    return tuple(KindPrior(look.kind, COIN_KINDS[look.kind][1], COIN_KINDS[look.kind][2])
                 for look in profile.coins)


def model_for(config: FrameModelConfig, profile: VisionProfile) -> FrameModelConfig:
    """The frame model's priors for ``profile``: a calibrated profile's coins, measured by
    this very reader with this camera, give the common size offset (the median of its kinds'
    offsets: the camera's blur and the coins' rounded edges), which every frame then starts
    from (each frame still fits its own, within ``calibrated_spread`` of the usual spread).

    The profile's per-kind offsets and metal colours are recorded but not used: measured on
    one coin each under calibration's light, they did not reduce errors on the physically
    based tuning scenes where each frame fits its own (``bench/bench_calibration_parts.py``).
    """
    if not profile.calibrated:
        return config
    offsets = [look.diameter_mm - COIN_KINDS[look.kind][1] for look in profile.coins]
    return replace(config, offset_mm=float(np.median(offsets)),
                   offset_spread_mm=config.calibrated_spread * config.offset_spread_mm)


def _coins_and_frame(
    config: ReadConfig, candidates: Candidates, presence: FloatArray,
    priors: tuple[KindPrior, ...], camera: CameraOverMat | None = None,
    alone: NDArray[np.bool_] | None = None, printed: NDArray[np.bool_] | None = None,
) -> tuple[NDArray[np.intp], FrameFit]:
    """The frame's coins and its model, fitted once. Candidates a pawn stands on weigh half,
    kept only where coin-sized by the fitted size offset (a pawn's base is smaller than any
    coin); those ``lifted`` (taken once clipped rays were set aside: a glint's bloom may size
    them) and faint bare outlines in a ring's space weigh nothing. ``camera`` tells how
    coarsely it sees each coin; ``alone`` marks ring spaces' (``printed``: no coin there)."""
    sizes = np.array([prior.diameter_mm for prior in priors])
    margin = config.coins.size_margin_mm
    offset = config.model.offset_mm
    least, most = sizes.min() + offset - margin, sizes.max() + offset + 2 * margin
    alone = np.zeros(len(presence), bool) if alone is None else alone
    set_aside = candidates.under_pawn if printed is None else candidates.under_pawn | printed
    free = select_coins(config.coins, candidates, presence, least, most, ~set_aside)
    chosen = select_coins(config.coins, candidates, presence, least, most,
                          candidates.under_pawn, free)
    weak = candidates.lifted | bare_outlines(config.coins, candidates, alone)
    weights = presence * np.where(candidates.under_pawn, 0.5, 1.0) * ~weak
    pixel_mm = (np.full(len(chosen), np.nan) if camera is None
                else 1.0 / camera.pixels_per_mm(candidates.centres_mm[chosen]))
    frame = _fit(config, priors, candidates, weights, chosen, pixel_mm, bool(alone.any()))
    smallest = sizes.min() + frame.offset_mm - config.coins.pawn_size_margin_mm
    coin_sized = ~candidates.under_pawn[chosen] | (candidates.diameters_mm[chosen] >= smallest)
    return chosen[coin_sized], frame.subset(coin_sized)


def _fit(config: ReadConfig, priors: tuple[KindPrior, ...], candidates: Candidates,
         presence: FloatArray, chosen: NDArray[np.intp], pixel_mm: FloatArray,
         ring: bool) -> FrameFit:
    """The frame model fitted to the ``chosen`` candidates, seen at ``pixel_mm`` (mm of mat
    a camera pixel spans at each), on a ring's mat or not."""
    return fit_frame(config.model, priors, candidates.centres_mm[chosen],
                     candidates.diameters_mm[chosen], presence[chosen],
                     candidates.colours[chosen], candidates.clipped[chosen],
                     candidates.edge_colours[chosen], candidates.inner_mm[chosen],
                     candidates.contrast[chosen], pixel_mm, ring)


def _partial_evidence(
    config: CoinConfig, candidates: Candidates, chosen: NDArray[np.intp], frame: FrameFit,
    kinds: list[str], priors: tuple[KindPrior, ...],
) -> NDArray[np.bool_]:
    """Per chosen coin: whether its kind rests on part of the evidence only, so that it is a
    doubt, never sure. So is a coin a pawn stands on (its middle hidden, its face mirroring
    the pawn); one whose face the camera clipped white on ``glint_share`` of it or more (its
    colour is the glint's fringe, or none); and one whose colour lies in the middle
    ``metal_boundary`` either side of halfway between this frame's silver and a tinted metal,
    or farther from both than ``metal_distance`` of the tint between them (it belongs to
    neither of the frame's metals), while a kind of the other metal lies within
    ``metal_size_gap_mm`` of its size. So is an outline with no top circle inside that stands
    out of paper by less than ``bare_contrast``: a coin shows its raised rim inside its edge,
    and a faint ring with nothing inside may be the paper's texture or the ink's trace."""
    colours = candidates.colours[chosen]
    partial = (candidates.under_pawn[chosen] | np.isnan(colours).all(axis=1)
               | (candidates.clipped[chosen] >= config.glint_share)
               | (np.isnan(candidates.inner_mm[chosen])
                  & (candidates.contrast[chosen] < config.bare_contrast)))
    metal_of = {prior.kind: prior.metal for prior in priors}
    size_of = {prior.kind: prior.diameter_mm for prior in priors}
    residual = colours - frame.silver_field
    for metal, tint in frame.tints.items():
        strength = float(np.hypot(*tint))
        if metal == "silver" or strength < 1e-6:
            continue
        share = residual @ np.asarray(tint) / strength**2
        nearest = np.minimum(np.hypot(*residual.T), np.hypot(*(residual - np.asarray(tint)).T))
        between = ((np.abs(share - 0.5) < config.metal_boundary)
                   | (nearest > config.metal_distance * strength))
        for position, kind in enumerate(kinds):
            if not between[position]:
                continue
            other = [size_of[name] for name in size_of
                     if (metal_of[name] == metal) != (metal_of[kind] == metal)]
            near = [abs(size - size_of[kind]) for size in other]
            partial[position] |= bool(near) and min(near) <= config.metal_size_gap_mm
    return np.asarray(partial, bool)


def _smaller_tops(
    config: ReadConfig, candidates: Candidates, chosen: NDArray[np.intp], frame: FrameFit,
    kinds: list[str], sure: FloatArray, priors: tuple[KindPrior, ...],
    open_kinds: list[frozenset[str]], camera: CameraOverMat,
) -> SmallerTops:
    """Per chosen coin: the odds that its top circle is a smaller top coin's edge, not its own
    rim, and that coin's kind (:func:`vision.size_doubt.smaller_tops`), from where the circle
    lies across and how far its centre lies along the lean beyond a lone coin's top face."""
    direction, lean = camera.lean(candidates.centres_mm[chosen])
    shift = candidates.inner_centres_mm[chosen] - candidates.tops_mm[chosen]
    rise = (shift * direction).sum(axis=1)
    return smaller_tops(config.size_doubt, kinds, candidates.inner_mm[chosen], sure,
                        {prior.kind: prior.diameter_mm for prior in priors},
                        frame.offset_mm, rise, lean, config.rims.coin_thickness_mm, open_kinds,
                        candidates.diameters_mm[chosen])


def _read_tops(
    config: ReadConfig, tops: SmallerTops, kinds: list[str], confidence: FloatArray,
    agreement: FloatArray, whole: NDArray[np.bool_], frame: FrameFit,
    priors: tuple[KindPrior, ...], alone: NDArray[np.bool_],
) -> tuple[list[str], FloatArray]:
    """The kinds and confidences once smaller top coins are weighed: a coin whose top circle
    is more likely a smaller coin's edge than its own rim, however its rim is placed
    (``top_odds`` of :attr:`~vision.size_doubt.SmallerTops.outline_odds`), a circle whose edge
    ``top_agreement`` of the rays show (a coin's edge is whole, a ring of lettering is not)
    on a face whose colour gives that smaller coin's metal ``top_metal`` or more, seen
    ``whole`` (no pawn on it, no glint over it), is read as that smaller coin, at most a
    doubt (the circle alone names it); every other coin's confidence is scaled by the odds
    against a smaller top. A coin lying ``alone`` (a ring's space) has no coin on top: its
    outline names it, as doubtfully as the circle makes it."""
    doubt = config.size_doubt
    metal_of = {prior.kind: prior.metal for prior in priors}
    read = list(kinds)
    scaled = confidence * (1.0 - tops.odds)
    for position, top in enumerate(tops.kinds):
        if (top is None or tops.outline_odds[position] < doubt.top_odds
                or not whole[position] or alone[position]):
            continue
        metal = metal_of[top]
        colour_share = (float(frame.by_colour[position, frame.metals.index(metal)])
                        if metal in frame.metals and len(frame.by_colour) else 0.0)
        if agreement[position] >= doubt.top_agreement and colour_share >= doubt.top_metal:
            read[position] = top
            scaled[position] = min(float(tops.outline_odds[position]),
                                   config.coins.hidden_confidence)
    return read, scaled


def read_view(
    config: ReadConfig, view: TopView, geometry: MatGeometry, profile: VisionProfile,
    camera: CameraOverMat | None = None, source: tuple[Image, BoardLocation] | None = None,
) -> ViewReading:
    """Read every region of ``geometry`` in a rectified top view, seen by ``camera`` (by
    default one straight above the mat's middle). Given the camera frame the view came
    from (and where the mat lies in it), dice are read from the frame's own detail."""
    ppm = view.pixels_per_mm
    if camera is None:
        camera = overhead_camera(geometry)
    image, ink = _normalised(config, view, geometry, camera)
    labels = without_light_casts(config.pawns, pawn_labels(config.pawns, image, profile), image,
                                 ppm)
    sightings = find_pawns(config.pawns, labels, profile, ppm, view.origin_mm, camera)
    height, width = image.shape[:2]
    mask = pawn_mask(config.pawns, labels, (width, height), ppm)
    every_window = region_windows(geometry, ppm, view.origin_mm, (width, height))
    # Discard spots hold cards, whose pips are no coins: they are read on their own.
    windows = tuple(window for window in every_window if window.kind != "discard")
    candidates, loose_doubt = _all_candidates(config, view, image, mask, camera, windows, ink)
    presence = coin_presence(config.coins, candidates)
    # A coin's outline inside a flat token is the token's own rim.
    presence = np.where(inside_tokens(sightings, candidates.centres_mm), 0.0, presence)
    piled_windows = np.array([window.piled for window in windows] + [False], bool)
    at = np.where(candidates.region >= 0, candidates.region, -1)
    piled = piled_windows[at]
    alone = np.array([window.kind in ALONE_KINDS for window in windows] + [False], bool)[at]
    printed = printed_rings(config.coins, config.coin_mass, view, image, candidates, alone)
    chosen, frame, kinds, confidence = _coin_kinds(config, candidates, presence, profile, camera,
                                                   piled, alone, printed)
    confidence = _inner_outline_doubt(config, view, image, candidates, chosen, kinds, confidence,
                                      profile, windows)
    kinds, confidence = _disagreeing_evidence(config, view, image, candidates, chosen, frame,
                                              kinds, confidence, profile, alone[chosen], camera)
    found = _coins_by_region(candidates, chosen, kinds, confidence, windows)
    doubt = np.maximum(empty_doubt(config.coins, candidates, presence, chosen, len(windows)),
                       loose_doubt)
    # Something unlike paper no rim was fitted to: a coin glinting white, or shiny on paper.
    unlike = unlike_paper(config.presence, view.image, image, ppm, mask, ink)
    glinting = bool((candidates.clipped[chosen] >= config.coins.glint_share).any())
    doubt = np.maximum(doubt, empty_doubts(config.presence, unlike, windows, ppm, glinting))
    pawns_at = pawns_by_region(sightings, geometry)
    traces = _pawn_traces(config, labels, windows, ppm)
    regions: dict[str, RegionReading] = {}
    measured: list[tuple[str, CoinFit, str, float]] = []
    for index, window in enumerate(windows):
        coins = found.get(window.name, [])
        measured.extend((window.name, fit, kind, conf) for fit, kind, conf in coins)
        if window.kind == "tray":
            regions[window.name] = _read_tray(config, view, window, geometry, camera, source)
        elif window.kind == "discard":
            # Cards lie there, not coins (a card reader reads them).
            regions[window.name] = RegionReading(None, None, 1.0)
        else:
            regions[window.name] = _coin_region(config.coins, window, coins,
                                                pawns_at.get(window.name), traces[index],
                                                float(doubt[index]))
    for window in every_window:
        if window.kind == "discard":
            regions[window.name] = _read_discard(config, view, window, geometry, source)
    return ViewReading(regions, tuple(measured), tuple(sightings), frame)


def _normalised(config: ReadConfig, view: TopView, geometry: MatGeometry,
                camera: CameraOverMat) -> tuple[Image, Image]:
    """The view with the light and the mat's printing divided out, and where its ink lies."""
    light = config.light
    middle = np.array([geometry.play_area.centre], np.float64)
    blur = reference_blur(light, view.pixels_per_mm, float(camera.pixels_per_mm(middle)[0]))
    margin = geometry.play_area.left - view.origin_mm[0]
    reference = mat_reference(geometry, view.pixels_per_mm, margin, blur, light.ink_band_mm,
                              light.dark_ink, light.dark_band_mm)
    # A glint on paper the camera did not clip stands out by its clipping, however bright the
    # light there: a patch no smaller than the least the presence check weighs, and no larger
    # or wider than a coin with its bloom (vision.presence).
    presence = config.presence
    # A channel the light barely excites carries the sensor's noise many times over once
    # divided out: smoothed until no noisier than the others (vision.channel_noise).
    lit = balance_channel_noise(config.channel_noise, normalise(light, view, reference))
    normalised = raise_glints(light, view.image, lit, view.pixels_per_mm,
                              (presence.least_mm2, presence.most_mm2), presence.most_across_mm)
    return normalised, reference.ink


def _all_candidates(config: ReadConfig, view: TopView, image: Image, mask: Image,
                    camera: CameraOverMat, windows: tuple[RegionWindow, ...], ink: Image
                    ) -> tuple[Candidates, FloatArray]:
    """Every coin outline measured in ``windows``, those of piled regions (pits, cups) by
    circles too, and each window's doubt that a pile holds coins no circle found."""
    candidates = measure_candidates(config, view, image, mask, camera, windows, ink)
    loose_doubt = np.zeros(len(windows))
    if any(read_by_circles(config.loose, window) for window in windows):
        loose, loose_doubt = loose_candidates(config, view, image, mask, windows, ink)
        candidates = joined(candidates, loose)
    return candidates, loose_doubt


def _coin_kinds(config: ReadConfig, candidates: Candidates, presence: FloatArray,
                profile: VisionProfile, camera: CameraOverMat, piled: NDArray[np.bool_],
                alone: NDArray[np.bool_], printed: NDArray[np.bool_]
                ) -> tuple[NDArray[np.intp], FrameFit, list[str], FloatArray]:
    """The candidates taken as coins, the frame model fitted to them, and each coin's kind
    and confidence once every doubt (a metal unsettled, a size unmeasured or between two
    silver kinds in a pile, a stack, a smaller coin on top) has had its say. ``piled`` marks
    the candidates in a region of piled coins (a pit, a cup), ``alone`` those in a ring's space
    (``printed``: no coin there), where a circle inside one is no smaller coin on top."""
    config = replace(config, model=model_for(config.model, profile))
    priors = _kind_priors(profile)
    chosen, frame = _coins_and_frame(config, candidates, presence, priors, camera, alone, printed)
    kinds, probabilities = frame.best()
    confidence = probabilities * np.minimum(1.0, presence[chosen])
    face_seen = (~candidates.under_pawn[chosen] & ~np.isnan(candidates.colours[chosen]).any(axis=1)
                 & (candidates.clipped[chosen] < config.coins.glint_share))
    kinds, confidence = settle_metals(config.metals, frame, priors, kinds, confidence, face_seen)
    # Silver coins differ by their size alone: one deep in a pile, whose size no ray could
    # measure against paper, is a doubtful kind.
    unsized = ~candidates.sized[chosen] & np.array(
        [COIN_KINDS[kind][2] == "silver" for kind in kinds], bool).reshape(-1)
    # Nor does a size measured between two silver kinds name either (vision.pile_sizes).
    # A size measured on a short arc of the outline is looser: a smaller share makes it doubtful.
    shares = np.where(candidates.seen_arc[chosen] < config.loose.short_arc,
                      config.loose.short_arc_between, config.loose.between_kinds)
    unsized |= piled[chosen] & between_silver_kinds(
        frame, priors, kinds, candidates.diameters_mm[chosen], shares)
    # Nor one measured well under the smallest silver kind: a nickel's rim ring, its outline
    # missed.
    unsized |= piled[chosen] & under_smallest_silver(
        frame, priors, kinds, candidates.diameters_mm[chosen], config.loose.under_smallest)
    confidence = np.where(unsized, np.minimum(confidence, config.loose.unsized_confidence),
                          confidence)
    partial = _partial_evidence(config.coins, candidates, chosen, frame, kinds, priors)
    whole = ~partial
    # An outline whose top circle is no rim of its kind may be a stack's (vision.size_doubt).
    open_kinds = plausible_kinds(frame.kinds, frame.probabilities,
                                 {prior.kind: prior.metal for prior in priors},
                                 config.size_doubt.other_metal)
    # The rims are measured on the coins read surely on all their evidence (a glint hides a rim).
    partial |= stack_doubts(config.size_doubt, kinds, candidates.inner_mm[chosen],
                            np.where(partial, 0.0, confidence),
                            {prior.kind: prior.diameter_mm for prior in priors},
                            frame.offset_mm, open_kinds)
    confidence = np.where(partial, np.minimum(confidence, config.coins.hidden_confidence),
                          confidence)
    tops = _smaller_tops(config, candidates, chosen, frame, kinds,
                         np.where(partial, 0.0, confidence), priors, open_kinds, camera)
    kinds, confidence = _read_tops(config, tops, kinds, confidence,
                                   candidates.inner_agreement[chosen], whole, frame, priors,
                                   alone[chosen])
    return chosen, frame, kinds, confidence


def _inner_outline_doubt(
    config: ReadConfig, view: TopView, image: Image, candidates: Candidates,
    chosen: NDArray[np.intp], kinds: list[str], confidence: FloatArray, profile: VisionProfile,
    windows: tuple[RegionWindow, ...],
) -> FloatArray:
    """The confidences once a smaller coin's whole outline inside a coin's own (a stack's top
    coin, :mod:`vision.inner_outlines`) has made its kind, the outline's, a doubt. Coins of
    piles (pits, cups) lie side by side, not stacked: they are left alone."""
    ppm = view.pixels_per_mm
    piled = np.array([candidates.region[index] >= 0
                      and windows[candidates.region[index]].kind in LOOSE_KINDS
                      for index in chosen], bool).reshape(-1)
    seen = seen_whole(candidates.under_pawn[chosen], candidates.colours[chosen],
                      candidates.clipped[chosen], config.coins.glint_share) & ~piled
    centres = (candidates.tops_mm[chosen] - np.asarray(view.origin_mm)) * ppm - 0.5
    priors = _kind_priors(profile)
    doubts = inner_outline_doubts(
        config.inner_outlines, image, centres, candidates.diameters_mm[chosen] / 2 * ppm, kinds,
        confidence, {prior.kind: prior.diameter_mm for prior in priors},
        {prior.kind: prior.metal for prior in priors}, ppm, seen)
    return np.where(doubts, np.minimum(confidence, config.coins.hidden_confidence), confidence)


def _disagreeing_evidence(
    config: ReadConfig, view: TopView, image: Image, candidates: Candidates,
    chosen: NDArray[np.intp], frame: FrameFit, kinds: list[str], confidence: FloatArray,
    profile: VisionProfile, alone: NDArray[np.bool_], camera: CameraOverMat,
) -> tuple[list[str], FloatArray]:
    """The kinds and confidences once disagreeing evidence made readings doubts (last: no stage's
    references are chosen by it; :mod:`.sure_evidence`, :mod:`.rim_beyond`, :mod:`.coin_mass`)."""
    priors = _kind_priors(profile)
    sizes, metal_of = {p.kind: p.diameter_mm for p in priors}, {p.kind: p.metal for p in priors}
    confidence = disagreeing_evidence(
        config.sure_evidence, frame, kinds, sizes, metal_of, candidates.colours[chosen],
        candidates.diameters_mm[chosen], candidates.contrast[chosen], confidence, alone)
    confidence = rim_beyond_doubt(config.rim_beyond, config.rims, view, image, frame, kinds,
                                  metal_of, sizes, candidates, chosen, confidence, camera)
    return reread_lone_coins(config.coin_mass, view, image, candidates, chosen, frame, kinds,
                             sizes, metal_of, confidence, alone)


def _coins_by_region(candidates: Candidates, chosen: NDArray[np.intp], kinds: list[str],
                     confidence: FloatArray, windows: tuple[RegionWindow, ...]
                     ) -> dict[str, list[tuple[CoinFit, str, float]]]:
    """The coins read, with their kinds and confidences, by the region they lie in."""
    found: dict[str, list[tuple[CoinFit, str, float]]] = {}
    for position, index in enumerate(chosen):
        fit = CoinFit(
            (float(candidates.centres_mm[index, 0]), float(candidates.centres_mm[index, 1])),
            float(candidates.diameters_mm[index]),
            (float(candidates.colours[index, 0]), float(candidates.colours[index, 1])),
            float(candidates.agreement[index]),
        )
        name = windows[candidates.region[index]].name
        found.setdefault(name, []).append((fit, kinds[position], float(confidence[position])))
    return found


def _coin_region(config: CoinConfig, window: RegionWindow,
                 coins: list[tuple[CoinFit, str, float]], pawn: PawnSighting | None,
                 pawn_trace: bool, doubt: float) -> RegionReading:
    """A region of coins: its top coin (or, in a pile, how many of each kind) and pawn, as
    sure as the least sure of them; ``doubt`` is the odds that a region read empty is not.
    A ring's space holds one piece: a circle in a flat token's space is the token's mark."""
    pawn_confidence = pawn.confidence if pawn is not None else 1.0
    if pawn is None and pawn_trace:
        # Something pawn-coloured stands there, too little of it seen to be a pawn.
        pawn_confidence = config.hidden_confidence
    pawn_name = pawn.colour if pawn is not None else None
    if pawn is not None and not coins and not pawn.flat:
        # A pawn hides the middle of whatever it stands on (a flat token lies on paper).
        doubt = max(doubt, 1.0 - config.hidden_confidence)
    if window.kind in LOOSE_KINDS:
        confidence_here = min([pawn_confidence, 1.0 - doubt, *(conf for _, _, conf in coins)])
        kinds_seen = tuple(sorted(kind for _, kind, _ in coins))
        return RegionReading(None, pawn_name, confidence_here, count=len(coins),
                             kinds=kinds_seen)
    if coins and pawn is not None and pawn.flat and window.kind in ALONE_KINDS:
        return RegionReading(None, pawn_name, min(pawn_confidence, config.hidden_confidence))
    if coins:
        _, kind, conf = max(coins, key=lambda item: item[0].rim_share)
        if pawn is not None and not pawn.flat:
            # A pawn standing there hides part of the coin, wherever its face shows.
            conf = min(conf, config.hidden_confidence)
        return RegionReading(kind, pawn_name, min(conf, pawn_confidence))
    return RegionReading(None, pawn_name, min(1.0 - doubt, pawn_confidence))


def _read_tray(config: ReadConfig, view: TopView, window: RegionWindow, geometry: MatGeometry,
               camera: CameraOverMat, source: tuple[Image, BoardLocation] | None
               ) -> RegionReading:
    """A dice tray's reading: its dice, from the camera frame's own detail where it is given.
    A tray holds dice, never pawns: a coloured die is no pawn."""
    if source is None:
        dice = read_tray(config.dice, view, window.box, camera)
    else:
        bounds = geometry.region(window.name).shape.bounds()
        dice = read_tray_in_frame(config.dice, source[0], source[1], bounds, camera)
    return RegionReading(None, None, min([1.0, *(die.confidence for die in dice)]), dice=dice)


def _read_discard(config: ReadConfig, view: TopView, window: RegionWindow,
                  geometry: MatGeometry, source: tuple[Image, BoardLocation] | None
                  ) -> RegionReading:
    """A discard spot's reading: the card on top of the pile, from the camera frame's own
    detail where it is given (the top view is too coarse for a card's index)."""
    if source is None:
        card = read_discard_in_view(config.cards, view, window.box)
    else:
        bounds = geometry.region(window.name).shape.bounds()
        card = read_discard_in_frame(config.cards, source[0], source[1], bounds)
    return RegionReading(None, None, 1.0 if card is None else card.confidence, card=card)


def _pawn_traces(config: ReadConfig, labels: Image, windows: tuple[RegionWindow, ...],
                 pixels_per_mm: float) -> NDArray[np.bool_]:
    """Per window: whether a square holds pawn-coloured pixels (``labels``, at half the
    view's resolution) over ``pawn_trace_mm2`` or more: a pawn the lamp washed pale, or one
    mostly hidden, that no sighting found."""
    least = config.coins.pawn_trace_mm2 * (pixels_per_mm / 2) ** 2
    traces = np.zeros(len(windows), bool)
    for index, window in enumerate(windows):
        if window.kind != "square":
            continue
        left, top, right, bottom = (value // 2 for value in window.box)
        traces[index] = np.count_nonzero(labels[top:bottom, left:right]) >= least
    return traces


# -- the whole pipeline --------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class FrameReading:
    """A frame read end to end: the observation, where the board was, and the top view."""

    observation: Observation
    location: BoardLocation
    view: TopView
    coins: tuple[tuple[str, CoinFit, str, float], ...]


def read_frame_details(
    config: VisionConfig, image: Image, geometry: MatGeometry, profile: VisionProfile,
    location: BoardLocation | None = None,
) -> FrameReading:
    """Find the mat, rectify it and read it, timing each stage (``meta["timings_ms"]``).

    A ``location`` already found in this very frame (the steady-frame gate finds the board in
    every frame) is used as it is, and the find stage is skipped. Raises
    :class:`~vision.errors.MatNotFoundError` when too few markers are seen.
    """
    start = time.perf_counter()
    if location is None:
        location = find_board(config.markers, image, geometry)
    found = time.perf_counter()
    view = rectify(config.rectify, image, location, geometry)
    rectified = time.perf_counter()
    camera = camera_over_mat(location.homography, location.image_size)
    reading = read_view(config.read, view, geometry, profile, camera, (image, location))
    done = time.perf_counter()
    timings = {
        "find": round((found - start) * 1000, 2),
        "rectify": round((rectified - found) * 1000, 2),
        "read": round((done - rectified) * 1000, 2),
    }
    observation = Observation(
        regions=reading.regions,
        markers_found=location.markers_found,
        milliseconds=(done - start) * 1000,
        meta={
            "mat": geometry.name,
            "markers_missing": list(location.markers_missing),
            "timings_ms": timings,
        },
    )
    return FrameReading(observation, location, view, reading.coins)


def read_frame(
    config: VisionConfig, image: Image, geometry: MatGeometry, profile: VisionProfile
) -> Observation:
    """The observation of one camera frame: find the mat, rectify, read every region."""
    return read_frame_details(config, image, geometry, profile).observation


__all__ = ["CoinFit", "FrameReading", "ReadConfig", "VisionConfig", "read_frame",
           "read_frame_details", "read_view"]
