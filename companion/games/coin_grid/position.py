"""Coin Grid positions: pieces, the frozen position value, its JSON form and starting layouts.

JSON (every field required; the schema is ``contract/schemas/position-coin-grid.schema.json``)::

    {"game": "coin-grid", "variants": ["short"], "players": 2,
     "sides": {"1": "south", "2": "north"},
     "to_move": 1,
     "phase": "rolled",            start | rolled | battle | reward (the step of the turn)
     "roll": 4,                    the die just rolled: 1..6 in phase rolled, else null
     "battle": null,               in phase battle: {"square": "c7", "attacker": PIECE}
     "pieces": {"b2": PIECE, ...}, every piece on the board by square; absent = empty
     "reserves": {"1": 0, "2": 3}, coins each player won in battles and has not stacked yet
     "supply": 6}                  dead coins still in the supply

    PIECE = {"owner": 1, "kind": "original", "stack": "single", "moved": false}

``owner`` is the player (1 South, 2 North), ``kind`` ``original`` (one of the player's own
coins) or ``dead`` (a dead coin the player brought in), ``stack`` ``single`` or ``double`` (an
original coin with a reserve coin under it; dead coins never stack), ``moved`` whether the piece
has moved (the move-every-original-coin-first rule). In phase ``battle`` the attacker has left
its square and stands on the defender's ``square``, which holds the defender in ``pieces``;
``to_move`` is the attacker. In phase ``reward`` the mover (``to_move``) may bring a dead coin
in. The coin under a double stack is not recorded: it looks like a single coin and plays like
any other, so reserves are counts, not coin kinds.

Reading checks every field (names, types, ranges, and that the phase fields agree) and refuses
unknown and missing ones, naming the field: ``position has 'roll' = 7; it must be a whole number
from 1 to 6``. Variants: ``short`` (6 coins a player on any 6 of their star and X row squares,
chosen at setup: at random by ``new_position``'s seed, or as the camera reads them) and
``dead-coins-N`` (N dead coins in the supply, 0 to 12; the default is 6).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import permutations
from typing import Any

from companion.games.base import Position, PositionError
from companion.games.coin_grid.board import (
    BOARD,
    PLAYERS,
    SIDES,
    SQUARE_INDEX,
    SQUARE_NAMES,
    START_ROWS,
    bits,
    mask_of,
)
from companion.games.position_fields import (
    bad_field,
    check_fields,
    json_object,
    short,
    variant_list,
    whole_number,
)

GAME_NAME = "coin-grid"
PHASES = ("start", "rolled", "battle", "reward")
DEFAULT_DEAD_COINS = 6
MAX_DEAD_COINS = 12
#: The coins a table may use, and the default kinds of South's, North's and the dead coins.
TABLE_COINS = "PNDQ"
DEFAULT_COIN_KINDS = "PND"
#: ``coins-SND``: the kinds of South's, North's and the dead coins (three different letters).
KIND_VARIANTS: tuple[str, ...] = tuple(f"coins-{''.join(kinds)}"
                                       for kinds in permutations(TABLE_COINS, 3))
#: Every variant, in the order written to JSON.
VARIANTS: tuple[str, ...] = ("short", *(f"dead-coins-{n}" for n in range(MAX_DEAD_COINS + 1)),
                             *KIND_VARIANTS)
#: One line per kind of variant saying what it changes (for help texts; ``N`` and ``SND`` stand
#: for the numbers and letters the variant's name takes).
VARIANT_NOTES: dict[str, str] = {
    "short": "6 coins a player instead of 12, on any 6 of their star and X row squares",
    "dead-coins-N": f"N dead coins in the supply instead of {DEFAULT_DEAD_COINS} (0 to "
                    f"{MAX_DEAD_COINS})",
    "coins-SND": "the coin kinds of South, North and the dead coins, three different letters "
                 f"of {TABLE_COINS} (P penny, N nickel, D dime, Q quarter; default "
                 f"coins-{DEFAULT_COIN_KINDS})",
}
FULL_COINS = 12
SHORT_COINS = 6
#: The most coins a reserve can hold: every original coin and every dead coin.
MAX_RESERVE = 2 * FULL_COINS + MAX_DEAD_COINS
FIELDS = ("game", "variants", "players", "sides", "to_move", "phase", "roll", "battle",
          "pieces", "reserves", "supply")
PIECE_FIELDS = ("owner", "kind", "stack", "moved")
BATTLE_FIELDS = ("square", "attacker")


@dataclass(frozen=True)
class Piece:
    """One piece: its owner (1 South, 2 North), dead or original, double stack or single, and
    whether it has moved."""

    owner: int
    dead: bool = False
    double: bool = False
    moved: bool = False

    @property
    def coins(self) -> int:
        """How many coins the piece is: 2 for a double stack, else 1."""
        return 2 if self.double else 1

    def to_json(self) -> dict[str, Any]:
        """The PIECE object of the module docstring."""
        return {"owner": self.owner, "kind": "dead" if self.dead else "original",
                "stack": "double" if self.double else "single", "moved": self.moved}


@dataclass(frozen=True, repr=False)
class CoinGridPosition(Position):
    """A Coin Grid position. Pieces are kept as bitboards (see
    :mod:`~companion.games.coin_grid.board`): ``south`` and ``north`` hold each player's
    pieces, ``dead``, ``double`` and ``moved`` mark pieces of either player. In phase battle,
    ``battle_square`` is the contested square and ``attacker`` the piece that moved onto it."""

    south: int
    north: int
    dead: int = 0
    double: int = 0
    moved: int = 0
    to_move: int = 1
    phase: str = "start"
    roll: int | None = None
    battle_square: int | None = None
    attacker: Piece | None = None
    reserves: tuple[int, int] = (0, 0)
    supply: int = DEFAULT_DEAD_COINS
    variants: tuple[str, ...] = field(default=())

    players = 2

    def pieces_of(self, player: int) -> int:
        """The squares of ``player``'s pieces (the attacker of a battle not included)."""
        return self.south if player == 1 else self.north

    @cached_property
    def occupied(self) -> int:
        """Squares holding a piece."""
        return self.south | self.north

    def piece_at(self, square: int) -> Piece | None:
        """The piece on square index ``square``, or None."""
        bit = 1 << square
        if self.south & bit:
            owner = 1
        elif self.north & bit:
            owner = 2
        else:
            return None
        return Piece(owner, bool(self.dead & bit), bool(self.double & bit),
                     bool(self.moved & bit))

    def pieces(self) -> dict[int, Piece]:
        """Every piece on the board by square index."""
        found = {}
        for square in bits(self.occupied):
            piece = self.piece_at(square)
            assert piece is not None
            found[square] = piece
        return found

    def reserve(self, player: int) -> int:
        """Coins in ``player``'s reserve."""
        return self.reserves[player - 1]

    def coins_on_board(self, player: int) -> int:
        """Coins of ``player``'s pieces on the board (a double stack is two; the attacker of a
        battle counts)."""
        mine = self.pieces_of(player)
        count = mine.bit_count() + (mine & self.double).bit_count()
        if self.attacker is not None and self.attacker.owner == player:
            count += self.attacker.coins
        return count

    def piece_count(self, player: int) -> int:
        """Pieces ``player`` has in play (the attacker of a battle counts)."""
        count = self.pieces_of(player).bit_count()
        if self.attacker is not None and self.attacker.owner == player:
            count += 1
        return count

    def to_json(self) -> dict[str, Any]:
        """The JSON object of the module docstring."""
        battle = None
        if self.battle_square is not None and self.attacker is not None:
            battle = {"square": SQUARE_NAMES[self.battle_square],
                      "attacker": self.attacker.to_json()}
        return {
            "game": GAME_NAME,
            "variants": list(self.variants),
            "players": 2,
            "sides": {str(player): side for player, side in zip(PLAYERS, SIDES, strict=True)},
            "to_move": self.to_move,
            "phase": self.phase,
            "roll": self.roll,
            "battle": battle,
            "pieces": {SQUARE_NAMES[square]: piece.to_json()
                       for square, piece in self.pieces().items()},
            "reserves": {"1": self.reserves[0], "2": self.reserves[1]},
            "supply": self.supply,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> CoinGridPosition:
        """Read and check a JSON object; raises :class:`PositionError` naming the bad field."""
        return _read_position(data)

    def __repr__(self) -> str:
        return f"CoinGridPosition.from_json({self.to_json()!r})"


def with_piece(position: CoinGridPosition, square: int, piece: Piece | None
               ) -> CoinGridPosition:
    """``position`` with ``square`` holding ``piece`` (None: emptied)."""
    bit = 1 << square
    keep = BOARD ^ bit
    south, north = position.south & keep, position.north & keep
    dead, double, moved = position.dead & keep, position.double & keep, position.moved & keep
    if piece is not None:
        if piece.owner == 1:
            south |= bit
        else:
            north |= bit
        dead |= bit if piece.dead else 0
        double |= bit if piece.double else 0
        moved |= bit if piece.moved else 0
    return replace(position, south=south, north=north, dead=dead, double=double, moved=moved)


# ------------------------------------------------------------------------------ variants, starts


def normalise_variants(variants: Sequence[str]) -> tuple[str, ...]:
    """Variants in canonical order; raises :class:`PositionError` for an unknown one, one named
    twice, or two dead-coin counts."""
    for variant in variants:
        if variant not in VARIANTS:
            raise PositionError(f"unknown Coin Grid variant {variant!r}; known: short, "
                                f"dead-coins-0 .. dead-coins-{MAX_DEAD_COINS}, coins-SND (three "
                                f"different letters of {TABLE_COINS}: South's, North's and the "
                                "dead coins' kinds)")
    if len(set(variants)) != len(variants):
        raise PositionError(f"Coin Grid variants {list(variants)!r} name one twice")
    counts = [variant for variant in variants if variant.startswith("dead-coins-")]
    if len(counts) > 1:
        raise PositionError(f"Coin Grid variants {list(variants)!r} give two dead-coin counts")
    if len([variant for variant in variants if variant.startswith("coins-")]) > 1:
        raise PositionError(f"Coin Grid variants {list(variants)!r} give the coin kinds twice")
    return tuple(variant for variant in VARIANTS if variant in variants)


def dead_coins(variants: Sequence[str]) -> int:
    """The dead coins the supply starts with under ``variants``."""
    for variant in variants:
        if variant.startswith("dead-coins-"):
            return int(variant.removeprefix("dead-coins-"))
    return DEFAULT_DEAD_COINS


def coin_kinds(variants: Sequence[str]) -> str:
    """South's, North's and the dead coins' kinds under ``variants`` (``"PND"`` by default)."""
    for variant in variants:
        if variant.startswith("coins-"):
            return variant.removeprefix("coins-")
    return DEFAULT_COIN_KINDS


def coins_per_player(variants: Sequence[str]) -> int:
    """How many coins each player starts with: 6 in the short game, else 12."""
    return SHORT_COINS if "short" in variants else FULL_COINS


def starting_position(variants: Sequence[str] = (), seed: int | None = None
                      ) -> CoinGridPosition:
    """The start: each player's coins on their star and X rows (all 12 squares; in the short
    game 6 of them chosen at random from ``seed``), South to roll, the supply full."""
    canonical = normalise_variants(variants)
    rng = random.Random(seed)
    owned = []
    for player in PLAYERS:
        squares = bits(START_ROWS[player])
        if "short" in canonical:
            squares = sorted(rng.sample(squares, SHORT_COINS))
        owned.append(mask_of(squares))
    return CoinGridPosition(south=owned[0], north=owned[1], supply=dead_coins(canonical),
                            variants=canonical)


# ------------------------------------------------------------------------------------ reading


def _read_position(data: Mapping[str, Any]) -> CoinGridPosition:
    """Check every field and build the position; messages start with ``position`` and name
    the field."""
    check_fields(data, FIELDS, FIELDS)
    if data["game"] != GAME_NAME:
        raise bad_field("game", data["game"], f"it must be {GAME_NAME!r}")
    variants = variant_list(data["variants"], normalise_variants)
    if isinstance(data["players"], bool) or data["players"] != 2:
        raise bad_field("players", data["players"], "Coin Grid is for 2 players")
    sides = json_object(data["sides"], "sides")
    if dict(sides) != {"1": "south", "2": "north"}:
        raise bad_field("sides", sides, 'Coin Grid seats are {"1": "south", "2": "north"}')
    to_move = whole_number(data["to_move"], "to_move", 1, 2)
    phase = data["phase"]
    if phase not in PHASES:
        raise bad_field("phase", phase, f"it must be one of {', '.join(PHASES)}")
    pieces = _read_pieces(data["pieces"])
    reserves = _read_reserves(data["reserves"])
    supply = whole_number(data["supply"], "supply", 0, MAX_DEAD_COINS)
    roll = _read_roll(data["roll"], phase)
    battle = _read_battle(data["battle"], phase, to_move, pieces)
    if phase == "reward" and supply == 0:
        raise bad_field("supply", supply, "a reward phase needs a dead coin in the supply")
    masks = _masks(pieces)
    return CoinGridPosition(
        south=masks["south"], north=masks["north"], dead=masks["dead"],
        double=masks["double"], moved=masks["moved"], to_move=to_move, phase=phase, roll=roll,
        battle_square=None if battle is None else battle[0],
        attacker=None if battle is None else battle[1],
        reserves=reserves, supply=supply, variants=variants,
    )


def _read_roll(raw: Any, phase: str) -> int | None:
    if phase != "rolled":
        if raw is not None:
            raise bad_field("roll", raw, f"it must be null in phase {phase!r}")
        return None
    return whole_number(raw, "roll", 1, 6)


def _read_piece(raw: Any, where: str) -> Piece:
    if not isinstance(raw, Mapping):
        raise bad_field(where, raw, "a piece is an object with owner, kind, stack and moved")
    check_fields(raw, PIECE_FIELDS, PIECE_FIELDS, f"position's {where!r}")
    owner = whole_number(raw["owner"], f"{where}.owner", 1, 2)
    if raw["kind"] not in ("original", "dead"):
        raise bad_field(f"{where}.kind", raw["kind"], "it must be 'original' or 'dead'")
    if raw["stack"] not in ("single", "double"):
        raise bad_field(f"{where}.stack", raw["stack"], "it must be 'single' or 'double'")
    if not isinstance(raw["moved"], bool):
        raise bad_field(f"{where}.moved", raw["moved"], "it must be true or false")
    if raw["kind"] == "dead" and raw["stack"] == "double":
        raise bad_field(f"{where}.stack", raw["stack"], "dead coins never stack")
    return Piece(owner, raw["kind"] == "dead", raw["stack"] == "double", raw["moved"])


def _read_pieces(raw: Any) -> dict[int, Piece]:
    pieces = {}
    for name, value in json_object(raw, "pieces").items():
        if name not in SQUARE_INDEX:
            raise PositionError(f"position has a key {short(name)} in 'pieces'; squares are "
                                "a1..f12")
        pieces[SQUARE_INDEX[name]] = _read_piece(value, f"pieces.{name}")
    for player in PLAYERS:
        originals = sum(1 for piece in pieces.values()
                        if piece.owner == player and not piece.dead)
        if originals > FULL_COINS:
            raise bad_field("pieces", f"{originals} original pieces of player {player}",
                       f"a player has {FULL_COINS} coins")
    dead = sum(1 for piece in pieces.values() if piece.dead)
    if dead > MAX_DEAD_COINS:
        raise bad_field("pieces", f"{dead} dead coins", f"there are at most {MAX_DEAD_COINS}")
    return pieces


def _read_reserves(raw: Any) -> tuple[int, int]:
    mapping = json_object(raw, "reserves")
    if sorted(mapping) != ["1", "2"]:
        raise bad_field("reserves", mapping, 'it must have exactly the players "1" and "2"')
    return (whole_number(mapping["1"], "reserves.1", 0, MAX_RESERVE),
            whole_number(mapping["2"], "reserves.2", 0, MAX_RESERVE))


def _read_battle(raw: Any, phase: str, to_move: int, pieces: Mapping[int, Piece]
                 ) -> tuple[int, Piece] | None:
    if phase != "battle":
        if raw is not None:
            raise bad_field("battle", raw, f"it must be null in phase {phase!r}")
        return None
    if not isinstance(raw, Mapping):
        raise bad_field("battle", raw, 'in phase battle it is {"square": ..., "attacker": PIECE}')
    check_fields(raw, BATTLE_FIELDS, BATTLE_FIELDS, "position's 'battle'")
    square = SQUARE_INDEX.get(raw["square"]) if isinstance(raw["square"], str) else None
    if square is None:
        raise bad_field("battle.square", raw["square"], "squares are a1..f12")
    attacker = _read_piece(raw["attacker"], "battle.attacker")
    if attacker.owner != to_move or not attacker.moved:
        raise bad_field("battle.attacker", raw["attacker"],
                   "the attacker belongs to the player to move and has moved")
    defender = pieces.get(square)
    if defender is None or defender.owner == to_move:
        raise bad_field("battle.square", raw["square"], "it must hold a piece of the defender")
    return square, attacker


def _masks(pieces: Mapping[int, Piece]) -> dict[str, int]:
    masks = dict.fromkeys(("south", "north", "dead", "double", "moved"), 0)
    for square, piece in pieces.items():
        bit = 1 << square
        masks["south" if piece.owner == 1 else "north"] |= bit
        masks["dead"] |= bit if piece.dead else 0
        masks["double"] |= bit if piece.double else 0
        masks["moved"] |= bit if piece.moved else 0
    return masks
