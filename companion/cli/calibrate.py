"""`companion calibrate`: learn how this camera sees this mat, these coins and these pawns.

It captures a few steady frames of the empty mat, then asks for a layout (one coin of each kind
and each pawn on named squares), waits for a steady frame that shows it, learns a vision
profile and saves it as JSON. Where there is a display, the side screen shows each step: the
board with the coins and pawns to lay out, the live camera, and what the camera is waiting for;
the terminal says the same in words. With ``--camera sim://`` the simulated table lays the coins
out by itself, so the whole command runs without anyone at the table.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from calibration.geometry import MatGeometry
    from companion.display.screen import Screen
    from companion.display.snapshot import Severity
    from vision.calibrate import Calibration, CalibrationConfig, CalibrationLayout
    from vision.camera import CameraSource, Frame
    from vision.gate import SteadyGate
    from vision.markers import BoardLocation


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `calibrate` subcommand."""
    parser = subparsers.add_parser(
        "calibrate",
        help="learn this camera's view of the mat, coins and pawns; save a vision profile",
        description="Capture the empty mat, then one layout of known coins and pawns, and save "
        "what was learned as a JSON profile for `companion vision read --profile`.",
    )
    parser.add_argument("--camera", required=True, metavar="URL",
                        help="camera: a device index (0), /dev/videoN, a video, file://DIR, "
                        "or sim:// for the simulated table")
    parser.add_argument("--mat", default="coin-isolation", help="the mat's game (default: "
                        "%(default)s)")
    parser.add_argument("--square-mm", type=float, default=None,
                        help="square size the mat was printed with (default: the mat's own)")
    parser.add_argument("--out", type=Path, default=Path("profile.json"),
                        help="where to save the profile (default: %(default)s)")
    parser.add_argument("--kinds", default="PNDQ",
                        help="coin kinds to lay out, as letters (default: %(default)s)")
    parser.add_argument("--pawns", default="red,blue",
                        help="pawn colours to lay out, comma-separated (default: %(default)s)")
    parser.add_argument("--frames", type=int, default=3,
                        help="steady frames to capture of the empty mat and of the layout "
                        "(default: %(default)s)")
    parser.add_argument("--timeout", type=float, default=120.0,
                        help="seconds to wait for each step (default: %(default)s)")
    parser.add_argument("--headless", action="store_true",
                        help="no window: the steps are given in the terminal only")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Capture, learn, save; every expected failure is a CompanionError (one line, exit 2)."""
    from dataclasses import replace

    from calibration.geometry import mat_for_game
    from vision.calibrate import CalibrationConfig, CalibrationError, calibration_layout
    from vision.camera import open_camera
    from vision.gate import SteadyGate

    if not 1 <= args.frames <= 30:
        raise CalibrationError(f"--frames {args.frames} is out of range; use 1 to 30")
    geometry = mat_for_game(args.mat, args.square_mm)
    pawns = tuple(colour.strip() for colour in args.pawns.split(",") if colour.strip())
    layout = calibration_layout(geometry, args.kinds.upper(), pawns)
    config = CalibrationConfig()
    camera = open_camera(args.camera)
    window = None if args.headless else _open_window(geometry, args.mat)
    try:
        session = _Session(camera, SteadyGate(geometry), geometry, config, args.timeout, window)
        calibration = session.calibrate(layout, args.frames)
    finally:
        camera.close()
        if window is not None:
            window.close()
    # Recorded so that reading this mat with the profile assumes the same print.
    profile = replace(calibration.profile, mat=args.mat, square_mm=args.square_mm)
    profile.save(args.out)
    print("Learned:")
    for line in calibration.report():
        print(f"  {line}")
    print(f"Saved the profile to {args.out}; use it with "
          f"`companion vision read IMAGE --profile {args.out}`.")
    return 0


def _open_window(geometry: MatGeometry, game: str) -> _Window | None:
    """The side screen for calibrating, or None (and a note) where none can be shown: no
    display, or a mat that is not a grid of squares (the screen draws grid boards)."""
    from companion.display.snapshot import DisplayError
    from companion.launch import has_display

    if _grid_size(geometry) is None or not has_display():
        return None
    from companion.display.screen import Screen

    try:
        screen = Screen(title="Coin Table Companion: calibration")
    except DisplayError as error:
        print(f"No window ({error}); follow the steps here.")
        return None
    return _Window(screen, geometry, game)


def _grid_size(geometry: MatGeometry) -> tuple[int, int] | None:
    """Files and ranks of a mat whose regions are all squares named a1.., else None."""
    if any(region.kind != "square" for region in geometry.regions):
        return None
    names = geometry.region_names()
    return len({name[0] for name in names}), len({name[1:] for name in names})


class _Window:
    """The side screen while calibrating: the board with what to lay out, the live camera, and
    what to do now. Closing the window (or Escape) stops the calibration."""

    def __init__(self, screen: Screen, geometry: MatGeometry, game: str) -> None:
        grid = _grid_size(geometry)
        if grid is None:
            raise ValueError(f"mat {geometry.name!r} is not a grid of squares the screen draws")
        self.screen = screen
        self.geometry = geometry
        self.grid = grid
        self.game = game
        self._asked: tuple[dict[str, str], dict[str, str], str] = ({}, {}, "")

    def ask(self, coins: dict[str, str], pawns: dict[str, str], text: str) -> None:
        """Show this layout to lay out (squares -> coin letter, squares -> pawn colour)."""
        self._asked = (coins, pawns, text)
        self._show(text, "info")

    def waiting(self, reason: str) -> None:
        """Add what the camera is waiting for to the step's instruction."""
        self._show(f"{self._asked[2]} ({reason})", "warning")

    def _show(self, text: str, severity: Severity) -> None:
        from companion.display.snapshot import Message
        from companion.screen_view import layout_snapshot

        coins, pawns, _ = self._asked
        files, ranks = self.grid
        self.screen.show(layout_snapshot(files, ranks, coins, pawns, Message(text, severity),
                                         self.game))

    def frame(self, frame: Frame, location: BoardLocation | None) -> None:
        """Show the camera's frame and draw the window; stop if the window was closed."""
        from companion.table import camera_preview
        from vision.calibrate import CalibrationError

        self.screen.show_camera(camera_preview(frame, self.geometry, location))
        if not self.screen.step(wait=False):
            raise CalibrationError("calibration stopped: the window was closed; nothing was "
                                   "saved")

    def close(self) -> None:
        self.screen.close()


class _Session:
    """One calibration run: the camera, the gate, the time limit for each step, and the side
    screen where there is one."""

    def __init__(self, camera: CameraSource, gate: SteadyGate, geometry: MatGeometry,
                 config: CalibrationConfig, timeout_s: float, window: _Window | None = None
                 ) -> None:
        self.camera = camera
        self.gate = gate
        self.geometry = geometry
        self.config = config
        self.timeout_s = timeout_s
        self.window = window
        self._said = ""

    def calibrate(self, layout: CalibrationLayout, count: int) -> Calibration:
        print(f"Calibrating mat {self.geometry.name!r} with camera {self.camera.url!r}.")
        first = "Step 1 of 2: clear the mat (no coins, no pawns) and take your hands away."
        print(first)
        self._stage({}, {}, first)
        empty = [frame.image for frame in self._steady_frames(count, "the empty mat")]
        print(f"  captured {len(empty)} frames of the empty mat.")
        second = ("Step 2 of 2: put the coins and pawns shown on their squares, then take "
                  "your hands away.")
        print("Step 2 of 2: lay out these, then take your hands away:")
        for line in layout.instructions():
            print(f"  - {line}")
        self._stage(layout.squares(), layout.pawns_by_square(), second)
        return self._learn(layout, empty, count)

    def _stage(self, coins: dict[str, str], pawns: dict[str, str], text: str) -> None:
        """Ask for this layout on the screen; on the simulated table, lay it out as the user
        would."""
        if self.window is not None:
            self.window.ask(coins, pawns, text)
        show = getattr(self.camera, "show", None)
        if show is not None:
            show(coins, pawns)
        self.gate.reset()
        self._said = ""

    def _say(self, text: str) -> None:
        """Print a waiting reason once, not once per frame, and show it on the screen."""
        if text != self._said:
            print(f"  ({text})")
            self._said = text
            if self.window is not None:
                self.window.waiting(text)

    def _steady_frames(self, count: int, what: str) -> list[Frame]:
        """The next ``count`` steady frames; raises CalibrationError after the time limit."""
        from vision.calibrate import CalibrationError

        frames: list[Frame] = []
        start: float | None = None
        while len(frames) < count:
            frame = self.camera.read()
            start = frame.timestamp if start is None else start
            verdict, location = self.gate.look(frame.timestamp, frame.image)
            if self.window is not None:
                self.window.frame(frame, location)
            if verdict.steady:
                frames.append(frame)
            else:
                self._say(verdict.reason)
            if frame.timestamp - start > self.timeout_s:
                raise CalibrationError(
                    f"no steady view of {what} within {self.timeout_s:g} s ({verdict.reason}); "
                    "fix that and run `companion calibrate` again"
                )
        return frames

    def _learn(self, layout: CalibrationLayout, empty: list[Any], count: int) -> Calibration:
        """Wait for steady frames in which every object of ``layout`` is found, and learn.

        Steady frames are tried one by one until one shows the whole layout (the user may still
        be laying it out); then ``count`` frames of it are measured together.
        """
        from vision.calibrate import CalibrationError, learn_background, learn_from_layout

        background = learn_background(
            self.config, self.geometry, empty, squares=layout.used_squares()
        )
        start: float | None = None
        problem = "waiting for the layout"
        while True:
            frame = self._steady_frames(1, "the layout")[0]
            start = frame.timestamp if start is None else start
            try:
                learn_from_layout(self.config, self.geometry, background, [frame.image], layout)
            except CalibrationError as error:
                problem = str(error)
                self._say(problem)
            else:
                more = self._steady_frames(count - 1, "the layout")
                frames = [frame.image] + [other.image for other in more]
                return learn_from_layout(self.config, self.geometry, background, frames, layout)
            if frame.timestamp - start > self.timeout_s:
                raise CalibrationError(
                    f"the layout was not seen within {self.timeout_s:g} s: {problem}"
                )
