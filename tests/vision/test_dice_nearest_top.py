"""A blob of touching dice cut into its dice by their split tops (:mod:`vision.dice_faces`)."""

from __future__ import annotations

import numpy as np

from vision.dice_faces import TopFace, _by_nearest_top


def _top(mask: np.ndarray) -> TopFace:
    """``mask`` as a flat top face at the patch's offset (its rectangle unused here)."""
    return TopFace(mask, (0, 0), ((0.0, 0.0), (0.0, 0.0), 0.0), True)


def test_the_near_dies_side_face_stays_with_it_and_the_cut_follows_the_tops() -> None:
    # Two dice along the camera's lean: the far one's top (rows 0-19), the near one's top
    # (rows 20-39) and its side face towards the camera (rows 40-51). A k-means on the body
    # cuts it at its middle (row 26), giving the far die a strip of the near one's top.
    body = np.zeros((52, 24), np.uint8)
    body[:, 2:22] = 1
    far, near = np.zeros_like(body), np.zeros_like(body)
    far[1:19, 3:21], near[21:39, 3:21] = 1, 1
    pieces = _by_nearest_top(body, [_top(far), _top(near)], np.array([0.0, -12.0]))
    assert len(pieces) == 2
    assert np.array_equal(pieces[0] | pieces[1], body) and not (pieces[0] & pieces[1]).any()
    assert pieces[0][:19, 2:22].all() and not pieces[0][21:].any()
    assert pieces[1][21:, 2:22].all()


def test_each_die_beside_another_across_the_lean_keeps_its_own_side_face() -> None:
    # Side by side across the lean, each die's side face lies under its own top.
    body = np.zeros((40, 44), np.uint8)
    body[:, 2:42] = 1
    left, right = np.zeros_like(body), np.zeros_like(body)
    left[1:27, 3:21], right[1:27, 23:41] = 1, 1
    pieces = _by_nearest_top(body, [_top(left), _top(right)], np.array([0.0, -12.0]))
    assert pieces[0][:, 2:22].all() and not pieces[0][:, 22:].any()
    assert pieces[1][:, 22:42].all()


def test_an_empty_top_is_no_die() -> None:
    body = np.zeros((30, 30), np.uint8)
    body[5:25, 5:25] = 1
    top = np.zeros_like(body)
    top[6:24, 6:24] = 1
    pieces = _by_nearest_top(body, [_top(top), _top(np.zeros_like(body))],
                             np.array([0.0, -5.0]))
    # Fewer than two tops: the body is cut into as many compact pieces as before.
    assert len(pieces) == 2 and np.array_equal(pieces[0] | pieces[1], body)
