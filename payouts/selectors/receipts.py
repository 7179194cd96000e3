"""Payout receipts: the lines printed, as HTML (print stylesheet, 80 mm or A4) and as a PDF, with the
player's signature as drawn on the tablet."""

from __future__ import annotations

import io

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader

from core.pdf import ReceiptPage, money
from payouts.models import Payment


def places(payment: Payment) -> str:
    if payment.place == payment.place_low:
        return str(payment.place)
    return _("%(place)s-%(low)s (tied)") % {"place": payment.place, "low": payment.place_low}


def payout_lines(p: Payment) -> list[tuple[str, str]]:
    t = p.tournament
    check = p.id_check
    lines = [
        (_("Tournament"), t.name),
        (_("Venue"), t.venue),
        (_("Payout receipt"), str(p.number)),
        (_("Entry number"), f"#{p.entry.number}"),
        (_("Player"), p.entry.player.display_name),
        (_("Place"), places(p)),
        (_("Prize"), money(p.amount, t.currency)),
        (_("ID checked"), f"{check.get_document_type_display()} …{check.number_last4}"),
        (_("Time"), formats.date_format(timezone.localtime(p.paid_at), "DATETIME_FORMAT")),
        (_("Cashier"), p.paid_by.get_username()),
    ]
    if p.status == Payment.Status.VOIDED:
        lines += [(_("VOID"), p.void_reason), (_("Voided by"), p.voided_by.get_username() if p.voided_by else "")]
    return lines


def payout_pdf(p: Payment, paper: str = "80mm") -> bytes:
    page = ReceiptPage(
        f"{_('Payout receipt')} {p.number}",
        _("Payout receipt"),
        payout_lines(p),
        paper,
        voided=p.status == Payment.Status.VOIDED,
        extra_mm=60,
    )
    signature = ImageReader(io.BytesIO(bytes(p.signature)))
    sig_w, sig_h = signature.getSize()
    box_w = page.inner_width
    box_h = min(box_w * sig_h / max(sig_w, 1), 30 * mm)
    page.small_text(_("Signature of the player:"))
    page.y -= box_h + 2 * mm
    page.c.drawImage(signature, page.margin, page.y, width=box_w, height=box_h, preserveAspectRatio=True, anchor="sw", mask="auto")
    page.c.line(page.margin, page.y - 1 * mm, page.width - page.margin, page.y - 1 * mm)
    page.y -= page.size + 4 * mm
    page.small_text(_("The player confirms receipt of the prize above by signing."))
    return page.finish()
