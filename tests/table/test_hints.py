"""Hints at the table (issue 22, item 3): HINT shows the suggested move's path and each seat's
win chance on the real screen, records a ``hint`` (never a move) that replay and export show
without applying, counts each seat's hints, and says in one sentence when they have run out.
The search here is a stand-in run in the table's real search process (the engine's own test is
``test_hint_search.py``)."""

import itertools
import math

import cv2
import numpy as np
import pytest

from companion.display import pieces
from companion.display.layout import compute_layout
from companion.display.screen import save_screenshot
from companion.hints import HintError, HintPolicy, TableHints
from companion.record.export import export_game
from companion.record.journal import journal_path, read_journal
from companion.record.replay import load_timeline
from tests.table.helpers import GAME, SimTable, single_square_move
from tests.table.hint_searchers import broken, longest_path


def hinted_table(tmp_path, policy, searcher=longest_path, seed=4):
    position = GAME.new_position(2, (), seed=seed)
    table = SimTable(tmp_path, position)
    table.parts.hints = TableHints(GAME, policy, {1: "Player 1", 2: "Player 2"},
                                   searcher=searcher)
    return table, position


def message(table):
    return table.table.snapshot.message.text


def hinted(table):
    path = table.table.snapshot.path
    return path is not None and path.label.startswith("Hint:")


@pytest.mark.parametrize(("words", "policy"), [
    (["off"], HintPolicy("off")), (["on"], HintPolicy("on")),
    (["limited", "3"], HintPolicy("limited", 3)),
])
def test_hint_settings_are_read(words, policy):
    assert HintPolicy.parse(words) == policy


@pytest.mark.parametrize("words", [["maybe"], ["limited"], ["limited", "0"], ["on", "2"], []])
def test_a_bad_hint_setting_is_one_sentence(words):
    with pytest.raises(HintError, match="is not a hint setting; use off, on, or limited N"):
        HintPolicy.parse(words)


def test_a_hint_shows_its_path_and_win_chances_and_is_recorded_as_a_hint_not_a_move(tmp_path):
    table, position = hinted_table(tmp_path, HintPolicy("limited", 2))
    try:
        table.press("HINT")
        table.wait(lambda: hinted(table), timeout=60)
        snapshot = table.table.snapshot
        expected = longest_path(GAME.name, position.to_json(), 1.0, 0).best
        assert snapshot.path.squares == GAME.parse_move(expected).regions()
        assert f"Hint for Player 1: {expected}" in message(table)
        assert "Player 1 60%, Player 2 40%" in message(table)
        assert "1 hint left." in message(table)
        assert "Hints used: Player 1 1 of 2, Player 2 0 of 2" in snapshot.facts
        png = save_screenshot(snapshot, tmp_path / "hint.png")
        assert_path_drawn(png, snapshot)
        last = read_journal(journal_path(tmp_path / "record")).events[-1]
        assert (last.kind, last.player, last.suggested) == ("hint", 1, expected)
        assert dict(last.win_chance) == {"1": 0.6, "2": 0.4} and last.move is None
        assert table.referee.position == position  # nothing was played
        # The player plays another move: the hint leaves the screen; the move is recorded.
        move = single_square_move(position)
        table.board.hand(True)
        table.board.lay_out(GAME.layout(GAME.apply(position, move)))
        table.board.hand(False)
        table.submit_until("END1", "green")
        table.wait(lambda: not hinted(table))
        assert "Hints used: Player 1 1 of 2" in " ".join(table.table.snapshot.facts)
    finally:
        table.close()
    timeline = load_timeline(tmp_path / "record")
    assert timeline.positions[-1] == GAME.apply(position, move)
    kinds = [step.event.kind for step in timeline.steps]
    assert [kind for kind in kinds if kind != "ruling"] == ["hint", "move"]  # rulings: misreads
    text_path, _ = export_game(tmp_path / "record")
    text = text_path.read_text()
    assert f"hint for player 1: {expected} (win chance: 1 60%, 2 40%)" in text


def test_limited_hints_run_out_with_one_sentence(tmp_path):
    table, _ = hinted_table(tmp_path, HintPolicy("limited", 1))
    try:
        table.press("HINT")
        table.wait(lambda: hinted(table), timeout=60)
        assert "No hints left." in message(table)
        table.press("HINT")
        table.wait(lambda: "Player 1 has used their one hint." in message(table))
        table.press("HINT")  # said once, not twice
        table.press("END2")  # a wrong button, so something else happens after the presses
        table.wait(lambda: "only their button ends it" in message(table))
        assert message(table).count("used their one hint") <= 1
        events = read_journal(journal_path(tmp_path / "record")).events
        assert [event.kind for event in events] == ["hint"]
    finally:
        table.close()


def test_a_search_that_fails_is_said_and_nothing_is_recorded(tmp_path):
    table, _ = hinted_table(tmp_path, HintPolicy("on"), searcher=broken)
    try:
        table.press("HINT")
        table.wait(lambda: "No hint this time: the engine broke." in message(table), timeout=60)
        assert read_journal(journal_path(tmp_path / "record")).events == ()
    finally:
        table.close()


def assert_path_drawn(png, snapshot):
    """The saved screen shows the path's yellow on every hinted square, and none on squares
    far from it."""
    image = cv2.imread(str(png))
    layout = compute_layout((image.shape[1], image.shape[0]), snapshot.files, snapshot.ranks,
                            len(snapshot.players))
    yellow = np.all(image == np.array(pieces.PATH_COLOUR[::-1], np.uint8), axis=-1)
    squares = layout.squares()
    centres = [squares[name].center for name in snapshot.path.squares]
    for name, box in squares.items():
        count = int(yellow[box.y:box.bottom, box.x:box.right].sum())
        if name in snapshot.path.squares:
            assert count > 20, f"{name} is on the hinted path but shows no path"
        elif _distance(box.center, centres) > layout.cell * 1.5:
            assert count == 0, f"{name} is off the hinted path but shows path colour"


def _distance(point, line):
    if len(line) == 1:
        return math.dist(point, line[0])
    return min(_segment_distance(point, a, b) for a, b in itertools.pairwise(line))


def _segment_distance(point, a, b):
    ax, ay = a
    dx, dy = b[0] - ax, b[1] - ay
    length = dx * dx + dy * dy
    t = 0.0 if not length else max(0.0, min(1.0, ((point[0] - ax) * dx + (point[1] - ay) * dy)
                                             / length))
    return math.dist(point, (ax + t * dx, ay + t * dy))


def test_at_a_roll_the_dice_decide_and_no_search_is_started():
    from companion.games import get_game
    from companion.referee import Referee
    from companion.screen_view import snapshot_of
    from tests.games.coin_grid.helpers import grid

    game = get_game("coin-grid")
    position = grid({"a1": "S1", "b1": "S1", "c12": "N1", "d12": "N1"})
    referee = Referee(game, position, position=position)
    hints = TableHints(game, HintPolicy("on"), {1: "South", 2: "North"}, searcher=broken)
    delivered = []
    assert hints.press(referee, "panel", delivered.append) == []
    view = referee.view()
    shown = hints.overlay(snapshot_of(view, (), game=game.name), view)
    assert shown.message.text.endswith("The dice decide now; ask for a hint once they are "
                                       "rolled.")
    assert hints.thinking is None and delivered == []
    assert "Hints used: South 0, North 0" in shown.facts


def test_a_hint_to_roll_is_shown_and_recorded_as_roll_not_as_a_face():
    from companion.analysis.rolls import folded_rolls
    from companion.games import get_game
    from companion.hints import HintReady, SearchAnswer
    from companion.referee import Record, Referee
    from companion.screen_view import snapshot_of
    from tests.analysis.test_folded_rolls import stack_or_roll

    game = get_game("coin-grid")
    position = stack_or_roll(3)
    face = folded_rolls(game, position)[0][0].text()
    referee = Referee(game, position, position=position)
    hints = TableHints(game, HintPolicy("on"), {1: "South", 2: "North"}, searcher=broken)
    event = HintReady(game.to_move(position), position.state_hash(), 0.0,
                      answer=SearchAnswer(face, {1: 0.5, 2: 0.5}, 10, 0.1, "roll"))
    try:  # a double stack or a roll is the mover's choice: a hint may be asked for
        assert hints.press(referee, "panel", lambda ready: None) == []
        assert hints.thinking is not None
    finally:
        hints.close()
    [record] = hints.ready(event, referee)
    assert isinstance(record, Record) and record.fields["suggested"] == "roll"
    view = referee.view()
    shown = hints.overlay(snapshot_of(view, (), game=game.name), view)
    assert shown.path.label == "Hint: roll" and face not in shown.message.text


def test_the_keyboards_h_is_the_panels_hint_button():
    import pygame

    from companion.display.screen import DEFAULT_KEY_BUTTONS

    assert DEFAULT_KEY_BUTTONS[pygame.K_h] == "HINT"
