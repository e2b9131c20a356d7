"""`companion play`: referee a real game at the table."""

from __future__ import annotations

import argparse
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli import ListFormatter, game_help_later
from companion.cli.numbers import number

if TYPE_CHECKING:
    from calibration.profile import VisionProfile
    from companion.hints import TableHints
    from companion.record.journal import JournalWriter
    from companion.referee import Referee
    from companion.table import Table, TableParts
    from companion.voice import Voice


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `play` subcommand."""
    parser = subparsers.add_parser(
        "play",
        help="referee a real game: webcam over the mat, panel (or keyboard) for the buttons",
        description="Reads the board through the camera, takes turn presses from the panel (or "
        "the keyboard: 1-4 end a turn, u undo, space select, enter confirm), checks every move "
        "and records the game.",
        formatter_class=ListFormatter,
    )
    parser.add_argument("--camera", default="0", help="camera URL: 0, /dev/video2, file://DIR, "
                        "a video file, or sim://")
    parser.add_argument("--panel", default=None,
                        help="panel URL: /dev/ttyACM0, auto or sim:// (default: the keyboard)")
    parser.add_argument("--game", default="coin-isolation", help="game to referee")
    players = parser.add_argument("--players", type=int, default=2)
    game_help_later(parser, players)
    parser.add_argument("--variants", default="",
                        help="comma-separated variants, e.g. diagonal (listed below)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="calibration profile from `companion calibrate`")
    parser.add_argument("--square-mm", type=number("--square-mm", 10, 200), default=None,
                        help="square size in mm the mat was printed with, 10 to 200 (default: "
                        "the resumed game's, "
                        "else the profile's, else the mat's own)")
    parser.add_argument("--record", type=Path, default=None,
                        help="folder for the game record (default: records/DATE-TIME)")
    parser.add_argument("--resume", type=Path, default=None,
                        help="carry on the game recorded in this folder")
    parser.add_argument("--fullscreen", action="store_true", help="start in full screen")
    parser.add_argument("--headless", action="store_true",
                        help="no window (needs a panel); the record is still written")
    parser.add_argument("--hints", nargs="+", metavar="SETTING", default=None,
                        help="off (the default), on, or limited N: whether each seat may ask "
                        "for a hint with HINT (the keyboard's h), and how many")
    parser.add_argument("--voice", action="store_true",
                        help="say whose turn it is, moves, rejections, rolls and the result "
                        "aloud (through espeak-ng); the screen still shows everything")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Open the devices, then referee until the game ends or the window is closed."""
    from companion.hints import HintPolicy
    from companion.launch import has_display, open_profile
    from contract.errors import CompanionError

    HintPolicy.parse(args.hints or ["off"])  # a bad setting is refused before anything opens
    headless = args.headless or not has_display()
    if headless and args.panel is None:
        raise CompanionError("there is no window for the keyboard here; give --panel "
                             "/dev/ttyACM0 (or auto), or run where a display is available")
    profile = open_profile(args.profile)
    referee, journal, players, folder = _referee_and_folder(args)
    parts = _table_parts(args, referee, profile, folder, players, journal)
    print(f"Refereeing {referee.game.name}; the record will go to {folder} once the starting "
          "layout is confirmed.", flush=True)
    _referee_until_done(args, referee, parts, headless)
    print(_ending(referee.view().result, folder))
    return 0


def _referee_and_folder(args: argparse.Namespace
                        ) -> tuple[Referee, JournalWriter | None, int, Path]:
    """The referee, the resumed journal (or None), the players and the record's folder."""
    from companion.launch import (
        GameOptions,
        check_players,
        new_referee,
        resumed_referee,
        say_where_the_tail_went,
    )

    if args.resume is not None:
        referee, journal, players = resumed_referee(args.resume)
        say_where_the_tail_went(journal, "play")
        return referee, journal, players, args.resume
    check_players(args.game, args.players)
    variants = tuple(name.strip() for name in args.variants.split(",") if name.strip())
    referee = new_referee(GameOptions(args.game, args.players, variants, None))
    folder = args.record or Path("records") / datetime.now(UTC).strftime("%Y%m%d-%H%M%S")
    return referee, None, args.players, folder


def _table_parts(args: argparse.Namespace, referee: Referee, profile: VisionProfile,
                 folder: Path, players: int, journal: JournalWriter | None) -> TableParts:
    """Open the panel (or the keyboard) and the camera, closing the panel if the camera fails."""
    from companion.launch import open_panel_or_keyboard, recorded_square_mm, table_parts
    from contract.errors import CompanionError

    panel = open_panel_or_keyboard(args.panel)
    try:
        square_mm = args.square_mm
        if square_mm is None and args.resume is not None:
            square_mm = recorded_square_mm(args.resume)
        parts = table_parts(referee, args.camera, panel, profile, folder, players, journal,
                            square_mm=square_mm, profile_path=args.profile)
    except CompanionError:
        if panel is not None:
            panel.close()
        raise
    parts.hints = _hints(args.hints, referee, parts, args.resume)
    return parts


def _referee_until_done(args: argparse.Namespace, referee: Referee, parts: TableParts,
                        headless: bool) -> None:
    """Run the table until the game ends (or the window is closed), then close every device."""
    from companion.launch import close_quietly, is_finished, lingering, run_windowed, wait_until
    from companion.table import Table

    table = Table(parts)
    voice = _voice(args.voice, table)
    try:
        if headless:
            table.start()
            wait_until(is_finished(referee), timeout=float("inf"))
        else:
            run_windowed(table, lingering(is_finished(referee), 30.0), fullscreen=args.fullscreen)
    finally:
        table.stop()
        close_quietly(parts)
        if voice is not None:
            voice.close(linger_s=3.0)


def _hints(words: list[str] | None, referee: Referee, parts: TableParts,
           resumed: Path | None) -> TableHints | None:
    """The table's hints as ``--hints`` sets them (None: off), counting a resumed game's."""
    from companion.hints import recorded_hints, table_hints

    names = {seat.number: seat.name for seat in parts.seats}
    return table_hints(referee, names, words, recorded_hints(resumed) if resumed else ())


def _voice(wanted: bool, table: Table) -> Voice | None:
    """The table's voice when ``--voice`` asks for it (None when not, or when espeak-ng is
    missing: then one sentence says so and the table goes on silently)."""
    if not wanted:
        return None
    from companion.voice import open_voice

    voice = open_voice()
    if voice is not None:
        voice.attach(table)
    return voice


def _ending(result: str | None, folder: Path) -> str:
    """The last line: the result, or how to carry on, or (when the starting layout was never
    confirmed) that no record was written, so no command names a folder that holds nothing."""
    from companion.record.journal import journal_path

    if result:
        return result
    if not journal_path(folder).is_file():
        return "Stopped before the starting layout was confirmed; no game record was written."
    return f"Stopped before the end; carry on with `companion play --resume {folder}`."
