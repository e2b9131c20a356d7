"""The light-normalised top view at half its resolution, made once per frame, and the mat's
rendering at half its resolution, made once for a camera session.

The pawns (:func:`vision.pawns.pawn_labels`), the seeds (:func:`vision.seeds.find_seeds`, at
1 px/mm of a 2 px/mm view) and the presence check (:func:`vision.presence.unlike_paper`)
each look at the view shrunk to half by area averaging: one shrink serves all three. The
printer's tones (:func:`vision.light.normalise`) are measured on the rendering so shrunk.
"""

from __future__ import annotations

import cv2

from vision.arrays import Image

#: The last two read-only images shrunk (the latest first), and their halves.
_HALF_MEMO: list[tuple[Image, Image]] = []


def half_size(image: Image) -> Image:
    """``image`` shrunk to (width // 2, height // 2) by area averaging, as
    ``cv2.resize(image, (width // 2, height // 2), interpolation=cv2.INTER_AREA)``. The half
    of a read-only image (which cannot change under the memo: the normalised view, the mat's
    rendering) is kept for the next callers, read-only."""
    for index, (source, half) in enumerate(_HALF_MEMO):
        if source is image:
            _HALF_MEMO.insert(0, _HALF_MEMO.pop(index))
            return half
    height, width = image.shape[:2]
    half = cv2.resize(image, (width // 2, height // 2), interpolation=cv2.INTER_AREA)
    if not image.flags.writeable and image.base is None:  # no writable array beneath
        half.setflags(write=False)
        _HALF_MEMO[:] = [(image, half), *_HALF_MEMO[:1]]
    return half
