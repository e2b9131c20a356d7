"""Counting loose coins in a pit or cup: several circles fitted to the rims of a crowded pile.

The ray reader (:mod:`vision.rims`) finds a coin's edge against the paper beyond it; in a pit
where a hand dropped a dozen coins, most coins touch or partly cover others, and a ray from one
coin's middle meets its neighbour rather than paper. Here every rim is found as an arc instead:

1. Every pixel of the light-normalised view where the grey or the unlikeness to paper changes
   steeply is an edge; it votes for a coin's centre one radius away on either side of it
   (along its gradient), for every radius a coin of the profile's kinds can have.
2. The strongest centre and radius is checked on the rim itself: the share of its circle
   where an edge crosses it radially, among the arcs no coin found before covers. A coin lying
   a third under another still shows two thirds of its rim, and the rim is fitted again to
   the edge points on it; a weak peak must show metal where no coin found covers its face.
   Accepted, its edges and everything inside it are explained and
   vote no more; the next strongest centre follows, until none is left.
3. Each coin is sized where its outline meets paper; one hemmed in by its neighbours keeps
   its rim's circle, sized again by the arcs of its outline open between them
   (:mod:`vision.arcs`). Either size is doubtful where the outline's points scatter off
   their circle (a neighbour's edge or shadow mixed in) or too few rays see paper.
4. What stays doubtful says so: coins covering each other by more than a third of a width,
   strong edges no coin as finally sized explains, or coin-coloured area no circle explains
   (a coin hidden under others), are a doubt of the region.

Pure functions of the configuration and the image; :mod:`vision.candidates` turns the circles
into candidates the frame model names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arcs import ArcConfig, occlusion_order, size_by_arcs
from vision.arrays import FloatArray, Image
from vision.light import PAPER
from vision.loose_area import AreaConfig, bare_metal, unexplained_faces
from vision.loose_outline import channel_max, outlines_against_paper
from vision.regions import RegionWindow

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True)
class LooseConfig:
    """How loose coins are found (lengths in mm, shares of a rim or a width).

    With ``circles`` on, the regions where coins lie in piles (``piled``: Shakala's pits and
    cups, where hands sow) are read here, the others by the ray reader (coins set down apart
    on paper). A circle is a coin where an edge crosses it radially (within
    ``rim_band_mm``, its gradient within ``radial_cosine`` of the radius) on ``least_rim`` of
    its uncovered rim, its centre ``least_apart`` of the two radii from every coin found before
    (a coin a third under another lies farther off); once found, the edges within
    ``explained_mm`` of its rim and inside it vote no more. With ``edge_sizes``, each coin's
    size is then measured where its outline meets paper (within ``size_search_mm`` inside
    and ``paper_reach_mm`` beyond its rim, a step of ``least_step`` of paper, on at least
    ``least_rays`` rays); a silver coin (whose kind is its size) whose size could not be
    measured so is read with a confidence of at most ``unsized_confidence``, as is one
    measured ``between_kinds`` or more of the way from its kind's size to the neighbouring
    silver kind's (``short_arc_between`` where measured on an arc under ``short_arc``)
    (:mod:`vision.pile_sizes`), or ``under_smallest`` of the gap to the next
    kind under the smallest silver kind's (a nickel's rim ring). A size counts
    as measured only where the step showed on ``least_clear`` of the rays that reach paper
    and round ``least_arc`` of the circle without a longer gap: a silver face as pale as
    the paper, or a short arc, gives a circle that fits what shows yet is a kind too small
    or too large. Nor where the outline's points scatter off the circle fitted through them
    by more than ``outline_scatter_mm`` (root mean square): a neighbour's edge or shadow
    mixed in (tuning seeds 300-419: 7 of 12 silver coins sized a kind off scatter more than
    0.6 mm, 1 in 20 of those sized right more than 0.53 mm). Edges are
    gradients above ``least_edge`` of paper per mm, counting fully from ``full_edge``; radii
    are tried every ``radius_step_mm`` from the smallest coin less ``radius_margin_mm`` to the
    largest plus it.
    A region's coins overlapping more than ``doubt_overlap`` of the smaller width, or strong
    edges outside every circle as long as ``unexplained_rim`` of the smallest coin's rim, make
    it doubtful by ``doubt`` (hands drop coins a third over each other at most, and the two
    circles' size errors add some 0.1 of a width: tuning seeds 0-99 read 4 pits right at
    0.40-0.43 and flagged them for that alone); edges within ``ink_margin_mm`` of the mat's
    print are the print's, left a little off its mask, not a hidden coin's. At most
    ``most_coins`` a region and ``most_tries`` peaks looked at, stopping after
    ``most_failures`` peaks in a row that are no coin or at a peak under ``least_votes``.
    A peak under ``strong_votes`` (a coin mostly under others shows only an arc of its rim)
    is a coin only where at least ``least_metal`` of its face within ``face_reach`` of its
    radius that no coin found covers is metal (darker than paper by ``area.least_unlike``):
    a ring drawn through a gap between coins shows paper there. Centres are voted for on a
    grid ``hough_scale`` as fine as the view, by edges of ``voting_weight`` and more.
    Edges within ``pawn_margin_mm`` of a pawn (its dome and shadow) are no coin's. A coin
    whose size was not measured against paper is sized by its open arcs (``arcs``, see
    :mod:`vision.arcs`).
    """

    circles: bool = True
    least_edge: float = 0.03
    full_edge: float = 0.12
    radius_step_mm: float = 0.4
    radius_margin_mm: float = 1.2
    rim_band_mm: float = 1.0
    radial_cosine: float = 0.7
    least_rim: float = 0.68
    least_apart: float = 0.55
    edge_sizes: bool = True
    unsized_confidence: float = 0.45
    between_kinds: float = 0.35
    under_smallest: float = 0.2
    short_arc: float = 0.65
    short_arc_between: float = 0.2
    outer_ratio: float = 1.12
    outer_votes: float = 0.6
    size_search_mm: float = 3.0
    paper_reach_mm: float = 3.5
    least_step: float = 0.06
    least_rays: int = 8
    least_clear: float = 0.85
    least_arc: float = 0.55
    outline_scatter_mm: float = 0.7
    explained_mm: float = 2.5
    doubt_overlap: float = 0.45
    unexplained_rim: float = 0.4
    ink_margin_mm: float = 2.0
    doubt: float = 0.8
    most_coins: int = 30
    most_tries: int = 80
    hough_scale: float = 0.5
    voting_weight: float = 0.25
    most_failures: int = 10
    pawn_margin_mm: float = 6.0
    least_votes: float = 1.0
    strong_votes: float = 2.0
    least_metal: float = 0.12
    face_reach: float = 0.8
    rim_samples: int = 90
    arcs: ArcConfig = field(default_factory=ArcConfig)
    #: Coin-coloured area no coin found explains (a coin too blurred for an edge).
    area: AreaConfig = field(default_factory=AreaConfig)


def read_by_circles(config: LooseConfig, window: RegionWindow) -> bool:
    """Whether ``window``'s coins are found as circles here: coins lie there in piles."""
    return config.circles and window.piled and window.box[2] > window.box[0] \
        and window.box[3] > window.box[1]


@dataclass(frozen=True, eq=False)
class LooseCoins:
    """The coins of one region: centres (K, 2) and radii (K,) in top-view pixels, the share of
    each one's uncovered rim an edge crosses (K,), the share of its rim coins found before it
    cover (K,), whether its size was measured where a round outline meets paper (K,), how
    doubtful the region's count is (0..1) and how much rim no coin
    explains (in smallest coins' rims)."""

    centres: FloatArray
    radii: FloatArray
    rim_share: FloatArray
    covered: FloatArray
    measured: NDArray[np.bool_]
    doubt: float
    unexplained: float = 0.0
    seen_arc: FloatArray | None = None
    clear_share: FloatArray | None = None


@dataclass(frozen=True, eq=False)
class _Edges:
    """The edge pixels of a window: positions (N, 2), unit gradients (N, 2), weights (N,),
    and the gradient planes of the window for sampling rims."""

    points: FloatArray
    normals: FloatArray
    weights: FloatArray
    along_x: Image
    along_y: Image
    grey: Image
    darker: Image


def _edges(config: LooseConfig, patch: Image, pixels_per_mm: float) -> _Edges:
    """Edges of ``patch`` (normalised view, float): the steeper of the grey's and the
    unlikeness's gradient at every pixel."""
    smooth = cv2.GaussianBlur(patch, (0, 0), 0.7)
    grey = smooth.mean(axis=2).astype(np.float32)
    unlike = channel_max(np.abs(smooth - PAPER)).astype(np.float32)
    planes = []
    for plane in (grey, unlike):
        planes.append((cv2.Sobel(plane, cv2.CV_32F, 1, 0, ksize=3) / 8,
                       cv2.Sobel(plane, cv2.CV_32F, 0, 1, ksize=3) / 8))
    (grey_x, grey_y), (unlike_x, unlike_y) = planes
    use_unlike = np.hypot(unlike_x, unlike_y) > np.hypot(grey_x, grey_y)
    along_x = np.where(use_unlike, unlike_x, grey_x)
    along_y = np.where(use_unlike, unlike_y, grey_y)
    strength = np.hypot(along_x, along_y) * pixels_per_mm / PAPER
    rows, columns = np.nonzero(strength > config.least_edge)
    magnitude = strength[rows, columns]
    normals = np.column_stack([along_x[rows, columns], along_y[rows, columns]]) / (
        magnitude[:, None] * PAPER / pixels_per_mm)
    weights = np.clip(magnitude / config.full_edge, 0.0, 1.0)
    points = np.column_stack([columns, rows]).astype(np.float64)
    darker = (PAPER - smooth).max(axis=2).astype(np.float32)
    return _Edges(points, normals, weights, along_x, along_y, grey, darker)


class _Hough:
    """Votes of the live edges of at least ``least_weight`` for coins' centres and radii, on
    a grid ``scale`` times as fine as the view (coarser is faster; the circle is fitted again
    at full scale)."""

    def __init__(self, edges: _Edges, live: NDArray[np.bool_], radii: FloatArray,
                 shape: tuple[int, int], scale: float, least_weight: float) -> None:
        self.edges, self.radii, self.scale = edges, radii, scale
        self.least_weight = least_weight
        self.shape = (math.ceil(shape[0] * scale), math.ceil(shape[1] * scale))
        self.raw = self._votes(live)
        self._smooth()

    def _votes(self, chosen: NDArray[np.bool_]) -> FloatArray:
        """Votes (R, H, W) of the ``chosen`` edges for the centres one radius away on both
        sides of each."""
        height, width = self.shape
        flat, weights = self._targets(chosen)
        counted = np.bincount(flat, weights, len(self.radii) * height * width)
        return counted.astype(np.float32).reshape(len(self.radii), height, width)

    def _targets(self, chosen: NDArray[np.bool_]) -> tuple[NDArray[np.intp], FloatArray]:
        """The cells (flat indices into the (R, H, W) votes) each vote of the ``chosen``
        edges falls in, and its weight, in the order one count per radius would add them."""
        height, width = self.shape
        edges = self.edges
        chosen = chosen & (edges.weights >= self.least_weight)
        points, normals = edges.points[chosen] + 0.5, edges.normals[chosen]
        both = np.concatenate([edges.weights[chosen], edges.weights[chosen]])
        # Every radius's targets at once (R, 2N, 2), voting in one count over the cells
        # hit: each cell sums the same votes in the same order as one count per radius.
        radii = self.radii[:, None, None]
        targets = np.concatenate([points[None] + radii * normals[None],
                                  points[None] - radii * normals[None]], axis=1)
        target = np.floor(targets * self.scale).astype(np.intp)
        inside = ((target[..., 0] >= 0) & (target[..., 0] < width)
                  & (target[..., 1] >= 0) & (target[..., 1] < height))
        plane = np.arange(len(self.radii))[:, None] * (height * width)
        flat = (plane + target[..., 1] * width + target[..., 0])[inside]
        return flat, np.broadcast_to(both, inside.shape)[inside]

    def _smooth(self) -> None:
        """Votes blurred a little and divided by the square root of the radius (a larger ring
        about the same centre wins over the lettering and raised rim inside a coin's own);
        the best radius and its votes at every centre."""
        sigma = max(0.5, self.scale)
        votes = np.stack([cv2.GaussianBlur(plane, (0, 0), sigma) / math.sqrt(radius)
                          for plane, radius in zip(self.raw, self.radii, strict=True)])
        self.votes = votes
        self.best_radius = votes.argmax(axis=0)
        self.peaks = np.take_along_axis(votes, self.best_radius[None], axis=0)[0]

    def votes_at(self, centre: FloatArray, radius_index: int) -> float:
        """The most votes for ``radius_index`` within a cell of ``centre`` (full scale)."""
        column, row = np.floor((centre + 0.5) * self.scale).astype(int)
        height, width = self.shape
        window = self.votes[radius_index, max(0, row - 1):min(height, row + 2),
                            max(0, column - 1):min(width, column + 2)]
        return float(window.max()) if window.size else 0.0

    def explain(self, chosen: NDArray[np.bool_]) -> None:
        """The ``chosen`` edges are a coin's: they vote no more."""
        self.raw -= self._votes(chosen)
        self._smooth()

    def peak(self, allowed: NDArray[np.bool_]) -> tuple[FloatArray, float, float]:
        """The strongest centre (full-scale pixels) where ``allowed`` (coarse grid), its
        radius and its votes."""
        best = np.where(allowed, self.peaks, 0.0)
        row, column = np.unravel_index(int(np.argmax(best)), best.shape)
        centre = (np.array([column, row], np.float64) + 0.5) / self.scale - 0.5
        return centre, float(self.radii[self.best_radius[row, column]]), float(best[row, column])


def _rim_share(config: LooseConfig, edges: _Edges, centre: FloatArray, radius: float,
               others: list[tuple[FloatArray, float]], pixels_per_mm: float
               ) -> tuple[float, float]:
    """The share of the circle's uncovered rim an edge crosses radially, and the share of the
    rim that ``others`` (circles found before) cover."""
    angles = np.linspace(0, 2 * math.pi, config.rim_samples, endpoint=False)
    unit = np.column_stack([np.cos(angles), np.sin(angles)])
    band = config.rim_band_mm * pixels_per_mm
    offsets = np.linspace(-band, band, 5)
    points = centre[None, None, :] + (radius + offsets)[None, :, None] * unit[:, None, :]
    map_x = points[..., 0].astype(np.float32)
    map_y = points[..., 1].astype(np.float32)
    along_x = cv2.remap(edges.along_x, map_x, map_y, cv2.INTER_LINEAR)
    along_y = cv2.remap(edges.along_y, map_x, map_y, cv2.INTER_LINEAR)
    magnitude = np.hypot(along_x, along_y)
    radial = np.abs(along_x * unit[:, None, 0] + along_y * unit[:, None, 1])
    crossing = ((magnitude * pixels_per_mm / PAPER > config.least_edge)
                & (radial >= config.radial_cosine * magnitude)).any(axis=1)
    rim = centre[None, :] + radius * unit
    covered = np.zeros(len(angles), bool)
    for other_centre, other_radius in others:
        covered |= np.hypot(*(rim - other_centre[None, :]).T) < other_radius - band
    uncovered = ~covered
    if uncovered.sum() < 0.25 * len(angles):
        return 0.0, float(covered.mean())
    return float(crossing[uncovered].mean()), float(covered.mean())


def _refit(config: LooseConfig, edges: _Edges, live: NDArray[np.bool_], centre: FloatArray,
           radius: float, pixels_per_mm: float, radii: FloatArray) -> tuple[FloatArray, float]:
    """The circle fitted again (least squares) to the live edge points on its rim that face
    its centre, its radius kept within the radii tried."""
    offset = edges.points - centre[None, :]
    distance = np.hypot(offset[:, 0], offset[:, 1])
    band = 1.5 * config.rim_band_mm * pixels_per_mm
    with np.errstate(all="ignore"):
        radial = np.abs((offset * edges.normals).sum(axis=1)) / np.maximum(distance, 1e-6)
    near = live & (np.abs(distance - radius) < band) & (radial >= config.radial_cosine)
    if near.sum() < 12:
        return centre, radius
    x, y = edges.points[near, 0], edges.points[near, 1]
    weights = edges.weights[near]
    matrix = np.column_stack([x, y, np.ones_like(x)]) * weights[:, None]
    target = (x * x + y * y) * weights
    solution, *_ = np.linalg.lstsq(matrix, target, rcond=None)
    fitted = np.array([solution[0] / 2, solution[1] / 2])
    squared = solution[2] + fitted @ fitted
    if squared <= 0 or np.hypot(*(fitted - centre)) > band:
        return centre, radius
    return fitted, float(np.clip(math.sqrt(squared), radii[0], radii[-1]))


def _outermost(config: LooseConfig, edges: _Edges, live: NDArray[np.bool_], hough: _Hough,
               peak: tuple[FloatArray, float], circle: tuple[FloatArray, float, float, float],
               found: list[tuple[FloatArray, float]], pixels_per_mm: float, radii: FloatArray
               ) -> tuple[FloatArray, float, float, float]:
    """The largest ring about the peak's centre that the edges vote for nearly as strongly
    (``outer_votes`` of the peak's votes, from ``outer_ratio`` of the radius out) and whose
    rim is as clear: a coin's lettering and the inner edge of its raised rim are rings inside
    its outline (at about 0.74 and 0.84 of its radius) that may draw the most votes."""
    centre, votes = peak
    best = circle
    for index in np.flatnonzero(radii >= config.outer_ratio * circle[1])[::-1]:
        if hough.votes_at(centre, int(index)) < config.outer_votes * votes:
            continue
        fitted, radius = _refit(config, edges, live, centre, float(radii[index]),
                                pixels_per_mm, radii)
        share, covered = _rim_share(config, edges, fitted, radius, found, pixels_per_mm)
        if share >= config.least_rim and radius >= config.outer_ratio * circle[1]:
            return fitted, radius, share, covered
    return best


def _circles(config: LooseConfig, edges: _Edges, live: NDArray[np.bool_],
             inside: NDArray[np.bool_], radii: FloatArray, pixels_per_mm: float
             ) -> tuple[list[tuple[FloatArray, float]], list[float], list[float]]:
    """The coins found, strongest first: (centre, radius), the share of the uncovered rim an
    edge crosses, the share of the rim covered. ``live`` is updated: explained edges drop.
    A circle taken is the outermost ring about its centre (:func:`_outermost`)."""
    hough = _Hough(edges, live, radii, inside.shape, config.hough_scale, config.voting_weight)
    allowed = cv2.resize(inside.astype(np.uint8), hough.shape[::-1],
                         interpolation=cv2.INTER_NEAREST)
    found: list[tuple[FloatArray, float]] = []
    shares: list[float] = []
    covers: list[float] = []
    failures = 0
    for _ in range(config.most_tries):
        if len(found) >= config.most_coins or failures >= config.most_failures:
            break
        centre, radius, votes = hough.peak(allowed > 0)
        if votes <= config.least_votes:
            break
        fitted, radius = _refit(config, edges, live, centre, radius, pixels_per_mm, radii)
        share, covered = _rim_share(config, edges, fitted, radius, found, pixels_per_mm)
        row, column = round(fitted[1]), round(fitted[0])
        centred = 0 <= row < inside.shape[0] and 0 <= column < inside.shape[1] \
            and bool(inside[row, column])
        apart = all(math.dist(fitted, other) >= config.least_apart * (radius + other_radius)
                    for other, other_radius in found)
        coin = share >= config.least_rim and centred and apart
        # A weak peak (a coin mostly under others shows an arc of its rim) must show metal
        # on the face no coin found covers: a ring drawn through a gap between coins shows
        # paper there.
        if coin and votes < config.strong_votes:
            coin = bare_metal(config.area, edges.darker, (fitted, radius), found,
                              config.face_reach) >= config.least_metal
        if not coin:
            spot = np.round((centre + 0.5) * hough.scale - 0.5).astype(int)
            cv2.circle(allowed, (int(spot[0]), int(spot[1])),
                       max(1, round(0.3 * radii[0] * hough.scale)), 0, -1)
            failures += 1
            continue
        failures = 0
        fitted, radius, share, covered = _outermost(
            config, edges, live, hough, (centre, votes), (fitted, radius, share, covered),
            found, pixels_per_mm, radii)
        found.append((fitted, radius))
        shares.append(share)
        covers.append(covered)
        explained = live & ~_outside(edges.points, [(fitted, radius)],
                                     config.explained_mm * pixels_per_mm)
        live &= ~explained
        hough.explain(explained)
    return found, shares, covers


def find_loose_coins(config: LooseConfig, image: Image, window: RegionWindow,
                     pixels_per_mm: float, diameters_mm: tuple[float, float],
                     ink: Image | None = None, pawns: Image | None = None) -> LooseCoins:
    """The coins lying in ``window`` of the normalised view ``image``, of diameters between
    ``diameters_mm`` (the smallest and largest kind, the frame's size offset included).
    Where ``ink`` (of the view's size) marks the mat's printing, no coin is looked for in
    what is left of it (a pit's letter, its rim), nor where ``pawns`` marks a pawn (a round
    dome, no coin)."""
    x0, y0, x1, y1 = window.box
    patch = image[y0:y1, x0:x1].astype(np.float32)
    shape = patch.shape[:2]
    inside = (window.mask > 0) if window.mask is not None else np.ones(shape, bool)
    printed = (ink[y0:y1, x0:x1] > 0) if ink is not None else np.zeros(shape, bool)
    if pawns is not None:
        reach = 2 * round(config.pawn_margin_mm * pixels_per_mm) + 1
        near = cv2.dilate(pawns[y0:y1, x0:x1], cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (reach, reach)))
        printed |= near > 0
    least = (diameters_mm[0] / 2 - config.radius_margin_mm) * pixels_per_mm
    most = (diameters_mm[1] / 2 + config.radius_margin_mm) * pixels_per_mm
    radii = np.arange(least, most + 1e-9, config.radius_step_mm * pixels_per_mm)
    edges = _edges(config, patch, pixels_per_mm)
    at = edges.points.astype(np.intp)
    live = ~printed[at[:, 1], at[:, 0]]
    live &= inside[at[:, 1], at[:, 0]]
    found, shares, covers = _circles(config, edges, live, inside, radii, pixels_per_mm)
    measured = np.zeros(len(found), bool)
    arcs = clears = np.zeros(len(found))
    if config.edge_sizes and found:
        outlines = outlines_against_paper(config, patch, found, pixels_per_mm)
        measured = np.array([outline.sized for outline in outlines], bool)
        # A size not measured against paper is no better than the rim's own circle.
        found = [(outline.centre, outline.radius) if sized else circle
                 for outline, circle, sized in zip(outlines, found, measured, strict=True)]
        found = _sized_by_arcs(config.arcs, edges, found, measured,
                               (diameters_mm[0] / 2, diameters_mm[1] / 2), pixels_per_mm)
        # An outline scattered off its circle keeps its size, as doubtful as an unmeasured one.
        measured &= np.array([outline.round_outline for outline in outlines], bool)
        arcs = np.array([outline.arc for outline in outlines])
        clears = np.array([outline.clear_share for outline in outlines])
    # The print a misregistered view or a blur leaves a little off its mask (a pit's letter,
    # its rim) is no hidden coin's arc.
    clear_of_ink = ~_near(printed, config.ink_margin_mm * pixels_per_mm)[at[:, 1], at[:, 0]]
    # A coin sized out beyond the ring that found it explains its own outline's edges too.
    live &= _outside(edges.points, found, config.explained_mm * pixels_per_mm)
    doubt, unexplained = _doubt(config, edges, live & clear_of_ink, found,
                                diameters_mm[0] / 2 * pixels_per_mm)
    centres = np.array([centre for centre, _ in found], np.float64).reshape(-1, 2)
    faces = unexplained_faces(config.area, patch, inside & ~_near(printed, config.ink_margin_mm
                                                                  * pixels_per_mm),
                              centres, np.array([radius for _, radius in found]),
                              pixels_per_mm, diameters_mm[0] / 2)
    if faces >= config.area.doubtful_faces:
        doubt = max(doubt, config.doubt)
    centres += np.array([x0, y0], np.float64)
    return LooseCoins(centres, np.array([radius for _, radius in found], np.float64),
                      np.array(shares), np.array(covers), measured, doubt, unexplained,
                      arcs, clears)


def _sized_by_arcs(config: ArcConfig, edges: _Edges, found: list[tuple[FloatArray, float]],
                   measured: NDArray[np.bool_], radii_mm: tuple[float, float],
                   pixels_per_mm: float) -> list[tuple[FloatArray, float]]:
    """The circles, those whose size was not measured against paper sized again by the
    arcs of their outline open between their neighbours (:func:`vision.arcs.size_by_arcs`),
    where enough of them are."""
    if not config.enabled or measured.all():
        return found
    above = occlusion_order(config, edges.along_x, edges.along_y, found, pixels_per_mm) \
        if config.occlusion else None
    sized = list(found)
    for index in np.flatnonzero(~measured):
        arc = size_by_arcs(config, edges.grey, found, int(index), radii_mm, pixels_per_mm,
                           above)
        if arc is not None:
            sized[index] = (arc.centre, arc.radius)
    return sized


def _doubt(config: LooseConfig, edges: _Edges, live: NDArray[np.bool_],
           found: list[tuple[FloatArray, float]], smallest_px: float) -> tuple[float, float]:
    """How doubtful the count is, and the unexplained rim: coins covering each other by more
    than ``doubt_overlap`` of the smaller width, or strong edges no circle explains, as much
    as ``unexplained_rim`` of the smallest coin's rim (a coin hidden among others, or one the
    circles missed, shows as arcs)."""
    for (first, first_radius), (second, second_radius) in _pairs(found):
        depth = first_radius + second_radius - float(np.hypot(*(first - second)))
        if depth > config.doubt_overlap * 2 * min(first_radius, second_radius):
            return config.doubt, 0.0
    strong = live & (edges.weights >= 0.5)
    unexplained = float(edges.weights[strong].sum()) / (2 * math.pi * smallest_px * 2)
    return (config.doubt if unexplained >= config.unexplained_rim else 0.0), unexplained


def _outside(points: FloatArray, found: list[tuple[FloatArray, float]], reach_px: float
             ) -> NDArray[np.bool_]:
    """Which ``points`` lie farther than ``reach_px`` outside every circle of ``found``."""
    outside = np.ones(len(points), bool)
    for centre, radius in found:
        offset = points - centre[None, :]
        outside &= np.hypot(offset[:, 0], offset[:, 1]) > radius + reach_px
    return outside


def _near(mask: NDArray[np.bool_], reach_px: float) -> NDArray[np.bool_]:
    """Where ``mask`` lies within ``reach_px``."""
    size = 2 * round(reach_px) + 1
    grown = cv2.dilate(mask.astype(np.uint8), cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (size, size)))
    return np.asarray(grown > 0)


def _pairs(found: list[tuple[FloatArray, float]]
           ) -> list[tuple[tuple[FloatArray, float], tuple[FloatArray, float]]]:
    return [(found[first], found[second]) for first in range(len(found))
            for second in range(first + 1, len(found))]

