"""A lone die's top found again in its body less its shadow (:mod:`vision.dice_shadow`)."""

from __future__ import annotations

import numpy as np

from vision.dice import DiceConfig
from vision.dice_shadow import without_shadow

from .helpers import tray_dice_by_truth

FELT = np.array([70.0, 110.0, 70.0], np.float32)


def _blue_die_with_shadow() -> tuple[np.ndarray, np.ndarray]:
    """A crop of felt holding a blue square with a white pip, a shadow (the felt darker, in
    its own hue) along its top side, and the body mask taking in both."""
    image = np.tile(FELT.astype(np.uint8), (40, 40, 1))
    image[6:10, 8:32] = (FELT * 0.45).astype(np.uint8)
    image[10:34, 8:32] = (150, 40, 30)
    image[20:24, 18:22] = (235, 235, 235)
    body = np.zeros((40, 40), np.uint8)
    body[6:34, 8:32] = 1
    return image, body


def test_the_shadow_is_taken_off_a_coloured_body_and_its_pips_stay() -> None:
    image, body = _blue_die_with_shadow()
    kept = without_shadow(DiceConfig(), image, FELT, body, (0, 0))
    assert kept is not None
    assert not kept[6:9].any()
    assert kept[11:33, 9:31].all()


def test_a_die_of_the_felts_hue_keeps_its_body() -> None:
    # A grey die on grey felt shows no hue of its own: no shadow can be told from it by hue.
    image, body = _blue_die_with_shadow()
    image[10:34, 8:32] = (40, 60, 40)
    assert without_shadow(DiceConfig(), image, FELT, body, (0, 0)) is None


def test_a_dark_die_touching_the_body_is_no_shadow_to_take_off() -> None:
    # A shadow joins a body as a strip along one side; a black die beside a coloured one
    # (cocked against it, say) is half the blob and stays.
    image, body = _blue_die_with_shadow()
    image[6:34, 32:40] = (25, 25, 25)
    image[6:10, 8:32] = (150, 40, 30)
    body[6:34, 32:40] = 1
    assert without_shadow(DiceConfig(), image, FELT, body, (0, 0)) is None


def test_a_red_die_whose_body_took_in_its_shadow_is_read() -> None:
    # Tuning frame 813 (issue 19): a lone red 3 turned 45 degrees, its top found 30 x 37 px
    # (2 px/mm) with its shadow, refused as no square.
    for truth, reading, why in tray_dice_by_truth(813):
        assert reading.value == truth.value, (truth.colour, why)


def test_a_blue_die_whose_shadow_made_it_look_two_dice_is_read_as_one() -> None:
    # Tuning frame 219 (issue 19): a blue 6 whose body with its shadow was taken for two
    # touching dice and split before any lone die's top was tried.
    readings = tray_dice_by_truth(219)
    blue = [reading for truth, reading, _ in readings if truth.colour == "blue"]
    assert len(blue) == 1 and blue[0].value == 6


def test_each_touching_die_loses_its_own_shadow_and_a_black_one_keeps_its_sides() -> None:
    # Cut into its dice, each part is measured against its own hue: the blue die's shadow
    # goes, the black die beside it (whose dark sides no hue tells from a shadow) stays whole.
    image, body = _blue_die_with_shadow()
    image[6:34, 32:40] = (25, 25, 25)
    body[6:34, 32:40] = 1
    blue, black = np.zeros_like(body), np.zeros_like(body)
    blue[:, :32], black[:, 32:] = body[:, :32], body[:, 32:]
    kept = without_shadow(DiceConfig(), image, FELT, body, (0, 0), [blue, black])
    assert kept is not None
    assert not kept[6:9, 8:32].any()
    assert kept[6:34, 33:40].all()


def test_the_level_and_hue_taken_plane_by_plane_are_numpys_to_the_bit() -> None:
    # The planes stand in for numpy's mean along the 3-long channel axis (issue 19's speed
    # work): readings stay the same only while every bit does.
    from vision.dice_shadow import _level_and_hue

    image, _ = _blue_die_with_shadow()
    noisy = np.clip(image.astype(np.int16) + np.random.default_rng(3).integers(
        -40, 40, image.shape), 0, 255).astype(np.uint8)
    for crop in (image, noisy[3:37, 5:31]):
        logs = np.log(crop.astype(np.float32) + 4.0) - np.log(FELT + 4.0)
        level, hue = _level_and_hue(crop, FELT)
        assert np.array_equal(level.view(np.uint32), logs.mean(axis=2).view(np.uint32))
        expected = logs - logs.mean(axis=2)[..., None]
        assert np.array_equal(np.stack(hue, axis=2).view(np.uint32), expected.view(np.uint32))
