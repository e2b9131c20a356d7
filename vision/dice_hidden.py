"""Dice partly hidden by a nearer die: flat only where what is seen of them proves it.

A die cocked against a neighbour shows the lean as a side face and a foreshortened top; where
the neighbour stands nearer the camera it is drawn over the farther die's near side, and may
hide just the part that showed the lean, leaving a square that passes for a flat top
(issue 19's tuning cocked frame 174: a blue die cocked 23° against a white 6, read as 2).
Two dice of one throw stand at the same height, so of two touching dice the nearer the camera
is the one nearer the camera's foot, against the lean (:meth:`vision.parallax.CameraOverMat.lean`
points away from it). A farther die's top is kept flat only when it is a square of the
nearer dice's own edge (``hidden_size_tolerance`` of it): a cocked die seen past a nearer one
shows its top and part of a side face, a larger patch than a top, or a foreshortened top, a
smaller one. Otherwise it is unreadable: the referee asks for another throw, which is cheap.
A die beside a nearer one whose top was refused itself (no edge known) is left to the other
tests. Tops are measured with the blur that widens a coloured die's outline and narrows a
black one's, so dice of different colours differ by up to about 15% where they are the same
size: the tolerance cannot be tight, and a die cocked less than that shows may still pass.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.arrays import FloatArray, Image

if TYPE_CHECKING:
    from vision.dice import DiceConfig
    from vision.dice_faces import TopFace


def refuse_hidden(config: DiceConfig, faces: list[tuple[TopFace, int]],
                  bodies: list[tuple[Image, tuple[int, int]]], ppm: float,
                  lean_at: Callable[[FloatArray], FloatArray]) -> list[TopFace]:
    """``faces`` (each with the index of the body it was found in; none empty), every flat
    one that a nearer die touches refused unless its top is a square of that die's edge."""
    touching = touching_bodies(bodies, config.hidden_gap_mm * ppm)
    result = []
    for face, body in faces:
        if face.flat:
            nearer = [other for other, other_body in faces
                      if other is not face
                      and (other_body == body or frozenset((body, other_body)) in touching)
                      and _is_nearer(face, other, lean_at)]
            if not _proves_flat(config, face, nearer):
                face = _refused(face)
        result.append(face)
    return result


def touching_bodies(bodies: list[tuple[Image, tuple[int, int]]], gap: float
                    ) -> set[frozenset[int]]:
    """The pairs of bodies (their indices) no more than ``gap`` pixels apart: dice whose
    colours cut them apart still touch across the blur between them."""
    reach = max(1, math.ceil(gap))
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * reach + 1, 2 * reach + 1))
    pairs: set[frozenset[int]] = set()
    for index, (patch, (x0, y0)) in enumerate(bodies):
        grown = cv2.dilate(np.pad(patch, reach), disc)
        left, top = x0 - reach, y0 - reach
        for other_index in range(index + 1, len(bodies)):
            other, (ox, oy) = bodies[other_index]
            a, b = max(left, ox), max(top, oy)
            c = min(left + grown.shape[1], ox + other.shape[1])
            d = min(top + grown.shape[0], oy + other.shape[0])
            if a >= c or b >= d:
                continue
            if (grown[b - top:d - top, a - left:c - left]
                    & other[b - oy:d - oy, a - ox:c - ox]).any():
                pairs.add(frozenset((index, other_index)))
    return pairs


def _is_nearer(face: TopFace, other: TopFace, lean_at: Callable[[FloatArray], FloatArray]
               ) -> bool:
    """Whether ``other`` stands nearer the camera than ``face``: towards the camera's foot,
    against the lean at ``face``."""
    centre = np.asarray(face.rect[0], np.float64)
    towards = np.asarray(other.rect[0], np.float64) - centre
    return float(towards @ np.asarray(lean_at(centre), np.float64)) < 0.0


def _proves_flat(config: DiceConfig, face: TopFace, nearer: list[TopFace]) -> bool:
    """Whether ``face``'s top is a square of the edge of every flat die in ``nearer``. Where
    no nearer die lies flat its edge is not known and nothing is compared: a die beside one
    refused already is kept to the other tests (refusing it too lost right readings and
    caught no cocked die in the tuning frames)."""
    known = [math.sqrt(other.rect[1][0] * other.rect[1][1]) for other in nearer if other.flat]
    side = math.sqrt(face.rect[1][0] * face.rect[1][1])
    return all(abs(side - edge) <= config.hidden_size_tolerance * edge for edge in known)


def _refused(face: TopFace) -> TopFace:
    """``face`` no longer flat, because a nearer die hides part of it."""
    return replace(face, flat=False, why="hidden by a nearer die")


__all__ = ["refuse_hidden", "touching_bodies"]
