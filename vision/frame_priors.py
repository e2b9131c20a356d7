"""The frame model's priors: the coin kinds it names and how far a frame's coins may stray.

:mod:`vision.frame_model` fits every frame's own sizes and metals from these; calibration
(:func:`vision.read.model_for`) narrows them to the user's own coins and camera.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from vision.arrays import FloatArray


@dataclass(frozen=True)
class KindPrior:
    """One coin kind as the model knows it: its letter, true diameter and metal."""

    kind: str
    diameter_mm: float
    metal: str


@dataclass(frozen=True)
class FrameModelConfig:
    """Priors and spreads of the frame model (mm; colours in log ratios).

    ``offset_mm`` is the expected common size offset and ``offset_spread_mm`` how far a frame
    may stray from it; ``kind_offsets_mm`` the expected offsets per kind beyond it, which a
    frame may move by ``kind_offset_spread_mm`` (weighed as ``kind_offset_weight`` coins).
    ``size_spread_mm`` is the least spread of a measurement about its kind's size. ``tints``
    gives each metal's expected tint against silver, at least ``least_redder`` in red against
    green, ``tint_spread`` (per ratio) how far a frame's may
    stray; a tinted metal's coins differ in how strongly they are tinted (a penny's age), by
    ``along_spread`` along the tint (weighed as ``along_prior_coins`` coins against the
    frame's own spread, at most ``most_along_spread``); ``colour_spread`` is the least spread
    of a colour about its metal's field (across the tint for a tinted metal), and
    ``most_colour_spread`` the most (a frame's coins of one metal differ no more than that,
    so a coin far off every metal cannot widen it to look like one). Priors taken from a
    calibrated profile narrow the offset's and tints' spreads to ``calibrated_spread`` of
    theirs.
    The silver field is a Gaussian-weighted mean over coins within ``field_reach_mm``, drawn
    towards ``silver_colour`` as much as ``field_anchor`` coins would. ``rounds`` of EM. A
    face the camera clipped (a glint) is measured off by an offset common to the frame's
    glints (within about ``glint_spread_mm``) and less surely (``glint_noise_mm`` more), its
    top circle as much as its outline (both are the clipped face's edge, bloomed past the
    metal's by the blur's tail). As glinting coins fit the next size up about as well as
    their own, the fit also starts from a bloom of ``glint_bloom_mm`` (a camera pixel or so
    each side at 1.2-2 px/mm), kept where it explains the frame clearly better; where
    its face shows no colour or is clipped on ``edge_glint`` of it, its edge and bloom show
    ``edge_tint_share`` of its metal's tint, within ``edge_spread``. An outline is a single
    coin's or, ``stack_share`` of the time, a stack's, whose lower coins stick out by up to
    ``stack_reach_mm``; the top coin's own circle (:mod:`vision.tops`, the inner edge of its
    raised rim as a rule) lies about ``inner_offset_mm`` from its kind's size, within
    ``inner_offset_spread_mm`` per frame and ``inner_spread_mm`` per coin at least.

    What a metal mirrors is lit by the lamp, the room and the window, each of its own colour
    temperature, in shares that differ from coin to coin: so a coin's colour strays along the
    line of light colours (a blackbody's, :data:`vision.light_line.LIGHT_DIRECTION`) far more
    than across it, while copper's tint stands out across it too. Colours along that line
    count ``light_axis_share`` of themselves (1: as much as across it): the coins of 52 frames
    (40 of the physical renderer's tuning family, the 12 outside samples) spread along it a
    median 3.3 times as far as across it (median absolute deviations, copper and silver
    together), so about 0.3.

    A coin that stands out of the paper by little (a bright silver coin on white paper shows
    only its dark rounded edge, and its shadow beyond) has its outline found on whatever
    stands out most beyond it: it is measured larger, and less surely. Its faintness runs
    from 0 at an edge contrast of ``faint_contrast`` to 1 at ``faintest_contrast``; the
    frame's faint coins share an offset of their own (within about ``faint_offset_spread_mm``)
    and stray about it by at least ``faint_noise_mm``. Where ``faint_share`` or more of the
    coins are at least half faint, their shadows may swell them all by a size step (a dark
    ring round each coin's foot, as much as a nickel is larger than a dime), and every coin
    then fits the next kind up about as well as its own: the fit also starts from a faint
    offset of ``faint_shadow_mm``, kept where it explains the frame clearly better. The
    glinting and the faint coins' spreads are fitted to the frame's own such coins, each
    drawn towards its least as much as ``noise_prior_coins`` coins would.

    A size is found in camera pixels, so a coin the camera sees coarsely is measured less
    surely: where one camera pixel spans more than ``resolved_pixel_mm`` of mat, its outline
    and top circle stray further by ``coarse_noise_px`` times the millimetres a pixel spans
    beyond that (the ring's coins seen at 0.4-0.5 px/mm stray 1.1 mm about their frame's
    offset, those at 0.7-1 px/mm 0.3 mm; Coin Isolation's, seen at 0.9 px/mm or more, none
    further). There a silver kind is also expected ``coarse_swell_px`` times those millimetres
    larger: a silver coin shows the paper little but the thin dark ring of its rounded edge,
    which a coarse camera blurs into its face and its shadow, so it stands out faintly (0.08
    to 0.1 of paper at 2 to 2.4 mm a pixel, about 0.3 at 1.5) and its edge is found further
    out, while a penny's dark face is a step that blur leaves in place (the ring's 5- and
    6-seat tuning frames at 2 to 2.4 mm a pixel: nickels and dimes measure 1 to 1.4 mm over
    their frame's offset, quarters about 0.4, pennies none; half the nickels' and dimes' is
    taken). A top circle lies about a millimetre inside the outline (a raised rim's inner
    edge), so where a pixel is that coarse it is the same blurred edge measured again: it
    is left out of the fit, not counted as a second sight of the size. On a ring's frame a
    coin whose colour falls short of copper's tint by ``ring_pale_silver_spreads`` colour
    spreads sets no copper tint (:mod:`vision.ring_metals`).
    """

    offset_mm: float = 1.0
    offset_spread_mm: float = 1.2
    kind_offsets_mm: tuple[tuple[str, float], ...] = ()
    kind_offset_spread_mm: float = 0.4
    kind_offset_weight: float = 4.0
    size_spread_mm: float = 0.3
    tints: tuple[tuple[str, tuple[float, float]], ...] = (
        ("copper", (0.19, -0.09)), ("brass", (0.10, -0.25)),
    )
    tint_spread: tuple[float, float] = (0.06, 0.05)
    along_spread: float = 0.06
    along_prior_coins: float = 3.0
    most_along_spread: float = 0.15
    least_redder: float = 0.06
    colour_spread: float = 0.035
    most_colour_spread: float = 0.1
    calibrated_spread: float = 0.5
    silver_colour: tuple[float, float] = (0.0, 0.0)
    light_axis_share: float = 0.3
    field_reach_mm: float = 90.0
    field_anchor: float = 2.0
    rounds: int = 8
    degrees_of_freedom: float = 3.0
    glint_spread_mm: float = 1.5
    edge_tint_share: float = 0.35
    edge_glint: float = 0.3
    edge_spread: float = 0.025
    stack_share: float = 0.1
    stack_reach_mm: float = 8.0
    inner_offset_mm: float = -2.0
    inner_offset_spread_mm: float = 1.0
    inner_spread_mm: float = 0.35
    glint_noise_mm: float = 0.5
    glint_bloom_mm: float = 1.5
    faint_contrast: float = 0.3
    faintest_contrast: float = 0.1
    faint_offset_spread_mm: float = 1.5
    faint_noise_mm: float = 0.5
    faint_share: float = 0.5
    faint_shadow_mm: float = 3.0
    noise_prior_coins: float = 3.0
    resolved_pixel_mm: float = 1.5
    coarse_noise_px: float = 1.5
    coarse_swell_px: float = 0.75
    ring_pale_silver_spreads: float = 2.0


def faintness(config: FrameModelConfig, contrast: FloatArray) -> FloatArray:
    """(N,) how faint each coin's edge is against the paper: 0 at ``faint_contrast`` and
    above, 1 at ``faintest_contrast`` and below."""
    span = max(config.faint_contrast - config.faintest_contrast, 1e-6)
    return np.asarray(np.clip((config.faint_contrast - np.asarray(contrast, np.float64)) / span,
                              0.0, 1.0))
