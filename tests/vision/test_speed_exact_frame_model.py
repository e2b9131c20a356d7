"""The frame model's shortcuts give exactly the fits of the plain computations they
replace: the first size offset's gaps taken kind by kind, the edge colours' term left out
where no coin's edge colour counts (the fifth speed pass), the colours' scores left out
where they count nothing, and later runs started from a copy of the built frame instead of
a frame built again (the eleventh)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from vision.arrays import FloatArray
from vision.frame_model import _Frame
from vision.frame_statistics import tint_gaps

from .helpers import random_frame_fit


def _plain_first_guess(self: _Frame, metal_weights: FloatArray) -> None:
    """:meth:`_Frame.first_guess` over one (shifts, coins, kinds) array."""
    self.refit_field(metal_weights)
    by_colour = self.metal_posterior_from_colour()
    allowed = by_colour[:, self.metal_of] > 0.2
    allowed |= ~allowed.any(axis=1, keepdims=True)
    spread = self.config.offset_spread_mm
    shifts = self.config.offset_mm + np.arange(-2.5, 2.5001, 0.05 / spread) * spread
    gaps = (self.diameters[None, :, None] - shifts[:, None, None]
            - self.sizes[None, None, :] - self.kind_offsets[None, None, :])
    gaps = np.where(allowed[None], np.abs(gaps), np.inf).min(axis=2)
    cost = (np.minimum(gaps, 1.0) * self.weights[None, :]).sum(axis=1)
    cost += 0.5 * ((shifts - self.config.offset_mm) / spread) ** 2
    self.offset = float(shifts[int(np.argmin(cost))])


def _plain_metal_scores(self: _Frame) -> FloatArray:
    """:meth:`_Frame.metal_scores` with the edge colours' term always added."""
    residual = np.where(self.known[:, None], self.colours - self.field, 0.0)
    squared = tint_gaps(residual, self.tints, self.known, self.along_spread / self.colour_spread)
    squared = np.where(self.known[:, None], squared, self._partial_gaps())
    squared = squared / self.colour_spread**2
    edge_seen, edges = self._edges_seen()
    edge_gap = tint_gaps(edges, self.config.edge_tint_share * self.tints, edge_seen)
    squared = squared + np.where(edge_seen[:, None], edge_gap, 0.0) / self.config.edge_spread**2
    dimensions = (self.parts.sum(axis=1) + 2 * edge_seen)[:, None]
    dof = self.config.degrees_of_freedom
    return np.asarray(-0.5 * (dof + dimensions) * np.log1p(squared / dof))


def _plain_posterior(self: _Frame, colour_weight: float = 1.0) -> FloatArray:
    """:meth:`_Frame.posterior` with the colours' scores always added, times their weight."""
    scores = self.size_scores() + colour_weight * self.metal_scores()[:, self.metal_of]
    scores -= scores.max(axis=1, keepdims=True)
    probabilities = np.exp(scores)
    return np.asarray(probabilities / probabilities.sum(axis=1, keepdims=True))


def test_the_shortcut_fits_are_the_plain_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    cases = [(seed, seed % 2 == 0) for seed in range(10)]
    fast = [random_frame_fit(seed, edges) for seed, edges in cases]
    monkeypatch.setattr(_Frame, "first_guess", _plain_first_guess)
    monkeypatch.setattr(_Frame, "metal_scores", _plain_metal_scores)
    monkeypatch.setattr(_Frame, "posterior", _plain_posterior)
    for (seed, edges), fit in zip(cases, fast, strict=True):
        plain = random_frame_fit(seed, edges)
        assert np.array_equal(fit.probabilities, plain.probabilities)
        assert fit.offset_mm == plain.offset_mm and fit.tints == plain.tints
        assert fit.kind_offsets_mm == plain.kind_offsets_mm
        assert np.array_equal(fit.single, plain.single)
        assert np.array_equal(fit.silver_field, plain.silver_field)
        assert np.array_equal(fit.by_colour, plain.by_colour)


def test_runs_from_a_copy_of_the_built_frame_fit_as_from_a_frame_built_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    fast = [random_frame_fit(seed) for seed in range(4)]
    built = _Frame.__init__

    def remembering(self: _Frame, *arguments: Any) -> None:
        built(self, *arguments)
        self.__dict__["arguments"] = arguments

    monkeypatch.setattr(_Frame, "__init__", remembering)
    monkeypatch.setattr(_Frame, "fresh_copy", lambda self: _Frame(*self.arguments))
    for seed, fit in enumerate(fast):
        plain = random_frame_fit(seed)
        assert np.array_equal(fit.probabilities, plain.probabilities)
        assert fit.offset_mm == plain.offset_mm and fit.tints == plain.tints
        assert fit.kind_offsets_mm == plain.kind_offsets_mm
        assert np.array_equal(fit.single, plain.single)
