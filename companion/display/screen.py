"""The side screen's window: a plain tick, events, draw, flip loop in the main thread.

When only the camera view changed, the loop updates just that area instead of flipping the whole
window, and when nothing changed it presents nothing: copying a full 1080p frame to the X server
60 times a second would cost more than all the drawing.

Other threads (the referee) hand over what to draw with :meth:`Screen.show`, which only swaps the
latest snapshot under a lock; the loop draws whatever is latest at 60 frames a second. Keys stand
in for the panel when there is none: they arrive on :attr:`Screen.buttons` as the panel protocol's
button names (``END1``..``END6``, ``UNDO``, ``SELECT``, ``CONFIRM``, ``ROLL``, ``HINT``).
:func:`save_screenshot` renders without a window, for the headless demo, tests and the pictures
in ``docs/``.
"""

from __future__ import annotations

import argparse
import os
import queue
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import cv2
import numpy as np
import pygame

from companion.display.layout import Box, Layout, compute_layout
from companion.display.render import RenderCache, draw
from companion.display.snapshot import CameraView, DisplayError, ExampleState, Snapshot

#: zlib level of saved screenshots: 1 of 9, the fastest; the files are about a seventh larger.
PNG_COMPRESSION = 1
#: Keys that stand in for the panel's buttons, by pygame key code.
#: Keys 1 to 6 (and the keypad's) end seats 1 to 6's turns.
MOST_SEATS = 6
DEFAULT_KEY_BUTTONS: Mapping[int, str] = {
    **{getattr(pygame, f"K_{seat}"): f"END{seat}" for seat in range(1, MOST_SEATS + 1)},
    **{getattr(pygame, f"K_KP{seat}"): f"END{seat}" for seat in range(1, MOST_SEATS + 1)},
    pygame.K_r: "ROLL",
    pygame.K_h: "HINT",
    pygame.K_u: "UNDO",
    pygame.K_BACKSPACE: "UNDO",
    pygame.K_SPACE: "SELECT",
    pygame.K_RETURN: "CONFIRM",
    pygame.K_KP_ENTER: "CONFIRM",
}
FULLSCREEN_KEYS = frozenset({pygame.K_F11, pygame.K_f})
QUIT_KEYS = frozenset({pygame.K_ESCAPE})


class Screen:
    """The window that shows the latest snapshot; create, :meth:`run` and close it in the main
    thread, call :meth:`show` from any thread."""

    def __init__(
        self,
        size: tuple[int, int] = (1600, 900),
        *,
        fullscreen: bool = False,
        title: str = "Coin Table Companion",
        frames_per_second: int = 60,
        key_buttons: Mapping[int, str] = DEFAULT_KEY_BUTTONS,
        on_quit: Callable[[], None] | None = None,
    ) -> None:
        self.frames_per_second = frames_per_second
        self.key_buttons = dict(key_buttons)
        self.on_quit = on_quit
        #: Panel button names pressed on the keyboard, oldest first.
        self.buttons: queue.Queue[str] = queue.Queue()
        #: Set when the player closes the window or presses Escape (or :meth:`request_quit`).
        self.quit_requested = threading.Event()
        self._lock = threading.Lock()
        self._snapshot = Snapshot()
        self._camera: CameraView | None = None
        self._camera_given = False
        self._combined: tuple[Snapshot, CameraView | None, Snapshot] | None = None
        self._screenshots: queue.Queue[Path] = queue.Queue()
        self._cache = RenderCache()
        self._layout: Layout | None = None
        self._layout_shape: tuple[object, ...] | None = None
        self._windowed_size = size
        self._clock = pygame.time.Clock()
        self._deadline = time.perf_counter()
        # SDL's "accelerated" window surface goes through OpenGL, which on machines with software
        # GL (no GPU driver, virtual screens) costs ~50 ms a frame; the plain X11/GDI path is fast.
        os.environ.setdefault("SDL_FRAMEBUFFER_ACCELERATION", "0")
        try:
            pygame.display.init()
            pygame.font.init()
            pygame.display.set_caption(title)
            self._surface = self._open(size, fullscreen)
        except pygame.error as error:
            raise DisplayError(
                f"could not open a window ({error}); run with --headless or set DISPLAY"
            ) from None

    @property
    def snapshot(self) -> Snapshot:
        """The snapshot drawn now, with the latest camera view from :meth:`show_camera` if any."""
        with self._lock:
            snapshot, camera, given = self._snapshot, self._camera, self._camera_given
        if not given or snapshot.camera is camera:
            return snapshot
        combined = self._combined
        if combined is None or combined[0] is not snapshot or combined[1] is not camera:
            combined = (snapshot, camera, replace(snapshot, camera=camera))
            self._combined = combined
        return combined[2]

    @property
    def fullscreen(self) -> bool:
        """Whether the window fills the screen."""
        return bool(self._surface.get_flags() & pygame.FULLSCREEN)

    @property
    def frame_rate(self) -> float:
        """Frames drawn per second, averaged over the last few frames."""
        return float(self._clock.get_fps())

    def show(self, snapshot: Snapshot) -> None:
        """Draw ``snapshot`` from the next frame on; safe to call from any thread."""
        with self._lock:
            self._snapshot = snapshot

    def show_camera(self, view: CameraView | None) -> None:
        """Draw this camera view (None: no camera) instead of the snapshot's, from the next frame
        on; safe from any thread, so a camera thread can feed frames while the referee sends
        snapshots."""
        with self._lock:
            self._camera, self._camera_given = view, True

    def request_screenshot(self, path: str | Path) -> None:
        """Save the next frame drawn in the window to ``path``; safe from any thread.

        pygame's text drawing is not thread-safe, so other threads ask for screenshots of the
        window this way instead of calling :func:`save_screenshot` while the window runs.
        """
        self._screenshots.put(Path(path))

    def request_quit(self) -> None:
        """Ask the loop to stop, as closing the window does; safe from any thread."""
        if not self.quit_requested.is_set():
            self.quit_requested.set()
            if self.on_quit is not None:
                self.on_quit()

    def toggle_fullscreen(self) -> None:
        """Switch between full screen at the desktop's size and the last window size."""
        if self.fullscreen:
            self._surface = self._open(self._windowed_size, False)
        else:
            self._windowed_size = self._surface.get_size()
            self._surface = self._open((0, 0), True)

    def step(self, wait: bool = True) -> bool:
        """One frame: tick (waiting for the frame rate when ``wait``), events, draw, flip.

        Returns False once a quit was requested.
        """
        if wait:
            self._wait_for_next_frame()
        self._clock.tick()
        for event in pygame.event.get():
            self._handle(event)
        changed = self.draw_frame()
        while not self._screenshots.empty():
            path = self._screenshots.get_nowait()
            path.parent.mkdir(parents=True, exist_ok=True)
            pygame.image.save(self._surface, str(path))
        if changed == [self._layout.window if self._layout else None]:
            pygame.display.flip()
        elif changed:
            pygame.display.update(changed)  # only the camera view: far less to copy than a flip
        return not self.quit_requested.is_set()

    def _wait_for_next_frame(self) -> None:
        """Sleep until the next frame is due, against fixed deadlines so that oversleeping by a
        millisecond now and then does not pull the rate below 60 (as ``Clock.tick`` does)."""
        period = 1.0 / self.frames_per_second
        now = time.perf_counter()
        if self._deadline - now > 0:
            time.sleep(self._deadline - now)
            now = time.perf_counter()
        self._deadline = max(self._deadline + period, now - period)

    def draw_frame(self) -> list[Box]:
        """Draw the latest snapshot into the window's surface; returns the areas that changed."""
        snapshot = self.snapshot
        self._surface = pygame.display.get_surface() or self._surface
        size = self._surface.get_size()
        players = max(1, len(snapshot.players))
        layout = self._layout
        shape = (size, snapshot.files, snapshot.ranks, players, snapshot.mat)
        if layout is None or self._layout_shape != shape:
            layout = compute_layout(size, snapshot.files, snapshot.ranks, players, snapshot.mat)
            self._layout, self._layout_shape = layout, shape
        return draw(self._surface, snapshot, layout, self._cache, incremental=True)

    def run(self) -> None:
        """Draw frames until a quit is requested."""
        while self.step():
            pass

    def close(self) -> None:
        """Close the window."""
        pygame.display.quit()

    def _open(self, size: tuple[int, int], fullscreen: bool) -> pygame.Surface:
        flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
        surface = pygame.display.set_mode(size, flags)
        pygame.mouse.set_visible(not fullscreen)
        self._cache = RenderCache()
        self._layout = None
        return surface

    def _handle(self, event: pygame.event.Event) -> None:
        if event.type == pygame.QUIT:
            self.request_quit()
        elif event.type == pygame.KEYDOWN:
            if event.key in QUIT_KEYS:
                self.request_quit()
            elif event.key in FULLSCREEN_KEYS:
                self.toggle_fullscreen()
            elif event.key in self.key_buttons:
                self.buttons.put(self.key_buttons[event.key])
        elif event.type == pygame.VIDEORESIZE and not self.fullscreen:
            self._windowed_size = (event.w, event.h)
        elif event.type in (pygame.WINDOWEXPOSED, pygame.VIDEOEXPOSE):
            self._cache.forget_shown()


def render_surface(snapshot: Snapshot, size: tuple[int, int] = (1600, 900),
                   cache: RenderCache | None = None) -> pygame.Surface:
    """The screen for ``snapshot`` drawn on an offscreen surface of ``size``, without a window;
    ``cache`` keeps the board, sprites and fonts between calls from one thread (a demo's
    screenshot a turn: a fresh one draws them all again, four times as long)."""
    pygame.font.init()
    layout = compute_layout(size, snapshot.files, snapshot.ranks, max(1, len(snapshot.players)),
                            snapshot.mat)
    surface = pygame.Surface(layout.size)
    draw(surface, snapshot, layout, cache)
    return surface


def save_screenshot(
    snapshot: Snapshot, path: str | Path, size: tuple[int, int] = (1600, 900),
    cache: RenderCache | None = None,
) -> Path:
    """Render ``snapshot`` offscreen at ``size`` (with ``cache``, as :func:`render_surface`)
    and save it as an image (PNG by the suffix)."""
    target = Path(path)
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        surface = render_surface(snapshot, size, cache)
        if target.suffix.lower() != ".png":
            pygame.image.save(surface, str(target))
        elif not _save_png(surface, target):
            raise OSError("the PNG encoder failed")
    except (pygame.error, OSError) as error:
        raise DisplayError(f"could not save the screenshot {str(target)!r}: {error}") from None
    return target


def _save_png(surface: pygame.Surface, target: Path) -> bool:
    """Write ``surface`` as a PNG with light compression: the same pixels as pygame's encoder
    writes, at about half its processor time and without holding Python's lock (a demo saves a
    screen every turn)."""
    width, height = surface.get_size()
    rgb = np.frombuffer(pygame.image.tobytes(surface, "RGB"), np.uint8).reshape(height, width, 3)
    encoded, data = cv2.imencode(".png", cv2.cvtColor(rgb, cv2.COLOR_RGB2BGR),
                                 [cv2.IMWRITE_PNG_COMPRESSION, PNG_COMPRESSION])
    if encoded:
        target.write_bytes(data.tobytes())
    return bool(encoded)


def _main() -> int:
    """Preview the example states in a window (space for the next), or save them as PNGs."""
    parser = argparse.ArgumentParser(description=_main.__doc__)
    parser.add_argument("--screenshots", metavar="DIR", help="write screen-*.png here and exit")
    parser.add_argument("--size", default="1600x900", help="window size, WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = (int(part) for part in args.size.split("x"))
    states: tuple[ExampleState, ...] = ("turn", "ask", "rejected", "game-over")
    if args.screenshots:
        for state in states:
            print(save_screenshot(Snapshot.example(state), Path(args.screenshots) /
                                  f"screen-{state}.png", (width, height)))
        return 0
    screen = Screen((width, height))
    index = 0
    screen.show(Snapshot.example(states[index]))
    while screen.step():
        while not screen.buttons.empty():
            if screen.buttons.get() == "SELECT":
                index = (index + 1) % len(states)
                screen.show(Snapshot.example(states[index]))
    screen.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(_main())
