"""Ring Race: a test game of another shape than Coin Isolation, to prove the table is general.

Tokens run round a ring of twelve track spaces (the ``test-ring`` mat); each turn starts with a
die (a chance node: ``roll:1``..``roll:3``, a third each), then the player moves their token
that many spaces on (``t2-t4``), taking the coin on the space it lands on. A 3 is also a gust:
the coin on the space just ahead of the roller's token goes back in the box, which the players
must do by hand before the move (the referee's restore phase). A token cannot land
on another: then the player's only action is ``pass``, which changes nothing on the table (so
the referee plays it). The game ends when a player holds three coins (the goal) or no coin is
left; the most cents wins, ties standing. Position JSON (every field but ``game`` required;
its schema is ``ring-race.position.schema.json`` beside this file)::

    {"game": "ring-race", "players": 2, "to_move": 1, "rolled": null,
     "tokens": {"1": "t1", "2": "t7"}, "coins": {"t3": "P", "t9": "N"},
     "taken": {"1": "", "2": ""}}
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from companion.games import (
    Game,
    GameInfo,
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    PositionError,
    Result,
    Termination,
)
from contract.observation import Observation
from contract.table_state import TableState, seen_looks

SPACES = 12
FACES = (1, 2, 3)
GOAL = 3
GUST = 3
VALUES = {"P": 1, "N": 5}


def space(index: int) -> str:
    return f"t{index % SPACES + 1}"


def index_of(name: str) -> int:
    return int(name[1:]) - 1


@dataclass(frozen=True)
class RacePosition(Position):
    players: int
    to_move: int
    rolled: int | None
    tokens: tuple[str, ...]
    coins: tuple[tuple[str, str], ...]
    taken: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "ring-race", "players": self.players, "to_move": self.to_move,
            "rolled": self.rolled,
            "tokens": {str(seat): name for seat, name in enumerate(self.tokens, 1)},
            "coins": dict(self.coins),
            "taken": {str(seat): coins for seat, coins in enumerate(self.taken, 1)},
        }


@dataclass(frozen=True)
class RaceMove(Move):
    kind: str  # "roll", "go" or "pass"
    value: int = 0
    start: str = ""
    end: str = ""

    def text(self) -> str:
        if self.kind == "roll":
            return f"roll:{self.value}"
        return "pass" if self.kind == "pass" else f"{self.start}-{self.end}"

    def regions(self) -> tuple[str, ...]:
        return (self.start, self.end) if self.kind == "go" else ()


class RingRace(Game):
    name = "ring-race"
    info = GameInfo(
        title="Ring Race", min_players=2, max_players=3, mat="test-ring", coin_kinds="PN",
        chance=True, token_colours=("red", "blue", "green"), score_unit="¢",
        seat_heading="Coins taken",
    )

    def new_position(self, players: int, variants: Sequence[str] = (),
                     seed: int | None = None) -> RacePosition:
        self.info.check_players(players)
        rng = random.Random(seed)
        tokens = tuple(space(seat * 4) for seat in range(players))
        free = [space(index) for index in range(SPACES) if space(index) not in tokens]
        coins = tuple(sorted((name, rng.choice("PN")) for name in rng.sample(free, 6)))
        return RacePosition(players, 1, None, tokens, coins, ("",) * players)

    def position_schema(self) -> Mapping[str, Any]:
        return SCHEMA

    def position_from_json(self, data: Mapping[str, Any]) -> RacePosition:
        """Check fields, types and ranges (the rules of :data:`SCHEMA`), naming the field."""
        unknown = sorted(set(data) - FIELDS)
        missing = sorted(FIELDS - {"game"} - set(data))
        if unknown or missing or data.get("game", "ring-race") != "ring-race":
            raise PositionError(f"a Ring Race position has the fields {sorted(FIELDS)}; "
                                f"unknown: {unknown}, missing: {missing}")
        players = _number(data["players"], "players", 2, 3)
        seats = [str(seat) for seat in range(1, players + 1)]
        tokens = tuple(_space(_seat_map(data, "tokens", seats)[seat], "tokens") for seat in seats)
        coins = tuple(sorted((_space(name, "coins"), _coin(kind))
                             for name, kind in _object(data["coins"], "coins").items()))
        taken = tuple("".join(_coin(coin) for coin in _text(_seat_map(data, "taken", seats)[seat]))
                      for seat in seats)
        if len(set(tokens)) != len(tokens):
            raise PositionError(f"two Ring Race tokens share a space: {tokens}")
        rolled = None if data["rolled"] is None else _number(data["rolled"], "rolled", 1, 3)
        return RacePosition(players, _number(data["to_move"], "to_move", 1, players), rolled,
                            tokens, coins, taken)

    def parse_move(self, text: str) -> RaceMove:
        if text == "pass":
            return RaceMove("pass")
        if match := re.fullmatch(r"roll:([1-9])", text):
            return RaceMove("roll", int(match.group(1)))
        if match := re.fullmatch(r"(t\d+)-(t\d+)", text):
            return RaceMove("go", 0, match.group(1), match.group(2))
        raise NotationError(f"not a Ring Race move: {text!r}")

    def to_move(self, position: Position) -> int:
        return _race(position).to_move

    def is_chance(self, position: Position) -> bool:
        return not self.is_over(position) and _race(position).rolled is None

    def chance_outcomes(self, position: Position) -> list[tuple[Move, Fraction]]:
        if not self.is_chance(position):
            return []
        return [(RaceMove("roll", face), Fraction(1, len(FACES))) for face in FACES]

    def legal_moves(self, position: Position) -> list[Move]:
        race = _race(position)
        if self.is_over(race) or race.rolled is None:
            return []
        start = race.tokens[race.to_move - 1]
        end = space(index_of(start) + race.rolled)
        if end in race.tokens:
            return [RaceMove("pass")]
        return [RaceMove("go", 0, start, end)]

    def apply(self, position: Position, move: Move) -> RacePosition:
        race = _race(position)
        if not isinstance(move, RaceMove):
            raise IllegalMoveError(f"{move!r} is not a Ring Race move")
        if move.kind == "roll":
            if not self.is_chance(race) or move.value not in FACES:
                raise IllegalMoveError(f"{move.text()} is no roll here")
            coins = dict(race.coins)
            if move.value == GUST:
                coins.pop(space(index_of(race.tokens[race.to_move - 1]) + 1), None)
            return RacePosition(race.players, race.to_move, move.value, race.tokens,
                                tuple(sorted(coins.items())), race.taken)
        if move not in self.legal_moves(race):
            raise IllegalMoveError(f"{move.text()} is not legal here")
        seat = race.to_move
        tokens, coins, taken = list(race.tokens), dict(race.coins), list(race.taken)
        if move.kind == "go":
            tokens[seat - 1] = move.end
            taken[seat - 1] += coins.pop(move.end, "")
        return RacePosition(race.players, seat % race.players + 1, None, tuple(tokens),
                            tuple(sorted(coins.items())), tuple(taken))

    def is_over(self, position: Position) -> bool:
        return _termination(_race(position)) is not None

    def scores(self, position: Position) -> dict[int, int]:
        race = _race(position)
        return {seat: sum(VALUES[coin] for coin in race.taken[seat - 1])
                for seat in range(1, race.players + 1)}

    def seat_coins(self, position: Position) -> dict[int, str]:
        race = _race(position)
        return {seat: race.taken[seat - 1] for seat in range(1, race.players + 1)}

    def result(self, position: Position) -> Result:
        scores = self.scores(position)
        best = max(scores.values())
        return Result(tuple(seat for seat, score in scores.items() if score == best),
                      tuple(scores.items()), unit="¢",
                      termination=_termination(_race(position)))

    def legal_targets(self, position: Position) -> frozenset[str]:
        return frozenset(move.regions()[-1] for move in self.legal_moves(position)
                         if move.regions())

    def candidates(self, position: Position, observation: Observation) -> list[Move]:
        seen = seen_looks(observation)
        return [move for move in self.legal_moves(position)
                if self.layout(self.apply(position, move)).looks() == seen]

    def layout(self, position: Position) -> TableState:
        race = _race(position)
        tokens = {str(seat): name for seat, name in enumerate(race.tokens, 1)}
        return TableState.of_stacks(dict(race.coins), tokens)

    def position_from_reading(self, template: Position, observation: Observation) -> Position:
        race = _race(template)
        coins = tuple(sorted((name, reading.coin) for name, reading in observation.regions.items()
                             if reading.coin is not None))
        return RacePosition(race.players, race.to_move, race.rolled, race.tokens, coins,
                            race.taken)


FIELDS = frozenset({"game", "players", "to_move", "rolled", "tokens", "coins", "taken"})
SCHEMA = json.loads((Path(__file__).parent / "ring-race.position.schema.json").read_text())


def _number(value: Any, field: str, least: int, most: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
        raise PositionError(f"Ring Race {field!r} is {value!r}; it must be {least} to {most}")
    return value


def _object(value: Any, field: str) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise PositionError(f"Ring Race {field!r} must be an object, not {value!r}")
    return value


def _seat_map(data: Mapping[str, Any], field: str, seats: list[str]) -> Mapping[str, Any]:
    mapping = _object(data[field], field)
    if sorted(mapping) != seats:
        raise PositionError(f"Ring Race {field!r} must have the seats {seats}, "
                            f"not {sorted(mapping)}")
    return mapping


def _space(name: Any, field: str) -> str:
    if name not in {space(index) for index in range(SPACES)}:
        raise PositionError(f"Ring Race {field!r} names {name!r}; spaces are t1..t{SPACES}")
    return str(name)


def _coin(kind: Any) -> str:
    if kind not in VALUES:
        raise PositionError(f"Ring Race coins are P and N, not {kind!r}")
    return str(kind)


def _text(value: Any) -> str:
    if not isinstance(value, str):
        raise PositionError(f"Ring Race 'taken' holds coin letters, not {value!r}")
    return value


def _termination(race: RacePosition) -> Termination | None:
    if any(len(coins) >= GOAL for coins in race.taken):
        return Termination.GOAL
    if not race.coins:
        return Termination.EXHAUSTED
    return None


def _race(position: Position) -> RacePosition:
    if not isinstance(position, RacePosition):
        raise PositionError(f"{type(position).__name__} is not a Ring Race position")
    return position


GAME = RingRace()
