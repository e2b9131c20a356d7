"""A whole demo game, headless, end to end: its journal replays to the referee's final position
and scores, the summary lists the line of play the journal holds, and the screenshots show the
targets the engine names and the scores it counts."""

import json

import cv2
import numpy as np
import pygame
import pytest

from companion.demo_record import accepted_moves, write_summary
from companion.display import pieces
from companion.display.layout import compute_layout
from companion.display.pieces import score_text, target_ring
from companion.display.side_panel import score_font_size
from companion.record.replay import load_timeline

pytestmark = pytest.mark.slow


def test_a_whole_game_is_played_and_its_journal_replays_to_the_same_end(reference_game):
    out, report = reference_game
    assert report.gave_up is None
    assert report.finished, report
    timeline = load_timeline(out / "record")
    assert timeline.stopped_at is None and not timeline.problems
    assert timeline.final.to_json() == report.final_position
    assert timeline.game.is_over(timeline.final)
    assert timeline.game.scores(timeline.final) == report.scores
    assert timeline.game.result(timeline.final).text() == report.result
    assert report.moves == accepted_moves(out / "record")
    assert len(report.moves) == report.turns == len(timeline.standing)
    # Every accepted move has its frame on disk, saved after its journal line.
    frames = [step.event.frame for step in timeline.steps if step.event.kind == "move"]
    assert frames and all((out / "record" / frame).is_file() for frame in frames)


def test_the_summary_names_what_happened(reference_game, tmp_path):
    _out, report = reference_game
    write_summary(tmp_path / "summary.json", report, {"seed": 3})
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["moves"] == report.moves
    assert summary["finished"] is True
    assert summary["misreads"] == report.misreads
    assert summary["press_to_verdict_ms"]["median"] > 0


def _pixels(path):
    return cv2.cvtColor(cv2.imread(str(path), cv2.IMREAD_COLOR), cv2.COLOR_BGR2RGB)


def _count(array, colour):
    return int(np.all(array == np.array(colour, np.uint8), axis=-1).sum())


def _text_match(crop, text, size, background):
    pygame.font.init()
    template = pygame.font.Font(None, size).render(text, True, pieces.WHITE, background)
    template_rgb = pygame.surfarray.array3d(template).transpose(1, 0, 2)
    gray = cv2.cvtColor(np.ascontiguousarray(crop), cv2.COLOR_RGB2GRAY)
    template_gray = cv2.cvtColor(np.ascontiguousarray(template_rgb), cv2.COLOR_RGB2GRAY)
    return float(cv2.matchTemplate(gray, template_gray, cv2.TM_CCOEFF_NORMED).max())


def test_each_turns_screenshot_highlights_the_engines_targets_and_reads_the_scores(
        reference_game):
    out, _report = reference_game
    timeline = load_timeline(out / "record")
    game = timeline.game
    standing = timeline.standing_steps()
    checked = 0
    shots = sorted((out / "screens").glob("turn-*.png"))
    assert len(shots) >= 3
    for path in (shots[0], shots[1], shots[len(shots) // 2]):
        turn = int(path.stem.removeprefix("turn-"))
        position = standing[turn - 1].position
        array = _pixels(path)
        height, width = array.shape[:2]
        layout = compute_layout((width, height), players=2)
        targets = game.legal_targets(position) if not game.is_over(position) else frozenset()
        for name, box in layout.squares().items():
            square = array[box.y:box.bottom, box.x:box.right]
            if name in targets:
                ring, ring_width = target_ring(box)
                y = ring.y + ring_width // 2
                assert tuple(array[y, ring.center[0]]) == pieces.TARGET_COLOUR, (turn, name)
            else:
                assert _count(square, pieces.TARGET_COLOUR) == 0, (turn, name)
        scores = game.scores(position)
        size = score_font_size(layout)
        mover = game.to_move(position)
        for number, row in enumerate(layout.score_rows, 1):
            score_box = layout.score_columns(row)[1]
            crop = array[score_box.y:score_box.bottom, score_box.x:score_box.right]
            background = pieces.PANEL_HIGHLIGHT if number == mover else pieces.PANEL
            right = _text_match(crop, score_text(scores[number]), size, background)
            wrong = _text_match(crop, score_text(scores[number] + 11), size, background)
            assert right > 0.95 and right > wrong, (turn, number, right, wrong)
        checked += 1
    assert checked == 3
    final = _pixels(out / "screens" / "final.png")
    assert final.shape[:2] == (900, 1600)


def test_the_record_names_the_calibration_and_the_mat_print(reference_game):
    """The journal's header holds the profile the camera was read with and the square size
    the mat was read at (None: the mat's own), as the record contract asks."""
    from calibration.profile import VisionProfile

    out, _report = reference_game
    header = load_timeline(out / "record").header
    assert header.calibration_path is None
    assert VisionProfile.from_json(header.calibration_profile) == VisionProfile.default()
    assert header.options["square_mm"] is None
    assert header.options["camera"].startswith("sim://")
