"""Vision profiles: physical defaults, JSON round trip, clear errors."""

from __future__ import annotations

import json

import pytest

from calibration.profile import ProfileError, VisionProfile


def test_default_has_true_us_diameters_and_metals():
    profile = VisionProfile.default()
    sizes = {look.kind: look.diameter_mm for look in profile.coins}
    assert sizes == {"D": 17.91, "P": 19.05, "N": 21.21, "Q": 24.26, "S": 26.49}
    copper = profile.coin("P").colour
    silver = profile.coin("N").colour
    assert copper[0] > silver[0] + 0.2  # copper reflects red far more than silver
    assert profile.coin("D").colour == profile.coin("Q").colour
    assert {pawn.name for pawn in profile.pawns} >= {"red", "blue", "green", "yellow"}


def test_json_round_trip(tmp_path):
    profile = VisionProfile.default().only_kinds("PNDQ")
    path = tmp_path / "profile.json"
    profile.save(path)
    assert VisionProfile.load(path) == profile
    assert eval(repr(profile), vars(__import__("calibration.profile", fromlist=["*"]))) == profile


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "not JSON"),
        ("[]", "JSON object"),
        ('{"version": 99, "coins": [], "pawns": []}', "version 99"),
        ('{"coins": [], "pawns": []}', "0 items in 'coins'; it must have at least 1"),
        ('{"coins": [{"kind": "X", "diameter_mm": 20, "colour": [0, 0]}], "pawns": []}',
         r"'coins\[0\].kind' = 'X'; allowed: P, N, D, Q, S"),
        ('{"coins": [{"kind": "P"}], "pawns": []}', r"no 'diameter_mm' in 'coins\[0\]'"),
    ],
)
def test_bad_profiles_raise_clear_errors(tmp_path, text, words):
    path = tmp_path / "profile.json"
    path.write_text(text)
    with pytest.raises(ProfileError, match=words):
        VisionProfile.load(path)


def test_missing_profile_names_the_file(tmp_path):
    with pytest.raises(ProfileError, match=r"nowhere\.json"):
        VisionProfile.load(tmp_path / "nowhere.json")


def test_negative_threshold_is_refused():
    data = VisionProfile.default().to_json()
    data["diameter_sigma_mm"] = -1
    with pytest.raises(ProfileError, match="diameter_sigma_mm"):
        VisionProfile.from_json(json.loads(json.dumps(data)))


def test_the_mat_a_profile_was_calibrated_on_sets_the_square_size(tmp_path):
    from dataclasses import replace

    from calibration.profile import square_mm_for

    plain = VisionProfile.default()
    made_on_small = replace(plain, mat="coin-isolation", square_mm=45.0)
    path = tmp_path / "profile.json"
    made_on_small.save(path)
    assert VisionProfile.load(path) == made_on_small
    assert square_mm_for("coin-isolation", None, made_on_small) == 45.0
    assert square_mm_for("coin-isolation", 40.0, made_on_small) == 40.0
    assert square_mm_for("test-pits", None, made_on_small) is None
    assert square_mm_for("coin-isolation", None, plain) is None
