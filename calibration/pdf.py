"""A very small vector PDF writer: pages in points, filled shapes, lines, clipping, text.

Enough to print mats at exact scale without a dependency: filled rectangles and circles (four
Bézier arcs), stroked lines, a rectangular clip, and text in Helvetica (one of the 14 fonts every
PDF reader has, so nothing is embedded). Coordinates are PDF points (1/72 inch) with the origin
at the bottom-left of the page, as the PDF format has them. Content streams are left
uncompressed: mats are small and the files stay readable.
"""

from __future__ import annotations

from dataclasses import dataclass, field

Rgb = tuple[int, int, int]

#: Bézier handle length for a quarter circle of radius 1.
_KAPPA = 0.5522847498

#: Advance widths of Helvetica (WinAnsiEncoding) for characters 32..126, in 1/1000 em.
_HELVETICA_WIDTHS = (
    278, 278, 355, 556, 556, 889, 667, 191, 333, 333, 389, 584, 278, 333, 278, 278,
    556, 556, 556, 556, 556, 556, 556, 556, 556, 556, 278, 278, 584, 584, 584, 556,
    1015, 667, 667, 722, 722, 667, 611, 778, 722, 278, 500, 667, 556, 833, 722, 778,
    667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611, 278, 278, 278, 469, 556,
    333, 556, 556, 500, 556, 556, 278, 556, 556, 222, 222, 500, 222, 833, 556, 556,
    556, 556, 333, 500, 278, 556, 500, 722, 500, 500, 500, 334, 260, 334, 584,
)  # fmt: skip


def text_width(text: str, size: float) -> float:
    """Width in points of ``text`` set in Helvetica at ``size`` points."""
    total = 0
    for character in text:
        code = ord(character)
        total += _HELVETICA_WIDTHS[code - 32] if 32 <= code <= 126 else 556
    return total * size / 1000


def _number(value: float) -> str:
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _escape(text: str) -> str:
    ascii_text = "".join(c if 32 <= ord(c) <= 126 else "?" for c in text)
    return ascii_text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _colour(rgb: Rgb, operator: str) -> str:
    return " ".join(_number(channel / 255) for channel in rgb) + f" {operator}"


@dataclass
class PdfPage:
    """One page being drawn; every method appends operators to its content stream."""

    width_pt: float
    height_pt: float
    operations: list[str] = field(default_factory=list)

    def fill_rect(self, x: float, y: float, width: float, height: float, rgb: Rgb) -> None:
        """A filled rectangle with its bottom-left corner at (x, y)."""
        self.operations.append(
            f"{_colour(rgb, 'rg')} {_number(x)} {_number(y)} {_number(width)} "
            f"{_number(height)} re f"
        )

    def fill_circle(self, x: float, y: float, radius: float, rgb: Rgb) -> None:
        """A filled circle centred at (x, y)."""
        handle = radius * _KAPPA
        curves = (
            ((x + radius, y + handle), (x + handle, y + radius), (x, y + radius)),
            ((x - handle, y + radius), (x - radius, y + handle), (x - radius, y)),
            ((x - radius, y - handle), (x - handle, y - radius), (x, y - radius)),
            ((x + handle, y - radius), (x + radius, y - handle), (x + radius, y)),
        )
        path = [f"{_number(x + radius)} {_number(y)} m"]
        for curve in curves:
            path.append(" ".join(f"{_number(px)} {_number(py)}" for px, py in curve) + " c")
        self.operations.append(f"{_colour(rgb, 'rg')} {' '.join(path)} f")

    def line(self, x1: float, y1: float, x2: float, y2: float, width: float, rgb: Rgb,
             dash: float = 0.0) -> None:
        """A straight stroke; ``dash`` > 0 draws it dashed with that dash length."""
        pattern = f"[{_number(dash)} {_number(dash)}] 0 d" if dash > 0 else "[] 0 d"
        self.operations.append(
            f"{_colour(rgb, 'RG')} {_number(width)} w {pattern} 0 J "
            f"{_number(x1)} {_number(y1)} m {_number(x2)} {_number(y2)} l S"
        )

    def text(self, x: float, y: float, size: float, text: str, rgb: Rgb,
             align: str = "left") -> None:
        """Helvetica text on the baseline at y; ``align`` "left" or "centre" about x."""
        if align == "centre":
            x -= text_width(text, size) / 2
        self.operations.append(
            f"BT {_colour(rgb, 'rg')} /F1 {_number(size)} Tf {_number(x)} {_number(y)} Td "
            f"({_escape(text)}) Tj ET"
        )

    def push_clip(self, x: float, y: float, width: float, height: float) -> None:
        """Clip everything drawn until :meth:`pop_clip` to a rectangle."""
        self.operations.append(
            f"q {_number(x)} {_number(y)} {_number(width)} {_number(height)} re W n"
        )

    def pop_clip(self) -> None:
        self.operations.append("Q")

    def content(self) -> bytes:
        return ("\n".join(self.operations) + "\n").encode("ascii")


@dataclass
class PdfDocument:
    """Pages in order; :meth:`to_bytes` writes a complete PDF 1.4 file."""

    title: str = ""
    pages: list[PdfPage] = field(default_factory=list)

    def add_page(self, width_pt: float, height_pt: float) -> PdfPage:
        page = PdfPage(width_pt, height_pt)
        self.pages.append(page)
        return page

    def to_bytes(self) -> bytes:
        """The file: catalog, page tree, font, info, then each page and its content stream."""
        objects: list[bytes] = []
        page_ids = [5 + 2 * index for index in range(len(self.pages))]
        kids = " ".join(f"{page_id} 0 R" for page_id in page_ids)
        objects.append(b"<< /Type /Catalog /Pages 2 0 R >>")
        objects.append(f"<< /Type /Pages /Kids [{kids}] /Count {len(self.pages)} >>".encode())
        objects.append(
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
        )
        objects.append(f"<< /Title ({_escape(self.title)}) /Producer (coin-table-companion) >>"
                       .encode())
        for page, page_id in zip(self.pages, page_ids, strict=True):
            box = f"[0 0 {_number(page.width_pt)} {_number(page.height_pt)}]"
            objects.append(
                f"<< /Type /Page /Parent 2 0 R /MediaBox {box} "
                f"/Resources << /Font << /F1 3 0 R >> >> /Contents {page_id + 1} 0 R >>".encode()
            )
            stream = page.content()
            objects.append(
                f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"endstream"
            )
        output = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
        offsets = []
        for number, body in enumerate(objects, start=1):
            offsets.append(len(output))
            output += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
        xref = len(output)
        output += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
        for offset in offsets:
            output += f"{offset:010d} 00000 n \n".encode()
        output += (
            f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info 4 0 R >>\n"
            f"startxref\n{xref}\n%%EOF\n"
        ).encode()
        return bytes(output)
