"""Camera sources opened by URL: a webcam, a video file, a folder of images, the synthetic table.

``open_camera(url)`` returns a :class:`CameraSource` whose ``read()`` gives the next
:class:`Frame` (BGR image, timestamp in seconds, index from 0) and whose ``close()`` frees it.
URLs, as pyserial's ``serial_for_url`` does for ports:

* ``0``, ``1``, ... or ``/dev/video0``: a camera through OpenCV, asking for 1920x1080 MJPG;
  timestamps are ``time.monotonic()`` at capture.
* ``clip.avi`` (any path to a video file, or ``file://clip.avi``): its frames in order;
  timestamps are ``index / fps`` of the file.
* ``file://DIR`` or a directory path: the images in DIR (.png, .jpg, .jpeg, .bmp, .tif, .tiff,
  .webp) in plain name order, so number them with leading zeros; timestamps are ``index / fps``
  (``?fps=30`` by default). A single image path serves that image as a still camera. Each
  frame is named by its file (``Frame.name``), and the source says it serves still photos
  (``stills``), which calibration takes as steady one by one.
* ``sim://`` with query options (``sim://?seed=3&players=2``): the synthetic table of
  :mod:`vision.synth`.

File sources end by default: after the last frame ``read()`` raises :class:`EndOfFrames`, which
names the source in words and how many frames it held (for "the 3 images in DIR show ...").
``?loop=1`` starts again from the first frame instead, with timestamps still increasing. Every
expected failure (no such device, permission denied, no frames, only black frames) is a
:class:`CameraError` whose message is one sentence saying what to do; the source is then closed
and the caller retries by calling ``open_camera`` again.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, Protocol, Self

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration.geometry import mat_for_game
from vision.camera_url import (
    IMAGE_SUFFIXES,
    CameraOptions,
    CameraUrl,
    SimSettings,
    parse_camera_url,
)
from vision.errors import CameraError, EndOfFrames, ImageReadError
from vision.image_file import read_image

if TYPE_CHECKING:
    from vision.synth import SynthScene
    from vision.synth.cards import PlayedCard
    from vision.synth.dice import Die

#: A BGR image as OpenCV gives it (uint8, height x width x 3).
Image = NDArray[Any]

# FFmpeg prints its own complaints about a broken video ("moov atom not found") straight to the
# terminal; our CameraError already says what went wrong, in one sentence. OpenCV reads this
# when it first opens a video, so it takes effect here; set it to 24 to see FFmpeg's warnings.
os.environ.setdefault("OPENCV_FFMPEG_LOGLEVEL", "-8")

__all__ = [
    "IMAGE_SUFFIXES",
    "CameraError",
    "CameraOptions",
    "CameraSource",
    "CameraUrl",
    "DeviceCamera",
    "EndOfFrames",
    "Frame",
    "ImageFolderCamera",
    "SimCamera",
    "SimSettings",
    "VideoFileCamera",
    "image_files",
    "is_black",
    "open_camera",
    "open_sim",
    "parse_camera_url",
]




@dataclass(frozen=True, eq=False)
class Frame:
    """One captured image (BGR, uint8, height x width x 3) with its time in seconds and index;
    ``name`` is the image file's name for folder sources (empty for others); ``taken_at`` is
    the ``time.monotonic()`` at which the picture was taken, for a source that knows it and may
    hand a frame over well after its picture was taken (the synthetic camera takes its scene, then
    renders it)."""

    image: Image
    timestamp: float
    index: int
    name: str = ""
    taken_at: float | None = None

    @property
    def label(self) -> str:
        """How to name this frame to the user: its file name, or ``frame 12``."""
        return self.name or f"frame {self.index}"

    def __repr__(self) -> str:
        height, width = self.image.shape[:2]
        return f"Frame(<{width}x{height} image>, timestamp={self.timestamp!r}, index={self.index})"


class CameraSource(Protocol):
    """What every source offers: the next frame, and closing it."""

    url: str

    def read(self) -> Frame:
        """The next frame; raises :class:`CameraError` (or :class:`EndOfFrames`)."""
        ...

    def close(self) -> None:
        """Free the device or file; reading afterwards raises :class:`CameraError`."""
        ...

    def __iter__(self) -> Iterator[Frame]:
        """Frames until the source ends."""
        ...

    def __enter__(self) -> Self: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None: ...


def is_black(image: Image, level: float = 12.0) -> bool:
    """Whether ``image`` is (nearly) black: dark on average and with almost nothing bright."""
    sample = image[::8, ::8]
    return float(sample.mean()) < level and float(np.percentile(sample, 99)) < 3 * level


@dataclass
class _BlackFrameGuard:
    """Counts consecutive black frames and raises once there are too many."""

    url: str
    limit: int
    count: int = 0

    def check(self, image: Image) -> None:
        self.count = self.count + 1 if is_black(image) else 0
        if self.limit and self.count >= self.limit:
            raise CameraError(
                f"camera {self.url!r} delivers only black frames: take off the lens cap, "
                "turn on a light or point it at the mat, then open it again"
            )


class _SourceBase:
    """Shared bookkeeping: the URL, the next index, closing, the black-frame guard.

    ``stills`` is True for sources of still photos (a folder of images, one image): each frame
    is a separate photo, steady by nature, rather than a moment of a moving scene.
    """

    stills: bool = False

    def __init__(self, url: str, options: CameraOptions) -> None:
        self.url = url
        self.options = options
        self._index = 0
        self._closed = False
        self._black = _BlackFrameGuard(url, options.black_frame_limit)

    def _next_frame(self, image: Image, timestamp: float, name: str = "") -> Frame:
        self._black.check(image)
        frame = Frame(image, timestamp, self._index, name)
        self._index += 1
        return frame

    def _check_open(self) -> None:
        if self._closed:
            raise CameraError(f"camera {self.url!r} is closed; open it again to read")

    def close(self) -> None:
        self._closed = True

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def __iter__(self) -> Iterator[Frame]:
        """Frames until the source ends (file sources without ``loop``)."""
        while True:
            try:
                yield self.read()  # type: ignore[attr-defined]
            except EndOfFrames:
                return

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.url!r})"


class _QuietOpenCV:
    """Silences OpenCV's own warnings while opening, since our error says it better."""

    def __enter__(self) -> None:
        self._level = cv2.utils.logging.getLogLevel()
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_ERROR)

    def __exit__(self, *exc: object) -> None:
        cv2.utils.logging.setLogLevel(self._level)


def _device_path(device: int | str) -> str:
    return f"/dev/video{device}" if isinstance(device, int) else device


def _check_device_access(device: int | str) -> None:
    """On Linux, say plainly when the device node is missing or not ours to open."""
    if not sys.platform.startswith("linux"):
        return
    path = _device_path(device)
    if not os.path.exists(path):
        raise CameraError(
            f"no camera at {path}: plug the webcam in, or pick another one "
            "(`ls /dev/video*` lists them)"
        )
    if not os.access(path, os.R_OK | os.W_OK):
        raise CameraError(
            f"permission denied for {path}: add yourself to the 'video' group "
            "(sudo usermod -aG video $USER) and log in again"
        )


class DeviceCamera(_SourceBase):
    """A webcam through OpenCV, asking for the configured size and MJPG (cameras may refuse)."""

    def __init__(self, device: int | str, options: CameraOptions, url: str | None = None) -> None:
        super().__init__(url or str(device), options)
        _check_device_access(device)
        with _QuietOpenCV():
            if isinstance(device, int):
                capture = cv2.VideoCapture(device)
            else:
                capture = cv2.VideoCapture(device, cv2.CAP_V4L2)
        if not capture.isOpened():
            capture.release()
            raise CameraError(
                f"cannot open camera {self.url!r}: close any other program using it, "
                "replug it and try again"
            )
        capture.set(cv2.CAP_PROP_FOURCC, cv2.VideoWriter.fourcc(*options.fourcc))
        capture.set(cv2.CAP_PROP_FRAME_WIDTH, options.width)
        capture.set(cv2.CAP_PROP_FRAME_HEIGHT, options.height)
        self._capture = capture
        self._first_frame()

    def _first_frame(self) -> None:
        """Wait for a first frame, so a silent camera fails at open, not in the game."""
        deadline = time.monotonic() + self.options.first_frame_timeout_s
        while time.monotonic() < deadline:
            if self._capture.grab():
                return
            time.sleep(0.05)
        self.close()
        raise CameraError(
            f"camera {self.url!r} opened but delivered no frames within "
            f"{self.options.first_frame_timeout_s:g} s: close other programs using it, "
            "replug it and try again"
        )

    def size(self) -> tuple[int, int]:
        """The (width, height) the camera actually delivers."""
        width = int(self._capture.get(cv2.CAP_PROP_FRAME_WIDTH))
        return width, int(self._capture.get(cv2.CAP_PROP_FRAME_HEIGHT))

    def read(self) -> Frame:
        self._check_open()
        ok, image = self._capture.read()
        if not ok or image is None:
            self.close()
            raise CameraError(
                f"camera {self.url!r} stopped delivering frames: check its cable, "
                "then open it again"
            )
        return self._next_frame(image, time.monotonic())

    def close(self) -> None:
        if not self._closed:
            self._capture.release()
        super().close()


class VideoFileCamera(_SourceBase):
    """The frames of a video file in order; timestamps follow the file's frame rate."""

    def __init__(self, path: Path, options: CameraOptions, url: str | None = None) -> None:
        super().__init__(url or str(path), options)
        self.path = path
        self._capture = self._open()
        fps = self._capture.get(cv2.CAP_PROP_FPS)
        self.fps = fps if fps and fps > 0 else options.fps
        self._served = 0

    def _open(self) -> cv2.VideoCapture:
        with _QuietOpenCV():
            capture = cv2.VideoCapture(str(self.path))
        if not capture.isOpened():
            capture.release()
            raise CameraError(
                f"cannot open video {str(self.path)!r}: it is not a video OpenCV can decode; "
                "convert it to MJPG AVI or MP4"
            )
        return capture

    def read(self) -> Frame:
        self._check_open()
        ok, image = self._capture.read()
        if not ok and self.options.loop and self._served:
            self._capture.release()
            self._capture = self._open()
            self._served = 0
            ok, image = self._capture.read()
        if not ok or image is None:
            if self._index == 0:
                raise CameraError(
                    f"video {str(self.path)!r} holds no frames OpenCV can decode; "
                    "check the file or convert it"
                )
            raise EndOfFrames(
                f"video {str(self.path)!r} has no more frames ({self._index} read); "
                "add ?loop=1 to play it again", f"the video {self.path}", self._index,
            )
        self._served += 1
        return self._next_frame(image, self._index / self.fps)

    def close(self) -> None:
        if not self._closed:
            self._capture.release()
        super().close()


def image_files(folder: Path) -> list[Path]:
    """The image files directly in ``folder``, in plain name order."""
    return sorted(
        path for path in folder.iterdir()
        if path.is_file() and path.suffix.lower() in IMAGE_SUFFIXES
    )


class ImageFolderCamera(_SourceBase):
    """The images of a folder (or one image) in name order, at ``options.fps``: still photos,
    each frame named by its file."""

    stills = True

    def __init__(self, paths: list[Path], options: CameraOptions, url: str) -> None:
        super().__init__(url, options)
        if not paths:
            raise CameraError(
                f"{url!r} holds no images ({', '.join(IMAGE_SUFFIXES)}); check the folder"
            )
        self.paths = paths

    @classmethod
    def of_folder(cls, folder: Path, options: CameraOptions, url: str) -> ImageFolderCamera:
        return cls(image_files(folder), options, url)

    def read(self) -> Frame:
        self._check_open()
        position = self._index
        if position >= len(self.paths):
            if not self.options.loop:
                raise EndOfFrames(
                    f"{self.url!r} has no more images ({len(self.paths)} read); "
                    "add ?loop=1 to start again", self.describe(), len(self.paths),
                )
            position %= len(self.paths)
        path = self.paths[position]
        try:
            image = read_image(path)
        except ImageReadError as error:
            raise CameraError(f"cannot use image {str(path)!r} ({error}); remove it or replace "
                              "it") from None
        return self._next_frame(image, self._index / self.options.fps, path.name)

    def describe(self) -> str:
        """The photos in words: ``the 3 images in shots`` or ``the image empty.png``."""
        if len(self.paths) == 1:
            return f"the image {self.paths[0]}"
        folders = {path.parent for path in self.paths}
        where = f" in {folders.pop()}" if len(folders) == 1 else ""
        return f"the {len(self.paths)} images{where}"


class SimCamera(_SourceBase):
    """The synthetic table of :mod:`vision.synth` behind ``sim://``.

    Timestamps are ``index / fps``, so a test or a demo runs as fast as frames render while the
    gate still sees the right times. :meth:`show` changes what lies on the mat, as a user would
    (calibration asks for a layout this way); :attr:`synth` is the underlying
    :class:`vision.synth.feed.SynthCamera` for anything else (hands, a scene per frame index).
    """

    def __init__(self, url: str, options: CameraOptions, settings: SimSettings) -> None:
        super().__init__(url, options)
        from vision import synth
        from vision.synth.feed import SynthCamera

        self.settings = settings
        self._synth_module = synth
        variation = synth.Variation() if settings.plain else synth.random_variation(settings.seed)
        if settings.board == "empty":
            geometry = (mat_for_game(settings.mat) if settings.seats is None
                        else mat_for_game(settings.mat, players=settings.seats))
            scene = synth.SynthScene.build({}, {}, geometry, variation=variation,
                                           layout_seed=settings.seed)
        else:
            scene = synth.random_scene(settings.seed, variation, players=settings.players)
        self.synth = SynthCamera(scene, seed=settings.seed)
        self._still_frames = 0
        self._last_scene: SynthScene | None = None

    @property
    def focal_px(self) -> float:
        """The synthetic camera's focal length in frame pixels, as a calibration of it would
        find (the dice reader places the camera over the mat with it)."""
        return self.scene.intrinsics()[0]

    @property
    def scene(self) -> SynthScene:
        """The :class:`vision.synth.SynthScene` the next frame shows (as of frame 0 for a
        scene that is a function of the frame index)."""
        return self.synth.scene_at(self._index)

    def show(self, coins: Mapping[str, str], pawns: Mapping[str, str] | None = None,
             tokens: Mapping[str, str] | None = None) -> None:
        """From the next frame on, the mat holds ``coins`` (region -> letters, bottom to top),
        ``pawns`` (region -> colour) and flat ``tokens`` (region -> colour); camera, light and
        hands stay as they were."""
        current = self.scene
        self.synth.set_scene(replace(
            self._synth_module.SynthScene.build(
                coins, pawns or {}, current.geometry, current.variation, current.hands,
                current.layout_seed, current.image_size, tokens=tokens,
            ), dice=current.dice, cards=current.cards))

    def show_cards(self, cards: Sequence[PlayedCard]) -> None:
        """From the next frame on, these cards lie face up on the mat (discard piles, the last
        on top); coins, pawns, tokens, dice, camera, light and hands stay."""
        self.synth.set_scene(replace(self.scene, cards=tuple(cards)))

    def show_dice(self, dice: Sequence[Die]) -> None:
        """From the next frame on, these dice lie on the mat (usually in its tray; see
        :class:`vision.synth.dice.Die`); coins, pawns, camera, light and hands stay."""
        self.synth.set_scene(replace(self.scene, dice=tuple(dice)))

    def read(self) -> Frame:
        self._check_open()
        rendered, taken = self.synth.read_taken()
        if rendered.scene is self._last_scene:
            self._index += self._still_frames  # the frames passed would show the same table
        self._still_frames, self._last_scene = 0, rendered.scene
        frame = self._next_frame(rendered.image, self._index / self.options.fps)
        return replace(frame, taken_at=taken)

    def pass_still(self, seconds: float) -> None:
        """Let ``seconds`` of the camera's clock go by unfilmed if the table stays as the last
        frame showed it: the next frame then comes that much later, as when a host reads a
        camera only after a pause (the frames between, the same table bar their noise, are never
        rendered). A table changed by then is filmed at the next frame as usual."""
        self._still_frames = max(0, math.ceil(seconds * self.options.fps - 1e-6) - 1)

    def close(self) -> None:
        super().close()
        self.synth.close()

    def wait_for_change(self, timeout: float) -> bool:
        """Wait until what lies on the table changes, :meth:`wake` is called or ``timeout``
        passes (:meth:`vision.synth.feed.SynthCamera.wait_for_change`)."""
        return self.synth.wait_for_change(timeout)

    def wake(self) -> None:
        """End a :meth:`wait_for_change` now."""
        self.synth.wake()


def open_camera(url: str, options: CameraOptions | None = None) -> CameraSource:
    """Open the source named by ``url`` (see the module text); raises :class:`CameraError`."""
    parsed = parse_camera_url(url, options)
    if parsed.kind == "device":
        device: int | str = int(parsed.target) if parsed.target.isdigit() else parsed.target
        return DeviceCamera(device, parsed.options, url)
    if parsed.kind == "video":
        return VideoFileCamera(Path(parsed.target), parsed.options, url)
    if parsed.kind == "folder":
        return ImageFolderCamera.of_folder(Path(parsed.target), parsed.options, url)
    if parsed.kind == "image":
        return ImageFolderCamera([Path(parsed.target)], replace(parsed.options, loop=True), url)
    return open_sim(url, parsed.options)


def open_sim(url: str, options: CameraOptions) -> SimCamera:
    """The synthetic table of a ``sim://`` URL (see :class:`SimSettings` for its options)."""
    return SimCamera(url, options, SimSettings.from_query(options.sim_options, url))
