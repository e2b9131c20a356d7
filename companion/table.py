"""The table at run time: camera, vision, panel, referee, journal and screen wired together.

Three threads feed one queue of referee events: the vision thread (reads every frame, runs the
steady gate, and when the referee wants a frame reads the first steady one after the press), the
panel thread (button presses and the panel's own news) and the keyboard (the screen's keys stand
in for a panel). The control thread takes events one at a time, asks the referee, and carries out
its effects in order: the journal line is written and fsynced before the panel's lights answer.
The panel's ROLL button is the keyboard's ``r``; its HINT button (the keyboard's ``h``) goes to
the table's hints (:mod:`companion.hints`), whose search answers later as a :class:`HintReady`
event; with hints off the table answers it with a sentence instead of passing it to the referee.
The screen runs in the main thread and only draws the snapshots it is handed.
"""

from __future__ import annotations

import contextlib
import queue
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import cv2
import numpy as np

from calibration.geometry import MatGeometry
from calibration.profile import VisionProfile
from companion.display.snapshot import CameraView, Snapshot
from companion.games.base import Game, Position
from companion.hints import HintReady, TableHints
from companion.judged_regions import judged_geometry
from companion.panel.driver import Panel
from companion.panel.protocol import MAX_SEATS, LedMode, LedState
from companion.panel.session import ButtonPress, PanelStatus, StatusKind
from companion.record.entries import JournalEvent, JournalHeader
from companion.record.frames import frame_name, save_frame
from companion.record.journal import JournalWriter
from companion.referee import (
    Begin,
    DeviceStatus,
    Effect,
    Event,
    Lights,
    Phase,
    Press,
    Record,
    Referee,
    Seen,
    WantFrame,
)
from companion.screen_view import SeatView, snapshot_of
from contract.observation import Observation, RegionReading
from vision.camera import CameraError, CameraSource, EndOfFrames, Frame
from vision.errors import VisionError
from vision.gate import GateConfig, SteadyGate
from vision.read import VisionConfig, read_frame_details
from vision.view_scale import coarse_view_advice

#: Width of the camera picture handed to the screen; the screen shows it small.
PREVIEW_WIDTH = 480
#: Longest wait between camera reopen attempts after it failed.
CAMERA_RETRY_MAX_S = 2.0
#: How often a table idling on a still board it has read checks whether it was stopped (it
#: looks at the camera again only when the board changes or a frame is wanted).
IDLE_WAIT_S = 1.0
#: What a press of the panel's HINT button gets when the table has no hints.
HINT_MESSAGE = "Hints are off at this table; start it with --hints on to ask for them."


@dataclass(frozen=True)
class Verdict:
    """A verdict shown on the panel's lights: ``green``, ``red`` or ``ask``, with the journal's
    last event when the lights were set (its line was fsynced before)."""

    verdict: str
    event: JournalEvent | None


@runtime_checkable
class ChangeAwareCamera(Protocol):
    """A camera that knows when its picture changes (the synthetic table's): while the board
    is still, read, and no frame is wanted, the vision loop waits for a change instead of
    looking at frames that would only repeat the last one."""

    def wait_for_change(self, timeout: float) -> bool: ...

    def wake(self) -> None: ...


@runtime_checkable
class StillPassingCamera(Protocol):
    """A camera that can let a still table's time go by without filming it (the synthetic
    table's, whose clock is its own): while the gate waits for a still board to settle, the
    frames in between would only repeat the board, so the next one may come at the settle's
    end (:meth:`vision.camera.SimCamera.pass_still`)."""

    def pass_still(self, seconds: float) -> None: ...


@runtime_checkable
class LazyCameraSink(Protocol):
    """A sink that shows the camera picture only now and then (the headless demo's, on its
    screenshots): it is handed a way to make the latest picture, made only if it is shown."""

    def show_camera_later(self, make: Callable[[], CameraView]) -> None: ...


class SnapshotSink(Protocol):
    """Where snapshots go: the window's :class:`~companion.display.screen.Screen`, or a recorder."""

    def show(self, snapshot: Snapshot) -> None: ...

    def show_camera(self, view: CameraView | None) -> None: ...


@dataclass
class TableParts:
    """The devices and settings one table runs with."""

    game: Game
    referee: Referee
    camera: CameraSource
    reopen_camera: Callable[[], CameraSource] | None
    panel: Panel | None
    geometry: MatGeometry
    profile: VisionProfile
    seats: Sequence[SeatView]
    record_folder: Path
    header_options: dict[str, Any] = field(default_factory=dict)
    profile_path: Path | None = None
    journal: JournalWriter | None = None
    vision_config: VisionConfig = field(default_factory=VisionConfig)
    gate_config: GateConfig = field(default_factory=GateConfig)
    hints: TableHints | None = None

    @property
    def reading_profile(self) -> VisionProfile:
        """The profile the camera is read with: only the coin kinds the game uses with this
        many seats (a six-seat Jokers token is then no golden dollar, a kind only Shakala plays,
        and a three-seat game's nickel no quarter, a kind no seat plays)."""
        return self.profile.only_kinds(self.game.info.coin_kinds_for(len(self.seats)))


class Table:
    """Runs one game at the table until it is over or :meth:`stop` is called."""

    def __init__(self, parts: TableParts, sink: SnapshotSink | None = None) -> None:
        self.parts = parts
        self.sink = sink
        self.events: queue.Queue[Event | HintReady] = queue.Queue()
        self.stopped = threading.Event()
        self.gate_reason = "starting the camera"
        #: Advice when the camera sees the mat too coarsely to tell the coins apart (or None).
        self.camera_advice: str | None = None
        self.verdicts = 0
        #: Index of the camera frame whose reading answered the last request for a frame.
        self.answered_with: int | None = None
        self._lock = threading.Lock()
        self._quiet = threading.Condition()
        self._handling = 0
        self._frame_wanted_after: float | None = None
        self._frames: dict[str, Frame] = {}
        self._pending_frames: list[tuple[int, Frame]] = []
        self._snapshot = Snapshot()
        self._threads: list[threading.Thread] = []
        self._listeners: list[Callable[[Table], None]] = []
        self._verdict_listeners: list[Callable[[Verdict], None]] = []
        self._last_event: JournalEvent | None = None
        self._steady_reading: tuple[Frame, Observation, MatGeometry] | None = None
        #: Seconds the gate still waits for the board to settle after the last frame (0 when
        #: it is not settling).
        self._settle_left = 0.0
        self._gate = SteadyGate(parts.geometry, parts.gate_config)
        self._colour_to_player = {seat.colour: str(seat.number) for seat in parts.seats}

    # Lifecycle ----------------------------------------------------------------------------------

    def start(self) -> None:
        """Start the vision, panel and control threads."""
        targets: list[tuple[str, Callable[[], None]]] = [
            ("vision", self._vision_loop),
            ("control", self._control_loop),
        ]
        if self.parts.panel is not None:
            targets.append(("panel", self._panel_loop))
        if self.parts.hints is not None:
            self.parts.hints.start()
        for name, target in targets:
            thread = threading.Thread(target=target, name=f"table {name}", daemon=True)
            thread.start()
            self._threads.append(thread)

    def stop(self) -> None:
        """Stop the threads and wait for them."""
        self.stopped.set()
        for thread in self._threads:
            thread.join(timeout=5)
        if self.parts.hints is not None:
            self.parts.hints.close()

    def on_change(self, listener: Callable[[Table], None]) -> None:
        """Call ``listener(table)`` from the control thread after every event it handled."""
        self._listeners.append(listener)

    def on_verdict(self, listener: Callable[[Verdict], None]) -> None:
        """Call ``listener(verdict)`` from the control thread right after the panel's lights
        were set to a verdict (so after its journal line was fsynced)."""
        self._verdict_listeners.append(listener)

    def press(self, button: str, source: str = "keyboard") -> None:
        """Feed a button press as if it came from a panel (keyboard, bots, tests)."""
        self.events.put(Press(button, source))

    @property
    def last_event(self) -> JournalEvent | None:
        """The journal's last written event (None before the first)."""
        return self._last_event

    @property
    def snapshot(self) -> Snapshot:
        """The latest snapshot drawn (without the camera picture)."""
        with self._lock:
            return self._snapshot

    # Control ------------------------------------------------------------------------------------

    def _control_loop(self) -> None:
        self._perform(self.parts.referee.start())
        self._publish()
        while not self.stopped.is_set():
            try:
                event = self.events.get(timeout=0.1)
            except queue.Empty:
                if self.parts.referee.phase is Phase.READING:
                    self._publish()
                continue
            with self._quiet:
                self._handling += 1
            self._perform(self._handle(event))
            self._publish()
            self._save_pending_frames()
            for listener in self._listeners:
                listener(self)
            with self._quiet:
                self._handling -= 1
                self._quiet.notify_all()

    def wait_quiet(self, timeout: float) -> bool:
        """Wait until no event is being handled or waits to be (False after ``timeout``): the
        referee's state and the journal then agree, as the control thread changes the first
        before it writes the second. For a caller in another thread that reads both."""
        with self._quiet:
            return self._quiet.wait_for(
                lambda: self._handling == 0 and self.events.empty(), timeout)

    def _handle(self, event: Event | HintReady) -> Sequence[Effect]:
        """The referee's effects for ``event``; a HINT press and a finished search go to the
        hints, or without hints the press is answered with a sentence said once (not again while
        it still shows)."""
        referee, hints = self.parts.referee, self.parts.hints
        if isinstance(event, HintReady):
            return hints.ready(event, referee) if hints is not None else []
        if not (isinstance(event, Press) and event.button == "HINT"):
            return referee.handle(event)
        if hints is not None:
            return hints.press(referee, event.source, self.events.put)
        if referee.view().message.endswith(HINT_MESSAGE):
            return []
        return referee.handle(DeviceStatus("panel", HINT_MESSAGE, lasting=False))

    def _perform(self, effects: Sequence[Effect]) -> None:
        for effect in effects:
            if isinstance(effect, Begin):
                self._begin_record(effect.position)
            elif isinstance(effect, Record):
                self._write(effect)
            elif isinstance(effect, Lights):
                if self.parts.panel is not None:
                    self.parts.panel.set_leds(led_state(effect, len(self.parts.seats)))
                if effect.verdict is not None:
                    self.verdicts += 1
                    verdict = Verdict(effect.verdict, self._last_event)
                    for listener in self._verdict_listeners:
                        listener(verdict)
            elif isinstance(effect, WantFrame):
                with self._lock:
                    self._frame_wanted_after = time.monotonic()
                if isinstance(self.parts.camera, ChangeAwareCamera):
                    self.parts.camera.wake()

    def _begin_record(self, position: Position) -> None:
        if self.parts.journal is not None:
            return
        header = JournalHeader.from_position(
            position.to_json(),
            names={seat.number: seat.name for seat in self.parts.seats},
            colours={seat.number: seat.colour for seat in self.parts.seats},
            options=self.parts.header_options,
            calibration_path=None if self.parts.profile_path is None
            else str(self.parts.profile_path),
            calibration_profile=self.parts.profile.to_json(),
        )
        self.parts.journal = JournalWriter.create(self.parts.record_folder, header)

    def _write(self, record: Record) -> None:
        journal = self.parts.journal
        if journal is None:
            return
        fields = dict(record.fields)
        key = fields.get("frame")
        frame = self._frames.pop(key, None) if isinstance(key, str) else None
        if frame is None:
            fields.pop("frame", None)
        else:
            fields["frame"] = frame_name(journal.next_number)
            self._pending_frames.append((journal.next_number, frame))
        self._last_event = journal.record_fields(record.kind, fields)

    def _save_pending_frames(self) -> None:
        """Save accepted frames as JPEG after the panel was answered, off the verdict's path."""
        for number, frame in self._pending_frames:
            with contextlib.suppress(ValueError):
                save_frame(self.parts.record_folder, number, frame.image)
        self._pending_frames.clear()
        if len(self._frames) > 8:
            self._frames.clear()

    def _publish(self) -> None:
        view = self.parts.referee.view()
        snapshot = snapshot_of(
            view, self.parts.seats, game=self.parts.game.name, waiting_reason=self.gate_reason,
            camera_advice=self.camera_advice,
        )
        if self.parts.hints is not None:
            snapshot = self.parts.hints.overlay(snapshot, view)
        with self._lock:
            self._snapshot = snapshot
        if self.sink is not None:
            self.sink.show(snapshot)

    # Panel --------------------------------------------------------------------------------------

    def _panel_loop(self) -> None:
        panel = self.parts.panel
        assert panel is not None
        while not self.stopped.is_set():
            event = panel.next_event(timeout=0.1)
            if isinstance(event, ButtonPress):
                self.events.put(Press(event.button, "panel"))
            elif isinstance(event, PanelStatus):
                back = event.kind in (StatusKind.CONNECTED, StatusKind.BACK, StatusKind.RESET)
                self.events.put(DeviceStatus("panel", None if back else event.message))
                if back and panel.hello is not None:
                    short = seats_short(panel.hello.seats, len(self.parts.seats))
                    self.events.put(DeviceStatus("panel", short, lasting=False))

    # Vision -------------------------------------------------------------------------------------

    def _vision_loop(self) -> None:
        failures = 0
        while not self.stopped.is_set():
            asked = time.monotonic()
            try:
                frame = self.parts.camera.read()
            except EndOfFrames as error:
                self.events.put(DeviceStatus("camera", str(error)))
                return
            except CameraError as error:
                failures += 1
                self.gate_reason = "the camera is not delivering pictures"
                self._gate.reset()  # the board may have changed while nothing was seen
                self._steady_reading = None
                self.events.put(DeviceStatus("camera", str(error)))
                self._reopen_camera(failures)
                continue
            if failures:
                failures = 0
                self.events.put(DeviceStatus("camera", None))
            self._look(frame, asked)
            self._idle_while_still()

    def _idle_while_still(self) -> None:
        """Wait for the table to change while the board's still spell is read and nobody wants
        a frame, when the camera can tell (:class:`ChangeAwareCamera`); a want wakes it. While
        the board settles, let the camera pass the rest of the settle unfilmed if it can
        (:class:`StillPassingCamera`)."""
        camera = self.parts.camera
        if self._settle_left > 0 and isinstance(camera, StillPassingCamera):
            camera.pass_still(self._settle_left)
        with self._lock:
            wanted = self._frame_wanted_after is not None
        if (not wanted and self._steady_reading is not None
                and isinstance(camera, ChangeAwareCamera)):
            while not camera.wait_for_change(IDLE_WAIT_S) and not self.stopped.is_set():
                pass  # nothing changed: the board stays read

    def _reopen_camera(self, failures: int) -> None:
        self.stopped.wait(min(CAMERA_RETRY_MAX_S, 0.1 * 2 ** min(failures, 5)))
        if self.parts.reopen_camera is None:
            return
        with contextlib.suppress(CameraError):
            self.parts.camera.close()
        with contextlib.suppress(CameraError):
            self.parts.camera = self.parts.reopen_camera()

    def _look(self, frame: Frame, asked: float) -> None:
        """Run the gate on ``frame``; when a frame is wanted, answer with the reading of a steady
        frame once one asked of the camera after the press is steady (a frame already on its way
        may show the board before the move was finished).

        The first steady frame of each still spell is read at once, before anyone asks: when the
        board was already still before the press and a frame taken after it is still the same
        spell, nothing has changed since, so that reading answers without reading again.
        """
        if frame.taken_at is not None:
            asked = frame.taken_at  # the table as it was when the picture was taken
        markers = self.parts.vision_config.markers
        verdict, location = self._gate.look(frame.timestamp, frame.image, markers)
        self.gate_reason = verdict.reason
        self._settle_left = (self.parts.gate_config.settle_s - verdict.still_s
                             if verdict.code == "settling" else 0.0)
        if isinstance(self.sink, LazyCameraSink):
            self.sink.show_camera_later(lambda: self._preview(frame, location))
        elif self.sink is not None:
            self.sink.show_camera(self._preview(frame, location))
        if not verdict.steady:
            self._steady_reading = None
            return
        spell_began = frame.timestamp - verdict.still_s - 1e-6
        # Only the regions the referee judges now are read (the mover's discard spot, say).
        geometry = judged_geometry(self.parts.geometry, self.parts.game,
                                   self.parts.referee.position)
        last = self._steady_reading
        if (last is None or last[0].timestamp < spell_began
                or (last[2] is not geometry and self._wanted_since(asked))):
            self._steady_reading = None
            try:
                reading = read_frame_details(  # the gate found the board in this frame
                    self.parts.vision_config, frame.image, geometry, self.parts.reading_profile,
                    location,
                )
            except VisionError as error:
                self.gate_reason = str(error)
                return
            self._steady_reading = (frame, reading.observation, geometry)
            self.camera_advice = coarse_view_advice(reading.location, self.parts.geometry)
        if self._steady_reading is None or not self._wanted_since(asked):
            return
        read_frame, observation, _ = self._steady_reading
        self.answered_with = read_frame.index
        key = f"frame-{read_frame.index}"
        self._frames[key] = read_frame
        with self._lock:
            self._frame_wanted_after = None
        observation = self.parts.game.judged_observation(
            judged_only(observation, self.parts.geometry))
        self.events.put(Seen(observation.relabel_pawns(self._colour_to_player), key))

    def _wanted_since(self, asked: float) -> bool:
        """Whether a frame is wanted and the one asked of the camera at ``asked`` came after
        the want."""
        with self._lock:
            wanted = self._frame_wanted_after
        return wanted is not None and asked > wanted

    def _preview(self, frame: Frame, location: Any) -> CameraView:
        return camera_preview(frame, self.parts.geometry, location)


def judged_only(observation: Observation, geometry: MatGeometry) -> Observation:
    """The observation the referee judges: nothing but the card on each discard spot (a
    discard spot holds cards, never coins, so a coin or pawn read there is the picture on a
    card)."""
    kinds = {region.name: region.kind for region in geometry.regions}
    regions = {}
    for name, reading in observation.regions.items():
        if kinds.get(name) == "discard":
            reading = RegionReading(card=reading.card, confidence=reading.confidence)
        regions[name] = reading
    return replace(observation, regions=regions)


def camera_preview(frame: Frame, geometry: MatGeometry, location: Any) -> CameraView:
    """The side screen's small live picture of ``frame``, with the play area's corners where
    the board was found in it (``location``, a board location or None)."""
    height, width = frame.image.shape[:2]
    scale = PREVIEW_WIDTH / width
    small = cv2.resize(frame.image, (PREVIEW_WIDTH, max(1, round(height * scale))),
                       interpolation=cv2.INTER_AREA)
    corners = None
    if location is not None:
        area = geometry.play_area
        points = [(area.left, area.bottom), (area.right, area.bottom),
                  (area.right, area.top), (area.left, area.top)]
        projected = np.asarray(location.to_image(points), dtype=float) * scale
        corners = tuple((float(x), float(y)) for x, y in projected)
    return CameraView(small, corners, frame.index)  # type: ignore[arg-type]


def seats_short(panel_seats: int, players: int) -> str | None:
    """What to tell the players when the panel has END buttons for fewer seats than play (the
    count its HELLO gives), or None when every seat has one."""
    if panel_seats >= players:
        return None
    first = panel_seats + 1
    keys = f"key {first}" if first == players else f"keys {first} to {players}"
    return (f"The panel has END buttons for {panel_seats} seats and {players} play: the other "
            f"seats end their turns with {keys} on the keyboard.")


def led_state(lights: Lights, players: int) -> LedState:
    """The panel's LEDs for the lights the referee wants: a turn LED per seat (1 to 6), green
    and red. The panel session fits it to the panel's own turn LEDs (a panel with fewer seats
    than play is told of on the screen: :func:`seats_short`)."""
    seats = max(1, min(players, MAX_SEATS))
    turns = [LedMode.OFF] * seats
    for number in range(1, seats + 1):
        if lights.all_turns_blink:
            turns[number - 1] = LedMode.BLINK
        elif lights.turn == number:
            turns[number - 1] = LedMode.ON
    green = {"green": LedMode.ON, "ask": LedMode.BLINK}.get(lights.verdict or "", LedMode.OFF)
    red = LedMode.ON if lights.verdict == "red" else LedMode.OFF
    return LedState(tuple(turns), green, red)


def starting_referee(game: Game, players: int, variants: Sequence[str], seed: int | None
                     ) -> Referee:
    """A referee waiting for the starting layout of a new game."""
    return Referee(game, game.new_position(players, variants, seed=seed))


def replace_seats(parts: TableParts, seats: Sequence[SeatView]) -> TableParts:
    """The same parts with other seats (names and colours)."""
    return replace(parts, seats=tuple(seats))
