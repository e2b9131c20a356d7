"""Which silver coin lies on top of a silver outline, from how its face varies with the radius.

A dime on a nickel or a quarter, or a nickel on a quarter, leaves the outline and the colour of
the coin under it; its own edge falls about where the lower coin's rim and lettering are. What
does tell them apart is how the brightness changes ring by ring out from the outline's centre:
the top coin's edge, the shadow it casts on the coin under it, its side under a tilted camera,
and the offset every stacked coin has, which makes each ring brighter on one side than the
other. :func:`ring_features` measures that per ring (mean, spread, darkest and brightest
tenth, slope, one- and two-sided parts) relative to the coin's own brightness; a small neural
network over those rings (:class:`SilverTopModel`: one hidden layer, fitted on synthetic frames
by ``scripts/train_silver_tops.py`` and shipped as ``silver_tops.json``) names the top coin.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

from companion.observation import COIN_KINDS
from vision.coin_fit import ray_maps
from vision.profile import VisionProfile

if TYPE_CHECKING:
    from numpy.typing import NDArray

    Image = NDArray[Any]
    FloatArray = NDArray[Any]
else:
    Image = np.ndarray
    FloatArray = np.ndarray

MODEL_PATH = Path(__file__).with_name("silver_tops.json")

#: Rings sampled from the outline's centre (mm), and directions around each ring.
RING_STEP_MM = 0.25
RING_COUNT = 54
DIRECTIONS = 48
#: Rings whose median brightness stands for the coin's own (2.5 to 9 mm: inside every coin).
LEVEL_RINGS = slice(10, 36)
#: The darkest tenth of a ring: this many of its ``DIRECTIONS`` samples lie below it.
DARKEST_RANK = DIRECTIONS // 10


@dataclass(frozen=True, eq=False)
class DenseLayer:
    """One layer of the model: ``inputs @ weights.T + bias``."""

    weights: FloatArray  # (outputs, inputs)
    bias: FloatArray  # (outputs,)


@dataclass(frozen=True, eq=False)
class SilverTopModel:
    """A small neural network: standardised ring features through dense layers (ReLU between
    them) to a probability per kind. A single layer is a multinomial logistic model."""

    kinds: tuple[str, ...]
    mean: FloatArray
    scale: FloatArray
    layers: tuple[DenseLayer, ...]

    def __post_init__(self) -> None:
        widths = [FEATURE_COUNT, *(len(layer.bias) for layer in self.layers)]
        shapes = [layer.weights.shape for layer in self.layers]
        expected = list(zip(widths[1:], widths[:-1], strict=True))
        if (not self.layers or shapes != expected or widths[-1] != len(self.kinds)
                or self.mean.shape != (FEATURE_COUNT,) or self.scale.shape != (FEATURE_COUNT,)):
            raise ValueError(f"silver top model has layers {shapes} for {len(self.kinds)} kinds, "
                             f"not a chain from {FEATURE_COUNT} features to the kinds")

    def probabilities(self, features: FloatArray) -> FloatArray:
        """(N, features) -> (N, kinds) probabilities, rows summing to one."""
        values = (features - self.mean) / self.scale
        for layer in self.layers[:-1]:
            values = np.maximum(values @ layer.weights.T + layer.bias, 0.0)
        last = self.layers[-1]
        scores = values @ last.weights.T + last.bias
        scores -= scores.max(axis=1, keepdims=True)
        odds = np.exp(scores)
        return np.asarray(odds / odds.sum(axis=1, keepdims=True))

    def to_json(self) -> str:
        """The model as JSON text (what :meth:`from_json` reads)."""
        def rounded(values: FloatArray) -> Any:
            return np.vectorize(lambda v: float(f"{v:.6g}"), otypes=[float])(values).tolist()

        return json.dumps({
            "kinds": list(self.kinds),
            "ring_step_mm": RING_STEP_MM,
            "rings": RING_COUNT,
            "directions": DIRECTIONS,
            "mean": rounded(self.mean),
            "scale": rounded(self.scale),
            "layers": [{"weights": rounded(layer.weights), "bias": rounded(layer.bias)}
                       for layer in self.layers],
        })

    @classmethod
    def from_json(cls, text: str) -> SilverTopModel:
        """Read a model written by :meth:`to_json`; ValueError when it does not fit this code."""
        data = json.loads(text)
        if (data.get("rings"), data.get("directions"), data.get("ring_step_mm")) != (
            RING_COUNT, DIRECTIONS, RING_STEP_MM
        ):
            raise ValueError("silver top model was made for other rings than this code samples")
        try:
            layers = tuple(
                DenseLayer(np.array(layer["weights"], np.float64),
                           np.array(layer["bias"], np.float64))
                for layer in data["layers"]
            )
            return cls(tuple(data["kinds"]), np.array(data["mean"], np.float64),
                       np.array(data["scale"], np.float64), layers)
        except (KeyError, TypeError) as error:
            raise ValueError(f"silver top model is missing or garbles {error}") from error


#: Per ring: mean, spread, darkest and brightest tenth, one-sided and two-sided part; per step
#: between rings: mean slope; then the outline's and the measured diameter in mm; then per ring
#: the share a pawn hides.
OPEN_FEATURE_COUNT = 6 * RING_COUNT + (RING_COUNT - 1) + 2
FEATURE_COUNT = OPEN_FEATURE_COUNT + RING_COUNT


@lru_cache(maxsize=1)
def default_model() -> SilverTopModel:
    """The shipped model (fitted on synthetic frames; see the module's docstring)."""
    return SilverTopModel.from_json(MODEL_PATH.read_text(encoding="utf-8"))


#: The directions sampled around every ring, in radians (as :func:`vision.coin_fit.ray_maps`).
_ANGLES = np.linspace(0, 2 * math.pi, DIRECTIONS, endpoint=False)
#: (DIRECTIONS, 4): cosine and sine of each direction's angle, and of twice it.
_HARMONICS = np.stack([np.cos(_ANGLES), np.sin(_ANGLES), np.cos(2 * _ANGLES),
                       np.sin(2 * _ANGLES)], axis=1).astype(np.float32)


def ring_features(
    grey: Image, centres: FloatArray, outline_mm: FloatArray, diameters_mm: FloatArray,
    pixels_per_mm: float, cover: Image | None = None,
) -> FloatArray:
    """(N, :data:`FEATURE_COUNT`) ring features of the coins centred at ``centres`` (px).

    Where ``cover`` (non-zero on pawns) hides part of a ring, that ring's features come from
    the rest of it, and its hidden share is a feature of its own (zero for an open coin).
    """
    radii = np.arange(RING_COUNT) * RING_STEP_MM * pixels_per_mm
    _, map_x, map_y = ray_maps(centres, DIRECTIONS, radii)
    rings = _as_rings(cv2.remap(grey, map_x, map_y, cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_REPLICATE), len(centres))
    features = np.zeros((len(centres), FEATURE_COUNT))
    features[:, :OPEN_FEATURE_COUNT - 2] = _open_rings(rings)
    if cover is not None:
        hidden = _as_rings(cv2.remap(cover, map_x, map_y, cv2.INTER_NEAREST,
                                     borderMode=cv2.BORDER_REPLICATE), len(centres)) > 0
        partly = np.flatnonzero(hidden.any(axis=(1, 2)))
        if len(partly):
            features[partly, :OPEN_FEATURE_COUNT - 2] = _hidden_rings(
                rings[partly], hidden[partly]
            )
            features[partly, OPEN_FEATURE_COUNT:] = hidden[partly].mean(axis=2)
    features[:, OPEN_FEATURE_COUNT - 2] = outline_mm
    features[:, OPEN_FEATURE_COUNT - 1] = diameters_mm
    return features


def _as_rings(rays: Image, count: int) -> FloatArray:
    """Remapped rays (coin * direction, radius) as (coin, ring, direction), contiguous per ring."""
    return np.ascontiguousarray(
        rays.reshape(count, DIRECTIONS, RING_COUNT).transpose(0, 2, 1), dtype=np.float32
    )


def _open_rings(rings: FloatArray) -> FloatArray:
    """Per-ring features of whole rings (coin, ring, direction), relative to the coin's level."""
    mean = rings.mean(axis=2)
    level = np.maximum(_nan_median(mean[:, LEVEL_RINGS]), 1.0)[:, None]
    ordered = np.sort(rings, axis=2)  # ten times faster here than np.partition at two ranks
    harmonics = rings @ _HARMONICS
    return np.hstack([
        mean, rings.std(axis=2), ordered[..., DARKEST_RANK],
        ordered[..., DIRECTIONS - 1 - DARKEST_RANK],
        np.hypot(harmonics[..., 0], harmonics[..., 1]) / DIRECTIONS,
        np.hypot(harmonics[..., 2], harmonics[..., 3]) / DIRECTIONS, np.diff(mean, axis=1),
    ]) / level


def _hidden_rings(rings: FloatArray, hidden: NDArray[np.bool_]) -> FloatArray:
    """The features of :func:`_open_rings` from the samples ``hidden`` leaves (a ring hidden
    all round gives zeros)."""
    seen = np.maximum((~hidden).sum(axis=2), 1)
    values = np.where(hidden, np.nan, rings)
    with np.errstate(invalid="ignore", divide="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        mean = np.nanmean(values, axis=2)
        level = _nan_median(mean[:, LEVEL_RINGS])
        level = np.where(np.isfinite(level), level, _nan_median(mean))
        level = np.maximum(np.nan_to_num(level, nan=1.0), 1.0)[:, None]
        darkest, brightest = _seen_quantiles(rings, hidden, (
            DARKEST_RANK / (DIRECTIONS - 1), 1 - DARKEST_RANK / (DIRECTIONS - 1)))
        harmonics = np.where(hidden, 0.0, rings - mean[..., None]) @ _HARMONICS
        features = np.hstack([
            mean, np.nanstd(values, axis=2), darkest, brightest,
            np.hypot(harmonics[..., 0], harmonics[..., 1]) / seen,
            np.hypot(harmonics[..., 2], harmonics[..., 3]) / seen, np.diff(mean, axis=1),
        ]) / level
    return np.nan_to_num(features, nan=0.0)


def _nan_median(values: FloatArray) -> FloatArray:
    """Per row, the median of the values that are not NaN (NaN where none is), as
    :func:`np.nanmedian` (and :func:`np.median` where none is NaN) gives it, from one sort:
    ten times faster for these small rows."""
    ordered = np.sort(values, axis=1)  # NaN sorts last
    count = (~np.isnan(values)).sum(axis=1)
    low = np.take_along_axis(ordered, np.maximum(count - 1, 0)[:, None] // 2, axis=1)[:, 0]
    high = np.take_along_axis(ordered, (count // 2)[:, None], axis=1)[:, 0]
    return np.where(count > 0, (low + high) / 2, np.nan)


def _seen_quantiles(
    rings: FloatArray, hidden: NDArray[np.bool_], fractions: tuple[float, ...]
) -> list[FloatArray]:
    """Per ring, each of the ``fractions`` quantiles of the samples not hidden (as
    :func:`np.nanquantile` interpolates; NaN for a ring hidden all round), from one sort and
    without its per-ring loop."""
    ordered = np.sort(np.where(hidden, np.inf, rings), axis=2)
    last = np.maximum((~hidden).sum(axis=2) - 1, 0)
    quantiles = []
    for fraction in fractions:
        position = fraction * last
        below = np.floor(position).astype(np.intp)
        above = np.minimum(below + 1, last)
        low = np.take_along_axis(ordered, below[..., None], axis=2)[..., 0]
        high = np.take_along_axis(ordered, above[..., None], axis=2)[..., 0]
        quantiles.append(np.where(hidden.all(axis=2), np.nan,
                                  low + (high - low) * (position - below)))
    return quantiles


def silver_candidates(
    known: Collection[str], grey: Image, cover: Image, centres: FloatArray,
    outline_px: FloatArray, diameters: FloatArray, kinds: list[str], pixels_per_mm: float,
    profile: VisionProfile,
) -> tuple[NDArray[np.intp], FloatArray]:
    """The coins the model reads (measured and read as a kind in ``known``, pawns beside or on
    them or not) and their ring features: what both reading and fitting the model use."""
    candidates = np.array([
        index for index, kind in enumerate(kinds)
        if kind in known and np.isfinite(diameters[index])
    ], dtype=np.intp)
    if len(candidates) == 0:
        return candidates, np.zeros((0, FEATURE_COUNT))
    outline_mm = outline_px[candidates] * 2 / pixels_per_mm / profile.diameter_scale
    features = ring_features(grey, centres[candidates], outline_mm, diameters[candidates],
                             pixels_per_mm, cover)
    return candidates, features


def silver_tops(
    model: SilverTopModel, grey: Image, cover: Image, centres: FloatArray,
    outline_px: FloatArray, diameters: FloatArray, kinds: list[str], pixels_per_mm: float,
    profile: VisionProfile, pawn_doubt: float = 1.0,
) -> tuple[list[str], FloatArray, NDArray[np.bool_]]:
    """The top coin of every silver outline, a pawn on or beside it or not: kinds, their
    probabilities, and which coins the model read (the others keep ``kinds`` and a probability
    of one).

    The model chooses among the silver kinds it knows that are no larger than the kind the
    outline's size and colour read as (``kinds``); other coins are left alone. A smaller kind
    named where a pawn hides part of the rings is at most ``pawn_doubt`` sure: the model is
    wrong there more often than on open coins, and as sure when wrong as when right.
    """
    result = list(kinds)
    probability = np.ones(len(kinds))
    read = np.zeros(len(kinds), dtype=bool)
    silver = {look.kind for look in profile.coins if COIN_KINDS[look.kind][2] == "silver"}
    known = [kind for kind in model.kinds if kind in silver]
    sizes = {look.kind: look.diameter_mm for look in profile.coins}
    # The outline's own kind is always among these: the top is never larger than it.
    allowed = {outline: [k for k, kind in enumerate(model.kinds)
                         if kind in known and sizes[kind] <= sizes[outline]] for outline in known}
    # An outline of the smallest silver kind can carry no smaller one: the model is not asked.
    smallest = [kind for kind in known if len(allowed[kind]) == 1]
    read[[index for index, kind in enumerate(kinds)
          if kind in smallest and np.isfinite(diameters[index])]] = True
    candidates, features = silver_candidates(
        [kind for kind in known if kind not in smallest], grey, cover, centres, outline_px,
        diameters, kinds, pixels_per_mm, profile,
    )
    if len(candidates) == 0:
        return result, probability, read
    chances = model.probabilities(features)
    for row, index in enumerate(candidates):
        choices = allowed[kinds[index]]
        best = max(choices, key=lambda k: chances[row, k])
        result[index] = model.kinds[best]
        probability[index] = chances[row, best] / max(chances[row, choices].sum(), 1e-9)
        if model.kinds[best] != kinds[index] and features[row, OPEN_FEATURE_COUNT:].any():
            probability[index] = min(probability[index], pawn_doubt)
        read[index] = True
    return result, probability, read
