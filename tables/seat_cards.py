"""Seat cards: one card per seated entry (tournament, table, seat, name, entry number and a QR code
to the player's seat page), as HTML for the print stylesheet and as a PDF (80 mm or A4)."""
from __future__ import annotations

import io
from collections.abc import Callable

import segno
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.pdfgen import canvas

from tournament.models import Tournament
from tournament.receipts import pdf_font

from .selectors import live_seats


def seat_cards(tournament: Tournament, *, entry_number: int | None = None, draw: int | None = None,
               url: Callable[[int], str]) -> list[dict]:
    """The live seats (of one entry, or seated by one draw), ordered by table and seat."""
    seats = live_seats(tournament).select_related("table", "entry__player", "draw").order_by("table__number", "seat")
    if entry_number is not None:
        seats = seats.filter(entry__number=entry_number)
    if draw is not None:
        seats = seats.filter(draw__number=draw)
    rows = []
    for s in seats:
        link = url(s.entry.number)
        rows.append({"entry": s.entry.number, "name": s.entry.player.display_name, "table": s.table.number,
                     "seat": s.seat, "url": link, "qr": segno.make(link, error="m")})
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
    """One card per page: 80 mm receipt paper or A4."""
    font = pdf_font()
    buffer = io.BytesIO()
    if paper == "a4":
        width, height = A4
        margin, size, qr_size = 20 * mm, 16, 60 * mm
    else:
        width, height = 80 * mm, 120 * mm
        margin, size, qr_size = 4 * mm, 11, 40 * mm
    c = canvas.Canvas(buffer, pagesize=(width, height))
    c.setTitle(_("Seat cards"))
    for row in rows or [None]:
        y = height - margin - size
        c.setFont(font, size)
        c.drawString(margin, y, tournament.name[:40])
        if row is None:
            c.drawString(margin, y - 2 * size, _("Nobody is seated."))
            c.showPage()
            continue
        y -= size * 3.2
        c.setFont(font, size * 2.4)
        c.drawString(margin, y, _("Table %(table)s") % {"table": row["table"]})
        y -= size * 2.8
        c.drawString(margin, y, _("Seat %(seat)s") % {"seat": row["seat"]})
        y -= size * 1.8
        c.setFont(font, size)
        c.drawString(margin, y, f"{row['name'][:40]}")
        y -= size * 1.4
        c.drawString(margin, y, _("Entry #%(number)s") % {"number": row["entry"]})
        _qr(c, row["qr"], (width - qr_size) / 2, margin, qr_size)
        c.showPage()
    c.save()
    return buffer.getvalue()
