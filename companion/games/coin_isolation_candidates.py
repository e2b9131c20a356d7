"""Matching a camera observation to Coin Isolation moves (filled in below)."""

from __future__ import annotations

from collections.abc import Iterator

from companion.games.coin_isolation_moves import CoinIsolationMove
from companion.games.coin_isolation_position import CoinIsolationPosition
from companion.observation import Observation


def candidates(
    position: CoinIsolationPosition, observation: Observation
) -> Iterator[CoinIsolationMove]:
    """Every legal move whose visible result matches ``observation``."""
    from companion.games.coin_isolation import GAME
    from companion.games.coin_isolation_rules import play

    for move in GAME.iter_moves(position):
        if view(play(position, move)) == observed_view(observation):
            yield move


def view(position: CoinIsolationPosition) -> tuple[tuple[str | None, str | None], ...]:
    """What the camera sees on each square: top coin and pawn label."""
    pawn_at = {square: str(player) for player, square in enumerate(position.pawns, 1)}
    return tuple(
        (stack[-1] if stack else None, pawn_at.get(index))
        for index, stack in enumerate(position.squares)
    )


def observed_view(observation: Observation) -> tuple[tuple[str | None, str | None], ...]:
    """The same view read from an observation (unread squares count as empty)."""
    from companion.games.coin_isolation_board import SQUARE_NAMES

    return tuple((observation.coin(name), observation.pawn(name)) for name in SQUARE_NAMES)
