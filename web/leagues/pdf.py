"""A league's standings on A4, as the day's report prints (web/days/pdf.py; the pages are core.pdf.ListPages): the
title on the first page, the column heads on every page, a row per player (striped), the counting and tie rules at the
end, page numbers at the foot. DejaVu Sans (core.pdf.pdf_font) prints every Czech and Slovak letter."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit

from core.pdf import HEAD_OTHER, MARGIN, PAGE_H, PAGE_W, ROW, SIZE, ListPages, fit, when
from leagues.models import League

RULES_ROWS = 8  # the room the counting and tie rules take after the last row


def standings_pdf(league: League, rows: list[dict], counted: str, ties: str) -> bytes:
    title = f"{_('Standings')} · {league.name}"
    pages = ListPages(title)
    c, font = pages.c, pages.font
    right = PAGE_W - MARGIN
    x_rank, x_name, x_points, x_counted, x_played, x_wins = (
        MARGIN,
        MARGIN + 14 * mm,
        right - 62 * mm,
        right - 40 * mm,
        right - 20 * mm,
        right,
    )
    top = pages.top
    spans = pages.spans(len(rows), tail=RULES_ROWS)  # the rules on a page of their own when they do not fit
    for page, (begin, end) in enumerate(spans, 1):
        y = PAGE_H - MARGIN
        if page == 1:
            c.setFont(font, 16)
            c.drawString(MARGIN, y - 16, fit(title, font, 16, PAGE_W - 2 * MARGIN))
            c.setFont(font, 8)
            c.drawString(MARGIN, y - 32, _("Printed %(when)s") % {"when": when(timezone.now())})
            y -= pages.head_first
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
        pages.rule(heads - 4)
        pages.stripes(page, end - begin, begin)
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
        pages.foot(page, len(spans), fit(league.name, font, 8, PAGE_W / 2))
        c.showPage()
    return pages.finish()
