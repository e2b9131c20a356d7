"""The line of light colours: how a coin's colour strays with what it mirrors.

A coin mirrors the lamp, the room and the window in its own shares, each of its own colour
temperature, so its colour strays along the line a blackbody's colour follows from warm to cool
far more than across it. The frame model (:mod:`vision.frame_model`) counts colours along that
line less (``FrameModelConfig.light_axis_share``), so copper is told from silver across it.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.arrays import FloatArray
from vision.frame_priors import FrameModelConfig

#: Direction in ``(ln(red/green), ln(blue/green))`` along which a light's colour moves as its
#: colour temperature falls (a blackbody from 6,500 K to 2,700 K seen through sRGB primaries
#: lies on this line within a few hundredths): warmer is redder and far less blue.
LIGHT_DIRECTION = np.array([0.5, -0.866])


def light_squeeze(share: float) -> FloatArray:
    """The 2 x 2 map of colours that keeps what lies across the line of light colours and
    scales what lies along it by ``share``."""
    along = LIGHT_DIRECTION / np.hypot(*LIGHT_DIRECTION)
    across = np.array([-along[1], along[0]])
    return np.asarray(np.outer(across, across) + share * np.outer(along, along))


def squeezed_config(config: FrameModelConfig, squeeze: FloatArray) -> FrameModelConfig:
    """``config`` with its colours (the silver colour, the metals' tints) mapped by
    ``squeeze``, as the frame's colours are."""
    if config.light_axis_share == 1.0:
        return config
    silver = squeeze @ np.asarray(config.silver_colour, np.float64)
    tints = tuple((metal, (float(value[0]), float(value[1])))
                  for metal, value in ((metal, squeeze @ np.asarray(tint, np.float64))
                                       for metal, tint in config.tints))
    return replace(config, silver_colour=(float(silver[0]), float(silver[1])), tints=tints)


__all__ = ["LIGHT_DIRECTION", "light_squeeze", "squeezed_config"]
