"""The desk's papers for the roll (docs/printing.md): which paper a print view lays out (the venue's house setting, or
`?paper=80|58|a4` for one print), what its template needs for that (the paper's stylesheets, the roll printer's
button), and each paper's words as the roll printer prints them (core/roll_printer.py's blocks), read from the same
lines as its page: a buy-in receipt (tournament/selectors/receipts.py), a payout or bounty receipt
(payouts/selectors/receipts.py), a seat ticket (tables/selectors/seat_cards.py) and a bag slip
(days/selectors/bags.py)."""

from __future__ import annotations

from django.http import HttpResponseBadRequest
from django.utils.translation import gettext as _

from core import access
from core.pdf import when
from payouts.models import BountyPayment, Payment
from payouts.selectors import receipts as cage_receipts
from tournament.models import Purchase, Tournament
from tournament.selectors import receipts
from venues.models import Paper
from venues.selectors.printing import paper_asked, printing, roll_for
from web.templatetags.money import grouped

PAPER_CSS = {Paper.A4.value: "css/screens/venues-paper-a4.css", Paper.ROLL_80.value: "css/screens/venues-paper-80.css"}
PAPER_CSS[Paper.ROLL_58.value] = "css/screens/venues-paper-58.css"


class BadPaper(Exception):
    """A `?paper=` that names no paper: the print view answers 400 with the message."""


def bad_paper(problem: BadPaper) -> HttpResponseBadRequest:
    return HttpResponseBadRequest(str(problem), content_type="text/plain; charset=utf-8")


def paper_of(request, tournament: Tournament) -> str:
    """The paper a print view lays out: `?paper=` (80, 58 or a4) for this print, else the venue's house setting."""
    asked = request.GET.get("paper")
    if asked is None or not asked.strip():
        return printing(tournament)["paper"]
    paper = paper_asked(asked)
    if paper is None:
        raise BadPaper(_("The paper is “80”, “58” or “a4”, not “%(paper)s”.") % {"paper": asked.strip()[:20]})
    return paper


def print_view(request, tournament: Tournament, *, paper: str, api: str, who: str) -> dict:
    """What a print view's template needs: the paper (its class and stylesheet), and the roll printer's button when
    the room has a printer and this user may print this paper (`who`: its API operation in core/access.py); `api`: the
    path the button posts to."""
    house = printing(tournament)
    return {
        "paper": paper,
        "paper_css": PAPER_CSS[paper],
        "paper_label": Paper(paper).label,
        "roll": roll_for(paper),
        "roll_printer": house["printer"] if house["printer"] and access.may(request.user, who, tournament.pk) else "",
        "print_api": api,
    }


# --- each paper's words on the roll ----------------------------------------------------------------------------


def _head(title: str, voided: bool) -> list[tuple]:
    return [("title", title), *([("void", _("VOID"))] if voided else []), ("rule",)]


def receipt_blocks(p: Purchase) -> list[tuple]:
    """A buy-in receipt: its heading, VOID when voided, its lines, the foot (templates/tournament/receipt.html)."""
    lines = [("line", label, value) for label, value in receipts.receipt_lines(p)]
    return [
        *_head(_("Buy-in receipt"), p.status == Purchase.Status.VOIDED),
        *lines,
        ("rule",),
        ("text", _("Keep this receipt. Prizes are paid only against an ID check and a signature.")),
    ]


def cage_blocks(p: Payment | BountyPayment, *, bounty: bool) -> list[tuple]:
    """A payout or bounty receipt: heading, VOID, lines, the player's signature as signed at the cage, the foot
    (templates/payouts/receipt.html)."""
    if bounty:
        title, lines, foot = _("Bounty receipt"), cage_receipts.bounty_lines(p), cage_receipts.bounty_foot()
    else:
        title, lines, foot = _("Payout receipt"), cage_receipts.payout_lines(p), cage_receipts.payout_foot()
    return [
        *_head(title, p.status == "voided"),
        *[("line", label, value) for label, value in lines],
        ("text", ""),
        ("text", _("Signature of the player:")),
        ("image", bytes(p.signature)),
        ("rule",),
        ("text", foot),
    ]


def seat_blocks(t: Tournament, card: dict) -> list[tuple]:
    """A seat ticket: the tournament, the table and the seat large, the day's stack on a later day, the player, his
    entry and the QR code of his seat page (templates/tables/seat_cards.html)."""
    return [
        ("text", t.name),
        ("big", _("Table %(n)s") % {"n": card["table"]}),
        ("big", _("Seat %(n)s") % {"n": card["seat"]}),
        *([("text", card["day_line"])] if card.get("day_line") else []),
        ("title", card["name"]),
        ("text", _("Entry #%(n)s") % {"n": card["entry"]}),
        ("qr", card["url"]),
    ]


def bagged_line(row: dict) -> str:
    return _("Bagged %(when)s by %(who)s") % {"when": when(row["bagged_at"]), "who": row["bagged_by"] or "—"}


def slip_blocks(row: dict) -> list[tuple]:
    """A bag slip: the tournament, the day, table and seat, the bag and the chips large, the player, his entry, who
    bagged it and when, the two signature lines (templates/days/slips.html)."""
    return [
        ("text", row["tournament"]),
        ("text", slip_where(row)),
        ("rule",),
        ("text", _("Bag")),
        ("big", str(row["bag"])),
        ("text", _("Chips")),
        ("big", grouped(row["chips"])),
        ("rule",),
        ("title", row["name"]),
        ("text", _("Entry #%(number)s") % {"number": row["entry"]}),
        ("text", bagged_line(row)),
        ("sign", _("Player's signature")),
        ("sign", _("Floor's signature")),
    ]


def slip_where(row: dict) -> str:
    return _("Day %(day)s · table %(table)s, seat %(seat)s") % {"day": row["day"], "table": row["table"], "seat": row["seat"]}
