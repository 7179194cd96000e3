"""Receipts of money paid at the cage (a prize, a bounty event's bounties): the lines printed, as HTML (print
stylesheet, 80 mm or A4) and as a PDF, with the player's signature as drawn on the tablet."""

from __future__ import annotations

import io

from django.utils import formats, timezone
from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.lib.utils import ImageReader

from core.pdf import ReceiptPage, money
from payouts.models import BountyAward, BountyPayment, PaidAtTheCage, Payment


def places(payment: Payment) -> str:
    if payment.place == payment.place_low:
        return str(payment.place)
    return _("%(place)s-%(low)s (tied)") % {"place": payment.place, "low": payment.place_low}


def check_lines(p: PaidAtTheCage) -> list[tuple[str, str]]:
    """The lines every cage receipt ends with: the ID checked again, the time, the cashier, and a void's reason."""
    check = p.id_check
    lines = [
        (_("ID checked"), f"{check.get_document_type_display()} …{check.number_last4}"),
        (_("Time"), formats.date_format(timezone.localtime(p.paid_at), "DATETIME_FORMAT")),
        (_("Cashier"), p.paid_by.get_username()),
    ]
    if p.status == PaidAtTheCage.Status.VOIDED:
        lines += [(_("VOID"), p.void_reason), (_("Voided by"), p.voided_by.get_username() if p.voided_by else "")]
    return lines


def payout_lines(p: Payment) -> list[tuple[str, str]]:
    t = p.tournament
    return [
        (_("Tournament"), t.name),
        (_("Venue"), t.venue),
        (_("Payout receipt"), str(p.number)),
        (_("Entry number"), f"#{p.entry.number}"),
        (_("Player"), p.entry.player.display_name),
        (_("Place"), places(p)),
        (_("Prize"), money(p.amount, t.currency)),
        *check_lines(p),
    ]


def paid_awards(p: BountyPayment) -> list[BountyAward]:
    """The awards a bounty payment paid (its award numbers, as paid: a voided payment's too), in the night's order."""
    return list(
        BountyAward.objects.filter(tournament_id=p.tournament_id, number__in=p.awards)
        .select_related("busted__player")
        .order_by("order", "number")
    )


def award_line(a: BountyAward, currency: str) -> tuple[str, str]:
    """One award as a receipt line: a knockout names the busted entry and player (a mystery one says it was an
    envelope); a play-over award says what it was (his own head, the heads dealt)."""
    amount = money(a.cash, currency)
    if a.kind == BountyAward.Kind.BUST and a.busted is not None:
        label = _("Mystery envelope") if a.envelope is not None else _("Knockout")
        return label, f"#{a.busted.number} {a.busted.player.display_name}: {amount}"
    return str(a.get_kind_display()), amount


def bounty_lines(p: BountyPayment) -> list[tuple[str, str]]:
    t = p.tournament
    return [
        (_("Tournament"), t.name),
        (_("Venue"), t.venue),
        (_("Bounty receipt"), str(p.number)),
        (_("Entry number"), f"#{p.entry.number}"),
        (_("Player"), p.entry.player.display_name),
        (_("Bounties"), money(p.amount, t.currency)),
        *(award_line(a, t.currency) for a in paid_awards(p)),
        *check_lines(p),
    ]


def signed_pdf(p: PaidAtTheCage, heading: str, lines: list[tuple[str, str]], foot: str, paper: str) -> bytes:
    """A cage receipt as a PDF (core.pdf.ReceiptPage, 80 mm or A4): its lines, the player's signature, the foot."""
    page = ReceiptPage(f"{heading} {p.number}", heading, lines, paper, voided=p.status == PaidAtTheCage.Status.VOIDED, extra_mm=60)
    signature = ImageReader(io.BytesIO(bytes(p.signature)))
    sig_w, sig_h = signature.getSize()
    box_w = page.inner_width
    box_h = min(box_w * sig_h / max(sig_w, 1), 30 * mm)
    page.small_text(_("Signature of the player:"))
    page.y -= box_h + 2 * mm
    page.c.drawImage(signature, page.margin, page.y, width=box_w, height=box_h, preserveAspectRatio=True, anchor="sw", mask="auto")
    page.c.line(page.margin, page.y - 1 * mm, page.width - page.margin, page.y - 1 * mm)
    page.y -= page.size + 4 * mm
    page.small_text(foot)
    return page.finish()


def payout_foot() -> str:
    return _("The player confirms receipt of the prize above by signing.")


def bounty_foot() -> str:
    return _("The player confirms receipt of the bounties above by signing.")


def payout_pdf(p: Payment, paper: str = "80mm") -> bytes:
    return signed_pdf(p, _("Payout receipt"), payout_lines(p), payout_foot(), paper)


def bounty_pdf(p: BountyPayment, paper: str = "80mm") -> bytes:
    return signed_pdf(p, _("Bounty receipt"), bounty_lines(p), bounty_foot(), paper)
