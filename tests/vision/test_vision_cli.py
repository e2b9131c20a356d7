"""`companion vision read|coins`: output on a synthetic frame, one-line errors with exit 2."""

from __future__ import annotations

import json
import subprocess
import sys

import cv2
import numpy as np

from vision.synth import SynthScene, Variation, render

from .helpers import GEOMETRY


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "companion", "vision", *args],
        capture_output=True, text=True, timeout=60,
    )


def test_read_prints_the_observation(tmp_path):
    scene = SynthScene.build({"a1": "P", "c3": "NP", "h8": "D"}, {"h8": "blue"}, GEOMETRY,
                             Variation())
    path = tmp_path / "frame.png"
    cv2.imwrite(str(path), render(scene).image)
    result = run("read", str(path))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["regions"]["a1"]["coin"] == "P"
    assert data["regions"]["h8"] == {"coin": "D", "pawn": "blue",
                                     "confidence": data["regions"]["h8"]["confidence"]}
    assert data["regions"]["c3"]["coin"] == "P"
    assert data["regions"]["b2"]["coin"] is None
    assert data["markers_found"] == [0, 1, 2, 3]
    assert data["milliseconds"] > 0
    assert set(data["meta"]["timings_ms"]) == {"find", "rectify", "read"}


def test_not_an_image_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "notes.png"
    path.write_text("not a picture")
    for command in ("read", "coins"):
        result = run(command, str(path))
        assert result.returncode == 2
        assert result.stdout == ""
        assert result.stderr.count("\n") == 1
        assert "not an image" in result.stderr


def test_missing_file_is_one_line_and_exit_2(tmp_path):
    result = run("read", str(tmp_path / "nowhere.jpg"))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "nowhere.jpg" in result.stderr


def test_no_mat_is_one_line_and_exit_2(tmp_path):
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), np.full((720, 1280, 3), 90, np.uint8))
    result = run("read", str(path))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "markers 0, 1, 2, 3 missing" in result.stderr


def test_bad_profile_is_one_line_and_exit_2(tmp_path):
    image = tmp_path / "frame.png"
    cv2.imwrite(str(image), np.full((100, 100, 3), 90, np.uint8))
    profile = tmp_path / "profile.json"
    profile.write_text("{")
    result = run("read", str(image), "--profile", str(profile))
    assert result.returncode == 2
    assert result.stderr.count("\n") == 1
    assert "profile" in result.stderr


def _small_print(tmp_path):
    """A frame of a mat printed with 40 mm squares, one of each coin twice, and its truth."""
    from calibration.geometry import coin_isolation_mat

    coins = {"a1": "P", "b1": "N", "c1": "D", "d1": "Q", "e3": "P", "f4": "N", "g5": "D",
             "h6": "Q"}
    scene = SynthScene.build(coins, {}, coin_isolation_mat(40.0), Variation())
    path = tmp_path / "small-print.png"
    cv2.imwrite(str(path), render(scene).image)
    return path, coins


def _coins_read(result):
    assert result.returncode == 0, result.stderr
    regions = json.loads(result.stdout)["regions"]
    return {name: reading["coin"] for name, reading in regions.items() if reading["coin"]}


def test_a_mat_printed_smaller_is_read_at_its_printed_size(tmp_path):
    path, coins = _small_print(tmp_path)
    assert _coins_read(run("read", str(path), "--square-mm", "40")) == coins
    # Read as the default 50 mm print, every coin looks 25% larger than it is.
    assert _coins_read(run("read", str(path))) != coins


def test_a_profile_calibrated_on_a_smaller_print_reads_it_so(tmp_path):
    from dataclasses import replace

    from calibration.profile import VisionProfile

    path, coins = _small_print(tmp_path)
    profile = tmp_path / "profile.json"
    replace(VisionProfile.default(), mat="coin-isolation", square_mm=40.0).save(profile)
    assert _coins_read(run("read", str(path), "--profile", str(profile))) == coins
    # A profile made on another game's mat says nothing about this one's print.
    replace(VisionProfile.default(), mat="test-pits", square_mm=40.0).save(profile)
    assert _coins_read(run("read", str(path), "--profile", str(profile))) != coins
