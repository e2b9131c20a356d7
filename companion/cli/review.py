"""`companion review DIR`: analyse every move of a recorded game with the search engine and write
``DIR/review.html`` (offline page: boards, chart, the three biggest swings), ``DIR/review.json``
(the comments, for ``companion export``) and ``DIR/game.txt`` with the review's comments.

A game still in progress is reviewed up to its last move. A damaged journal is reported line by
line on stderr, what replayed is reviewed, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from companion.cli.numbers import number


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `review` subcommand."""
    parser = subparsers.add_parser(
        "review",
        help="analyse every move of a recorded game and write an HTML review",
        description=(
            "Replay a game folder's journal, search every position of the line of play, and "
            "write DIR/review.html (viewable offline: the board before each move, the move "
            "played and the engine's choice, each player's win chance over the game, the three "
            "biggest swings), DIR/review.json and DIR/game.txt with the same comments (a later "
            "`companion export` keeps them). A roll's swing is luck, not a mistake; with hidden "
            "hands the engine chooses over what was known."
        ),
    )
    parser.add_argument("folder", metavar="DIR", help="the game folder (holds journal.jsonl)")
    parser.add_argument("--out", metavar="FILE", help="write the page here, not DIR/review.html")
    parser.add_argument("--seconds", type=number("--seconds", 0, 600, above=True), default=None,
                        metavar="S", help="search time per position (default 0.8 s, or none "
                        "when --playouts is given)")
    parser.add_argument("--playouts", type=number("--playouts", 1, integer=True), default=None,
                        metavar="N", help="playouts per position (reproducible with --seed)")
    parser.add_argument("--workers", type=number("--workers", 1, 64, integer=True), default=None,
                        metavar="N", help="search processes (default: 2, or 1 on one core)")
    parser.add_argument("--seed", type=number("--seed", 0, integer=True), default=1,
                        help="the search's seed (default 1)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Review the game, report damage and timing, and say where the files went."""
    from companion.record.journal import journal_path
    from companion.record.replay import damage_summary
    from companion.review.analyse import DEFAULT_SECONDS, default_workers, search_pool, searcher
    from companion.review.report import write_review

    seconds = args.seconds if args.seconds is not None or args.playouts else DEFAULT_SECONDS
    workers = int(args.workers or default_workers())
    limit = f"{seconds:g} s" if seconds else ""
    if args.playouts:
        limit += f"{' or ' if limit else ''}{int(args.playouts)} playouts"
    settings = f"{limit} per position, {workers} worker(s), seed {int(args.seed)}"
    wall, processor = time.perf_counter(), processor_seconds()
    with search_pool(workers) as pool:
        analyse = searcher(seconds, None if args.playouts is None else int(args.playouts),
                           int(args.seed), pool, workers)
        files = write_review(args.folder, analyse, settings, args.out, _progress)
    wall, processor = time.perf_counter() - wall, processor_seconds() - processor
    timeline = files.timeline
    for problem in timeline.problems:
        print(f"companion review: {journal_path(args.folder)} {problem}.", file=sys.stderr)
    state = "finished" if files.review.finished else "in progress"
    print(f"\nReviewed {len(files.review.moves)} move(s) of a game {state} in {wall:.1f} s "
          f"({processor:.1f} s of processor time, search processes included; {settings}).")
    print(f"Wrote {files.page}, {files.text} and {files.comments}.")
    warning = files.review.rough()
    if warning:
        print(f"companion review: {warning}", file=sys.stderr)
    if not timeline.problems:
        return 0
    print(f"companion review: {journal_path(args.folder)} is damaged ({damage_summary(timeline)}"
          "); the review covers everything that could be read.", file=sys.stderr)
    return 2


def processor_seconds() -> float:
    """Processor time of this process and of its finished children (the search processes,
    counted once the pool is shut down)."""
    times = os.times()
    return times.user + times.system + times.children_user + times.children_system


def _progress(done: int, total: int) -> None:
    """A dot per move reviewed, on stderr, so a long review shows it is working."""
    print("." if done < total else ".\n", end="", file=sys.stderr, flush=True)
