"""A lone coin's contrast spread (:mod:`vision.coin_mass`) on coins the synthetic table draws:
blur leaves it where it moves the coin's extent, and it names a coin whose outline strays."""

from __future__ import annotations

import cv2
import numpy as np

from vision.coin_mass import CoinMassConfig, reread_by_spread, spread_diameter
from vision.frame_fit import FrameFit
from vision.synth.objects import Lighting, PlacedCoin, draw_coin

PIXELS_PER_MM = 3.0
CENTRE_MM = 22.0
SIZES = {"D": 17.91, "N": 21.21, "Q": 24.26}


def _spread(letter: str, blur_mm: float) -> float:
    """The spread diameter of a coin drawn on paper, the frame blurred by ``blur_mm``."""
    side = round(2 * CENTRE_MM * PIXELS_PER_MM)
    canvas = np.full((side, side, 3), (235, 240, 245), np.uint8)
    coin = PlacedCoin(letter, (CENTRE_MM, CENTRE_MM), 40.0, 0.3, 0.7, 0, 0)
    draw_coin(canvas, coin, PIXELS_PER_MM, Lighting())
    image = cv2.GaussianBlur(canvas.astype(np.float32), (0, 0), blur_mm * PIXELS_PER_MM)
    centre = CENTRE_MM * PIXELS_PER_MM
    return spread_diameter(CoinMassConfig(), image, (centre, centre), SIZES[letter],
                           PIXELS_PER_MM)


def test_blur_adds_only_its_own_share_to_the_spread() -> None:
    # A Gaussian blur of s adds 8 s^2 to the squared spread diameter, whatever the coin (the
    # coin's shadow, side and shading add their own share, alike for every coin of a frame).
    spreads = {}
    for letter in ("N", "Q"):
        sharp, soft = _spread(letter, 0.5), _spread(letter, 1.5)
        spreads[letter] = np.sqrt(soft ** 2 - 8 * 1.5 ** 2)
        assert abs(spreads[letter] - np.sqrt(sharp ** 2 - 8 * 0.5 ** 2)) < 0.4
    assert spreads["Q"] - spreads["N"] > 2.5


def test_a_stray_outline_the_spread_disagrees_with_is_a_doubt() -> None:
    # Six coins fix the frame's spreads; the last two are nickels whose outlines measured
    # 23.8 mm, a sixth of the way from a quarter's to a nickel's, while their spreads are a
    # nickel's: the one read surely stays a quarter as a doubt, the doubt is read a nickel.
    kinds = ["D", "D", "N", "N", "Q", "Q", "Q", "Q"]
    spreads = np.array([19.9, 20.1, 23.0, 23.2, 26.0, 26.2, 23.4, 23.3])
    diameters = np.array([18.0, 18.1, 21.3, 21.2, 24.3, 24.2, 23.8, 23.8])
    confidence = np.array([0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.84, 0.3])
    outlines = np.tile([SIZES["D"], SIZES["N"], SIZES["Q"]], (len(kinds), 1))
    frame = FrameFit(("D", "N", "Q"), np.full((len(kinds), 3), 1 / 3), 0.0, outline_mm=outlines)
    metals = dict.fromkeys(SIZES, "silver")
    read, sure = reread_by_spread(CoinMassConfig(), frame, kinds, SIZES, metals, diameters,
                                  spreads, confidence)
    assert read == ["D", "D", "N", "N", "Q", "Q", "Q", "N"]
    assert np.allclose(sure, [0.9, 0.9, 0.9, 0.9, 0.9, 0.9, CoinMassConfig().doubtful, 0.3])
