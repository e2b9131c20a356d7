"""Nickels outlined at the face's edge inside the rim (issue 15): in cold frame 9 two nickels'
faces mirror the cold window far brighter than the paper while their rims' dark rings stand
out less, so their outlines were drawn at the face's edge, 2 mm small, and read dimes surely.
Beyond such an outline the colour keeps changing steeply for a rim's width and more (face to
ring, ring to paper); beyond a dime's own outline of the same frame it falls off (crops of the
light-normalised view at 2 px/mm, each outline's middle and radius as the reader measured)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from vision.rim_beyond import RimBeyondConfig, spread_beyond
from vision.rims import RimConfig

FIXTURE = Path(__file__).parent / "data" / "rim_beyond_nickels.npz"


def _spreads(square: str) -> tuple[str, bool]:
    """The coin's kind and whether its edge spreads beyond its outline."""
    with np.load(FIXTURE) as data:
        view, (x, y, radius) = data[f"{square}_view"], data[f"{square}_outline"]
        coin, ppm = str(data[f"{square}_coin"]), float(data["pixels_per_mm"])
    spread = spread_beyond(RimBeyondConfig(), RimConfig(), view, np.array([[x, y]]),
                           np.array([radius]), ppm)
    return coin, bool(spread[0])


def test_a_rim_ring_beyond_a_face_outline_is_seen() -> None:
    assert _spreads("h2") == ("N", True)
    assert _spreads("h4") == ("N", True)
    assert _spreads("a7") == ("D", False)

