"""The payouts screen: the prizes by place in force, the director's plan and hand edits, the results (also
as CSV and PDF), the cashier's reconciliation. It only reads; every change goes through the JSON API
(web/payouts/api.py) with static/js/api.js."""

from __future__ import annotations

import base64
import json

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from core import access
from core.errors import ServiceError
from core.money import MoneyParseError, format_major, parse_major
from payouts.models import BountyPayment, BountyRules, Deal, Payment, Ticket
from payouts.selectors import bounties as bounty_selectors
from payouts.selectors import receipts, reports, satellites
from payouts.selectors import structure as payouts_selectors
from payouts.selectors.reconciliation import reconciliation
from payouts.services.structure import deal_inputs, plan_json, refusal_message
from tournament.models import Entry, IdCheck, Player, Purchase, Tournament
from web.access import page
from web.tournament.views import in_venue_time
from web.venues import printing


@page("payouts")
@in_venue_time
def payouts_page(request, tournament: Tournament):
    state = payouts_selectors.payout_state(tournament)
    plan = payouts_selectors.plan_of(tournament)
    show_names = access.may(request.user, "api-results:GET", tournament.pk)
    return render(
        request,
        "payouts/payouts.html",
        {
            "t": tournament,
            "state": state,
            "plan": plan_json(plan),
            "edited": plan.edited,
            "share_percent": f"{plan.share_paid_bp / 100:g}",
            "min_cash_times": f"{plan.min_cash_bp / 10_000:g}",
            "unit_major": format_major(plan.unit, tournament.currency),
            "house_table_json": json.dumps(plan.house_table, indent=1) if plan.house_table else "",
            "results": payouts_selectors.results(tournament, state) if show_names else None,
            "payments": {
                p.entry.number: p for p in Payment.objects.filter(tournament=tournament, status=Payment.Status.PAID).select_related("entry")
            }
            if show_names
            else {},
            "may_pay": access.may(request.user, "api-entry-payout:POST", tournament.pk),
            "bands_text": "\n".join(f"{b['first']} {b['last']} {format_major(b['prize'], tournament.currency)}" for b in state["bands"]),
            # A Day 1 flight pays nothing (its prizes are Day 2's), a satellite pays seats: no deal, no structure to set (the
            # server refuses them).
            "deal": deal_panel(request, tournament, state)
            if access.may(request.user, "api-deals:POST", tournament.pk) and not state["paid_from"] and not state["satellite"]
            else None,
            "may_approve": access.may(request.user, "api-deal-approve:POST", tournament.pk),
            "may_reconcile": access.may(request.user, "payout-reconciliation", tournament.pk),
            "sat": satellite_panel(request, tournament, state),
            "bounty": bounty_panel(request, tournament),
            # The plan and the hand edit only while the structure may change (a deal made, a prize paid: it may not).
            "may_edit": access.may(request.user, "api-payout-plan:PATCH", tournament.pk) and satellites.structure_fixed(tournament) is None,
        },
    )


SATELLITE_TARGETS = 100  # the director's choice of a target: the latest tournaments in the currency


def satellite_panel(request, t: Tournament, state: dict) -> dict | None:
    """A satellite's seats and tickets, and the director's setting; None where there is nothing to show
    (not a satellite, and not the director). A ticket passed on: the director finds the player (`?transfer=N&q=`)."""
    # Made a satellite only while it may become one (no prize paid, no deal): a satellite's house rule on passing
    # tickets on may change any time.
    may_set = (
        access.may(request.user, "api-satellite:PUT", t.pk)
        and not state["paid_from"]
        and (state["satellite"] is not None or satellites.satellite_fixed(t, satellites.BECOME) is None)
    )
    if state["satellite"] is None and not may_set:
        return None
    setting = payouts_selectors.satellite_of(t)
    panel = {
        "state": state["satellite"],
        "setting": setting,
        "may_set": may_set,
        "targets": [],
        "tickets": None,
        "may_transfer": setting is not None and setting.transferable and access.may(request.user, "api-ticket-transfer:POST", t.pk),
        "transfer": None,
        "found": [],
        "q": request.GET.get("q", "").strip()[:100],
    }
    if may_set:
        targets = Tournament.objects.exclude(pk=t.pk).exclude(status=Tournament.Status.FINISHED).filter(currency=t.currency)
        panel["targets"] = list(targets.order_by("-start_at", "pk")[:SATELLITE_TARGETS])
        if setting is not None and setting.target not in panel["targets"]:
            panel["targets"].insert(0, setting.target)
    if setting is not None and access.may(request.user, "api-tickets:GET", t.pk):
        panel["tickets"] = list(
            Ticket.objects.filter(satellite=setting).select_related("won_by", "holder", "used_entry").order_by("number")
        )
        number = request.GET.get("transfer", "")
        if panel["may_transfer"] and number.isdigit():
            panel["transfer"] = next((tk for tk in panel["tickets"] if tk.number == int(number)), None)
            if panel["transfer"] is not None and panel["q"]:
                panel["found"] = list(Player.objects.named(panel["q"])[:20])
    return panel


ENVELOPE_ROWS = 6  # the envelope list's rows on the page at first (static/js/payouts.js adds more)


def bounty_panel(request, t: Tournament) -> dict | None:
    """A bounty event's money (figures, no names, for every role of the page), the entries that won bounties (the desk
    and the floor: names) with the cashier's "Pay bounties", the director's house settings (shown fixed once a bounty
    is won, as the server refuses a change then) and a mystery event's envelope list; None outside a bounty event."""
    if not bounty_selectors.is_bounty(t):
        return None
    row = bounty_selectors.bounty_rules(t)
    box = bounty_selectors.mystery_box(t)
    left = bounty_selectors.box_left(t, box) if box is not None else []
    mystery = t.bounty_format == Tournament.BountyFormat.MYSTERY
    may_set = access.may(request.user, "api-bounty-rules:PATCH", t.pk)
    return {
        "money": bounty_selectors.money(t),
        "won": bounty_selectors.winners(t) if access.may(request.user, "api-bounties:GET", t.pk) else None,
        "may_pay": access.may(request.user, "api-entry-bounty-payout:POST", t.pk),
        "progressive": t.bounty_format == Tournament.BountyFormat.PROGRESSIVE,
        "mystery": mystery,
        "rules": row if may_set else None,
        "fixed": may_set and bounty_selectors.rules_fixed(t),
        "share_percent": f"{row.cash_share_bp / 100:g}",
        "increment_major": format_major(row.increment, t.currency),
        "choices": {
            "odd_unit": BountyRules.OddUnit.choices,
            "cage": BountyRules.Cage.choices,
            "deal_heads": BountyRules.DealHeads.choices,
            "disqualified_head": BountyRules.DisqualifiedHead.choices,
            "mystery_before": BountyRules.Before.choices,
        },
        "box": box,
        "left": left,
        "left_count": sum(count for _value, count in left),
        "may_commit": mystery and box is None and access.may(request.user, "api-bounty-envelopes:POST", t.pk),
        "envelope_rows": range(ENVELOPE_ROWS),
    }


def _major_to_minor(text: str, currency: str) -> int | str:
    """'1 500,50' -> 150050 (core/money.py); what is not an amount is given back as typed (deal_inputs refuses it)."""
    if not (text or "").strip():
        return 0
    try:
        return parse_major(text, currency)
    except MoneyParseError:
        return text


def _whole_number(text: str) -> int | str:
    cleaned = (text or "").replace(" ", "").replace("\u00a0", "")
    return int(cleaned) if cleaned.isdigit() else text


def deal_heads(t: Tournament, players: list[dict], *, stops: bool | None, deals: dict[str, list[int] | None] | None = None) -> dict | None:
    """A bounty event's heads beside a deal of `players` (entry and name, in the deal's order): each one's head now,
    their total, the house rule when a deal stops play (`stops`: the deal stops play, goes on, or is not chosen yet:
    None) and, where the heads are dealt too, a column of what each would be paid of them by each of `deals` (a
    column's heading -> the deal's amounts; None: not made). None outside a bounty event."""
    entries = [p["entry"] for p in players]
    found = bounty_selectors.heads_beside_deal(t, entries, deals if stops is not False else None)
    if found is None:
        return None
    columns = [label for label, made in found["dealt"].items() if made is not None]
    found["columns"] = columns
    found["stops"] = stops
    found["progressive"] = t.bounty_format == Tournament.BountyFormat.PROGRESSIVE
    found["dealt_rule"] = found["rule"] == BountyRules.DealHeads.DEALT
    found["rows"] = [
        {
            "entry": p["entry"],
            "name": p["name"],
            "head": found["heads"][p["entry"]],
            "dealt": [found["dealt"][c][p["entry"]] for c in columns],
        }
        for p in players
    ]
    return found


def deal_panel(request, t: Tournament, state: dict) -> dict | None:
    """The floor's deal panel: the players left, the pending proposal, and, once chip counts are typed
    (a GET form: nothing changes), ICM and chip chop with the rule each would break."""
    basis = payouts_selectors.deal_basis(t, state)
    pending = basis["pending"]
    if pending is None and not 2 <= len(basis["players"]) <= payouts_selectors.MAX_DEAL_PLAYERS:
        return None
    panel = {
        "players": basis["players"],
        "prizes_left": basis["prizes_left"],
        "pending": None,
        "figures": None,
        "error": None,
        "to_play_for_text": request.GET.get("to_play_for", ""),
        "heads": None,
    }
    if pending is not None:
        names = {p["entry"]: p["name"] for p in basis["players"]}
        panel["pending"] = {
            "deal": pending,
            "rows": [
                {"entry": n, "name": names.get(n, ""), "chips": c, "amount": a}
                for n, c, a in zip(pending.entries, pending.stacks, pending.amounts, strict=True)
            ],
        }
        stops = pending.mode == Deal.Mode.STOP
        panel["heads"] = deal_heads(
            t, [{"entry": n, "name": names.get(n, "")} for n in pending.entries], stops=stops, deals={_("Heads dealt"): pending.amounts}
        )
    made = None  # the deals calculated, by which the heads may be dealt
    typed = {p["entry"]: request.GET.get(f"chips_{p['entry']}", "") for p in basis["players"]}
    for player in basis["players"]:
        player["typed"] = typed[player["entry"]]
    if request.GET.get("deal") and basis["players"]:
        try:
            entries, chips, to_play_for = deal_inputs(
                basis, {str(n): _whole_number(v) for n, v in typed.items()}, _major_to_minor(panel["to_play_for_text"], t.currency)
            )
        except ServiceError as exc:
            panel["error"] = exc.message
        else:
            figures = payouts_selectors.deal_figures(chips, list(basis["prizes_left"]), to_play_for, basis["unit"])
            for figure in (figures["icm"], figures["chip_chop"]):
                if figure["refused"]:
                    figure["says"] = (
                        refusal_message(figure["code"], entries, figure["player"], figure["other"])
                        if figure["amounts"] is not None
                        else figure["refused"]
                    )
            panel["figures"] = {
                "rows": [
                    {
                        "entry": n,
                        "name": p["name"],
                        "chips": c,
                        "icm": (figures["icm"]["amounts"] or [None] * len(entries))[i],
                        "chip_chop": (figures["chip_chop"]["amounts"] or [None] * len(entries))[i],
                    }
                    for i, (n, c, p) in enumerate(zip(entries, chips, basis["players"], strict=True))
                ],
                "icm": figures["icm"],
                "chip_chop": figures["chip_chop"],
                "to_play_for": to_play_for,
                "stacks_json": json.dumps({str(n): c for n, c in zip(entries, chips, strict=True)}),
            }
            for row in panel["figures"]["rows"]:  # the custom deal's amounts start from ICM, in major units
                row["start"] = "" if row["icm"] is None else format_major(row["icm"], t.currency)
            # What each would be paid of the heads if they are dealt too, by the deals that may stop play (none while
            # some of the prizes are left to play for: such a deal plays on).
            made = {
                label: None if figure["refused"] or to_play_for else figure["amounts"]
                for label, figure in ((_("Heads dealt (ICM)"), figures["icm"]), (_("Heads dealt (chip chop)"), figures["chip_chop"]))
            }
    if pending is None:
        panel["heads"] = deal_heads(t, basis["players"], stops=None, deals=made)
    return panel


@page("payout-pay")
@in_venue_time
def pay_page(request, tournament: Tournament, number: int):
    """The cashier pays one entry's prize: the ID typed again, the player's signature on the tablet. What
    would refuse the payment (already paid, registration still open, still playing, no prize) is said at
    once, instead of the form: the same check as the payment's (payouts_selectors.prize_due)."""
    entry = get_object_or_404(Entry.objects.select_related("player", "id_check"), tournament=tournament, number=number)
    due = payouts_selectors.prize_due(tournament, entry)
    return render(
        request,
        "payouts/pay.html",
        {
            "t": tournament,
            "entry": entry,
            "prize": due.amount,
            "finisher": due.finisher,
            "paid": due.paid,
            "refusal": due.refusal,
            "document_types": IdCheck.DocumentType.choices,
        },
    )


CAGE_RELATED = ("entry__player", "id_check", "paid_by", "voided_by", "tournament")


def _payment(pk: int, number: int) -> Payment:
    return get_object_or_404(Payment.objects.select_related(*CAGE_RELATED), tournament_id=pk, number=number)


def _bounty_payment(pk: int, number: int) -> BountyPayment:
    return get_object_or_404(BountyPayment.objects.select_related(*CAGE_RELATED), tournament_id=pk, number=number)


def cage_receipt(request, t: Tournament, p: Payment | BountyPayment, *, bounty: bool, lines: list, void: str, foot: str):
    """A cage receipt's page (templates/payouts/receipt.html): a prize's or a bounty payment's, its lines, the
    signature, the PDF on 80 mm and A4, and voiding it with a reason for those who may; laid out for the house's paper
    (or ?paper=80|58|a4), with the roll printer's button where the room has one."""
    try:
        paper = printing.paper_of(request, t)
    except printing.BadPaper as problem:
        return printing.bad_paper(problem)
    api = f"tournaments/{t.pk}/{'bounty-payments' if bounty else 'payments'}/{p.number}/print/"
    who = "api-bounty-payment-print:POST" if bounty else "api-payment-print:POST"
    return render(
        request,
        "payouts/receipt.html",
        {
            **printing.print_view(request, t, paper=paper, api=api, who=who),
            "t": t,
            "p": p,
            "bounty": bounty,
            "lines": lines,
            "signature": "data:image/png;base64," + base64.b64encode(bytes(p.signature)).decode(),
            "pdf": reverse("bounty-receipt-pdf" if bounty else "payout-receipt-pdf", args=[t.pk, p.number]),
            "void_api": f"tournaments/{t.pk}/{'bounty-payments' if bounty else 'payments'}/{p.number}/void/",
            "foot": foot,
            "may_void": access.may(request.user, void, t.pk),
        },
    )


def receipt_pdf(p: Payment | BountyPayment, paper: str, build, name: str) -> HttpResponse:
    with timezone.override(p.tournament.time_zone):
        pdf = build(p, paper="a4" if paper == "a4" else "80mm")
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{name}-{p.tournament_id}-{p.number}.pdf"'
    return response


@page("payout-receipt")
@in_venue_time
def payout_receipt(request, tournament: Tournament, number: int):
    payment = _payment(tournament.pk, number)
    lines = receipts.payout_lines(payment)
    return cage_receipt(request, tournament, payment, bounty=False, lines=lines, void="api-payment-void:POST", foot=receipts.payout_foot())


@page("payout-receipt-pdf")
def payout_receipt_pdf(request, pk: int, number: int):
    return receipt_pdf(_payment(pk, number), request.GET.get("paper", ""), receipts.payout_pdf, "payout")


# --- bounties at the cage ---------------------------------------------------------------------------


@page("bounty-pay")
@in_venue_time
def bounty_pay_page(request, tournament: Tournament, number: int):
    """The cashier pays an entry the bounties it is owed, as a prize is paid: the ID typed again, the player's
    signature. What would refuse the payment (nothing owed, the house collects later) is said at once, instead of the
    form: the same refusals as the payment's (payouts.selectors.bounties.bounty_due)."""
    if not bounty_selectors.is_bounty(tournament):
        raise Http404("not a bounty event")
    entry = get_object_or_404(Entry.objects.select_related("player", "id_check"), tournament=tournament, number=number)
    due = bounty_selectors.bounty_due(tournament, entry)
    return render(
        request,
        "payouts/bounty_pay.html",
        {
            "t": tournament,
            "entry": entry,
            "due": due,
            "lines": [receipts.award_line(a, tournament.currency) for a in due.owed],
            "won": bounty_selectors.won_by_entry(tournament).get(entry.number),
            "receipts": list(BountyPayment.objects.filter(entry=entry).order_by("number").only("number", "status")),
            "document_types": IdCheck.DocumentType.choices,
        },
    )


@page("bounty-receipt")
@in_venue_time
def bounty_receipt(request, tournament: Tournament, number: int):
    payment = _bounty_payment(tournament.pk, number)
    lines = receipts.bounty_lines(payment)
    return cage_receipt(
        request, tournament, payment, bounty=True, lines=lines, void="api-bounty-payment-void:POST", foot=receipts.bounty_foot()
    )


@page("bounty-receipt-pdf")
def bounty_receipt_pdf(request, pk: int, number: int):
    return receipt_pdf(_bounty_payment(pk, number), request.GET.get("paper", ""), receipts.bounty_pdf, "bounty")


# --- reports ---------------------------------------------------------------------------------------


@page("payout-results-csv")
@in_venue_time
def results_csv(request, tournament: Tournament):
    """The results as a CSV download (UTF-8 with a byte order mark, so a spreadsheet opens the accents)."""
    report = reports.results_report(tournament)
    text = reports.results_csv(report["rows"], tournament.currency, bounties=bool(report.get("bounties")))
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="results-{tournament.pk}.csv"'
    return response


@page("payout-results-pdf")
@in_venue_time
def results_pdf(request, tournament: Tournament):
    """The results on A4, to print and file."""
    response = HttpResponse(reports.results_pdf(tournament), content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="results-{tournament.pk}.pdf"'
    return response


@page("payout-reconciliation")
@in_venue_time
def reconciliation_page(request, tournament: Tournament):
    """The cashier closing the night: what came in, what went out, what the cage should hold."""
    figures = reconciliation(tournament)
    for row in figures["takings"]:
        row["label"] = Purchase.Kind(row["kind"]).label
    bounty = figures["bounty_format"] != Tournament.BountyFormat.NONE
    return render(request, "payouts/reconciliation.html", {"t": tournament, "r": figures, "bounty": bounty})
