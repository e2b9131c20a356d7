"""The board pictures of the review page: the side screen's own drawing
(:func:`companion.display.screen.render_surface`, the one ``companion replay --out`` saves),
rendered off-screen and cut to the board with its coordinates, as JPEG bytes.

The side screen's drawing is reused rather than a new SVG drawing so that the review shows
every game's board (square grids, Shakala's pits, the Jokers and Coins ring, stacks and dice
colours) exactly as the players saw it at the table, with no second drawing to keep in step.
"""

from __future__ import annotations

import io
import os
from dataclasses import replace

from companion.record.replay import GameTimeline

#: The off-screen screen size the boards are cut from, and the width of a saved picture.
SCREEN_SIZE = (1120, 630)
PICTURE_WIDTH = 360


def board_picture(timeline: GameTimeline, index: int, move: str | None) -> bytes:
    """The board before step ``index`` of ``timeline`` (0 is the start), with ``move`` (the
    move about to be played, if any) drawn as a path, as JPEG bytes (a third of the PNG's size,
    which matters on a page of forty boards)."""
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from companion.cli.replay import snapshot_at
    from companion.display.layout import Box, compute_layout
    from companion.display.screen import render_surface
    from companion.display.snapshot import PathView

    snapshot = snapshot_at(timeline, index)
    path = None
    if move:
        regions = timeline.game.parse_move(move).regions()
        path = PathView(tuple(regions), move) if regions else None
    snapshot = replace(snapshot, path=path)
    surface = render_surface(snapshot, SCREEN_SIZE)
    layout = compute_layout(SCREEN_SIZE, snapshot.files, snapshot.ranks,
                            max(1, len(snapshot.players)), snapshot.mat)
    frame = max(2, layout.cell // 20)
    area = Box(layout.rank_labels.x, layout.board.y - frame,
               layout.board.right + frame - layout.rank_labels.x,
               layout.file_labels.bottom - layout.board.y + frame)
    board = surface.subsurface(pygame.Rect(area).clip(surface.get_rect()))
    height = round(board.get_height() * PICTURE_WIDTH / board.get_width())
    picture = pygame.transform.smoothscale(board, (PICTURE_WIDTH, max(1, height)))
    buffer = io.BytesIO()
    pygame.image.save(picture, buffer, "board.jpg")
    return buffer.getvalue()
