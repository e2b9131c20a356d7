"""Drawing a :class:`Snapshot` onto a pygame surface, into the boxes a :class:`Layout` gives.

Pure drawing: nothing here decides anything about the game. The board's pieces are drawn by
:mod:`companion.display.pieces`; this module composes them with the side panel, the camera view
and the message bar. A :class:`RenderCache` keeps the board background, the whole static picture
of the last snapshot and the last scaled camera frame, so a frame at 60 per second costs at most
one blit plus the camera view, and nothing at all when nothing changed.
"""

from __future__ import annotations

import math
from collections.abc import Iterable

import cv2
import numpy as np
import numpy.typing as npt
import pygame

from companion.display.layout import Box, Layout
from companion.display.pieces import (
    BACKGROUND,
    BLACK,
    BLUISH_GREEN,
    DARK_SQUARE,
    LIGHT_SQUARE,
    MUTED,
    OUTLINE,
    PANEL,
    PANEL_HIGHLIGHT,
    PATH_COLOUR,
    SEVERITY_STYLE,
    SKY_BLUE,
    TEXT,
    WHITE,
    YELLOW,
    Sprites,
    blit_centred,
    blit_left,
    coin_radius,
    display_format,
    draw_coin,
    draw_height_badge,
    draw_path_line,
    draw_path_steps,
    draw_pawn,
    draw_placement,
    draw_problem,
    draw_stack,
    draw_target,
    score_text,
)
from companion.display.snapshot import RGB, CameraView, Message, PlayerView, Snapshot, parse_square


class RenderCache(Sprites):
    """Sprites plus the board background, the last static picture and the last camera frame.

    One per window; not shared between threads (the screen draws in its own thread only).
    """

    def __init__(self) -> None:
        super().__init__()
        self._board: tuple[tuple[object, ...], pygame.Surface, Box] | None = None
        self._static: tuple[tuple[object, ...], pygame.Surface] | None = None
        self._static_version = 0
        self._camera: tuple[tuple[object, ...], pygame.Surface, Box] | None = None
        self._shown: tuple[pygame.Surface, int] | None = None

    def board(self, layout: Layout) -> tuple[pygame.Surface, Box]:
        """The empty board with its coordinates and where it goes, drawn once per layout."""
        key = (layout.size, layout.files, layout.ranks)
        if self._board is None or self._board[0] != key:
            frame = max(2, layout.cell // 20)
            area = Box(layout.rank_labels.x, layout.board.y - frame,
                       layout.board.right + frame - layout.rank_labels.x,
                       layout.file_labels.bottom - layout.board.y + frame)
            full = pygame.Surface(layout.size)
            full.fill(BACKGROUND)
            _draw_board(full, layout, self)
            self._board = (key, display_format(full.subsurface(area).copy()), area)
        return self._board[1], self._board[2]

    @property
    def static_version(self) -> int:
        """Counts the static pictures drawn, so a window knows whether it shows the latest."""
        return self._static_version

    def static(self, snapshot: Snapshot, layout: Layout) -> pygame.Surface:
        """Everything but the camera image, drawn once per distinct snapshot and layout."""
        key = (snapshot, snapshot.camera is None, layout)
        if self._static is None or self._static[0] != key:
            surface = self._static[1] if self._static is not None else None
            if surface is None or surface.get_size() != layout.size:
                surface = _new_surface(layout.size)
            surface.fill(BACKGROUND)
            board, area = self.board(layout)
            surface.blit(board, area[:2])
            draw_static(surface, snapshot, layout, self)
            self._static = (key, surface)
            self._static_version += 1
        return self._static[1]

    def shown_on(self, surface: pygame.Surface) -> int | None:
        """Which static picture was last blitted whole onto ``surface``, if it was the target."""
        if self._shown is not None and self._shown[0] is surface:
            return self._shown[1]
        return None

    def remember_shown(self, surface: pygame.Surface) -> None:
        """Note that ``surface`` now shows the latest static picture in full."""
        self._shown = (surface, self._static_version)

    def forget_shown(self) -> None:
        """Forget what the window shows, so the next incremental draw redraws it all."""
        self._shown = None

    def camera_is_current(self, view: CameraView, box: Box) -> bool:
        """Whether ``view`` is the camera frame last scaled for ``box`` (and so last drawn)."""
        return self._camera is not None and self._camera[0] == _camera_key(view, box)

    def camera(self, view: CameraView, box: Box) -> tuple[pygame.Surface, Box]:
        """The camera image scaled to fit ``box`` (once per new frame) and where it goes."""
        key = _camera_key(view, box)
        if self._camera is None or self._camera[0] != key:
            height, width = view.image.shape[:2]
            scale = min(box.width / width, box.height / height)
            size = (max(1, round(width * scale)), max(1, round(height * scale)))
            # Area averaging only pays for strong shrinking; bilinear is sharp enough above half.
            method = cv2.INTER_AREA if scale < 0.5 else cv2.INTER_LINEAR
            scaled = np.ascontiguousarray(cv2.resize(view.image, size, interpolation=method))
            surface = display_format(pygame.image.frombuffer(scaled.tobytes(), size, "BGR"))
            place = Box(box.x + (box.width - size[0]) // 2, box.y + (box.height - size[1]) // 2,
                        *size)
            self._camera = (key, surface, place)
        return self._camera[1], self._camera[2]


def _camera_key(view: CameraView, box: Box) -> tuple[object, ...]:
    return (id(view.image), view.frame_number, box)


def draw(
    surface: pygame.Surface,
    snapshot: Snapshot,
    layout: Layout,
    cache: RenderCache | None = None,
    incremental: bool = False,
) -> list[Box]:
    """Draw the whole screen for ``snapshot``; pass the same ``cache`` every frame for speed.

    With ``incremental``, when ``surface`` still shows this cache's last static picture, only a
    new camera frame is drawn: for a window surface nothing else draws on, as the Screen's.
    Returns the areas that changed: the whole window, the camera view, or none.
    """
    cache = cache or RenderCache()
    static = cache.static(snapshot, layout)
    camera = snapshot.camera
    if incremental and cache.shown_on(surface) == cache.static_version:
        if camera is None or cache.camera_is_current(camera, layout.camera):
            return []
        area = layout.camera.inset(-3)
        surface.blit(static, area[:2], area)
        draw_camera(surface, camera, layout, cache)
        return [area]
    surface.blit(static, (0, 0))
    cache.remember_shown(surface)
    if camera is not None:
        draw_camera(surface, camera, layout, cache)
    return [layout.window]


def draw_static(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: RenderCache
) -> None:
    """Everything that changes only with the snapshot, onto a surface holding the empty board."""
    _draw_pieces(surface, snapshot, layout, cache)
    if snapshot.result is not None:
        _draw_result_banner(surface, snapshot.result, layout, cache)
    _draw_header(surface, snapshot, layout, cache)
    _draw_turn(surface, snapshot, layout, cache)
    _draw_scores(surface, snapshot, layout, cache)
    _draw_list(surface, snapshot, layout, cache)
    _draw_camera_frame(surface, snapshot.camera is not None, layout, cache)
    _draw_message(surface, snapshot.message, layout, cache)


# The board ------------------------------------------------------------------------------------


def _draw_board(surface: pygame.Surface, layout: Layout, cache: RenderCache) -> None:
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


def _draw_pieces(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: RenderCache
) -> None:
    """Coins, then highlights, stack badges, the path's line, pawns and the path's step numbers,
    so that nothing important hides another."""
    for square, stack in snapshot.stacks:
        draw_stack(surface, stack, layout.square(square), cache)
    for square in snapshot.targets:
        draw_target(surface, layout.square(square))
    for square in snapshot.problems:
        draw_problem(surface, layout.square(square))
    for square, stack in snapshot.stacks:
        if len(stack) > 1:
            draw_height_badge(surface, len(stack), layout.square(square), cache)
    path = [layout.square(s) for s in snapshot.path.squares] if snapshot.path else []
    draw_path_line(surface, path, layout.cell)
    for player in snapshot.players:
        if player.pawn is not None:
            box = layout.square(player.pawn)
            draw_pawn(surface, player, box.center, layout.cell, cache)
    draw_path_steps(surface, path, layout.cell, cache)
    for square in snapshot.path.placements if snapshot.path else ():
        draw_placement(surface, layout.square(square), cache)


def _draw_result_banner(
    surface: pygame.Surface, result: str, layout: Layout, cache: RenderCache
) -> None:
    board = layout.board
    band = Box(board.x, board.center[1] - layout.cell, board.width, layout.cell * 2)
    shade = pygame.Surface((band.width, band.height), pygame.SRCALPHA)
    shade.fill((10, 12, 16, 215))
    surface.blit(shade, band[:2])
    title = cache.text("GAME OVER", layout.text.normal, YELLOW)
    size = _fit_size(cache, result, layout.text.large, band.width - 20)
    line = cache.text(result, size, WHITE)
    blit_centred(surface, title, (band.center[0], band.y + band.height * 3 // 10))
    blit_centred(surface, line, (band.center[0], band.y + band.height * 67 // 100))


# The side panel -------------------------------------------------------------------------------


def _draw_header(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: RenderCache
) -> None:
    box = layout.header
    title_size = _fit_size(cache, snapshot.title, layout.text.large, box.width)
    surface.blit(cache.text(snapshot.title, title_size, TEXT), (box.x, box.y))
    detail = snapshot.game + ("  ·  " + ", ".join(snapshot.variants) if snapshot.variants else "")
    detail_size = _fit_size(cache, detail, layout.text.small, box.width)
    line = cache.text(detail, detail_size, MUTED)
    surface.blit(line, (box.x, box.bottom - line.get_height()))


def _draw_turn(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: RenderCache
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
    size = _fit_size(cache, words, layout.text.large, box.right - text_x - 10)
    blit_left(surface, cache.text(words, size, WHITE), (text_x, box.center[1]))


def _draw_scores(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: RenderCache
) -> None:
    headings = ("Player", "Score", snapshot.seat_heading)
    for heading, column in zip(headings, layout.score_columns(layout.score_header), strict=True):
        label = cache.text(heading, layout.text.small, MUTED)
        blit_left(surface, label, (column.x + 8, column.center[1]))
    for player, row in zip(snapshot.players, layout.score_rows, strict=False):
        draw_score_row(surface, player, player.number == snapshot.to_move, row, layout, cache)


def draw_score_row(
    surface: pygame.Surface, player: PlayerView, to_move: bool, row: Box, layout: Layout,
    cache: RenderCache,
) -> None:
    """One player's row: pawn and name, score in dollars and cents, the coins taken."""
    name_box, score_box, taken_box = layout.score_columns(row)
    pygame.draw.rect(surface, PANEL_HIGHLIGHT if to_move else PANEL, row.inset(2),
                     border_radius=row.height // 6)
    draw_pawn(surface, player, (row.x + row.height // 2 + 4, row.center[1]), row.height, cache)
    name_x = row.x + row.height + 10
    size = _fit_size(cache, player.name, score_font_size(layout), name_box.right - name_x - 4)
    blit_left(surface, cache.text(player.name, size, TEXT), (name_x, row.center[1]))
    score = cache.text(score_text(player.score_cents), score_font_size(layout), WHITE)
    blit_left(surface, score, (score_box.x + 8, row.center[1]))
    draw_taken(surface, player.taken, taken_box.inset(4), cache)


def score_font_size(layout: Layout) -> int:
    """The font size of names and scores in the score rows."""
    return max(10, layout.score_rows[0].height * 4 // 5)


def draw_taken(surface: pygame.Surface, taken: str, box: Box, cache: RenderCache) -> None:
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


def _draw_list(
    surface: pygame.Surface, snapshot: Snapshot, layout: Layout, cache: RenderCache
) -> None:
    """The path's label, then the candidates being asked about (scrolled so the selected one
    shows) or else the last moves, newest at the bottom."""
    box = layout.list_area
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
        heading = "Which move was it?"
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
    size = _fit_size(cache, heading, layout.text.small, box.width)
    surface.blit(cache.text(heading, size, MUTED), (box.x, box.y))
    y = top
    for text, colour, fill in lines:
        if y + line_height > box.bottom:
            break
        if fill is not None:
            pygame.draw.rect(surface, fill, Box(box.x, y, box.width, line_height - 2),
                             border_radius=line_height // 5)
        size = _fit_size(cache, text, layout.text.normal, box.width - 16)
        blit_left(surface, cache.text(text, size, colour), (box.x + 8, y + line_height // 2))
        y += line_height


def candidate_window(count: int, rows: int, selected: int | None) -> int:
    """The first candidate to list when only ``rows`` fit: the selected one stays in view."""
    if count <= rows or selected is None or rows <= 0:
        return 0
    return min(max(0, selected - rows // 2), count - rows)


def _draw_camera_frame(
    surface: pygame.Surface, live: bool, layout: Layout, cache: RenderCache
) -> None:
    box = layout.camera
    pygame.draw.rect(surface, OUTLINE, box.inset(-3))
    if not live:
        pygame.draw.rect(surface, PANEL, box)
        blit_centred(surface, cache.text("No camera", layout.text.small, MUTED), box.center)


def draw_camera(
    surface: pygame.Surface, view: CameraView, layout: Layout, cache: RenderCache
) -> None:
    """The live camera image fitted into its box, with the mat's square grid drawn over it."""
    image, place = cache.camera(view, layout.camera)
    surface.blit(image, place[:2])
    if view.grid_corners is None:
        return
    scale = place.width / view.image.shape[1]
    corners = np.array(
        [[place.x + x * scale, place.y + y * scale] for x, y in view.grid_corners], np.float32
    )
    for start, end, outer in _grid_lines(corners, layout.files, layout.ranks):
        pygame.draw.line(surface, YELLOW if outer else SKY_BLUE, start, end, 2 if outer else 1)


def _grid_lines(
    corners: npt.NDArray[np.float32], files: int, ranks: int
) -> Iterable[tuple[tuple[float, float], tuple[float, float], bool]]:
    """Grid line end points in window pixels, through the homography of the unit square."""
    unit = np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32)
    homography = cv2.getPerspectiveTransform(unit, corners)
    ends = []
    for index in range(files + 1):
        ends.append(((index / files, 0.0), (index / files, 1.0), index in (0, files)))
    for index in range(ranks + 1):
        ends.append(((0.0, index / ranks), (1.0, index / ranks), index in (0, ranks)))
    points = np.array([[start, end] for start, end, _ in ends], np.float32).reshape(-1, 1, 2)
    mapped = cv2.perspectiveTransform(points, homography).reshape(-1, 2, 2)
    for (start, end), (_, _, outer) in zip(mapped.tolist(), ends, strict=True):
        yield (start[0], start[1]), (end[0], end[1]), outer


def _draw_message(
    surface: pygame.Surface, message: Message | None, layout: Layout, cache: RenderCache
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
    lines, size = _wrap(cache, message.text, layout.text.large, text_box)
    line_height = cache.font(size).get_linesize()
    y = text_box.center[1] - line_height * len(lines) // 2
    for line in lines:
        surface.blit(cache.text(line, size, ink), (text_box.x, y))
        y += line_height


def draw_severity_icon(
    surface: pygame.Surface, severity: str, centre: tuple[int, int], radius: int, ink: RGB,
    fill: RGB, cache: RenderCache,
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


# Helpers --------------------------------------------------------------------------------------


def _wrap(cache: RenderCache, text: str, size: int, box: Box) -> tuple[list[str], int]:
    """Break text into at most two lines that fit the box, shrinking the font when needed."""
    while True:
        font = cache.font(size)
        lines: list[str] = []
        for word in text.split():
            if lines and font.size(f"{lines[-1]} {word}")[0] <= box.width:
                lines[-1] = f"{lines[-1]} {word}"
            else:
                lines.append(word)
        fits = len(lines) <= 2 and font.get_linesize() * len(lines) <= box.height
        if fits or size <= 12:
            break
        size = max(12, size * 9 // 10)
    if len(lines) > 2:  # still too long at the smallest size: end the second line with "..."
        words = " ".join(lines[1:]).split()
        while len(words) > 1 and font.size(" ".join(words) + "...")[0] > box.width:
            words.pop()
        lines = [lines[0], " ".join(words) + "..."]
    return lines, size


def _fit_size(cache: RenderCache, text: str, size: int, width: int) -> int:
    """The largest font size up to ``size`` at which ``text`` fits in ``width`` pixels."""
    measured = cache.font(size).size(text)[0]
    if measured > width:  # text width grows about in proportion to the size: jump, then step
        size = max(10, size * width // max(1, measured))
        while size > 10 and cache.font(size).size(text)[0] > width:
            size -= 1
    return size


def _new_surface(size: tuple[int, int]) -> pygame.Surface:
    return display_format(pygame.Surface(size))
