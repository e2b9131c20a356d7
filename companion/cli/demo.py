"""`companion demo`: a whole game on the simulated table."""

from __future__ import annotations

import argparse
from pathlib import Path


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `demo` subcommand."""
    parser = subparsers.add_parser(
        "demo",
        help="play a whole game on a simulated table (camera, panel and players simulated)",
        description="Bots play a whole game on a synthetic table: the synthetic camera renders "
        "the board, the software panel presses the buttons, and the real referee, vision, "
        "screen and game record do the rest. Sloppy moves show the reject path.",
    )
    parser.add_argument("--game", default="coin-isolation", help="game to play")
    parser.add_argument("--players", type=int, default=2, help="2 to 4 players")
    parser.add_argument("--variants", default="", help="comma-separated variants, e.g. diagonal")
    parser.add_argument("--seed", type=int, default=1, help="seed of the board, bots and camera")
    parser.add_argument("--bots", default="greedy,random", help="bot per seat: random or greedy")
    parser.add_argument("--speed", type=float, default=1.0, help="pace of the bots (2 = twice)")
    parser.add_argument("--sloppy", type=float, default=0.15,
                        help="share of moves made sloppily (then put right)")
    parser.add_argument("--max-turns", type=int, default=None, help="stop after this many turns")
    parser.add_argument("--headless", action="store_true",
                        help="no window: save a screenshot per turn (default when no display)")
    parser.add_argument("--out", type=Path, default=Path("demo-output"),
                        help="folder for the game record, screenshots and summary")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the demo game and say where its record and screenshots went."""
    from companion.demo import BOTS, DemoOptions, run_demo, write_summary
    from companion.errors import CompanionError
    from companion.launch import GameOptions, has_display

    bots = tuple(name.strip() for name in args.bots.split(",") if name.strip())
    unknown = [bot for bot in bots if bot not in BOTS]
    if unknown or not bots:
        raise CompanionError(f"unknown bot {unknown[0] if unknown else ''!r}; use random or greedy")
    if not 2 <= args.players <= 4:
        raise CompanionError(f"--players {args.players} is not allowed; give 2 to 4 players")
    variants = tuple(name.strip() for name in args.variants.split(",") if name.strip())
    headless = args.headless or not has_display()
    out = args.out
    if (out / "record" / "journal.jsonl").exists():
        raise CompanionError(f"{out} already holds a demo game; remove it or give --out NEW_FOLDER")
    game = GameOptions(args.game, args.players, variants, args.seed)
    options = DemoOptions(bots=bots, seed=args.seed, sloppy_rate=args.sloppy, speed=args.speed,
                          max_turns=args.max_turns)
    mode = "headless" if headless else "in a window"
    print(f"Demo: {args.game}, {args.players} players, variants {', '.join(variants) or 'none'}, "
          f"seed {args.seed}, {mode}.", flush=True)
    report = run_demo(game, options, out, headless)
    write_summary(out / "summary.json", report,
                  {"game": args.game, "players": args.players, "variants": list(variants),
                   "seed": args.seed})
    print(f"{report.turns} turns, {report.rejects} rejected and put right, "
          f"{report.asks} asked; result: {report.result or 'not finished'}.")
    print(f"Game record: {out / 'record'} (export it with `companion export {out / 'record'}`)")
    if headless:
        print(f"Screenshots: {out / 'screens'}")
    print(f"Summary: {out / 'summary.json'}")
    return 0 if report.finished or args.max_turns is not None else 1
