"""Coin Grid (seed 001): a 6×12 board, dice, battles, double stacks and dead coins. The game
(:mod:`~companion.games.coin_grid.game`, where the decisions the rulings leave open are listed),
its board, positions, notation, rules, battle odds, table and text drawing, one module each."""

from companion.games.coin_grid.game import (
    GAME,
    VARIANTS,
    CoinGrid,
    CoinGridMove,
    CoinGridPosition,
)

__all__ = ["GAME", "VARIANTS", "CoinGrid", "CoinGridMove", "CoinGridPosition"]
