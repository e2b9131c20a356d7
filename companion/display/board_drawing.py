"""The board part of the side screen: the empty grid with its coordinates (or a mat's regions
and track arrows), then what lies on it (stacks, loose coins counted per kind, pawns,
highlights, the path of a move, the last move's route) and the game-over banner over it."""

from __future__ import annotations

import pygame

from companion.display.layout import Box, Layout
from companion.display.mat_drawing import draw_count_badge, draw_loose, draw_route, draw_tracks
from companion.display.pieces import (
    DARK_SQUARE,
    LIGHT_SQUARE,
    MUTED,
    OUTLINE,
    WHITE,
    YELLOW,
    Sprites,
    blit_centred,
    draw_height_badge,
    draw_path_line,
    draw_path_steps,
    draw_pawn,
    draw_placement,
    draw_problem,
    draw_stack,
    draw_target,
    fit_size,
)
from companion.display.snapshot import Snapshot, parse_square


def draw_board_background(surface: pygame.Surface, layout: Layout, cache: Sprites) -> None:
    """The empty board: a grid with its coordinates, or a mat's regions with their names."""
    if layout.regions:
        _draw_regions(surface, layout, cache)
        draw_tracks(surface, layout, cache)
        return
    pygame.draw.rect(surface, OUTLINE, layout.board.inset(-max(2, layout.cell // 20)))
    for name, box in layout.squares().items():
        file_index, rank_index = parse_square(name, layout.files, layout.ranks)
        light = (file_index + rank_index) % 2 == 1
        pygame.draw.rect(surface, LIGHT_SQUARE if light else DARK_SQUARE, box)
    size = layout.text.small
    for file_index in range(layout.files):
        label = cache.text(chr(ord("a") + file_index), size, MUTED)
        column = layout.square_at(file_index, 0)
        blit_centred(surface, label, (column.center[0], layout.file_labels.center[1]))
    for rank_index in range(layout.ranks):
        label = cache.text(str(rank_index + 1), size, MUTED)
        row = layout.square_at(0, rank_index)
        blit_centred(surface, label, (layout.rank_labels.center[0], row.center[1]))


def _draw_regions(surface: pygame.Surface, layout: Layout, cache: Sprites) -> None:
    """A mat of any shape: each region outlined, round ones as circles, then named."""
    border = max(1, layout.cell // 25)
    for name, box in layout.regions:
        if name in layout.round_regions:
            radius = min(box.width, box.height) // 2
            pygame.draw.circle(surface, OUTLINE, box.center, radius + border)
            pygame.draw.circle(surface, LIGHT_SQUARE, box.center, radius)
        else:
            pygame.draw.rect(surface, OUTLINE, box.inset(-border))
            pygame.draw.rect(surface, LIGHT_SQUARE, box)
    _name_regions(surface, layout, cache)


def _name_regions(surface: pygame.Surface, layout: Layout, cache: Sprites) -> None:
    """Each region's name where :func:`region_name_places` puts it."""
    for name, where in region_name_places(layout, cache):
        surface.blit(cache.text(name, layout.text.small, MUTED), where)


def region_name_places(layout: Layout, cache: Sprites) -> list[tuple[str, pygame.Rect]]:
    """Where each region's name is printed: at the bottom of its box where it fits. A name
    wider than its region (a ring's small track spaces) is left out when it would cover
    another region or name, so a crowded mat stays legible."""
    boxes = [pygame.Rect(box) for _, box in layout.regions]
    placed: list[tuple[str, pygame.Rect]] = []
    for index, (name, box) in enumerate(layout.regions):
        label = cache.text(name, layout.text.small, MUTED)
        where = label.get_rect(center=(box.center[0], box.bottom - label.get_height() // 2))
        if label.get_width() > box.width:
            others = boxes[:index] + boxes[index + 1:]
            if (where.collidelist(others) != -1
                    or where.collidelist([rect for _, rect in placed]) != -1):
                continue
        placed.append((name, where))
    return placed


def draw_pieces(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: Sprites
) -> None:
    """Coins, then highlights, stack badges, the path's line, pawns and the path's step numbers,
    so that nothing important hides another."""
    loose = layout.loose_regions
    for square, stack in snapshot.stacks:
        if square in loose:
            draw_loose(surface, stack, layout.square(square), cache)
            draw_count_badge(surface, len(stack), layout.square(square), cache)
        else:
            draw_stack(surface, stack, layout.square(square), cache)
    for square in snapshot.targets:
        draw_target(surface, layout.square(square))
    draw_route(surface, [layout.square(region) for region in snapshot.last_path], cache)
    for square in snapshot.problems:
        draw_problem(surface, layout.square(square))
    for square, stack in snapshot.stacks:
        if len(stack) > 1 and square not in loose:
            draw_height_badge(surface, len(stack), layout.square(square), cache)
    path = [layout.square(s) for s in snapshot.path.squares] if snapshot.path else []
    draw_path_line(surface, path, layout.cell)
    for player in snapshot.players:
        if player.pawn is not None:
            box = layout.square(player.pawn)
            draw_pawn(surface, player, box.center, layout.cell, cache)
    for square, seat in snapshot.tokens:
        owner = snapshot.player(seat)
        if owner is not None and square != owner.pawn:
            draw_pawn(surface, owner, layout.square(square).center, layout.cell, cache)
    draw_path_steps(surface, path, layout.cell, cache)
    for square in snapshot.path.placements if snapshot.path else ():
        draw_placement(surface, layout.square(square), cache)


def draw_result_banner(
    surface: pygame.Surface, result: str, layout: Layout, cache: Sprites
) -> None:
    board = layout.board
    band = Box(board.x, board.center[1] - layout.cell, board.width, layout.cell * 2)
    shade = pygame.Surface((band.width, band.height), pygame.SRCALPHA)
    shade.fill((10, 12, 16, 215))
    surface.blit(shade, band[:2])
    title = cache.text("GAME OVER", layout.text.normal, YELLOW)
    size = fit_size(cache, result, layout.text.large, band.width - 20)
    line = cache.text(result, size, WHITE)
    blit_centred(surface, title, (band.center[0], band.y + band.height * 3 // 10))
    blit_centred(surface, line, (band.center[0], band.y + band.height * 67 // 100))
