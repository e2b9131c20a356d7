"""The review page of a demo game, opened in a real headless browser (Debian's chromium): one
board picture per move and the final position, the chart with a line per seat, nothing fetched
from outside the file, and a screenshot that shows a page, not a blank."""

import base64
import os
import shutil
import subprocess
from html.parser import HTMLParser

import cv2
import numpy as np
import pytest

from companion.cli import main
from companion.record.replay import load_timeline

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = [pytest.mark.slow,
              pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed "
                                 "(scripts/system-packages.sh installs it)")]
DEMO = ["--speed", "1000", "--plain-camera", "--camera-size", "1280x720", "--fps", "2.5"]


@pytest.fixture(scope="module")
def reviewed_demo(tmp_path_factory):
    """A short demo game of Coin Isolation, reviewed: (record folder, exit code of review)."""
    out = tmp_path_factory.mktemp("demo")
    assert main(["demo", "--headless", "--seed", "3", "--max-turns", "5", "--out", str(out),
                 *DEMO]) == 0
    record = out / "record"
    code = main(["review", str(record), "--playouts", "40", "--workers", "1"])
    return record, code


def browser(*arguments):
    result = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                             "--disable-dev-shm-usage", *arguments], capture_output=True,
                            text=True, timeout=120, env=dict(os.environ, HOME="/tmp"))
    assert result.returncode == 0, result.stderr[-2000:]
    return result.stdout


class PageParts(HTMLParser):
    """Counts what the rendered DOM holds: move rows and their pictures, the chart's lines."""

    def __init__(self):
        super().__init__()
        self.rows, self.pictures, self.lines, self.plots, self.swings = 0, [], 0, 0, 0
        self.sources = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        classes = (attributes.get("class") or "").split()
        if tag == "tr" and ("move" in classes or "final" in classes):
            self.rows += 1
        if tag == "img":
            self.pictures.append(attributes.get("src") or "")
        if tag == "svg" and "plot" in classes:
            self.plots += 1
        if tag == "polyline" and "seat-line" in classes:
            self.lines += 1
        if tag == "circle" and "swing" in classes:
            self.swings += 1
        for name in ("src", "href"):
            if name in attributes and tag != "svg":
                self.sources.append(attributes[name])


def test_the_page_shows_a_board_per_move_and_the_chart_in_a_real_browser(reviewed_demo):
    record, code = reviewed_demo
    assert code == 0
    moves = len(load_timeline(record).standing)
    parts = PageParts()
    parts.feed(browser("--dump-dom", (record / "review.html").as_uri()))
    assert parts.rows == moves + 1
    assert len(parts.pictures) == moves + 1
    assert all(src.startswith("data:image/jpeg;base64,") for src in parts.pictures)
    assert all(source.startswith("data:") for source in parts.sources)
    assert parts.plots == 1 and parts.lines == 2 and parts.swings == min(3, moves)


def test_the_screenshot_is_not_blank(reviewed_demo, tmp_path):
    record, _ = reviewed_demo
    shot = tmp_path / "page.png"
    browser(f"--screenshot={shot}", "--window-size=1000,1400", (record / "review.html").as_uri())
    image = cv2.imread(str(shot))
    assert image is not None and image.shape[:2] == (1400, 1000)
    colours = np.unique(image.reshape(-1, 3) // 16, axis=0)
    assert len(colours) > 50  # text, chart lines, boards and coins, not one flat colour
    parts = PageParts()
    parts.feed((record / "review.html").read_text())
    first = base64.b64decode(parts.pictures[0].split(",", 1)[1])
    board = cv2.imdecode(np.frombuffer(first, np.uint8), cv2.IMREAD_COLOR)
    match = cv2.matchTemplate(image, board, cv2.TM_CCOEFF_NORMED).max()
    assert match > 0.9  # the first board is on the screen as drawn, so the picture decoded


def test_game_text_holds_the_review_and_export_keeps_it(reviewed_demo, tmp_path):
    record, _ = reviewed_demo
    text = (record / "game.txt").read_text()
    moves = len(load_timeline(record).standing)
    assert text.count("{review: ") == moves and text.count("swing 1: ") == 1
    assert main(["export", str(record), "--out", str(tmp_path / "again.txt")]) == 0
    assert (tmp_path / "again.txt").read_text() == text
