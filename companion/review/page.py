"""The review as one HTML file that opens offline: inline CSS, board pictures as ``data:``
URIs, the chart as inline SVG; no script, no font or image fetched from anywhere.

The page holds the game's heading, the three biggest swings named, the chart of each player's
win chance, then one row per move: the board before it (the move drawn as a path), the move
played, the engine's choice and each player's chance before and after. A final row shows the
last position.
"""

from __future__ import annotations

import base64
from collections.abc import Callable, Mapping
from html import escape

from companion.review.analyse import GameReview, MoveReview
from companion.review.comments import biggest_swings, move_comment, percent, swing_sentence
from companion.review.plot import chance_plot

#: The board before a step (0 is the start), with a move drawn, as JPEG bytes.
Pictures = Callable[[int, str | None], bytes]

STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; background: #fafafa; }
h1 { font-size: 1.5em; margin-bottom: 0.2em; }
.summary { color: #555; margin-top: 0; }
ol.swings li { margin: 0.3em 0; }
table.moves { border-collapse: collapse; margin-top: 1em; }
table.moves td, table.moves th { border-top: 1px solid #ddd; padding: 0.5em; vertical-align: top;
  text-align: left; }
td.board img { width: 360px; display: block; }
.played { font-weight: bold; font-size: 1.1em; }
.agree { color: #2c7a2c; }
.differ { color: #b35c00; }
.luck { color: #555; font-style: italic; }
.rough { background: #fff3cd; padding: 0.4em; border-left: 4px solid #b35c00; }
.swing-tag { background: #c0392b; color: #fff; border-radius: 4px; padding: 0 0.4em; }
table.moves table.chances td { border: none; padding: 0 0.8em 0 0; }
"""


def data_uri(picture: bytes) -> str:
    """A JPEG picture as a ``data:`` URI the page carries inside itself."""
    return "data:image/jpeg;base64," + base64.b64encode(picture).decode("ascii")


def review_page(review: GameReview, title: str, steps: Mapping[int, int], pictures: Pictures,
                colours: Mapping[int, str], final_step: int) -> str:
    """The whole page. ``steps`` maps each move's event number to its timeline step index (the
    board before it is ``pictures(index, move)``); ``final_step`` is the last position's."""
    swings = biggest_swings(review.moves)
    ranks = {move.number: rank for rank, move in enumerate(swings, start=1)}
    names = review.seat_names
    rows = [_move_row(move, names, pictures(steps[move.number], move.move), ranks.get(move.number))
            for move in review.moves]
    final = pictures(final_step, None)
    rows.append(f'<tr class="final"><td class="board"><img alt="the final position" '
                f'src="{data_uri(final)}"></td><td><span class="played">Final position'
                f'</span><br>{"game over" if review.finished else "the game goes on"}</td></tr>')
    swing_items = "".join(f"<li>{escape(swing_sentence(move, names))}</li>" for move in swings)
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>
<style>{STYLE}</style></head>
<body>
<h1>{escape(title)}</h1>
<p class="summary">{len(review.moves)} move(s) reviewed; {escape(review.settings)};
{review.playouts} playouts in {review.searches} searches.</p>
{_rough(review)}
<h2>The biggest swings</h2>
<ol class="swings">{swing_items or "<li>no move changed anyone's chance</li>"}</ol>
<h2>Win chance over the game</h2>
{chance_plot(review, colours, swings)}
<h2>Move by move</h2>
<table class="moves">
{"".join(rows)}
</table>
</body></html>
"""


def _rough(review: GameReview) -> str:
    """The warning paragraph when the searches were too short to trust, else nothing."""
    warning = review.rough()
    return f'<p class="rough">Note: {escape(warning)}</p>' if warning else ""


def _move_row(move: MoveReview, names: Mapping[int, str], picture: bytes,
              rank: int | None) -> str:
    """One move's row: the board before it, what was played, the engine's view, the chances."""
    name = escape(names.get(move.seat, f"Player {move.seat}"))
    tag = f' <span class="swing-tag">swing {rank}</span>' if rank else ""
    if move.chance:
        verdict = '<span class="luck">chance decided this (luck, not a choice)</span>'
    elif move.engine_agrees:
        verdict = '<span class="agree">the engine\'s choice too</span>'
    else:
        verdict = (f'<span class="differ">the engine preferred {escape(move.best or "")} '
                   f'({percent(move.best_chance or 0.0)})</span>')
    chances = "".join(
        f"<tr><td>{escape(names.get(seat, str(seat)))}</td>"
        f"<td>{percent(move.before.get(seat, 0.0))} &rarr; {percent(move.after.get(seat, 0.0))}"
        f"</td></tr>" for seat in sorted(names))
    return (f'<tr class="move" id="move-{move.ply}"><td class="board"><img '
            f'alt="the board before move {move.ply}" src="{data_uri(picture)}"></td>'
            f'<td><span class="played">{move.ply}. {name}: {escape(move.move)}</span>{tag}<br>'
            f'{verdict}<table class="chances">{chances}</table>'
            f'<small>{escape(move_comment(move, names))}</small></td></tr>\n')
