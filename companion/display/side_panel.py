"""The side panel of the screen: the title, whose turn it is, the scores with what each seat
has taken, the list of candidate or last moves, the camera's frame and the message bar."""

from __future__ import annotations

import math

import pygame

from companion.display.layout import Box, Layout
from companion.display.pieces import (
    BLACK,
    BLUISH_GREEN,
    MUTED,
    OUTLINE,
    PANEL,
    PANEL_HIGHLIGHT,
    PATH_COLOUR,
    SEVERITY_STYLE,
    TEXT,
    WHITE,
    Sprites,
    blit_centred,
    blit_left,
    coin_radius,
    draw_coin,
    draw_pawn,
    fit_size,
    score_text,
    wrap_text,
)
from companion.display.snapshot import RGB, Message, PlayerView, Snapshot


def draw_header(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: Sprites
) -> None:
    box = layout.header
    title_size = fit_size(cache, snapshot.title, layout.text.large, box.width)
    surface.blit(cache.text(snapshot.title, title_size, TEXT), (box.x, box.y))
    detail = snapshot.game + ("  ·  " + ", ".join(snapshot.variants) if snapshot.variants else "")
    detail_size = fit_size(cache, detail, layout.text.small, box.width)
    line = cache.text(detail, detail_size, MUTED)
    surface.blit(line, (box.x, box.bottom - line.get_height()))


def draw_turn(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: Sprites
) -> None:
    box = layout.turn
    player = None if snapshot.to_move is None else snapshot.player(snapshot.to_move)
    if snapshot.result is not None:
        fill, words = BLUISH_GREEN, snapshot.result
    elif player is not None:
        fill, words = PANEL_HIGHLIGHT, f"{player.name} to move"
    else:
        fill, words = PANEL, "Setting up"
    pygame.draw.rect(surface, fill, box, border_radius=box.height // 5)
    text_x = box.x + box.height // 4
    if player is not None and snapshot.result is None:
        pygame.draw.rect(surface, player.colour, Box(box.x, box.y, box.height // 6, box.height),
                         border_top_left_radius=box.height // 5,
                         border_bottom_left_radius=box.height // 5)
        draw_pawn(surface, player, (box.x + box.height * 3 // 4, box.center[1]),
                  box.height, cache)
        text_x = box.x + box.height * 3 // 2
    size = fit_size(cache, words, layout.text.large, box.right - text_x - 10)
    blit_left(surface, cache.text(words, size, WHITE), (text_x, box.center[1]))


def draw_scores(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: Sprites
) -> None:
    headings = ("Player", "Score", snapshot.seat_heading)
    for heading, column in zip(headings, layout.score_columns(layout.score_header), strict=True):
        label = cache.text(heading, layout.text.small, MUTED)
        blit_left(surface, label, (column.x + 8, column.center[1]))
    for player, row in zip(snapshot.players, layout.score_rows, strict=False):
        draw_score_row(surface, player, player.number == snapshot.to_move, row, layout, cache,
                       snapshot.score_unit)


def draw_score_row(
    surface: pygame.Surface, player: PlayerView, to_move: bool, row: Box, layout: Layout,
    cache: Sprites, score_unit: str = "¢",
) -> None:
    """One player's row: pawn and name, the score (cents as dollars and cents, other units as
    they are), the coins taken or the seat's note."""
    name_box, score_box, taken_box = layout.score_columns(row)
    pygame.draw.rect(surface, PANEL_HIGHLIGHT if to_move else PANEL, row.inset(2),
                     border_radius=row.height // 6)
    draw_pawn(surface, player, (row.x + row.height // 2 + 4, row.center[1]), row.height, cache)
    name_x = row.x + row.height + 10
    size = fit_size(cache, player.name, score_font_size(layout), name_box.right - name_x - 4)
    blit_left(surface, cache.text(player.name, size, TEXT), (name_x, row.center[1]))
    score = cache.text(score_text(player.score_cents, score_unit), score_font_size(layout), WHITE)
    blit_left(surface, score, (score_box.x + 8, row.center[1]))
    if player.taken or not player.note:
        draw_taken(surface, player.taken, taken_box.inset(4), cache)
        return
    size = fit_size(cache, player.note, layout.text.small, taken_box.width - 8)
    blit_left(surface, cache.text(player.note, size, TEXT), (taken_box.x + 8, row.center[1]))


def score_font_size(layout: Layout) -> int:
    """The font size of names and scores in the score rows."""
    return max(10, layout.score_rows[0].height * 4 // 5)


def draw_taken(surface: pygame.Surface, taken: str, box: Box, cache: Sprites) -> None:
    """Coins taken as small true-size coins in a row, with a count when they do not all fit."""
    cell = box.height
    x = box.x + 4
    shown = 0
    for letter in taken:
        radius = coin_radius(letter, cell)
        if x + 2 * radius > box.right - cell:
            break
        draw_coin(surface, letter, (x + radius, box.center[1]), radius, cache, lettered=False)
        x += 2 * radius - radius // 3
        shown += 1
    if shown < len(taken):
        label = cache.text(f"+{len(taken) - shown}", max(10, cell * 3 // 4), MUTED)
        blit_left(surface, label, (x + 6, box.center[1]))


def draw_list(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: Sprites
) -> None:
    """The game's facts, the path's label, then the candidates being asked about (scrolled so
    the selected one shows) or else the last moves, newest at the bottom."""
    box = draw_facts(surface, snapshot.facts, layout.list_area, layout, cache)
    line_height = round(layout.text.normal * 0.95)
    top = box.y + round(layout.text.small * 0.9)
    lines: list[tuple[str, RGB, RGB | None]] = []
    if snapshot.path is not None and snapshot.path.label:
        lines.append((snapshot.path.label, PATH_COLOUR, None))
    rows = max(0, (box.bottom - top) // line_height - len(lines))
    count = len(snapshot.candidates)
    if count:
        first = candidate_window(count, rows, snapshot.selected)
        shown = range(first, min(count, first + rows))
        heading = snapshot.candidates_heading
        if count > rows and rows:
            heading += f"  ({shown.start + 1}-{shown.stop} of {count})"
        for index in shown:
            chosen = index == snapshot.selected
            lines.append((f"{index + 1}.  {snapshot.candidates[index]}",
                          BLACK if chosen else TEXT, PATH_COLOUR if chosen else None))
    else:
        heading = "Last moves"
        moves = snapshot.last_moves[-rows:] if rows else ()
        lines += [(move, TEXT if i == len(moves) - 1 else MUTED, None)
                  for i, move in enumerate(moves)]
    size = fit_size(cache, heading, layout.text.small, box.width)
    surface.blit(cache.text(heading, size, MUTED), (box.x, box.y))
    y = top
    for text, colour, fill in lines:
        if y + line_height > box.bottom:
            break
        if fill is not None:
            pygame.draw.rect(surface, fill, Box(box.x, y, box.width, line_height - 2),
                             border_radius=line_height // 5)
        size = fit_size(cache, text, layout.text.normal, box.width - 16)
        blit_left(surface, cache.text(text, size, colour), (box.x + 8, y + line_height // 2))
        y += line_height


def draw_facts(surface: pygame.Surface, facts: tuple[str, ...], box: Box, layout: Layout,
               cache: Sprites) -> Box:
    """The game's lines about the table, each shrunk to fit its width, leaving room for the
    heading and three moves of the list below; returns the rest of ``box`` below them."""
    if not facts:
        return box
    line_height = round(layout.text.small * 1.05)
    room = box.height - round(layout.text.small * 0.9) - 3 * round(layout.text.normal * 0.95)
    shown = facts[:max(1, room // line_height)]
    y = box.y
    for text in shown:
        size = fit_size(cache, text, layout.text.small, box.width)
        surface.blit(cache.text(text, size, TEXT), (box.x, y))
        y += line_height
    used = y - box.y + line_height // 2
    return Box(box.x, box.y + used, box.width, max(0, box.height - used))


def candidate_window(count: int, rows: int, selected: int | None) -> int:
    """The first candidate to list when only ``rows`` fit: the selected one stays in view."""
    if count <= rows or selected is None or rows <= 0:
        return 0
    return min(max(0, selected - rows // 2), count - rows)


def draw_camera_frame(
    surface: pygame.Surface, live: bool, layout: Layout, cache: Sprites
) -> None:
    box = layout.camera
    pygame.draw.rect(surface, OUTLINE, box.inset(-3))
    if not live:
        pygame.draw.rect(surface, PANEL, box)
        blit_centred(surface, cache.text("No camera", layout.text.small, MUTED), box.center)


def draw_message(
    surface: pygame.Surface, message: Message | None, layout: Layout, cache: Sprites
) -> None:
    box = layout.message_bar
    if message is None or not message.text:
        pygame.draw.rect(surface, PANEL, box, border_radius=box.height // 6)
        return
    fill, ink, word = SEVERITY_STYLE[message.severity]
    pygame.draw.rect(surface, fill, box, border_radius=box.height // 6)
    icon_centre = (box.x + box.height // 2 + 6, box.y + box.height * 2 // 5)
    draw_severity_icon(surface, message.severity, icon_centre, box.height * 3 // 10, ink, fill,
                       cache)
    label = cache.text(word, max(10, box.height // 5), ink)
    blit_centred(surface, label, (icon_centre[0], box.y + box.height * 85 // 100))
    text_box = Box(box.x + box.height + 18, box.y, box.width - box.height - 30, box.height)
    lines, size = wrap_text(cache, message.text, layout.text.large, text_box)
    line_height = cache.font(size).get_linesize()
    y = text_box.center[1] - line_height * len(lines) // 2
    for line in lines:
        surface.blit(cache.text(line, size, ink), (text_box.x, y))
        y += line_height


def draw_severity_icon(
    surface: pygame.Surface, severity: str, centre: tuple[int, int], radius: int, ink: RGB,
    fill: RGB, cache: Sprites,
) -> None:
    """An icon whose shape tells the severity: a circled i, a triangle with !, an octagon with x."""
    x, y = centre
    points: list[tuple[float, float]]
    if severity == "warning":
        points = [(x, y - radius), (x + radius, y + radius * 4 // 5),
                  (x - radius, y + radius * 4 // 5)]
        pygame.draw.polygon(surface, ink, points)
        mark, mark_y = "!", y + radius // 6
    elif severity == "error":
        points = [(x + radius * math.cos(math.pi / 8 + k * math.pi / 4),
                   y + radius * math.sin(math.pi / 8 + k * math.pi / 4)) for k in range(8)]
        pygame.draw.polygon(surface, ink, points)
        mark, mark_y = "X", y
    else:
        pygame.draw.circle(surface, ink, centre, radius)
        mark, mark_y = "i", y
    blit_centred(surface, cache.text(mark, max(10, radius * 3 // 2), fill), (x, mark_y))
