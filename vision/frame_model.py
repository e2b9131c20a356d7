"""Naming every coin of a frame at once, from how its coins compare with each other.

A frame holds dozens of coins under one light, one camera and one blur, so what is constant
across the frame need not be known beforehand: it is fitted to the frame's own coins.

* **Size.** Measured diameters are the true ones plus an offset common to the frame (blur,
  how the edge is found, a slightly wrong scale) and small offsets per kind (a thick smooth
  nickel's edge shows differently from a reeded dime's). Coin sizes are discrete and known in
  millimetres, so the offsets are what brings most coins onto a size; the mat's printed
  millimetres are the scale.
* **Metal.** A metal mirrors what lies in the mirror direction, tinted by its own colour:
  silver hardly, copper towards red, brass towards yellow. What a coin mirrors changes across
  the board (the lamp, a window, the room), and is alike for coins near each other. So each
  coin's colour is compared with the silver colour the coins around it imply (a smooth field
  over the board), and a metal is the tint that stands out of that field.

Both are fitted by expectation-maximisation over the coins' kinds: from a first split of the
colours and the size offset that fits best, each round weighs every coin's kinds by how well
its size and its colour fit, then refits the offsets, the metals' tints and the silver field.
The weights at the end are the kinds' probabilities, which is what confidence means here. A
frame with few coins leans on the priors (:class:`FrameModelConfig`), which calibration can
set from the user's own coins.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    from numpy.typing import NDArray

    FloatArray = NDArray[Any]
else:
    FloatArray = np.ndarray

#: Direction in ``(ln(red/green), ln(blue/green))`` in which copper's tint lies from silver's.
COPPER_DIRECTION = np.array([0.92, -0.39])


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
    gives each metal's expected tint against silver, ``tint_spread`` how far a frame's may
    stray; ``colour_spread`` is the least spread of a colour about its metal's field.
    The silver field is a Gaussian-weighted mean over coins within ``field_reach_mm``, drawn
    towards ``silver_colour`` as much as ``field_anchor`` coins would. ``rounds`` of EM. A
    face the camera clipped (a glint) is measured less surely, by up to ``glint_mm``.
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
    tint_spread: float = 0.08
    colour_spread: float = 0.035
    silver_colour: tuple[float, float] = (0.0, 0.0)
    field_reach_mm: float = 90.0
    field_anchor: float = 0.5
    rounds: int = 8
    degrees_of_freedom: float = 3.0
    glint_mm: float = 1.2


@dataclass(frozen=True, eq=False)
class FrameFit:
    """The frame's fitted model and every coin's kind probabilities.

    ``probabilities`` is (N, K) over ``kinds``; ``offset_mm`` the common size offset;
    ``kind_offsets_mm`` per kind; ``tints`` per metal (silver (0, 0)); ``silver_field`` the
    silver colour the field expects at each coin (N, 2).
    """

    kinds: tuple[str, ...]
    probabilities: FloatArray
    offset_mm: float
    kind_offsets_mm: dict[str, float] = field(default_factory=dict)
    tints: dict[str, tuple[float, float]] = field(default_factory=dict)
    silver_field: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))

    def best(self) -> tuple[list[str], FloatArray]:
        """Each coin's likeliest kind and its probability."""
        if len(self.probabilities) == 0:
            return [], np.zeros(0)
        index = np.argmax(self.probabilities, axis=1)
        chosen = self.probabilities[np.arange(len(index)), index]
        return [self.kinds[i] for i in index], chosen


def _student(squared: FloatArray, dof: float) -> FloatArray:
    """Log-density (up to a constant) of a Student-t at squared standardised distances."""
    return -0.5 * (dof + 1) * np.log1p(squared / dof)


class _Frame:
    """The working state of one frame's fit."""

    def __init__(self, config: FrameModelConfig, priors: tuple[KindPrior, ...],
                 positions: FloatArray, diameters: FloatArray, weights: FloatArray,
                 colours: FloatArray, clipped: FloatArray) -> None:
        self.config = config
        self.priors = priors
        self.sizes = np.array([prior.diameter_mm for prior in priors])
        self.metals = sorted({prior.metal for prior in priors}, key=lambda m: m != "silver")
        self.metal_of = np.array([self.metals.index(prior.metal) for prior in priors])
        self.positions = positions
        self.diameters = diameters
        self.weights = np.clip(weights, 0.05, 1.0)
        # A glint blooms the outline outwards, or hides the rim inside it: its size is less
        # sure by up to ``glint_mm``.
        self.glint = config.glint_mm * np.clip(clipped, 0.0, 1.0)
        self.colours = colours
        # Both ratios seen; a glint may leave only one of them (``parts``).
        self.parts = ~np.isnan(colours)
        self.known = self.parts.all(axis=1)
        expected = dict(config.kind_offsets_mm)
        self.kind_prior = np.array([expected.get(prior.kind, 0.0) for prior in priors])
        self.kind_offsets = self.kind_prior.copy()
        tint_prior = dict(config.tints)
        self.tint_prior = np.array([tint_prior.get(m, (0.0, 0.0)) if m != "silver" else (0, 0)
                                    for m in self.metals], np.float64)
        self.tints = self.tint_prior.copy()
        self.colour_spread = config.colour_spread
        self.size_spread = config.size_spread_mm
        distance = np.hypot(*(positions[:, None, :] - positions[None, :, :]).transpose(2, 0, 1))
        near = np.exp(-0.5 * (distance / config.field_reach_mm) ** 2)
        np.fill_diagonal(near, 0.0)
        self.near = near * self.known[None, :]
        self.offset = config.offset_mm
        self.field = np.tile(np.asarray(config.silver_colour, np.float64), (len(diameters), 1))

    # -- likelihoods --------------------------------------------------------------------------

    def size_scores(self) -> FloatArray:
        """(N, K) log-likelihood of each coin's diameter under each kind."""
        expected = self.sizes[None, :] + self.offset + self.kind_offsets[None, :]
        spread = np.hypot(self.size_spread / np.sqrt(self.weights), self.glint)
        squared = ((self.diameters[:, None] - expected) / spread[:, None]) ** 2
        return _student(squared, self.config.degrees_of_freedom)

    def metal_scores(self) -> FloatArray:
        """(N, M) log-likelihood of each coin's colour under each metal, over the ratios seen
        (0 where none was)."""
        residual = np.where(self.parts, self.colours - self.field, 0.0)  # (N, 2)
        gap = (residual[:, None, :] - self.tints[None, :, :]) * self.parts[:, None, :]
        squared = (gap**2).sum(axis=2) / self.colour_spread**2
        dimensions = self.parts.sum(axis=1)[:, None]
        dof = self.config.degrees_of_freedom
        return np.asarray(-0.5 * (dof + dimensions) * np.log1p(squared / dof))

    def posterior(self) -> FloatArray:
        """(N, K) probabilities of each kind for each coin."""
        scores = self.size_scores() + self.metal_scores()[:, self.metal_of]
        scores -= scores.max(axis=1, keepdims=True)
        probabilities = np.exp(scores)
        return probabilities / probabilities.sum(axis=1, keepdims=True)

    # -- refits ---------------------------------------------------------------------------------

    def refit_field(self, metal_weights: FloatArray) -> None:
        """The silver field at every coin from its neighbours' colours less their tints."""
        silver_like = self.colours - metal_weights @ self.tints
        silver_like = np.where(self.known[:, None], silver_like, 0.0)
        anchor = self.config.field_anchor
        total = self.near.sum(axis=1) + anchor
        self.field = (self.near @ silver_like + anchor * np.asarray(self.config.silver_colour)
                      ) / total[:, None]

    def refit_tints(self, metal_weights: FloatArray) -> None:
        """Each metal's tint against the field, drawn towards its prior."""
        residual = np.where(self.known[:, None], self.colours - self.field, 0.0)
        strength = (self.config.colour_spread / self.config.tint_spread) ** 2
        for metal in range(1, len(self.metals)):
            weight = metal_weights[:, metal] * self.known
            total = weight.sum() + strength
            self.tints[metal] = (weight @ residual + strength * self.tint_prior[metal]) / total
        assigned = residual - metal_weights @ self.tints
        spread = _weighted_spread(np.hypot(*assigned.T) / np.sqrt(2), self.known.astype(float))
        self.colour_spread = max(self.config.colour_spread, spread)

    def refit_sizes(self, probabilities: FloatArray) -> None:
        """The common offset and each kind's, from the coins' size residuals."""
        residual = self.diameters[:, None] - self.sizes[None, :] - self.kind_offsets[None, :]
        weight = probabilities * (self.weights / (1.0 + self.glint**2))[:, None]
        spread = self.config.offset_spread_mm
        strength = (self.size_spread / spread) ** 2
        self.offset = float(((weight * residual).sum() + strength * self.config.offset_mm)
                            / (weight.sum() + strength))
        residual = self.diameters[:, None] - self.sizes[None, :] - self.offset
        pull = self.config.kind_offset_weight
        self.kind_offsets = ((weight * residual).sum(axis=0) + pull * self.kind_prior) / (
            weight.sum(axis=0) + pull)
        limit = self.config.kind_offset_spread_mm
        self.kind_offsets = np.clip(self.kind_offsets, self.kind_prior - limit,
                                    self.kind_prior + limit)
        assigned = (self.diameters - (probabilities * (self.sizes + self.kind_offsets)).sum(axis=1)
                    - self.offset)
        spread = _weighted_spread(assigned, self.weights / (1.0 + self.glint**2))
        self.size_spread = max(self.config.size_spread_mm, spread)

    def first_guess(self) -> None:
        """Metals from the colours' best split along copper's direction, then the size offset
        that puts most coins on a size their metal allows."""
        self.refit_field(self.split_metals())
        metal_weights = self.metal_posterior_from_colour()
        allowed = metal_weights[:, self.metal_of] > 0.2
        allowed |= ~allowed.any(axis=1, keepdims=True)
        shifts = self.config.offset_mm + np.arange(-2.5, 2.5001, 0.05) * (
            self.config.offset_spread_mm / 1.2)
        gaps = (self.diameters[None, :, None] - shifts[:, None, None]
                - self.sizes[None, None, :] - self.kind_offsets[None, None, :])
        gaps = np.where(allowed[None], np.abs(gaps), np.inf).min(axis=2)
        cost = (np.minimum(gaps, 1.0) * self.weights[None, :]).sum(axis=1)
        cost += 0.5 * ((shifts - self.config.offset_mm) / self.config.offset_spread_mm) ** 2
        self.offset = float(shifts[int(np.argmin(cost))])

    def split_metals(self) -> FloatArray:
        """(N, M) hard first metals: the colours projected on copper's direction and split
        where the two groups lie farthest apart for their spread (all silver, or all
        copper, when no split stands out by half copper's tint)."""
        weights = np.zeros((len(self.diameters), len(self.metals)))
        weights[:, 0] = 1.0
        if "copper" not in self.metals or not self.known.any():
            return weights
        copper = self.metals.index("copper")
        tint = float(np.hypot(*self.tint_prior[copper]))
        projected = (self.colours[self.known] - np.asarray(self.config.silver_colour)
                     ) @ COPPER_DIRECTION
        order = np.sort(projected)
        best, split = 0.0, None
        for index in range(1, len(order)):
            low, high = order[:index], order[index:]
            gap = high.mean() - low.mean()
            spread = np.sqrt((low.var() * len(low) + high.var() * len(high)) / len(order))
            score = gap / max(spread, self.config.colour_spread)
            if gap >= tint / 2 and score > best:
                best, split = score, (order[index - 1] + order[index]) / 2
        if split is None:
            is_copper = np.full(len(projected), np.median(projected) > tint / 2)
        else:
            is_copper = projected > split
        rows = np.flatnonzero(self.known)[is_copper]
        weights[rows, 0] = 0.0
        weights[rows, copper] = 1.0
        return weights

    def metal_posterior_from_colour(self) -> FloatArray:
        """(N, M) metal probabilities from colour alone."""
        scores = self.metal_scores()
        scores -= scores.max(axis=1, keepdims=True)
        probabilities = np.exp(scores)
        return probabilities / probabilities.sum(axis=1, keepdims=True)

    def metal_weights(self, probabilities: FloatArray) -> FloatArray:
        """(N, M) metal probabilities summed over kinds."""
        weights = np.zeros((len(probabilities), len(self.metals)))
        for metal in range(len(self.metals)):
            weights[:, metal] = probabilities[:, self.metal_of == metal].sum(axis=1)
        return weights


def _weighted_spread(values: FloatArray, weights: FloatArray) -> float:
    """A robust spread: 1.4826 times the weighted median absolute value."""
    if weights.sum() <= 0:
        return 0.0
    order = np.argsort(np.abs(values))
    cumulative = np.cumsum(weights[order])
    middle = order[np.searchsorted(cumulative, cumulative[-1] / 2)]
    return float(1.4826 * abs(values[middle]))


def fit_frame(
    config: FrameModelConfig, priors: tuple[KindPrior, ...], positions_mm: FloatArray,
    diameters_mm: FloatArray, weights: FloatArray, colours: FloatArray,
    clipped: FloatArray | None = None,
) -> FrameFit:
    """Fit the frame model to N coins (positions (N, 2) mm, diameters (N,) mm, fit weights
    (N,) 0-1, colours (N, 2) with NaN where unknown, and the share of each face the camera
    clipped (N,; none by default)) over the kinds ``priors``."""
    kinds = tuple(prior.kind for prior in priors)
    if len(diameters_mm) == 0:
        return FrameFit(kinds, np.zeros((0, len(kinds))), config.offset_mm)
    frame = _Frame(config, priors, np.asarray(positions_mm, np.float64),
                   np.asarray(diameters_mm, np.float64), np.asarray(weights, np.float64),
                   np.asarray(colours, np.float64),
                   np.zeros(len(diameters_mm)) if clipped is None else np.asarray(clipped))
    frame.first_guess()
    probabilities = frame.posterior()
    for _ in range(config.rounds):
        metal_weights = frame.metal_weights(probabilities)
        frame.refit_field(metal_weights)
        frame.refit_tints(metal_weights)
        frame.refit_sizes(probabilities)
        probabilities = frame.posterior()
    tints = {metal: (float(tint[0]), float(tint[1]))
             for metal, tint in zip(frame.metals, frame.tints, strict=True)}
    offsets = {prior.kind: float(value)
               for prior, value in zip(priors, frame.kind_offsets, strict=True)}
    return FrameFit(kinds, probabilities, frame.offset, offsets, tints, frame.field)
