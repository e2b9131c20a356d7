"""Where everything sits on the side screen, for a given window size: pure arithmetic, no drawing.

The renderer draws into these boxes and the tests look inside them, so both agree on where the
board, each square, the score rows, the message bar and the camera view are. Squares are always
square, and every box lies inside the window whatever its size.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cached_property
from typing import NamedTuple

from companion.display.snapshot import MatView, parse_square, square_name


class Box(NamedTuple):
    """A rectangle in window pixels; any pygame call that takes a rect accepts it as it is."""

    x: int
    y: int
    width: int
    height: int

    @property
    def right(self) -> int:
        """The first column to the right of the box."""
        return self.x + self.width

    @property
    def bottom(self) -> int:
        """The first row below the box."""
        return self.y + self.height

    @property
    def center(self) -> tuple[int, int]:
        """The middle pixel."""
        return self.x + self.width // 2, self.y + self.height // 2

    def inset(self, amount: int) -> Box:
        """The box shrunk by ``amount`` pixels on every side (never below zero size)."""
        return Box(
            self.x + amount,
            self.y + amount,
            max(0, self.width - 2 * amount),
            max(0, self.height - 2 * amount),
        )

    def contains(self, other: Box) -> bool:
        """Whether ``other`` lies wholly inside this box."""
        return (
            self.x <= other.x
            and self.y <= other.y
            and other.right <= self.right
            and other.bottom <= self.bottom
        )


@dataclass(frozen=True)
class TextSizes:
    """Font sizes for ``pygame.font.Font(None, size)``, derived from the window height."""

    small: int
    normal: int
    large: int
    huge: int


@dataclass(frozen=True)
class Layout:
    """The boxes of one window size and board shape; see :func:`compute_layout`."""

    size: tuple[int, int]
    files: int
    ranks: int
    cell: int
    board: Box
    rank_labels: Box
    file_labels: Box
    panel: Box
    header: Box
    turn: Box
    score_header: Box
    score_rows: tuple[Box, ...]
    list_area: Box
    camera: Box
    message_bar: Box
    text: TextSizes
    regions: tuple[tuple[str, Box], ...] = ()
    round_regions: frozenset[str] = frozenset()
    loose_regions: frozenset[str] = frozenset()
    arrows: tuple[tuple[str, tuple[tuple[int, int], ...]], ...] = ()
    notes: tuple[tuple[str, tuple[int, int]], ...] = ()

    @property
    def window(self) -> Box:
        """The whole window."""
        return Box(0, 0, *self.size)

    def square_at(self, file_index: int, rank_index: int) -> Box:
        """The box of the square at 0-based file and rank; rank 0 is at the bottom (South)."""
        return Box(
            self.board.x + file_index * self.cell,
            self.board.bottom - (rank_index + 1) * self.cell,
            self.cell,
            self.cell,
        )

    def score_columns(self, row: Box) -> tuple[Box, Box, Box]:
        """A score row split into its name, score and coins-taken columns."""
        name_width = row.width * 40 // 100
        score_width = row.width * 22 // 100
        return (
            Box(row.x, row.y, name_width, row.height),
            Box(row.x + name_width, row.y, score_width, row.height),
            Box(row.x + name_width + score_width, row.y,
                row.width - name_width - score_width, row.height),
        )

    def square(self, name: str) -> Box:
        """The box of a named square (``"a1"`` is bottom left)."""
        box = self._square_boxes.get(name)
        return box if box is not None else self.square_at(*parse_square(name, self.files,
                                                                         self.ranks))

    def squares(self) -> dict[str, Box]:
        """Every square's box by name."""
        return dict(self._square_boxes)

    @cached_property
    def _square_boxes(self) -> dict[str, Box]:
        if self.regions:
            return dict(self.regions)
        return {
            square_name(f, r): self.square_at(f, r)
            for r in range(self.ranks)
            for f in range(self.files)
        }


#: Share of the window width the board may take at most, leaving room for the side panel.
BOARD_WIDTH_SHARE = 0.58
#: Shortest and longest window side the layout is computed for; smaller windows are clamped.
MINIMUM_SIZE = (320, 200)


def compute_layout(
    size: tuple[int, int], files: int = 8, ranks: int = 8, players: int = 2,
    mat: MatView | None = None,
) -> Layout:
    """The layout for a window of ``size`` pixels, a board of ``files`` x ``ranks`` squares (or
    the regions of ``mat``, scaled to fit) and ``players`` score rows: the board on the left, the
    side panel on the right, the message bar along the bottom, the camera view in the panel's
    bottom right corner."""
    if mat is not None:
        return _mat_layout(compute_layout(size, files, ranks, players), mat)
    width, height = max(size[0], MINIMUM_SIZE[0]), max(size[1], MINIMUM_SIZE[1])
    margin = max(4, round(height * 0.02))
    bar_height = round(height * 0.12)
    message_bar = Box(margin, height - margin - bar_height, width - 2 * margin, bar_height)
    top, area_height = margin, message_bar.y - 2 * margin
    gutter = round(height * 0.035)
    cell = max(
        1,
        min(
            (area_height - gutter) // ranks,
            (int(width * BOARD_WIDTH_SHARE) - margin - gutter) // files,
        ),
    )
    board_top = top + max(0, (area_height - gutter - cell * ranks) // 2)
    board = Box(margin + gutter, board_top, cell * files, cell * ranks)
    panel_x = board.right + 2 * margin
    panel = Box(panel_x, top, max(0, width - margin - panel_x), area_height)
    header, turn, score_header, score_rows, list_area, camera = _panel_boxes(
        panel, height, max(1, players)
    )
    return Layout(
        size=(width, height),
        files=files,
        ranks=ranks,
        cell=cell,
        board=board,
        rank_labels=Box(margin, board.y, gutter, board.height),
        file_labels=Box(board.x, board.bottom, board.width, gutter),
        panel=panel,
        header=header,
        turn=turn,
        score_header=score_header,
        score_rows=score_rows,
        list_area=list_area,
        camera=camera,
        message_bar=message_bar,
        text=TextSizes(
            small=max(10, round(height / 34)),
            normal=max(12, round(height / 24)),
            large=max(14, round(height / 17)),
            huge=max(16, round(height / 11)),
        ),
    )


def _panel_boxes(
    panel: Box, height: int, players: int
) -> tuple[Box, Box, Box, tuple[Box, ...], Box, Box]:
    """Header, turn, score header, score rows, list area and camera, top to bottom in the panel."""
    gap = max(2, round(height * 0.015))
    x, width = panel.x, panel.width
    header = Box(x, panel.y, width, round(height * 0.09))
    turn = Box(x, header.bottom + gap, width, round(height * 0.085))
    score_header = Box(x, turn.bottom + gap, width, round(height * 0.04))
    row_height = round(height * 0.06)
    rows = tuple(
        Box(x, score_header.bottom + index * row_height, width, row_height)
        for index in range(players)
    )
    rest_top = rows[-1].bottom + gap
    rest_height = max(0, panel.bottom - rest_top)
    camera_height = min(rest_height, round(height * 0.30))
    camera_width = min(round(camera_height * 16 / 9), width * 3 // 5)
    camera_height = min(camera_height, camera_width * 9 // 16)
    camera = Box(panel.right - camera_width, panel.bottom - camera_height, camera_width,
                 camera_height)
    list_area = Box(x, rest_top, max(0, camera.x - gap - x), rest_height)
    return header, turn, score_header, rows, list_area, camera


def _mat_layout(grid: Layout, mat: MatView) -> Layout:
    """``grid``'s layout with its board replaced by ``mat``'s regions, scaled to fit the
    board's area and centred in it; ``cell`` is the smallest region's side."""
    area = grid.board
    scale = min(area.width / mat.width_mm, area.height / mat.height_mm)
    width, height = round(mat.width_mm * scale), round(mat.height_mm * scale)
    board = Box(area.x + (area.width - width) // 2, area.y + (area.height - height) // 2,
                width, height)
    boxes = tuple(
        (region.name, Box(board.x + round(region.x_mm * scale),
                          board.y + round(region.y_mm * scale),
                          max(1, round(region.width_mm * scale)),
                          max(1, round(region.height_mm * scale))))
        for region in mat.regions)
    cell = min((min(box.width, box.height) for _, box in boxes), default=grid.cell)

    def at(x_mm: float, y_mm: float) -> tuple[int, int]:
        return board.x + round(x_mm * scale), board.y + round(y_mm * scale)

    arrows = tuple((arrow.kind, tuple(at(*point) for point in arrow.points))
                   for arrow in mat.arrows)
    notes = tuple((note.text, at(note.x_mm, note.y_mm)) for note in mat.notes)
    return replace(grid, board=board, cell=cell, regions=boxes,
                   loose_regions=mat.loose_regions(), arrows=arrows, notes=notes,
                   round_regions=frozenset(region.name for region in mat.regions if region.round),
                   rank_labels=Box(grid.rank_labels.x, board.y, grid.rank_labels.width, height),
                   file_labels=Box(board.x, board.bottom, width, grid.file_labels.height))
