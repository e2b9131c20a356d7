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
The fit runs twice, from a first split of the colours along copper's tint and from sizes
alone with colour joining half way, and the one that explains the coins best is kept: a
tarnished penny and a silver coin mirroring a warm room can lie along any direction from each
other. Where coins glint, both run again from a glint's bloom (a clipped face measures a size
up), which is kept only where it explains the coins clearly better.
The weights at the end are the kinds' probabilities, which is what confidence means here. A
frame with few coins leans on the priors (:class:`FrameModelConfig`), which calibration can
set from the user's own coins.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from vision.arrays import BoolArray, FloatArray
from vision.frame_fit import FrameFit
from vision.frame_priors import FrameModelConfig, KindPrior, faintness
from vision.frame_statistics import (
    T_SCALE,
    best_split,
    student_log_density,
    tint_gaps,
    weighted_spread,
)
from vision.kept_sizes import forget_sizes, kept_while_sizes_stand
from vision.light_line import light_squeeze, squeezed_config
from vision.ring_metals import ring_tint_weights

#: Direction in ``(ln(red/green), ln(blue/green))`` in which copper's tint lies from silver's.
COPPER_DIRECTION = np.array([0.92, -0.39])
#: How much better (log-likelihood) a fit started from a glint's bloom must explain the frame
#: to replace the one started from none: a likelihood ratio of e, so that a tie keeps the
#: fit the frame reaches by itself.
BLOOM_MARGIN = 1.0

class _Frame:
    """The working state of one frame's fit."""

    def __setattr__(self, name: str, value: object) -> None:
        """Set an attribute; one the sizes may read drops the kept size likelihoods."""
        forget_sizes(self, name)
        object.__setattr__(self, name, value)

    def __init__(self, config: FrameModelConfig, priors: tuple[KindPrior, ...],
                 positions: FloatArray, diameters: FloatArray, weights: FloatArray,
                 colours: FloatArray, clipped: FloatArray, edges: FloatArray,
                 inner: FloatArray, contrast: FloatArray, pixel_mm: FloatArray,
                 ring: bool = False) -> None:
        self.config = config
        self.ring = ring
        self.priors = priors
        # Colours are squeezed along the light's line (:func:`light_squeeze`) here, edges before.
        self.squeeze = light_squeeze(config.light_axis_share)
        self.unsqueeze = np.linalg.inv(self.squeeze)
        self.sizes = np.array([prior.diameter_mm for prior in priors])
        self.metals = sorted({prior.metal for prior in priors}, key=lambda m: m != "silver")
        self.metal_of = np.array([self.metals.index(prior.metal) for prior in priors])
        self.positions = positions
        self.diameters = diameters
        self.weights = np.clip(weights, 0.05, 1.0)
        # A glint blooms the outline outwards, or hides the rim inside it, alike for every
        # glinting coin of the frame (one lamp, one camera): an offset of their own.
        self.clip = np.clip(clipped, 0.0, 1.0)
        self.glint_offset = 0.0
        self.glint_noise = config.glint_noise_mm
        # A coin faint against the paper is measured on its shadow: an offset of its own.
        self.faint = faintness(config, contrast) * (1.0 - self.clip)
        self.faint_offset = 0.0
        self.faint_noise = config.faint_noise_mm
        # A coin seen coarsely (a camera pixel spanning many millimetres) strays further.
        coarser = np.maximum(np.nan_to_num(pixel_mm - config.resolved_pixel_mm, nan=0.0), 0.0)
        self.coarse_noise = config.coarse_noise_px * coarser
        # A silver coin's thin dark rim, blurred by a coarse camera into its face and shadow,
        # is found further out: its silver kinds are expected larger there (N, K); a penny's
        # dark face is a step, which blur leaves in place.
        silver = np.array([prior.metal == "silver" for prior in priors], np.float64)
        self.swell = config.coarse_swell_px * coarser[:, None] * silver[None, :]
        # The top coin's own circle (its raised rim's inner edge, or its edge on a stack).
        self.inner = inner
        # A top circle lies about a millimetre inside the outline: where a camera pixel spans
        # more than that, it is the same blurred edge measured again, no evidence of its own.
        self.has_inner: BoolArray = np.isfinite(inner) & (coarser <= 0.0)
        self.inner_offset = config.inner_offset_mm
        self.inner_spread = config.inner_spread_mm
        # Both ratios seen; a glint may leave only one of them (``parts``: a glinting penny
        # clips red first, and its blue against green still tells copper from silver).
        # Colours arrive unsqueezed: squeezing mixes the two ratios, so a colour with one
        # ratio unseen is kept as it is (``partial_colours``) and weighed by its own
        # (:meth:`_partial_gaps`).
        self.parts: BoolArray = ~np.isnan(colours)
        self.known: BoolArray = np.asarray(self.parts.all(axis=1), dtype=bool)
        self.colours = np.where(self.known[:, None], np.nan_to_num(colours) @ self.squeeze.T,
                                np.nan)
        self.partial_colours = np.where(self.known[:, None], np.nan, colours)
        # Where a glint washes the face out, its edge and bloom keep a faint tint.
        glinting = (~self.known | (self.clip >= config.edge_glint)) & ~np.isnan(edges).any(axis=1)
        self.edges = np.where(glinting[:, None], edges, np.nan)
        self._edge_seen: BoolArray = ~np.isnan(self.edges[:, 0])
        self._edge_values: FloatArray = np.nan_to_num(self.edges)
        expected = dict(config.kind_offsets_mm)
        self.kind_prior = np.array([expected.get(prior.kind, 0.0) for prior in priors])
        self.kind_offsets = self.kind_prior.copy()
        tint_prior = dict(config.tints)
        self.tint_prior = np.array([tint_prior.get(m, (0.0, 0.0)) if m != "silver" else (0, 0)
                                    for m in self.metals], np.float64)
        self.tints = self.tint_prior.copy()
        self.colour_spread = config.colour_spread
        self.along_spread = np.full(len(self.metals), config.along_spread)
        self.size_spread = config.size_spread_mm
        distance = np.hypot(*(positions[:, None, :] - positions[None, :, :]).transpose(2, 0, 1))
        near = np.exp(-0.5 * (distance / config.field_reach_mm) ** 2)
        np.fill_diagonal(near, 0.0)
        self.near = near * self.known[None, :]
        self.offset = config.offset_mm
        self.field = np.tile(np.asarray(config.silver_colour, np.float64), (len(diameters), 1))
        # Where the colours show no two metals, a shift of them all is the light's or the
        # metal's alike: the tints then stay at their priors, and the field is the one that
        # puts the coins' median colour on the nearest metal's whole tint.
        self.one_metal = False

    def fresh_copy(self) -> _Frame:
        """A frame in this one's state that shares no array or list with it (a refit changes
        some in place): the same state as building it again from the same coins, for a
        fraction of the work."""
        copy = object.__new__(_Frame)
        for name, value in self.__dict__.items():
            copy.__dict__[name] = value.copy() if isinstance(value, np.ndarray | list) else value
        return copy

    # -- likelihoods --------------------------------------------------------------------------

    def size_scores(self) -> FloatArray:
        """(N, K) log-density of each coin's outline and top circle under each kind."""
        return self._size_parts()[0]

    @kept_while_sizes_stand
    def _size_parts(self) -> tuple[FloatArray, FloatArray]:
        """(N, K) log-density of each coin's outline and top circle under each kind, and the
        share of it that a single coin explains. The rest is a stack's: its lower coins stick
        out of the top coin's outline by up to ``stack_reach_mm``, and its top circle may be
        a lower coin's raised rim showing round a smaller top coin."""
        dof, reach = self.config.degrees_of_freedom, self.config.stack_reach_mm
        expected = self.outline_sizes()
        spread = self.spreads()[:, None]
        gap = self.diameters[:, None] - expected
        single = np.exp(student_log_density((gap / spread) ** 2, dof)) * T_SCALE[dof] / spread
        stacked = ((gap > -spread) & (gap < reach)) / (reach + spread)
        # A glint's bloom moves the face's own circle out with the outline (the clipped
        # face's edge is both), and as unsurely.
        bloom = self.clip * self.glint_offset
        inner_gap = (self.inner[:, None] - self.sizes[None, :] - self.swell - self.inner_offset
                     - bloom[:, None])
        inner_spread = np.hypot(np.hypot(self.inner_spread, self.glint_noise * self.clip),
                                self.coarse_noise)[:, None]
        inner_single = (np.exp(student_log_density((inner_gap / inner_spread) ** 2, dof))
                        * T_SCALE[dof] / inner_spread)
        inner_stacked = ((inner_gap > -inner_spread) & (inner_gap < reach)) / (
            reach + inner_spread)
        seen = self.has_inner[:, None]
        single = single * np.where(seen, inner_single, 1.0)
        stacked = stacked * np.where(seen, inner_stacked, 1.0)
        share = self.config.stack_share
        total = (1 - share) * single + share * stacked + 1e-300
        return np.log(total), (1 - share) * single / total

    def outline_sizes(self) -> FloatArray:
        """(N, K) the diameter each coin's outline would measure as a single coin of each
        kind: the frame's offset, each kind's, the coarse view's swell and the coin's share
        of the glints' and the faint coins' offsets."""
        return np.asarray(self.sizes[None, :] + self.offset + self.kind_offsets[None, :]
                          + self.swell + (self.clip * self.glint_offset
                                          + self.faint * self.faint_offset)[:, None])

    def single_share(self, probabilities: FloatArray) -> FloatArray:
        """(N,) how likely each outline is a single coin's, over its kinds' probabilities."""
        return np.asarray((probabilities * self._size_parts()[1]).sum(axis=1))

    def spreads(self) -> FloatArray:
        """(N,) how far each coin's diameter may stray from its kind's: the frame's spread,
        wider for a poorer fit, a glint, a faint edge and a coarse view."""
        extra = np.hypot(np.hypot(self.glint_noise * self.clip, self.faint_noise * self.faint),
                         self.coarse_noise)
        return np.asarray(np.hypot(self.size_spread / np.sqrt(self.weights), extra))

    def metal_scores(self) -> FloatArray:
        """(N, M) log-likelihood of each coin's colour under each metal, over the ratios seen
        (0 where none was)."""
        residual = np.where(self.known[:, None], self.colours - self.field, 0.0)  # (N, 2)
        squared = tint_gaps(residual, self.tints, self.known,
                             self.along_spread / self.colour_spread)
        squared = np.where(self.known[:, None], squared, self._partial_gaps())
        squared = squared / self.colour_spread**2
        edge_seen, edges = self._edges_seen()
        if edge_seen.any():  # else every edge term is 0, which adds nothing
            edge_gap = tint_gaps(edges, self.config.edge_tint_share * self.tints, edge_seen)
            squared = squared + np.where(edge_seen[:, None], edge_gap, 0.0
                                         ) / self.config.edge_spread**2
        dimensions = (self.parts.sum(axis=1) + 2 * edge_seen)[:, None]
        dof = self.config.degrees_of_freedom
        return np.asarray(-0.5 * (dof + dimensions) * np.log1p(squared / dof))

    def _partial_gaps(self) -> FloatArray:
        """(N, M) squared gap of each colour seen in one ratio only from each metal's (its
        field plus tint), in the unsqueezed ratios, each ratio over the share of the squeezed
        spread that falls on it: a ratio that the light's line runs along varies the more
        (the Gaussian's marginal). 0 where no ratio or both were seen."""
        seen = self.parts & ~self.known[:, None]
        if not seen.any():
            return np.zeros((len(self.diameters), len(self.metals)))
        field = self.field @ self.unsqueeze.T
        tints = self.tints @ self.unsqueeze.T
        variance = np.diag(self.unsqueeze @ self.unsqueeze.T)
        residual = np.where(seen, self.partial_colours - field, 0.0)
        gaps = (residual[:, None, :] - tints[None, :, :]) ** 2 / variance
        return np.asarray((gaps * seen[:, None, :]).sum(axis=2))

    def _edges_seen(self) -> tuple[BoolArray, FloatArray]:
        """Which coins' edge colours count (N,) and the edge colours, 0 where unseen (N, 2):
        made once for the frame's edges, which no round changes."""
        return self._edge_seen, self._edge_values

    def posterior(self, colour_weight: float = 1.0) -> FloatArray:
        """(N, K) probabilities of each kind for each coin (colour counting ``colour_weight``
        of its own)."""
        if colour_weight:
            scores = self.size_scores() + colour_weight * self.metal_scores()[:, self.metal_of]
        else:
            # Colour counting nothing adds zeros to the finite size scores (a zero's sign
            # changes no probability): the colours' scores are not worth their work.
            scores = self.size_scores().copy()
        scores -= scores.max(axis=1, keepdims=True)
        probabilities = np.exp(scores)
        return probabilities / probabilities.sum(axis=1, keepdims=True)

    # -- refits ---------------------------------------------------------------------------------

    def refit_field(self, metal_weights: FloatArray) -> None:
        """The silver field at every coin from its neighbours' colours less their tints."""
        if self.one_metal:
            self.field = np.tile(self._one_metal_field(), (len(self.diameters), 1))
            return
        silver_like = self.colours - metal_weights @ self.tints
        silver_like = np.where(self.known[:, None], silver_like, 0.0)
        anchor = self.config.field_anchor
        total = self.near.sum(axis=1) + anchor
        self.field = (self.near @ silver_like + anchor * np.asarray(self.config.silver_colour)
                      ) / total[:, None]

    def _one_metal_field(self) -> FloatArray:
        """The field of a frame whose coins are all one metal: their median colour less the
        tint of the metal whose whole tint lies nearest its shift from the silver prior."""
        silver = np.asarray(self.config.silver_colour, np.float64)
        if not self.known.any():
            return silver
        shift = np.median(self.colours[self.known], axis=0) - silver
        metal = int(np.argmin(((shift[None, :] - self.tint_prior) ** 2).sum(axis=1)))
        return np.asarray(silver + shift - self.tint_prior[metal], np.float64)

    def refit_tints(self, metal_weights: FloatArray) -> None:
        """Each metal's tint against the field, drawn towards its prior."""
        if self.one_metal:
            return
        residual = np.where(self.known[:, None], self.colours - self.field, 0.0)
        # The prior weighs as many coins as its spread is narrower than the colours'.
        strength = (self.colour_spread / np.asarray(self.config.tint_spread)) ** 2  # (2,)
        for metal in range(1, len(self.metals)):
            weight = metal_weights[:, metal] * self.known
            total = weight.sum() + strength
            tint = (weight @ residual + strength * self.tint_prior[metal]) / total
            # Every metal but silver mirrors red more than green, tarnished or not.
            original = self.unsqueeze @ tint
            original[0] = max(original[0], self.config.least_redder)
            tint = self.squeeze @ original
            self.tints[metal] = tint
        self._refit_spreads(residual, metal_weights)

    def _refit_spreads(self, residual: FloatArray, metal_weights: FloatArray) -> None:
        """How far colours stray from their metal's: along each tint (how strongly the frame's
        coins of that metal are tinted) and across it, which is the light's and the
        camera's noise alone."""
        gaps = np.zeros(len(residual))
        for metal in range(len(self.metals)):
            tint = self.tints[metal]
            strength = float(np.hypot(*tint))
            if strength < 1e-6:
                gap = np.hypot(*residual.T) / np.sqrt(2)
            else:
                unit = tint / strength
                gap = np.abs(residual[:, 0] * unit[1] - residual[:, 1] * unit[0])
                weight = metal_weights[:, metal] * self.known
                along = residual @ unit - strength
                own = weighted_spread(along, weight)
                pull = self.config.along_prior_coins
                blended = np.sqrt((weight.sum() * own**2 + pull * self.config.along_spread**2)
                                  / (weight.sum() + pull))
                self.along_spread[metal] = min(blended, self.config.most_along_spread)
            gaps += metal_weights[:, metal] * gap
        spread = weighted_spread(gaps, self.known.astype(float))
        self.colour_spread = float(np.clip(spread, self.config.colour_spread,
                                           self.config.most_colour_spread))
        self.along_spread = np.maximum(self.along_spread, self.colour_spread)

    def refit_sizes(self, probabilities: FloatArray) -> None:
        """The common offset, each kind's and the glints', from the outlines single coins
        explain; the top circles' offset from the top circles."""
        _, single = self._size_parts()
        plain = self.weights * (1.0 - self.clip) * (1.0 - self.faint)
        weight = probabilities * single * plain[:, None]
        residual = (self.diameters[:, None] - self.sizes[None, :] - self.swell
                    - self.kind_offsets[None, :])
        strength = (self.size_spread / self.config.offset_spread_mm) ** 2
        self.offset = float(((weight * residual).sum() + strength * self.config.offset_mm)
                            / (weight.sum() + strength))
        residual = self.diameters[:, None] - self.sizes[None, :] - self.swell - self.offset
        pull = self.config.kind_offset_weight
        self.kind_offsets = ((weight * residual).sum(axis=0) + pull * self.kind_prior) / (
            weight.sum(axis=0) + pull)
        limit = self.config.kind_offset_spread_mm
        self.kind_offsets = np.clip(self.kind_offsets, self.kind_prior - limit,
                                    self.kind_prior + limit)
        self._refit_glints(probabilities * single)
        self._refit_inner(probabilities * single)

    def _refit_glints(self, weight: FloatArray) -> None:
        """The glints' and the faint coins' offsets and spreads, and the outlines' spread,
        from coins weighed by ``weight`` (N, K: a kind and a single coin)."""
        expected = ((weight * (self.sizes + self.kind_offsets + self.swell)).sum(axis=1)
                    / np.maximum(weight.sum(axis=1), 1e-9) + self.offset)
        gap = self.diameters - expected
        sure = self.weights * weight.sum(axis=1)
        self.glint_offset, self.glint_noise = self._group_fit(
            gap, sure, self.clip, self.config.glint_spread_mm, self.config.glint_noise_mm)
        self.faint_offset, self.faint_noise = self._group_fit(
            gap, sure, self.faint, self.config.faint_offset_spread_mm,
            self.config.faint_noise_mm)
        plain = sure * (1.0 - self.clip) * (1.0 - self.faint)
        rest = gap - self.clip * self.glint_offset - self.faint * self.faint_offset
        spread = weighted_spread(rest, plain + 1e-9)
        self.size_spread = max(self.config.size_spread_mm, spread)

    def _group_fit(self, gap: FloatArray, sure: FloatArray, share: FloatArray,
                   offset_spread: float, least_noise: float) -> tuple[float, float]:
        """The offset common to a group of coins (each belonging ``share`` of itself:
        glinting, faint) and how far its coins stray about it beyond the frame's spread,
        the latter drawn towards ``least_noise`` as much as ``noise_prior_coins`` coins."""
        member = sure * share
        strength = (self.size_spread / offset_spread) ** 2
        offset = float((member @ gap) / (member @ share + strength))
        own = weighted_spread(gap - share * offset, member * share + 1e-9)
        count = float(member.sum())
        pull = self.config.noise_prior_coins
        extra = max(own**2 - self.size_spread**2, 0.0)
        noise = np.sqrt((count * extra + pull * least_noise**2) / (count + pull))
        return offset, float(max(noise, least_noise))

    def _refit_inner(self, probabilities: FloatArray) -> None:
        """The top circles' offset from their kinds' sizes, and their spread."""
        if not self.has_inner.any():
            return
        seen = self.has_inner
        inner = np.where(seen, self.inner - self.clip * self.glint_offset, 0.0)
        residual = inner[:, None] - self.sizes[None, :] - self.swell
        weight = probabilities * (self.weights * seen)[:, None]
        strength = (self.inner_spread / self.config.inner_offset_spread_mm) ** 2
        self.inner_offset = float(((weight * residual).sum() + strength
                                   * self.config.inner_offset_mm) / (weight.sum() + strength))
        gap = inner - (probabilities * (self.sizes + self.swell)).sum(axis=1) - self.inner_offset
        spread = weighted_spread(gap, self.weights * seen + 1e-9)
        self.inner_spread = max(self.config.inner_spread_mm, spread)

    def first_guess(self, metal_weights: FloatArray) -> None:
        """The field from first metals (N, M), then the size offset that puts most coins on
        a size their metal (by colour, with that field) allows."""
        self.refit_field(metal_weights)
        by_colour = self.metal_posterior_from_colour()
        allowed = by_colour[:, self.metal_of] > 0.2
        allowed |= ~allowed.any(axis=1, keepdims=True)
        spread = self.config.offset_spread_mm
        shifts = self.config.offset_mm + np.arange(-2.5, 2.5001, 0.05 / spread) * spread
        # Kind by kind: each gap's own subtractions, in the same order as over (shifts, N, K)
        # at once, and the least over kinds, for a fraction of the work.
        shifted = self.diameters[None, :] - shifts[:, None]
        gaps = np.full(shifted.shape, np.inf)
        for kind, (size, kind_offset) in enumerate(zip(self.sizes, self.kind_offsets,
                                                       strict=True)):
            gap = np.abs(shifted - size - kind_offset - self.swell[None, :, kind])
            np.minimum(gaps, np.where(allowed[None, :, kind], gap, np.inf), out=gaps)
        cost = (np.minimum(gaps, 1.0) * self.weights[None, :]).sum(axis=1)
        cost += 0.5 * ((shifts - self.config.offset_mm) / spread) ** 2
        self.offset = float(shifts[int(np.argmin(cost))])

    def first_metals(self) -> FloatArray:
        """Starting metals (N, M): the colours split along copper's direction from silver, or
        every metal alike where there is no copper to split off."""
        alike = np.full((len(self.diameters), len(self.metals)), 1.0 / len(self.metals))
        if "copper" not in self.metals or self.known.sum() < 2:
            return alike
        direction = self.squeeze @ COPPER_DIRECTION
        return self.split_metals(direction / np.hypot(*direction))

    def split_metals(self, direction: FloatArray) -> FloatArray:
        """(N, M) hard first metals: the colours projected on ``direction`` (from silver
        towards copper) and split where the two groups lie farthest apart for their spread
        (all silver, or all copper, when no split stands out by half copper's tint)."""
        weights = np.zeros((len(self.diameters), len(self.metals)))
        weights[:, 0] = 1.0
        copper = self.metals.index("copper")
        tint = float(np.hypot(*self.tint_prior[copper]))
        projected = (self.colours[self.known] - np.asarray(self.config.silver_colour)
                     ) @ direction
        split = best_split(np.sort(projected), tint / 2, self.config.colour_spread)
        self.one_metal = split is None
        if split is None:
            is_copper = np.full(len(projected), np.median(projected) > tint / 2)
        else:
            is_copper = projected > split
        rows = np.flatnonzero(self.known)[is_copper]
        weights[rows, 0] = 0.0
        weights[rows, copper] = 1.0
        return weights

    def log_likelihood(self) -> float:
        """How well the fitted frame explains its coins: each coin's likelihood summed over
        kinds, with the spreads' normalisation, plus the priors on the offset and tints."""
        stretch = np.log(self.along_spread / self.colour_spread)
        stretch[0] = 0.0
        scores = (self.size_scores()
                  + (self.metal_scores() - self.parts.sum(axis=1)[:, None]
                     * np.log(self.colour_spread) - self.known[:, None] * stretch[None, :]
                     - 2 * ~np.isnan(self.edges[:, :1])
                     * np.log(self.config.edge_spread))[:, self.metal_of])
        top = scores.max(axis=1)
        total = float((top + np.log(np.exp(scores - top[:, None]).sum(axis=1))).sum())
        total -= 0.5 * ((self.offset - self.config.offset_mm) / self.config.offset_spread_mm) ** 2
        total -= 0.5 * (self.glint_offset / self.config.glint_spread_mm) ** 2
        total -= 0.5 * (self.faint_offset / self.config.faint_offset_spread_mm) ** 2
        total -= 0.5 * ((self.inner_offset - self.config.inner_offset_mm)
                        / self.config.inner_offset_spread_mm) ** 2
        tint_gap = (((self.tints - self.tint_prior) / np.asarray(self.config.tint_spread)) ** 2
                    ).sum()
        return total - 0.5 * float(tint_gap)

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

    def tint_weights(self, metal_weights: FloatArray) -> FloatArray:
        """(N, M) the metals each coin counts for when the tints are refitted: on a ring, a
        clearly silver colour sets no copper tint (:mod:`vision.ring_metals`)."""
        if not self.ring or self.one_metal:
            return metal_weights
        return ring_tint_weights(self.config, self.metals, metal_weights, self.known,
                                 self.colours - self.field, self.tints, self.unsqueeze,
                                 self.colour_spread)


def _run(frame: _Frame, start: FloatArray | None, bloom: float = 0.0,
         shadow: float = 0.0) -> FloatArray:
    """Expectation-maximisation from first metals ``start``, or, where None, from sizes alone
    (colour joins after the first half of the rounds), the glints' offset starting at
    ``bloom`` and the faint coins' at ``shadow``: the kinds' probabilities."""
    sizes_first = start is None
    if start is None:
        # From sizes alone: every metal alike (the split of the colours, made once for the
        # frame, only set ``one_metal``, which the frame already holds).
        alike = np.full((len(frame.diameters), len(frame.metals)), 1.0 / len(frame.metals))
        frame.first_guess(alike)
    else:
        frame.first_guess(start)
    frame.glint_offset = bloom
    frame.faint_offset = shadow
    rounds = frame.config.rounds
    probabilities = frame.posterior(0.0 if sizes_first else 1.0)
    for round_index in range(rounds):
        metal_weights = frame.metal_weights(probabilities)
        frame.refit_field(metal_weights)
        frame.refit_tints(frame.tint_weights(metal_weights))
        frame.refit_sizes(probabilities)
        colour = 0.0 if sizes_first and round_index < rounds // 2 else 1.0
        probabilities = frame.posterior(colour)
    return probabilities


def fit_frame(
    config: FrameModelConfig, priors: tuple[KindPrior, ...], positions_mm: FloatArray,
    diameters_mm: FloatArray, weights: FloatArray, colours: FloatArray,
    clipped: FloatArray | None = None, edge_colours: FloatArray | None = None,
    inner_mm: FloatArray | None = None, contrast: FloatArray | None = None,
    pixel_mm: FloatArray | None = None, ring: bool = False,
) -> FrameFit:
    """Fit the frame model to N coins (positions (N, 2) mm, diameters (N,) mm, fit weights
    (N,) 0-1, colours (N, 2) with NaN where unknown, the share of each face the camera
    clipped (N,; none by default), how far each edge stands out of the paper (N,; 0-1
    of paper, none faint by default) and how many millimetres of mat a camera pixel spans
    at each (N,; NaN where unknown, as by default)) over the kinds ``priors``; ``ring``: the
    frame is a ring's, whose copper coins are one seat's (:mod:`vision.ring_metals`)."""
    kinds = tuple(prior.kind for prior in priors)
    if len(diameters_mm) == 0:
        return FrameFit(kinds, np.zeros((0, len(kinds))), config.offset_mm)
    if any(prior.metal == "brass" for prior in priors):
        # Brass differs from copper mostly in how yellow it is, which the line of light colours
        # also runs through: where golden dollars may lie, colours keep their full weight.
        config = replace(config, light_axis_share=1.0)
    squeeze = light_squeeze(config.light_axis_share)
    squeezed = squeezed_config(config, squeeze)
    arguments = (squeezed, priors, np.asarray(positions_mm, np.float64),
                 np.asarray(diameters_mm, np.float64), np.asarray(weights, np.float64),
                 np.asarray(colours, np.float64),
                 np.zeros(len(diameters_mm)) if clipped is None else np.asarray(clipped),
                 np.full((len(diameters_mm), 2), np.nan) if edge_colours is None
                 else np.asarray(edge_colours, np.float64) @ squeeze.T,
                 np.full(len(diameters_mm), np.nan) if inner_mm is None
                 else np.asarray(inner_mm, np.float64),
                 np.ones(len(diameters_mm)) if contrast is None
                 else np.asarray(contrast, np.float64),
                 np.full(len(diameters_mm), np.nan) if pixel_mm is None
                 else np.asarray(pixel_mm, np.float64), ring)
    best: tuple[float, _Frame, FloatArray] | None = None
    first = _Frame(*arguments)
    # Every later run starts from the frame as built, before the first metals were split.
    built = first.fresh_copy()
    starts: list[FloatArray | None] = [first.first_metals(), None]
    # A clipped face blooms past its edge by as much as a size step: its coins fit the next
    # size up as well as their own, so the fit also starts from a bloom, kept where it
    # explains the frame better by more than BLOOM_MARGIN (else the two are a tie).
    blooms = [0.0, config.glint_bloom_mm] if (first.clip >= 0.5).any() else [0.0]
    # Where most coins are faint, their shadows may swell them all by a size step: the fit
    # also starts from that, kept on the same terms as a bloom.
    shadows = ([0.0, config.faint_shadow_mm]
               if (first.faint >= 0.5).mean() >= config.faint_share else [0.0])
    runs = [(bloom, shadow, start) for bloom in blooms for shadow in shadows
            for start in starts]
    for number, (bloom, shadow, start) in enumerate(runs):
        # The first run starts from the frame the first metals were split on: the split
        # set only ``one_metal``, which every later run's fresh frame is given.
        frame = first if number == 0 else built.fresh_copy()
        frame.one_metal = first.one_metal
        probabilities = _run(frame, start, bloom, shadow)
        score = (frame.log_likelihood() - (BLOOM_MARGIN if bloom else 0.0)
                 - (BLOOM_MARGIN if shadow else 0.0))
        if best is None or score > best[0]:
            best = (score, frame, probabilities)
    assert best is not None
    _, frame, probabilities = best
    tints = {metal: (float(tint[0]), float(tint[1]))
             for metal, tint in zip(frame.metals, frame.tints @ frame.unsqueeze.T, strict=True)}
    offsets = {prior.kind: float(value)
               for prior, value in zip(priors, frame.kind_offsets, strict=True)}
    single = frame.single_share(probabilities)
    return FrameFit(kinds, probabilities, frame.offset, offsets, tints,
                    frame.field @ frame.unsqueeze.T, single, tuple(frame.metals),
                    frame.metal_posterior_from_colour(), frame.outline_sizes())


__all__ = ["FrameFit", "FrameModelConfig", "KindPrior", "faintness", "fit_frame"]
