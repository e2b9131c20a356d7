"""Searches for hint tests that run in the table's search process without the real engine: a
known answer (the legal move with the longest path), or a failure."""

from companion.games import get_game
from companion.hints import SearchAnswer


def longest_path(name, data, seconds, seed):
    """The legal move with the most regions on its path, at 60% for seat 1."""
    game = get_game(name)
    position = game.position_from_json(data)
    move = max(game.legal_moves(position), key=lambda m: (len(m.regions()), m.text()))
    return SearchAnswer(move.text(), {1: 0.6, 2: 0.4}, 123, 0.01)


def broken(name, data, seconds, seed):
    raise ValueError("the engine broke")
