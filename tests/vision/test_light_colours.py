"""Metal under lights of different colours: a silver coin mirroring a warm lamp, or a penny
mirroring a cool room, strays along the line of light colours, and copper is told from
silver across that line, against the frame's own coins."""

from __future__ import annotations

import numpy as np
import pytest

from contract.observation import Observation
from vision.frame_model import COPPER_DIRECTION, fit_frame
from vision.frame_priors import FrameModelConfig, KindPrior
from vision.light_line import LIGHT_DIRECTION, light_squeeze
from vision.read import read_frame
from vision.synth.physical import TableFrame, random_table_scene, render_table

from .helpers import CONFIG, GEOMETRY, PROFILE

#: Confidence from which the referee takes a reading as it is.
SURE = 0.5
PRIORS = (KindPrior("P", 19.05, "copper"), KindPrior("N", 21.21, "silver"),
          KindPrior("D", 17.91, "silver"), KindPrior("Q", 24.26, "silver"))


@pytest.fixture(scope="module")
def warm_lamp_cool_room() -> tuple[TableFrame, Observation]:
    """A tuning-family table under a 2,850 K lamp in a 5,450 K room: silver coins that mirror
    the lamp look yellow-red, pennies that mirror the room look pale and blue; and its
    reading."""
    frame = render_table(random_table_scene(32, family="tuning"), seed=0)
    light = frame.meta()["light"]
    assert light["lamp_kelvin"] < 3000 < 5000 < light["room_kelvin"]
    return frame, read_frame(CONFIG, frame.image, GEOMETRY, PROFILE)


def test_coins_mirroring_lights_of_other_colours_keep_their_metal(
        warm_lamp_cool_room: tuple[TableFrame, Observation]) -> None:
    """Of the single coins no pawn stands on, few are named the other metal, and none
    surely (13 were, one at 0.96, when colours counted alike in every direction)."""
    frame, observation = warm_lamp_cool_room
    singles = [name for name, truth in frame.truth.items()
               if len(truth.coins) == 1 and truth.pawn is None]
    other_metal = [(name, frame.truth[name].top, observation[name].coin,
                    observation[name].confidence) for name in singles
                   if observation[name].coin is not None
                   and (frame.truth[name].top == "P") != (observation[name].coin == "P")]
    assert len(singles) >= 40
    assert len(other_metal) <= 6, other_metal
    assert not [entry for entry in other_metal if entry[3] >= SURE], other_metal


def test_the_squeeze_keeps_colours_across_the_light_line_and_shrinks_them_along_it() -> None:
    """A colour along the light's line is scaled by the share; one across it is kept."""
    squeeze = light_squeeze(0.25)
    along = LIGHT_DIRECTION / np.hypot(*LIGHT_DIRECTION)
    across = np.array([-along[1], along[0]])
    assert np.allclose(squeeze @ along, 0.25 * along)
    assert np.allclose(squeeze @ across, across)
    assert np.allclose(light_squeeze(1.0), np.eye(2))


def _coins_under_mixed_light(rng: np.random.Generator
                             ) -> tuple[np.ndarray, np.ndarray, np.ndarray, list[str]]:
    """Positions, diameters and colours of 24 pennies and 24 dimes whose faces each mirror
    their own mix of a warm lamp and a cool room (anywhere along the light line, far more
    than copper's tint), with the sizes blurred so that size alone cannot name them."""
    kinds = ["P"] * 24 + ["D"] * 24
    size = {"P": 19.05, "D": 17.91}
    copper = 0.2 * COPPER_DIRECTION
    positions = rng.uniform(-100, 100, (len(kinds), 2))
    diameters = np.array([size[kind] + 1.0 for kind in kinds]) + rng.normal(0, 0.45, len(kinds))
    mix = rng.uniform(-0.4, 0.4, len(kinds))
    colours = (mix[:, None] * LIGHT_DIRECTION[None, :]
               + np.array([copper if kind == "P" else (0.0, 0.0) for kind in kinds])
               + rng.normal(0, 0.012, (len(kinds), 2)))
    return positions, diameters, colours, kinds


def test_the_frame_model_tells_copper_from_silver_across_the_light_line() -> None:
    """Pennies and dimes whose colours stray along the light line are named by their metal
    once that line counts less than across it: over six frames, under a tenth of the coins
    are named the other metal, a third as many as when colours count alike every way."""
    frames = [_coins_under_mixed_light(np.random.default_rng(seed)) for seed in range(6)]

    def wrong(share: float) -> int:
        config = FrameModelConfig(light_axis_share=share)
        count = 0
        for positions, diameters, colours, kinds in frames:
            named, _ = fit_frame(config, PRIORS, positions, diameters, np.ones(len(kinds)),
                                 colours).best()
            count += sum((truth == "P") != (read == "P")
                         for truth, read in zip(kinds, named, strict=True))
        return count

    coins = sum(len(kinds) for *_, kinds in frames)
    squeezed, alike = wrong(FrameModelConfig().light_axis_share), wrong(1.0)
    assert squeezed <= coins / 10
    assert 3 * squeezed <= alike


@pytest.mark.parametrize(("blue_green", "metal_kind"), [(-0.2, "P"), (0.0, "D")])
def test_a_face_seen_in_blue_against_green_alone_is_named_by_it(blue_green: float,
                                                                 metal_kind: str) -> None:
    """A glint clips a penny's red first; its blue against green still tells its metal where
    its size lies halfway between a penny's and a dime's (squeezing the colours along the
    light line mixes the two ratios, which once lost such a colour altogether)."""
    rng = np.random.default_rng(5)
    kinds = ["P"] * 12 + ["D"] * 12
    size = {"P": 19.05, "D": 17.91}
    copper = np.array([0.23, -0.21])  # a tarnished penny's tint: bluer than the prior's
    positions = rng.uniform(-100, 100, (len(kinds) + 1, 2))
    diameters = np.array([size[kind] + 1.0 for kind in kinds] + [18.48 + 1.0])
    colours = np.array([copper if kind == "P" else (0.0, 0.0) for kind in kinds]
                       + [(np.nan, blue_green)]) + np.r_[rng.normal(0, 0.01, (len(kinds), 2)),
                                                         np.zeros((1, 2))]
    fit = fit_frame(FrameModelConfig(), PRIORS, positions, diameters,
                    np.ones(len(diameters)), colours)
    named, confidence = fit.best()
    assert named[-1] == metal_kind
    assert confidence[-1] >= 0.7
