"""Camera URLs: how a URL names a source (a device, a video file, a folder or an image, the
synthetic table) and the options its query sets (``?loop=1&fps=10``, and the ``sim://``
table's :class:`SimSettings`). :mod:`vision.camera` opens what they name.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

from calibration.geometry import SEATED_MATS, mat_names
from vision.errors import CameraError

#: File name endings served by folder sources, lower case.
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".tif", ".tiff", ".webp")


@dataclass(frozen=True)
class CameraOptions:
    """How sources are opened; URL query options (``?loop=1&fps=10``) override these.

    ``black_frame_limit`` consecutive black frames make ``read()`` raise (a lens cap, a dark
    room); fewer are returned as they are, since webcams often start with a few dark frames.
    """

    width: int = 1920
    height: int = 1080
    fourcc: str = "MJPG"
    first_frame_timeout_s: float = 3.0
    black_frame_limit: int = 30
    loop: bool = False
    fps: float = 30.0
    sim_options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class SimSettings:
    """Options of a ``sim://`` URL: ``seed`` (camera, light and board), ``players`` (pawns on a
    random board), ``board`` (``random`` or ``empty``), ``plain`` (1: a straight, evenly lit
    camera instead of a random one), ``mat`` (which game's mat lies on the table; a random board
    is Coin Isolation's), ``seats`` (the seats a mat drawn per number of seats is drawn for:
    the Jokers and Coins ring)."""

    seed: int = 0
    players: int = 2
    board: str = "random"
    plain: bool = False
    mat: str = "coin-isolation"
    seats: int | None = None

    @classmethod
    def from_query(cls, pairs: Sequence[tuple[str, str]], url: str) -> SimSettings:
        """Parse the URL's options; unknown or bad ones raise :class:`CameraError`."""
        values: dict[str, Any] = {}
        for key, value in pairs:
            if key not in ("seed", "players", "plain", "board", "mat", "seats"):
                raise CameraError(
                    f"unknown option {key!r} in {url!r}; sim:// takes seed, players, board, "
                    "plain, mat, seats, fps and loop"
                )
            if key in ("seed", "players", "seats"):
                if not value.lstrip("-").isdigit():
                    raise CameraError(f"option {key}={value!r} in {url!r} is not a number")
                values[key] = int(value)
            elif key == "plain":
                values[key] = value.lower() not in ("0", "false", "no", "")
            else:
                values[key] = value
        settings = cls(**values)
        if settings.board not in ("random", "empty"):
            raise CameraError(f"board={settings.board!r} in {url!r}: use random or empty")
        if not 0 <= settings.players <= 4:
            raise CameraError(f"players={settings.players} in {url!r}: use 0 to 4")
        if settings.mat not in mat_names():
            raise CameraError(f"mat={settings.mat!r} in {url!r}: use one of "
                              f"{', '.join(mat_names())}")
        if settings.seats is not None and settings.mat not in SEATED_MATS:
            raise CameraError(f"seats={settings.seats} in {url!r}: mat {settings.mat} is not "
                              "drawn per number of seats")
        if settings.board == "random" and settings.mat != "coin-isolation":
            raise CameraError(f"board=random in {url!r} is Coin Isolation's; use board=empty "
                              f"with mat={settings.mat}")
        return settings


@dataclass(frozen=True)
class CameraUrl:
    """A parsed camera URL: its kind, its target (device, path, or empty) and its options."""

    kind: str
    target: str
    options: CameraOptions = field(default_factory=CameraOptions)


def _with_query(options: CameraOptions, query: str, url: str) -> CameraOptions:
    """Apply ``loop`` and ``fps`` from the query; keep the rest for the synthetic table."""
    pairs = parse_qsl(query, keep_blank_values=True)
    others = []
    for key, value in pairs:
        if key == "loop":
            options = replace(options, loop=value.lower() not in ("0", "false", "no", ""))
        elif key == "fps":
            try:
                options = replace(options, fps=float(value))
            except ValueError:
                raise CameraError(f"fps {value!r} in {url!r} is not a number") from None
            if options.fps <= 0:
                raise CameraError(f"fps in {url!r} must be above 0")
        else:
            others.append((key, value))
    return replace(options, sim_options=options.sim_options + tuple(others))


def parse_camera_url(url: str, options: CameraOptions | None = None) -> CameraUrl:
    """Split ``url`` into a kind (device, video, folder, image, sim), a target and options."""
    options = options or CameraOptions()
    text = url.strip()
    if not text:
        raise CameraError("the camera URL is empty: give a device index like 0, a path, or sim://")
    if text.isdigit():
        return CameraUrl("device", text, options)
    if "://" in text:
        parts = urlsplit(text)
        options = _with_query(options, parts.query, url)
        if parts.scheme == "sim":
            return CameraUrl("sim", "", options)
        if parts.scheme != "file":
            raise CameraError(
                f"unknown camera URL scheme {parts.scheme!r} in {url!r}; "
                "use a device index, a path, file://DIR or sim://"
            )
        text = parts.netloc + parts.path
    if text.startswith("/dev/video"):
        return CameraUrl("device", text, options)
    path = Path(text).expanduser()
    if path.is_dir():
        return CameraUrl("folder", str(path), options)
    if path.is_file():
        kind = "image" if path.suffix.lower() in IMAGE_SUFFIXES else "video"
        return CameraUrl(kind, str(path), options)
    raise CameraError(
        f"no camera, folder or video at {text!r}: check the path, or give a device index like 0"
    )
