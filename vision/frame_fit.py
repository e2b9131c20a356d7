"""What fitting a frame's model gives (:func:`vision.frame_model.fit_frame`): every coin's kind
probabilities and the frame's fitted sizes and colours, a value the later stages read."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import numpy as np

from vision.arrays import FloatArray

if TYPE_CHECKING:
    from numpy.typing import NDArray


@dataclass(frozen=True, eq=False)
class FrameFit:
    """The frame's fitted model and every coin's kind probabilities.

    ``probabilities`` is (N, K) over ``kinds``; ``offset_mm`` the common size offset;
    ``kind_offsets_mm`` per kind; ``tints`` per metal (silver (0, 0)); ``silver_field`` the
    silver colour the field expects at each coin (N, 2); ``single`` how likely each outline
    is a single coin's rather than a stack's (N,: a stack's top coin is named from its top
    circle alone, or from what the stack's outline allows); ``by_colour`` each coin's metal
    probabilities from its colour alone (N, M over ``metals``; alike where none was seen);
    ``outline_mm`` the diameter each coin's outline would measure as a single coin of each
    kind (N, K: the frame's offsets, each kind's, and the coin's own for a glint, a faint edge
    or a coarse view).
    """

    kinds: tuple[str, ...]
    probabilities: FloatArray
    offset_mm: float
    kind_offsets_mm: dict[str, float] = field(default_factory=dict)
    tints: dict[str, tuple[float, float]] = field(default_factory=dict)
    silver_field: FloatArray = field(default_factory=lambda: np.zeros((0, 2)))
    single: FloatArray = field(default_factory=lambda: np.zeros(0))
    metals: tuple[str, ...] = ()
    by_colour: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))
    outline_mm: FloatArray = field(default_factory=lambda: np.zeros((0, 0)))

    def subset(self, keep: NDArray[np.bool_]) -> FrameFit:
        """The same fit with only the coins ``keep`` marks."""
        return replace(self, probabilities=self.probabilities[keep],
                       silver_field=self.silver_field[keep], single=self.single[keep],
                       by_colour=self.by_colour[keep],
                       outline_mm=self.outline_mm[keep] if len(self.outline_mm) else
                       self.outline_mm)

    def best(self) -> tuple[list[str], FloatArray]:
        """Each coin's likeliest kind and its probability."""
        if len(self.probabilities) == 0:
            return [], np.zeros(0)
        index = np.argmax(self.probabilities, axis=1)
        chosen = self.probabilities[np.arange(len(index)), index]
        return [self.kinds[i] for i in index], chosen
