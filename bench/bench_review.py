"""How long ``companion review`` takes on a 40-move game at its default settings.

Records a game of random moves of the real engine through the real journal writer (the first
seed whose game lasts ``--moves`` moves; chance outcomes by their odds), then reviews it as the
command line does (:func:`companion.review.report.write_review` with the default search time
per position and workers) and prints:

* moves reviewed, the settings, the playouts made in all;
* wall seconds, and processor seconds of this process and of the search processes (their
  ratio to wall time says how much of the two cores the review used);
* the wall seconds inside the searches and outside them (replay, board pictures, page, export);
* the page's size.

Target (issue 22): a 40-move game reviewed in under 1 minute at default settings.

    .venv/bin/python bench/bench_review.py [--game coin-isolation] [--moves 40]
        [--seconds 0.8] [--workers 2] [--playouts N]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ["SDL_AUDIODRIVER"] = "dummy"
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.analysis import SearchResult
from companion.games import Game, Position, get_game
from companion.record.journal import JournalHeader, JournalWriter
from companion.review.analyse import DEFAULT_SECONDS, default_workers, search_pool, searcher
from companion.review.report import write_review


def random_line(game: Game, seed: int, moves: int) -> tuple[Position, list[str]]:
    """A line of random play from a seeded start, at most ``moves`` long."""
    rng = random.Random(seed)
    start = position = game.new_position(2, seed=seed)
    line: list[str] = []
    while len(line) < moves and not game.is_over(position):
        if game.is_chance(position):
            outcomes = game.chance_outcomes(position)
            move = rng.choices([m for m, _ in outcomes], [float(p) for _, p in outcomes])[0]
        else:
            move = rng.choice(game.legal_moves(position))
        line.append(move.text())
        position = game.apply(position, move)
    return start, line


def record_game(game: Game, folder: Path, moves: int) -> int:
    """Record the first seeded random game that lasts ``moves`` moves (else the longest)."""
    longest = max((random_line(game, seed, moves) for seed in range(1, 60)),
                  key=lambda found: len(found[1]))
    for seed in range(1, 60):
        start, line = random_line(game, seed, moves)
        if len(line) >= moves:
            break
    else:
        start, line = longest
    position = start
    with JournalWriter.create(folder, JournalHeader.from_position(start.to_json())) as writer:
        for text in line:
            after = game.apply_text(position, text)
            writer.record_move(text, player=int(game.to_move(position)),
                               state_hash=after.state_hash(), source="bot")
            position = after
    return len(line)


def processor_seconds() -> float:
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="coin-isolation")
    parser.add_argument("--moves", type=int, default=40)
    parser.add_argument("--seconds", type=float, default=None)
    parser.add_argument("--playouts", type=int, default=None)
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    game = get_game(args.game)
    seconds = args.seconds if args.seconds or args.playouts else DEFAULT_SECONDS
    workers = args.workers or default_workers()
    with tempfile.TemporaryDirectory() as folder:
        moves = record_game(game, Path(folder), args.moves)
        searching = [0.0]
        wall, processor = time.perf_counter(), processor_seconds()
        with search_pool(workers) as pool:
            analyse = searcher(seconds, args.playouts, 1, pool, workers)

            def timed(game: Game, position: Position, share: float) -> SearchResult:
                began = time.perf_counter()
                try:
                    return analyse(game, position, share)
                finally:
                    searching[0] += time.perf_counter() - began

            files = write_review(folder, timed, "bench")
        wall, processor = time.perf_counter() - wall, processor_seconds() - processor
        size = files.page.stat().st_size
    print(f"game: {args.game}, {moves} moves recorded, {len(files.review.moves)} reviewed")
    print(f"settings: {seconds or '-'} s and {args.playouts or '-'} playouts per position, "
          f"{workers} worker(s); {files.review.playouts} playouts in all")
    print(f"wall: {wall:.1f} s (target under 60 s); processor: {processor:.1f} s, "
          f"{processor / wall:.2f} of wall")
    print(f"wall in searches: {searching[0]:.1f} s; outside them (replay, boards, page, "
          f"export): {wall - searching[0]:.1f} s")
    print(f"page: {size / 1e6:.2f} MB")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
