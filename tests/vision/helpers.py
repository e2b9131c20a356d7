"""Shared helpers for the vision tests: synthetic frames with their ground truth."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from calibration.geometry import coin_grid_mat, coin_isolation_mat
from calibration.profile import VisionProfile
from contract.observation import COIN_KINDS, DieReading
from vision.dice import DiceConfig, explain_tray_in_frame
from vision.frame_fit import FrameFit
from vision.frame_model import KindPrior, fit_frame
from vision.frame_priors import FrameModelConfig
from vision.markers import find_board
from vision.parallax import camera_over_mat
from vision.read import VisionConfig, read_frame
from vision.rectify import TopView, rectify
from vision.synth import SynthScene, random_scene, random_variation, render
from vision.synth.dice_sets import tuning_tray

CONFIG = VisionConfig()
PROFILE = VisionProfile.default().only_kinds("PNDQ")
GEOMETRY = coin_isolation_mat()
#: The coins' true diameters in mm, by the letters the sprite scenes use.
COIN_SIZES_MM = {"D": 17.91, "P": 19.05, "N": 21.21, "Q": 24.26}


@lru_cache(maxsize=4)
def rendered_top_view(seed: int) -> TopView:
    """The rectified top view of a random rendered frame full of coins (tilt up to 35
    degrees), as the reader's stages see it; cached, since several tests read the same one."""
    scene = random_scene(seed, random_variation(seed, 35.0))
    image = render(scene, seed).image
    location = find_board(CONFIG.markers, image, scene.geometry)
    return rectify(CONFIG.rectify, image, location, scene.geometry)


@dataclass(frozen=True)
class StackReadings:
    """How stacks laid among single coins were read over several frames: each stack read as
    another coin than its top one at confidence 0.5 or more (seed, square, coin, confidence),
    and how many single coins were read right, and right at 0.5 or more."""

    sure_wrong: list[tuple[int, str, str | None, float]]
    singles_right: int
    singles_sure: int


def read_stacks_among_singles(stacks: Mapping[str, str], singles: Mapping[str, str],
                              seeds: Iterable[int]) -> StackReadings:
    """Render the sprite table with ``stacks`` and ``singles`` (coins bottom first, by
    square) under each seed's random variation and read every frame."""
    sure_wrong: list[tuple[int, str, str | None, float]] = []
    singles_right = singles_sure = 0
    for seed in seeds:
        scene = SynthScene.build({**stacks, **singles}, {}, GEOMETRY, random_variation(seed),
                                 layout_seed=seed)
        observation = read_frame(CONFIG, render(scene, seed).image, GEOMETRY, PROFILE)
        for square, coins in stacks.items():
            reading = observation[square]
            if reading.coin != coins[-1] and reading.confidence >= 0.5:
                sure_wrong.append((seed, square, reading.coin, round(reading.confidence, 2)))
        right = [observation[square] for square, coin in singles.items()
                 if observation[square].coin == coin]
        singles_right += len(right)
        singles_sure += sum(reading.confidence >= 0.5 for reading in right)
    return StackReadings(sure_wrong, singles_right, singles_sure)


def wrong_regions(observation, truth) -> list[tuple[str, str, str | None, str | None]]:
    """(region, true coins, coin read, pawn read) for every region read wrong."""
    wrong = []
    for name, region in truth.items():
        reading = observation.regions[name]
        expected: tuple[object, ...] = (region.top, region.pawn)
        got: tuple[object, ...] = (reading.coin, reading.pawn)
        if region.loose:
            expected = (len(region.coins), tuple(sorted(region.coins)), region.pawn)
            got = (reading.count, tuple(reading.kinds), reading.pawn)
        if expected != got:
            wrong.append((name, region.coins, reading.coin, reading.pawn))
    return wrong


#: The frame model's priors for the four common coins.
FRAME_PRIORS = tuple(KindPrior(kind, COIN_KINDS[kind][1], COIN_KINDS[kind][2]) for kind in "PNDQ")


def random_frame_fit(seed: int, edges_seen: bool = True) -> FrameFit:
    """The frame model fitted to a made-up frame of coins of every kind, some glinting (with
    edge colours where ``edges_seen``), faint, stacked or with a top circle, their sizes and
    colours scattered as a camera scatters them."""
    rng = np.random.default_rng(seed)
    count = int(rng.integers(8, 50))
    kinds = rng.integers(0, len(FRAME_PRIORS), count)
    sizes = np.array([FRAME_PRIORS[kind].diameter_mm for kind in kinds])
    copper = np.array([FRAME_PRIORS[kind].metal == "copper" for kind in kinds])
    diameters = sizes + 1.0 + rng.normal(0, 0.3, count) + rng.choice([0, 3.0], count, p=[0.9, 0.1])
    colours = rng.normal(0, 0.03, (count, 2)) + np.where(copper[:, None], [0.2, -0.1], 0.0)
    colours[rng.random(count) < 0.1] = np.nan
    inner = np.where(rng.random(count) < 0.5, sizes - 2.0 + rng.normal(0, 0.3, count), np.nan)
    edges = rng.normal(0, 0.02, (count, 2)) if edges_seen else np.full((count, 2), np.nan)
    return fit_frame(FrameModelConfig(), FRAME_PRIORS, rng.uniform(0, 400, (count, 2)),
                     diameters, rng.uniform(0.3, 1.0, count), colours,
                     rng.uniform(0, 1, count) ** 4, edges, inner, rng.uniform(0.05, 1.0, count))


def explained_tray(scene: SynthScene, seed: int) -> tuple[tuple[DieReading, str], ...]:
    """The Coin Grid scene ``scene`` rendered with noise ``seed`` and its tray read as the
    table reads it, each die with why it was not read ("" when it was)."""
    geometry = coin_grid_mat()
    image = render(scene, seed).image
    location = find_board(CONFIG.markers, image, geometry)
    camera = camera_over_mat(location.homography, location.image_size)
    return explain_tray_in_frame(DiceConfig(focal_px=scene.intrinsics()[0]), image, location,
                                 geometry.region("tray").shape.bounds(), camera)


def tray_dice_by_truth(seed: int) -> list[tuple[DieReading, DieReading, str]]:
    """Tuning tray ``seed`` read as the table reads it: each true die (a cocked one's value is
    None) with the reading nearest its centre and why that reading failed ("" when it did not)."""
    scene = tuning_tray(seed)
    explained = explained_tray(scene, seed)
    paired = []
    for truth in scene.truth()["tray"].dice:
        reading, why = min(explained, key=lambda item: math.dist(item[0].centre_mm,
                                                                 truth.centre_mm))
        paired.append((truth, reading, why))
    return paired
