"""The demo's synthetic camera on the 6-seat Jokers and Coins mat: the one the mat's guide
advises, at which the ring's silver coins are read by their sizes."""

from __future__ import annotations

from dataclasses import replace

from bench.bench_ring_read import random_position, reading_profile, table_scene
from calibration.geometry import mat_for_game
from companion.demo import DemoOptions
from companion.demo_camera import LEAST_PIXELS_PER_MM, advised_camera_size, pixels_per_mm
from companion.games.jokers_and_coins import GAME
from vision.read import VisionConfig, read_frame_details
from vision.synth import random_variation, render


def test_the_default_demo_camera_reads_six_seats_silver_coins_by_size() -> None:
    """Under the seed-1 demo's own soft, tilted camera, a 6-seat ring whose dimes and nickels
    a 1080p camera read a size too large (0.55-0.61 px/mm) is read right at the default size."""
    geometry = mat_for_game(GAME.info.mat, players=6)
    size = DemoOptions().camera_size or advised_camera_size(geometry)
    assert pixels_per_mm(size, geometry) >= LEAST_PIXELS_PER_MM
    position = random_position(3, 6)
    scene = replace(table_scene(3, position, geometry, size), variation=random_variation(1))
    frame = render(scene, 3)
    observation = read_frame_details(VisionConfig(), frame.image, geometry,
                                     reading_profile()).observation
    silver = [name for name, truth in frame.truth.items()
              if name.startswith("t") and truth.top in ("D", "N", "Q")]
    assert len(silver) >= 5
    wrong = {name: (frame.truth[name].top, observation.regions[name].coin)
             for name in silver if observation.regions[name].coin != frame.truth[name].top}
    assert not wrong


def test_only_mats_too_large_for_a_1080p_camera_get_a_4k_one() -> None:
    """Coin Isolation and 4 seats keep the standard camera; 5 and 6 seats get a 4K one."""
    assert advised_camera_size(mat_for_game("coin-isolation")) == (1920, 1080)
    assert advised_camera_size(mat_for_game(GAME.info.mat, players=4)) == (1920, 1080)
    for players in (5, 6):
        assert advised_camera_size(mat_for_game(GAME.info.mat, players=players)) == (3840, 2160)
