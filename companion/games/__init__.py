"""Rules engines, one package per game, and the registry of games by name: use
:func:`get_game`.

Each game is a package (``companion.games.coin_isolation``) whose ``GAME`` implements the fixed
hooks of :class:`~companion.games.base.Game`; the registry imports the packages listed in
:data:`BUILTIN_GAMES` on first use, so no game module imports the registry; :func:`get_game` of a
game that ships imports that game alone.
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
    if name not in _GAMES and name in BUILTIN_PACKAGES:
        _load_builtin_game(BUILTIN_PACKAGES[name])  # that game alone: a command runs faster
    if name in _GAMES:
        return _GAMES[name]
    _load_builtin_games()
    try:
        return _GAMES[name]
    except KeyError:
        known = ", ".join(sorted(_GAMES)) or "none"
        raise RulesError(f"unknown game {name!r}; known games: {known}") from None


#: The games that ship with the companion, by name: one package each, holding its ``GAME``.
BUILTIN_PACKAGES = {
    "coin-isolation": "companion.games.coin_isolation",
    "coin-grid": "companion.games.coin_grid",
    "jokers-and-coins": "companion.games.jokers_and_coins",
    "shakala": "companion.games.shakala",
}
BUILTIN_GAMES = tuple(BUILTIN_PACKAGES.values())


def _load_builtin_games() -> None:
    """Import and register the games that ship with the companion (once; on first use, so
    importing the registry imports no game)."""
    for package in BUILTIN_GAMES:
        _load_builtin_game(package)


def _load_builtin_game(package: str) -> None:
    """Import one game that ships with the companion and register it, unless it is."""
    game = importlib.import_module(package).GAME
    if game.name not in _GAMES:
        register_game(game)


__all__ = [
    "BUILTIN_GAMES",
    "BUILTIN_PACKAGES",
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
