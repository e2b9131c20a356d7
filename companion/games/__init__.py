"""Rules engines, one module per game, registered by name: use :func:`get_game`."""

from companion.games.base import (
    Game,
    GameInfo,
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    PositionError,
    Result,
    RulesError,
    Termination,
    game_names,
    get_game,
    register_game,
)

__all__ = [
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Position",
    "PositionError",
    "Result",
    "RulesError",
    "Termination",
    "game_names",
    "get_game",
    "register_game",
]
