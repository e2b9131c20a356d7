"""The frame fit's size likelihoods, kept while nothing they read has changed.

Each round of :func:`vision.frame_model.fit_frame` refits the colours' side of the model
(the silver field, the tints, the colour spreads) several times between two changes of
the sizes' side, and every refit and the final scores ask for the same size likelihoods. So
they are computed once and kept until an attribute they may read is set again.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from vision.arrays import FloatArray

#: A frame's size likelihoods and the share a single coin explains them by.
SizeParts = tuple[FloatArray, FloatArray]
#: The attributes of a frame that only the colours' side of the fit reads: setting them
#: keeps the size likelihoods.
COLOUR_STATE = frozenset({"field", "tints", "along_spread", "colour_spread", "one_metal"})

_Frame = TypeVar("_Frame")


def kept_while_sizes_stand(method: Callable[[_Frame], SizeParts]
                           ) -> Callable[[_Frame], SizeParts]:
    """``method`` computed once until an attribute the sizes may read is set again (the
    frame's ``__setattr__`` calls :func:`forget_sizes` for any name not in
    :data:`COLOUR_STATE`)."""

    @wraps(method)
    def kept(frame: _Frame) -> SizeParts:
        parts: SizeParts | None = frame.__dict__.get("_kept_sizes")
        if parts is None:
            parts = method(frame)
            for part in parts:
                part.setflags(write=False)
            frame.__dict__["_kept_sizes"] = parts
        return parts

    return kept


def forget_sizes(frame: object, name: str) -> None:
    """Drop ``frame``'s kept size likelihoods if setting ``name`` may change them."""
    if name not in COLOUR_STATE:
        frame.__dict__.pop("_kept_sizes", None)


__all__ = ["COLOUR_STATE", "SizeParts", "forget_sizes", "kept_while_sizes_stand"]
