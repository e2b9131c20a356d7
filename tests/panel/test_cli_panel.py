"""`companion panel monitor` on the software panel, driven through a pipe as a script would."""

import re
import subprocess
import sys

import pytest


def test_monitor_prints_presses_and_sets_leds_from_stdin():
    commands = ("leds 100010\npress END2\npress CONFIRM\nleds 7\nleds 10000010\nfrobnicate\n"
                "quit\n")
    result = subprocess.run(
        [sys.executable, "-m", "companion", "panel", "monitor", "sim://"],
        input=commands,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "status connected: The panel is connected" in out
    assert "leds 100010 sent" in out
    assert "press END2 (event 1" in out and "press CONFIRM (event 2" in out
    assert re.search(r"press END2 \(event 1, boot [0-9A-F]{4}, panel clock [0-9]+ ms\)", out)
    assert "bad LED state '7'" in out
    assert "this panel has 6 LEDs: give 6 digits (TURN1..TURN4 GREEN RED), not '10000010'" in out
    assert "unknown command 'frobnicate'" in out


def test_monitor_without_a_panel_says_so_in_one_line():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "panel", "monitor", "/dev/ttyNOPANEL"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0
    assert "There is no panel at /dev/ttyNOPANEL" in result.stderr


def test_monitor_runs_for_the_given_seconds_with_no_input():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "panel", "monitor", "sim://", "--seconds", "0.3"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0
    assert "status connected" in result.stdout


def test_monitor_shows_protocol_lines_with_lines_option():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "panel", "monitor", "sim://", "--lines"],
        input="send FOO\nquit\n",
        capture_output=True,
        text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert "-> FOO*" in result.stdout
    assert "<- ERR UNKNOWN FOO*" in result.stdout


def test_monitor_shows_the_panels_answers_to_its_commands_without_lines():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "panel", "monitor", "sim://"],
        input="leds 100010\nping\nquit\n", capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert "leds 100010 applied by the panel" in result.stdout
    assert re.search(r"ping answered: the last event made is number 0 \(panel clock [0-9]+ ms\)",
                     result.stdout)
    assert " <- " not in result.stdout and " -> " not in result.stdout  # no raw lines


@pytest.mark.parametrize(("url", "words"), [
    ("/dev/null", "/dev/null is not a serial port"),
    ("", "No panel port was given"),
    ("sim://?x=1", "unknown option 'x'"),
])
def test_a_url_that_is_no_panel_gets_one_plain_sentence(url, words):
    result = subprocess.run(
        [sys.executable, "-m", "companion", "panel", "monitor", url],
        stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=30,
    )
    assert result.returncode == 2
    message = result.stderr.strip()
    assert message.count("\n") == 0 and words in message
    assert "(25," not in message and "Errno" not in message and "Traceback" not in message


def test_monitor_on_a_six_seat_panel_takes_eight_digits_and_its_buttons():
    result = subprocess.run(
        [sys.executable, "-m", "companion", "panel", "monitor", "sim://?seats=6"],
        input="leds 00000121\npress END6\npress ROLL\nquit\n", capture_output=True, text=True,
        timeout=30,
    )
    assert result.returncode == 0, result.stderr
    assert "6 seats, 11 buttons, 8 lights" in result.stdout
    assert "leds 00000121 applied by the panel" in result.stdout
    assert "press END6 (event 1" in result.stdout and "press ROLL (event 2" in result.stdout
