"""Shakala (seed 004, by Christian Freeling): a sowing game of stones and gems on sixteen pits
with two tracks. The game (:mod:`~companion.games.shakala.game`, where the decisions the
rulings leave open are listed), its board, positions, notation, rules, table and text drawing,
one module each."""

from companion.games.shakala.game import GAME, Shakala, ShakalaMove, ShakalaPosition

__all__ = ["GAME", "Shakala", "ShakalaMove", "ShakalaPosition"]
