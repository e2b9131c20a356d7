"""Sizing a coin hemmed in by its neighbours by the arcs of its outline that show, and telling
which of two overlapping coins lies on top: coins drawn by the synthetic table's own renderer
on paper, read by the real OpenCV code."""

import math

import cv2
import numpy as np
import pytest

from contract.observation import COIN_KINDS
from vision.arcs import ArcConfig, occlusion_order, size_by_arcs
from vision.light import PAPER
from vision.loose import LooseConfig, _edges, find_loose_coins
from vision.regions import RegionWindow
from vision.synth.objects import Lighting, PlacedCoin, draw_coin

PIXELS_PER_MM = 2.0
SIZE_MM = 110.0
MIDDLE = (SIZE_MM / 2, SIZE_MM / 2)
RADII_MM = (COIN_KINDS["D"][1] / 2, COIN_KINDS["S"][1] / 2)


def drawn(coins: list[tuple[str, tuple[float, float]]]) -> np.ndarray:
    """Paper (the normalised view's level) with ``coins`` drawn in order, later ones on top,
    blurred a little as a camera would."""
    side = round(SIZE_MM * PIXELS_PER_MM)
    canvas = np.full((side, side, 3), round(PAPER), np.uint8)
    for level, (letter, centre) in enumerate(coins):
        coin = PlacedCoin(letter, centre, 30.0 * level, 0.2, 0.5, 0, level % 4)
        draw_coin(canvas, coin, PIXELS_PER_MM, Lighting())
    return cv2.GaussianBlur(canvas, (0, 0), 0.8).astype(np.float32)


def hemmed_in(letter: str) -> list[tuple[str, tuple[float, float]]]:
    """A coin of ``letter`` in the middle with seven others round it lying 1 mm over its
    rim: too few rays from it reach paper for its size to be measured there."""
    radius = COIN_KINDS[letter][1] / 2
    ring = []
    for index, other in enumerate("PNQDSPN"):
        angle = 2 * math.pi * index / 7
        reach = radius + COIN_KINDS[other][1] / 2 - 1.0
        ring.append((other, (MIDDLE[0] + reach * math.cos(angle),
                             MIDDLE[1] + reach * math.sin(angle))))
    return [(letter, MIDDLE), *ring]


def circles_of(coins: list[tuple[str, tuple[float, float]]]) -> list[tuple[np.ndarray, float]]:
    """The coins' true circles in pixels."""
    return [(np.array(centre) * PIXELS_PER_MM - 0.5, COIN_KINDS[letter][1] / 2 * PIXELS_PER_MM)
            for letter, centre in coins]


@pytest.mark.parametrize("letter", ["D", "N", "Q"])
def test_a_hemmed_in_silver_coin_is_sized_by_its_open_arcs_not_by_its_raised_rim(letter):
    coins = hemmed_in(letter)
    image = drawn(coins)
    circles = circles_of(coins)
    true_radius = circles[0][1]
    # Start from the ring inside the outline a raised rim draws (0.84 of the radius), a
    # little off centre: the outline is found outside it.
    circles[0] = (circles[0][0] + 1.0, 0.84 * true_radius)
    grey = cv2.GaussianBlur(image, (0, 0), 0.7).mean(axis=2).astype(np.float32)
    arc = size_by_arcs(ArcConfig(), grey, circles, 0, RADII_MM, PIXELS_PER_MM)
    assert arc is not None
    assert abs(arc.radius - true_radius) / PIXELS_PER_MM < 0.6, (arc, true_radius)
    assert arc.open_share < 0.5  # most of its rim lies under its neighbours


@pytest.mark.parametrize("light", [(-0.6, -0.8), (0.8, -0.6), (0.6, 0.8)])
def test_a_lone_coin_is_sized_by_its_arcs_wherever_the_lamp_stands(light):
    # The lamp's shading pulls the arcs' circle up to 1.4 mm off the coin's centre, away
    # from the light (docs/FIGURES.md, pits-arc-centre): the centre search must absorb it.
    side = round(SIZE_MM * PIXELS_PER_MM)
    canvas = np.full((side, side, 3), round(PAPER), np.uint8)
    draw_coin(canvas, PlacedCoin("N", MIDDLE, 0.0, 0.2, 0.5, 0, 0), PIXELS_PER_MM,
              Lighting(direction=light))
    image = cv2.GaussianBlur(canvas, (0, 0), 0.8).astype(np.float32)
    circles = circles_of([("N", MIDDLE)])
    grey = cv2.GaussianBlur(image, (0, 0), 0.7).mean(axis=2).astype(np.float32)
    arc = size_by_arcs(ArcConfig(), grey, circles, 0, RADII_MM, PIXELS_PER_MM)
    assert arc is not None and arc.open_share == 1.0
    assert abs(arc.radius - circles[0][1]) / PIXELS_PER_MM < 0.5, arc


def test_a_coin_with_no_open_arc_is_left_as_found():
    coins = hemmed_in("N")
    circles = circles_of(coins)
    image = drawn(coins)
    grey = image.mean(axis=2).astype(np.float32)
    # A neighbour said to cover the whole middle coin shuts every ray.
    circles[1] = (circles[0][0], 3 * circles[0][1])
    assert size_by_arcs(ArcConfig(), grey, circles, 0, RADII_MM, PIXELS_PER_MM) is None


@pytest.mark.parametrize("order", [("Q", "N"), ("N", "Q"), ("D", "S")])
def test_of_two_overlapping_coins_the_one_dropped_later_lies_on_top(order):
    first = (order[0], (45.0, 55.0))
    gap = (COIN_KINDS[order[0]][1] + COIN_KINDS[order[1]][1]) / 2 * 0.75
    second = (order[1], (45.0 + gap, 55.0))
    image = drawn([first, second])
    config = LooseConfig()
    edges = _edges(config, image, PIXELS_PER_MM)
    above = occlusion_order(ArcConfig(), edges.along_x, edges.along_y,
                            circles_of([first, second]), PIXELS_PER_MM)
    assert above[1, 0] and not above[0, 1]


def test_the_pile_reader_sizes_a_hemmed_in_coin_by_its_arcs():
    coins = hemmed_in("Q")
    image = drawn(coins)
    side = image.shape[0]
    window = RegionWindow("C", "pit", (0, 0, side, side), None, True)
    offset = 1.0  # the frame model's usual size offset, as the reader passes it
    diameters = (COIN_KINDS["D"][1] + offset, COIN_KINDS["S"][1] + offset)
    found = find_loose_coins(LooseConfig(), image, window, PIXELS_PER_MM, diameters)
    middle = np.array(MIDDLE) * PIXELS_PER_MM
    index = int(np.argmin(np.hypot(*(found.centres - middle).T)))
    assert math.dist(found.centres[index], middle) < 2 * PIXELS_PER_MM
    assert not found.measured[index]  # no size against paper: sized by its arcs
    diameter = 2 * found.radii[index] / PIXELS_PER_MM
    assert abs(diameter - COIN_KINDS["Q"][1]) < 1.2, diameter
