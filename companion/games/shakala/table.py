"""What a Shakala position puts on the table, and reading a starting layout from the camera.

Regions are the sixteen pits, named as in the notation (``A``..``H`` South's, ``a``..``h``
North's), and the two cups ``cup-south`` and ``cup-north``; all hold loose coins, so the camera
sees how many coins lie in each and which kinds. Stones are pennies (``P``); gems are, from
the smallest value in force to the largest, dimes (``D``), nickels (``N``), quarters (``Q``)
and small golden dollars (``S``, the contract's letter for the Sacagawea dollar): by default
1, 2, 3 and 4 points. The mat is ``shakala`` (see ``calibration/MATS.md``); working a move
back from the coins seen is :mod:`~companion.games.shakala.inference`.
"""

from __future__ import annotations

from companion.games.base import PositionError
from companion.games.shakala.board import PIT_NAMES
from companion.games.shakala.position import (
    STONE,
    ShakalaPosition,
    gem_values,
    starting_position,
)
from contract.observation import Observation
from contract.table_state import TableState

STONE_COIN = "P"
#: The coins that stand for gems, smallest value first.
GEM_COINS = "DNQS"
COIN_KINDS = STONE_COIN + GEM_COINS
CUP_REGIONS = ("cup-south", "cup-north")
REGIONS = (*PIT_NAMES, *CUP_REGIONS)


def bead_coins(variants: tuple[str, ...]) -> dict[int, str]:
    """The coin letter of each bead (0 a stone, else a gem's value) under ``variants``."""
    coins = {STONE: STONE_COIN}
    coins.update({value: GEM_COINS[rank] for rank, value in enumerate(gem_values(variants))})
    return coins


def layout(position: ShakalaPosition) -> TableState:
    """Every pit's beads and every cup's gems as loose coins; no tokens."""
    coins = bead_coins(position.variants)
    stacks = {PIT_NAMES[pit]: "".join(coins[bead] for bead in beads)
              for pit, beads in enumerate(position.pits)}
    stacks.update({region: "".join(coins[value] for value in position.cup(player))
                   for player, region in enumerate(CUP_REGIONS, start=1)})
    return TableState.of_stacks(stacks, loose=frozenset(REGIONS))


def position_from_reading(template: ShakalaPosition, observation: Observation
                          ) -> ShakalaPosition:
    """The start the camera read: it must be the template's start (a penny and the gem coin
    the variants put there in every pit, empty cups). Raises :class:`PositionError` naming
    the first region that differs."""
    start = starting_position(template.variants)
    expected = layout(start).looks()
    for region in REGIONS:
        reading = observation.regions.get(region)
        seen = (reading.count or 0, tuple(sorted(reading.kinds))) if reading else (0, ())
        look = expected.get(region)
        wanted = (look.count or 0, look.kinds) if look else (0, ())
        if seen != wanted:
            what = f"{wanted[0]} coin(s) of kinds {''.join(wanted[1])}" if wanted[0] else \
                "nothing"
            raise PositionError(f"the layout has {seen[0]} coin(s) of kinds "
                                f"{''.join(seen[1]) or 'none'} in {region}; a Shakala game "
                                f"starts with {what} there")
    return start

