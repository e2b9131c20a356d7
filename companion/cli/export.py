"""`companion export DIR`: write a game folder's record as ``game.txt`` (PGN-like text)."""

from __future__ import annotations

import argparse
import sys


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `export` subcommand."""
    parser = subparsers.add_parser(
        "export",
        help="write a recorded game as text (tag pairs, numbered moves, comments)",
        description=(
            "Replay the journal of a game folder and write DIR/game.txt. A damaged journal is "
            "reported line by line on stderr, and the text covers what is intact."
        ),
    )
    parser.add_argument("folder", metavar="DIR", help="the game folder (holds journal.jsonl)")
    parser.add_argument("--out", metavar="FILE", help="write here instead of DIR/game.txt")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Export, report each damaged line on stderr, and say where the text went."""
    from companion.record.export import export_game
    from companion.record.journal import journal_path

    target, timeline = export_game(args.folder, args.out)
    for problem in timeline.problems:
        print(f"companion export: {journal_path(args.folder)} {problem}", file=sys.stderr)
    moves = len(timeline.standing)
    intact = "" if not timeline.problems else " (from the intact part of a damaged journal)"
    print(f"Wrote {target}: {moves} move(s){intact}.")
    return 0
