"""Printed mats: PDF page sizes at exact scale, tiles that cover the mat, PNG scale and markers."""

import itertools
import re
import struct
import zlib

import cv2
import numpy as np
import pytest

from calibration import geometry
from calibration.drawing import BLACK, FilledRect, marker_items
from calibration.geometry import coin_isolation_mat
from calibration.pdf import PdfDocument, text_width
from calibration.printing import (
    PAPER_SIZES,
    POINTS_PER_MM,
    TILE_BORDER_MM,
    TILE_OVERLAP_MM,
    MatOutputError,
    mat_pdf,
    tile_layout,
    write_mat,
)
from companion.cli import main

NUMBER = r"(-?[\d.]+)"


def find(pattern, data):
    match = re.search(pattern, data)
    assert match is not None, pattern
    return match.group(1)


def parse_pdf(data: bytes):
    """Pages of a PDF written by calibration.pdf: (media box, content text), checked xref."""
    assert data.startswith(b"%PDF-1.4") and data.rstrip().endswith(b"%%EOF")
    start = int(find(rb"startxref\n(\d+)", data))
    assert data[start:].startswith(b"xref")
    count = int(find(rb"xref\n0 (\d+)", data))
    offsets = re.findall(rb"(\d{10}) 00000 n", data[start:])
    assert len(offsets) == count - 1
    for number, offset in enumerate(offsets, start=1):
        assert data[int(offset):].startswith(f"{number} 0 obj".encode())
    pages = []
    for match in re.finditer(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\].*?/Contents (\d+) 0 R", data):
        content_id = int(match.group(3))
        body = data[int(offsets[content_id - 1]):]
        length = int(find(rb"/Length (\d+)", body))
        stream = body[body.index(b"stream\n") + 7:][:length].decode("ascii")
        pages.append(((float(match.group(1)), float(match.group(2))), stream))
    return pages


def black_cells(stream, page_height, left_mm, top_mm, x0_mm, y0_mm):
    """Black filled rectangles of a page, as (left, top, right, bottom) in mat mm, rounded."""
    cells = set()
    pattern = rf"0 0 0 rg {NUMBER} {NUMBER} {NUMBER} {NUMBER} re f"
    for x, y, width, height in re.findall(pattern, stream):
        x, y, width, height = (float(v) / POINTS_PER_MM for v in (x, y, width, height))
        page_top = page_height / POINTS_PER_MM - (y + height)
        left = x - x0_mm + left_mm
        top = page_top - y0_mm + top_mm
        cells.add(tuple(round(v, 2) for v in (left, top, left + width, top + height)))
    return cells


def expected_cells(mat):
    cells = set()
    for marker in mat.markers:
        for item in marker_items(marker):
            assert isinstance(item, FilledRect) and item.colour == BLACK
            cells.add(tuple(round(v, 2) for v in item.rect.bounds()))
    return cells


@pytest.mark.parametrize("square_mm", [50.0, 37.5])
def test_large_page_is_the_mat_at_exact_scale(square_mm):
    mat = coin_isolation_mat(square_mm)
    pages = parse_pdf(mat_pdf(mat, "large").to_bytes())
    assert len(pages) == 1
    (width, height), stream = pages[0]
    assert width == pytest.approx(mat.width_mm * 72 / 25.4, abs=0.001)
    assert height == pytest.approx(mat.height_mm * 72 / 25.4, abs=0.001)
    assert black_cells(stream, height, 0, 0, 0, 0) == expected_cells(mat)
    assert "(a1) Tj" in stream and "(h8) Tj" in stream and "/F1" in stream


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize(
    "mat", [coin_isolation_mat(), geometry.test_pit_mat()], ids=lambda mat: mat.name
)
def test_tiles_cover_the_mat_with_overlap_and_carry_its_markers(paper, mat):
    layout = tile_layout(mat, paper)
    pages = parse_pdf(mat_pdf(mat, paper).to_bytes())
    assert len(pages) == len(layout.tiles) == layout.rows * layout.columns
    page_mm = sorted(PAPER_SIZES[paper])
    for (width, height), _ in pages:
        assert sorted((width, height)) == pytest.approx([v * POINTS_PER_MM for v in page_mm])
    # Tiles cover the mat in both directions, neighbours overlapping by the overlap.
    columns = sorted({(t.left_mm, t.left_mm + t.width_mm) for t in layout.tiles})
    rows = sorted({(t.top_mm, t.top_mm + t.height_mm) for t in layout.tiles})
    for spans, size in ((columns, mat.width_mm), (rows, mat.height_mm)):
        assert spans[0][0] == 0 and spans[-1][1] >= size
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert end - start == pytest.approx(TILE_OVERLAP_MM)
    # Every marker cell is printed on some page, at the right place in mat coordinates.
    found = set()
    for tile, ((_, page_height), stream) in zip(layout.tiles, pages, strict=True):
        found |= black_cells(stream, page_height, tile.left_mm, tile.top_mm,
                             TILE_BORDER_MM, TILE_BORDER_MM)
        assert f"row {tile.row + 1} of {layout.rows}, column {tile.column + 1}" in stream
    assert found == expected_cells(mat)


def test_a4_layout_of_the_default_mat_is_six_pages():
    layout = tile_layout(coin_isolation_mat(), "a4")
    assert (layout.rows, layout.columns) == (2, 3)


def test_png_is_300_dpi_with_markers_where_the_geometry_says(tmp_path):
    mat = coin_isolation_mat()
    path = tmp_path / "mat.png"
    assert main(["mat", "--game", "coin-isolation", "--out", str(path)]) == 0
    data = path.read_bytes()
    index = data.index(b"pHYs")
    per_metre_x, per_metre_y, unit = struct.unpack(">IIB", data[index + 4 : index + 13])
    assert unit == 1 and per_metre_x == per_metre_y == round(300 / 25.4 * 1000)
    crc = struct.unpack(">I", data[index + 13 : index + 17])[0]
    assert crc == zlib.crc32(data[index : index + 13]) & 0xFFFFFFFF
    image = cv2.imread(str(path))
    scale = 300 / 25.4
    assert image.shape[:2] == (round(mat.height_mm * scale), round(mat.width_mm * scale))
    small = cv2.resize(image, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
    detector = cv2.aruco.ArucoDetector(
        cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), cv2.aruco.DetectorParameters()
    )
    corners, ids, _ = detector.detectMarkers(small)
    assert sorted(ids.ravel()) == [0, 1, 2, 3]
    for marker_id, found in zip(ids.ravel(), corners, strict=True):
        expected = np.array(mat.marker(int(marker_id)).corners()) * scale * 0.25
        assert np.abs(found.reshape(4, 2) - expected).max() < 2.0


def test_cli_writes_tiled_pdf_and_reports_pages(tmp_path, capsys):
    path = tmp_path / "mat.pdf"
    assert main(["mat", "--out", str(path), "--paper", "a4", "--square-mm", "30"]) == 0
    assert "on 4 A4 pages" in capsys.readouterr().out
    assert len(parse_pdf(path.read_bytes())) == 4


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--out", "mat.txt"], "ending in .pdf or .png"),
        (["--game", "chess", "--out", "mat.pdf"], "no mat for game 'chess'"),
        (["--square-mm", "5", "--out", "mat.pdf"], "out of range"),
        (["--out", "/nonexistent-dir/mat.pdf"], "cannot write"),
    ],
)
def test_cli_errors_are_one_line_and_exit_2(arguments, message, capsys):
    assert main(["mat", *arguments]) == 2
    error = capsys.readouterr().err
    assert message in error and error.count("\n") == 1


def test_write_mat_refuses_unknown_paper(tmp_path):
    with pytest.raises(MatOutputError, match="unknown paper 'a3'"):
        write_mat(coin_isolation_mat(), tmp_path / "mat.pdf", paper="a3")


def test_pdf_text_is_escaped_and_measured():
    document = PdfDocument(title="t")
    page = document.add_page(100, 100)
    page.text(10, 10, 12, "a (b) \\ c", (0, 0, 0))
    assert "(a \\(b\\) \\\\ c) Tj" in page.content().decode()
    assert text_width("ii", 10) == pytest.approx(4.44)
    assert len(parse_pdf(document.to_bytes())) == 1
