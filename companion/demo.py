"""The demo: a whole game on a simulated table, refereed by the same code as a real one.

The :class:`Director` plays the people at the table. It owns the physical board (what the synthetic
camera renders), reaches over it with a hand while a bot's move is made (sowing pit after pit
where coins lie loose), then presses the mover's button on the software panel. Now and then a
bot is sloppy (knocks a coin off a square while moving, or drops a coin into the wrong pit);
the referee rejects, and the director puts the board right and presses again. When the
referee asks which of several look-alike moves was meant, the director steps through the
candidates with select and confirms the one it made. When the camera misreads a board the
director laid correctly, it does what a person would: straightens the coins and presses again
(and takes back a wrong move the referee accepted). Everything else, vision, the steady gate, the
rules, the journal and the screen, is the real thing.

Bots draw from a generator seeded by (seed, number of moves standing), so the line of play is the
same in an interrupted and resumed game as in an uninterrupted one, as long as vision reads right.
"""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from calibration.geometry import SEATED_MATS
from calibration.profile import VisionProfile
from companion.analysis.bots import Bot, bot_move, parse_bot
from companion.analysis.search import worker_pool
from companion.demo_board import HAND_FRAMES, PhysicalBoard
from companion.demo_camera import advised_camera_size
from companion.demo_cards import CardDirector, DealtCards
from companion.demo_record import HEADER_KEY, accepted_moves, standing_positions
from companion.demo_rolls import RollingDirector
from companion.display.render import RenderCache
from companion.display.screen import save_screenshot
from companion.games.base import Game, Move, Position
from companion.launch import (
    GameOptions,
    HeadlessSink,
    close_quietly,
    lingering,
    new_referee,
    resumed_referee,
    run_windowed,
    say_where_the_tail_went,
    table_parts,
)
from companion.panel.driver import open_panel
from companion.panel.twin import PanelTwin
from companion.record.journal import JournalWriter
from companion.referee import Phase, Referee
from companion.table import Table, TableParts, Verdict
from contract.table_state import TableState
from vision.camera import CameraOptions, SimCamera


@dataclass(frozen=True)
class DemoOptions:
    """How the demo plays: seats' bots, sloppiness, pace and how long it may take.

    ``bots`` empty means the game's own (:attr:`~companion.games.base.Game.demo_bots`);
    ``max_turns`` counts the moves and passes standing in the game (a resumed game included);
    ``max_tries`` is how many times one move is submitted before the director gives up;
    ``camera_size`` None means the one advised for the game's mat
    (:func:`~companion.demo_camera.advised_camera_size`).
    """

    bots: tuple[str, ...] = ()
    seed: int = 1
    sloppy_rate: float = 0.15
    speed: float = 1.0
    max_turns: int | None = None
    turn_timeout_s: float = 60.0
    max_tries: int = 30
    plain_camera: bool = False
    camera_size: tuple[int, int] | None = None

    def to_json(self) -> dict[str, Any]:
        """What a resumed demo needs to play on the same way."""
        kept = {"bots": list(self.bots), "seed": self.seed, "sloppy_rate": self.sloppy_rate,
                "plain_camera": self.plain_camera}
        return kept | ({"camera_size": list(self.camera_size)} if self.camera_size else {})


@dataclass
class DemoReport:
    """What happened in a demo game, for the summary and the tests.

    ``rejects`` counts the director's own sloppy moves rejected (and put right); ``misreads``
    counts verdicts it did not cause (a correct board rejected, a wrong candidate list, a wrong
    move accepted and taken back); ``rethrows`` counts dice thrown flat that the camera could not
    read and asked to be thrown again, ``dice_wrong`` dice the journal holds with another value
    than the one thrown (both are among ``misreads``); ``moves`` is the line of play the journal
    holds; ``capped_at`` is the game's demo cap (``Game.demo_cap``) when the demo stopped
    there.
    """

    turns: int = 0
    rejects: int = 0
    misreads: int = 0
    asks: int = 0
    takebacks: int = 0
    rethrows: int = 0
    dice_wrong: int = 0
    moves: list[str] = field(default_factory=list)
    verdict_ms: list[float] = field(default_factory=list)
    result: str | None = None
    finished: bool = False
    gave_up: str | None = None
    final_position: dict[str, Any] | None = None
    scores: dict[int, int] = field(default_factory=dict)
    capped_at: int | None = None

    def to_json(self) -> dict[str, Any]:
        """The report as the summary's JSON."""
        ordered = sorted(self.verdict_ms)
        return {
            "turns": self.turns,
            "rejects": self.rejects,
            "misreads": self.misreads,
            "asks": self.asks,
            "takebacks": self.takebacks,
            "rethrows": self.rethrows,
            "dice_wrong": self.dice_wrong,
            "moves": self.moves,
            "result": self.result,
            "finished": self.finished,
            "gave_up": self.gave_up,
            "scores": {str(player): cents for player, cents in self.scores.items()},
            "final_position": self.final_position,
            "capped_at": self.capped_at,
            "press_to_verdict_ms": {
                "median": round(ordered[len(ordered) // 2], 1) if ordered else None,
                "max": round(ordered[-1], 1) if ordered else None,
            },
        }


class Director(RollingDirector, CardDirector):
    """Plays the people at a simulated table: moves coins, presses buttons, answers questions,
    throws dice (:mod:`companion.demo_rolls`), plays cards from real hands
    (:mod:`companion.demo_cards`)."""

    def __init__(self, table: Table, board: PhysicalBoard, press: Callable[[str], object],
                 options: DemoOptions, after_turn: Callable[[int], None] | None = None) -> None:
        self.table = table
        self.game: Game = table.parts.game
        self.board = board
        self.press = press
        self.options = options
        self.after_turn = after_turn
        self.report = DemoReport()
        self._fix_rng = random.Random(f"{options.seed}/straighten")
        self._changed = threading.Condition()
        self._verdicts: list[Verdict] = []
        self._card_history: dict[int, DealtCards] = {}
        self._next_cards: DealtCards | None = None
        self._pool: Executor | None = None
        #: The positions the game has stood in, which purposeful bots do not go back to when
        #: another move is as good (a resumed game's are read from its record).
        self.seen: set[Position] = set()
        table.on_change(self._notify)
        table.on_verdict(self._verdict)

    def run(self, stop: threading.Event) -> DemoReport:
        """Play until the game ends, ``max_turns`` (or else the game's demo cap) is reached,
        ``stop`` is set or it gives up."""
        referee = self.table.parts.referee
        if referee.phase is Phase.SETUP and not self._confirm_layout(stop):
            return self._finish()
        limit = self.options.max_turns if self.options.max_turns is not None else self._cap()
        while not stop.is_set() and referee.phase is not Phase.OVER:
            self.report.turns = self._plies()
            if limit is not None and self.report.turns >= limit:
                if self.options.max_turns is None:
                    self.report.capped_at = limit
                break
            if not self._play_turn(stop):
                break
            self.report.turns = self._plies()
            if self.after_turn is not None:
                self.after_turn(self.report.turns)
        return self._finish()

    def _finish(self) -> DemoReport:
        referee = self.table.parts.referee
        self.report.turns = self._plies()
        self.report.result = referee.view().result
        self.report.finished = referee.phase is Phase.OVER
        if referee.position is not None:
            self.report.final_position = referee.position.to_json()
            self.report.scores = dict(self.game.scores(referee.position))
        return self.report

    def _plies(self) -> int:
        journal = self.table.parts.journal
        return len(journal.standing) if journal is not None else 0

    # Setup --------------------------------------------------------------------------------------

    def _confirm_layout(self, stop: threading.Event) -> bool:
        """Wait for the layout to be read; read again after straightening until it is right
        (also when the camera's reading could not start a game at all: a red light)."""
        referee = self.table.parts.referee
        with self._changed:
            verdicts = len(self._verdicts)
        for _ in range(self.options.max_tries):
            if not self._wait(lambda: referee.position is not None
                              or len(self._verdicts) > verdicts, stop,
                              self.options.turn_timeout_s):
                return self._give_up("the starting layout was never read")
            position = referee.position
            if position is not None and self.game.layout(position).stacks() == self.board.squares:
                self._pause(0.5)
                self.press("CONFIRM")
                return self._wait(lambda: referee.phase is not Phase.SETUP, stop)
            self.report.misreads += 1
            self._straighten()
            self._press_for_verdict("SELECT", stop)
        return self._give_up("the starting layout kept being misread")

    # One turn -----------------------------------------------------------------------------------

    def _play_turn(self, stop: threading.Event) -> bool:
        referee = self.table.parts.referee
        # The bots' draws are seeded by the plies the journal holds: let the last event's line
        # be written first, or a turn read between the two would draw from the wrong seed.
        self.table.wait_quiet(self.options.turn_timeout_s)
        if referee.phase is Phase.ROLL:
            return self._play_roll(stop)
        if referee.phase is Phase.RESTORE:
            return self._settle_restore(stop)
        position = referee.position
        assert position is not None
        plies = self._plies()
        rng = random.Random(f"{self.options.seed}/{plies}")
        mover = self.game.to_move(position)
        self.seen.add(position)
        move = self._card_move(position, mover, rng) or self._choose(position, mover, rng)
        after = self.game.apply(position, move)
        expected = self._settled(after)
        self._sow_by_hand(move, after, self.game.mover_part(position, move))
        sloppy = rng.random() < self.options.sloppy_rate and self.board.knock_off(rng) is not None
        for _ in range(self.options.max_tries):
            if stop.is_set():
                return False
            if self._submit(mover, stop) is None:
                return self._give_up(f"no verdict came for move {plies + 1} ({move.text()})")
            if referee.phase is Phase.CHOOSING:
                self.report.asks += 1
                self._choose_candidate(position, after, stop)
            if referee.position == expected:
                self._cards_accepted(plies + 1)
                self.board.lay_out(self.game.layout(expected))
                self._pause(0.3)
                return True
            if referee.position != position:
                if not self._take_back(position, stop):
                    return self._give_up(f"the camera's wrong reading of {move.text()} was "
                                         "accepted and could not be taken back")
            elif sloppy:
                self.report.rejects += 1
                sloppy = False
                self._pause(1.0)
                self._move_by_hand(after)
                continue
            self.report.misreads += 1
            self._straighten()
        return self._give_up(f"move {plies + 1} ({mover}: {move.text()}) was misread "
                             f"{self.options.max_tries} times")

    def _give_up(self, reason: str) -> bool:
        self.report.gave_up = reason
        return False

    def _settled(self, position: Position) -> Position:
        """``position`` after the automatic passes the referee will add."""
        while not self.game.is_over(position):
            first = self.game.forced(position)
            if first is None:
                break
            position = self.game.apply(position, first)
        return position

    def _submit(self, mover: int, stop: threading.Event) -> str | None:
        """Press the mover's button and wait for the verdict on the lights (None if none came)."""
        pressed = time.perf_counter()
        verdict = self._press_for_verdict(f"END{mover}", stop)
        if verdict is not None:
            self.report.verdict_ms.append((time.perf_counter() - pressed) * 1000)
        return verdict

    def _press_until(self, button: str, condition: Callable[[], bool],
                     stop: threading.Event) -> bool:
        """Press ``button`` and wait for the next verdict on the lights or for ``condition``."""
        with self._changed:
            count = len(self._verdicts)
        self.press(button)
        return self._wait(lambda: len(self._verdicts) > count or condition(), stop,
                          self.options.turn_timeout_s)

    def _press_for_verdict(self, button: str, stop: threading.Event) -> str | None:
        """Press ``button`` and wait for the next verdict on the lights (None if none came)."""
        with self._changed:
            count = len(self._verdicts)
        self.press(button)
        if not self._wait(lambda: len(self._verdicts) > count, stop, self.options.turn_timeout_s):
            return None
        with self._changed:
            return self._verdicts[count].verdict

    def _choose_candidate(self, position: Position, after: Position, stop: threading.Event) -> None:
        """Step through the candidates and confirm the move made; cancel if it is not there."""
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
        self.press("UNDO")
        self._wait(lambda: referee.phase is not Phase.CHOOSING, stop)

    def _take_back(self, position: Position, stop: threading.Event) -> bool:
        """Undo a move the referee accepted from a misreading; True once it is back."""
        referee = self.table.parts.referee
        self.report.takebacks += 1
        self.press("UNDO")
        if not self._wait(lambda: referee.phase is Phase.UNDO, stop):
            return False
        self.press("CONFIRM")
        return self._wait(lambda: referee.position == position and referee.phase is Phase.TURN,
                          stop)

    def _straighten(self) -> None:
        """A person's answer to a misread board: reach in and straighten the coins."""
        self.board.hand(True)
        self._wait_frames(HAND_FRAMES)
        self.board.straighten(self._fix_rng.randrange(1, 2**31))
        self.board.hand(False)
        self._pause(0.5)

    def _sow_by_hand(self, move: Move, after: Position, part: TableState | None = None) -> None:
        """Make ``move`` by hand; where coins lie loose (pits), the hand empties the first
        region the move names, then fills the others one at a time, in the move's order."""
        target = self.game.layout(after).stacks()
        regions = [region for region in move.regions() if region in self.board.loose]
        if len(regions) < 2:
            self._move_by_hand(after, part)
            return
        self.board.hand(True)
        self._pause(0.2)
        for region in regions:
            self.board.put(region, target.get(region, ""))
            self._pause(0.15)
        self._wait_frames(1)
        self.board.lay_out(self.game.layout(after))
        self._pause(0.2)
        self.board.hand(False)

    def _move_by_hand(self, after: Position, part: TableState | None = None) -> None:
        """Reach over the board and leave it as ``after`` shows it (or as ``part``: the
        mover's own part of a move, the rest to be done by hand once the screen asks)."""
        self.board.hand(True)
        self._pause(0.4)
        self._wait_frames(HAND_FRAMES)
        self.board.lay_out(part if part is not None else self.game.layout(after))
        self._pause(0.2)
        self.board.hand(False)

    def _choose(self, position: Position, mover: int, rng: random.Random) -> Move:
        bot = self._bot(mover)
        return bot_move(self.game, position, bot, rng, seen=self.seen,
                        **self._search_options(bot, rng))

    def _bot(self, mover: int) -> Bot:
        return parse_bot(self.options.bots[(mover - 1) % len(self.options.bots)])

    def _search_options(self, bot: Bot, rng: random.Random) -> dict[str, Any]:
        """A search bot's seed (from the turn's generator), the process it searches in, so its
        thinking does not hold the table's threads up, and the plies left when the game's demo
        cap will stop and score the game; nothing for other bots (their generator is left as
        it was)."""
        if bot.kind != "search":
            return {}
        if self._pool is None:
            self._pool = worker_pool(1)
        options: dict[str, Any] = {"seed": rng.randrange(2**31), "pool": self._pool}
        scored_cap = self._cap() if self.options.max_turns is None else None
        if scored_cap is not None:
            options["plies_left"] = max(scored_cap - self._plies(), 1)
        return options

    def _cap(self) -> int | None:
        """The game's own demo cap for this table's number of seats."""
        return self.game.demo_cap(len(self.table.parts.seats))

    def close(self) -> None:
        """Stop the search bots' worker process, if one was started."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)
            self._pool = None

    # Waiting ------------------------------------------------------------------------------------

    def _notify(self, table: Table) -> None:
        with self._changed:
            self._changed.notify_all()

    def _verdict(self, verdict: Verdict) -> None:
        with self._changed:
            self._verdicts.append(verdict)
            self._changed.notify_all()

    def _wait(self, condition: Callable[[], bool], stop: threading.Event,
              timeout: float = 60.0) -> bool:
        deadline = time.monotonic() + timeout
        with self._changed:
            while not condition():
                remaining = deadline - time.monotonic()
                if remaining <= 0 or stop.is_set():
                    return False
                self._changed.wait(min(remaining, 0.05))
        return True

    def _wait_frames(self, count: int, timeout: float = 5.0) -> None:
        """Wait until the camera has rendered ``count`` frames more (a hand is seen)."""
        target = self.board.frames_shown + count
        deadline = time.monotonic() + timeout
        while self.board.frames_shown < target and time.monotonic() < deadline:
            if self.table.stopped.wait(0.01):
                return

    def _pause(self, seconds: float) -> None:
        if self.options.speed > 0:
            time.sleep(seconds / self.options.speed)


def _selection_moved(referee: Any, selected: int) -> Callable[[], bool]:
    return lambda: referee.view().selected != selected


def run_demo(
    game_options: GameOptions,
    options: DemoOptions,
    out: Path,
    headless: bool,
    frames_per_second: float = 10.0,
    resume: bool = False,
    on_verdict: Callable[[Verdict], None] | None = None,
    on_table: Callable[[Table], None] | None = None,
) -> DemoReport:
    """Play a whole demo game; the record goes to ``out/record``, screenshots to ``out/screens``.

    The synthetic camera's clock runs at ``frames_per_second`` frames a second of table time, so
    the steady gate's 0.4 s settle takes a few frames whatever the rendering speed. ``resume``
    carries on the game in ``out/record``: the board is laid out as its journal ends.
    ``on_verdict`` hears every verdict right after the panel's lights were set; ``on_table``
    is handed the table before it starts (a voice or hints to attach).
    """
    record = out / "record"
    referee, journal, game_options = _referee(game_options, record, resume)
    if not options.bots:
        options = replace(options, bots=referee.game.demo_bots)
    parts, board, twin = _simulated_table(referee, journal, game_options, options, record,
                                          frames_per_second)
    sink = HeadlessSink()
    table = Table(parts, sink)
    if on_verdict is not None:
        table.on_verdict(on_verdict)
    if on_table is not None:
        on_table(table)
    screens = out / "screens"
    # Screens are drawn and saved off the director's path: the snapshot is the turn's own.
    saver = ThreadPoolExecutor(max_workers=1, thread_name_prefix="demo screens")
    saved: list[Future[Path]] = []
    drawn = RenderCache()  # the saver's one thread only

    def after_turn(turn: int) -> None:
        if headless:
            saved.append(saver.submit(save_screenshot, sink.current(),
                                      screens / f"turn-{turn:03d}.png", cache=drawn))

    director = Director(table, board, twin.press, options, after_turn)
    if resume:
        director.seen.update(standing_positions(record))
    try:
        report = _direct(director, table, sink, screens, headless)
    finally:
        director.close()
        table.stop()
        close_quietly(parts)
        saver.shutdown(wait=True)
    for screen in saved:
        screen.result()  # a screen that could not be saved says so here
    if (record / "journal.jsonl").exists():
        report.moves = accepted_moves(record)
    return report


def _referee(game_options: GameOptions, record: Path, resume: bool
             ) -> tuple[Referee, JournalWriter | None, GameOptions]:
    """A new game's referee, or (``resume``) the one the record in ``record`` ends with, its
    journal, and the game options with the record's number of players."""
    if not resume:
        return new_referee(game_options), None, game_options
    referee, journal, players = resumed_referee(record)
    say_where_the_tail_went(journal, "demo")
    return referee, journal, replace(game_options, players=players)


def _simulated_table(referee: Referee, journal: JournalWriter | None, game_options: GameOptions,
                     options: DemoOptions, record: Path, frames_per_second: float
                     ) -> tuple[TableParts, PhysicalBoard, PanelTwin]:
    """The table's parts on a simulated panel and camera, the physical board the bots'
    hands lay out as the game stands, and the panel's twin whose buttons they press."""
    seed = options.seed
    panel = open_panel("sim://" if game_options.players <= 4 else f"sim://?seats={game_options.players}")
    mat = referee.game.info.mat
    url = (f"sim://?seed={seed}&board=empty&mat={mat}"
           + (f"&seats={game_options.players}" if mat in SEATED_MATS else "")
           + ("&plain=1" if options.plain_camera else ""))
    parts = table_parts(referee, url, panel, VisionProfile.default(), record,
                        game_options.players, journal,
                        camera_options=CameraOptions(fps=frames_per_second))
    camera = parts.camera
    assert isinstance(camera, SimCamera) and panel.twin is not None
    camera_size = options.camera_size or advised_camera_size(camera.scene.geometry)
    parts.header_options[HEADER_KEY] = replace(options, camera_size=camera_size).to_json()
    colours = {str(seat.number): seat.colour for seat in parts.seats}
    camera.synth.set_scene(replace(camera.scene, image_size=camera_size))
    board = PhysicalBoard(camera, colours, seed, referee.game.info.flat_tokens)
    board.lay_out(referee.game.layout(
        referee.position if referee.position is not None else referee.template))
    return parts, board, panel.twin


def _direct(director: Director, table: Table, sink: HeadlessSink, screens: Path,
            headless: bool) -> DemoReport:
    """Run the director's game in its own thread while the table runs (headless) or the
    window does; the director's report, also when it stopped on an error."""
    report_box: list[DemoReport] = []

    def direct() -> None:
        try:
            report_box.append(director.run(table.stopped))
        except Exception:
            director.report.gave_up = "the bots stopped on an error (printed above)"
            raise

    director_thread = threading.Thread(target=direct, name="demo director", daemon=True)
    if headless:
        table.start()
        director_thread.start()
        director_thread.join()
        sink.save(screens / "final.png")
    else:
        director_thread.start()
        run_windowed(table, lingering(lambda: not director_thread.is_alive(), 5.0))
    return report_box[0] if report_box else director.report

