"""The accepted camera frame of each turn, kept as a JPEG under the game folder's ``frames/``.

A frame is named by the number of the journal event it belongs to (``frames/0007.jpg``), so the
journal line only needs the relative name. The image is written under a temporary name and then
renamed, so a crash never leaves half a JPEG under the real name. OpenCV is imported when a frame
is saved or loaded, not when this module is imported.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, cast

from companion.record.errors import FrameError
from companion.record.journal import FRAMES_FOLDER

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

#: JPEG quality: high enough to judge a disputed stack by eye, about 150 kB a 1080p frame.
JPEG_QUALITY = 90


def frame_name(number: int) -> str:
    """The path relative to the game folder that the journal names: ``frames/0007.jpg``."""
    if number < 1:
        raise FrameError(f"frame number {number} is below 1; frames are named by event number.")
    return f"{FRAMES_FOLDER}/{number:04d}.jpg"


def save_frame(folder: str | os.PathLike[str], number: int, image: npt.NDArray[np.uint8]) -> str:
    """Write ``image`` (BGR or grey) as the frame of event ``number``; returns its relative name.

    The name is :func:`frame_name` of the event's number, so the journal line can be appended
    before or after. Saving first means a line never names a missing frame; saving after the
    panel is answered keeps the JPEG encoding (about 30 ms for 1920x1080) off the verdict's path,
    and a crash in between loses only the picture, which readers show as no picture.
    """
    import cv2

    name = frame_name(number)
    target = Path(folder) / name
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f"{target.stem}.partial.jpg")
    try:
        written = cv2.imwrite(str(partial), image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
    except cv2.error as error:
        raise FrameError(f"frame {number} could not be encoded as JPEG: {error}.") from None
    if not written:
        raise FrameError(f"frame {number} could not be written to {partial}; is the disk full?")
    os.replace(partial, target)
    return name


def load_frame(folder: str | os.PathLike[str], name: str) -> npt.NDArray[np.uint8]:
    """Read a frame by the name the journal gives (``frames/0007.jpg``) as a BGR image. A name
    that leads out of the game folder, a missing file, one too large (checked from its header
    before decoding, as ``vision read`` does) or no image is a :class:`FrameError`."""
    from vision.errors import ImageReadError
    from vision.image_file import read_image

    root = Path(folder).resolve()
    path = (root / name).resolve()
    if not path.is_relative_to(root):
        raise FrameError(f"the journal names frame {name!r}, outside the game folder {root}; "
                         "the journal keeps the move.")
    if not path.is_file():
        raise FrameError(f"frame {path} is missing; the journal keeps the move.")
    try:
        image = read_image(path)
    except ImageReadError as error:
        raise FrameError(f"{error}; the journal keeps the move.") from None
    return cast("npt.NDArray[np.uint8]", image)
