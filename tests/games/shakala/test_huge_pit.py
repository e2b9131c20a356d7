"""A pit of many mixed beads can be sown in millions of distinct ways: its moves are made one at
a time, so `rules moves` streams the first ones at once instead of building every split first."""

import json
import queue
import subprocess
import sys
import threading

from companion.games.shakala import GAME
from companion.games.shakala.rules import CACHED_SPLIT_BEADS


def huge_pit_position():
    """South's pit A holds 24 beads of every kind; North keeps a gem and a stone in a."""
    data = GAME.new_position(2).to_json()
    gems = sorted(gem for pit in data["pits"].values() for gem in pit["gems"])
    for pit in data["pits"].values():
        pit["stones"], pit["gems"] = 0, []
    data["pits"]["A"] = {"stones": 14, "gems": gems[:10]}
    data["pits"]["a"] = {"stones": 2, "gems": gems[10:]}
    return GAME.position_from_json(data)


def test_rules_moves_streams_a_huge_pit_without_building_every_split(tmp_path):
    path = tmp_path / "huge.json"
    path.write_text(huge_pit_position().canonical_json())
    process = subprocess.Popen([sys.executable, "-m", "companion", "rules", "moves", str(path)],
                               stdout=subprocess.PIPE, text=True)
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line)

    threading.Thread(target=read, daemon=True).start()
    try:
        # Generous for a loaded machine; building every split first takes far longer.
        first = [json.loads(lines.get(timeout=60))["text"] for _ in range(100)]
    finally:
        process.kill()
        process.wait(timeout=30)
    position = huge_pit_position()
    assert len(position.pits[0]) > CACHED_SPLIT_BEADS
    moves = [GAME.parse_move(text) for text in first]
    assert [move.text() for move in moves] == first
    results = {GAME.apply(position, move).canonical_json() for move in moves}
    assert len(results) == 100  # one move per distinct resulting position
