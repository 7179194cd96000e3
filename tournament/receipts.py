"""Buy-in receipts: the lines printed, as HTML (print stylesheet) and as a PDF (80 mm or A4)."""
from __future__ import annotations

import io
from decimal import Decimal

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from reportlab.lib.pagesizes import A4
from reportlab.lib.units import mm
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.pdfgen import canvas

from .models import Purchase

FONT_PATHS = ("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",)


def money(amount: int, currency: str) -> str:
    """Minor units to a display amount in the active language: '11,500.00 EUR', '11 500,00 EUR'."""
    return f"{formats.number_format(Decimal(amount) / 100, decimal_pos=2, force_grouping=True)} {currency}"


def receipt_lines(p: Purchase) -> list[tuple[str, str]]:
    t = p.tournament
    lines = [
        (_("Tournament"), t.name),
        (_("Venue"), t.venue),
        (_("Receipt"), str(p.number)),
        (_("Type"), str(p.get_kind_display())),
        (_("Entry number"), f"#{p.entry.number}"),
        (_("Player"), p.entry.player.display_name),
        (_("Buy-in"), money(p.amount, t.currency)),
        (_("Fee"), money(p.fee, t.currency)),
        (_("Total"), money(p.total, t.currency)),
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
    for path in FONT_PATHS:
        try:
            if "DejaVu" not in pdfmetrics.getRegisteredFontNames():
                pdfmetrics.registerFont(TTFont("DejaVu", path))
            return "DejaVu"
        except Exception:
            continue
    return "Helvetica"  # no Unicode font on this machine: accents may not print


def receipt_pdf(p: Purchase, paper: str = "80mm") -> bytes:
    lines = receipt_lines(p)
    font = pdf_font()
    buffer = io.BytesIO()
    if paper == "a4":
        width, height = A4
        margin, size = 20 * mm, 11
    else:
        width, margin, size = 80 * mm, 4 * mm, 9
        height = (30 + 6 * len(lines)) * mm
    c = canvas.Canvas(buffer, pagesize=(width, height))
    c.setTitle(f"{_('Receipt')} {p.number}")
    y = height - margin - size
    c.setFont(font, size + 3)
    c.drawString(margin, y, _("Buy-in receipt"))
    y -= (size + 8)
    for label, value in lines:
        c.setFont(font, size)
        c.drawString(margin, y, f"{label}:")
        c.drawRightString(width - margin, y, str(value)[:60])
        y -= size + 5
    y -= size
    c.setFont(font, size - 1)
    for row in simpleSplit(_("Keep this receipt. Prizes are paid only against an ID check and a signature."), font, size - 1,
                           width - 2 * margin):
        c.drawString(margin, y, row)
        y -= size + 2
    c.showPage()
    c.save()
    return buffer.getvalue()
