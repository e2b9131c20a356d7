"""`companion replay DIR`: step through a recorded game on the side screen, or headless.

Step 0 is the position the journal starts from; step N is the position after the N-th event that
replayed (moves, passes, undos, setup fixes, rulings and notes each get a step, so the screen tells
the whole story). In the window, Right or Space steps forward, Left back, Home and End jump, Escape
quits; ``--delay S`` steps forward on its own every S seconds; the terminal gets a line for each
step shown. ``--headless`` prints one line per step, and with ``--out SHOTS_DIR`` also saves each
step's screen as ``step-0007.png``. Where no window can be opened (no display, or
``SDL_VIDEODRIVER=dummy``; the same test as ``demo`` and ``play``) the steps are printed as with
``--headless``, after one sentence on stderr saying so.

A damaged journal is reported line by line on stderr; the steps are everything that replayed
(moves worked out from a later line's state hash say so in their caption), events that could
not be replayed are printed after them as read, and the exit status is 2.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from companion.cli.numbers import number

if TYPE_CHECKING:
    from companion.display.snapshot import CameraView, PlayerView, Severity, Snapshot
    from companion.record.entries import JournalEvent
    from companion.record.replay import GameTimeline

#: How many recent moves the screen lists.
LAST_MOVES_SHOWN = 8


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `replay` subcommand."""
    parser = subparsers.add_parser(
        "replay",
        help="step through a recorded game on the screen (or headless, with screenshots)",
        description=(
            "Replay the journal of a game folder step by step: the start, then one step per "
            "event (moves, passes, undos, rulings, notes). In the window, Right or Space steps "
            "forward, Left back, Home and End jump, Escape quits. --headless prints one line per "
            "step; --out SHOTS_DIR also saves each step's screen as step-0007.png."
        ),
    )
    parser.add_argument("folder", metavar="DIR", help="the game folder (holds journal.jsonl)")
    parser.add_argument("--headless", action="store_true", help="no window: print each step")
    parser.add_argument("--out", metavar="SHOTS_DIR", help="headless: save a PNG per step here")
    parser.add_argument(
        "--delay", type=number("--delay", 0, 3600), default=0.0, metavar="S",
        help="step on its own every S seconds, 0 (by keys only) to 3600"
    )
    parser.add_argument("--size", default="1600x900",
                        help="screen size, WIDTHxHEIGHT, 320x240 to 7680x4320")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Replay the journal, report its damage, then show or print every step.

    Without a display (as ``demo`` and ``play`` detect it) the steps are printed, as with
    ``--headless``, instead of waiting for keys in a window nobody can see. Exit status 2 when
    the journal is damaged, after showing everything that could be read.
    """
    from companion.record.journal import journal_path
    from companion.record.replay import damage_summary, load_timeline
    from contract.errors import CompanionError

    size = _parse_size(args.size)
    if args.delay < 0:
        raise CompanionError(f"--delay {args.delay} is negative; give seconds, 0 or more.")
    timeline = load_timeline(args.folder)
    path = journal_path(args.folder)
    for problem in timeline.problems:
        print(f"companion replay: {path} {problem}.", file=sys.stderr)
    headless = args.headless or args.out is not None or _no_display()
    if headless:
        out = Path(args.out) if args.out else None
        _run_headless(timeline, Path(args.folder), out, args.delay, size)
    else:
        _run_window(timeline, Path(args.folder), args.delay, size)
    for event in timeline.unreplayed:
        print(f"not replayed: {event_caption(event)} (line {event.line})")
    if not timeline.problems:
        return 0
    print(
        f"companion replay: {path} is damaged ({damage_summary(timeline)}); the steps shown are "
        "everything that could be read.",
        file=sys.stderr,
    )
    return 2


def _no_display() -> bool:
    """True, after saying so on stderr, when no window can be opened here."""
    from companion.launch import has_display

    if has_display():
        return False
    print(
        "companion replay: there is no display here, so the steps are printed instead "
        "(as with --headless).",
        file=sys.stderr,
    )
    return True


def _parse_size(text: str) -> tuple[int, int]:
    from contract.errors import CompanionError

    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise CompanionError(f"--size {text!r} is not WIDTHxHEIGHT, like 1600x900.") from None
    if width < 320 or height < 240:
        raise CompanionError(f"--size {text!r} is too small; give at least 320x240.")
    if width > 7680 or height > 4320:
        raise CompanionError(f"--size {text!r} is too large; give at most 7680x4320.")
    return width, height


def _run_headless(
    timeline: GameTimeline, folder: Path, out: Path | None, delay: float, size: tuple[int, int]
) -> None:
    """Print one line per step; with ``out``, save one screenshot per step too."""
    if out is not None:
        from companion.display.screen import save_screenshot
    for index in range(len(timeline.steps) + 1):
        print(step_caption(timeline, index))
        if out is not None:
            save_screenshot(
                snapshot_at(timeline, index, folder), out / f"step-{index:04d}.png", size
            )
        if delay and index < len(timeline.steps):
            time.sleep(delay)
    if out is not None:
        print(f"Saved {len(timeline.steps) + 1} screenshot(s) in {out}.")


def _run_window(timeline: GameTimeline, folder: Path, delay: float, size: tuple[int, int]) -> None:
    """Show the steps in a window; arrow keys, space, Home and End move between them."""
    import pygame

    from companion.display.screen import Screen

    keys = {
        pygame.K_RIGHT: "NEXT", pygame.K_SPACE: "NEXT", pygame.K_LEFT: "PREVIOUS",
        pygame.K_HOME: "FIRST", pygame.K_END: "LAST",
    }  # fmt: skip
    screen = Screen(size, title="Coin Table Companion: replay", key_buttons=keys)
    last = len(timeline.steps)
    index, shown, next_auto = 0, -1, time.monotonic() + delay
    try:
        running = True
        while running:
            running = screen.step()
            while not screen.buttons.empty():
                index = _step_index(screen.buttons.get(), index, last)
                next_auto = time.monotonic() + delay
            if delay and index < last and time.monotonic() >= next_auto:
                index, next_auto = index + 1, time.monotonic() + delay
            if index != shown:
                screen.show(snapshot_at(timeline, index, folder))
                print(step_caption(timeline, index), flush=True)
                shown = index
    finally:
        screen.close()


def _step_index(button: str, index: int, last: int) -> int:
    moves = {"NEXT": index + 1, "PREVIOUS": index - 1, "FIRST": 0, "LAST": last}
    return min(max(moves.get(button, index), 0), last)


def step_caption(timeline: GameTimeline, index: int) -> str:
    """One line saying what happened at step ``index`` (0 is the start)."""
    total = len(timeline.steps)
    if index == 0:
        first = timeline.game.to_move(timeline.initial)
        return f"step 0/{total}: the start, player {first} to move"
    step = timeline.steps[index - 1]
    caption = f"step {index}/{total}: {event_caption(step.event)}"
    return f"{caption}; {step.recovered}" if step.recovered else caption


def event_caption(event: JournalEvent) -> str:
    """What one journal event did: ``event 7: player 1 played c2-c3 (panel)``."""
    where = f"event {event.number}"
    source = f" ({event.source})"
    if event.kind == "move":
        return f"{where}: player {event.player} played {event.move}{source}"
    if event.kind == "pass":
        return f"{where}: player {event.player} passes (no legal move){source}"
    if event.kind == "correction" and event.correction == "undo":
        return f"{where}: move {event.retracts} taken back{source}"
    if event.kind == "correction":
        fix = f" {event.region}: {event.was or 'empty'} -> {event.now or 'empty'}"
        return f"{where}: setup fixed{fix if event.region else ''}{source}"
    if event.kind == "ruling" and event.ruling == "ask":
        return f"{where}: asked between {', '.join(event.candidates)}, chose {event.chosen}{source}"
    if event.kind == "ruling":
        return f"{where}: move rejected: {event.text}{source}"
    if event.kind == "hint":
        return f"{where}: hint for player {event.player}: {event.suggested}, not played{source}"
    return f"{where}: note: {event.text}{source}"


def snapshot_at(timeline: GameTimeline, index: int, folder: Path | None = None) -> Snapshot:
    """The side screen's snapshot for step ``index``: board, pawns, scores, last moves, caption,
    and, given the game ``folder``, the last accepted camera frame up to that step."""
    from companion.display.snapshot import Message, PathView, Snapshot
    from companion.screen_view import board_shape

    game = timeline.game
    position = timeline.positions[index]
    event = timeline.steps[index - 1].event if index else None
    over = game.is_over(position)
    path = None
    if event is not None and event.kind == "move" and event.move:
        regions = game.parse_move(event.move).regions()
        path = PathView(tuple(regions), event.move) if regions else None
    notable = event is not None and event.kind in ("ruling", "correction")
    severity: Severity = "warning" if notable else "info"
    started = timeline.header.started[:16].replace("T", " ")
    board = board_shape(game, timeline.header.players, timeline.header.variants)
    return Snapshot(
        title=f"Replay of {started} UTC",
        game=game.info.title,
        files=board.files,
        ranks=board.ranks,
        mat=board.mat,
        seat_heading=game.info.seat_heading,
        variants=timeline.header.variants,
        stacks=Snapshot.stacks_from(game.layout(position).stacks()),
        players=_players(timeline, index),
        to_move=None if over else game.to_move(position),
        targets=frozenset() if over else game.legal_targets(position),
        path=path,
        last_moves=_last_moves(timeline, index),
        message=Message(step_caption(timeline, index), severity),
        result=game.result(position).text() if over else None,
        camera=_camera_view(timeline, index, folder) if folder is not None else None,
    )


def _camera_view(timeline: GameTimeline, index: int, folder: Path) -> CameraView | None:
    """The last frame saved at or before step ``index``, or None when there is none to show."""
    from companion.display.snapshot import CameraView
    from companion.record.errors import FrameError
    from companion.record.frames import load_frame

    for step in reversed(timeline.steps[:index]):
        if step.event.frame:
            try:
                image = load_frame(folder, step.event.frame)
            except FrameError:
                return None
            return CameraView(image, None, step.event.number)
    return None


def _players(timeline: GameTimeline, index: int) -> tuple[PlayerView, ...]:
    from companion.display.snapshot import PlayerView
    from companion.screen_view import seat_colour
    from contract.colours import colour_rgb

    position = timeline.positions[index]
    tokens = timeline.game.layout(position).tokens()
    held = timeline.game.seat_coins(position)
    scores = timeline.game.scores(position)
    views = []
    for seat in timeline.header.seats:
        colour_name = seat.colour or seat_colour(timeline.game, seat.number)
        views.append(
            PlayerView(
                number=seat.number,
                name=seat.name or f"Player {seat.number}",
                colour_name=colour_name,
                colour=colour_rgb(colour_name),
                pawn=tokens.get(str(seat.number)),
                score_cents=scores.get(seat.number, 0),
                taken=held.get(seat.number, ""),
            )
        )
    return tuple(views)


def _last_moves(timeline: GameTimeline, index: int) -> tuple[str, ...]:
    """The last few moves standing at step ``index``, numbered by round as in ``game.txt``."""
    from companion.record.export import numbered_moves

    return numbered_moves(timeline, index)[-LAST_MOVES_SHOWN:]
