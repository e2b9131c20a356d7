"""Hand-made Jokers and Coins positions for tests: coins placed by region, everything else as
at the start (cards freshly dealt unless given)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from companion.games.jokers_and_coins import GAME, JokersPosition


def table(players: int, coins: Mapping[int, Sequence[str]], to_move: int = 1,
          variants: Sequence[str] = (), discard: Mapping[str, int] | None = None,
          hands: Mapping[int, int] | None = None) -> JokersPosition:
    """A position with each listed seat's coins on the given places (the rest in supply)."""
    data: dict[str, Any] = GAME.new_position(players, variants).to_json()
    for seat, places in coins.items():
        data["coins"][str(seat)] = list(places) + ["supply"] * (4 - len(places))
    data["to_move"] = to_move
    cards = data["cards"]
    for rank, count in (discard or {}).items():
        cards["discard_pile"][rank] = count
        cards["draw_pile"] -= count
    for seat, size in (hands or {}).items():
        cards["draw_pile"] += cards["hands"][str(seat)] - size
        cards["hands"][str(seat)] = size
    position = GAME.read_position(data)
    assert isinstance(position, JokersPosition)
    return position


def moves(position: JokersPosition, card: str | None = None) -> list[str]:
    """The legal moves' text, those of one card only when ``card`` is given."""
    texts = [move.text() for move in GAME.legal_moves(position)]
    if card is None:
        return texts
    return [text for text in texts if text.split(":")[0] == card]


def coins_after(position: JokersPosition, text: str) -> dict[str, list[str]]:
    """The coins by seat after the move ``text``."""
    coins: dict[str, list[str]] = GAME.apply_text(position, text).to_json()["coins"]
    return coins
