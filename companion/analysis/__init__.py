"""Analysis of any registered game: Monte Carlo tree search over the game hooks
(:class:`~companion.games.base.Game`), for hints, the post-game review and the demo's search bot.

``search(game, position, SearchLimits(playouts=2000, seed=1))`` gives the best move, each
candidate's visits and estimated win chance per seat, and the position's win chance; the same
seed and playout bound give the same answer. See :mod:`companion.analysis.search`.
"""

from companion.analysis.limits import (
    MoveEstimate,
    SearchError,
    SearchLimits,
    SearchParts,
    SearchResult,
)
from companion.analysis.search import search

__all__ = [
    "MoveEstimate", "SearchError", "SearchLimits", "SearchParts", "SearchResult", "search",
]
