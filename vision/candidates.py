"""Candidate coins of a top view: every seed's outline and face in mat terms, how sure each is a
coin at all, and which of them are the frame's coins.

Seeds (:mod:`vision.seeds`) are many more than coins: grid lines, shadows and pawns make some,
and a coin often makes two. Each is measured (:mod:`vision.rims`, :mod:`vision.faces`); its
presence is how well its rim fits a coin's outline; coins are the candidates present enough,
of a plausible size, each coin once. A pawn standing on a coin hides its middle and leans over
its far rim, and a pawn's own round base with its shadow can look like such a coin: a
candidate a pawn stands on is only taken for a coin at a coin's size, judged by the frame's
size offset from the coins no pawn touches (see :func:`vision.read.read_view`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from contract.observation import COIN_KINDS
from vision.arrays import FloatArray, Image
from vision.faces import Faces, clipped_mask, edge_colours, face_colours, pawn_share
from vision.light import PAPER
from vision.loose import LooseCoins, find_loose_coins, read_by_circles
from vision.parallax import CameraOverMat
from vision.ray_samples import with_fourth_channel
from vision.read_config import CENTRED_KINDS, LOOSE_KINDS, CoinConfig, ReadConfig
from vision.rectify import TopView
from vision.regions import RegionWindow, region_map
from vision.rims import (
    GLINT_FLAG,
    PAWN_FLAG,
    WHITE_FLAG,
    CoinOutlines,
    RimConfig,
    measure_outlines,
)
from vision.seeds import find_seeds
from vision.tops import TopCircles, top_circles

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True, eq=False)
class Candidates:
    """Outlines measured at every seed, in mat terms: base and top face centres (K, 2) mm,
    diameters (K,), the top circle's diameter (K,; NaN where none, see :mod:`vision.tops`)
    and centre (K, 2; the top face's centre where none),
    face colours and edge colours (K, 2, see :func:`vision.faces.edge_colours`; NaN where the
    rim agrees too little for any presence, see :func:`coin_presence`)
    mm, colours (K, 2), agreement with the circle on unhidden rays (K,), share of rays a
    pawn hides (K,), whether a pawn stands on the face (K,), the share of the face the camera
    clipped (K,), contrast (K,), how far its seed
    stood out (K,), each one's region index by its fitted centre and its seed's (-1: none),
    whether its size was measured against paper (K,; a coin deep in a pile may not be,
    :mod:`vision.loose`), the share of its rays that show the top circle (K,; 0 where
    none), the arc of its outline its size was measured on (K,; 1 for the ray reader's
    whole outlines, the seen arc for a pile's coins) and whether its rim's agreement was
    lifted by setting aside rays the camera clipped white (K,; :func:`vision.rims.
    measure_outlines`)."""

    centres_mm: FloatArray
    tops_mm: FloatArray
    diameters_mm: FloatArray
    inner_mm: FloatArray
    colours: FloatArray
    edge_colours: FloatArray
    agreement: FloatArray
    hidden: FloatArray
    under_pawn: NDArray[np.bool_]
    clipped: FloatArray
    contrast: FloatArray
    strength: FloatArray
    region: NDArray[np.intp]
    seed_region: NDArray[np.intp]
    sized: NDArray[np.bool_]
    inner_centres_mm: FloatArray
    inner_agreement: FloatArray
    seen_arc: FloatArray
    lifted: NDArray[np.bool_]


def _second_look(
    config: ReadConfig, image: Image, rays_image: Image, flags: Image, seeds: FloatArray,
    lean: FloatArray, pixels_per_mm: float, blur: FloatArray, lean_per_mm: FloatArray,
    outlines: CoinOutlines,
) -> CoinOutlines:
    """The outlines, with those whose rim too few rays agreed with measured again on the view
    smoothed by ``retry_smoothing_mm`` (a noisy, soft frame scatters a rim's single steps),
    where that look agrees better."""
    good = outlines.agreement >= config.coins.least_agreement
    # A seed inside an outline the first look found is that coin's: no second look for it.
    gaps = np.hypot(*(seeds[:, None, :] - outlines.centres[None, good, :]).transpose(2, 0, 1))
    covered = (gaps < outlines.radii_px[None, good]).any(axis=1)
    retry = np.flatnonzero(~good & ~covered)
    sigma = config.coins.retry_smoothing_mm * pixels_per_mm
    if not len(retry) or sigma <= 0:
        return outlines
    # Smoothed only around the seeds looked at again (one or two seeds, most frames), in
    # the view's own coordinates (the rays' float32 maps round by where they lie): the rest
    # lies beyond every ray their outlines cast, and blurring it cost more than measuring.
    left, top, right, bottom = _reach_box(config.rims, seeds[retry], pixels_per_mm,
                                          image.shape[:2])
    smooth = rays_image.copy()
    # Three channels blurred (the fourth, added for the rays, is constant): the same values.
    smooth[top:bottom, left:right] = with_fourth_channel(
        cv2.GaussianBlur(image[top:bottom, left:right], (0, 0), sigma))
    again = measure_outlines(config.rims, smooth, flags, seeds[retry], lean[retry],
                             pixels_per_mm, blur[retry], lean_per_mm[retry])
    better = again.agreement > outlines.agreement[retry]
    rows = retry[better]
    fields = {name: getattr(outlines, name).copy() for name in
              ("centres", "radii_px", "sweep_px", "agreement", "contrast", "covered",
               "lifted")}
    for name, values in fields.items():
        values[rows] = getattr(again, name)[better]
    return CoinOutlines(**fields)


def _reach_box(config: RimConfig, seeds: FloatArray, pixels_per_mm: float,
               shape: tuple[int, ...]) -> tuple[int, int, int, int]:
    """The box (left, top, right, bottom; clipped to the view of ``shape``) that holds every
    pixel :func:`measure_outlines` may sample for ``seeds``, with room to spare: a seed's
    rays (a far reach's too), the middle of a consensus circle through their ends (no wider
    than ``most_radius_mm``), the refining rays from there and from a stack's further
    centre, twice over for fits that wander."""
    reach_mm = 2 * (config.ray_end_mm + config.far_reach_mm + config.most_radius_mm
                    + config.ray_end_mm + config.stack_step_mm)
    reach = math.ceil(reach_mm * pixels_per_mm)
    height, width = shape
    low = np.floor(seeds.min(axis=0)).astype(int) - reach
    high = np.ceil(seeds.max(axis=0)).astype(int) + reach + 1
    return (max(0, int(low[0])), max(0, int(low[1])), min(width, int(high[0])),
            min(height, int(high[1])))


def measure_candidates(
    config: ReadConfig, view: TopView, image: Image, mask: Image, camera: CameraOverMat,
    windows: tuple[RegionWindow, ...], ink: Image | None = None,
) -> Candidates:
    """Seed, fit and sample every candidate coin of the normalised view ``image`` (``mask``
    marks pawns, ``ink`` the mat's printing, see :func:`vision.seeds.find_seeds`).

    Regions where coins lie in piles (:func:`vision.loose.read_by_circles`) are left to
    :func:`loose_candidates` (circles fitted to the rims of a crowded pile). In the other
    regions of loose coins (coins set down apart), as coins may lie close together, where one
    seed often stands for two and the rays of one coin reach its neighbours, for up to
    ``loose_rounds`` more rounds the coins found so far are painted over with paper, and those
    regions seeded and measured again on that view."""
    ppm = view.pixels_per_mm
    height, width = image.shape[:2]
    regions_at = region_map(windows, (width, height))
    clipped = clipped_mask(view.image)
    flags = _flags(clipped, mask)
    circled_windows = [index for index, window in enumerate(windows)
                       if read_by_circles(config.loose, window)]
    loose_windows = [index for index, window in enumerate(windows)
                     if window.kind in LOOSE_KINDS and index not in circled_windows]
    seeds, strength = _with_middles(*find_seeds(config.seeds, image, ppm, mask, ink), windows)
    # Seeds in piles are left to loose_candidates.
    seeded = (np.where(np.isin(regions_at, circled_windows), -1, regions_at) if circled_windows
              else regions_at)
    seeds, strength = _worth_measuring(config.coins, seeds, strength, seeded, windows, ppm)
    found = _measure_seeds(config, view, image, mask, camera, regions_at, clipped, flags,
                           seeds, strength)
    if not loose_windows:  # no view-sized map of loose regions where there are none
        return found
    loose_at = np.where(np.isin(regions_at, loose_windows), regions_at, -1)
    for _ in range(config.coins.loose_rounds if (loose_at >= 0).any() else 0):
        covered = _paint_found(config.coins, image, found, view)
        seeds, strength = find_seeds(config.seeds, covered, ppm, mask, ink)
        seeds, strength = _worth_measuring(config.coins, seeds, strength, loose_at, windows,
                                           ppm)
        if not len(seeds):
            break
        more = _measure_seeds(config, view, covered, mask, camera, regions_at, clipped, flags,
                              seeds, strength)
        found = joined(found, _apart(config.coins, more, found))
    return found


def _with_middles(seeds: FloatArray, strength: FloatArray, windows: tuple[RegionWindow, ...]
                  ) -> tuple[FloatArray, FloatArray]:
    """The seeds, then the middle of every region of :data:`CENTRED_KINDS` as a seed that
    stood out by nothing (measured after its region's own seeds, and casting no doubt on an
    empty reading by its strength)."""
    middles = [((window.box[0] + window.box[2] - 1) / 2, (window.box[1] + window.box[3] - 1) / 2)
               for window in windows if window.kind in CENTRED_KINDS]
    if not middles:
        return seeds, strength
    return (np.vstack([seeds.reshape(-1, 2), np.array(middles)]),
            np.concatenate([strength, np.zeros(len(middles))]))


def _paint_found(config: CoinConfig, image: Image, found: Candidates, view: TopView
                 ) -> Image:
    """``image`` with every outline that may be a coin painted over with paper, a little
    wider than it (its blurred edge, its shadow)."""
    painted = image.copy()
    ppm = view.pixels_per_mm
    centres = (found.centres_mm - np.asarray(view.origin_mm)) * ppm - 0.5
    for centre, diameter in zip(centres[found.agreement >= config.least_agreement],
                                found.diameters_mm[found.agreement >= config.least_agreement],
                                strict=True):
        radius = (diameter / 2 + config.painted_margin_mm) * ppm
        cv2.circle(painted, (round(centre[0]), round(centre[1])), round(radius),
                   (PAPER, PAPER, PAPER), -1)
    return painted


def _apart(config: CoinConfig, new: Candidates, found: Candidates) -> Candidates:
    """``new`` candidates, measured on the view with the ``found`` ones painted over, with
    those taken for no coin that overlap one found (that may be a coin) by more than
    ``loose_overlap_mm`` (loose coins lie side by side), or whose edge stands less than
    ``painted_contrast`` out of paper: a painted disc's edge, or a gap among coins ringed
    by their edges, is faint where a coin's own edge is not."""
    coins = found.agreement >= config.least_agreement
    if not len(new.agreement):
        return new
    ghost = new.contrast < config.painted_contrast
    if coins.any():
        gaps = np.hypot(*(new.centres_mm[:, None, :] - found.centres_mm[None, coins, :]
                          ).transpose(2, 0, 1))
        reach = (new.diameters_mm[:, None] + found.diameters_mm[None, coins]) / 2
        ghost |= (gaps < reach - config.loose_overlap_mm).any(axis=1)
    return replace(new, agreement=np.where(ghost, 0.0, new.agreement))


def joined(first: Candidates, second: Candidates) -> Candidates:
    """The candidates of both, first's first."""
    return Candidates(**{item.name: np.concatenate([getattr(first, item.name),
                                                    getattr(second, item.name)])
                         for item in fields(Candidates)})


def _measure_seeds(
    config: ReadConfig, view: TopView, image: Image, mask: Image, camera: CameraOverMat,
    regions_at: FloatArray, clipped: Image, flags: Image, seeds: FloatArray,
    strength: FloatArray,
) -> Candidates:
    """Fit and sample the candidate coin of every seed."""
    ppm = view.pixels_per_mm
    height, width = image.shape[:2]
    seeds_mm = to_mm(view, seeds)
    lean, lean_per_mm = camera.lean(seeds_mm)
    blur = np.nan_to_num(ppm / camera.pixels_per_mm(seeds_mm), nan=1.0)
    # Rays sample the view with a fourth channel added once (faster, the same values).
    rays_image = with_fourth_channel(image)
    outlines = measure_outlines(config.rims, rays_image, flags, seeds, lean, ppm, blur,
                                lean_per_mm)
    outlines = _second_look(config, image, rays_image, flags, seeds, lean, ppm, blur,
                            lean_per_mm, outlines)
    tops = outlines.top_centres(lean)
    hidden, agreement = outlines.covered, outlines.agreement
    inner = _top_circles(config, rays_image, flags, tops, outlines.radii_px, agreement, ppm)
    # A pawn's colour bleeds onto what lies beside it (blur, its reflection): the face's
    # colour is taken farther from it than the rim is.
    reach = 2 * round(config.pawns.colour_margin_mm * ppm) + 1
    bled = cv2.dilate(mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach)))
    # A pawn standing on a coin hides its middle: a "top circle" there lying far inside the
    # coin's outline (more than a raised rim's width) is the pawn's own base, so such a coin
    # is measured by its visible rim alone.
    hidden_face = pawn_share(bled, tops, outlines.radii_px) > 0.3
    deep = 2 * (outlines.radii_px - inner.radii) > config.coins.base_gap_mm * ppm
    inner = TopCircles(inner.centres, np.where(hidden_face & deep, np.nan, inner.radii),
                       inner.agreement)
    # The face is sampled inside the top coin's own circle where one was found.
    seen = np.isfinite(inner.radii)
    faces, edges = _faces_of_possible_coins(
        config.coins, image, clipped, bled, np.where(seen[:, None], inner.centres, tops),
        np.where(seen, inner.radii, outlines.radii_px), tops, outlines, view.image)
    centres_mm = to_mm(view, outlines.centres)
    columns = np.clip(np.round(outlines.centres[:, 0]).astype(int), 0, width - 1)
    rows = np.clip(np.round(outlines.centres[:, 1]).astype(int), 0, height - 1)
    inside = ((outlines.centres[:, 0] >= 0) & (outlines.centres[:, 0] < width)
              & (outlines.centres[:, 1] >= 0) & (outlines.centres[:, 1] < height))
    region = np.where(inside, regions_at[rows, columns], -1).astype(np.intp)
    seed_columns = np.clip(np.round(seeds[:, 0]).astype(int), 0, width - 1)
    seed_rows = np.clip(np.round(seeds[:, 1]).astype(int), 0, height - 1)
    seed_region = regions_at[seed_rows, seed_columns].astype(np.intp)
    return Candidates(centres_mm, to_mm(view, tops), 2 * outlines.radii_px / ppm,
                       2 * inner.radii / ppm, faces.colours, edges, agreement, hidden,
                       faces.on_pawn > 0.5, faces.clipped, outlines.contrast, strength, region,
                       seed_region, np.ones(len(seeds), bool), to_mm(view, inner.centres),
                       inner.agreement, np.ones(len(seeds)), outlines.lifted)


def _faces_of_possible_coins(
    config: CoinConfig, image: Image, clipped: Image, pawns: Image, face_centres: FloatArray,
    face_radii: FloatArray, tops: FloatArray, outlines: CoinOutlines, raw: Image | None = None,
) -> tuple[Faces, FloatArray]:
    """The faces (:func:`vision.faces.face_colours`) and edge colours of the outlines whose
    rim agrees well enough to give them any presence (:func:`coin_presence`); the others, no
    coin whatever their face shows, get none (NaN colours, no pawn, nothing clipped): nearly
    half of a frame's seeds are a coin's second seed or no coin, and their faces are never
    read. A face washed out of the normalised ``image`` is measured again in the camera's own
    top view ``raw``, where given."""
    rows = np.flatnonzero(outlines.agreement > _ramp(config)[0])
    count = len(tops)
    faces = Faces(np.full((count, 2), np.nan), np.full(count, np.nan), np.zeros(count),
                  np.zeros(count))
    edges = np.full((count, 2), np.nan)
    if not len(rows):
        return faces, edges
    some = face_colours(image, clipped, pawns, face_centres[rows], face_radii[rows], raw)
    for name in ("colours", "brightness", "on_pawn", "clipped"):
        getattr(faces, name)[rows] = getattr(some, name)
    edges[rows] = edge_colours(image, tops[rows], outlines.radii_px[rows], pawns)
    return faces, edges


def _flags(clipped: Image, pawns: Image) -> Image:
    """The flags image rays sample (:data:`vision.rims.PAWN_FLAG` where a pawn is,
    :data:`vision.rims.GLINT_FLAG` where the camera clipped a channel,
    :data:`vision.rims.WHITE_FLAG` where it clipped all three)."""
    blue, green, red = cv2.split(clipped)
    glint = cv2.max(cv2.max(blue, green), red)
    flags = np.bitwise_and(glint, np.uint8(GLINT_FLAG))
    white = cv2.min(cv2.min(blue, green), red)
    np.bitwise_or(flags, np.bitwise_and(white, np.uint8(WHITE_FLAG)), out=flags)
    np.bitwise_or(flags, np.bitwise_and(pawns, np.uint8(PAWN_FLAG)), out=flags)
    return flags


def _top_circles(config: ReadConfig, image: Image, flags: Image, tops: FloatArray,
                 radii: FloatArray, agreement: FloatArray, pixels_per_mm: float) -> TopCircles:
    """The top circles (:mod:`vision.tops`) of the outlines that may be coins; none (NaN) for
    the rest, which are not worth the rays."""
    worth = np.flatnonzero(agreement >= config.coins.least_agreement)
    found = top_circles(config.rims, config.tops, image, flags, tops[worth], radii[worth],
                        pixels_per_mm)
    centres = tops.copy()
    inner = np.full(len(tops), np.nan)
    agreement_found = np.zeros(len(tops))
    centres[worth], inner[worth], agreement_found[worth] = (found.centres, found.radii,
                                                            found.agreement)
    return TopCircles(centres, inner, agreement_found)


def _worth_measuring(
    config: CoinConfig, seeds: FloatArray, strength: FloatArray, regions_at: FloatArray,
    windows: tuple[RegionWindow, ...], pixels_per_mm: float,
) -> tuple[FloatArray, FloatArray]:
    """The seeds worth measuring (strongest first, as given): those in a region, at most
    ``seeds_per_region`` in a region that holds one stack (a coin seldom makes more than two
    seeds), up to ``max_loose_coins`` in one of loose coins, none there within
    ``loose_spacing_mm`` of a stronger one (a coin whose face is unlike paper all over makes
    a flat top of equal peaks, which would crowd out the other coins of its region)."""
    height, width = regions_at.shape
    columns = np.clip(np.round(seeds[:, 0]).astype(int), 0, width - 1)
    rows = np.clip(np.round(seeds[:, 1]).astype(int), 0, height - 1)
    region = regions_at[rows, columns]
    taken = np.zeros(len(windows), int)
    keep = np.zeros(len(seeds), bool)
    spacing = config.loose_spacing_mm * pixels_per_mm
    loose: dict[int, list[FloatArray]] = {}
    for index, where in enumerate(region):
        if where < 0:
            continue
        is_loose = windows[where].kind in LOOSE_KINDS
        most = config.max_loose_coins if is_loose else config.seeds_per_region
        if taken[where] >= most:
            continue
        if is_loose:
            near = loose.setdefault(int(where), [])
            if any(math.dist(seeds[index], other) < spacing for other in near):
                continue
            near.append(seeds[index])
        taken[where] += 1
        keep[index] = True
    return seeds[keep], strength[keep]


def to_mm(view: TopView, pixels: FloatArray) -> FloatArray:
    """Top-view pixel coordinates (N, 2) -> mat millimetres (N, 2)."""
    return np.asarray(view.origin_mm) + (np.asarray(pixels, np.float64).reshape(-1, 2) + 0.5
                                         ) / view.pixels_per_mm


def coin_presence(config: CoinConfig, candidates: Candidates) -> FloatArray:
    """How sure each candidate is a coin at all (0-1), from how well its rim fits a circle;
    one whose rim a pawn hides on more than ``hidden_share`` of its rays is at most a doubt
    (``hidden_presence``).

    An outline sought at a space's middle where no seed stood out of the paper (no seed's
    outline lies inside it, :data:`vision.read_config.CENTRED_KINDS`) must agree on more of
    its rays the fainter it is (:func:`faint_agreement`): there the paper's noise and what
    the light's division leaves of printed ink make steps just over the rays' threshold, some
    of which line up on part of a circle round the empty space, while a coin's face stands
    out as a seed, and a coin's rim, however faint, shows nearly all round."""
    low, sure = _ramp(config)
    agreement = np.where(_unseeded(candidates),
                         faint_agreement(config, candidates.agreement, candidates.contrast),
                         candidates.agreement)
    ramp = np.clip((agreement - low) / (sure - low), 0.0, 1.0)
    ramp = np.where(candidates.contrast >= config.least_contrast, ramp, 0.0)
    mostly_hidden = candidates.under_pawn & (candidates.hidden > config.hidden_share)
    return np.where(mostly_hidden, np.minimum(ramp, config.hidden_presence), ramp)


def _unseeded(candidates: Candidates) -> NDArray[np.bool_]:
    """Per candidate: whether no seed stood out within its outline (every outline inside it,
    its own included, was measured from a space's middle, which stands out by nothing)."""
    seeded = candidates.strength > 0
    if not seeded.any():
        return np.ones(len(seeded), bool)
    centres = candidates.centres_mm
    gaps = np.hypot(*(centres[:, None, :] - centres[None, seeded, :]).transpose(2, 0, 1))
    return np.asarray(~(gaps < candidates.diameters_mm[:, None] / 2).any(axis=1), bool)


def faint_agreement(config: CoinConfig, agreement: FloatArray, contrast: FloatArray
                    ) -> FloatArray:
    """The rims' ``agreement`` as evidence of a coin, given how far their edges stand out of
    paper (``contrast``): ``faint_penalty`` less at ``least_contrast``, nothing less from
    ``clear_contrast`` up, linearly between."""
    span = max(config.clear_contrast - config.least_contrast, 1e-9)
    shortfall = np.clip((config.clear_contrast - contrast) / span, 0.0, 1.0)
    return agreement - config.faint_penalty * shortfall


def _ramp(config: CoinConfig) -> tuple[float, float]:
    """The agreement at which presence is 0 and 1: it reaches the acceptance level at
    ``least_agreement``, a third of the way up."""
    low = config.least_agreement - (config.sure_agreement - config.least_agreement) / 2
    return low, config.sure_agreement


def select_coins(
    config: CoinConfig, candidates: Candidates, presence: FloatArray, least_mm: float,
    most_mm: float, among: NDArray[np.bool_], kept: NDArray[np.intp] | None = None,
) -> NDArray[np.intp]:
    """Indices of the candidates ``among`` these that are coins: present enough, in a region,
    between ``least_mm`` and ``most_mm`` across, each coin once (the best-fitting outline of
    outlines that are one coin), none on a coin already ``kept``. Returns them with the kept
    ones, sorted."""
    usable = (among & (candidates.region >= 0) & (presence >= accept_level(config))
              & (candidates.diameters_mm > least_mm) & (candidates.diameters_mm < most_mm))
    chosen: list[int] = [] if kept is None else [int(index) for index in kept]
    order = np.flatnonzero(usable)[np.argsort(-candidates.agreement[usable])]
    if not len(order):
        return np.array(sorted(chosen), np.intp)
    # Distances from every usable candidate (rows, best first) to every candidate.
    centres = candidates.centres_mm
    gaps = np.hypot(centres[order, None, 0] - centres[None, :, 0],
                    centres[order, None, 1] - centres[None, :, 1])
    reach = config.apart_share * candidates.diameters_mm[order] / 2
    taken = np.zeros(len(centres), bool)
    taken[chosen] = True
    for rank, index in enumerate(order):
        if not (gaps[rank, taken] < reach[rank]).any():
            taken[index] = True
    return np.flatnonzero(taken).astype(np.intp)


def accept_level(config: CoinConfig) -> float:
    """The presence at which a candidate counts as a coin: its agreement at the least."""
    low, sure = _ramp(config)
    return (config.least_agreement - low) / (sure - low)


def empty_doubt(config: CoinConfig, candidates: Candidates, presence: FloatArray,
                 chosen: NDArray[np.intp], region_count: int) -> FloatArray:
    """Per region: how much an empty reading there is in doubt. A candidate not taken for a
    coin, nor lying inside one taken, casts the doubt of its presence; any seed that stood
    out strongly (something unlike paper and coin-sized lies there, though no rim was
    fitted to it) casts doubt by its strength, ``empty_strength`` of the least a seed needs
    and up: a seed twice the bar is unlike paper for something, and where no coin and no
    pawn explains it (a faint silver coin whose rim the rays lost in the paper's noise), a
    sure empty reading would mislead the referee. An outline nearly taken (presence
    ``near_presence`` or more: a round rim on most of the rays a coin needs, refused by a
    few rays or by a size its shadow or glint swelled) is a coin's evidence too: the empty
    reading is then no surer than a hidden coin's (``hidden_confidence``)."""
    doubt = np.zeros(region_count)
    rejected = np.ones(len(presence), bool)
    rejected[chosen] = False
    # A candidate inside a coin taken is that coin measured again (a second seed of it).
    if len(chosen):
        gaps = np.hypot(*(candidates.centres_mm[:, None, :]
                          - candidates.centres_mm[None, chosen, :]).transpose(2, 0, 1))
        rejected &= ~(gaps < candidates.diameters_mm[None, chosen] / 2).any(axis=1)
    strong = np.clip((candidates.strength - config.empty_strength) / config.empty_strength,
                     0.0, config.strength_doubt)
    near = np.where(presence >= config.near_presence, 1.0 - config.hidden_confidence, 0.0)
    for index in np.flatnonzero(rejected & (candidates.seed_region >= 0)):
        region = candidates.seed_region[index]
        doubt[region] = max(doubt[region], float(presence[index]), float(strong[index]),
                            float(near[index]))
    return doubt


def loose_candidates(config: ReadConfig, view: TopView, image: Image, pawns: Image,
                     windows: tuple[RegionWindow, ...], ink: Image | None = None
                     ) -> tuple[Candidates, FloatArray]:
    """The coins of every region of piled coins (:func:`vision.loose.read_by_circles`) as candidates
    for the frame model, and each window's doubt (0 for the others). A coin's agreement is
    the share of its uncovered rim an edge crosses; its face colour is sampled inside 0.8 of
    its radius, which a coin lying a third over it leaves mostly bare."""
    ppm = view.pixels_per_mm
    sizes = [kind[1] for kind in COIN_KINDS.values()]
    diameters = (min(sizes) + config.model.offset_mm, max(sizes) + config.model.offset_mm)
    doubts = np.zeros(len(windows))
    parts: list[tuple[int, LooseCoins]] = []
    for index, window in enumerate(windows):
        if read_by_circles(config.loose, window):
            coins = find_loose_coins(config.loose, image, window, ppm, diameters, ink, pawns)
            doubts[index] = coins.doubt
            parts.append((index, coins))
    centres = np.concatenate([coins.centres for _, coins in parts] or [np.zeros((0, 2))])
    radii = np.concatenate([coins.radii for _, coins in parts] or [np.zeros(0)])
    region = np.concatenate([np.full(len(coins.radii), index, np.intp)
                             for index, coins in parts] or [np.zeros(0, np.intp)])
    faces = face_colours(image, clipped_mask(view.image), pawns, centres, 0.8 * radii,
                         view.image)
    count = len(radii)
    centres_mm = to_mm(view, centres)
    candidates = Candidates(
        centres_mm=centres_mm, tops_mm=centres_mm, diameters_mm=2 * radii / ppm,
        inner_mm=np.full(count, np.nan), colours=faces.colours,
        edge_colours=np.full((count, 2), np.nan),
        agreement=np.concatenate([coins.rim_share for _, coins in parts] or [np.zeros(0)]),
        hidden=np.concatenate([coins.covered for _, coins in parts] or [np.zeros(0)]),
        under_pawn=faces.on_pawn > 0.5, clipped=faces.clipped, contrast=np.ones(count),
        strength=np.ones(count), region=region, seed_region=region.copy(),
        sized=np.concatenate([coins.measured for _, coins in parts] or [np.zeros(0, bool)]),
        inner_centres_mm=centres_mm, inner_agreement=np.zeros(count),
        seen_arc=np.concatenate([coins.seen_arc if coins.seen_arc is not None
                                 else np.zeros(len(coins.radii)) for _, coins in parts]
                                or [np.zeros(0)]),
        lifted=np.zeros(count, bool))
    return candidates, doubts
