"""Buy-in receipts: the lines printed, as HTML (print stylesheet) and as a PDF (80 mm or A4).

The receipt says where the player sits (table and seat), which only the tables know: it asks them through
the kernel (core.reactions, ENTRY_SEAT), as registration learns the seat a new entry got."""
from __future__ import annotations

import io
from pathlib import Path

from django.utils import formats, timezone
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from core import reactions
from core.money import format_money
from tournament.models import Purchase

# The font shipped with the app first (tournament/fonts/, with its licence), so Czech and Slovak names print
# right on any machine; the system's copy only if the shipped file is missing.
FONT_PATHS = (str(Path(__file__).resolve().parents[1] / "fonts" / "DejaVuSans.ttf"),
              "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


def money(amount: int, currency: str) -> str:
    """Minor units to a display amount in the active language: "CZK 1,100", "1 100 Kč" (core/money.py)."""
    return format_money(amount, currency, get_language())


# Asked of the apps above (core.reactions) with tournament= and entry=: where the entry sits now, as
# {"table": n, "seat": s}; an entry playing without a seat is {"waiting": "start_draw"} before the start
# draw, {"waiting": "seat"} after it; no answer for an entry out of play (or no tables at all).
ENTRY_SEAT = "entry_seat"


def seat_lines(p: Purchase) -> list[tuple[str, str]]:
    """Where the player sits now (a move changes it): the table and the seat, or why there is none yet."""
    seat = reactions.react(ENTRY_SEAT, tournament=p.tournament, entry=p.entry)
    if seat.get("table") is not None:
        return [(_("Table"), str(seat["table"])), (_("Seat"), str(seat["seat"]))]
    if seat.get("waiting") == "start_draw":
        return [(_("Seat"), _("drawn at the start"))]
    if seat.get("waiting"):
        return [(_("Seat"), _("not yet drawn: ask the floor"))]
    return []


def receipt_lines(p: Purchase) -> list[tuple[str, str]]:
    t = p.tournament
    lines = [
        (_("Tournament"), t.name),
        (_("Venue"), t.venue),
        (_("Receipt"), str(p.number)),
        (_("Type"), str(p.get_kind_display())),
        (_("Entry number"), f"#{p.entry.number}"),
        (_("Player"), p.entry.player.display_name),
        *seat_lines(p),
        (_("Buy-in"), money(p.amount, t.currency)),
        (_("Fee"), money(p.fee, t.currency)),
        (_("Total"), money(p.total, t.currency)),
        *([(_("Paid with"), _("Satellite ticket"))] if p.paid_with == Purchase.PaidWith.TICKET else []),
        (_("Chips"), formats.number_format(p.chips, force_grouping=True)),
        (_("Time"), formats.date_format(timezone.localtime(p.created_at), "DATETIME_FORMAT")),
        (_("Cashier"), p.created_by.get_username()),
    ]
    if p.status == Purchase.Status.ANNOUNCED:
        lines.append((_("Status"), _("Announced, not yet paid")))
    if p.status == Purchase.Status.VOIDED:
        lines += [
            (_("VOID"), p.void_reason),
            (_("Refund"), money(p.refund_amount or 0, t.currency)),
            (_("Voided by"), p.voided_by.get_username() if p.voided_by else ""),
        ]
    return lines


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


class PdfReceipt:
    """One receipt page, 80 mm roll or A4: the heading, a VOID stamp when voided, the lines; then what the
    kind of receipt adds below them (text rows, the payout's signature)."""

    def __init__(self, title: str, heading: str, lines: list[tuple[str, str]], paper: str, voided: bool,
                 extra_mm: int = 30):
        self.font = pdf_font()
        self.buffer = io.BytesIO()
        if paper == "a4":
            self.width, height = A4
            self.margin, self.size = 20 * mm, 11
        else:
            self.width, self.margin, self.size = 80 * mm, 4 * mm, 9
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


def receipt_pdf(p: Purchase, paper: str = "80mm") -> bytes:
    page = PdfReceipt(f"{_('Receipt')} {p.number}", _("Buy-in receipt"), receipt_lines(p), paper,
                      voided=p.status == Purchase.Status.VOIDED)
    page.small_text(_("Keep this receipt. Prizes are paid only against an ID check and a signature."))
    return page.finish()
