"""`companion demo`: a whole game on the simulated table."""

from __future__ import annotations

import argparse
from pathlib import Path

from companion.cli import players_help


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
    parser.add_argument("--players", type=int, default=2, help=players_help())
    parser.add_argument("--variants", default="", help="comma-separated variants, e.g. diagonal")
    parser.add_argument("--seed", type=int, default=1, help="seed of the board, bots and camera")
    parser.add_argument("--bots", default="greedy,random", help="bot per seat: random or greedy")
    parser.add_argument("--speed", type=float, default=1.0, help="pace of the bots (2 = twice)")
    parser.add_argument("--sloppy", type=float, default=0.15,
                        help="share of moves made sloppily (then put right)")
    parser.add_argument("--max-turns", type=int, default=None, help="stop after this many turns")
    parser.add_argument("--headless", action="store_true",
                        help="no window: save a screenshot per turn (default when no display)")
    parser.add_argument("--out", type=Path, default=None,
                        help="folder for the game record, screenshots and summary "
                        "(default: a new folder demo-output/DATE-TIME)")
    parser.add_argument("--resume", type=Path, default=None, metavar="DIR",
                        help="carry on the demo game in DIR (an --out folder) after a crash: the "
                        "board is laid out as its journal ends, the bots play on as before")
    parser.add_argument("--fps", type=float, default=10.0,
                        help="frames per second of the synthetic camera's clock (table time)")
    parser.add_argument("--plain-camera", action="store_true",
                        help="a straight, evenly lit synthetic camera instead of a tilted one")
    parser.add_argument("--camera-size", default="1920x1080", metavar="WxH",
                        help="picture size of the synthetic camera (smaller renders faster)")
    parser.add_argument("--ack", action="store_true",
                        help="print an ACK line per verdict once the panel shows it, with the "
                        "journal event it follows (for crash tests)")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Play the demo game and say where its record and screenshots went."""
    from companion.demo import BOTS, DemoOptions, resumed_options, run_demo, write_summary
    from companion.launch import GameOptions, check_players, has_display
    from contract.errors import CompanionError

    bots = tuple(name.strip() for name in args.bots.split(",") if name.strip())
    unknown = [bot for bot in bots if bot not in BOTS]
    if unknown or not bots:
        raise CompanionError(f"unknown bot {unknown[0] if unknown else ''!r}; use random or greedy")
    check_players(args.game, args.players)
    variants = tuple(name.strip() for name in args.variants.split(",") if name.strip())
    headless = args.headless or not has_display()
    resume = args.resume is not None
    out = args.resume if resume else args.out or _new_output_folder()
    if resume and not (out / "record" / "journal.jsonl").exists():
        raise CompanionError(f"{out} holds no demo game to resume; give the --out folder of one")
    if not resume and (out / "record" / "journal.jsonl").exists():
        raise CompanionError(f"{out} already holds a demo game; resume it with --resume {out}, "
                             "remove it, or give --out NEW_FOLDER")
    if args.fps <= 0:
        raise CompanionError(f"--fps {args.fps} is not allowed; give a number above 0")
    game = GameOptions(args.game, args.players, variants, args.seed)
    options = DemoOptions(bots=bots, seed=args.seed, sloppy_rate=args.sloppy, speed=args.speed,
                          max_turns=args.max_turns, plain_camera=args.plain_camera,
                          camera_size=_camera_size(args.camera_size))
    if resume:
        options, players = resumed_options(out / "record", options)
        game = GameOptions(args.game, players, variants, options.seed)
    mode = "headless" if headless else "in a window"
    what = f"resuming {out}" if resume else (
        f"{args.game}, {args.players} players, variants {', '.join(variants) or 'none'}")
    print(f"Demo: {what}, seed {options.seed}, {mode}.", flush=True)
    report = run_demo(game, options, out, headless, frames_per_second=args.fps, resume=resume,
                      on_verdict=print_ack if args.ack else None)
    write_summary(out / "summary.json", report,
                  {"game": args.game, "players": game.players, "variants": list(variants),
                   "seed": options.seed})
    print(f"{report.turns} turns, {report.rejects} sloppy moves rejected and put right, "
          f"{report.misreads} misreadings straightened, {report.asks} asked; "
          f"result: {report.result or 'not finished'}.")
    if report.gave_up:
        print(f"Gave up: {report.gave_up}.")
    print(f"Game record: {out / 'record'} (export it with `companion export {out / 'record'}`)")
    if headless:
        print(f"Screenshots: {out / 'screens'}")
    print(f"Summary: {out / 'summary.json'}")
    if report.gave_up:
        return 1
    return 0 if report.finished or args.max_turns is not None else 1


def _new_output_folder() -> Path:
    from datetime import UTC, datetime

    return Path("demo-output") / datetime.now(UTC).strftime("%Y%m%d-%H%M%S")


def _camera_size(text: str) -> tuple[int, int]:
    from contract.errors import CompanionError

    width, _, height = text.lower().partition("x")
    if not (width.isdigit() and height.isdigit()) or not (320 <= int(width) <= 4096
                                                          and 240 <= int(height) <= 4096):
        raise CompanionError(f"--camera-size {text!r} is not a size like 1280x720")
    return int(width), int(height)


def print_ack(verdict: object) -> None:
    """Print one ACK line for a verdict the panel shows: ``ACK green event=12 hash=...``."""
    event = getattr(verdict, "event", None)
    number = getattr(event, "number", 0)
    state_hash = getattr(event, "state_hash", "-")
    print(f"ACK {getattr(verdict, 'verdict', '?')} event={number} hash={state_hash}", flush=True)
