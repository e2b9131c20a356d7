"""What the reader's coin-choosing step saw in the frame just read, for the diagnostic benches.

:func:`install` wraps :func:`vision.read._coins_and_frame` so that, after each frame is read,
:data:`SEEN` holds its ``candidates``, the ``chosen`` candidates' indices, the fitted
``frame`` and the ``presence`` of each candidate. The reading itself is unchanged.
"""

from __future__ import annotations

from typing import Any

import vision.read as read_module

#: What :func:`vision.read._coins_and_frame` saw in the frame being read.
SEEN: dict[str, Any] = {}
_ORIGINAL = read_module._coins_and_frame


def _capture(config: Any, candidates: Any, presence: Any, priors: Any, camera: Any = None,
             alone: Any = None, printed: Any = None) -> Any:
    chosen, frame = _ORIGINAL(config, candidates, presence, priors, camera, alone, printed)
    SEEN.update(candidates=candidates, chosen=chosen, frame=frame, presence=presence)
    return chosen, frame


def install() -> None:
    """Capture from now on, in this process."""
    read_module._coins_and_frame = _capture
