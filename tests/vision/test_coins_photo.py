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
