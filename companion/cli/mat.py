"""`companion mat`: write a printable mat (PDF at exact scale, or a 300 dpi PNG)."""

from __future__ import annotations

import argparse

from companion.cli.numbers import number


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `mat` subcommand."""
    parser = subparsers.add_parser(
        "mat",
        help="write a printable board mat (PDF at exact scale, or PNG)",
        description=(
            "Write a game's mat with its four ArUco markers. A .pdf is drawn at exact physical "
            "scale, on one large page or tiled over A4 or Letter pages with cut and alignment "
            "marks; a .png is a 300 dpi image. Print at 100 % and check the 100 mm ruler. "
            "calibration/MATS.md describes the geometry."
        ),
    )
    parser.add_argument("--game", default="coin-isolation",
                        help="which game's mat (coin-isolation, coin-grid, shakala, test-pits, "
                             "test-ring)")
    parser.add_argument("--out", required=True, help="output file, ending in .pdf or .png")
    parser.add_argument("--square-mm", type=number("--square-mm", 10, 200), default=None,
                        help="side of a square in mm, 27 to 200 (default 50), for "
                             "coin-isolation and coin-grid")
    parser.add_argument("--paper", choices=("large", "a4", "letter"), default="large",
                        help="PDF paper: one page the size of the mat, or tiles over A4/Letter")
    parser.add_argument("--dpi", type=number("--dpi", 50, 1200), default=300.0,
                        help="PNG resolution, 50 to 1200 (default 300)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the geometry, write the file, say what was written."""
    from pathlib import Path

    from calibration.geometry import mat_for_game
    from calibration.printing import write_mat

    geometry = mat_for_game(args.game, square_mm=args.square_mm)
    print(write_mat(geometry, Path(args.out), paper=args.paper, dpi=args.dpi))
    return 0
