"""The common page of every paper: A4, the core Helvetica font, a header with the event.

The core fonts hold Latin-1 only (Italian's accents included): any other character of
a name is printed as ``?`` rather than refusing the whole document.
"""

from __future__ import annotations

from collections.abc import Sequence

import segno
from fpdf import FPDF

MARGIN = 12.0


def latin(text: str) -> str:
    return text.encode("latin-1", "replace").decode("latin-1")


class Paper(FPDF):
    """An A4 document with a running header (the event's name) and page numbers."""

    def __init__(self, title: str, event: str, *, landscape: bool = False) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.doc_title = latin(title)
        self.event = latin(event)
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(True, margin=MARGIN + 4)
        self.set_title(self.doc_title)
        self.set_creator("burraco")

    def header(self) -> None:
        self.set_font("Helvetica", "B", 9)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, f"{self.event} - {self.doc_title}", new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(0, 0, 0)
        self.ln(2)

    def footer(self) -> None:
        self.set_y(-MARGIN)
        self.set_font("Helvetica", "", 8)
        self.set_text_color(120, 120, 120)
        self.cell(0, 5, str(self.page_no()), align="C")
        self.set_text_color(0, 0, 0)

    def heading(self, text: str, size: float = 16) -> None:
        self.set_font("Helvetica", "B", size)
        self.cell(0, size * 0.55, latin(text), new_x="LMARGIN", new_y="NEXT")
        self.ln(2)

    def text_line(self, text: str, size: float = 10, style: str = "") -> None:
        self.set_font("Helvetica", style, size)
        self.multi_cell(0, size * 0.45, latin(text), new_x="LMARGIN", new_y="NEXT")

    def grid(self, headers: Sequence[str], rows: Sequence[Sequence[str]],
             widths: Sequence[float], *, size: float = 10, height: float = 7,
             align: Sequence[str] | None = None) -> None:
        """A ruled table; the header row is repeated on every new page."""
        aligns = list(align) if align else ["L"] * len(headers)

        def head() -> None:
            self.set_font("Helvetica", "B", size)
            self.set_fill_color(230, 230, 230)
            for h, w, a in zip(headers, widths, aligns, strict=True):
                self.cell(w, height, latin(h), border=1, align=a, fill=True)
            self.ln(height)

        head()
        self.set_font("Helvetica", "", size)
        for row in rows:
            if self.will_page_break(height):
                self.add_page()
                head()
                self.set_font("Helvetica", "", size)
            for cell, w, a in zip(row, widths, aligns, strict=True):
                self.cell(w, height, latin(cell), border=1, align=a)
            self.ln(height)

    def qr(self, data: str, x: float, y: float, size: float) -> None:
        """A QR code drawn as vector squares (crisp at any printer resolution, and quick:
        each row's dark run is one rectangle)."""
        matrix = [list(row) for row in segno.make(data, error="m").matrix]
        border = 2
        modules = len(matrix) + 2 * border
        unit = size / modules
        self.set_fill_color(0, 0, 0)
        for r, row in enumerate(matrix):
            c = 0
            while c < len(row):
                if not row[c]:
                    c += 1
                    continue
                start = c
                while c < len(row) and row[c]:
                    c += 1
                self.rect(x + (border + start) * unit, y + (border + r) * unit,
                          (c - start) * unit, unit, style="F")

    def bytes(self) -> bytes:
        return bytes(self.output())
