"""Which regions of the mat the table reads: those the referee judges in the position it holds.

The referee judges the coins of every region but those of the game's unjudged kinds
(``GameInfo.unjudged_kinds``: Jokers and Coins' supply cups), and of the discard spots only the
mover's (:meth:`~companion.games.base.Game.card_region`), where the card just played lies: the
other seats' spots show older cards nobody asks about. Reading each region costs the reader its
time (a card on a spot about a sixth of a 4-seat frame's read, a cup of loose coins as much as
the coins on the ring), so the table hands the reader a mat of the judged regions only, printed
as the whole mat is (``MatGeometry.printed_regions``): the reader divides the light out against
the mat's rendering, and a green discard square missing from it misled the reading of ring
spaces 40 mm away (``bench/bench_ring_read.py`` reads both ways in one run).
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
    """``geometry`` with only the regions the referee judges in ``position`` (None: the layout
    before the game, where no card is read); ``geometry`` itself when that is every region."""
    card = game.card_region(position) if position is not None else None
    return _only_judged(geometry, tuple(game.info.unjudged_kinds), card)


@lru_cache(maxsize=16)
def _only_judged(geometry: MatGeometry, unjudged_kinds: tuple[str, ...], card_region: str | None
                 ) -> MatGeometry:
    """The same object for the same arguments: the reader's caches are keyed by the mat."""
    regions = tuple(region for region in geometry.regions
                    if region.kind not in unjudged_kinds
                    and (region.kind != DISCARD_KIND or region.name == card_region))
    if len(regions) == len(geometry.regions):
        return geometry
    return replace(geometry, regions=regions, printed_regions=geometry.printed)
