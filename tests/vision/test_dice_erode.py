"""Bodies eroded along the camera's lean, and which bodies touch (:mod:`vision.dice_erode`)."""

from __future__ import annotations

import numpy as np

from vision.dice_erode import erode_beside, touches_other


def _square(size: int) -> np.ndarray:
    return np.ones((size, size), np.uint8)


def test_bodies_two_pixels_apart_touch_and_farther_ones_do_not() -> None:
    # Column 10 lies between the first two (2 px from each); four columns between the last two.
    bodies = [(_square(10), (0, 0)), (_square(10), (11, 0)), (_square(10), (25, 0))]
    assert touches_other(bodies[0][0], bodies[0][1], bodies, 0)
    assert touches_other(bodies[1][0], bodies[1][1], bodies, 1)
    assert not touches_other(bodies[2][0], bodies[2][1], bodies, 2)


def test_a_neighbour_counts_as_body_where_it_hides_the_side_face() -> None:
    # Eroded by 6 px to the right, a lone body loses its left 6 columns; with a body
    # touching it on the left, none.
    body = _square(12)
    alone = erode_beside(body, (20, 0), [(body, (20, 0))], np.array([6.0, 0.0]))
    beside = erode_beside(body, (20, 0), [(body, (20, 0)), (_square(12), (8, 0))],
                          np.array([6.0, 0.0]))
    assert not alone[:, :6].any() and alone[:, 6:].all()
    assert beside.all()
