"""Reading the dice in a tray: which face each die shows, from the camera frame's own detail.

:func:`read_tray_in_frame` warps just the tray from the camera frame through the mat's
homography at ``DiceConfig.pixels_per_mm`` (the mat's top view, at 2 px/mm, would resample a
1.5-1.8 px/mm frame into 6 px pips, blurred twice), and :func:`read_dice` reads that image (or
any top view's crop of a ``tray`` region) in four steps, each from the
physics of a cube on felt rather than from a model fitted to one renderer:

1. **Bodies.** The felt is most of the tray, so its colour in this very frame is the crop's
   median. A pixel belongs to a die where its chromaticity (log colour ratios, which neither
   the light's strength nor its warmth change) differs from the felt's, or where it is much
   brighter, or darker than any shadow. Pips are holes in a body and are filled. A black
   die on coloured felt is about as dark and as unlike the felt's hue as the least a die
   shows, each alone: where a black die is left unread, the tray's bodies are found again
   with the two taken together for black bodies, and the dice the first read left unread are
   taken from that read (:mod:`vision.dice_dark`). Chromaticity, which no darkening alters,
   carries a coloured die's blur over a black neighbour's edge: where a die is left unread
   beside a black one, their seam is placed where the picture is halfway between their
   colours (:mod:`vision.dice_black_seam`).
2. **Top faces.** Seen from a camera off to one side, a still die shows its top face swept
   away from the camera by its height, over the side faces that face the camera. A square
   swept along a segment ``d`` is as wide as the square across ``d`` and ``|d|`` longer along
   it, whatever the square's turn, and a square's second moments are the same in every
   direction: so the blob's principal axis is ``d``'s direction and its length less its
   width is ``|d|``. Eroding the blob along ``d`` leaves the top face. A single die is eroded
   by the ``d`` the camera's pose gives an upright die of its edge at its place (the camera
   placed by :mod:`vision.camera_pose` when its focal length is known; the blob's own
   length would take a cocked die's side face in), so a cocked die keeps part of a side face
   in its "top", which is then no square or off its pips' middle; other dice count as body
   where they touch it.
   Blobs of several touching dice are eroded by the lean the single dice of the frame show
   (or the camera's) and split in as many squares as their area holds: two face to face
   across the middle of their rectangle, or along the line joining the two concave corners
   where their outlines meet, whichever leaves the squarer tops (where a side face fills the
   corner between the tops, the body is cut at its own outline's corners instead and each
   part must pass as a lone die; no cut that leaves a part no square is kept). A single blob
   whose top is no square is tried as two dice face to face. Bodies and top faces are found
   at ``segment_pixels_per_mm``. A die near a side of the tray the lean points out of may
   show its top past the felt, over the mat: where such a die is not read, the tray is read
   again over the felt widened there (:mod:`vision.dice_beyond`).
3. **Flat or not.** A flat die's top is a square 12-20 mm on a side. A die cocked against
   another die or a wall shows its top foreshortened across the edge it stands on, and a side
   face beside it: what is left of it is no square of that size, its pips (4-6) lie on a grid
   longer one way than the other, its body sweeps further than the camera's lean (by
   ``lean_slack``) or sideways to it (``side_slack``), or reaches outside its top face swept
   towards the camera (``most_outside`` of it); any of these makes the die unreadable (value
   None). A die that a nearer die touches may have the side face that showed its lean hidden
   under that die: it is read only when its top is a square of the nearer die's edge
   (:mod:`vision.dice_hidden`). A die cocked with its top turned towards the camera shows a
   square top and no strip of side face towards the camera, but one across the lean: a lone
   die whose body reaches about its pips' middle otherwise than a flat die's by
   ``most_side_shift`` of its edge is cocked too (:mod:`vision.dice_side`). A die cocked 20-30°
   can still pass for flat, most often beside another die: see bench/bench_dice.py for how
   often.
4. **Pips** (:mod:`vision.dice_pips`). The contrast with the face's own colour, smoothed a
   little, has a local maximum at every pip, whatever its colour, size or shape: the
   strongest maxima on the face (away from its edges, where side faces' pips show) are the
   candidate pips. The value is the
   count ``n`` of the strongest that lie on a standard layout (1-6, either way round): centred
   on the face (every layout is symmetric about its middle), each near a point of a 3x3 grid
   at the face's turn, spaced 0.18-0.36 of the edge, its axes equally long (a die cocked up
   shows its top foreshortened, and is None). How far the ``n``-th maximum stands above the
   next (or above the face's plain level), against the pips' contrast, is the confidence.
   Spots that fit no layout clearly (a 6's columns blurred into bars) are fitted as a whole
   (:mod:`vision.dice_layout`: a blob at each grid point and a constant, by least squares),
   and a 2 or 3 (whose grid's squareness so few pips cannot show) is read only when that fit
   reads it too (at the outline's turn, or at the turn the pips' diagonal fixes, which an
   outline with a strip of side face left in it may miss by 10°); a face that fits no layout
   either way is unreadable (None). Beside a touching die, or where blur and shadow pull
   its outline, a top's rectangle may reach a tenth of the edge over the felt or the
   neighbour, its pips then off its middle: a face whose pips fail is read again with only
   the part of its rectangle of its own colour (:mod:`vision.dice_seam`), and a 4-6 read
   there is kept (its grid, long both ways, shows it flat; 1-3 show nothing of that). A
   lone die's outline may lie off its pips by more than that (a strip of shadow or side
   face taken in on one side): a face whose pips still fail is read again about its pips'
   own middle (:mod:`vision.dice_recentre`), and kept only where its body, measured about
   that middle, shows it flat more closely than the side faces' test asks.

The die's colour is named from its face colour, white-balanced by the felt's printed colour.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import cv2
import numpy as np

from contract.observation import DieReading
from vision.arrays import FloatArray, Image
from vision.camera_pose import camera_pose
from vision.dice_bars import read_moved
from vision.dice_beside import nearest_beside, other_die, read_beside
from vision.dice_beyond import (
    background,
    beyond_felt,
    only_flat_new,
    refuse_cut_past_felt,
    sides_reached,
)
from vision.dice_black_seam import black_seams
from vision.dice_bodies import black_bodies, find_bodies
from vision.dice_colour import colour_name
from vision.dice_colour_cut import colour_cuts, uncut_unread, whole_cuts, with_cuts
from vision.dice_dark import unread_taken_from
from vision.dice_faces import TopFace, top_faces
from vision.dice_layout import read_face_pips_placed
from vision.dice_pips import masked_median
from vision.dice_recentre import flat_about_pips
from vision.dice_seam import read_own_part
from vision.dice_shadow import without_shadow
from vision.dice_side import SIDE_WHY, cocked_by_side, telling_body
from vision.markers import BoardLocation
from vision.parallax import CameraOverMat
from vision.rectify import TopView, window_warper


@dataclass(frozen=True)
class DiceConfig:
    """How dice are found and read.

    A die's edge is ``edge_mm`` (the common dice are 12-20 mm). A pixel is a die's where its
    log chromaticity differs from the felt's by ``chroma`` or its log brightness by more than
    ``brighter`` above or ``darker`` below (a shadow darkens less than that). ``border_mm``
    of the crop's edge (the tray's printed frame) is ignored. A top face is square when its
    sides differ by at most ``square_tolerance`` of the longer and it fills ``least_fill`` of
    its rectangle. The tray is warped from the frame at ``pixels_per_mm``. Pips are maxima of
    the contrast with the face's colour smoothed by ``pip_blur`` of the edge, within the
    face's middle ``face_inset`` and ``pip_apart`` of the grid's spacing (``spread`` of the
    edge) apart; their centre lies within ``off_centre`` of the edge from the face's, each
    within ``snap`` of the spacing from its grid point, the grid spaced ``spacing_range`` of
    the edge and its axes differing by ``most_stretch`` at most. A value is read when its
    weakest pip stands out from the next maximum by ``least_margin`` of the pip contrast
    (``sure_margin`` for full confidence) and by ``least_contrast`` (8-bit levels) at least;
    it is not sure (``uneven_confidence`` at most, under the referee's
    :data:`companion.referee_rolls.SURE_DIE`, so the roller throws again) when its weakest
    pip is under ``even_pips`` of its strongest (a face's pips are all alike). Bodies and top
    faces are found at about ``segment_pixels_per_mm``. A value's pips must each be a spot
    no wider than ``widest_pip`` of the edge (at half its contrast), and no point of the 3x3
    grid its layout leaves empty may stand out by ``empty_share`` of its weakest pip's
    contrast. A pixel is a body's
    only where its difference from the felt reaches ``edge_share`` of the most within
    ``edge_blur_mm`` (so that touching dice of different colours come apart); a blob is one
    die when no wider across the lean than ``most_across`` of its edge. ``side_slack`` and
    ``most_outside`` tell cocked dice (above). ``focal_px`` is the camera's focal length in
    frame pixels where it is known (calibrated; the synthetic table's camera tells its own):
    the camera's place over the mat is then solved from the mat's homography with it
    (:func:`vision.camera_pose.camera_pose`) instead of taken from a camera whose principal
    point is assumed in the frame's middle. A single die's top is the body less the sweep an
    upright die of its edge shows there; when the top's side differs from that edge by more
    than ``edge_agreement`` of it, the body is eroded again by the top's own side. Pips that
    make no layout found spot by spot are fitted as a whole (:mod:`vision.dice_layout`): the
    value is read when the least pip's height stands ``fit_gap`` of the tallest above every
    empty grid point (``fit_sure_gap`` for full confidence), the grid's middle lies within
    ``fit_most_offset`` of the edge from the face's, and pips of one height explain
    ``fit_least_share`` of the face's contrast. Values in ``confirmed_values`` (few pips,
    whose grid's squareness the spots alone cannot show) are read only when the fit reads
    them too: at the outline's turn, or else at the turn the pips' own diagonal gives the
    grid, where pips of one height must explain ``fit_turned_least_share`` of the contrast.
    White pips on a dark die notch its body by a pip's width (``pip_hole_mm``, about a sixth
    of a 16 mm die's side) and the blur's halo around it: each body is closed over that much
    before its top face is looked for. A dark die on light felt scores about 1, and the halos
    can cut its body into pieces each too small to be a die: pieces (larger than the closing
    disc) that pixels within ``grow_mm`` of them join are one body, where those pixels score
    ``grow_share`` and differ from the felt in hue by ``grow_chroma`` of ``chroma`` (a shadow
    is the felt darker, in its own hue); no two pieces each a die's size are joined. A die is
    convex: a body whose convex hull is no larger than ``one_die_share`` of the largest die's
    square and which fills less than ``fill_solidity`` of that hull takes those weaker pixels
    within the hull too. Two touching dice's joint top is cut along the line joining its two
    deepest concave corners (their seam, however the dice stand against each other) when both
    are at least ``defect_depth`` of the edge deep and both parts are square tops, squarer
    than those of the cut across the middle. A die that a nearer die touches (their bodies
    within ``hidden_gap_mm``) may have the side that showed its lean hidden: it is read only
    when its top is a square of the nearer die's edge, within ``hidden_size_tolerance`` of it
    (:mod:`vision.dice_hidden`). A face whose pips fail is read again with only its own part
    of its rectangle (:mod:`vision.dice_seam`): the pixels whose chromaticity lies more than
    ``own_chroma`` from its middle's (the felt, a die of another colour beside the seam) are
    painted the face's colour and its middle is taken as its own part's, where that moves it
    by ``own_least_shift`` of the edge at least; only a value of ``own_least_value`` or more,
    whose pips' grid shows the face flat, is kept. A face beside another die whose pips
    still fail is read again with its side facing that die put at their seam, where the
    picture lies halfway between their colours (:mod:`vision.dice_beside`): only a top
    square to ``most_stretch``, of a die named apart from the other, moved towards it by
    twice ``edge_blur_mm`` at most. A lone die's top no square is looked for
    again in its body less its shadow (:mod:`vision.dice_shadow`), where the die's hue
    differs from the felt's by ``shadow_least_hue`` of ``chroma`` at least and the shadow
    is no more than ``shadow_most_share`` of the body; so is a blob taken for touching dice,
    first as one die, then, where its split tops fail, each die less its own shadow. A lone
    die read from its pips spot by spot whose body reaches about their middle otherwise than
    a flat die's by ``most_side_shift`` of its edge shows a side face where a flat die shows
    none, and is cocked (:mod:`vision.dice_side`; no other body within ``side_clear_mm``).
    A face whose pips still fail is read again about its pips' own middle
    (:mod:`vision.dice_recentre`), where that lies ``own_least_shift`` to ``recentre_most``
    of the edge off its outline's, a value of ``recentre_least_value`` or more; it is kept
    only where read spot by spot and its body reaches about that middle as a lone flat die's
    to ``recentre_side`` of its edge (a body that cannot tell leaves it unread); else a 6
    whose pips blur into two bars is read at their turn (:mod:`vision.dice_bars`), so kept.
    """

    edge_mm: tuple[float, float] = (12.0, 20.0)
    chroma: float = 0.2
    brighter: float = 0.4
    darker: float = 0.9
    border_mm: float = 1.6
    square_tolerance: float = 0.17
    least_fill: float = 0.6
    spread: float = 0.27
    least_margin: float = 0.2
    sure_margin: float = 0.5
    least_contrast: float = 18.0
    lean_slack: float = 0.3
    most_stretch: float = 0.05
    most_dice: int = 12
    edge_blur_mm: float = 1.5
    edge_share: float = 0.5
    most_across: float = 1.5
    side_slack: float = 0.25
    even_pips: float = 0.7
    uneven_confidence: float = 0.45
    most_outside: float = 0.03
    pixels_per_mm: float = 4.0
    segment_pixels_per_mm: float = 2.0
    pip_blur: float = 0.03
    face_inset: float = 0.8
    pip_apart: float = 0.8
    off_centre: float = 0.11
    fit_turned_least_share: float = 0.7
    snap: float = 0.35
    spacing_range: tuple[float, float] = (0.18, 0.36)
    widest_pip: float = 0.26
    empty_share: float = 0.9
    focal_px: float | None = None
    edge_agreement: float = 0.05
    fit_gap: float = 0.35
    fit_sure_gap: float = 0.7
    fit_most_offset: float = 0.1
    fit_least_share: float = 0.5
    confirmed_values: tuple[int, ...] = (2, 3)
    pip_hole_mm: float = 2.7
    grow_mm: float = 4.0
    grow_share: float = 0.6
    grow_chroma: float = 0.5
    fill_solidity: float = 0.9
    one_die_share: float = 1.5
    defect_depth: float = 0.08
    hidden_gap_mm: float = 2.0
    hidden_size_tolerance: float = 0.12
    own_least_shift: float = 0.02
    own_chroma: float = 0.5
    own_least_value: int = 4
    recentre_most: float = 0.2
    recentre_least_value: int = 4
    recentre_side: float = 0.2
    shadow_least_hue: float = 1.0
    shadow_most_share: float = 0.2
    most_side_shift: float = 0.3
    side_clear_mm: float = 4.0


def read_tray(config: DiceConfig, view: TopView, box: tuple[int, int, int, int],
              camera: CameraOverMat) -> tuple[DieReading, ...]:
    """The dice in the window ``box`` (pixels x0, y0, x1, y1) of a top view seen by ``camera``."""
    return tuple(die for die, _ in explain_tray(config, view, box, camera))


def explain_tray(config: DiceConfig, view: TopView, box: tuple[int, int, int, int],
                 camera: CameraOverMat) -> tuple[tuple[DieReading, str], ...]:
    """:func:`read_tray`, each die with why it was read as None ("" when read)."""
    x0, y0, x1, y1 = box
    scale = view.pixels_per_mm
    middle = view.to_mm((x0 + x1) / 2, (y0 + y1) / 2)
    direction, size = camera.lean(np.array([middle]))
    lean = (float(direction[0, 0] * size[0]), float(direction[0, 1] * size[0]))
    origin = (view.origin_mm[0] + x0 / scale, view.origin_mm[1] + y0 / scale)
    return explain_dice(config, view.image[y0:y1, x0:x1], scale, lean, origin, camera)


def read_tray_in_frame(config: DiceConfig, image: Image, location: BoardLocation,
                       bounds_mm: tuple[float, float, float, float],
                       camera: CameraOverMat) -> tuple[DieReading, ...]:
    """The dice in the tray ``bounds_mm`` (mat mm: left, top, right, bottom) of a camera
    frame, warped from the frame itself at ``config.pixels_per_mm`` (the mat's top view is
    too coarse for pips, and resampling it again would blur them twice). Given
    ``config.focal_px``, the camera is found again from ``location`` with it."""
    return tuple(die for die, _ in explain_tray_in_frame(config, image, location, bounds_mm,
                                                         camera))


def explain_tray_in_frame(config: DiceConfig, image: Image, location: BoardLocation,
                          bounds_mm: tuple[float, float, float, float],
                          camera: CameraOverMat) -> tuple[tuple[DieReading, str], ...]:
    """:func:`read_tray_in_frame`, each die with why it was read as None ("" when read).
    Where a die near a side the camera's lean points out of is not read and a body reaches
    that side of the crop, the tray is read again over the felt widened there by the
    farthest a die's top can be seen past it (:mod:`vision.dice_beyond`); a die read only
    there keeps a value of ``own_least_value`` or more, whose pips' grid shows it flat, and
    a die the felt's read read keeps that reading."""
    if config.focal_px is not None:
        camera = camera_pose(location.homography, location.image_size, config.focal_px)
    explained, sides = _explain_window(config, image, location, bounds_mm, bounds_mm, camera)
    factor = max(1, round(config.pixels_per_mm / config.segment_pixels_per_mm))
    beyond = beyond_felt(camera, bounds_mm, config.edge_mm[1], factor / config.pixels_per_mm)
    reach = (beyond[0] if sides[0] else 0.0, beyond[1] if sides[1] else 0.0,
             beyond[2] if sides[2] else 0.0, beyond[3] if sides[3] else 0.0)
    left, top, right, bottom = bounds_mm
    if not any(die.value is None and _near_side(die.centre_mm, bounds_mm, reach,
                                                config.edge_mm[1])
               for die, _ in explained):
        return explained
    wider = (left - reach[0], top - reach[1], right + reach[2], bottom + reach[3])
    widened = _explain_window(config, image, location, wider, bounds_mm, camera)[0]
    return only_flat_new(explained, widened, config.own_least_value, config.edge_mm[0] / 2)


def _near_side(centre_mm: tuple[float, float], bounds_mm: tuple[float, float, float, float],
               reach: tuple[float, float, float, float], within_mm: float) -> bool:
    """Whether ``centre_mm`` lies within ``within_mm`` of a side of ``bounds_mm`` that a die's
    top may be seen past (``reach`` over 0 there)."""
    left, top, right, bottom = bounds_mm
    gaps = (centre_mm[0] - left, centre_mm[1] - top, right - centre_mm[0], bottom - centre_mm[1])
    return any(side > 0.0 and gap < within_mm for side, gap in zip(reach, gaps, strict=True))


def _explain_window(config: DiceConfig, image: Image, location: BoardLocation,
                    window_mm: tuple[float, float, float, float],
                    felt_mm: tuple[float, float, float, float],
                    camera: CameraOverMat
                    ) -> tuple[tuple[tuple[DieReading, str], ...], tuple[bool, bool, bool, bool]]:
    """The dice of the felt ``felt_mm`` read in the part ``window_mm`` of the mat (the felt,
    or the felt and some mat past it), and which sides of that part a body reaches."""
    left, top, right, bottom = window_mm
    scale = config.pixels_per_mm
    factor = max(1, round(scale / config.segment_pixels_per_mm))
    # The whole tray at the outlines' detail; only the dice's windows at the pips'.
    warp = window_warper(image, location, window_mm, scale)
    size = (max(1, round((right - left) * scale)), max(1, round((bottom - top) * scale)))
    coarse = warp((0, 0, size[0], size[1]), factor)

    def window(box: tuple[int, int, int, int]) -> Image:
        return warp(box, 1)

    felt_box = None
    if window_mm != felt_mm:
        coarse_scale = scale / factor
        felt_box = (round((felt_mm[0] - left) * coarse_scale),
                    round((felt_mm[1] - top) * coarse_scale),
                    round((felt_mm[2] - left) * coarse_scale),
                    round((felt_mm[3] - top) * coarse_scale))
    middle = ((felt_mm[0] + felt_mm[2]) / 2, (felt_mm[1] + felt_mm[3]) / 2)
    direction, length = camera.lean(np.array([middle]))
    lean = (float(direction[0, 0] * length[0]), float(direction[0, 1] * length[0]))
    return _explain_with_sides(config, coarse, scale / factor, lean, (left, top), camera,
                               FineSource(window, scale, size), felt_box)


def read_dice(
    config: DiceConfig, tray_image: Image, pixels_per_mm: float,
    lean: tuple[float, float] = (0.0, 0.0), origin_mm: tuple[float, float] = (0.0, 0.0),
    camera: CameraOverMat | None = None,
) -> tuple[DieReading, ...]:
    """The dice in ``tray_image`` (BGR uint8, a top view's crop of a tray at ``pixels_per_mm``),
    ordered top to bottom. ``lean`` is how raised things lean in the view (mm per mm of height,
    away from the camera's foot: :meth:`vision.parallax.CameraOverMat.lean`); ``origin_mm``
    is the mat point of the crop's top-left pixel corner, for the dice's centres. Given the
    ``camera``, the lean is taken at each die instead (it changes across a tray)."""
    return tuple(die for die, _ in explain_dice(config, tray_image, pixels_per_mm, lean,
                                                origin_mm, camera))


@dataclass(frozen=True)
class FineSource:
    """Where pips are read: the tray at ``pixels_per_mm`` (``size`` pixels wide and high),
    of which ``window`` gives the part (x0, y0, x1, y1) asked for. Warping only the dice's
    windows from the frame at the pips' detail, not the whole tray, spares most of the
    warp."""

    window: Callable[[tuple[int, int, int, int]], Image]
    pixels_per_mm: float
    size: tuple[int, int]


def _crop_source(image: Image, pixels_per_mm: float) -> FineSource:
    """A :class:`FineSource` that crops ``image`` itself."""
    def window(box: tuple[int, int, int, int]) -> Image:
        return image[box[1]:box[3], box[0]:box[2]]
    return FineSource(window, pixels_per_mm, (image.shape[1], image.shape[0]))


def explain_dice(
    config: DiceConfig, tray_image: Image, pixels_per_mm: float,
    lean: tuple[float, float] = (0.0, 0.0), origin_mm: tuple[float, float] = (0.0, 0.0),
    camera: CameraOverMat | None = None, fine: FineSource | None = None,
    felt_box: tuple[int, int, int, int] | None = None,
) -> tuple[tuple[DieReading, str], ...]:
    """:func:`read_dice`, each die with why it was read as None ("" when read): the test that
    refused it (no top face, leaning, top no square, pips faint, fitting no layout, ...).
    Given ``fine``, the pips are read there and ``tray_image`` serves for bodies and top
    faces only. Given ``felt_box`` (x0, y0, x1, y1 of ``tray_image``), the felt lies there
    and the crop reaches past it onto the mat."""
    return _explain_with_sides(config, tray_image, pixels_per_mm, lean, origin_mm, camera,
                               fine, felt_box)[0]


def _explain_with_sides(
    config: DiceConfig, tray_image: Image, pixels_per_mm: float,
    lean: tuple[float, float], origin_mm: tuple[float, float], camera: CameraOverMat | None,
    fine: FineSource | None, felt_box: tuple[int, int, int, int] | None,
) -> tuple[tuple[tuple[DieReading, str], ...], tuple[bool, bool, bool, bool]]:
    """:func:`explain_dice`, with which sides of the crop (left, top, right, bottom) a body
    reaches, where a die's top may have been cut off."""
    if tray_image.ndim != 3 or tray_image.shape[2] != 3 or tray_image.size == 0:
        return (), (False, False, False, False)
    # Bodies and top faces are found at about ``segment_pixels_per_mm`` (enough for a die's
    # outline, and cheap), pips at the fine source's scale.
    if fine is None:
        fine = _crop_source(tray_image, pixels_per_mm)
    height, width = tray_image.shape[:2]
    factor = max(1, round(pixels_per_mm / config.segment_pixels_per_mm))
    coarse = tray_image
    if factor > 1:
        coarse = cv2.resize(tray_image, (max(1, width // factor), max(1, height // factor)),
                            interpolation=cv2.INTER_AREA)
    scale_x = coarse.shape[1] / fine.size[0]
    scale_y = coarse.shape[0] / fine.size[1]
    ppm = fine.pixels_per_mm * math.sqrt(scale_x * scale_y)
    smooth = cv2.GaussianBlur(coarse, (0, 0), 0.7)
    felt, beyond = background(smooth, felt_box)
    search = find_bodies(config, smooth, felt, ppm, beyond, felt_box)
    bodies = search.bodies(config)
    if camera is None:
        def lean_at(point: FloatArray) -> FloatArray:
            return np.asarray(lean, np.float64)
    else:
        def lean_at(point: FloatArray) -> FloatArray:
            where = np.array([[origin_mm[0] + (point[0] + 0.5) / ppm,
                               origin_mm[1] + (point[1] + 0.5) / ppm]])
            direction, size = camera.lean(where)
            return np.asarray(direction[0] * size[0], np.float64)

    def read(found: list[tuple[Image, tuple[int, int]]],
             near: list[tuple[float, float]] | None = None
             ) -> tuple[tuple[DieReading, str], ...]:
        return _read_bodies(config, found, smooth, fine, felt, ppm, lean_at, origin_mm,
                            (scale_x, scale_y), felt_box, near)

    readings = read(bodies)
    unread = [die.centre_mm for die, _ in readings if die.value is None]
    if unread and any(die.colour == "black" for die, _ in readings):
        # A black die left unread may have had its body found in part: read again with
        # black bodies found from darkness and hue together (:mod:`vision.dice_dark`), only
        # the faces that may take an unread die's place; and a black die's seam with a die
        # of another colour, left unread either, placed where the picture is halfway
        # between their colours (:mod:`vision.dice_black_seam`).
        black = (black_bodies(config, search, smooth, felt, ppm, felt_box)
                 if any(die.value is None and die.colour == "black" for die, _ in readings)
                 else None)
        seamed = black_seams(bodies if black is None else black, smooth, felt,
                             2 * config.edge_blur_mm * ppm)
        black = black if seamed is None else seamed
        # Where no black body is found the bodies are the first read's, and so are their
        # readings: only those near an unread die are taken.
        again = (read(black, unread) if black is not None
                 else tuple(item for item in readings
                            if _near_any(item[0].centre_mm, unread, config.edge_mm[0] / 2)))
        readings = unread_taken_from(readings, again, config.edge_mm[0] / 2)
    unread = uncut_unread(readings)
    if unread:
        # Two touching dice of unlike hue found as one body, cut where their colours meet
        # (:mod:`vision.dice_colour_cut`), the parts read alone; a cut is kept only where
        # both its dice show flat tops and are read, and a die read before keeps its reading.
        places = [((x - origin_mm[0]) * ppm - 0.5, (y - origin_mm[1]) * ppm - 0.5)
                  for x, y in unread]
        cut = colour_cuts(bodies, smooth, felt, (config.edge_mm[0] * ppm) ** 2, places)
        if cut is not None:
            middles = cut.pairs_mm(origin_mm, ppm)
            again = read(cut.parts)
            again = whole_cuts(again, readings, middles, config.edge_mm[0] * 0.75)
            readings = with_cuts(readings, again, middles, config.edge_mm[0] * 0.75)
    # A body's outline stops where half its contrast does, up to the blur's reach short of the
    # border left out.
    sides = sides_reached(bodies, smooth.shape[:2], max(2, round(config.border_mm * ppm))
                          + round(config.edge_blur_mm * ppm))
    return readings, sides


def _read_bodies(config: DiceConfig, bodies: list[tuple[Image, tuple[int, int]]],
                 smooth: Image, fine: FineSource, felt: FloatArray, ppm: float,
                 lean_at: Callable[[FloatArray], FloatArray], origin_mm: tuple[float, float],
                 scales: tuple[float, float], felt_box: tuple[int, int, int, int] | None,
                 near: list[tuple[float, float]] | None = None
                 ) -> tuple[tuple[DieReading, str], ...]:
    """Every die of ``bodies`` (found in ``smooth`` at ``ppm``, ``scales`` of ``fine``'s
    pixels a pixel each way) read, with why it was read as None, ordered top to bottom; given
    ``near`` (mat mm), only the dice within half the least die's edge of one of them."""
    def unshadowed(patch: Image, offset: tuple[int, int], parts: list[Image] | None
                   ) -> Image | None:
        return without_shadow(config, smooth, felt, patch, offset, parts)

    faces = refuse_cut_past_felt(top_faces(config, bodies, ppm, lean_at, unshadowed),
                                 felt_box)
    readings = []
    for face in faces:
        (x, y), (w, h), angle = face.rect
        rect = (((x + 0.5) / scales[0] - 0.5, (y + 0.5) / scales[1] - 0.5),
                (w / scales[0], h / scales[1]), angle)
        centre = (origin_mm[0] + (rect[0][0] + 0.5) / fine.pixels_per_mm,
                  origin_mm[1] + (rect[0][1] + 0.5) / fine.pixels_per_mm)
        if near is not None and not _near_any(centre, near, config.edge_mm[0] / 2):
            continue
        def may_move(colour: str, face: TopFace = face) -> bool:
            return telling_body(config, face, colour, bodies, ppm, smooth.shape[:2]) is not None

        value, confidence, colour, why, middle, unmoved_why = _read_face(
            config, smooth, fine, felt, face, rect, may_move, nearest_beside(faces, face))
        # The pips' middle back in the crop's pixels, where the bodies are.
        placed = None if middle is None else np.array([(middle[0] + 0.5) * scales[0] - 0.5,
                                                       (middle[1] + 0.5) * scales[1] - 0.5])
        if value is not None and placed is not None and cocked_by_side(
                config, face, colour, placed, bodies, lean_at, ppm, smooth.shape[:2]):
            value, confidence, why = None, 0.9, SIDE_WHY
        if value is not None and unmoved_why and not flat_about_pips(
                config, face, colour, placed, bodies, lean_at, ppm, smooth.shape[:2]):
            value, confidence, why = None, 0.0, unmoved_why
        readings.append((DieReading(value, confidence, colour, centre), why))
    return tuple(sorted(readings, key=lambda item: (item[0].centre_mm[1],
                                                    item[0].centre_mm[0])))


def _near_any(centre: tuple[float, float], points: list[tuple[float, float]],
              within_mm: float) -> bool:
    """Whether ``centre`` lies within ``within_mm`` of one of ``points`` (mat mm)."""
    return any(math.dist(centre, point) <= within_mm for point in points)


# -- pips and colour -----------------------------------------------------------------------------


def _read_face(config: DiceConfig, image: Image, fine: FineSource, felt: FloatArray,
               face: TopFace, rect: tuple[tuple[float, float], tuple[float, float], float],
               may_move: Callable[[str], bool], beside: TopFace | None = None
               ) -> tuple[int | None, float, str, str, tuple[float, float] | None, str]:
    """(value or None, confidence, colour name, why None, the read pips' middle in ``fine``'s
    pixels where they were found spot by spot, and why the face was not read about its
    outline's middle where it was read about its pips' own: "" otherwise) of one face, found
    in ``image``; its pips are read in a window of ``fine``, where the face's rectangle is
    ``rect``. Only a die whose body can show it flat (``may_move(colour)``) is read about
    its pips' own middle; one ``beside`` another top is read again placed at their seam."""
    height, width = face.mask.shape
    crop = image[face.offset[1]:face.offset[1] + height, face.offset[0]:face.offset[0] + width]
    inner = cv2.erode(face.mask, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    inner = inner if inner.any() else face.mask
    if not inner.any():
        return None, 0.0, "unknown", "no top face", None, ""
    body = masked_median(crop, inner)
    colour = colour_name(body, felt)
    if not face.flat:
        return None, 0.9, colour, face.why or "not flat", None, ""
    (cx, cy), (w, h), angle = rect
    reach = int(0.75 * (w + h) / 2) + 2
    x0, y0 = max(0, int(cx) - reach), max(0, int(cy) - reach)
    x1, y1 = min(fine.size[0], int(cx) + reach + 1), min(fine.size[1], int(cy) + reach + 1)
    if x0 >= x1 or y0 >= y1:
        return None, 0.0, colour, "face outside the tray", None, ""
    window = fine.window((x0, y0, x1, y1))
    local = ((cx - x0, cy - y0), (w, h), angle)
    value, confidence, why, middle = read_face_pips_placed(config, window, body, local)
    unmoved_why = ""
    if value is None and why.startswith("pips:"):
        again = read_own_part(config, window, body, local)
        if again is None and may_move(colour):
            again = read_moved(config, window, body, local)
            unmoved_why = "" if again is None else why
        if again is not None:
            value, confidence, why, middle = again
    if value is None and why.startswith("pips:") and beside is not None:
        # Beside another die, the top placed again where its own colour meets the other's
        # (:mod:`vision.dice_beside`).
        other, towards = other_die(image, face, beside)
        again = read_beside(config, window, local, (body, other), felt, towards,
                            2 * config.edge_blur_mm * fine.pixels_per_mm)
        if again is not None:
            value, confidence, why, middle = again
    placed = None if middle is None else (middle[0] + x0, middle[1] + y0)
    return value, confidence, colour, why, placed, unmoved_why

