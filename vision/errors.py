"""The vision layer's exception family: every expected failure of finding or reading a mat.

Each is a :class:`~contract.errors.CompanionError`, so the command line turns it into one sentence
and exit code 2. Messages name the bad input (the file, the missing markers) and what to do.
"""

from __future__ import annotations

from contract.errors import CompanionError


class VisionError(CompanionError):
    """Root of every expected vision failure."""


class ImageReadError(VisionError):
    """A file that is missing or is not an image OpenCV can decode."""


class MatNotFoundError(VisionError):
    """Too few of the mat's markers were seen to locate the board.

    ``found`` and ``missing`` hold marker ids, so callers (the steady-frame gate, the screen) can
    say which corner is covered.
    """

    def __init__(self, message: str, found: tuple[int, ...] = (), missing: tuple[int, ...] = ()):
        super().__init__(message)
        self.found = found
        self.missing = missing


class CalibrationError(VisionError):
    """A calibration that cannot learn from the frames it was given; says what to fix."""


class CameraError(VisionError):
    """A camera that cannot be opened or read; the message says what the user can do."""


class EndOfFrames(CameraError):
    """A video file or folder source that has served its last frame (and does not loop).

    ``source`` names what ran out in words for a sentence ("the 3 images in shots", "the
    video clip.avi"), and ``frames`` is how many frames it held, so that a caller can say
    what it was still waiting for.
    """

    def __init__(self, message: str, source: str = "", frames: int = 0) -> None:
        super().__init__(message)
        self.source = source
        self.frames = frames
