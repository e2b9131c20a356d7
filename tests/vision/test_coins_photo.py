"""`vision coins` on a real photograph: scikit-image's coins.png holds exactly 24 coins."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np
import pytest

from vision.coins import CoinFinderConfig, find_coins

skimage_data = pytest.importorskip("skimage.data")


def test_real_photo_has_24_coins():
    coins = find_coins(CoinFinderConfig(), skimage_data.coins())
    assert len(coins) == 24
    radii = [coin.radius for coin in coins]
    assert min(radii) > 10
    assert max(radii) < 35


@pytest.mark.parametrize("scale", [0.6, 1.8])
def test_count_holds_at_other_resolutions_and_in_colour(scale):
    photo = cv2.resize(skimage_data.coins(), None, fx=scale, fy=scale)
    coins = find_coins(CoinFinderConfig(), cv2.cvtColor(photo, cv2.COLOR_GRAY2BGR))
    assert len(coins) == 24


def test_blank_image_has_no_coins():
    assert find_coins(CoinFinderConfig(), np.full((300, 400), 128, np.uint8)) == ()


def test_command_prints_24_coins(tmp_path):
    path = tmp_path / "coins.png"
    cv2.imwrite(str(path), skimage_data.coins())
    result = subprocess.run(
        [sys.executable, "-m", "companion", "vision", "coins", str(path)],
        capture_output=True, text=True, timeout=60,
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["count"] == 24
    assert set(data["coins"][0]) == {"x", "y", "radius"}


def _top_coins_and_pawns(frame):
    """Frame pixels of every stack's top coin, and of every pawn's foot."""
    coins, pawns = frame.scene.placements()
    top: dict[str, object] = {}
    for coin in coins:
        if coin.region not in top or coin.level > top[coin.region].level:
            top[coin.region] = coin
    coin_points = frame.project(np.array([coin.centre_mm for coin in top.values()], float))
    pawn_points = frame.project(np.array([pawn.foot_mm for pawn in pawns], float).reshape(-1, 2))
    return coin_points, pawn_points


@pytest.mark.parametrize("seed", [7, 41, 93])
def test_small_coins_on_a_whole_board_are_found(seed):
    """A 1080p webcam frame of a whole board shows coins about 30 px across (1.5% of its
    height): the finder must find nearly every one, and nothing but coins and pawns (whose
    tops are discs too)."""
    from vision.synth import random_scene, random_variation, render

    frame = render(random_scene(seed, random_variation(seed, 35.0)), seed)
    coin_points, pawn_points = _top_coins_and_pawns(frame)
    found = np.array([(coin.x, coin.y) for coin in find_coins(CoinFinderConfig(), frame.image)])
    nearest_found = np.hypot(*(coin_points[:, None, :] - found[None, :, :]).T).min(axis=0)
    assert (nearest_found < 8).mean() >= 0.95
    things = np.vstack([coin_points, pawn_points])
    nearest_thing = np.hypot(*(found[:, None, :] - things[None, :, :]).T).min(axis=0)
    assert (nearest_thing >= 8).sum() <= 1


def test_circles_fitted_to_board_squares_are_not_coins():
    """A printed checkerboard with a few coins: the Hough transform fits circles to its
    squares, which are far larger than the coins and are dropped."""
    board = np.full((1080, 1920), 200, np.uint8)
    for row in range(8):
        for column in range(8):
            if (row + column) % 2:
                board[100 + row * 110:210 + row * 110, 500 + column * 110:610 + column * 110] = 150
    centres = [(555 + column * 110, 155 + row * 110) for row, column in [(0, 0), (2, 3), (5, 6)]]
    for x, y in centres:
        cv2.circle(board, (x, y), 16, 90, -1)
        cv2.circle(board, (x, y), 16, 60, 2)
    found = find_coins(CoinFinderConfig(), board)
    assert len(found) == len(centres)
    for coin in found:
        assert min(np.hypot(coin.x - x, coin.y - y) for x, y in centres) < 3
        assert 14 < coin.radius < 19
