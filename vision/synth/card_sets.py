"""Discard piles at random on the ``test-cards`` mat, for tuning and for the held-out test.

:func:`discard_scene` lays zero to three earlier cards and then the top card on ``discard-1``
(any turn, the top card anywhere its corners stay on the spot's 110 mm square give or take a
little), under a camera tilted up to 35 degrees, with glare on the frame and, for some cards, a
lamp's reflection on the card. ``faces`` picks the faces: :data:`TUNING_FACES` (the drawn
styles and the tuning theme) or :data:`HELD_OUT_FACES` (themes the reader never saw).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from calibration.geometry import test_card_mat
from vision.synth import SynthScene, random_variation
from vision.synth.card_faces import DRAWN_STYLES, RANKS, SUITS
from vision.synth.card_themes import HELD_OUT_THEMES, TUNING_THEMES
from vision.synth.cards import PlayedCard

TUNING_FACES: tuple[str, ...] = (
    *(f"drawn:{index}" for index in range(len(DRAWN_STYLES))),
    *(f"theme:{name}" for name in TUNING_THEMES),
)
HELD_OUT_FACES: tuple[str, ...] = tuple(f"theme:{name}" for name in HELD_OUT_THEMES)
#: The spot every pile lies on.
SPOT = "discard-1"


def random_card(rng: np.random.Generator, face: str, spot_centre: tuple[float, float],
                rank: str | None = None, spread_mm: float = 8.0) -> PlayedCard:
    """A card of ``face`` (random rank and suit unless ``rank`` is given) near the spot's
    middle, at any turn."""
    return PlayedCard(
        rank=rank or str(rng.choice(RANKS)),
        suit=str(rng.choice(SUITS)),
        centre_mm=(spot_centre[0] + float(rng.uniform(-spread_mm, spread_mm)),
                   spot_centre[1] + float(rng.uniform(-spread_mm, spread_mm))),
        angle_deg=float(rng.uniform(0, 360)),
        face=face,
    )


def discard_scene(seed: int, faces: tuple[str, ...] = TUNING_FACES, rank: str | None = None,
                  under: int | None = None, gloss: float | None = None) -> SynthScene:
    """A discard pile on ``discard-1`` of the test-cards mat: ``under`` earlier cards (0-3 at
    random) and a top card (of ``rank``, random by default), the light's reflection on it
    ``gloss`` (random, often none, by default)."""
    rng = np.random.default_rng([seed, 71])
    geometry = test_card_mat()
    centre = geometry.region(SPOT).centre
    face = str(rng.choice(faces))
    count = int(rng.integers(0, 4)) if under is None else under
    cards = [random_card(rng, str(rng.choice(faces)), centre, spread_mm=12.0)
             for _ in range(count)]
    top = random_card(rng, face, centre, rank)
    if gloss is None:
        gloss = float(rng.uniform(0.0, 0.6)) if rng.uniform() < 0.4 else 0.0
    top = replace(top, gloss=gloss, gloss_at=(float(rng.uniform(-0.4, 0.4)),
                                              float(rng.uniform(-0.4, 0.4))))
    variation = random_variation(seed, max_tilt_deg=35.0, geometry=geometry)
    scene = SynthScene.build({}, {}, geometry, variation, layout_seed=seed)
    return replace(scene, cards=(*cards, top))
