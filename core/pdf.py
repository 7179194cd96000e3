"""Paper: what every PDF of the project shares (reportlab). The font (DejaVu Sans, shipped in core/fonts/ with its
licence), the page sizes (80 mm receipt roll, A4), money as printed, a text cut to its width, the receipt page
(buy-in and payout receipts), the sheet grid (seat cards and bag slips: one a page on the roll, a grid with cut lines
on A4) and the A4 list pages (the day's report, the results, league standings: striped rows over pages, the page
numbers at the foot).

What each printout draws of its own stays with it: tournament/selectors/receipts.py and payouts/selectors/receipts.py
(the receipts' lines, the signature), tables/selectors/seat_cards.py (a card), web/days/pdf.py (a bag slip, the day's
report), payouts/selectors/reports.py (the results), web/leagues/pdf.py (the standings). Times in the active time zone,
words and money in the active language."""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from django.utils import formats, timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.lib.colors import Color
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from core.money import format_money

__all__ = [
    "A4",
    "FONT_PATHS",
    "HEAD_OTHER",
    "MARGIN",
    "PAGE_H",
    "PAGE_W",
    "ROLL_WIDTH",
    "ROW",
    "SHEET_MARGIN",
    "SIZE",
    "STRIPE",
    "ListPages",
    "ReceiptPage",
    "fit",
    "money",
    "pdf_font",
    "sheet_pdf",
    "when",
]

# The font shipped with the code first (core/fonts/, with its licence), so Czech and Slovak names print right on any
# machine; the system's copy only if the shipped file is missing.
FONT_PATHS = (str(Path(__file__).resolve().parent / "fonts" / "DejaVuSans.ttf"), "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")

PAGE_W, PAGE_H = A4
ROLL_WIDTH = 80 * mm  # the receipt printer's paper
SHEET_MARGIN = 8 * mm  # around the grid of cards or slips on A4

# The A4 lists (ListPages)
MARGIN = 15 * mm
SIZE = 9  # points
ROW = 13  # points a row takes
STRIPE = Color(0.93, 0.93, 0.93)
HEAD_OTHER = 10 * mm  # the line atop every page after the first


def pdf_font() -> str:
    """The font the PDFs are written in: DejaVu Sans (embedded as a subset: every Czech and Slovak letter),
    or Helvetica when no copy can be read."""
    for path in FONT_PATHS:
        try:
            if "DejaVu" not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont("DejaVu", path))
            return "DejaVu"
        except Exception:
            continue
    return "Helvetica"  # no Unicode font on this machine: accents may not print


def money(amount: int, currency: str) -> str:
    """Minor units to a display amount in the active language: "CZK 1,100", "1 100 Kč" (core/money.py)."""
    return format_money(amount, currency, get_language())


def when(value) -> str:
    """A moment in the active time zone and language ("" for none)."""
    return formats.date_format(timezone.localtime(value), "DATETIME_FORMAT") if value else ""


def fit(text: str, font: str, size: float, width: float) -> str:
    """The text cut (with an ellipsis) to fit the width: the longest start that fits, by halving."""
    text = str(text)
    if len(text) * size <= width or stringWidth(text, font, size) <= width:  # no glyph is wider than 1 em
        return text
    fits, too_long = 0, len(text)
    while too_long - fits > 1:
        middle = (fits + too_long) // 2
        if stringWidth(text[:middle] + "…", font, size) <= width:
            fits = middle
        else:
            too_long = middle
    return text[:fits] + "…"


class ReceiptPage:
    """One receipt page, 80 mm roll or A4: the heading, a VOID stamp when voided, the lines; then what the
    kind of receipt adds below them (text rows, the payout's signature)."""

    def __init__(self, title: str, heading: str, lines: list[tuple[str, str]], paper: str, voided: bool, extra_mm: int = 30):
        self.font = pdf_font()
        self.buffer = io.BytesIO()
        if paper == "a4":
            self.width, height = A4
            self.margin, self.size = 20 * mm, 11
        else:
            self.width, self.margin, self.size = ROLL_WIDTH, 4 * mm, 9
            height = (extra_mm + 6 * len(lines) + (8 if voided else 0)) * mm
        self.c = c = canvas.Canvas(self.buffer, pagesize=(self.width, height))
        c.setTitle(title)
        size, margin = self.size, self.margin
        self.y = height - margin - size
        c.setFont(self.font, size + 3)
        c.drawString(margin, self.y, heading)
        self.y -= size + 8
        if voided:
            c.setFont(self.font, size + 6)
            c.drawCentredString(self.width / 2, self.y, _("VOID"))
            self.y -= size + 10
        for label, value in lines:
            c.setFont(self.font, size)
            c.drawString(margin, self.y, f"{label}:")
            c.drawRightString(self.width - margin, self.y, str(value)[:60])
            self.y -= size + 5
        self.y -= size

    @property
    def inner_width(self) -> float:
        return self.width - 2 * self.margin

    def small_text(self, text: str) -> None:
        self.c.setFont(self.font, self.size - 1)
        for row in simpleSplit(text, self.font, self.size - 1, self.inner_width):
            self.c.drawString(self.margin, self.y, row)
            self.y -= self.size + 2

    def finish(self) -> bytes:
        self.c.showPage()
        self.c.save()
        return self.buffer.getvalue()


def sheet_pdf(
    title: str,
    items: Sequence,
    paper: str,
    *,
    roll_height: float,
    columns: int,
    lines: int,
    draw: Callable[[canvas.Canvas, Any, float, float, float, float], None],
    initial_font: bool = False,
) -> bytes:
    """Cards or slips: on 80 mm roll paper one a page, `roll_height` tall (the printer cuts after each); on A4
    `columns` by `lines` a page, with dashed lines to cut along. `draw(c, item, x, y, width, height)` draws one
    in its box, y at its bottom; no item: one box, drawn with None. `initial_font`: the canvas starts in DejaVu
    rather than reportlab's Helvetica."""
    font = pdf_font()
    buffer = io.BytesIO()
    if paper == "a4":
        (width, height), margin = A4, SHEET_MARGIN
    else:
        width, height, columns, lines, margin = ROLL_WIDTH, roll_height, 1, 1, 0
    box_w, box_h = (width - 2 * margin) / columns, (height - 2 * margin) / lines
    per_page = columns * lines
    c = canvas.Canvas(buffer, pagesize=(width, height), **({"initialFontName": font} if initial_font else {}))
    c.setTitle(title)
    boxes = list(items) or [None]
    for i, item in enumerate(boxes):
        place = i % per_page
        x = margin + (place % columns) * box_w
        y = height - margin - (place // columns + 1) * box_h
        if per_page > 1:  # where to cut
            c.saveState()
            c.setDash(2 * mm, 2 * mm)
            c.setLineWidth(0.3)
            c.setStrokeColorRGB(0.6, 0.6, 0.6)
            c.rect(x, y, box_w, box_h, stroke=1, fill=0)
            c.restoreState()
        draw(c, item, x, y, box_w, box_h)
        if place == per_page - 1 or i == len(boxes) - 1:
            c.showPage()
    c.save()
    return buffer.getvalue()


class ListPages:
    """A list on A4 pages (the day's report, the results, league standings): the title block on the first page
    (`head_first` tall), a line atop the others, the column heads, a row per item (striped), what follows the last
    row (`tail` rows: totals, rules), page numbers at the foot. The caller draws the heads and the rows."""

    head_first = 24 * mm

    def __init__(self, title: str):
        self.font = pdf_font()
        self.buffer = io.BytesIO()
        self.c = canvas.Canvas(self.buffer, pagesize=A4, pageCompression=1, initialFontName=self.font)
        self.c.setTitle(title)

    def top(self, page: int) -> float:
        """The y of the first row of a page (below the title on the first, below the column heads)."""
        return PAGE_H - MARGIN - (self.head_first if page == 1 else HEAD_OTHER) - 2 * ROW

    def bottom(self) -> float:
        return MARGIN + 8 * mm

    def spans(self, rows: int, tail: int) -> list[tuple[int, int]]:
        """(first row, past the last row) of each page; what follows the last row (`tail` rows) on a page of its
        own when it does not fit below it."""
        first, other = int((self.top(1) - self.bottom()) // ROW), int((self.top(2) - self.bottom()) // ROW)
        spans, start, size = [], 0, first
        while start < rows or not spans:
            spans.append((start, min(start + size, rows)))
            start, size = start + size, other
        last_start, last_end = spans[-1]
        if self.top(len(spans)) - (last_end - last_start + tail) * ROW < self.bottom():
            spans.append((rows, rows))
        return spans

    def stripes(self, page: int, count: int, start: int) -> None:
        """A grey band behind every other row of a page (`start`: the index of its first row in the list)."""
        c = self.c
        c.setFillColor(STRIPE)
        for index in range(count):
            if (start + index) % 2 == 1:
                c.rect(MARGIN, self.top(page) - index * ROW - 3.5, PAGE_W - 2 * MARGIN, ROW, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)

    def rule(self, y: float) -> None:
        """A line across the page (under the column heads, above the totals)."""
        self.c.setLineWidth(0.6)
        self.c.line(MARGIN, y, PAGE_W - MARGIN, y)

    def foot(self, page: int, pages: int, left: str) -> None:
        """ "Page 2 of 5" at the right of the foot, `left` at its left."""
        self.c.setFont(self.font, 8)
        self.c.drawRightString(PAGE_W - MARGIN, MARGIN, _("Page %(page)s of %(pages)s") % {"page": page, "pages": pages})
        self.c.drawString(MARGIN, MARGIN, left)

    def finish(self) -> bytes:
        self.c.save()
        return self.buffer.getvalue()
