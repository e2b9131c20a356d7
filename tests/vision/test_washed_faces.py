"""Faces a cold window washed out (issue 15): a penny, a dime and a nickel of cold frame 30,
each mirroring the window so brightly that the light-normalised view holds nothing of its
face below its top, though the camera clipped only part of it. Measured again in the
camera's own top view, against the paper beyond, the penny shows copper's red and the silver
coins none (crops at 2 px/mm: the normalised view, the view before the light was divided
out, and each face's middle and radius as the reader sampled it)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.faces import clipped_mask, face_colours

FIXTURE = Path(__file__).parent / "data" / "washed_faces.npz"


def _colours(square: str) -> tuple[str, np.ndarray, np.ndarray]:
    """The coin's kind, its face's colour from the normalised view alone and with the camera's."""
    with np.load(FIXTURE) as data:
        normalised, view = data[f"{square}_normalised"], data[f"{square}_view"]
        x, y, radius = data[f"{square}_face"]
        coin = str(data[f"{square}_coin"])
    pawns = np.zeros(view.shape[:2], np.uint8)
    arguments = (normalised, clipped_mask(view), pawns, np.array([[x, y]]), np.array([radius]))
    return (coin, face_colours(*arguments).colours[0],
            face_colours(*arguments, view).colours[0])


def test_a_washed_face_is_measured_in_the_cameras_own_view() -> None:
    red = {}
    for square in ("g5", "a7", "c6"):
        coin, alone, again = _colours(square)
        assert np.isnan(alone).all()  # nothing left in the normalised view
        assert np.isfinite(again[0])
        red[coin] = again[0]
    assert red["P"] > 0.03  # copper's red, against the paper
    assert max(red["D"], red["N"]) < -0.05  # silver mirrors the cold window
