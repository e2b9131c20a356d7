"""Drawing a :class:`Snapshot` onto a pygame surface, into the boxes a :class:`Layout` gives.

Pure drawing: nothing here decides anything about the game. The board is drawn by
:mod:`companion.display.board_drawing` and the side panel by
:mod:`companion.display.side_panel`; this module composes them with the live camera view. A
:class:`RenderCache` keeps the board background, the whole static picture of the last snapshot
and the last scaled camera frame, so a frame at 60 per second costs at most one blit plus the
camera view, and nothing at all when nothing changed.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import cv2
import numpy as np
import numpy.typing as npt
import pygame

from companion.display.board_drawing import (
    draw_board_background,
    draw_pieces,
    draw_result_banner,
)
from companion.display.dice_drawing import draw_rolls, rolls_height
from companion.display.layout import Box, Layout
from companion.display.pieces import (
    BACKGROUND,
    SKY_BLUE,
    YELLOW,
    Sprites,
    display_format,
)
from companion.display.side_panel import (
    draw_camera_frame,
    draw_header,
    draw_list,
    draw_message,
    draw_scores,
    draw_turn,
)
from companion.display.snapshot import CameraView, Snapshot


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
        key = (layout.size, layout.files, layout.ranks, layout.regions)
        if self._board is None or self._board[0] != key:
            frame = max(2, layout.cell // 20)
            area = Box(layout.rank_labels.x, layout.board.y - frame,
                       layout.board.right + frame - layout.rank_labels.x,
                       layout.file_labels.bottom - layout.board.y + frame)
            full = pygame.Surface(layout.size)
            full.fill(BACKGROUND)
            draw_board_background(full, layout, self)
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
    draw_pieces(surface, snapshot, layout, cache)
    if snapshot.result is not None:
        draw_result_banner(surface, snapshot.result, layout, cache)
    draw_header(surface, snapshot, layout, cache)
    draw_turn(surface, snapshot, layout, cache)
    draw_scores(surface, snapshot, layout, cache)
    used = rolls_height(snapshot.rolls, layout)
    if used:
        draw_rolls(surface, snapshot.rolls, layout, cache)
        area = layout.list_area
        layout = replace(layout, list_area=Box(area.x, area.y + used, area.width,
                                               area.height - used))
    draw_list(surface, snapshot, layout, cache)
    draw_camera_frame(surface, snapshot.camera is not None, layout, cache)
    draw_message(surface, snapshot.message, layout, cache)


def draw_camera(
    surface: pygame.Surface, view: CameraView, layout: Layout, cache: RenderCache
) -> None:
    """The live camera image fitted into its box, with the mat's square grid drawn over it (on
    a mat of another shape, a ring or pits, only the play area's outline)."""
    image, place = cache.camera(view, layout.camera)
    surface.blit(image, place[:2])
    if view.grid_corners is None:
        return
    scale = place.width / view.image.shape[1]
    corners = np.array(
        [[place.x + x * scale, place.y + y * scale] for x, y in view.grid_corners], np.float32
    )
    files, ranks = (1, 1) if layout.regions else (layout.files, layout.ranks)
    for start, end, outer in _grid_lines(corners, files, ranks):
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


def _new_surface(size: tuple[int, int]) -> pygame.Surface:
    return display_format(pygame.Surface(size))
