"""An outline nearly taken for a coin, where something unlike paper stood out, leaves an empty
reading in doubt: a faint silver coin on white paper, its rim lost in the noise on most rays,
is such an outline, and reading its square as a sure empty misleads the referee (issue 15:
coins read as empty at 0.6-1.0 on the stress set). A space's middle measured where no seed
stood out casts only its presence, and a seed of the coin taken casts none."""

from __future__ import annotations

import numpy as np

from vision.candidates import Candidates, accept_level, empty_doubt
from vision.read_config import CoinConfig


def _outlines(strength: list[float], centres_mm: list[tuple[float, float]]) -> Candidates:
    """Nickel-sized outlines, one to a square (the square of its index), unhidden."""
    count = len(strength)
    zeros, ones = np.zeros(count), np.ones(count)
    return Candidates(
        centres_mm=np.array(centres_mm, float), tops_mm=np.array(centres_mm, float),
        diameters_mm=np.full(count, 21.0), inner_mm=np.full(count, np.nan),
        colours=np.zeros((count, 2)), edge_colours=np.full((count, 2), np.nan),
        agreement=ones, hidden=zeros, under_pawn=np.zeros(count, bool), clipped=zeros,
        contrast=np.full(count, 0.08), strength=np.array(strength),
        region=np.arange(count), seed_region=np.arange(count), sized=np.ones(count, bool),
        inner_centres_mm=np.zeros((count, 2)), inner_agreement=ones, seen_arc=ones)


def test_an_outline_nearly_accepted_where_a_seed_stood_out_makes_empty_a_doubt() -> None:
    config = CoinConfig()
    level = accept_level(config)
    # Seeded and just under acceptance; a space's middle (no seed) at the same presence; a
    # seeded outline of a third of that; the coin taken, with a second seed of it inside.
    candidates = _outlines([1.2, 0.0, 1.2, 1.5, 1.2],
                           [(0, 0), (50, 0), (100, 0), (150, 0), (152, 1)])
    presence = np.array([0.95 * level, 0.95 * level, 0.3 * level, 1.0, 0.9 * level])
    candidates = Candidates(**{**vars(candidates),
                               "seed_region": np.array([0, 1, 2, 3, 3])})
    doubt = empty_doubt(config, candidates, presence, np.array([3]), 4)
    assert doubt[0] >= 0.45 and 1.0 - doubt[0] < 0.55
    assert doubt[1] == presence[1]
    assert 0.1 < doubt[2] < 0.2
    assert doubt[3] == 0.0


def test_a_seed_standing_out_three_times_the_bar_makes_empty_a_doubt() -> None:
    config = CoinConfig()
    candidates = _outlines([3.0, 1.5], [(0, 0), (50, 0)])
    doubt = empty_doubt(config, candidates, np.zeros(2), np.zeros(0, np.intp), 2)
    assert doubt[0] >= 0.5
    assert doubt[1] == 0.0
