"""`companion calibrate`: learn how this camera sees this mat, these coins and these pawns.

It captures a few steady frames of the empty mat (checked against the printed mat: nothing may
lie on the play area), then asks for a layout (one coin of each kind and each pawn on named
squares), waits for steady frames that show it, learns a vision profile from them together and
saves it as JSON. Where there is a display, the side screen shows each step: the
board with the coins and pawns to lay out, the live camera, and what the camera is waiting for;
the terminal says the same in words. With ``--camera sim://`` the simulated table lays the coins
out by itself, so the whole command runs without anyone at the table.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion.cli.numbers import number

if TYPE_CHECKING:
    from calibration.geometry import MatGeometry
    from calibration.profile import VisionProfile
    from companion.display.screen import Screen
    from companion.display.snapshot import Severity
    from vision.calibrate import (
        Calibration,
        CalibrationConfig,
        CalibrationError,
        CalibrationLayout,
        LayoutFrame,
    )
    from vision.camera import CameraSource, EndOfFrames, Frame
    from vision.gate import GateVerdict, SteadyGate
    from vision.markers import BoardLocation


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Add the `calibrate` subcommand."""
    parser = subparsers.add_parser(
        "calibrate",
        help="learn this camera's view of the mat, coins and pawns; save a vision profile",
        description="Capture the empty mat, then one layout of known coins and pawns, and save "
        "what was learned as a JSON profile for `companion vision read --profile`.",
        epilog="Still photos: with --camera file://FOLDER the images are taken in name order, "
        "photos of the empty mat first, then photos of the layout (for example 1-empty.jpg, "
        "2-layout.jpg). A photo cannot move, so each counts as steady when the whole mat is "
        "in view with no hand over it; the empty-mat step ends at the first photo with "
        "something on the mat, and each step uses up to --frames photos (one is enough).",
    )
    parser.add_argument("--camera", required=True, metavar="URL",
                        help="camera: a device index (0), /dev/videoN, a video, file://DIR, "
                        "or sim:// for the simulated table")
    parser.add_argument("--mat", default="coin-isolation", help="the mat's game (default: "
                        "%(default)s)")
    parser.add_argument("--square-mm", type=number("--square-mm", 10, 200), default=None,
                        help="square size in mm the mat was printed with, 10 to 200 (default: "
                        "the mat's own)")
    parser.add_argument("--players", type=int, choices=range(2, 7), default=None, metavar="N",
                        help="seats the mat was printed for, 2 to 6 (default 4), for "
                        "jokers-and-coins")
    parser.add_argument("--out", type=Path, default=Path("profile.json"),
                        help="where to save the profile (default: %(default)s)")
    parser.add_argument("--kinds", default=None,
                        help="coin kinds to lay out, as letters (default: the game's coins)")
    parser.add_argument("--pawns", default=None,
                        help="pawn colours to lay out, comma-separated (default: the game's "
                        "first two)")
    parser.add_argument("--frames", type=number("--frames", 1, 30, integer=True), default=3,
                        help="steady frames to capture of the empty mat and of the layout, "
                        "the most photos each step uses from a folder, 1 to 30 (default: "
                        "%(default)s)")
    parser.add_argument("--timeout", type=number("--timeout", 0, 86400, above=True),
                        default=120.0, help="seconds to wait for each step, above 0 up to a day "
                        "(default: %(default)s)")
    parser.add_argument("--headless", action="store_true",
                        help="no window: the steps are given in the terminal only")
    parser.set_defaults(func=run)


def _kinds_and_pawns(args: argparse.Namespace) -> tuple[str, tuple[str, ...]]:
    """The coin kinds and pawn colours to lay out: as given, else the mat's game's."""
    from companion.games import game_names, get_game

    info = get_game(args.mat).info if args.mat in game_names() else None
    kinds = args.kinds if args.kinds is not None else (info.coin_kinds if info else "PNDQ")
    colours = (args.pawns.split(",") if args.pawns is not None
               else list(info.token_colours[:2]) if info else ["red", "blue"])
    return kinds.upper(), tuple(colour.strip() for colour in colours if colour.strip())


def run(args: argparse.Namespace) -> int:
    """Capture, learn, save; every expected failure is a CompanionError (one line, exit 2)."""
    from dataclasses import replace

    from calibration.geometry import mat_for_game
    from vision.calibrate import CalibrationConfig, calibration_layout
    from vision.camera import open_camera
    from vision.gate import SteadyGate

    geometry = mat_for_game(args.mat, args.square_mm, players=args.players)
    kinds, pawns = _kinds_and_pawns(args)
    layout = calibration_layout(geometry, kinds, pawns)
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
    _save(profile, args.out)
    print("Learned:")
    for line in calibration.report():
        print(f"  {line}")
    for warning in calibration.warnings:
        print(f"Warning: {warning}.")
    print(f"Saved the profile to {args.out}; use it with "
          f"`companion vision read IMAGE --profile {args.out}`.")
    return 0


def _save(profile: VisionProfile, path: Path) -> None:
    """Save ``profile`` whole or not at all: written beside ``path``, then moved onto it."""
    from vision.calibrate import CalibrationError

    partial = path.with_name(f".{path.name}.partial")
    try:
        profile.save(partial)
        partial.replace(path)
    except OSError as error:
        raise CalibrationError(f"cannot save the profile to {path}: {error.strerror}; "
                               "nothing was saved") from None
    finally:
        partial.unlink(missing_ok=True)


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


#: Seconds a live camera's layout may stand still with an object missing (that the printed-mat
#: check does not see: a coin glare washes white on white paper) before calibration goes on
#: without it, with a warning; a user still laying out moves within that time.
LAYOUT_PATIENCE_S = 6.0


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
    screen where there is one.

    A source of still photos (``file://FOLDER``) is read in name order: photos of the empty
    mat first, then photos of the layout. A photo cannot move, so each one counts as steady
    when the gate finds nothing wrong in it; the empty-mat step takes up to ``count`` photos of
    the empty mat and ends at the first photo that shows something on the mat, and the layout
    step combines up to ``count`` photos of the layout (one of each step is enough).
    """

    def __init__(self, camera: CameraSource, gate: SteadyGate, geometry: MatGeometry,
                 config: CalibrationConfig, timeout_s: float, window: _Window | None = None
                 ) -> None:
        self.camera = camera
        self.gate = gate
        self.geometry = geometry
        self.config = config
        self.timeout_s = timeout_s
        self.window = window
        self.stills = bool(getattr(camera, "stills", False))
        self._pending: Frame | None = None
        self._said = ""

    def calibrate(self, layout: CalibrationLayout, count: int) -> Calibration:
        """Capture the empty mat, then the layout, and learn; raises CalibrationError (or a
        CameraError) with one sentence saying what went wrong and what to do."""
        from vision.calibrate import learn_background, learn_focal, with_focal

        print(f"Calibrating mat {self.geometry.name!r} with camera {self.camera.url!r}.")
        first = "Step 1 of 2: clear the mat (no coins, no pawns) and take your hands away."
        print(first)
        self._stage({}, {}, first)
        empty = self._empty_frames(count)
        print(f"  captured {_count(len(empty), 'frame')} of the empty mat: "
              f"{', '.join(frame.label for frame in empty)}.")
        background = learn_background(self.config, self.geometry,
                                      [frame.image for frame in empty])
        focal = learn_focal(self.config, self.geometry, [frame.image for frame in empty])
        second = ("Step 2 of 2: put the coins and pawns shown on their squares, then take "
                  "your hands away.")
        print("Step 2 of 2: lay out these, then take your hands away:")
        for line in layout.instructions():
            print(f"  - {line}")
        self._stage(layout.squares(), layout.pawns_by_square(), second)
        return with_focal(self._learn(layout, background, count), focal)

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

    def _look(self) -> tuple[Frame, GateVerdict, BoardLocation | None]:
        """The next frame (a photo the last step did not use comes first), the gate's verdict
        on it and where the board lies; raises EndOfFrames when the source has ended."""
        frame = self._pending or self.camera.read()
        self._pending = None
        if self.stills:
            verdict, location = self.gate.look_still(frame.image)
        else:
            verdict, location = self.gate.look(frame.timestamp, frame.image)
        if self.window is not None:
            self.window.frame(frame, location)
        return frame, verdict, location

    def _empty_frames(self, count: int) -> list[Frame]:
        """``count`` steady frames showing nothing on the mat (for still photos, up to
        ``count`` of the photos before the first that shows something); raises
        CalibrationError when the time limit passes or the source ends first."""
        from vision.camera import EndOfFrames

        step = _Step("the empty mat", self.timeout_s, count, self.stills)
        frames: list[Frame] = []
        while len(frames) < count:
            try:
                frame, verdict, location = self._look()
            except EndOfFrames as end:
                if self.stills and frames:
                    return frames
                raise step.ended(end, len(frames)) from None
            squares = self._clutter(frame, location) if verdict.steady else ()
            if verdict.steady and not squares:
                frames.append(frame)
                step.took(frame)
                continue
            if self.stills and frames:  # the photos have moved on to the layout
                self._pending = frame
                return frames
            problem = f"clear the mat: something lies on {_listed(squares)}" if squares else (
                verdict.reason)
            self._say(problem)
            step.missed(frame, problem, squares)
        return frames

    def _clutter(self, frame: Frame, location: BoardLocation | None) -> tuple[str, ...]:
        """The squares something lies on in ``frame``, compared with the printed mat."""
        from vision.clutter import cluttered_regions, find_clutter

        if location is None:
            return ()
        return cluttered_regions(self.geometry, find_clutter(self.geometry, frame.image,
                                                             location))

    def _learn(self, layout: CalibrationLayout, background: Any, count: int) -> Calibration:
        """Measure steady frames of the layout until the last ``count`` of them show every
        object (for still photos: the photos of the layout, up to ``count``), and learn.

        Each frame is measured once and the frames are combined, so a coin some frames missed
        counts from those that saw it, and one none saw is learned from the other coins with a
        warning. On a live camera the user may still be laying out: until every object of the
        layout lies on its square in one of the run's frames (by the printed-mat check), or
        the layout has stood still without it for ``LAYOUT_PATIENCE_S``, what is missing is
        shown and the next frames are tried; a frame that is not steady starts the run again.
        Photos of the empty mat beyond those the first step took are passed over.
        """
        from vision.camera import EndOfFrames

        step = _Step("the layout", self.timeout_s, count, self.stills)
        run: list[LayoutFrame] = []
        seen: list[set[str]] = []
        waited_for, since = "", 0.0
        while True:
            try:
                frame, verdict, location = self._look()
            except EndOfFrames as end:
                result = _combined(run, layout) if self.stills and run else step.problem
                if not isinstance(result, str):
                    return result
                step.problem = result
                raise step.ended(end, len(run)) from None
            if not verdict.steady:
                run, seen = (run, seen) if self.stills else ([], [])
                self._say(verdict.reason)
                step.missed(frame, verdict.reason)
            elif self.stills and not self._clutter(frame, location):
                step.took(frame)  # another photo of the empty mat
            else:
                run = [*run, self._measure(frame, location, background, layout)][-count:]
                if not self.stills:
                    seen = [*seen, set(self._clutter(frame, location))][-count:]
                result = ""
                if len(run) == count:
                    lacking = "" if self.stills else _still_laying_out(seen, layout)
                    since = since if lacking == waited_for else frame.timestamp
                    waited_for = lacking
                    patient = frame.timestamp - since < LAYOUT_PATIENCE_S
                    result = lacking if lacking and patient else _combined(run, layout)
                if not isinstance(result, str):
                    return result
                if result:
                    self._say(result)
                step.missed(frame, result)

    def _measure(self, frame: Frame, location: BoardLocation | None, background: Any,
                 layout: CalibrationLayout) -> LayoutFrame:
        """Every object of ``layout`` measured in ``frame`` (named by its file or index)."""
        from vision.calibrate import measure_layout_frame

        return measure_layout_frame(self.config, self.geometry, background, frame.image,
                                    layout, name=frame.label, location=location)


def _combined(run: list[LayoutFrame], layout: CalibrationLayout) -> Calibration | str:
    """What the layout frames of ``run`` teach, or the sentence saying why they teach nothing."""
    from vision.calibrate import CalibrationError, combine_layout

    try:
        return combine_layout(run, layout)
    except CalibrationError as error:
        return str(error)


def _still_laying_out(seen: list[set[str]], layout: CalibrationLayout) -> str:
    """On a live camera: what the layout still lacks, judged against the printed mat in the
    frames of the run (``seen``: the squares something lies on in each), or "" when every
    object of the layout lies on its square in one of them. The combination forgives an
    object the reader misses, so this is what waits for the user to finish laying out."""
    shown = set().union(*seen) if seen else set()
    wanted = [(f"the {colour} pawn", square) for colour, square in layout.pawns]
    wanted = [(f"a {_coin_name(kind)}", square) for kind, square in layout.coins] + wanted
    lacking = [f"{thing} on {square}" for thing, square in wanted if square not in shown]
    return f"waiting for {_listed(tuple(lacking))}" if lacking else ""


def _coin_name(kind: str) -> str:
    from contract.observation import COIN_KINDS

    return COIN_KINDS[kind][0]


def _count(number: int, noun: str) -> str:
    """``1 frame``, ``3 frames``."""
    from vision.calibration_combine import counted

    return counted(number, noun)


def _listed(names: tuple[str, ...]) -> str:
    """``e4``, ``e4 and f6``, ``c3, e4, f6, g7 and 2 more``."""
    from vision.calibrate import listed

    return listed(names)


class _Step:
    """What a step of calibration waits for, since when, and why the frames so far did not
    give it; makes the sentence for a step that runs out of time or of frames."""

    def __init__(self, what: str, timeout_s: float, count: int, stills: bool) -> None:
        self.what = what
        self.timeout_s = timeout_s
        self.count = count
        self.stills = stills
        self.start: float | None = None
        self.frames = 0
        self.first = ""
        self.problem = ""
        self.squares: tuple[str, ...] = ()

    def took(self, frame: Frame) -> None:
        """Note the time of a frame the step took, or passed over as none of its business."""
        self.start = frame.timestamp if self.start is None else self.start

    def missed(self, frame: Frame, problem: str = "", squares: tuple[str, ...] = ()) -> None:
        """Count a frame that did not give what the step waits for, and why (``squares``
        something lies on, when that was it; no ``problem`` when the step needs more frames
        yet); raises CalibrationError once the time limit has passed."""
        self.took(frame)
        self.frames += 1
        if problem:
            self.first = self.first or _described(problem, squares)
        self.problem, self.squares = problem, squares
        if self.start is not None and frame.timestamp - self.start > self.timeout_s:
            raise self.timed_out()

    def timed_out(self) -> CalibrationError:
        """The error for a step whose time limit has passed."""
        from vision.calibrate import CalibrationError

        limit = f"{self.timeout_s:g} s"
        if self.squares:
            return CalibrationError(
                f"the mat was not cleared within {limit}: something still lies on "
                f"{_listed(self.squares)}; clear it and run `companion calibrate` again")
        if self.what == "the layout":
            problem = self.problem or "too few steady frames came"
            return CalibrationError(f"the layout was not seen within {limit}: {problem}")
        return CalibrationError(f"no steady view of {self.what} within {limit} "
                                f"({self.problem}); fix that and run `companion calibrate` again")

    def ended(self, end: EndOfFrames, used: int) -> CalibrationError:
        """The error for a source that ran out of frames, ``used`` of them taken so far."""
        from vision.calibrate import CalibrationError

        source = end.source or "the camera"
        if self.stills:
            return CalibrationError(self._photos_ended(source, end.frames, used))
        last = f" (the last frame: {_described(self.problem, self.squares)})" if self.problem \
            else ""
        fix = "clear the mat and record it again" if self.squares else (
            f"record {self.what} for longer")
        if used == 0:
            return CalibrationError(f"{source} ended before it showed a steady view of "
                                    f"{self.what}{last}: {fix}")
        if used < self.count:
            return CalibrationError(
                f"calibration needs {_count(self.count, 'steady frame')} of {self.what} but "
                f"{source} ended after {used}{last}: {fix}, or use --frames {used}")
        return CalibrationError(f"{source} ended before {self.what} was seen: {self.problem}")

    def _photos_ended(self, source: str, photos: int, used: int) -> str:
        """The sentence for still photos that ran out before this step was done, ``used`` of
        them measured in it."""
        verb = "shows" if photos == 1 else "show"
        if self.what == "the empty mat":
            return (f"{source} {verb} no empty mat (the first: {self.first}): put a photo of "
                    "the cleared mat first, as photos are taken in name order")
        if self.frames == 0:
            return (f"{source} {verb} the empty mat but no layout: add a photo of the layout "
                    "after the photos of the empty mat, as photos are taken in name order")
        if used == 0:
            return (f"{source} {verb} no steady layout (the last: "
                    f"{_described(self.problem, ())}): fix that and take the photo again")
        return f"{source} {verb} no whole layout: {self.problem}"


def _described(problem: str, squares: tuple[str, ...]) -> str:
    """A problem as a phrase inside a sentence: ``something lies on e4 and f6``, or the
    gate's reason with its own colon softened (``no markers seen, put the whole mat in
    view``)."""
    return f"something lies on {_listed(squares)}" if squares else problem.replace(": ", ", ")
