"""The synthetic table: photographic-looking camera frames of a mat with coins, pawns and hands.

A :class:`SynthScene` says what lies on which region of a mat (coins, pawns), how the camera and
light are set up (:class:`Variation`) and which hands reach over the table. :func:`render` turns
it into a :class:`SynthFrame`: the BGR image plus its ground truth (the homography from mat
millimetres to pixels, the lens, what each region holds, which markers a hand covers).
:func:`render_frame` returns just the image. :class:`vision.synth.feed.SynthCamera` serves
successive frames of a changing scene, for ``sim://``.

How a frame is made: the mat is drawn at a moderate scale in mat space (cached), coins and pawns
are drawn onto it (cached per board), one ``cv2.remap`` takes it through the camera's homography
and lens onto the table top, hands are painted in image space, then light, glare, noise, blur
and JPEG. The scene decides everything that stays still between frames (coin placement comes
from ``layout_seed``, light and table from the variation); the render seed only changes the
sensor noise, as successive frames of a real camera do.

Example::

    scene = SynthScene.build({"a1": "P", "b2": "NQ"}, {"b2": "red"}, variation=random_variation(4))
    frame = render(scene, seed=0)          # frame.image: 1920x1080 BGR
    frame.truth["b2"].top                  # "Q" (the coin a camera sees), .pawn == "red"
    frame.project([(85.0, 435.0)])         # a1's centre (mat mm) in frame pixels, lens included

``python -m vision.synth.tool --out frame.png --time 20`` writes a frame and times rendering.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

import cv2
import numpy as np
import numpy.typing as npt

from calibration.geometry import MatGeometry, coin_isolation_mat
from calibration.mats import render_mat
from contract.observation import (
    COIN_KINDS,
    CardReading,
    DieReading,
    Observation,
    RegionReading,
)
from contract.table_state import TableState
from vision.errors import VisionError
from vision.synth.camera import (
    CameraPose,
    apply_homography,
    camera_centre,
    distort_points,
    pixels_per_mm_at,
    pose_homography,
    pose_intrinsics,
    remap_tables,
)
from vision.synth.cards import PlayedCard, draw_card
from vision.synth.dice import Die, draw_dice, top_centre_mm
from vision.synth.effects import Hand, Light, draw_hands, lit, sensor, table_top
from vision.synth.layout import placed_tokens, placements
from vision.synth.objects import (
    PAWN_COLOURS,
    Lighting,
    PlacedCoin,
    PlacedPawn,
    PlacedToken,
    draw_coin,
    draw_pawn,
    draw_token,
)

__all__ = [
    "PAWN_COLOURS",
    "PLAYER_COLOURS",
    "CameraPose",
    "Die",
    "Hand",
    "Light",
    "PlacedCoin",
    "PlacedPawn",
    "PlayedCard",
    "RegionTruth",
    "SynthError",
    "SynthFrame",
    "SynthScene",
    "Variation",
    "random_hand",
    "random_scene",
    "random_variation",
    "render",
    "render_frame",
    "with_hands",
]

Image = npt.NDArray[np.uint8]
#: Default pawn colour of players 1..4.
PLAYER_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow")


class SynthError(VisionError):
    """A synthetic scene that names an unknown region, coin letter or pawn colour."""


@dataclass(frozen=True)
class Variation:
    """Everything about a frame that is not the board: camera, lens, light, coins' look, table.

    ``lens_k1`` is radial distortion (-0.05..0.05; positive is barrel, negative pincushion, see
    :func:`vision.synth.camera.undistort_points`); ``light`` the light;
    ``noise`` sensor noise in 8-bit levels (sigma); ``blur`` a Gaussian blur sigma in pixels;
    ``jpeg_quality`` 1..99, or 0 for no compression; ``tarnish`` 0 (shiny) .. 1 (dull, dark)
    on average over the coins; ``placement`` how far off-centre coins lie, as a share of the
    room their square leaves (0..1); ``table`` picks the table top behind the mat.
    ``loose_overlap`` is how loose coins lie where a mat's regions hold piles (Shakala's pits
    and cups, :attr:`calibration.geometry.Region.piled`): as a hand drops them, touching and
    overlapping by up to that share of a coin's width (a third by default; see
    :func:`vision.synth.layout.scattered_coins`), or apart at 0. Elsewhere they lie apart.
    """

    pose: CameraPose = field(default_factory=CameraPose)
    lens_k1: float = 0.0
    light: Light = field(default_factory=Light)
    noise: float = 2.0
    blur: float = 0.0
    jpeg_quality: int = 90
    tarnish: float = 0.2
    placement: float = 0.5
    table: int = 0
    loose_overlap: float = 1 / 3

    def __post_init__(self) -> None:
        limits = {
            "pose.tilt_deg": (self.pose.tilt_deg, 0.0, 60.0),
            "pose.fill": (self.pose.fill, 0.2, 1.0),
            "lens_k1": (self.lens_k1, -0.1, 0.1),
            "noise": (self.noise, 0.0, 30.0),
            "blur": (self.blur, 0.0, 10.0),
            "jpeg_quality": (self.jpeg_quality, 0, 100),
            "tarnish": (self.tarnish, 0.0, 1.0),
            "placement": (self.placement, 0.0, 1.0),
            "loose_overlap": (self.loose_overlap, 0.0, 0.5),
        }
        for name, (value, low, high) in limits.items():
            if not low <= value <= high:
                raise SynthError(f"variation {name} = {value!r} is out of range {low}..{high}")


@dataclass(frozen=True)
class RegionTruth:
    """What a region really holds: its coins (stack bottom to top, or loose), a pawn colour, and
    the dice lying in it (a cocked die's value is None, as a reader should report it) and the
    card face up on top of it (a discard spot)."""

    coins: str = ""
    pawn: str | None = None
    loose: bool = False
    dice: tuple[DieReading, ...] = ()
    card: CardReading | None = None

    @property
    def top(self) -> str | None:
        """The coin a camera sees on top of a stack (None when empty or for loose coins)."""
        return None if self.loose or not self.coins else self.coins[-1]

    def reading(self) -> RegionReading:
        """The perfect :class:`RegionReading` of this region."""
        if self.card is not None:
            return RegionReading(coin=None, pawn=self.pawn, card=self.card)
        if self.dice:
            return RegionReading(coin=None, pawn=self.pawn, dice=self.dice)
        if self.loose:
            kinds = tuple(sorted(self.coins))
            return RegionReading(coin=None, pawn=self.pawn, count=len(self.coins), kinds=kinds)
        return RegionReading(coin=self.top, pawn=self.pawn)


@dataclass(frozen=True)
class SynthScene:
    """A mat with coins and pawns, seen by a camera under some light, maybe with hands over it.

    ``coins`` maps region names to coin letters (P N D Q S): a stack from bottom to top on a
    square or track space, loose coins side by side in a pit or cup. ``pawns`` maps region names
    to pawn colours (keys of :data:`PAWN_COLOURS`). Both are stored as sorted tuples of pairs so
    the scene is hashable; build scenes with :meth:`build` or :meth:`from_table`.
    ``layout_seed`` fixes where each coin lies in its region and how it looks. ``variants``
    names the game variants the board was played under (``mixed-change`` for mixed stacks);
    drawing ignores it, benchmarks sort frames by it. ``tokens`` maps region names to the
    colours of flat quarter-sized tokens lying there (a seat's pieces where coins run out); a
    reader reports a token as a pawn of its colour. ``dice`` are dice lying on the mat
    (usually in a ``tray`` region), drawn in 3D as the camera sees them
    (:mod:`vision.synth.dice`); set them with ``dataclasses.replace(scene, dice=...)``.
    ``cards`` are playing cards lying face up (:mod:`vision.synth.cards`), drawn in order: the
    last card of a discard pile lies on top.
    """

    geometry: MatGeometry
    coins: tuple[tuple[str, str], ...] = ()
    pawns: tuple[tuple[str, str], ...] = ()
    variation: Variation = field(default_factory=Variation)
    hands: tuple[Hand, ...] = ()
    layout_seed: int = 0
    image_size: tuple[int, int] = (1920, 1080)
    variants: tuple[str, ...] = ()
    dice: tuple[Die, ...] = ()
    cards: tuple[PlayedCard, ...] = ()
    tokens: tuple[tuple[str, str], ...] = ()

    def __post_init__(self) -> None:
        names = set(self.geometry.region_names())
        for region, letters in self.coins:
            if region not in names:
                raise SynthError(f"mat {self.geometry.name!r} has no region {region!r}")
            bad = [letter for letter in letters if letter not in COIN_KINDS]
            if bad:
                raise SynthError(f"unknown coin letter {bad[0]!r} on {region!r}; use P N D Q S")
        for region, colour in self.pawns + self.tokens:
            if region not in names:
                raise SynthError(f"mat {self.geometry.name!r} has no region {region!r}")
            if colour not in PAWN_COLOURS:
                known = ", ".join(PAWN_COLOURS)
                raise SynthError(f"unknown pawn colour {colour!r} on {region!r}; use {known}")

    @classmethod
    def build(
        cls,
        coins: Mapping[str, str],
        pawns: Mapping[str, str] | None = None,
        geometry: MatGeometry | None = None,
        variation: Variation | None = None,
        hands: tuple[Hand, ...] = (),
        layout_seed: int = 0,
        image_size: tuple[int, int] = (1920, 1080),
        variants: tuple[str, ...] = (),
        tokens: Mapping[str, str] | None = None,
    ) -> SynthScene:
        """A scene from region -> coins, region -> pawn colour and region -> flat token colour
        (Coin Isolation mat by default)."""
        return cls(
            geometry=geometry or coin_isolation_mat(),
            coins=tuple(sorted((name, letters) for name, letters in coins.items() if letters)),
            pawns=tuple(sorted((pawns or {}).items())),
            variation=variation or Variation(),
            hands=hands,
            layout_seed=layout_seed,
            image_size=image_size,
            variants=variants,
            tokens=tuple(sorted((tokens or {}).items())),
        )

    @classmethod
    def from_table(cls, table: TableState, colours: Mapping[str, str] | None = None,
                   flat_tokens: bool = False, **options: Any) -> SynthScene:
        """A scene of what lies on the table (a game's ``layout(position)``): its coins, and
        its tokens as pawns coloured by ``colours`` (token label -> colour; by default players
        "1".."4" get :data:`PLAYER_COLOURS` in order), or as flat tokens lying on their
        regions with ``flat_tokens``; ``options`` go to :meth:`build`."""
        colour_of = dict(colours or {str(index + 1): c for index, c in enumerate(PLAYER_COLOURS)})
        on_board = {}
        for region, contents in table.items():  # every token, several of one label too
            label = contents.token
            if label is None:
                continue
            if label not in colour_of:
                raise SynthError(f"no pawn colour for token {label!r}")
            on_board[region] = colour_of[label]
        if flat_tokens:
            return cls.build(table.stacks(), {}, tokens=on_board, **options)
        return cls.build(table.stacks(), on_board, **options)

    def coins_by_region(self) -> dict[str, str]:
        return dict(self.coins)

    def pawns_by_region(self) -> dict[str, str]:
        """Every pawn's and flat token's colour by region (a reader reports both as pawns)."""
        return {**dict(self.pawns), **dict(self.tokens)}

    def placed_tokens(self) -> tuple[PlacedToken, ...]:
        """Every flat token with its centre in mm, exactly as :func:`render` draws it."""
        return placed_tokens(self.geometry, dict(self.tokens), self.layout_seed,
                             self.variation.placement)

    def truth(self) -> dict[str, RegionTruth]:
        """Every region of the mat with what it really holds."""
        coins, pawns = self.coins_by_region(), self.pawns_by_region()
        dice: dict[str, list[DieReading]] = {}
        camera = self.camera_centre() if self.dice else (0.0, 0.0, 1.0)
        for die in self.dice:
            region = self.geometry.region_at(die.centre_mm)
            if region is not None:
                dice.setdefault(region.name, []).append(DieReading(
                    None if die.cocked else die.value, 1.0, die.reported_colour,
                    top_centre_mm(die, camera)))
        cards = {}
        for card in self.cards:
            region = self.geometry.region_at(card.centre_mm)
            if region is not None:
                cards[region.name] = CardReading(card.rank, 1.0, card.centre_mm)
        return {
            region.name: RegionTruth(
                coins=coins.get(region.name, ""),
                pawn=pawns.get(region.name),
                loose=region.kind in ("pit", "cup"),
                dice=tuple(dice.get(region.name, ())),
                card=cards.get(region.name),
            )
            for region in self.geometry.regions
        }

    def observation(self) -> Observation:
        """The perfect observation of this scene (every region, markers 0-3 all seen)."""
        regions = {name: truth.reading() for name, truth in self.truth().items()}
        return Observation(regions=regions, markers_found=self.geometry.marker_ids())

    def placements(self) -> tuple[tuple[PlacedCoin, ...], tuple[PlacedPawn, ...]]:
        """Every coin (with its centre in mm, region and height in its stack) and every pawn
        (with where its foot stands), exactly as :func:`render` draws them."""
        return _placements(self)

    def camera_centre(self) -> tuple[float, float, float]:
        """Where the camera stands: (x mm, y mm) over the mat and its height (mm)."""
        size = (self.geometry.width_mm, self.geometry.height_mm)
        return camera_centre(self.variation.pose, size, self.image_size)

    def intrinsics(self) -> tuple[float, tuple[float, float]]:
        """The camera's focal length and principal point (px), as a calibration would find."""
        size = (self.geometry.width_mm, self.geometry.height_mm)
        return pose_intrinsics(self.variation.pose, size, self.image_size)

    def homography(self) -> npt.NDArray[np.float64]:
        """The ideal 3x3 homography from mat millimetres to frame pixels (before lens bending)."""
        size = (self.geometry.width_mm, self.geometry.height_mm)
        return pose_homography(self.variation.pose, size, self.image_size)

    def project(self, points_mm: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Mat points (N x 2, mm) -> frame pixels, through the homography and the lens."""
        ideal = apply_homography(self.homography(), np.asarray(points_mm, np.float64))
        return distort_points(ideal, self.variation.lens_k1, self.image_size)


@dataclass(frozen=True, eq=False)
class SynthFrame:
    """A rendered frame with its ground truth."""

    image: Image
    scene: SynthScene
    homography: npt.NDArray[np.float64]
    lens_k1: float
    truth: Mapping[str, RegionTruth]
    markers_covered: tuple[int, ...]
    hand_over_play_area: bool

    @property
    def markers_visible(self) -> tuple[int, ...]:
        """Marker ids no hand covers (every marker is inside the frame by construction)."""
        return tuple(m for m in self.scene.geometry.marker_ids() if m not in self.markers_covered)

    def project(self, points_mm: npt.ArrayLike) -> npt.NDArray[np.float64]:
        """Mat points (N x 2, mm) -> pixels of this frame, lens included."""
        return self.scene.project(points_mm)


def _canvas_scale(scene: SynthScene) -> float:
    """Mat-canvas pixels per mm: a little above the finest the camera sees, in half steps."""
    homography = scene.homography()
    geometry = scene.geometry
    corners = [(0.0, 0.0), (geometry.width_mm, 0.0), (geometry.width_mm, geometry.height_mm),
               (0.0, geometry.height_mm)]
    finest = max(pixels_per_mm_at(homography, corner) for corner in corners)
    return min(5.0, max(1.5, math.ceil(finest * 1.15 * 2) / 2))


@lru_cache(maxsize=8)
def _mat_canvas(geometry: MatGeometry, pixels_per_mm: float) -> Image:
    return render_mat(geometry, pixels_per_mm)


def _lighting(variation: Variation) -> Lighting:
    """Light direction and parallax in mat terms, from the light and the camera's tilt."""
    pose = variation.pose
    angle = math.radians(variation.light.direction_deg)
    # Parallax: raised things shift away from the camera, which stands on the azimuth side.
    away = math.radians(pose.tilt_azimuth_deg)
    lean = math.tan(math.radians(pose.tilt_deg))
    parallax = (math.sin(away) * -lean, math.cos(away) * -lean)
    return Lighting(direction=(math.cos(angle), math.sin(angle)), parallax=parallax)


def _placements(scene: SynthScene) -> tuple[tuple[PlacedCoin, ...], tuple[PlacedPawn, ...]]:
    """Where every coin and pawn of ``scene`` lies (see :func:`vision.synth.layout.placements`)."""
    return placements(scene.geometry, scene.coins_by_region(), dict(scene.pawns),
                      scene.layout_seed, scene.variation.placement, scene.variation.tarnish,
                      scene.variation.loose_overlap)


@lru_cache(maxsize=4)
def _board_canvas(scene: SynthScene, pixels_per_mm: float) -> Image:
    """The mat with every coin and pawn drawn on it, in mat space (cached per board)."""
    canvas = _mat_canvas(scene.geometry, pixels_per_mm).copy()
    lighting = _lighting(scene.variation)
    coins, pawns = _placements(scene)
    pawn_of = {pawn.region: pawn for pawn in pawns}
    for token in scene.placed_tokens():
        draw_token(canvas, token, pixels_per_mm, lighting)
    for region in scene.geometry.regions:
        for coin in coins:
            if coin.region == region.name:
                draw_coin(canvas, coin, pixels_per_mm, lighting)
        pawn = pawn_of.get(region.name)
        if pawn is not None:
            draw_pawn(canvas, pawn.colour, pawn.foot_mm, pawn.level, pixels_per_mm, lighting)
    camera = scene.camera_centre()
    draw_dice(canvas, scene.dice, pixels_per_mm, camera, lighting.direction)
    for card in scene.cards:
        draw_card(canvas, card, pixels_per_mm, lighting.direction)
    return canvas


@lru_cache(maxsize=4)
def _tables(scene_key: tuple[Any, ...], homography_bytes: bytes, pixels_per_mm: float
            ) -> tuple[npt.NDArray[Any], npt.NDArray[Any]]:
    _pose, k1, image_size = scene_key
    homography = np.frombuffer(homography_bytes, np.float64).reshape(3, 3)
    return remap_tables(homography, k1, image_size, pixels_per_mm)


def _hand_placements(scene: SynthScene) -> list[tuple[Hand, tuple[float, float], float]]:
    homography = scene.homography()
    placements = []
    for hand in scene.hands:
        tip = scene.project([hand.target_mm])[0]
        placements.append((hand, (float(tip[0]), float(tip[1])),
                           pixels_per_mm_at(homography, hand.target_mm)))
    return placements


def _covered(scene: SynthScene, cover: Image) -> tuple[tuple[int, ...], bool]:
    """Markers a hand touches anywhere (the marker or a third of its quiet zone), and whether a
    hand lies over the play area."""
    if not cover.any():
        return (), False
    height, width = cover.shape
    covered = []
    steps = np.linspace(-0.5, 0.5, 9)
    for marker in scene.geometry.markers:
        reach = marker.side_mm + 2 * scene.geometry.quiet_zone_mm / 3
        x, y = marker.centre
        grid = [(x + dx * reach, y + dy * reach) for dx in steps for dy in steps]
        pixels = np.round(scene.project(grid)).astype(int)
        columns = np.clip(pixels[:, 0], 0, width - 1)
        rows = np.clip(pixels[:, 1], 0, height - 1)
        if (cover[rows, columns] > 100).any():
            covered.append(marker.id)
    play = np.zeros_like(cover)
    left, top, right, bottom = scene.geometry.play_area.bounds()
    outline = scene.project([(left, top), (right, top), (right, bottom), (left, bottom)])
    cv2.fillConvexPoly(play, np.round(outline).astype(np.int32), 255)
    return tuple(covered), bool(((cover > 60) & (play > 0)).any())


@lru_cache(maxsize=2)
def _board_frame(scene: SynthScene) -> Image:
    """The camera's view of the table and the board on it, before hands, light and sensor
    (cached per board: a still table's frames differ only in their noise). Read-only."""
    variation = scene.variation
    pixels_per_mm = _canvas_scale(scene)
    canvas = _board_canvas(scene, pixels_per_mm)
    map_xy, map_fraction = _tables(
        (variation.pose, variation.lens_k1, scene.image_size), scene.homography().tobytes(),
        pixels_per_mm
    )
    frame = table_top(variation.table, variation.light.seed, scene.image_size).copy()
    cv2.remap(canvas, map_xy, map_fraction, cv2.INTER_LINEAR, dst=frame,
              borderMode=cv2.BORDER_TRANSPARENT)
    frame.flags.writeable = False
    return frame


def render(scene: SynthScene, seed: int = 0) -> SynthFrame:
    """Render ``scene`` as a camera frame with its ground truth; ``seed`` varies sensor noise."""
    variation = scene.variation
    picture, markers_covered, over_play = _lit_frame(scene)
    image = sensor(picture, variation.noise, variation.jpeg_quality, np.random.default_rng(seed))
    return SynthFrame(image, scene, scene.homography(), variation.lens_k1, scene.truth(),
                      markers_covered, over_play)


@lru_cache(maxsize=4)
def _lit_frame(scene: SynthScene) -> tuple[Image, tuple[int, ...], bool]:
    """The table, board and hands under the light, before the sensor's noise and JPEG, with the
    markers a hand covers and whether one lies over the play area (cached per scene, hands
    included: a still scene's frames differ only in their noise). Read-only."""
    variation = scene.variation
    frame = _board_frame(replace(scene, hands=())).copy()
    cover = draw_hands(frame, _hand_placements(scene), variation.light.direction_deg)
    markers_covered, over_play = _covered(scene, cover)
    picture = lit(frame, variation.light, variation.blur)
    picture.flags.writeable = False
    return picture, markers_covered, over_play


def render_frame(scene: SynthScene, seed: int = 0) -> Image:
    """Just the BGR image of :func:`render`."""
    return render(scene, seed).image


def with_hands(scene: SynthScene, *hands: Hand) -> SynthScene:
    """``scene`` with exactly these hands over it (none removes them)."""
    return replace(scene, hands=tuple(hands))


# The random scenes build on the classes above, and are part of this package's interface.
from vision.synth.randomised import random_hand, random_scene, random_variation  # noqa: E402
