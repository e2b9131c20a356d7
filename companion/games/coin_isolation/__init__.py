"""Coin Isolation (Ken Samuel), both editions and all 13 variants: the game
(:mod:`~companion.games.coin_isolation.game`, where the rulings and decisions are listed), its
positions, move notation, rules, search, camera matching and text drawing, one module each."""

from companion.games.coin_isolation.game import (
    GAME,
    VARIANTS,
    CoinIsolation,
    CoinIsolationMove,
    CoinIsolationPosition,
)

__all__ = ["GAME", "VARIANTS", "CoinIsolation", "CoinIsolationMove", "CoinIsolationPosition"]
