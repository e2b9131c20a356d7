"""The steady-frame gate: which frames are fit to read, and why the others are not.

A frame counts only when, for at least ``settle_s`` seconds (0.4 s by default), every frame has
shown all four markers, a still board, and nothing foreign over the mat. The gate is a pure state
machine: :meth:`SteadyGate.update` is fed a timestamp, the image and the board-finding result
of :mod:`vision.markers` (a ``BoardLocation``, or the ``MatNotFoundError`` that
``find_board`` raised), and returns a :class:`GateVerdict` whose ``reason`` says in a few words
why the frame does not count ("marker 2 not seen", "a hand is over the board", "waiting for the
board to settle"). It never sleeps and never reads a clock, so tests feed it made-up times.

How it looks, on a low-resolution top view of the whole mat (2 mm per pixel by default):

* stillness: the play area's corners in the image must not shift, and the top view must not
  change, between consecutive frames; both are worked out through the lens as well as the
  homography, so a refit of the lens (:mod:`vision.markers` refits it every so often) that
  trades distortion for homography, leaving the board where it was, is no motion;
* foreign objects: the light's colour and unevenness are divided out against the paper's own
  local white; then skin-coloured area larger than a few pennies is a hand when it reaches
  out over the margin around the play area (arms come from outside the mat) or could not be
  coins (below), and of everything clearly darker or more colourful than paper (coins, pawns,
  sleeves, shadows), a blob reaching over the margin, or one that could not be coins, is
  foreign. Coins could not make a blob larger than the region it lies in can hold (a square,
  a Shakala pit or cup, a dice tray), nor one spreading over paper no coin in a region can
  reach (:mod:`vision.gate_regions`).

:meth:`SteadyGate.look` finds the board itself and is what a referee calls per frame;
:meth:`SteadyGate.look_still` judges a still photo on its own (no motion, no settle time).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import MatGeometry
from vision.errors import MatNotFoundError
from vision.gate_regions import (
    LARGEST_COIN_AREA_MM2,
    RegionLimits,
    blob_too_large,
    region_limits,
)
from vision.lens import distort_points
from vision.markers import BoardLocation, MarkerConfig, find_board

#: An image or mask as OpenCV gives it; a 3x3 or Nx2 float matrix.
Image = NDArray[Any]
Matrix = NDArray[Any]


class BoardFinding(Protocol):
    """What the gate needs of a board-finding result (:class:`vision.markers.BoardLocation`)."""

    @property
    def homography(self) -> Matrix:
        """3x3 homography from mat millimetres to image pixels."""
        ...

    @property
    def markers_found(self) -> tuple[int, ...]:
        """Ids of the mat's markers found in the frame."""
        ...

    @property
    def lens_k1(self) -> float:
        """The lens's radial distortion (see :func:`vision.lens.distort_points`)."""
        ...

    @property
    def image_size(self) -> tuple[int, int]:
        """The frame's (width, height) in pixels."""
        ...


@dataclass(frozen=True)
class GateConfig:
    """Thresholds of the gate; lengths in millimetres on the mat, times in seconds."""

    settle_s: float = 0.4
    mm_per_pixel: float = 2.0
    #: A play-area corner moving more than this many image pixels means the board moves.
    corner_shift_px: float = 2.5
    #: Grey-level change of a top-view pixel that counts as change.
    change_level: float = 24.0
    #: Changed area above this means something moves over the mat.
    change_area_mm2: float = 120.0
    #: A pixel is an object when darker than this share of the paper around it.
    dark_ratio: float = 0.62
    #: ... or more saturated than this (HSV saturation, 0-255).
    saturation: float = 70.0
    #: The least object blob that is foreign for its size: a region larger than this may hold
    #: as large a blob as its own area (:mod:`vision.gate_regions`; a quarter is 462 mm^2, a
    #: square 2500 mm^2, a Shakala pit 13,273 mm^2).
    foreign_area_mm2: float = 2600.0
    #: An object covering more than this of the margin around the play area is foreign (an arm
    #: crossing it covers thousands; a taken coin put down there, at most 551, does not count).
    margin_area_mm2: float = 700.0
    #: Skin-coloured area above this may be a hand (a penny is 285 mm^2 and copper looks like
    #: skin; a hand reaching in shows several thousand): it is one when it reaches the margin
    #: or could not be coins, as a foreign object.
    skin_area_mm2: float = 1500.0


@dataclass(frozen=True)
class GateVerdict:
    """The gate's answer for one frame: whether it counts and, if not, why.

    ``code`` is one of ``steady``, ``no-board``, ``markers``, ``hand``, ``foreign``, ``moving``,
    ``settling``; ``reason`` is the short sentence for the screen ("a hand covers marker 2"
    when both); ``still_s`` is how long the board has been steady and clean so far;
    ``missing_markers`` the mat's markers not found in this frame.
    """

    steady: bool
    code: str
    reason: str
    still_s: float = 0.0
    missing_markers: tuple[int, ...] = ()


@dataclass(frozen=True, eq=False)
class GateView:
    """The whole mat seen from above at low resolution: as seen, in grey, with the light's
    colour divided out (``balanced``: paper at :data:`PAPER_LEVEL`), and masks of the paper
    to look at (markers cut out) and of the margin around the play area."""

    image: Image
    grey: Image
    balanced: Image
    paper_mask: Image
    margin_mask: Image


#: The grey level white paper is brought to in the balanced view.
PAPER_LEVEL = 235.0


def markers_missing_reason(missing: tuple[int, ...]) -> str:
    """``marker 2 not seen`` or ``markers 1 and 3 not seen``."""
    names = [str(marker_id) for marker_id in missing]
    if len(names) == 1:
        return f"marker {names[0]} not seen"
    return f"markers {', '.join(names[:-1])} and {names[-1]} not seen"


def _rect_mask(shape: tuple[int, int], bounds: tuple[float, float, float, float],
               scale: float) -> Image:
    mask = np.zeros(shape, np.uint8)
    left, top, right, bottom = (round(value / scale) for value in bounds)
    mask[max(top, 0):max(bottom, 0), max(left, 0):max(right, 0)] = 255
    return mask


def view_masks(geometry: MatGeometry, mm_per_pixel: float, config: GateConfig | None = None
               ) -> tuple[Image, Image, Image]:
    """(paper, play area, margin) masks of the top view; markers and their quiet zones are cut,
    and so is what the mat itself prints dark or colourful (:func:`printed_objects`: a dice
    tray's felt, a wall), which is no object over the mat.

    The margin is the band around the play area that an arm must cross to reach the board.
    """
    shape = (
        round(geometry.height_mm / mm_per_pixel),
        round(geometry.width_mm / mm_per_pixel),
    )
    # Keep off the sheet's edge, where the table shows through any small misfit.
    edge = 12.0
    paper = _rect_mask(shape, (edge, edge, geometry.width_mm - edge, geometry.height_mm - edge),
                       mm_per_pixel)
    for marker in geometry.markers:
        quiet = geometry.quiet_zone_mm
        left, top, right, bottom = marker.rect().bounds()
        paper[_rect_mask(shape, (left - quiet, top - quiet, right + quiet, bottom + quiet),
                         mm_per_pixel) > 0] = 0
    paper[printed_objects(geometry, mm_per_pixel, shape, config or GateConfig()) > 0] = 0
    play = _rect_mask(shape, geometry.play_area.bounds(), mm_per_pixel)
    margin = cv2.bitwise_and(paper, cv2.bitwise_not(play))
    # Keep off the printed border line, and the pixels that straddle it.
    play = cv2.erode(play, np.ones((3, 3), np.uint8))
    margin = cv2.erode(margin, np.ones((5, 5), np.uint8))
    return paper, play, margin


def printed_objects(geometry: MatGeometry, mm_per_pixel: float, shape: tuple[int, int],
                    config: GateConfig) -> Image:
    """Where the printed mat itself would pass for an object (:func:`object_mask`'s darkness
    and colour on the mat's rendering, at the top view's scale, a pixel wider all round for
    the view's blur and a fraction of a pixel's misfit). Thin lines and letters, averaged
    over a top-view pixel, stay paler than that."""
    from calibration.mats import render_mat

    fine = 4
    mat = cv2.resize(render_mat(geometry, fine / mm_per_pixel), (shape[1], shape[0]),
                     interpolation=cv2.INTER_AREA)
    grey = cv2.cvtColor(mat, cv2.COLOR_BGR2GRAY)
    saturation = cv2.cvtColor(mat, cv2.COLOR_BGR2HSV)[:, :, 1]
    printed = ((grey < config.dark_ratio * 255) | (saturation > config.saturation))
    return cv2.dilate(printed.astype(np.uint8) * 255, np.ones((3, 3), np.uint8))


def top_view(image: Image, finding: BoardFinding, geometry: MatGeometry,
             mm_per_pixel: float, masks: tuple[Image, Image, Image] | None = None) -> GateView:
    """The whole mat warped straight to ``mm_per_pixel`` (2 mm per pixel is coarse enough that
    the warp is cheap, and fine enough to see a coin move), through the lens as well as the
    homography, so that a lens refit that leaves the board where it was leaves the view too."""
    paper, _, margin = masks or view_masks(geometry, mm_per_pixel)
    height, width = paper.shape
    view_to_mat = np.diag([mm_per_pixel, mm_per_pixel, 1.0])
    if finding.lens_k1 == 0.0:
        view = cv2.warpPerspective(image, finding.homography @ view_to_mat, (width, height),
                                   flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REPLICATE)
    else:
        map_x, map_y = _lens_maps(finding, view_to_mat, (width, height))
        view = cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    grey = cv2.cvtColor(view, cv2.COLOR_BGR2GRAY)
    white = np.maximum(paper_level(view, mm_per_pixel), 1.0)
    balanced = np.clip(view.astype(np.float32) * (PAPER_LEVEL / white), 0, 255).astype(np.uint8)
    return GateView(view, grey, balanced, paper, margin)


def paper_level(image: Image, mm_per_pixel: float) -> Image:
    """The paper's local colour, channel by channel: the brightest pixels within about 30 mm,
    smoothed (float32, the image's shape). Worked out on a quarter-size copy, since light
    changes slowly across the mat."""
    height, width = image.shape[:2]
    small = cv2.resize(image, (max(1, width // 4), max(1, height // 4)),
                       interpolation=cv2.INTER_AREA)
    size = max(3, round(60.0 / (4 * mm_per_pixel)) | 1)
    level = cv2.dilate(small, np.ones((size, size), np.uint8))
    level = cv2.GaussianBlur(level.astype(np.float32), (0, 0), size / 2)
    return cv2.resize(level, (width, height), interpolation=cv2.INTER_LINEAR)


def object_mask(view: GateView, config: GateConfig) -> Image:
    """Pixels clearly darker or more colourful than the paper around them."""
    grey = cv2.cvtColor(view.balanced, cv2.COLOR_BGR2GRAY)
    dark = grey < config.dark_ratio * PAPER_LEVEL
    saturation = cv2.cvtColor(view.balanced, cv2.COLOR_BGR2HSV)[:, :, 1]
    colourful = saturation > config.saturation
    mask = ((dark | colourful) & (view.paper_mask > 0)).astype(np.uint8) * 255
    return cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))


def skin_mask(view: GateView) -> Image:
    """Skin-coloured pixels (a common YCrCb range covering light to dark skin), judged after
    the light's colour is taken out (paper white made neutral)."""
    ycrcb = cv2.cvtColor(view.balanced, cv2.COLOR_BGR2YCrCb)
    mask = cv2.inRange(ycrcb, np.array([40, 138, 77], np.uint8), np.array([250, 178, 127],
                                                                          np.uint8))
    return cv2.bitwise_and(mask, view.paper_mask)


def hand_seen(view: GateView, config: GateConfig, limits: RegionLimits | None = None) -> bool:
    """Whether a hand lies on the mat: a skin-coloured patch larger than ``skin_area_mm2`` that
    reaches over the margin around the play area (an arm comes from outside the mat), or one
    no coins could make where it lies (``limits``, :func:`vision.gate_regions.blob_too_large`;
    without them, one larger than ``foreign_area_mm2``).

    Skin is looked for on its own, since pale skin is neither dark nor colourful against paper.
    A pile of touching copper or brass coins looks like skin too, and a Shakala pit holds a pile
    that can cover its whole floor, so a patch inside the play area counts only when it is
    larger than its region could hold or spreads where no coin lies.
    """
    skin = cv2.morphologyEx(skin_mask(view), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(skin, connectivity=8)
    if count <= 1:
        return False
    pixel_mm2 = config.mm_per_pixel**2
    areas = stats[:, cv2.CC_STAT_AREA] * pixel_mm2
    in_margin = np.bincount(labels[view.margin_mask > 0], minlength=count) * pixel_mm2
    for label in range(1, count):
        if areas[label] < config.skin_area_mm2:
            continue
        if in_margin[label] >= config.margin_area_mm2 or _why_not_coins(
                labels, label, areas[label], config, limits) is not None:
            return True
    return False


def _why_not_coins(labels: Image, label: int, area_mm2: float, config: GateConfig,
                   limits: RegionLimits | None) -> str | None:
    """Why blob ``label`` of ``labels`` could not be coins lying where they may (``large``,
    ``between``: :func:`vision.gate_regions.blob_too_large`), or None. A blob smaller than a
    coin fits any region and strays nowhere; without ``limits``, only a blob larger than
    ``foreign_area_mm2`` is too large."""
    if area_mm2 < min(config.foreign_area_mm2, LARGEST_COIN_AREA_MM2):
        return None
    if limits is None:
        return "large" if area_mm2 >= config.foreign_area_mm2 else None
    return blob_too_large(limits, labels == label, area_mm2, config.mm_per_pixel)


def foreign_reason(view: GateView, config: GateConfig, limits: RegionLimits | None = None
                   ) -> tuple[str, str] | None:
    """(code, reason) when a foreign object other than a bare hand lies over the mat, else None.

    Every object blob (see :func:`object_mask`) is checked for reaching into the margin around
    the play area and for being no coins lying where they may (``limits``: larger than its
    region could hold, or spreading where no coin lies; without them, larger than
    ``foreign_area_mm2``); :func:`hand_seen` looks for skin.
    """
    pixel_mm2 = config.mm_per_pixel**2
    objects = object_mask(view, config)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(objects, connectivity=8)
    in_margin = np.bincount(labels[view.margin_mask > 0], minlength=count) * pixel_mm2
    for label in range(1, count):
        why = _why_not_coins(labels, label, stats[label, cv2.CC_STAT_AREA] * pixel_mm2, config,
                             limits)
        if why == "large":
            return "foreign", "something large lies over the board"
        if in_margin[label] >= config.margin_area_mm2:
            return "foreign", "something reaches over the edge of the board"
        if why == "between":
            return "foreign", "something lies between the board's regions"
    return None


def gate_limits(geometry: MatGeometry, masks: tuple[Image, Image, Image],
                config: GateConfig) -> RegionLimits:
    """The region limits of ``geometry`` on the gate's top view (:mod:`vision.gate_regions`)."""
    paper, play, _ = masks
    return region_limits(geometry, config.mm_per_pixel, paper.shape,
                         cv2.bitwise_and(paper, play), config.foreign_area_mm2)


def _lens_maps(finding: BoardFinding, view_to_mat: Matrix, size: tuple[int, int],
               step: int = 8) -> tuple[Image, Image]:
    """Frame coordinates (x map, y map) of every top-view pixel through the homography and the
    lens: worked out every ``step`` pixels and interpolated, since the mapping is smooth."""
    width, height = size
    count_x, count_y = width // step + 3, height // step + 3
    # Grid points half a step off, so that resizing by ``step`` puts them on pixel centres.
    columns = (np.arange(count_x, dtype=np.float64) - 0.5) * step - 0.5
    rows = (np.arange(count_y, dtype=np.float64) - 0.5) * step - 0.5
    grid_x, grid_y = np.meshgrid(columns, rows)
    points = np.column_stack([grid_x.ravel(), grid_y.ravel()]).reshape(-1, 1, 2)
    ideal = cv2.perspectiveTransform(points, finding.homography @ view_to_mat).reshape(-1, 2)
    frame = distort_points(ideal, finding.lens_k1, finding.image_size)
    maps = []
    for channel in (0, 1):
        coarse = np.ascontiguousarray(frame[:, channel].reshape(count_y, count_x), np.float32)
        fine = cv2.resize(coarse, (count_x * step, count_y * step),
                          interpolation=cv2.INTER_LINEAR)
        maps.append(fine[step:step + height, step:step + width])
    return maps[0], maps[1]


def play_area_corners(finding: BoardFinding, geometry: MatGeometry) -> Matrix:
    """The play area's four corners in frame pixels, through the homography and the lens."""
    left, top, right, bottom = geometry.play_area.bounds()
    points = np.array([[[left, top], [right, top], [right, bottom], [left, bottom]]], np.float64)
    ideal = cv2.perspectiveTransform(points, finding.homography)[0]
    return distort_points(ideal, finding.lens_k1, finding.image_size)


@dataclass
class SteadyGate:
    """Feed every frame to :meth:`update`; a verdict with ``steady`` True means read this frame.

    State: the previous top view and corners (for stillness) and the time since which every
    frame was complete, still and clean. :meth:`reset` forgets it (after a move is accepted,
    the referee may want a fresh settle).
    """

    geometry: MatGeometry
    config: GateConfig = field(default_factory=GateConfig)
    _masks: tuple[Image, Image, Image] | None = field(default=None, repr=False)
    _limits: RegionLimits | None = field(default=None, repr=False)
    _previous_view: Image | None = field(default=None, repr=False)
    _previous_corners: Matrix | None = field(default=None, repr=False)
    _clean_since: float | None = field(default=None, repr=False)

    def reset(self) -> None:
        """Forget the previous frame and the steady time."""
        self._previous_view = None
        self._previous_corners = None
        self._clean_since = None

    def look(self, timestamp: float, image: Image,
             markers: MarkerConfig | None = None) -> tuple[GateVerdict, BoardLocation | None]:
        """Find the board in ``image`` and :meth:`update`; also returns the board location."""
        finding = self._find(image, markers)
        verdict = self.update(timestamp, image, finding)
        return verdict, None if isinstance(finding, MatNotFoundError) else finding

    def look_still(self, image: Image, markers: MarkerConfig | None = None
                   ) -> tuple[GateVerdict, BoardLocation | None]:
        """Judge a still photo on its own: markers, hands and foreign objects as in any frame,
        but no motion and no settle time, since a photo cannot move. Forgets the frames
        before (a photo has no before), and is forgotten by the next."""
        self.reset()
        finding = self._find(image, markers)
        problem = self._problem(image, finding)
        self.reset()
        location = None if isinstance(finding, MatNotFoundError) else finding
        if problem is not None:
            code, reason = problem
            return GateVerdict(False, code, reason, 0.0, self._missing(finding)), location
        return GateVerdict(True, "steady", "steady", self.config.settle_s), location

    def _find(self, image: Image, markers: MarkerConfig | None
              ) -> BoardLocation | MatNotFoundError:
        """Where the board lies in ``image``, or the error saying why it was not found."""
        try:
            return find_board(markers or MarkerConfig(), image, self.geometry)
        except MatNotFoundError as error:
            return error

    def update(self, timestamp: float, image: Image,
               finding: BoardFinding | MatNotFoundError) -> GateVerdict:
        """The verdict on this frame, given the frames before it.

        ``finding`` is what :func:`vision.markers.find_board` returned for this frame, or the
        :class:`~vision.errors.MatNotFoundError` it raised.
        """
        problem = self._problem(image, finding)
        if problem is not None:
            self._clean_since = None
            code, reason = problem
            return GateVerdict(False, code, reason, 0.0, self._missing(finding))
        if self._clean_since is None:
            self._clean_since = timestamp
        still = max(0.0, timestamp - self._clean_since)
        if still + 1e-9 < self.config.settle_s:
            return GateVerdict(False, "settling", "waiting for the board to settle", still)
        return GateVerdict(True, "steady", "steady", still)

    def _missing(self, finding: BoardFinding | MatNotFoundError) -> tuple[int, ...]:
        if isinstance(finding, MatNotFoundError):
            found = set(finding.found)
        else:
            found = set(finding.markers_found)
        return tuple(marker for marker in self.geometry.marker_ids() if marker not in found)

    def _problem(self, image: Image,
                 finding: BoardFinding | MatNotFoundError) -> tuple[str, str] | None:
        missing = self._missing(finding)
        if isinstance(finding, MatNotFoundError):
            self.reset()
            if len(missing) == len(self.geometry.markers):
                return "no-board", "no markers seen: put the whole mat in view"
            return "no-board", f"board not found: {markers_missing_reason(missing)}"
        if self._masks is None:
            self._masks = view_masks(self.geometry, self.config.mm_per_pixel, self.config)
            self._limits = gate_limits(self.geometry, self._masks, self.config)
        view = top_view(image, finding, self.geometry, self.config.mm_per_pixel, self._masks)
        moving = self._moved(view, play_area_corners(finding, self.geometry))
        hand = hand_seen(view, self.config, self._limits)
        if hand and missing:
            covered = markers_missing_reason(missing).removesuffix(" not seen")
            return "hand", f"a hand covers {covered}"
        if hand:
            return "hand", "a hand is over the board"
        if missing:
            return "markers", markers_missing_reason(missing)
        foreign = foreign_reason(view, self.config, self._limits)
        if foreign is not None:
            return foreign
        if moving:
            return "moving", "waiting for the board to settle"
        return None

    def _moved(self, view: GateView, corners: Matrix) -> bool:
        """Compare with the previous frame, then remember this one."""
        previous_view, previous_corners = self._previous_view, self._previous_corners
        blurred = cv2.GaussianBlur(view.grey, (3, 3), 0)
        self._previous_view, self._previous_corners = blurred, corners
        if previous_view is None or previous_corners is None:
            return False
        shift = float(np.max(np.linalg.norm(corners - previous_corners, axis=1)))
        if shift > self.config.corner_shift_px:
            return True
        changed = (cv2.absdiff(blurred, previous_view) > self.config.change_level) & (
            view.paper_mask > 0
        )
        return bool(np.count_nonzero(changed) * self.config.mm_per_pixel**2
                    > self.config.change_area_mm2)
