"""Playing cards lying face up on the synthetic table (a player's discard pile).

A :class:`PlayedCard` is one card flat on the mat: its rank and suit, its face (a drawn style
of :mod:`vision.synth.card_faces` or a theme of :mod:`vision.synth.card_themes`), where its
middle lies (mat mm) and its turn. Cards are drawn in order, so the last one of a pile lies on
top. A card is a thin sheet: it casts a faint, narrow shadow away from the light (a card never
lies perfectly flat), its edge shows as a thin grey line, and a glossy card under a lamp shows
a bright ``gloss`` patch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np
import numpy.typing as npt

from vision.synth.card_faces import (
    CARD_MM,
    FACE_PIXELS_PER_MM,
    RANKS,
    SUITS,
    blank_face,
    drawn_face,
)
from vision.synth.card_themes import theme_face

Image = npt.NDArray[np.uint8]


@dataclass(frozen=True)
class PlayedCard:
    """One card face up on the mat. ``face`` is ``"drawn:N"`` (drawn style N) or
    ``"theme:NAME"``; ``gloss`` 0..1 is a lamp's reflection on it (1 washes it out), centred at
    ``gloss_at`` (shares of the card's width and height from its middle)."""

    rank: str
    suit: str
    centre_mm: tuple[float, float]
    angle_deg: float = 0.0
    face: str = "drawn:0"
    gloss: float = 0.0
    gloss_at: tuple[float, float] = (0.0, 0.0)

    def __post_init__(self) -> None:
        if self.rank not in RANKS:
            raise ValueError(f"no card rank {self.rank!r}; use {', '.join(RANKS)}")
        if self.suit not in SUITS:
            raise ValueError(f"no suit {self.suit!r}; use {', '.join(SUITS)}")
        if not (self.face.startswith("drawn:") or self.face.startswith("theme:")):
            raise ValueError(f"a card face is 'drawn:N' or 'theme:NAME', not {self.face!r}")

    def image(self) -> Image:
        """The card's face at :data:`FACE_PIXELS_PER_MM` (black outside the card)."""
        kind, name = self.face.split(":", 1)
        if kind == "drawn":
            return drawn_face(self.rank, self.suit, int(name))
        return theme_face(name, self.rank, self.suit)

    def corners_mm(self) -> npt.NDArray[np.float64]:
        """The card's four corners on the mat (mm), as if its corners were square."""
        turn = math.radians(self.angle_deg)
        axes = np.array([[math.cos(turn), math.sin(turn)], [-math.sin(turn), math.cos(turn)]])
        half = np.array(CARD_MM) / 2
        unit = np.array([[-1, -1], [1, -1], [1, 1], [-1, 1]]) * half
        return np.asarray(unit @ axes + np.array(self.centre_mm))


def _card_transform(card: PlayedCard, pixels_per_mm: float) -> npt.NDArray[np.float64]:
    """The affine map from face pixels to canvas pixels."""
    scale = pixels_per_mm / FACE_PIXELS_PER_MM
    turn = math.radians(card.angle_deg)
    cos, sin = math.cos(turn) * scale, math.sin(turn) * scale
    width, height = (side * FACE_PIXELS_PER_MM for side in CARD_MM)
    centre = np.array(card.centre_mm) * pixels_per_mm - 0.5
    middle = np.array([width / 2 - 0.5, height / 2 - 0.5])
    linear = np.array([[cos, -sin], [sin, cos]])
    return np.column_stack([linear, centre - linear @ middle])


def draw_card(canvas: Image, card: PlayedCard, pixels_per_mm: float,
              light_direction: tuple[float, float]) -> None:
    """Draw ``card`` with its faint shadow on a mat canvas at ``pixels_per_mm``."""
    face = card.image().astype(np.float32)
    inside = _outline_mask(face.shape[:2])
    if card.gloss > 0:
        face = _glossed(face, inside, card)
    transform = _card_transform(card, pixels_per_mm)
    height, width = canvas.shape[:2]
    corners = card.corners_mm() * pixels_per_mm
    x0, y0 = np.maximum(np.floor(corners.min(axis=0) - 6).astype(int), 0)
    x1, y1 = np.minimum(np.ceil(corners.max(axis=0) + 6).astype(int), (width, height))
    if x0 >= x1 or y0 >= y1:
        return
    shifted = transform.copy()
    shifted[:, 2] -= (x0, y0)
    size = (int(x1 - x0), int(y1 - y0))
    colour = cv2.warpAffine(face, shifted, size, flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(inside, shifted, size, flags=cv2.INTER_LINEAR)
    patch = canvas[y0:y1, x0:x1].astype(np.float32)
    shadow_shift = np.array(light_direction) * -0.8 * pixels_per_mm
    shift = np.array([[1, 0, shadow_shift[0]], [0, 1, shadow_shift[1]]], np.float32)
    shadow = cv2.warpAffine(alpha, shift, size)
    shadow = cv2.GaussianBlur(shadow, (0, 0), max(0.5, 0.4 * pixels_per_mm))
    patch *= 1 - 0.45 * shadow[..., None]
    # The card's edge: its thickness and bevel show as a thin grey line round it.
    rim = np.clip(alpha - cv2.erode(alpha, np.ones((3, 3), np.uint8)), 0, 1)
    rim = cv2.GaussianBlur(rim, (0, 0), max(0.3, 0.1 * pixels_per_mm))[..., None]
    weight = alpha[..., None]
    patch = patch * (1 - weight) + colour * weight * (1 - 0.25 * rim)
    canvas[y0:y1, x0:x1] = np.clip(patch, 0, 255).astype(np.uint8)


@lru_cache(maxsize=2)
def _outline_mask(shape: tuple[int, ...]) -> npt.NDArray[np.float32]:
    """1 inside a card's rounded outline at :data:`FACE_PIXELS_PER_MM` (black ink included)."""
    blank = blank_face(FACE_PIXELS_PER_MM)
    if blank.shape[:2] != shape:
        raise ValueError(f"a card face is {blank.shape[:2]} pixels, not {shape}")
    mask = (blank.max(axis=2) > 0).astype(np.float32)
    mask.setflags(write=False)
    return mask


def _glossed(face: npt.NDArray[np.float32], inside: npt.NDArray[np.float32],
             card: PlayedCard) -> npt.NDArray[np.float32]:
    """The face under a lamp's reflection: a soft bright ellipse, white where strongest."""
    height, width = inside.shape
    rows, columns = np.mgrid[0:height, 0:width].astype(np.float32)
    centre_x = width / 2 + card.gloss_at[0] * width
    centre_y = height / 2 + card.gloss_at[1] * height
    reach = 0.25 + 0.55 * card.gloss
    distance = ((columns - centre_x) / (reach * width)) ** 2 + \
        ((rows - centre_y) / (reach * height)) ** 2
    bright = np.clip(1.4 * card.gloss * np.exp(-distance), 0, 1)[..., None]
    return face * (1 - bright) + 255 * bright * inside[..., None]
