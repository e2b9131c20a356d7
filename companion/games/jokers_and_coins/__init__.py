"""Jokers and Coins (seed 003): a race of four coins a seat around a ring of track spaces, moved
by playing cards from three poker decks. The game (:mod:`~companion.games.jokers_and_coins.game`,
where the decisions the rulings leave open are listed), its ring, positions, cards, notation,
rules, table and text drawing, one module each."""

from companion.games.jokers_and_coins.game import GAME, JokersAndCoins, JokersMove, JokersPosition

__all__ = ["GAME", "JokersAndCoins", "JokersMove", "JokersPosition"]
