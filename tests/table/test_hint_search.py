"""A hint from the real search engine (companion.analysis) at the simulated table: the search
runs in the table's search process, and its legal move, path and win chances reach the screen
and the journal. The latency target (2 s) is measured by bench/bench_hints.py."""

from companion.hints import HintPolicy, TableHints
from companion.record.journal import journal_path, read_journal
from tests.table.helpers import GAME, SimTable


def test_the_engines_hint_is_a_legal_move_with_win_chances_that_sum_to_one(tmp_path):
    position = GAME.new_position(2, (), seed=6)
    table = SimTable(tmp_path, position)
    hints = TableHints(GAME, HintPolicy("on"), {1: "Player 1", 2: "Player 2"}, seconds=0.5)
    table.parts.hints = hints
    hints.start()
    try:
        table.press("HINT")
        table.wait(lambda: table.table.snapshot.path is not None, timeout=60)
        shown = table.table.snapshot
        event = read_journal(journal_path(tmp_path / "record")).events[-1]
    finally:
        table.close()
    assert event.kind == "hint"
    assert event.suggested in {move.text() for move in GAME.legal_moves(position)}
    assert shown.path.squares == GAME.parse_move(event.suggested).regions()
    assert abs(sum(chance for _, chance in event.win_chance) - 1.0) < 0.01
    assert f"Hint for Player 1: {event.suggested}" in shown.message.text
    assert len(hints.latencies) == 1 and hints.latencies[0] > 0.5
