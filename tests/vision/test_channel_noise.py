"""Evening out the normalised view's channel noise (vision.channel_noise), on a crop of a
rendered stress frame: seed 1053 of the stress family (``stress-kelvin``), a 2,400 K lamp with
the white balance off. Its light-normalised top view (2 px/mm) carries about four times as much
noise in blue as in red; four nickels lie in the crop."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.channel_noise import (
    ChannelNoiseConfig,
    balance_channel_noise,
    channel_noise,
    middle_of,
)
from vision.ray_samples import with_fourth_channel
from vision.rims import RimConfig, measure_outlines

CROP = Path(__file__).parent / "data" / "warm_lamp_nickels.png"
#: The nickels' middles in the crop (top-view px), each a pixel or two off, as seeds are.
NICKELS = np.array([[160.2, 154.9], [155.0, 58.0], [56.0, 56.0], [256.0, 56.0]])
PIXELS_PER_MM = 2.0


def _crop() -> np.ndarray:
    view = cv2.imread(str(CROP), cv2.IMREAD_COLOR)
    assert view is not None
    return view


def _mean_agreement(image: np.ndarray) -> float:
    """How well, on average, the nickels' rims agree with the outlines fitted to them."""
    flags = np.zeros(image.shape[:2], np.uint8)
    outlines = measure_outlines(RimConfig(), with_fourth_channel(image), flags, NICKELS,
                                np.zeros((len(NICKELS), 2)), PIXELS_PER_MM)
    return float(outlines.agreement.mean())


def test_a_warm_lamps_noisy_blue_is_smoothed_and_the_nickels_rims_then_agree() -> None:
    config = ChannelNoiseConfig()
    view = _crop()
    noise = channel_noise(config, middle_of(config, view))
    assert int(np.argmax(noise)) == 0 and noise[0] > 3 * noise[2]  # blue, under a warm lamp
    balanced = balance_channel_noise(config, view)
    after = channel_noise(config, middle_of(config, balanced))
    assert after[0] <= config.most_ratio * after.min()
    assert np.array_equal(balanced[..., 1:], view[..., 1:])  # red and green are left alone
    # The blue grain stood out of paper as much as a nickel's rim: rays stopped on it.
    assert _mean_agreement(view) < 0.75
    assert _mean_agreement(balanced) > 0.85


def test_a_view_whose_channels_are_equally_noisy_is_left_as_it_is() -> None:
    view = _crop()
    even = np.ascontiguousarray(np.dstack([view[..., 2], view[..., 1], view[..., 2]]))
    assert balance_channel_noise(ChannelNoiseConfig(), even) is even
