"""Every file the program reads from the user (a position, a ``--profile``): whatever is wrong
with the file is one line on stderr naming it, exit code 2, no traceback, nothing changed
(issue 18 items 1 and 3)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from calibration.profile import ProfileError, VisionProfile
from companion.cli import main
from contract.user_files import UserFileError, read_user_object, read_user_text

#: A file's trouble -> (how to make it, words the message must hold).
BAD_FILES = {
    "not UTF-8": (lambda path: path.write_bytes(b'{"mat": "caf\xe9"}'), "not UTF-8"),
    "UTF-16": (lambda path: path.write_text('{"players": 2}', encoding="utf-16"), "not UTF-8"),
    "a folder": (lambda path: path.mkdir(), "is a folder"),
    "missing": (lambda path: None, "does not exist"),
    "empty": (lambda path: path.write_bytes(b""), "not JSON"),
    "not JSON": (lambda path: path.write_text("players: 2"), "not JSON"),
    "NaN": (lambda path: path.write_text('{"players": NaN}'), "NaN is not a JSON number"),
    "Infinity": (lambda path: path.write_text('{"coins": -Infinity}'), "Infinity"),
    "a huge integer": (lambda path: path.write_text('{"players": ' + "9" * 5000 + "}"),
                       "number too long"),
    "deep nesting": (lambda path: path.write_text("[" * 100_000 + "]" * 100_000),
                     "too deeply"),
    "a list": (lambda path: path.write_text("[1, 2]"), "JSON object"),
    "cut short": (lambda path: path.write_text('{"to_move": "a'),
                  "not JSON: Unterminated string starting at line 1 column 13;"),
}

#: Commands that read a file the user names; FILE is replaced by the bad file.
READERS = {
    "rules show": ["rules", "show", "FILE"],
    "rules moves": ["rules", "moves", "FILE"],
    "rules apply": ["rules", "apply", "FILE", "a1"],
    "rules perft": ["rules", "perft", "FILE", "1"],
    "vision read --profile": ["vision", "read", "photo.png", "--profile", "FILE"],
    "play --profile": ["play", "--headless", "--panel", "sim://", "--profile", "FILE"],
}


def snapshot(folder: Path) -> dict[str, bytes]:
    return {str(path): path.read_bytes() for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.mark.parametrize("reader", READERS, ids=list(READERS))
@pytest.mark.parametrize("trouble", BAD_FILES, ids=list(BAD_FILES))
def test_a_bad_file_is_one_line_naming_it_and_exit_2(tmp_path, capsys, monkeypatch, reader,
                                                    trouble):
    monkeypatch.chdir(tmp_path)
    make, words = BAD_FILES[trouble]
    path = tmp_path / "input.json"
    make(path)
    before = snapshot(tmp_path)
    args = [str(path) if arg == "FILE" else arg for arg in READERS[reader]]
    assert main(args) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.count("\n") == 1, err
    assert f"'{path}'" in err and words in err
    assert "Traceback" not in err and "Error(" not in err
    assert snapshot(tmp_path) == before


def test_a_position_on_stdin_that_is_not_utf8_is_one_line_and_exit_2():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "rules", "show", "-"],
        input=b'{"players": 2, "taken": {"1": "\xff"}}', capture_output=True, timeout=60,
    )
    assert result.returncode == 2
    err = result.stderr.decode()
    assert err == ("companion rules: position on standard input is not UTF-8 text "
                   "(byte 32 is 0xff); save it as UTF-8\n")


def test_a_byte_order_mark_is_read_as_utf8(tmp_path):
    path = tmp_path / "position.json"
    path.write_bytes(b'\xef\xbb\xbf{"players": 2}')
    assert read_user_object(path, "position file") == {"players": 2}


def test_a_file_larger_than_the_limit_is_refused_without_reading_it_all(tmp_path):
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 2048)
    with pytest.raises(UserFileError, match=r"big\.json' is larger than"):
        read_user_text(path, "position file", max_bytes=1024)


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads every file")
def test_an_unreadable_file_says_permission_denied(tmp_path):
    path = tmp_path / "secret.json"
    path.write_text("{}")
    path.chmod(0)
    with pytest.raises(UserFileError, match="permission denied"):
        read_user_text(path, "position file")


# ------------------------------------------------------------------ profiles of the wrong shape

BAD_PROFILE_FIELDS = {
    "coins a string": ({"coins": "nope"}, "has 'coins' = 'nope', not a list"),
    "a coin a number": ({"coins": [5]}, "has 'coins[0]' = 5, not an object"),
    "a size a string": ({"coins": [{"kind": "P", "diameter_mm": "big", "colour": [0, 0]}]},
                        "has 'coins[0].diameter_mm' = 'big', not a number"),
    "a colour too short": ({"coins": [{"kind": "P", "diameter_mm": 19, "colour": [0]}]},
                           "1 items in 'coins[0].colour'; it must have at least 2"),
    "pawns an object": ({"pawns": {"red": [1, 0, 0]}},
                        "has 'pawns' = {'red': [1, 0, 0]}, not a list"),
    "a threshold a list": ({"metal_fade": [0.5]}, "has 'metal_fade' = [0.5], not a number"),
    "a huge threshold": ({"diameter_sigma_mm": 1e30}, "'diameter_sigma_mm' = 1e+30; it must be "
                                                      "at most 10"),
    "calibrated a string": ({"calibrated": "yes"}, "has 'calibrated' = 'yes', not true or false"),
    "square_mm too small": ({"square_mm": 1}, "'square_mm' = 1"),
    "an unknown field": ({"coin": []}, "has an unknown field 'coin'"),
}


@pytest.mark.parametrize("case", BAD_PROFILE_FIELDS, ids=list(BAD_PROFILE_FIELDS))
def test_a_profile_of_the_wrong_shape_names_the_field(tmp_path, capsys, case):
    change, words = BAD_PROFILE_FIELDS[case]
    path = tmp_path / "profile.json"
    path.write_text(json.dumps(VisionProfile.default().to_json() | change))
    with pytest.raises(ProfileError) as raised:
        VisionProfile.load(path)
    assert str(raised.value).startswith(f"profile '{path}' ") and words in str(raised.value)
    assert "TypeError" not in str(raised.value) and "KeyError" not in str(raised.value)
    assert main(["vision", "read", str(tmp_path / "photo.png"), "--profile", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"companion vision: profile '{path}' ") and words in err
    assert err.count("\n") == 1
