"""Materials of the table: colour temperature to linear RGB, metals, paper, plastics.

Everything here is linear-light RGB with sRGB primaries (D65 white is (1, 1, 1)). Metals are
described by their Fresnel reflectance at normal incidence (F0) and how rough and tarnished
they are; dielectrics (paper, plastic, paint, varnish) by a diffuse albedo and a small F0.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import numpy as np
import numpy.typing as npt

FloatArray = npt.NDArray[Any]  # float32; numpy typing loses dtypes in arithmetic
RGB = tuple[float, float, float]

#: XYZ (D65) to linear sRGB.
_XYZ_TO_RGB = np.array(
    [[3.2406, -1.5372, -0.4986], [-0.9689, 1.8758, 0.0415], [0.0557, -0.2040, 1.0570]]
)

#: Fresnel F0 of clean metals in linear sRGB (measured optical constants, rounded).
COPPER_F0: RGB = (0.955, 0.638, 0.538)
CUPRONICKEL_F0: RGB = (0.665, 0.635, 0.595)
MANGANESE_BRASS_F0: RGB = (0.910, 0.760, 0.420)
#: Reflectance of a cuprous-oxide tarnish layer and the brown diffuse under it.
COPPER_OXIDE_F0: RGB = (0.26, 0.15, 0.10)
COPPER_OXIDE_DIFFUSE: RGB = (0.11, 0.050, 0.028)
SILVER_DULL_DIFFUSE: RGB = (0.20, 0.195, 0.185)

#: Coin letter -> (diameter mm, thickness mm, metal, reeded edge).
COIN_SPECS: dict[str, tuple[float, float, str, bool]] = {
    "P": (19.05, 1.52, "copper", False),
    "N": (21.21, 1.95, "cupronickel", False),
    "D": (17.91, 1.35, "cupronickel", True),
    "Q": (24.26, 1.75, "cupronickel", True),
    "S": (26.49, 2.00, "brass", False),
}

#: Linear diffuse albedo of pawn colours (plastic or paint).
PAWN_ALBEDO: dict[str, RGB] = {
    "red": (0.50, 0.030, 0.028),
    "blue": (0.020, 0.055, 0.42),
    "green": (0.030, 0.27, 0.050),
    "yellow": (0.72, 0.52, 0.020),
    "purple": (0.20, 0.030, 0.30),
    "white": (0.78, 0.78, 0.75),
    "black": (0.030, 0.030, 0.032),
    "orange": (0.80, 0.22, 0.020),
}
#: Colours the held-out family may give a pawn besides the four players' ones.
EXTRA_PAWN_COLOURS: tuple[str, ...] = ("purple", "white", "black", "orange")


def _lobe(wavelength: npt.NDArray[np.float64], mean: float, low: float, high: float
          ) -> npt.NDArray[np.float64]:
    sigma = np.where(wavelength < mean, low, high)
    return np.asarray(np.exp(-0.5 * ((wavelength - mean) / sigma) ** 2))


@lru_cache(maxsize=256)
def kelvin_rgb(kelvin: float) -> RGB:
    """The colour of a black body at ``kelvin`` in linear sRGB, scaled to luminance 1.

    Planck's law integrated against the CIE 1931 observer (Wyman, Sloan and Shirley's
    multi-lobe fit), so a 6500 K lamp is white and a 2700 K one orange, as a camera sees them.
    """
    wavelength = np.arange(380.0, 781.0, 5.0)
    planck = wavelength**-5.0 / np.expm1(1.4388e7 / (wavelength * kelvin))
    x_bar = (1.056 * _lobe(wavelength, 599.8, 37.9, 31.0) + 0.362 * _lobe(wavelength, 442.0, 16.0,
             26.7) - 0.065 * _lobe(wavelength, 501.1, 20.4, 26.2))
    y_bar = 0.821 * _lobe(wavelength, 568.8, 46.9, 40.5) + 0.286 * _lobe(wavelength, 530.9, 16.3,
                                                                           31.1)
    z_bar = 1.217 * _lobe(wavelength, 437.0, 11.8, 36.0) + 0.681 * _lobe(wavelength, 459.0, 26.0,
                                                                           13.8)
    xyz = np.array([(planck * x_bar).sum(), (planck * y_bar).sum(), (planck * z_bar).sum()])
    rgb = np.clip(_XYZ_TO_RGB @ (xyz / xyz[1]), 0.0, None)
    luminance = 0.2126 * rgb[0] + 0.7152 * rgb[1] + 0.0722 * rgb[2]
    rgb = rgb / luminance
    return (float(rgb[0]), float(rgb[1]), float(rgb[2]))


def srgb_to_linear(encoded: npt.NDArray[np.generic]) -> FloatArray:
    """8-bit sRGB-encoded values (0..255) to linear 0..1 floats, through a lookup table."""
    table = _srgb_table()
    return table[np.asarray(encoded, np.uint8)]


@lru_cache(maxsize=1)
def _srgb_table() -> FloatArray:
    value = np.arange(256, dtype=np.float64) / 255.0
    linear = np.where(value <= 0.04045, value / 12.92, ((value + 0.055) / 1.055) ** 2.4)
    return linear.astype(np.float32)


@dataclass(frozen=True)
class SurfaceLook:
    """How one surface reflects: Fresnel F0, glossy lobe width (radians), diffuse albedo.

    ``sigma`` is the angular standard deviation of the glossy lobe: a mirror has about 0.02,
    a worn coin 0.3, matte plastic 0.5. ``diffuse`` is the Lambertian albedo of what lies under
    or on the surface (tarnish, pigment). ``metal`` says whether the specular part is tinted.
    """

    f0: RGB
    sigma: float
    diffuse: RGB
    metal: bool


def _mix(a: RGB, b: RGB, share: float) -> RGB:
    return (a[0] + (b[0] - a[0]) * share, a[1] + (b[1] - a[1]) * share,
            a[2] + (b[2] - a[2]) * share)


def coin_look(letter: str, age: float, shine: float) -> SurfaceLook:
    """A coin's face: ``age`` 0 (new, mirror-bright) .. 1 (old: dark brown penny, dull grey
    silver); ``shine`` 0..1 scales how polished a new coin is (glint sharpness).

    Pennies darken toward cuprous oxide (a brown diffuse layer with little reflection);
    cupronickel and brass dull toward a grey or dark-gold diffuse with a wide lobe.
    """
    age = min(max(age, 0.0), 1.0)
    metal = COIN_SPECS[letter][2]
    sigma = 0.025 + 0.05 * (1 - shine) + 0.25 * age**1.5
    if metal == "copper":
        sigma += 0.1 * age**2
        f0 = _mix(COPPER_F0, COPPER_OXIDE_F0, age**0.8)
        diffuse = tuple(c * min(1.0, 1.6 * age) for c in COPPER_OXIDE_DIFFUSE)
        return SurfaceLook(f0, sigma, diffuse, True)  # type: ignore[arg-type]
    base = MANGANESE_BRASS_F0 if metal == "brass" else CUPRONICKEL_F0
    dull = tuple(c * (1 - 0.45 * age) for c in base)
    diffuse = tuple(c * 0.8 * age for c in SILVER_DULL_DIFFUSE)
    if metal == "brass":
        diffuse = tuple(c * age for c in (0.16, 0.12, 0.05))
    return SurfaceLook(dull, sigma, diffuse, True)  # type: ignore[arg-type]


def pawn_look(colour: str, hue_turn: float, brightness: float, f0: float, sigma: float
              ) -> SurfaceLook:
    """A plastic or painted pawn: its colour's albedo turned in hue and scaled in brightness,
    a dielectric gloss ``f0`` and lobe ``sigma``."""
    shifted = hue_shift(PAWN_ALBEDO[colour], hue_turn)
    albedo = tuple(min(0.95, max(0.005, c * brightness)) for c in shifted)
    return SurfaceLook((f0, f0, f0), sigma, albedo, False)  # type: ignore[arg-type]


def schlick(f0: npt.NDArray[np.float32], cos_view: npt.NDArray[np.float32]) -> FloatArray:
    """Schlick's Fresnel: reflectance at ``cos_view`` for normal-incidence ``f0`` (N x 3)."""
    weight = (1.0 - np.clip(cos_view, 0.0, 1.0)) ** 5
    return (f0 + (1.0 - f0) * weight[:, None]).astype(np.float32)


def hue_shift(rgb: RGB, turn: float) -> RGB:
    """``rgb`` rotated by ``turn`` (fraction of a full turn) about the grey axis."""
    angle = 2 * math.pi * turn
    cos, sin = math.cos(angle), math.sin(angle)
    k = 1 / math.sqrt(3)
    matrix = np.array([
        [cos + (1 - cos) / 3, (1 - cos) / 3 - k * sin, (1 - cos) / 3 + k * sin],
        [(1 - cos) / 3 + k * sin, cos + (1 - cos) / 3, (1 - cos) / 3 - k * sin],
        [(1 - cos) / 3 - k * sin, (1 - cos) / 3 + k * sin, cos + (1 - cos) / 3],
    ])
    out = np.clip(matrix @ np.array(rgb), 0.0, None)
    return (float(out[0]), float(out[1]), float(out[2]))
