"""Rules engines, one module per game, registered by name: use :func:`get_game`."""

from companion.games.base import (
    Game,
    IllegalMoveError,
    Move,
    NotationError,
    Position,
    PositionError,
    Result,
    RulesError,
    game_names,
    get_game,
    register_game,
)

__all__ = [
    "Game",
    "IllegalMoveError",
    "Move",
    "NotationError",
    "Position",
    "PositionError",
    "Result",
    "RulesError",
    "game_names",
    "get_game",
    "register_game",
]
