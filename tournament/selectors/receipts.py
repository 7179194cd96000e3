"""Buy-in receipts: the lines printed, as HTML (print stylesheet) and as a PDF (80 mm or A4; the page is
core.pdf.ReceiptPage).

The receipt says where the player sits (table and seat), which only the tables know: it asks them through
the kernel (core.reactions, ENTRY_SEAT), as registration learns the seat a new entry got."""

from __future__ import annotations

from django.utils import formats, timezone
from django.utils.translation import gettext as _

from core import reactions
from core.pdf import ReceiptPage, money
from tournament.models import Purchase

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
        *([(_("Bounty"), money(p.bounty, t.currency))] if p.bounty else []),
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


def receipt_pdf(p: Purchase, paper: str = "80mm") -> bytes:
    page = ReceiptPage(
        f"{_('Receipt')} {p.number}", _("Buy-in receipt"), receipt_lines(p), paper, voided=p.status == Purchase.Status.VOIDED
    )
    page.small_text(_("Keep this receipt. Prizes are paid only against an ID check and a signature."))
    return page.finish()
