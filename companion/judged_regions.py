"""Which regions of the mat the table reads: of the discard spots, only the one the referee
judges in the position it holds.

The referee takes the card from the mover's discard spot
(:meth:`~companion.games.base.Game.card_region`) and never looks at the others, which show
older cards; in a 4-seat demo the four spots took 36% of a full read (py-spy). So the table
hands the reader a mat without the other spots, printed as the whole mat is
(``MatGeometry.printed_regions``): the reader divides the light out against the mat's
rendering, and a green discard square missing from it misled the reading of ring spaces 40 mm
away. The supply cups are read and judged (a bumped coin's, an entry's: see
:mod:`companion.games.jokers_and_coins.at_table`); their coins are also part of the evidence
the frame model sizes every coin by, and without them nickels on the ring were read as
quarters with confidence (``bench/bench_ring_read.py`` reads both ways in one run).
"""

from __future__ import annotations

from dataclasses import replace
from functools import lru_cache

from calibration.geometry import MatGeometry
from companion.games.base import Game, Position

#: The region kind of the spots where cards are laid.
DISCARD_KIND = "discard"


def judged_geometry(geometry: MatGeometry, game: Game, position: Position | None
                    ) -> MatGeometry:
    """``geometry`` without the discard spots the referee does not judge in ``position`` (None:
    the layout before the game, where no card is read); ``geometry`` itself when it reads
    them all."""
    card = game.card_region(position) if position is not None else None
    return _only_judged(geometry, card)


@lru_cache(maxsize=16)
def _only_judged(geometry: MatGeometry, card_region: str | None) -> MatGeometry:
    """The same object for the same arguments: the reader's caches are keyed by the mat."""
    regions = tuple(region for region in geometry.regions
                    if region.kind != DISCARD_KIND or region.name == card_region)
    if len(regions) == len(geometry.regions):
        return geometry
    return replace(geometry, regions=regions, printed_regions=geometry.printed)
