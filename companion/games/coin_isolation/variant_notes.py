"""One line per Coin Isolation variant, for help texts (``GameInfo.variants``), after RULINGS.md.

The lines of the variants that allow turns without a take say that the game then also ends after
:data:`~companion.games.coin_isolation.rules.QUIET_LIMIT_ROUNDS` quiet rounds; that sentence is
added from the engine's own constants, so the help cannot drift from the rule.
"""

from __future__ import annotations

from companion.games.coin_isolation.position import QUIET_VARIANTS, VARIANTS
from companion.games.coin_isolation.rules import QUIET_LIMIT_ROUNDS

_LINES = {
    "diagonal": "paths may also step diagonally (adjacency includes corners)",
    "many-pennies": "start with 27 pennies, 22 nickels, 11 dimes and 4 quarters",
    "many-many-pennies": "start with 30 pennies, 20 nickels, 10 dimes and 4 quarters",
    "mixed-change": "stacks may mix coin types; the mover names the path's type, and one coin "
    "of their choice also moves from the source square to the target (current edition)",
    "mixed-change-2008": "as mixed-change, but half the source square's coins, rounded down, "
    "move to the target (2008 edition)",
    "transplant": "the coins collected from the path go each onto a distinct empty square "
    "instead of the target",
    "transplant-variant-variant": "as transplant, but the pawn moves first: the source can "
    "receive a coin and the target cannot",
    "standing-still": "a player may stay on their square and take one of its coins",
    "greedy": "take every coin on the target, not one",
    "semi-greedy": "take any number of the target's coins, zero included (2008 edition)",
    "cleanup": "every coin on each path square moves to the target, not one",
    "empty-squares": "a path may be made of empty squares only, and the game ends when no "
    "coin is left (current edition)",
    "renegade": "a player may declare themselves renegade for the rest of the game: they may "
    "also use paths of empty squares, and never take or move coins (2008 edition)",
}
QUIET_END = (f"the game also ends after {QUIET_LIMIT_ROUNDS} rounds in a row in which nobody "
             "took a coin")

#: Every variant's line, in the order of :data:`VARIANTS`.
VARIANT_NOTES: dict[str, str] = {
    name: f"{_LINES[name]}; {QUIET_END}" if name in QUIET_VARIANTS else _LINES[name]
    for name in VARIANTS
}
