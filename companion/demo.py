"""The demo: a whole game on a simulated table, refereed by the same code as a real one.

The :class:`Director` plays the people at the table. It owns the physical board (what the synthetic
camera renders), reaches over it with a hand while a bot's move is made, then presses the mover's
button on the software panel. Now and then a bot is sloppy (knocks a coin off a square while
moving); the referee rejects, and the director puts the board right and presses again. When the
referee asks which of several look-alike moves was meant, the director steps through the
candidates with select and confirms the one it made. Everything else, vision, the steady gate, the
rules, the journal and the screen, is the real thing.
"""

from __future__ import annotations

import json
import random
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

from companion.games.base import Game, Move, Position
from companion.launch import (
    GameOptions,
    HeadlessSink,
    close_quietly,
    lingering,
    new_referee,
    run_windowed,
    simulated_hands,
    table_parts,
)
from companion.panel.driver import open_panel
from companion.referee import Phase
from companion.table import Table
from vision.camera import CameraOptions, SimCamera
from vision.profile import VisionProfile

#: How many legal moves a bot looks at before choosing; bounds a turn in huge positions.
BOT_MOVE_LIMIT = 4000
BOTS = ("random", "greedy")


@dataclass(frozen=True)
class DemoOptions:
    """How the demo plays: seats' bots, sloppiness, pace and how long it may take."""

    bots: tuple[str, ...] = ("greedy", "random")
    seed: int = 1
    sloppy_rate: float = 0.15
    speed: float = 1.0
    max_turns: int | None = None
    turn_timeout_s: float = 60.0


@dataclass
class DemoReport:
    """What happened in a demo game, for the summary and the tests."""

    turns: int = 0
    rejects: int = 0
    asks: int = 0
    moves: list[str] = field(default_factory=list)
    verdict_ms: list[float] = field(default_factory=list)
    result: str | None = None
    finished: bool = False

    def to_json(self) -> dict[str, Any]:
        """The report as the summary's JSON."""
        ordered = sorted(self.verdict_ms)
        return {
            "turns": self.turns,
            "rejects": self.rejects,
            "asks": self.asks,
            "moves": self.moves,
            "result": self.result,
            "finished": self.finished,
            "press_to_verdict_ms": {
                "median": round(ordered[len(ordered) // 2], 1) if ordered else None,
                "max": round(ordered[-1], 1) if ordered else None,
            },
        }


class PhysicalBoard:
    """What lies on the simulated table, shown to the synthetic camera."""

    def __init__(self, show: Callable[[Mapping[str, str], Mapping[str, str]], None],
                 reach: Callable[[bool], None], colours: Mapping[str, str]) -> None:
        self._show = show
        self._reach = reach
        self._colours = colours
        self.squares: dict[str, str] = {}
        self.pawns: dict[str, str] = {}

    def lay_out(self, position: Position) -> None:
        """Make the table look like ``position`` (squares and pawns of its JSON)."""
        data = position.to_json()
        self.squares = {name: stack for name, stack in data.get("squares", {}).items() if stack}
        self.pawns = {
            square: self._colours[player]
            for player, square in data.get("pawns", {}).items()
            if square is not None
        }
        self._show(self.squares, self.pawns)

    def knock_off(self, rng: random.Random) -> str | None:
        """Sloppiness: remove the top coin of a random untouched square; returns the square."""
        choices = sorted(square for square in self.squares if square not in self.pawns)
        if not choices:
            return None
        square = rng.choice(choices)
        self.squares[square] = self.squares[square][:-1]
        self._show(self.squares, self.pawns)
        return square

    def hand(self, present: bool) -> None:
        """A hand reaches over the board, or leaves it."""
        self._reach(present)


class Director:
    """Plays the people at a simulated table: moves coins, presses buttons, answers questions."""

    def __init__(self, table: Table, board: PhysicalBoard, press: Callable[[str], None],
                 options: DemoOptions, after_turn: Callable[[int], None] | None = None) -> None:
        self.table = table
        self.game: Game = table.parts.game
        self.board = board
        self.press = press
        self.options = options
        self.after_turn = after_turn
        self.report = DemoReport()
        self._rng = random.Random(options.seed)
        self._changed = threading.Condition()
        table.on_change(self._notify)

    def run(self, stop: threading.Event) -> DemoReport:
        """Play until the game ends, ``max_turns`` is reached or ``stop`` is set."""
        referee = self.table.parts.referee
        if referee.phase is Phase.SETUP:
            self._wait(lambda: referee.position is not None, stop)
            self._pause(0.5)
            self.press("CONFIRM")
            self._wait(lambda: referee.phase is not Phase.SETUP, stop)
        while not stop.is_set() and referee.phase is not Phase.OVER:
            if self.options.max_turns is not None and self.report.turns >= self.options.max_turns:
                break
            if not self._play_turn(stop):
                break
            self.report.turns += 1
            if self.after_turn is not None:
                self.after_turn(self.report.turns)
        view = referee.view()
        self.report.result = view.result
        self.report.finished = referee.phase is Phase.OVER
        return self.report

    # One turn -----------------------------------------------------------------------------------

    def _play_turn(self, stop: threading.Event) -> bool:
        referee = self.table.parts.referee
        position = referee.position
        assert position is not None
        mover = self.game.to_move(position)
        move = self._choose(position, mover)
        after = self.game.apply(position, move)
        self._move_by_hand(after)
        if self._rng.random() < self.options.sloppy_rate and self.board.knock_off(self._rng):
            if not self._submit(mover, stop):
                return False
            if referee.phase is Phase.TURN and referee.position == position:
                self.report.rejects += 1
                self._pause(1.0)
                self._move_by_hand(after)
        for _ in range(3):
            if referee.position != position or referee.phase is Phase.OVER:
                break
            if not self._submit(mover, stop):
                return False
            if referee.phase is Phase.CHOOSING:
                self.report.asks += 1
                self._choose_candidate(position, after, stop)
        if referee.position == position and referee.phase is not Phase.OVER:
            return False
        self.report.moves.append(f"{mover}: {move.text()}")
        self.board.lay_out(referee.position or after)
        self._pause(0.3)
        return True

    def _submit(self, mover: int, stop: threading.Event) -> bool:
        """Press the mover's button and wait for the verdict; False if none came."""
        referee = self.table.parts.referee
        verdicts = self.table.verdicts
        pressed = time.perf_counter()
        self.press(f"END{mover}")
        arrived = self._wait(lambda: self.table.verdicts > verdicts, stop,
                             self.options.turn_timeout_s)
        if arrived:
            self.report.verdict_ms.append((time.perf_counter() - pressed) * 1000)
        return arrived and referee.phase is not Phase.READING

    def _choose_candidate(self, position: Position, after: Position, stop: threading.Event) -> None:
        referee = self.table.parts.referee
        for _ in range(len(referee.view().candidates)):
            view = referee.view()
            if view.selected is None:
                return
            shown = self.game.parse_move(view.candidates[view.selected])
            self._pause(0.6)
            if self.game.apply(position, shown) == after:
                self.press("CONFIRM")
                self._wait(lambda: referee.phase is not Phase.CHOOSING, stop)
                return
            self.press("SELECT")
            self._wait(_selection_moved(referee, view.selected), stop)
        self.press("CONFIRM")
        self._wait(lambda: referee.phase is not Phase.CHOOSING, stop)

    def _move_by_hand(self, after: Position) -> None:
        self.board.hand(True)
        self._pause(0.4)
        self.board.lay_out(after)
        self._pause(0.2)
        self.board.hand(False)

    def _choose(self, position: Position, mover: int) -> Move:
        moves = list(islice(self.game.iter_moves(position), BOT_MOVE_LIMIT))
        bot = self.options.bots[(mover - 1) % len(self.options.bots)]
        if bot != "greedy":
            return self._rng.choice(moves)
        before = self.game.scores(position)[mover]
        gains = [self.game.scores(self.game.apply(position, m))[mover] - before for m in moves]
        best = max(gains)
        return self._rng.choice([m for m, gain in zip(moves, gains, strict=True) if gain == best])

    # Waiting ------------------------------------------------------------------------------------

    def _notify(self, table: Table) -> None:
        with self._changed:
            self._changed.notify_all()

    def _wait(self, condition: Callable[[], bool], stop: threading.Event,
              timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                remaining = deadline - time.monotonic()
                if remaining <= 0 or stop.is_set():
                    return False
                self._changed.wait(min(remaining, 0.2))
        return True

    def _pause(self, seconds: float) -> None:
        if self.options.speed > 0:
            time.sleep(seconds / self.options.speed)


def _selection_moved(referee: Any, selected: int) -> Callable[[], bool]:
    return lambda: referee.view().selected != selected


def write_summary(path: Path, report: DemoReport, extra: Mapping[str, Any]) -> None:
    """Write the demo's summary JSON."""
    path.write_text(json.dumps({**report.to_json(), **extra}, indent=2) + "\n")


def run_demo(
    game_options: GameOptions,
    options: DemoOptions,
    out: Path,
    headless: bool,
    frames_per_second: float = 10.0,
) -> DemoReport:
    """Play a whole demo game; the record goes to ``out/record``, screenshots to ``out/screens``.

    The synthetic camera's clock runs at ``frames_per_second`` frames a second of table time, so
    the steady gate's 0.4 s settle takes a few frames whatever the rendering speed.
    """
    referee = new_referee(game_options)
    start = referee.template
    camera_options = CameraOptions(fps=frames_per_second)
    seed = game_options.seed or 0
    panel = open_panel("sim://")
    parts = table_parts(referee, f"sim://?seed={seed}&board=empty", panel, VisionProfile.default(),
                        out / "record", game_options.players, camera_options=camera_options)
    camera = parts.camera
    assert isinstance(camera, SimCamera) and panel.twin is not None
    twin = panel.twin
    colours = {str(seat.number): seat.colour for seat in parts.seats}
    board = PhysicalBoard(camera.show, simulated_hands(camera, seed), colours)
    board.lay_out(start)
    sink = HeadlessSink()
    table = Table(parts, sink)
    screens = out / "screens"

    def after_turn(turn: int) -> None:
        if headless:
            sink.save(screens / f"turn-{turn:03d}.png")

    director = Director(table, board, lambda button: _press(twin, button), options, after_turn)
    report_box: list[DemoReport] = []
    director_thread = threading.Thread(
        target=lambda: report_box.append(director.run(table.stopped)), name="demo director",
        daemon=True,
    )
    try:
        if headless:
            table.start()
            director_thread.start()
            director_thread.join()
            sink.save(screens / "final.png")
        else:
            director_thread.start()
            run_windowed(table, lingering(lambda: not director_thread.is_alive(), 5.0))
    finally:
        table.stop()
        close_quietly(parts)
    return report_box[0] if report_box else director.report


def _press(twin: Any, button: str) -> None:
    twin.press(button)
