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
            "reported line by line on stderr, the text holds everything that could be read, and "
            "the exit status is 2."
        ),
    )
    parser.add_argument("folder", metavar="DIR", help="the game folder (holds journal.jsonl)")
    parser.add_argument("--out", metavar="FILE", help="write here instead of DIR/game.txt")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Export, report each damaged line on stderr, and say where the text went.

    Exit status 2 when the journal is damaged: the text is written all the same, with everything
    that could be read, and stderr says line by line what was skipped and why.
    """
    from companion.record.export import export_game
    from companion.record.journal import journal_path
    from companion.record.replay import damage_summary

    target, timeline = export_game(args.folder, args.out)
    for problem in timeline.problems:
        print(f"companion export: {journal_path(args.folder)} {problem}.", file=sys.stderr)
    moves = len(timeline.standing)
    if not timeline.problems:
        print(f"Wrote {target}: {moves} move(s).")
        return 0
    print(
        f"Wrote {target}: {moves} move(s), everything that could be read of a damaged journal "
        f"({damage_summary(timeline)})."
    )
    return 2
