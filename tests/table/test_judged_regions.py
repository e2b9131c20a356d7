"""The table reads only the discard spot the referee judges (companion.judged_regions): the
other seats' spots are left out, the mat is still printed whole for the reader, and the ring
reads as it does on the whole mat."""

from __future__ import annotations

import random
from dataclasses import replace

import numpy as np

from calibration.geometry import mat_for_game
from calibration.mats import render_mat
from calibration.profile import VisionProfile
from companion.games import get_game
from companion.games.jokers_and_coins import GAME
from companion.games.jokers_and_coins.table import layout
from companion.judged_regions import judged_geometry
from vision.read import VisionConfig, read_frame_details
from vision.synth import SynthScene, Variation, render


def _played(players: int, plies: int, seed: int):
    rng = random.Random(seed)
    position = GAME.new_position(players)
    for _ in range(plies):
        position = GAME.apply(position, rng.choice(GAME.legal_moves(position)))
    return position


def test_of_the_discard_spots_only_the_movers_is_read():
    geometry = mat_for_game(GAME.info.mat, players=4)
    position = _played(4, 6, seed=2)
    judged = judged_geometry(geometry, GAME, position)
    names = set(judged.region_names())
    mover = position.to_move
    assert {name for name in names if name.startswith("discard-")} == {f"discard-{mover}"}
    assert names == {region.name for region in geometry.regions
                     if region.kind != "discard" or region.name == f"discard-{mover}"}
    assert any(region.kind == "cup" for region in judged.regions)  # evidence for coin sizes
    before_the_game = judged_geometry(geometry, GAME, None)
    assert not any(region.kind == "discard" for region in before_the_game.regions)
    # The reader's caches are keyed by the mat: the same mat object every time.
    assert judged_geometry(geometry, GAME, position) is judged


def test_the_judged_mat_is_printed_like_the_whole_mat():
    geometry = mat_for_game(GAME.info.mat, players=5)
    judged = judged_geometry(geometry, GAME, GAME.new_position(5))
    assert len(judged.regions) < len(geometry.regions)
    assert np.array_equal(render_mat(judged, 1.0), render_mat(geometry, 1.0))


def test_a_game_that_judges_every_region_reads_the_whole_mat():
    game = get_game("coin-isolation")
    geometry = mat_for_game(game.info.mat)
    assert judged_geometry(geometry, game, game.new_position(2)) is geometry


def test_the_ring_reads_the_same_on_the_judged_regions():
    geometry = mat_for_game(GAME.info.mat, players=4)
    position = _played(4, 40, seed=7)
    scene = SynthScene.from_table(layout(position), geometry=geometry, variation=Variation(),
                                  layout_seed=7, image_size=(1920, 1080))
    frame = render(scene, 7)
    profile = VisionProfile.default().only_kinds("PNDQ")
    config = VisionConfig()
    whole = read_frame_details(config, frame.image, geometry, profile).observation
    judged_mat = judged_geometry(geometry, GAME, position)
    judged = read_frame_details(config, frame.image, judged_mat, profile).observation
    assert set(judged.regions) == set(judged_mat.region_names())
    ring = [region.name for region in geometry.regions if region.kind == "track"]
    assert sum(frame.truth[name].top is not None for name in ring) >= 4
    for name in ring:
        assert (judged[name].coin, judged[name].pawn) == (whole[name].coin, whole[name].pawn)
        assert judged[name].coin == frame.truth[name].top
    assert replace(judged_mat, printed_regions=()).printed == judged_mat.regions
