"""What a Coin Grid position puts on the table, and reading a starting layout from the camera.

The regions are the 72 squares ``a1``..``f12`` of the 6×12 mat. Each player's coins are one
kind and dead coins another (South pennies, North nickels, dimes; a ``coins-SND`` variant sets
other kinds, and the game's record keeps them with its variants), so
the top coin of a square tells whose original coin stands there; a dead coin's owner is kept by
the engine, not seen. A double stack is its owner's coin on top of a reserve coin, which the
engine does not track (any won coin may go under, and nobody can see it): the layout draws it as
a coin of the opponent's kind, the usual case, and only its top counts for the camera. During a
battle the attacker's coin lies on the defender's square, on top. Reserves and the dead-coin
supply lie beside the board; the mat has no regions for them yet, so the layout leaves them out.
"""

from __future__ import annotations

from collections.abc import Mapping

from companion.games.base import PositionError
from companion.games.coin_grid.board import (
    PLAYERS,
    SQUARE_INDEX,
    SQUARE_NAMES,
    START_ROWS,
    mask_of,
    other,
)
from companion.games.coin_grid.position import (
    DEFAULT_COIN_KINDS,
    TABLE_COINS,
    CoinGridPosition,
    Piece,
    coin_kinds,
    coins_per_player,
)
from contract.observation import COIN_KINDS as COIN_NAMES
from contract.observation import Observation
from contract.table_state import RegionLook, TableState

#: Every coin kind a Coin Grid table may use.
COIN_KINDS = TABLE_COINS


def piece_coins(piece: Piece, kinds: str = DEFAULT_COIN_KINDS) -> str:
    """The piece's coins bottom to top, as the table shows them; ``kinds`` are South's, North's
    and the dead coins' (:func:`~companion.games.coin_grid.position.coin_kinds`)."""
    if piece.dead:
        return kinds[2]
    top = kinds[piece.owner - 1]
    return kinds[other(piece.owner) - 1] + top if piece.double else top


def coin_name(letter: str) -> str:
    """``penny`` for ``P``: the coin's name for messages."""
    return COIN_NAMES[letter][0] if letter in COIN_NAMES else repr(letter)


def coins_named(letter: str) -> str:
    """``pennies`` for ``P``."""
    name = coin_name(letter)
    return name[:-1] + "ies" if name.endswith("y") else name + "s"


def square_stacks(position: CoinGridPosition) -> dict[str, str]:
    """Each occupied square's coins bottom to top (the attacker of a battle on top)."""
    kinds = coin_kinds(position.variants)
    stacks = {SQUARE_NAMES[square]: piece_coins(piece, kinds)
              for square, piece in position.pieces().items()}
    if position.battle_square is not None and position.attacker is not None:
        stacks[SQUARE_NAMES[position.battle_square]] += piece_coins(position.attacker, kinds)
    return stacks


def layout(position: CoinGridPosition) -> TableState:
    """The squares' coins (see the module docstring); no tokens."""
    return TableState.of_stacks(square_stacks(position))


def hidden_by_metal(stack: str) -> bool:
    """Whether a camera may take ``stack`` (bottom to top) for the coin under its top one: a
    top coin smaller than that coin and of the same metal (a dime on a nickel) shows as a thin
    ring of the same colour inside the lower coin's outline, a millimetre and a half wide, which
    a webcam at 1.5-2 pixels a millimetre cannot tell from the lower coin's own raised rim."""
    if len(stack) < 2:
        return False
    top, under = COIN_NAMES.get(stack[-1]), COIN_NAMES.get(stack[-2])
    return (top is not None and under is not None and top[2] == under[2]
            and top[1] < under[1])


def looks_like(table: TableState, seen: Mapping[str, RegionLook]) -> bool:
    """Whether ``seen`` (region -> look, empty regions left out) is what the camera may report
    of ``table``: every region as it looks, except that a stack :func:`hidden_by_metal` may
    also look like the coin under its top."""
    expected = table.looks()
    if set(expected) != set(seen):
        return False
    stacks = table.stacks()
    for name, look in expected.items():
        if seen[name] == look:
            continue
        stack = stacks.get(name, "")
        if not (hidden_by_metal(stack) and seen[name] == RegionLook(stack[-2])):
            return False
    return True


def position_from_reading(template: CoinGridPosition, observation: Observation
                          ) -> CoinGridPosition:
    """The starting position the camera read: the template's variants and supply, South's
    coins (pennies) on its star and X rows and North's (nickels) on theirs, 12 each, or 6 each
    in the short game. Raises :class:`PositionError` saying what is wrong with the layout."""
    owned: dict[int, list[int]] = {player: [] for player in PLAYERS}
    kinds = coin_kinds(template.variants)
    owner_of = {kinds[0]: 1, kinds[1]: 2}
    for name, reading in sorted(observation.regions.items()):
        if name not in SQUARE_INDEX or reading.coin is None:
            continue
        if reading.coin not in owner_of:
            raise PositionError(
                f"the layout has a {coin_name(reading.coin)} on {name}; this game starts with "
                f"{coins_named(kinds[0])} (South) and {coins_named(kinds[1])} (North) only")
        owned[owner_of[reading.coin]].append(SQUARE_INDEX[name])
    wanted = coins_per_player(template.variants)
    for player in PLAYERS:
        side = ("South", "North")[player - 1]
        stray = [SQUARE_NAMES[s] for s in owned[player] if not START_ROWS[player] >> s & 1]
        if stray:
            raise PositionError(f"{side}'s coins start on their star and X rows; "
                                f"{', '.join(stray)} is outside them")
        if len(owned[player]) != wanted:
            raise PositionError(f"{side} has {len(owned[player])} coins on the board; the game "
                                f"starts with {wanted}")
    return CoinGridPosition(south=mask_of(owned[1]), north=mask_of(owned[2]),
                            supply=template.supply, variants=template.variants)

