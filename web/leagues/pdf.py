"""A league's standings on A4, as the day's report prints (web/days/pdf.py): the title on the first page,
the column heads on every page, a row per player (striped), the counting and tie rules at the end, page numbers at
the foot. DejaVu Sans (tournament.selectors.receipts.pdf_font) prints every Czech and Slovak letter."""
from __future__ import annotations

import io

from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen import canvas

from leagues.models import League
from tournament.selectors.receipts import pdf_font
from web.days.pdf import HEAD_FIRST, HEAD_OTHER, MARGIN, ROW, SIZE, STRIPE, fit, when

PAGE_W, PAGE_H = A4
RULES_ROWS = 8  # the room the counting and tie rules take after the last row


def standings_pdf(league: League, rows: list[dict], counted: str, ties: str) -> bytes:
    font, buffer = pdf_font(), io.BytesIO()
    c = canvas.Canvas(buffer, pagesize=A4, pageCompression=1, initialFontName=font)
    title = f"{_('Standings')} · {league.name}"
    c.setTitle(title)
    right = PAGE_W - MARGIN
    x_rank, x_name, x_points, x_counted, x_played, x_wins = (MARGIN, MARGIN + 14 * mm, right - 62 * mm, right - 40 * mm,
                                                             right - 20 * mm, right)

    def top(page: int) -> float:
        return PAGE_H - MARGIN - (HEAD_FIRST if page == 1 else HEAD_OTHER) - 2 * ROW

    bottom = MARGIN + 8 * mm
    first, other = int((top(1) - bottom) // ROW), int((top(2) - bottom) // ROW)
    spans, start, size = [], 0, first
    while start < len(rows) or not spans:
        spans.append((start, min(start + size, len(rows))))
        start, size = start + size, other
    if top(len(spans)) - (spans[-1][1] - spans[-1][0] + RULES_ROWS) * ROW < bottom:
        spans.append((len(rows), len(rows)))  # the rules on a page of their own
    for page, (begin, end) in enumerate(spans, 1):
        y = PAGE_H - MARGIN
        if page == 1:
            c.setFont(font, 16)
            c.drawString(MARGIN, y - 16, fit(title, font, 16, PAGE_W - 2 * MARGIN))
            c.setFont(font, 8)
            c.drawString(MARGIN, y - 32, _("Printed %(when)s") % {"when": when(timezone.now())})
            y -= HEAD_FIRST
        else:
            c.setFont(font, 8)
            c.drawString(MARGIN, y - 8, fit(title, font, 8, PAGE_W - 2 * MARGIN))
            y -= HEAD_OTHER
        c.setFont(font, SIZE)
        heads = y - ROW + 3
        c.drawString(x_rank, heads, "#")
        c.drawString(x_name, heads, _("Player"))
        for x, label in ((x_points, _("Points")), (x_counted, _("Counted")), (x_played, _("Played")), (x_wins, _("Wins"))):
            c.drawRightString(x, heads, fit(label, font, SIZE, 19 * mm))
        c.setLineWidth(0.6)
        c.line(MARGIN, heads - 4, right, heads - 4)
        c.setFillColor(STRIPE)
        for index in range(end - begin):
            if (begin + index) % 2:
                c.rect(MARGIN, top(page) - index * ROW - 3.5, PAGE_W - 2 * MARGIN, ROW, stroke=0, fill=1)
        c.setFillColorRGB(0, 0, 0)
        for index, row in enumerate(rows[begin:end]):
            y = top(page) - index * ROW
            c.drawString(x_rank, y, f"{row['rank']}.")
            c.drawString(x_name, y, fit(row["name"], font, SIZE, x_points - 22 * mm - x_name))
            c.drawRightString(x_points, y, row["shown"])
            c.drawRightString(x_counted, y, str(row["counted"]))
            c.drawRightString(x_played, y, str(row["played"]))
            c.drawRightString(x_wins, y, str(row["wins"]))
        if page == len(spans):
            y = top(page) - (end - begin + 1) * ROW
            for text in (counted, ties):
                for line in simpleSplit(text, font, SIZE, PAGE_W - 2 * MARGIN)[:3]:
                    c.drawString(MARGIN, y, line)
                    y -= ROW
        c.setFont(font, 8)
        c.drawRightString(right, MARGIN, _("Page %(page)s of %(pages)s") % {"page": page, "pages": len(spans)})
        c.drawString(MARGIN, MARGIN, fit(league.name, font, 8, PAGE_W / 2))
        c.showPage()
    c.save()
    return buffer.getvalue()
