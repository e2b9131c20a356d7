"""Print-ready mats: a PDF at exact scale, on one large page or tiled over A4 or Letter, or a PNG.

The PDF is drawn from :func:`calibration.drawing.mat_items` with 1 mm = 72 / 25.4 points. Tiled
pages each show a share of the mat inside a white border, with overlap between neighbours, crop
marks where a page's border is cut off, alignment lines where the next page's cut edge goes, and
a label. ``calibration/MATS.md`` tells the user how to assemble them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from calibration.drawing import (
    FilledCircle,
    FilledRect,
    Item,
    Line,
    Text,
    mat_items,
)
from calibration.geometry import MatGeometry
from calibration.pdf import PdfDocument, PdfPage
from contract.errors import CompanionError

POINTS_PER_MM = 72 / 25.4
Paper = Literal["large", "a4", "letter"]
#: Page sizes (width, height) in millimetres, portrait.
PAPER_SIZES: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
#: Unprinted white border around each tile, and overlap between neighbouring tiles, in mm.
TILE_BORDER_MM = 10.0
TILE_OVERLAP_MM = 10.0
MARK_COLOUR = (0, 0, 0)


class MatOutputError(CompanionError):
    """A mat that cannot be written: unknown paper, unknown file type, unwritable path."""


@dataclass(frozen=True)
class Tile:
    """One page of a tiled mat: its place in the grid and the mat rectangle it shows (mm)."""

    row: int
    column: int
    left_mm: float
    top_mm: float
    width_mm: float
    height_mm: float


@dataclass(frozen=True)
class TileLayout:
    """How a mat is split over pages: page size, grid, and the tiles row by row."""

    page_mm: tuple[float, float]
    rows: int
    columns: int
    step_mm: tuple[float, float]
    tiles: tuple[Tile, ...]


def tile_layout(geometry: MatGeometry, paper: str) -> TileLayout:
    """Tiles covering the mat on ``paper`` pages, portrait or landscape, whichever needs fewer."""
    if paper not in PAPER_SIZES:
        raise MatOutputError(f"unknown paper {paper!r}; use large, a4 or letter")
    width, height = PAPER_SIZES[paper]
    layouts = [_layout(geometry, (width, height)), _layout(geometry, (height, width))]
    return min(
        layouts, key=lambda layout: (len(layout.tiles), layout.page_mm[0] > layout.page_mm[1])
    )


def _layout(geometry: MatGeometry, page_mm: tuple[float, float]) -> TileLayout:
    printable_w = page_mm[0] - 2 * TILE_BORDER_MM
    printable_h = page_mm[1] - 2 * TILE_BORDER_MM
    step_w, step_h = printable_w - TILE_OVERLAP_MM, printable_h - TILE_OVERLAP_MM
    columns = max(1, math.ceil((geometry.width_mm - TILE_OVERLAP_MM) / step_w))
    rows = max(1, math.ceil((geometry.height_mm - TILE_OVERLAP_MM) / step_h))
    tiles = tuple(
        Tile(row, column, column * step_w, row * step_h, printable_w, printable_h)
        for row in range(rows)
        for column in range(columns)
    )
    return TileLayout(page_mm, rows, columns, (step_w, step_h), tiles)


class _Placement:
    """Maps mat millimetres onto a page: mat point (left, top) lands at page point (x0, y0) mm
    from the page's top-left corner."""

    def __init__(self, page: PdfPage, left_mm: float, top_mm: float, x0_mm: float, y0_mm: float):
        self.page, self.left, self.top, self.x0, self.y0 = page, left_mm, top_mm, x0_mm, y0_mm

    def x(self, mat_x: float) -> float:
        return (mat_x - self.left + self.x0) * POINTS_PER_MM

    def y(self, mat_y: float) -> float:
        return self.page.height_pt - (mat_y - self.top + self.y0) * POINTS_PER_MM

    def draw(self, item: Item) -> None:
        page, k = self.page, POINTS_PER_MM
        if isinstance(item, FilledRect):
            left, top, right, bottom = item.rect.bounds()
            page.fill_rect(self.x(left), self.y(bottom), (right - left) * k, (bottom - top) * k,
                           item.colour)
        elif isinstance(item, FilledCircle):
            x, y = item.circle.centre
            page.fill_circle(self.x(x), self.y(y), item.circle.radius * k, item.colour)
        elif isinstance(item, Line):
            page.line(self.x(item.start[0]), self.y(item.start[1]), self.x(item.end[0]),
                      self.y(item.end[1]), item.width_mm * k, item.colour)
        elif isinstance(item, Text):
            # Helvetica's capital height is 0.718 em; the mat gives text by its capital height.
            page.text(self.x(item.anchor[0]), self.y(item.anchor[1]), item.height_mm / 0.718 * k,
                      item.text, item.colour, item.align)


def mat_pdf(geometry: MatGeometry, paper: str = "large") -> PdfDocument:
    """The mat as a PDF document at exact scale on ``paper`` (large, a4, letter)."""
    items = mat_items(geometry)
    document = PdfDocument(title=f"{geometry.name} mat")
    if paper == "large":
        page = document.add_page(geometry.width_mm * POINTS_PER_MM,
                                 geometry.height_mm * POINTS_PER_MM)
        placement = _Placement(page, 0.0, 0.0, 0.0, 0.0)
        for item in items:
            placement.draw(item)
        return document
    layout = tile_layout(geometry, paper)
    for tile in layout.tiles:
        page = document.add_page(layout.page_mm[0] * POINTS_PER_MM,
                                 layout.page_mm[1] * POINTS_PER_MM)
        _draw_tile(page, geometry, layout, tile, items)
    return document


def _draw_tile(page: PdfPage, geometry: MatGeometry, layout: TileLayout, tile: Tile,
               items: list[Item]) -> None:
    k = POINTS_PER_MM
    border = TILE_BORDER_MM
    placement = _Placement(page, tile.left_mm, tile.top_mm, border, border)
    shown_w = min(tile.width_mm, geometry.width_mm - tile.left_mm)
    shown_h = min(tile.height_mm, geometry.height_mm - tile.top_mm)
    page.push_clip(border * k, page.height_pt - (border + shown_h) * k, shown_w * k, shown_h * k)
    for item in items:
        placement.draw(item)
    page.pop_clip()
    _tile_marks(page, layout, tile, shown_w, shown_h)
    label = (
        f"{geometry.name} mat, {geometry.width_mm:g} x {geometry.height_mm:g} mm - page "
        f"{tile.row * layout.columns + tile.column + 1} of {len(layout.tiles)}: row "
        f"{tile.row + 1} of {layout.rows}, column {tile.column + 1} of {layout.columns} - "
        "print at 100 % (actual size)"
    )
    page.text(border * k, 6.0 * k, 7.0, label, (90, 90, 90))


def _tile_marks(page: PdfPage, layout: TileLayout, tile: Tile, shown_w: float,
                shown_h: float) -> None:
    """Crop marks on the edges to cut, alignment lines where neighbours' cut edges go."""
    k, border = POINTS_PER_MM, TILE_BORDER_MM
    height = page.height_pt

    def page_point(x_mm: float, y_mm: float) -> tuple[float, float]:
        return x_mm * k, height - y_mm * k

    left, top = border, border
    right, bottom = border + shown_w, border + shown_h
    if tile.column > 0:  # cut the left border off along this edge
        for y0, y1 in ((top - 8.0, top - 2.0), (bottom + 2.0, bottom + 8.0)):
            x, a = page_point(left, y0)
            _, b = page_point(left, y1)
            page.line(x, a, x, b, 0.5, MARK_COLOUR)
        page.text(*page_point(left + 1.0, top - 3.5), 6.0, "cut", MARK_COLOUR)
    if tile.row > 0:  # cut the top border off along this edge
        for x0, x1 in ((left - 8.0, left - 2.0), (right + 2.0, right + 8.0)):
            a, y = page_point(x0, top)
            b, _ = page_point(x1, top)
            page.line(a, y, b, y, 0.5, MARK_COLOUR)
    if tile.column < layout.columns - 1:  # the next page's cut edge lies on this line
        x_mm = border + layout.step_mm[0]
        start, end = page_point(x_mm, top - 8.0), page_point(x_mm, bottom + 8.0)
        page.line(start[0], start[1], end[0], end[1], 0.3, MARK_COLOUR, dash=2.0)
        page.text(*page_point(x_mm + 1.0, bottom + 6.0), 6.0,
                  f"align page {tile.row * layout.columns + tile.column + 2} here", MARK_COLOUR)
    if tile.row < layout.rows - 1:
        y_mm = border + layout.step_mm[1]
        start, end = page_point(left - 8.0, y_mm), page_point(right + 8.0, y_mm)
        page.line(start[0], start[1], end[0], end[1], 0.3, MARK_COLOUR, dash=2.0)

def write_mat(geometry: MatGeometry, path: Path, paper: str = "large", dpi: float = 300.0) -> str:
    """Write the mat to ``path`` (.pdf or .png); returns a sentence saying what was written."""
    suffix = path.suffix.lower()
    size = f"{geometry.width_mm:g} x {geometry.height_mm:g} mm"
    try:
        if suffix == ".pdf":
            if paper != "large" and paper not in PAPER_SIZES:
                raise MatOutputError(f"unknown paper {paper!r}; use large, a4 or letter")
            document = mat_pdf(geometry, paper)
            path.write_bytes(document.to_bytes())
            pages = len(document.pages)
            paper_name = {"a4": "A4", "letter": "Letter"}.get(paper, paper)
            where = "one page" if paper == "large" else f"{pages} {paper_name} pages"
            return f"wrote {path}: {geometry.name} mat, {size}, on {where}; print at 100 %"
        if suffix == ".png":
            from calibration.mats import write_png

            width, height = write_png(geometry, path, dpi)
            pixels = f"{width} x {height} pixels at {dpi:g} dpi"
            return f"wrote {path}: {geometry.name} mat, {size}, {pixels}"
    except OSError as error:
        raise MatOutputError(f"cannot write {str(path)!r}: {error.strerror or error}") from None
    raise MatOutputError(f"cannot write {str(path)!r}: give a file name ending in .pdf or .png")
