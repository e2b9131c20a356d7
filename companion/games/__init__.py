"""Rules engines, one package per game, and the registry of games by name: use
:func:`get_game`.

Each game is a package (``companion.games.coin_isolation``) whose ``GAME`` implements the fixed
hooks of :class:`~companion.games.base.Game`; the registry imports the packages listed in
:data:`BUILTIN_GAMES` on first use, so no game module imports the registry.
"""

from __future__ import annotations

import importlib

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
)

_GAMES: dict[str, Game] = {}


def register_game(game: Game) -> Game:
    """Make ``game`` available by its name (it must declare its :class:`GameInfo`); returns
    it."""
    if not game.name:
        raise RulesError(f"game {game!r} has no name")
    if not isinstance(getattr(game, "info", None), GameInfo):
        raise RulesError(f"game {game.name!r} declares no GameInfo")
    _GAMES[game.name] = game
    return game


def game_names() -> tuple[str, ...]:
    """Names of the registered games, sorted."""
    _load_builtin_games()
    return tuple(sorted(_GAMES))


def get_game(name: str) -> Game:
    """The registered game called ``name``; raises :class:`RulesError` naming the known games."""
    _load_builtin_games()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise RulesError(f"unknown game {name!r}; known games: {known}") from None


#: The games that ship with the companion: one package each, holding its ``GAME``.
BUILTIN_GAMES = (
    "companion.games.coin_isolation", "companion.games.coin_grid",
    "companion.games.jokers_and_coins", "companion.games.shakala",
)


def _load_builtin_games() -> None:
    """Import and register the games that ship with the companion (once; on first use, so
    importing the registry imports no game)."""
    for package in BUILTIN_GAMES:
        game = importlib.import_module(package).GAME
        if game.name not in _GAMES:
            register_game(game)


__all__ = [
    "BUILTIN_GAMES",
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
