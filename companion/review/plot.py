"""Each player's win chance over the game as an inline SVG chart (no script, no network).

The x axis counts the moves (0 is the start, point N is the position after move N), the y axis
the win chance from 0% to 100%; one line per seat in the seat's colour, and the named swings
marked with their rank. Pure: text in, text out.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from html import escape

from companion.review.analyse import GameReview, MoveReview

WIDTH, HEIGHT = 760, 260
LEFT, RIGHT, TOP, BOTTOM = 44, 120, 14, 30


def chance_series(review: GameReview) -> dict[int, list[float]]:
    """Each seat's win chance at the start and after every move, in order."""
    seats = sorted(review.seat_names)
    series: dict[int, list[float]] = {seat: [] for seat in seats}
    if not review.moves:
        return series
    for seat in seats:
        series[seat].append(review.moves[0].before.get(seat, 0.0))
        series[seat].extend(move.after.get(seat, 0.0) for move in review.moves)
    return series


def chance_plot(review: GameReview, colours: Mapping[int, str],
                swings: Sequence[MoveReview] = ()) -> str:
    """The SVG chart: a line per seat, ``colours`` as CSS colours by seat, ``swings`` marked."""
    series = chance_series(review)
    count = max(1, len(review.moves))

    def x(ply: float) -> float:
        return LEFT + (WIDTH - LEFT - RIGHT) * ply / count

    def y(chance: float) -> float:
        return TOP + (HEIGHT - TOP - BOTTOM) * (1.0 - chance)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="plot" width="{WIDTH}" '
             f'height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
             'aria-label="win chance over the game">',
             f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>']
    for level in (0.0, 0.25, 0.5, 0.75, 1.0):
        dash = "" if level in (0.0, 1.0) else ' stroke-dasharray="3,3"'
        parts.append(f'<line x1="{LEFT}" y1="{y(level):.1f}" x2="{WIDTH - RIGHT}" '
                     f'y2="{y(level):.1f}" stroke="#bbbbbb"{dash}/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(level) + 4:.1f}" font-size="11" '
                     f'text-anchor="end">{round(level * 100)}%</text>')
    step = max(1, count // 10)
    for ply in range(0, count + 1, step):
        parts.append(f'<text x="{x(ply):.1f}" y="{HEIGHT - 10}" font-size="11" '
                     f'text-anchor="middle">{ply}</text>')
    for index, (seat, values) in enumerate(series.items()):
        colour = escape(colours.get(seat, "#333333"))
        points = " ".join(f"{x(ply):.1f},{y(value):.1f}" for ply, value in enumerate(values))
        parts.append(f'<polyline class="seat-line" data-seat="{seat}" fill="none" '
                     f'stroke="{colour}" stroke-width="2.5" points="{points}"/>')
        name = escape(review.seat_names.get(seat, f"Player {seat}"))
        label_y = TOP + 16 * (index + 1)
        parts.append(f'<line x1="{WIDTH - RIGHT + 10}" y1="{label_y - 4}" '
                     f'x2="{WIDTH - RIGHT + 28}" y2="{label_y - 4}" stroke="{colour}" '
                     'stroke-width="3"/>')
        parts.append(f'<text x="{WIDTH - RIGHT + 32}" y="{label_y}" font-size="12">{name}</text>')
    for rank, move in enumerate(swings, start=1):
        chance = move.after.get(move.seat, 0.0)
        parts.append(f'<circle class="swing" cx="{x(move.ply):.1f}" cy="{y(chance):.1f}" r="7" '
                     'fill="#ffffff" stroke="#c0392b" stroke-width="2"/>')
        parts.append(f'<text x="{x(move.ply):.1f}" y="{y(chance) + 4:.1f}" font-size="10" '
                     f'text-anchor="middle" fill="#c0392b">{rank}</text>')
    parts.append("</svg>")
    return "\n".join(parts)
