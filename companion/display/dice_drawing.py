"""The dice of the latest roll or battle round on the side panel: each roll's label and who
gave it (read by the camera, rolled by the companion, entered on the panel), its dice drawn with
their pips, and the total (halved, when the half-damage rule applies).

Pure drawing of :class:`~companion.display.snapshot.RollView` values, above the list of moves.
"""

from __future__ import annotations

import pygame

from companion.display.layout import Box, Layout
from companion.display.pieces import (
    MUTED,
    OUTLINE,
    TEXT,
    YELLOW,
    Sprites,
    blit_left,
    fit_size,
)
from companion.display.snapshot import RGB, RollView
from contract.colours import COLOUR_RGB, colour_rgb

#: The words beside a roll for who gave its faces.
SOURCE_WORDS = {"camera": "read by the camera", "companion": "rolled by the companion",
                "panel": "entered on the panel"}
#: Pips of each face on a 3x3 grid, (column, row) in -1..1, as a die shows them.
PIPS: dict[int, tuple[tuple[int, int], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (1, -1), (-1, 1), (1, 1)),
    5: ((-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)),
    6: ((-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)),
}
DIE_FACE: RGB = (246, 244, 236)
PIP_INK: RGB = (24, 24, 28)


def rolls_height(rolls: tuple[RollView, ...], layout: Layout) -> int:
    """How much of the list area's top the rolls take (none without rolls); at most half of it."""
    if not rolls:
        return 0
    return min(layout.list_area.height // 2, len(rolls) * _row_height(layout) + 4)


def draw_rolls(surface: pygame.Surface, rolls: tuple[RollView, ...], layout: Layout,
               cache: Sprites) -> None:
    """Each roll as a label line (with its source) over its dice and total, from the top of
    the list area down, as many as fit in :func:`rolls_height`."""
    area = layout.list_area
    bottom = area.y + rolls_height(rolls, layout)
    row = _row_height(layout)
    y = area.y
    for roll in rolls:
        if y + row > bottom:
            break
        _draw_roll(surface, roll, Box(area.x, y, area.width, row), layout, cache)
        y += row


def die_colours(name: str) -> tuple[RGB, RGB]:
    """The body and pip colours a die the camera named ``name`` is drawn with: white dice
    (and any colour the screen does not know) white with dark pips, dark or coloured dice in
    their colour with white pips."""
    if name in ("", "white", "unknown") or name not in COLOUR_RGB:
        return DIE_FACE, PIP_INK
    return colour_rgb(name), DIE_FACE


def draw_die(surface: pygame.Surface, face: int, box: Box, colour: str = "white") -> None:
    """One die showing ``face``: a rounded square in the die's colour with its pips on a 3x3
    grid."""
    body, ink = die_colours(colour)
    radius = max(2, box.width // 6)
    pygame.draw.rect(surface, body, box, border_radius=radius)
    pygame.draw.rect(surface, OUTLINE, box, width=max(1, box.width // 24), border_radius=radius)
    spacing = box.width * 0.28
    pip = max(2, round(box.width * 0.09))
    centre_x, centre_y = box.center
    for column, line in PIPS[face]:
        pygame.draw.circle(surface, ink, (round(centre_x + column * spacing),
                                              round(centre_y + line * spacing)), pip)


def _row_height(layout: Layout) -> int:
    return layout.text.small + _die_size(layout) + max(4, layout.text.small // 3)


def _die_size(layout: Layout) -> int:
    return max(12, round(layout.text.normal * 1.3))


def _draw_roll(surface: pygame.Surface, roll: RollView, box: Box, layout: Layout,
               cache: Sprites) -> None:
    heading = f"{roll.label} ({SOURCE_WORDS[roll.source]})"
    size = fit_size(cache, heading, layout.text.small, box.width)
    surface.blit(cache.text(heading, size, MUTED), (box.x, box.y))
    die = _die_size(layout)
    top = box.y + layout.text.small
    x = box.x + 4
    names = [*roll.colours, *[""] * len(roll.faces)]
    for face, name in zip(roll.faces, names, strict=False):
        draw_die(surface, face, Box(x, top, die, die), name)
        x += die + die // 4
    words = roll.total_text() if roll.faces else roll.entered
    if words:
        colour = YELLOW if roll.halved else TEXT
        size = fit_size(cache, words, layout.text.normal, box.right - x - 8)
        blit_left(surface, cache.text(words, size, colour), (x + 4, top + die // 2))
