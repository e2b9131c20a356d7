"""Drawing what a mat of pits shows beyond its regions: the track arrows printed between the
pits (Shakala's inner and outer tracks, the forks and joins named), the loose coins of a pit or
cup as a count per kind, and the route of the last move.

Loose coins are counted, not piled: a pit of eleven coins drawn as a heap would hide what the
players need to check (how many of each kind lie there), so each kind present gets a row with
its coin and the number. Pure drawing, as the rest of :mod:`companion.display`.
"""

from __future__ import annotations

import math

import pygame

from companion.display.layout import Box, Layout
from companion.display.pieces import (
    BLACK,
    BLUE,
    MUTED,
    ORANGE,
    OUTLINE,
    PATH_COLOUR,
    Sprites,
    blit_centred,
    blit_left,
    draw_coin,
)
from contract.observation import COIN_KINDS

#: The colour of each track's arrows, as the printed mat has them (inner blue, outer orange).
TRACK_COLOURS = {"inner-track": BLUE, "outer-track": ORANGE}
#: The colour of the pit a move picked up.
ORIGIN_COLOUR = ORANGE


def draw_tracks(surface: pygame.Surface, layout: Layout, cache: Sprites) -> None:
    """Every track arrow of the mat with its head, and the mat's notes (``E fork``)."""
    width = max(2, layout.cell // 28)
    for kind, points in layout.arrows:
        if len(points) < 2:
            continue
        colour = TRACK_COLOURS.get(kind, MUTED)
        pygame.draw.lines(surface, colour, False, points, width)
        _arrowhead(surface, points[-2], points[-1], colour, width * 4)
    size = layout.text.small
    for text, centre in layout.notes:
        blit_centred(surface, cache.text(text, size, BLACK), centre)


def draw_loose(surface: pygame.Surface, coins: str, box: Box, cache: Sprites) -> None:
    """A pit's or cup's loose coins as one row per kind present (its coin and how many),
    centred in ``box``, largest kind last."""
    kinds = [kind for kind in COIN_KINDS if kind in coins]
    if not kinds:
        return
    rows = len(kinds)
    usable = min(box.width, box.height) * 72 // 100 if box.width < box.height * 2 else \
        box.height * 80 // 100
    row_height = max(8, min(usable // max(rows, 3), box.width // 3))
    top = box.center[1] - row_height * rows // 2
    radius = max(3, row_height * 42 // 100)
    size = max(10, row_height * 95 // 100)
    for index, kind in enumerate(kinds):
        y = top + index * row_height + row_height // 2
        x = box.center[0] - radius
        draw_coin(surface, kind, (x, y), radius, cache, lettered=radius >= 8)
        label = cache.text(f"\u00d7{coins.count(kind)}", size, OUTLINE)
        blit_left(surface, label, (x + radius + 3, y))


def draw_count_badge(surface: pygame.Surface, count: int, box: Box, cache: Sprites) -> None:
    """The number of coins in a pit, small and muted at its top."""
    side = min(box.width, box.height)
    label = cache.text(str(count), max(10, side // 7), MUTED)
    blit_centred(surface, label, (box.center[0], box.y + side // 7))


def draw_route(surface: pygame.Surface, route: list[Box], cache: Sprites) -> None:
    """The last move: the pit picked up ringed in orange, each pit a bead fell into ringed in
    yellow with its place in the sowing (1 the first drop) on its rim."""
    if not route:
        return
    origin, drops = route[0], route[1:]
    _ring(surface, origin, ORIGIN_COLOUR)
    for number, box in enumerate(drops, start=1):
        _ring(surface, box, PATH_COLOUR)
        radius = max(7, box.width // 10)
        centre = (box.x + radius + 1, box.bottom - radius - 1)
        pygame.draw.circle(surface, OUTLINE, centre, radius + 2)
        pygame.draw.circle(surface, PATH_COLOUR, centre, radius)
        blit_centred(surface, cache.text(str(number), round(radius * 1.7), BLACK), centre)


def _ring(surface: pygame.Surface, box: Box, colour: tuple[int, int, int]) -> None:
    radius = min(box.width, box.height) // 2
    width = max(3, radius // 12)
    pygame.draw.circle(surface, OUTLINE, box.center, radius + 1, width + 2)
    pygame.draw.circle(surface, colour, box.center, radius, width)


def _arrowhead(surface: pygame.Surface, start: tuple[int, int], tip: tuple[int, int],
               colour: tuple[int, int, int], size: int) -> None:
    angle = math.atan2(tip[1] - start[1], tip[0] - start[0])
    left = (tip[0] - size * math.cos(angle - 0.45), tip[1] - size * math.sin(angle - 0.45))
    right = (tip[0] - size * math.cos(angle + 0.45), tip[1] - size * math.sin(angle + 0.45))
    pygame.draw.polygon(surface, colour, [tip, left, right])
