"""Reading a position file (or standard input) for `companion rules` and anything else that
takes a position from the user.

The file is read by :mod:`contract.user_files` (missing, a folder, unreadable, not UTF-8, not
JSON: one sentence naming it), its ``game`` picks the rules engine, and the engine's
:meth:`~companion.games.base.Game.read_position` checks it against the game's JSON Schema and
its own rules. Every problem is a :class:`~companion.games.base.PositionError` naming the file
and the field, which the command line prints as one line with exit code 2.
"""

from __future__ import annotations

from companion.games import Game, Position, PositionError, RulesError, get_game
from contract.user_files import describe, read_user_object

DEFAULT_GAME = "coin-isolation"


def read_position_file(source: str, default_game: str = DEFAULT_GAME) -> tuple[Game, Position]:
    """The game and position in ``source`` (a path, or ``-`` for standard input); a position
    without a ``game`` field is one of ``default_game``."""
    what = "position file"
    name = describe(source, what)
    data = read_user_object(source, what, PositionError)
    game_name = data.get("game", default_game)
    if not isinstance(game_name, str):
        raise PositionError(f"{name} has 'game' = {game_name!r}, not a game's name")
    try:
        game = get_game(game_name)
    except RulesError as error:
        raise PositionError(f"{name}: {error}") from None
    return game, game.read_position(data, name)
