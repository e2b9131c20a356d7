"""Move generation that never runs away (issue 18, item 10): transplant placements come in groups
that are counted without being built, duplicates are found without remembering positions, and
`rules moves` prints one JSON object a line as the moves are found."""

import json
import random
import subprocess
import sys
import tracemalloc
from itertools import combinations, islice
from pathlib import Path

import pytest

from bench.bench_moves import OPEN_BOARD
from companion.cli import main
from companion.games.coin_isolation import GAME, CoinIsolationMove
from companion.games.coin_isolation import choices as choices_module
from companion.games.coin_isolation.choices import receiving_squares, source_options
from companion.games.coin_isolation.choices import take_and_collect as collect
from companion.games.coin_isolation.rules import TRANSPLANTS, count_moves, play
from companion.games.coin_isolation.search import outcomes, path_classes, start_squares

OPEN_MOVES = 792_664


def reference_children(position, budget=20_000):
    """The old way: every path, every choice, every placement applied, positions compared; None
    when that would apply more than ``budget`` moves."""
    moves = list(_stay_and_pawn_moves(position))
    starts = start_squares(position, position.to_move)
    diagonal = "diagonal" in position.variant_set
    if position.to_move not in position.renegades:
        for path_class in path_classes(position, with_empty=False):
            for steps in outcomes(starts, path_class.allowed, diagonal):
                moves.extend(islice(_every_choice(position, path_class.coin, steps), budget + 1))
                if len(moves) > budget:
                    return None
    return {play(position, move).canonical_json() for move in moves}


def _stay_and_pawn_moves(position):
    """The moves the new code did not change, taken from the engine itself."""
    for move in GAME.iter_moves(position):
        if move.kind == "pass":
            continue
        if move.kind != "path" or move.renegade or position.to_move in position.renegades:
            yield move
        elif not position.squares[move.steps[0]] and move.coin is None:
            yield move  # a path over empty squares


def _every_choice(position, coin, steps):
    mixed = bool(position.variant_set & {"mixed-change", "mixed-change-2008"})
    count = position.squares[steps[-1]].count(coin)
    takes = range(count + 1) if "semi-greedy" in position.variant_set else [None]
    for source in source_options(position):
        for take in takes:
            move = CoinIsolationMove(steps=steps, coin=coin if mixed else None,
                                     source_coins=source, take=take)
            if not position.variant_set & TRANSPLANTS:
                yield move
                continue
            squares, collected, _ = collect(position, coin, steps, take)
            spots = receiving_squares(position, squares, steps[-1])
            for placements in combinations(spots, len(collected)):
                yield CoinIsolationMove(steps=steps, coin=move.coin, source_coins=source,
                                        take=take, placements=placements)


VARIANT_SETS = [
    ["transplant"], ["transplant-variant-variant"], ["transplant", "diagonal"],
    ["transplant", "greedy"], ["transplant", "semi-greedy"], ["transplant", "cleanup"],
    ["transplant-variant-variant", "semi-greedy", "cleanup"], ["transplant", "mixed-change"],
    ["transplant-variant-variant", "mixed-change-2008", "semi-greedy"],
    ["transplant", "mixed-change", "semi-greedy", "cleanup", "standing-still"],
    ["transplant", "empty-squares", "renegade"], ["mixed-change", "semi-greedy"],
    ["mixed-change-2008", "semi-greedy", "cleanup"], ["semi-greedy", "greedy"],
]  # fmt: skip


def random_position(variants, seed):
    """A position with few paths: a region of pennies, nickels and dimes (stacks under mixed
    change) in a board whose other coins never touch one of their kind, and empty squares."""
    rng = random.Random(seed)
    mixed = bool(set(variants) & {"mixed-change", "mixed-change-2008"})
    names = [f"{file}{rank}" for file in "abcdefgh" for rank in range(1, 9)]
    region = [rng.choice(names)]
    size = rng.randint(10, 14)
    while len(region) < size:  # a blob grown from one square, so that paths are long
        grow = rng.choice(region)
        file, rank = "abcdefgh".index(grow[0]), int(grow[1])
        file = min(7, max(0, file + rng.choice([-1, 0, 1])))
        rank = min(8, max(1, rank + rng.choice([-1, 0, 1])))
        name = f"{'abcdefgh'[file]}{rank}"
        if name not in region:
            region.append(name)
    squares = {}
    for name in region[2:]:
        height = rng.choice([1, 1, 1, 2, 3])
        coins = "".join(rng.choice("PPNND") for _ in range(height))
        squares[name] = coins if mixed else coins[0] * height
    empty = [name for name in names if name not in squares and name not in region[:2]]
    rng.shuffle(empty)
    for name in empty[rng.randint(4, 9):]:
        if sum(map(len, squares.values())) < 64:  # a set holds 64 coins
            file, rank = "abcdefgh".index(name[0]), int(name[1]) - 1
            squares[name] = "QDNP"[file % 2 + 2 * (rank % 2)]  # no two alike side by side
    data = {"game": "coin-isolation", "variants": variants, "players": 2,
            "squares": squares, "pawns": {"1": region[0], "2": region[1]},
            "taken": {"1": "", "2": ""}}
    if rng.random() < 0.3:
        data["pawns"]["1"] = None
    return GAME.position_from_json(data)


@pytest.mark.parametrize("variants", VARIANT_SETS, ids=["+".join(v) for v in VARIANT_SETS])
def test_moves_are_the_distinct_outcomes_of_every_choice(variants):
    checked = 0
    for seed in range(25):
        position = random_position(variants, seed)
        expected = reference_children(position)
        if expected is None:
            continue
        moves = list(GAME.iter_moves(position))
        real = [move for move in moves if move.kind != "pass"]
        outcomes_seen = [play(position, move).canonical_json() for move in real]
        assert len(set(outcomes_seen)) == len(outcomes_seen), (variants, seed)
        assert set(outcomes_seen) == set(expected), (variants, seed)
        assert count_moves(position) == len(moves) == GAME.perft(position, 1)
        checked += 1
    assert checked >= 10


def open_board():
    return GAME.position_from_json(OPEN_BOARD)


def test_transplant_moves_are_counted_without_being_built(monkeypatch):
    def refuse(self):
        raise AssertionError("a placement group was built to be counted")

    monkeypatch.setattr(choices_module.PlacementGroup, "moves", refuse)
    assert GAME.perft(open_board(), 1) == OPEN_MOVES


def test_listing_every_move_holds_no_outcomes():
    position = open_board()
    tracemalloc.start()
    try:
        count = sum(1 for _ in GAME.iter_moves(position))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert count == OPEN_MOVES
    assert peak < 5_000_000  # the old generator kept every resulting position: over 500 MB


def test_rules_moves_prints_one_object_a_line(tmp_path, capsys):
    path = tmp_path / "position.json"
    path.write_text(json.dumps({"game": "coin-isolation", "variants": ["transplant"],
                                "players": 2, "squares": {"a1": "P", "a2": "P", "a3": "P"},
                                "pawns": {"1": None, "2": None},
                                "taken": {"1": "", "2": ""}}))
    assert main(["rules", "moves", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    moves = [json.loads(line) for line in lines]
    assert all(isinstance(move, dict) and set(move) == {"text", "path"} for move in moves)
    expected = [move.text() for move in GAME.iter_moves(GAME.position_from_json(
        json.loads(path.read_text())))]
    assert [move["text"] for move in moves] == expected


def test_rules_moves_starts_printing_at_once_on_an_open_transplant_board(tmp_path):
    path = tmp_path / "open.json"
    path.write_text(json.dumps(OPEN_BOARD))
    process = subprocess.Popen([sys.executable, "-m", "companion", "rules", "moves", str(path)],
                               stdout=subprocess.PIPE, text=True,
                               cwd=Path(__file__).resolve().parents[2])
    try:
        assert process.stdout is not None
        first = [json.loads(line) for line in islice(process.stdout, 1000)]
    finally:
        process.kill()
        process.wait()
    assert len(first) == 1000 and all("text" in move for move in first)
