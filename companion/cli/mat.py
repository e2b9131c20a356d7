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
                        help="which game's mat (coin-isolation, coin-grid, jokers-and-coins, "
                             "shakala, test-pits, test-ring)")
    parser.add_argument("--out", required=True, help="output file, ending in .pdf or .png")
    parser.add_argument("--square-mm", type=number("--square-mm", 10, 200), default=None,
                        help="side of a square in mm, 27 to 200 (default 50), for "
                             "coin-isolation and coin-grid")
    parser.add_argument("--players", type=int, choices=range(2, 7), default=None,
                        metavar="N", help="seats, 2 to 6 (default 4), for jokers-and-coins")
    parser.add_argument("--variants", default="",
                        help="comma-separated ring variants for jokers-and-coins: side-L, "
                             "in-K, start-K (see `companion rules`)")
    parser.add_argument("--paper", choices=("large", "a4", "letter"), default="large",
                        help="PDF paper: one page the size of the mat, or tiles over A4/Letter")
    parser.add_argument("--dpi", type=number("--dpi", 50, 1200), default=300.0,
                        help="PNG resolution, 50 to 1200 (default 300)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Build the geometry, write the file, say what was written."""
    from pathlib import Path

    from calibration.geometry import SEATED_MATS, GeometryError, mat_for_game
    from calibration.printing import write_mat

    variants = tuple(name for name in args.variants.split(",") if name)
    if variants and args.game not in SEATED_MATS:
        raise GeometryError(f"mat {args.game!r} has no variants to set")
    geometry = mat_for_game(args.game, square_mm=args.square_mm, players=args.players,
                            variants=variants)
    print(write_mat(geometry, Path(args.out), paper=args.paper, dpi=args.dpi))
    return 0
