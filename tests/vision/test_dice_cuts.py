"""Touching dice cut apart where the lone dice's sides leave no square tops (issue 19)."""

from __future__ import annotations

from .helpers import tray_dice_by_truth


def test_two_dice_face_to_face_along_the_lean_are_read_though_the_near_one_shows_its_side():
    # Tuning frame 253 (issue 19): a blue 6 and a white 1 face to face along the camera's
    # lean; the blue die's whole side face shows, longer than the lone die's sides, and
    # their tops were taken for three dice, none square.
    readings = tray_dice_by_truth(253)
    assert [(truth.colour, reading.value) for truth, reading, _ in readings] == [
        (truth.colour, truth.value) for truth, _, _ in readings]


def test_two_dice_side_by_side_whose_joint_top_is_twice_as_long_as_wide_are_read():
    # Tuning frame 242 (issue 19): two white 6s side by side across the lean, beside a blue
    # die measured large; by area their joint top was one die, a rectangle no square.
    readings = tray_dice_by_truth(242)
    assert [(truth.colour, reading.value) for truth, reading, _ in readings] == [
        (truth.colour, truth.value) for truth, _, _ in readings]


def test_a_die_cut_from_its_neighbour_by_colour_sitting_as_a_diamond_is_read():
    # Tuning frame 229 (issue 19): a white 4 turned as a diamond against a blue die; cut from
    # it by colour, its body lacks what the blue die hides, is too wide across the lean for a
    # lone die, and its top was eroded without the blue die counted as body.
    readings = tray_dice_by_truth(229)
    assert [(truth.colour, reading.value) for truth, reading, _ in readings] == [
        (truth.colour, truth.value) for truth, _, _ in readings]
