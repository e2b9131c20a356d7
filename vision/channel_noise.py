"""Evening out the noise of the normalised view's colour channels.

Dividing the light out (:mod:`vision.light`) multiplies each channel by the inverse of the
paper's level in it. Under a warm lamp with the white balance off, the paper's blue is a
fraction of its red, so the normalised blue carries the sensor's noise several times over (a
cold light does the same to red). Every stage that compares a pixel with paper takes its
largest channel difference and its steps in any channel: in such a view the noisy channel's
grain stands out of paper as much as a silver coin's rim does, the rims' rays stop on it
beyond the coin, and the coin's outline swells, agrees with too few rays, and the coin is
missed. A channel much noisier than the quietest one is smoothed until it is about as quiet:
what it tells of a coin (its tint over the whole face, its edge) is wider than that blur,
and the other channels keep the edge sharp. A balanced view (white balance on, a neutral
lamp) is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from vision.arrays import FloatArray, Image


@dataclass(frozen=True)
class ChannelNoiseConfig:
    """A channel whose noise exceeds ``most_ratio`` times the quietest channel's is smoothed
    by the least Gaussian of ``sigmas_px`` (view pixels) that brings its noise to
    ``most_ratio`` times the quietest's, or the largest. Noise is what a blur of
    ``detail_sigma_px`` takes away, measured on the middle ``middle_share`` of the view (each
    way) at every ``sample_step``-th pixel (:func:`channel_noise`)."""

    most_ratio: float = 1.6
    sigmas_px: tuple[float, ...] = (0.8, 1.2, 1.7, 2.4)
    detail_sigma_px: float = 1.5
    middle_share: float = 0.4
    sample_step: int = 3


def middle_of(config: ChannelNoiseConfig, image: Image) -> Image:
    """The middle ``middle_share`` of ``image`` each way: board and paper, a sixth of the
    pixels or so, enough to measure noise on."""
    height, width = image.shape[:2]
    margin = (1.0 - config.middle_share) / 2
    return image[round(height * margin):round(height * (1 - margin)),
                 round(width * margin):round(width * (1 - margin))]


def channel_noise(config: ChannelNoiseConfig, image: Image) -> FloatArray:
    """Each channel's noise (C,) in ``image`` (all of it: see :func:`middle_of`): 1.48 times
    the median absolute fine detail (what a blur of ``detail_sigma_px`` takes away), at
    every ``sample_step``-th pixel. The view is mostly paper, whose only fine detail is
    the noise, so the median is the paper's."""
    fine = np.asarray(image, np.float32)
    detail = np.abs(fine - cv2.GaussianBlur(fine, (0, 0), config.detail_sigma_px))
    step = config.sample_step
    channels = 1 if detail.ndim == 2 else detail.shape[2]
    sampled = detail[::step, ::step].reshape(-1, channels)
    return np.asarray(1.4826 * np.median(sampled, axis=0), np.float64)


def balance_channel_noise(config: ChannelNoiseConfig, image: Image) -> Image:
    """``image`` (uint8, 3 channels) with every channel much noisier than the quietest one
    smoothed until it is about as quiet; the image itself where none is."""
    middle = middle_of(config, image)
    noise = channel_noise(config, middle)
    most = config.most_ratio * max(float(noise.min()), 0.25)
    noisy = [channel for channel in range(3) if noise[channel] > most]
    if not noisy:
        return image
    planes = list(cv2.split(image))
    for channel in noisy:
        sample = np.ascontiguousarray(middle[..., channel])
        chosen = config.sigmas_px[-1]
        for sigma in config.sigmas_px:
            smooth = cv2.GaussianBlur(sample, (0, 0), sigma)
            if float(channel_noise(config, smooth)[0]) <= most:
                chosen = sigma
                break
        planes[channel] = cv2.GaussianBlur(planes[channel], (0, 0), chosen)
    balanced = cv2.merge(planes)
    balanced.setflags(write=False)
    return balanced
