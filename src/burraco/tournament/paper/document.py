"""The common page of every paper: A4, a Unicode font, a header with the event.

The text is set in DejaVu Sans (and DejaVu Sans Mono for the cards), embedded in the PDF:
every letter of the platform's languages prints (Romanian's ș and ț, Slovenian's č), and
so do a name's dashes and quotes ("Torneo d'autunno – girone A").  The fonts are the free
DejaVu fonts of Debian's ``fonts-dejavu-core`` package (:data:`FONT_DIRS`; the directory
``$BURRACO_PDF_FONTS`` first, when set).  On a machine without them the PDF falls back on
the core Helvetica and Courier with the Windows-1252 letters (Italian's accents, the dashes):
any other character is printed as ``?`` rather than refusing the whole document.
"""

from __future__ import annotations

import functools
import importlib.util
import os
from collections.abc import Sequence
from pathlib import Path

import segno
from fpdf import FPDF

MARGIN = 12.0
FONT_ENV = "BURRACO_PDF_FONTS"
FONT_FILES = {"sans": "DejaVuSans.ttf", "sans-bold": "DejaVuSans-Bold.ttf",
              "mono": "DejaVuSansMono.ttf"}
FONT_DIRS = (Path("/usr/share/fonts/truetype/dejavu"),  # Debian: fonts-dejavu-core
             Path("/usr/share/fonts/dejavu"), Path("/usr/share/fonts/TTF"))
CORE_ENCODING = "cp1252"
"""The core fonts' letters (PDF's WinAnsiEncoding): Latin-1, the dashes and the quotes."""


def _candidates() -> list[Path]:
    dirs = [Path(os.environ[FONT_ENV])] if os.environ.get(FONT_ENV) else []
    dirs += FONT_DIRS
    spec = importlib.util.find_spec("matplotlib")  # found, not imported: it ships DejaVu too
    if spec is not None and spec.origin:
        dirs.append(Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf")
    return dirs


@functools.cache
def unicode_fonts() -> dict[str, Path] | None:
    """The DejaVu fonts' files (``sans``, ``sans-bold``, ``mono``), or ``None`` when no
    directory holds all three."""
    for folder in _candidates():
        files = {style: folder / name for style, name in FONT_FILES.items()}
        if all(path.is_file() for path in files.values()):
            return files
    return None


def latin(text: str) -> str:
    """``text`` as the core fonts can print it (a letter they lack becomes ``?``)."""
    return text.encode(CORE_ENCODING, "replace").decode(CORE_ENCODING)


class Paper(FPDF):
    """An A4 document with a running header (the event's name) and page numbers.

    ``sans`` and ``mono`` name the fonts to use (DejaVu, or the core fonts without it).
    """

    def __init__(self, title: str, event: str, *, landscape: bool = False) -> None:
        super().__init__(orientation="L" if landscape else "P", unit="mm", format="A4")
        self.core_fonts_encoding = CORE_ENCODING
        fonts = unicode_fonts()
        if fonts is None:
            self.sans, self.mono = "Helvetica", "Courier"
        else:
            self.sans, self.mono = "DejaVu", "DejaVuMono"
            self.add_font(self.sans, "", fonts["sans"])
            self.add_font(self.sans, "B", fonts["sans-bold"])
            self.add_font(self.mono, "", fonts["mono"])
        self.doc_title = title
        self.event = event
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(True, margin=MARGIN + 4)
        self.set_title(self.doc_title)
        self.set_creator("burraco")

    def normalize_text(self, text: str) -> str:
        """Any text, in the font in use: a core font prints ``?`` for a letter it lacks."""
        return super().normalize_text(text if self.is_ttf_font else latin(text))

    def header(self) -> None:
        self.set_font(self.sans, "B", 9)
        self.set_text_color(90, 90, 90)
        self.cell(0, 5, f"{self.event} - {self.doc_title}", new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(0, 0, 0)
        self.ln(2)

    def footer(self) -> None:
        self.set_y(-MARGIN)
        self.set_font(self.sans, "", 8)
        self.set_text_color(120, 120, 120)
        self.cell(0, 5, str(self.page_no()), align="C")
        self.set_text_color(0, 0, 0)

    def heading(self, text: str, size: float = 16) -> None:
        self.set_font(self.sans, "B", size)
        self.cell(0, size * 0.55, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(2)

    def text_line(self, text: str, size: float = 10, style: str = "") -> None:
        self.set_font(self.sans, style, size)
        self.multi_cell(0, size * 0.45, text, new_x="LMARGIN", new_y="NEXT")

    def grid(self, headers: Sequence[str], rows: Sequence[Sequence[str]],
             widths: Sequence[float], *, size: float = 10, height: float = 7,
             align: Sequence[str] | None = None) -> list[float]:
        """A ruled table; the header row is repeated on every new page. A column is widened to
        its header's words (a language's longer word for "penalty"), taken from the widest;
        the widths used are returned."""
        aligns = list(align) if align else ["L"] * len(headers)
        widths = list(widths)
        self.set_font(self.sans, "B", size)
        for k, h in enumerate(headers):
            need = self.get_string_width(h) + 2 * self.c_margin + 0.5
            if need > widths[k]:
                widest = max(range(len(widths)), key=lambda i: widths[i] if i != k else -1)
                spare = max(0.0, widths[widest] - (need - widths[k]))
                widths[k], widths[widest] = need, spare if spare > 20 else widths[widest]

        def head() -> None:
            self.set_font(self.sans, "B", size)
            self.set_fill_color(230, 230, 230)
            for h, w, a in zip(headers, widths, aligns, strict=True):
                self.cell(w, height, h, border=1, align=a, fill=True)
            self.ln(height)

        head()
        self.set_font(self.sans, "", size)
        for row in rows:
            if self.will_page_break(height):
                self.add_page()
                head()
                self.set_font(self.sans, "", size)
            for cell, w, a in zip(row, widths, aligns, strict=True):
                self.cell(w, height, cell, border=1, align=a)
            self.ln(height)
        return widths

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
