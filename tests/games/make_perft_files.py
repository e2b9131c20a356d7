"""Regenerate tests/data/coin-isolation/*.perft, cross-checking every count with the naive
enumerator first (run: .venv/bin/python -m tests.games.make_perft_files)."""

import itertools
import json
import random
from pathlib import Path

from companion.games.coin_isolation import GAME
from tests.games.naive_coin_isolation import naive_perft

DATA = Path(__file__).resolve().parents[1] / "data" / "coin-isolation"


def midgame(players, variants, seed, plies):
    rng = random.Random(seed)
    position = GAME.new_position(players, variants, seed=seed)
    for _ in range(plies):
        if GAME.is_over(position):
            break
        moves = list(itertools.islice(GAME.iter_moves(position), 200))
        position = GAME.apply(position, rng.choice(moves))
    return position


def block(rows, columns, coin, diagonal, pawn):
    squares = {f"{'abcdefgh'[f]}{r + 1}": coin for f in range(columns) for r in range(1, 1 + rows)}
    return GAME.position_from_json({
        "variants": ["diagonal"] if diagonal else [], "players": 2, "squares": squares,
        "pawns": {"1": pawn, "2": "h8"}, "taken": {"1": "", "2": ""}, "to_move": 1,
    })


CASES = {
    "standard": [
        ("start-2p-seed1", GAME.new_position(2, [], seed=1), 3),
        ("start-4p-seed3", GAME.new_position(4, [], seed=3), 3),
        ("start-3p-many-pennies", GAME.new_position(3, ["many-pennies"], seed=4), 2),
        ("midgame-2p", midgame(2, [], 5, 20), 3),
        ("block-3x3-orthogonal", block(3, 3, "P", False, "d3"), 3),
    ],
    "diagonal": [
        ("start-2p-seed2", GAME.new_position(2, ["diagonal"], seed=2), 2),
        ("block-3x3-diagonal", block(3, 3, "P", True, "d3"), 3),
        ("midgame-3p-many-many", midgame(3, ["diagonal", "many-many-pennies"], 6, 25), 2),
    ],
    "variants": [
        ("mixed-change-standing-still", midgame(2, ["mixed-change", "standing-still"], 7, 16), 2),
        ("mixed-change-2008-greedy", midgame(2, ["mixed-change-2008", "greedy"], 8, 6), 2),
        ("transplant", midgame(2, ["transplant"], 9, 12), 2),
        ("transplant-variant-variant", midgame(2, ["transplant-variant-variant"], 10, 30), 2),
        ("semi-greedy-cleanup", midgame(2, ["semi-greedy", "cleanup"], 11, 18), 2),
        ("empty-squares-renegade", midgame(3, ["empty-squares", "renegade"], 12, 24), 2),
        ("renegade-diagonal", midgame(2, ["renegade", "diagonal"], 13, 20), 2),
        ("everything", midgame(4, ["mixed-change", "transplant", "semi-greedy", "cleanup",
                                   "standing-still", "empty-squares", "renegade"], 14, 30), 1),
    ],
}


def main():
    DATA.mkdir(parents=True, exist_ok=True)
    for name, cases in CASES.items():
        lines = [f"# Coin Isolation perft ({name}); counts cross-checked with the naive enumerator"]
        for case_id, position, depth in cases:
            lines += ["", f"id {case_id}", f"position {json.dumps(position.to_json())}"]
            for level in range(1, depth + 1):
                count = GAME.perft(position, level)
                if level <= 2:
                    assert naive_perft(position, level) == count, (case_id, level)
                lines.append(f"perft {level} {count}")
                print(case_id, level, count, flush=True)
        (DATA / f"{name}.perft").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
