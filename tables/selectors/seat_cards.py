"""Seat cards: one card per seated entry (tournament, table, seat, name, entry number and a QR code
to the player's seat page), as HTML for the print stylesheet and as a PDF (80 mm or A4). On a day after
the first, the card also says the day and the stack the player sits down with ("Day 2 · stack 48,500
(bag A-17)"): the caller passes those stacks (the days and flights apps above know them)."""

from __future__ import annotations

from collections.abc import Callable

import segno
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfgen import canvas

from core.pdf import pdf_font, sheet_pdf
from tables.selectors.state import live_seats
from tournament.models import Tournament


def day_line(stack: dict | None) -> str:
    """A day's stack as the card says it (stack: {day, chips, bag, source} as flights.selectors.day2.day_stacks gives it):
    "Day 2 · stack 48,500 (bag A-17)", "(last count)" when the day closed without his bag, the day alone when
    the stack is not known; "" on a first day (no stack)."""
    if not stack:
        return ""
    facts = {
        "day": stack["day"],
        "bag": stack.get("bag") or "",
        "chips": "" if stack.get("chips") is None else number_format(stack["chips"], decimal_pos=0, use_l10n=True, force_grouping=True),
    }
    if stack.get("chips") is None:
        return _("Day %(day)s") % facts
    if stack.get("bag"):
        return _("Day %(day)s · stack %(chips)s (bag %(bag)s)") % facts
    return _("Day %(day)s · stack %(chips)s (last count)") % facts


def seat_cards(
    tournament: Tournament,
    *,
    entry_number: int | None = None,
    draw: int | None = None,
    url: Callable[[int], str],
    stacks: dict[int, dict] | None = None,
) -> list[dict]:
    """The live seats (of one entry, or seated by one draw), ordered by table and seat. `stacks`: entry number ->
    the stack he sits down with on a day after the first (its `day_line` goes on the card)."""
    seats = live_seats(tournament).select_related("table", "entry__player", "draw").order_by("table__number", "seat")
    if entry_number is not None:
        seats = seats.filter(entry__number=entry_number)
    if draw is not None:
        seats = seats.filter(draw__number=draw)
    rows = []
    for s in seats:
        link = url(s.entry.number)
        rows.append(
            {
                "entry": s.entry.number,
                "name": s.entry.player.display_name,
                "table": s.table.number,
                "seat": s.seat,
                "url": link,
                "qr": segno.make(link, error="m"),
                "day_line": day_line((stacks or {}).get(s.entry.number)),
            }
        )
    for row in rows:
        row["qr_svg"] = row["qr"].svg_inline(scale=4, dark="#000", light="#fff")
    return rows


def _qr(c: canvas.Canvas, qr: segno.QRCode, x: float, y: float, size: float) -> None:
    matrix = [list(row) for row in qr.matrix]
    n = len(matrix) + 8  # quiet zone of 4 modules each side
    module = size / n
    c.setFillColorRGB(0, 0, 0)
    for r, row in enumerate(matrix):
        for col, dark in enumerate(row):
            if dark:
                c.rect(x + (col + 4) * module, y + size - (r + 5) * module, module, module, stroke=0, fill=1)


def seat_cards_pdf(tournament: Tournament, rows: list[dict], paper: str = "80mm") -> bytes:
    """80 mm receipt paper: one card per page (the printer cuts after each). A4: nine cards a page, three
    by three, with dashed lines to cut along (core.pdf.sheet_pdf)."""
    font = pdf_font()
    margin, size, qr_size = (5 * mm, 11, 36 * mm) if paper == "a4" else (4 * mm, 11, 40 * mm)

    def draw(c: canvas.Canvas, row: dict | None, x: float, y: float, width: float, height: float) -> None:
        _card(c, tournament, row, font, x, y, width, height, margin, size, qr_size)

    return sheet_pdf(_("Seat cards"), rows, paper, roll_height=120 * mm, columns=3, lines=3, draw=draw)


def _card(
    c: canvas.Canvas,
    tournament: Tournament,
    row: dict | None,
    font: str,
    x: float,
    y: float,
    width: float,
    height: float,
    margin: float,
    size: float,
    qr_size: float,
) -> None:
    """One card in the box (x, y, width, height) of the page, y at its bottom."""
    top = y + height - margin - size
    c.setFont(font, size)
    c.drawString(x + margin, top, tournament.name[:40])
    if row is None:
        c.drawString(x + margin, top - 2 * size, _("Nobody is seated."))
        return
    top -= size * 3.2
    c.setFont(font, size * 2.4)
    c.drawString(x + margin, top, _("Table %(table)s") % {"table": row["table"]})
    top -= size * 2.8
    c.drawString(x + margin, top, _("Seat %(seat)s") % {"seat": row["seat"]})
    c.setFont(font, size)
    if row.get("day_line"):  # a day after the first: the day and the stack he sits down with
        top -= size * 1.5
        c.drawString(x + margin, top, simpleSplit(row["day_line"], font, size, width - 2 * margin)[0])
        top -= size * 1.3
    else:
        top -= size * 1.8
    for line in simpleSplit(row["name"], font, size, width - 2 * margin)[:2]:  # a long name on two lines
        c.drawString(x + margin, top, line)
        top -= size * 1.2
    top -= size * 0.2
    c.drawString(x + margin, top, _("Entry #%(number)s") % {"number": row["entry"]})
    _qr(c, row["qr"], x + (width - qr_size) / 2, y + margin, qr_size)
