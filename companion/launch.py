"""Builds a table from what the user asked for and runs it with a window or headless.

`companion play` and `companion demo` differ only in their devices: a real camera and panel (or
the keyboard) for play; the synthetic camera, the software panel and bot players for the demo.
Both go through :class:`~companion.table.Table` and the same referee, vision and screen.
"""

from __future__ import annotations

import contextlib
import os
import random
import sys
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from calibration.geometry import mat_names
from calibration.profile import VisionProfile, square_mm_for
from companion.display.screen import Screen, save_screenshot
from companion.display.snapshot import CameraView, Snapshot
from companion.games import Game, Position, get_game
from companion.games.base import Move
from companion.panel.driver import Panel, open_panel
from companion.record.journal import JournalWriter, read_journal
from companion.record.replay import GameTimeline, replay
from companion.referee import Phase, Referee
from companion.screen_view import SeatView, default_seats, game_mat
from companion.table import Table, TableParts
from contract.errors import CompanionError
from vision.camera import CameraOptions, SimCamera, open_camera
from vision.read import VisionConfig
from vision.synth import random_hand, with_hands


@dataclass(frozen=True)
class GameOptions:
    """The game to referee: which, for how many, with which variants, from which seed."""

    game: str = "coin-isolation"
    players: int = 2
    variants: tuple[str, ...] = ()
    seed: int | None = None


class HeadlessSink:
    """Keeps the latest snapshot and camera picture, for screenshots without a window."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._snapshot = Snapshot()
        self._camera: CameraView | None = None
        self._make_camera: Callable[[], CameraView] | None = None

    def show(self, snapshot: Snapshot) -> None:
        with self._lock:
            self._snapshot = snapshot

    def show_camera(self, view: CameraView | None) -> None:
        with self._lock:
            self._camera, self._make_camera = view, None

    def show_camera_later(self, make: Callable[[], CameraView]) -> None:
        """Keep a way to make the latest camera picture; it is made only for a screenshot (a
        table hands one over every frame, screenshots are taken once a turn)."""
        with self._lock:
            self._make_camera = make

    def current(self) -> Snapshot:
        """The latest snapshot with the latest camera picture."""
        with self._lock:
            if self._make_camera is not None:
                self._camera, self._make_camera = self._make_camera(), None
            return replace(self._snapshot, camera=self._camera)

    def save(self, path: Path) -> Path:
        """Save the current screen as a PNG."""
        return save_screenshot(self.current(), path)


#: Games whose mat is printed but whose table (synthetic table, reading, referee) is still being
#: built: `companion rules` plays them, the table not yet.
TABLE_PENDING: frozenset[str] = frozenset()


def check_players(game: str, players: int) -> None:
    """Raise a one-sentence error unless ``game`` is known, has its mat, and ``players`` can
    play it."""
    info = get_game(game).info
    if not info.min_players <= players <= info.max_players:
        raise CompanionError(f"--players {players} is not allowed: {info.title} is for "
                             f"{info.players_text()}")
    if info.mat not in mat_names():
        raise CompanionError(f"{info.title} cannot be played at the table yet: its mat "
                             f"{info.mat!r} is not made (`companion rules` plays it on the "
                             "command line)")
    if game in TABLE_PENDING:
        raise CompanionError(f"{info.title} cannot be played at the table yet: its mat is "
                             "made, its table is not (`companion rules` plays it on the "
                             "command line)")


def seats_for(game: Game, players: int) -> tuple[SeatView, ...]:
    """Default seats: Player 1..N with the game's pawn colours by seat."""
    return default_seats(players, game.info.token_colours)


def new_referee(options: GameOptions) -> Referee:
    """A referee for a new game, waiting to read the starting layout."""
    game = get_game(options.game)
    rolls = None if options.seed is None else random.Random(f"{options.seed}/rolls")
    return Referee(game, game.new_position(options.players, options.variants, seed=options.seed),
                   rolls=rolls)


def resumed_referee(folder: Path) -> tuple[Referee, JournalWriter, int]:
    """A referee carrying on the game recorded in ``folder``, the journal to append to, and the
    number of players.

    A crash can fall between a move's journal line and the automatic passes after it; those
    passes (and the game's end) are recorded now, as the referee would have, so play carries on
    with a player who can move.
    """
    timeline = replay(read_journal(folder))
    journal = JournalWriter.resume(folder)
    game = get_game(timeline.header.game)
    moves = [
        f"{step.event.player}: {step.event.move}"
        for step in timeline.standing_steps()
        if step.event.move is not None
    ]
    position = _record_missing_passes(game, timeline.final, journal, moves)
    referee = Referee(game, position, position=position, moves_played=moves,
                      last_move=_last_move(game, timeline))
    return referee, journal, timeline.header.players


def _last_move(game: Game, timeline: GameTimeline) -> Move | None:
    """The last standing move of ``timeline`` (a pass is no move), to draw its path again."""
    for step in reversed(timeline.standing_steps()):
        if step.event.kind == "move" and step.event.move is not None:
            try:
                return game.parse_move(step.event.move)
            except ValueError:
                return None
    return None


def say_where_the_tail_went(journal: JournalWriter, command: str) -> None:
    """One sentence on stderr when resuming moved a damaged journal tail into a side file."""
    if journal.set_aside is not None:
        print(f"companion {command}: the damaged end of {journal.path} (a line a crash cut "
              f"short) was moved to {journal.set_aside}; the game goes on from the last whole "
              "line.", file=sys.stderr, flush=True)


def _record_missing_passes(game: Game, position: Position, journal: JournalWriter,
                           moves: list[str]) -> Position:
    """Apply and record the passes due at ``position``, and the end if it comes; the position
    after them."""
    passed = False
    while not game.is_over(position):
        first = game.forced(position)
        if first is None:
            return position
        player = game.to_move(position)
        position = game.apply(position, first)
        journal.record_pass(player=player, state_hash=position.state_hash(), move=first.text())
        moves.append(f"{player}: {first.text()}")
        passed = True
    if passed:
        journal.record_note(game.result(position).announcement(),
                            state_hash=position.state_hash(), source="referee")
    return position


def open_profile(path: Path | None) -> VisionProfile:
    """The calibration profile at ``path``, or the physical defaults."""
    return VisionProfile.default() if path is None else VisionProfile.load(path)


def table_parts(
    referee: Referee,
    camera_url: str,
    panel: Panel | None,
    profile: VisionProfile,
    record_folder: Path,
    players: int,
    journal: JournalWriter | None = None,
    camera_options: CameraOptions | None = None,
    square_mm: float | None = None,
    profile_path: Path | None = None,
) -> TableParts:
    """Everything a table needs, with the camera opened (it raises a clear error if it can't).
    The mat is read at ``square_mm`` (as printed), else as the profile was calibrated on it;
    the record's header names the camera, the square size and the profile used."""
    game = referee.game
    square_mm = square_mm_for(game.info.mat, square_mm, profile)
    variants = referee.template.to_json().get("variants", ())
    geometry = game_mat(game, players, variants, square_mm)

    def reopen() -> Any:
        return open_camera(camera_url, camera_options)

    camera = reopen()
    return TableParts(
        game=game,
        referee=referee,
        camera=camera,
        reopen_camera=reopen,
        panel=panel,
        geometry=geometry,
        profile=profile,
        seats=seats_for(game, players),
        record_folder=record_folder,
        journal=journal,
        header_options={"camera": camera_url, "square_mm": square_mm},
        profile_path=profile_path,
        vision_config=vision_config_for(camera, profile),
    )


def vision_config_for(camera: object, profile: VisionProfile | None = None) -> VisionConfig:
    """The reader's settings for ``camera``: with its focal length where the camera knows it
    (the synthetic table's does), else as calibration estimated it (``profile.focal_px``);
    with neither, the principal point is taken in the frame's middle."""
    config = VisionConfig()
    focal = getattr(camera, "focal_px", None)
    if not isinstance(focal, int | float):
        focal = None if profile is None else profile.focal_px
    if focal is None:
        return config
    dice = replace(config.read.dice, focal_px=float(focal))
    return replace(config, read=replace(config.read, dice=dice))


def recorded_square_mm(folder: Path) -> float | None:
    """The square size the game recorded in ``folder`` was read at (None: the mat's own)."""
    value = read_journal(folder).header.options.get("square_mm")
    return float(value) if isinstance(value, int | float) else None


def run_windowed(table: Table, until: Callable[[], bool], fullscreen: bool = False) -> bool:
    """Show the table in a window until ``until()`` or the window is closed; returns whether
    the window was closed by the user. Keys stand in for a missing panel."""
    screen = Screen(fullscreen=fullscreen, on_quit=table.stopped.set)
    table.sink = screen
    table.start()
    closed = False
    try:
        while not until():
            if not screen.step():
                closed = True
                break
            while not screen.buttons.empty():
                table.press(screen.buttons.get_nowait(), "keyboard")
    finally:
        table.stop()
        screen.close()
    return closed


def has_display() -> bool:
    """Whether a window can be opened here (a DISPLAY or Wayland socket, or another platform)."""
    if os.name == "nt" or os.environ.get("SDL_VIDEODRIVER") not in (None, "", "x11", "wayland"):
        return os.environ.get("SDL_VIDEODRIVER") != "dummy"
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def open_panel_or_keyboard(url: str | None) -> Panel | None:
    """The panel at ``url``; None means the keyboard stands in."""
    return None if url is None else open_panel(url)


def simulated_hands(camera: SimCamera, seed: int) -> Callable[[bool], None]:
    """A function that puts a hand over the synthetic table, or takes it away."""
    counter = [seed]

    def reach(present: bool) -> None:
        counter[0] += 1
        scene = camera.scene
        hands = (random_hand(counter[0], scene.geometry),) if present else ()
        camera.synth.set_scene(with_hands(scene, *hands))

    return reach


def close_quietly(parts: TableParts) -> None:
    """Close the camera, the panel and the journal (releasing its lock, so the game can be
    resumed in the same process), ignoring errors from devices that are already gone."""
    with contextlib.suppress(Exception):
        parts.camera.close()
    if parts.panel is not None:
        with contextlib.suppress(Exception):
            parts.panel.close()
    if parts.journal is not None:
        with contextlib.suppress(Exception):
            parts.journal.close()


def wait_until(condition: Callable[[], bool], timeout: float, step: float = 0.05) -> bool:
    """Poll ``condition`` until true or ``timeout``; for the main thread of a headless run."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(step)
    return True


def lingering(condition: Callable[[], bool], seconds: float) -> Callable[[], bool]:
    """True ``seconds`` after ``condition`` first held, so a result stays up long enough to read."""
    since: list[float] = []

    def done() -> bool:
        if not since:
            if not condition():
                return False
            since.append(time.monotonic())
        return time.monotonic() - since[0] > seconds

    return done


def is_finished(referee: Referee) -> Callable[[], bool]:
    """A predicate that is true once the game is over."""
    return lambda: referee.phase is Phase.OVER


