"""Reads of the cashier's reconciliation: the takings by kind (paid, announced, voided and refunded), the
pool and its overlay as the payouts read them, the prizes paid and owed, and the closing figures
(payouts/rules/cage.py). A handful of aggregate queries, however large the field.

An event's Day 1 flights and its Day 2 share one pool and one cage (flights/): each page closes its own part (`part`:
"flight" or "day2"; None for a tournament of its own) and shows the event's cage apart (`event`), so each crown is
counted once: the parts' cages add up to the event's."""

from __future__ import annotations

from dataclasses import asdict

from django.db.models import Count, F, Q, Sum

from flights.selectors import events as flights_selectors
from payouts.models import BountyPayment, Payment, Ticket
from payouts.rules import cage
from payouts.selectors import bounties as bounty_selectors
from payouts.selectors import structure
from tournament.models import Purchase, Tournament
from tournament.selectors import waiting_list
from tournament.selectors.stats import tournament_stats

KINDS = (Purchase.Kind.BUY_IN, Purchase.Kind.REENTRY, Purchase.Kind.REBUY, Purchase.Kind.ADDON)


def takings(t: Tournament) -> tuple[dict[str, dict[str, dict[str, int]]], dict[str, int]]:
    """kind -> status -> count, prize part (amount), fee, taken (the totals of receipts paid in cash, voided after
    payment included: a ticket brought none), refunded, and the receipts paid with a satellite's ticket among them
    (tickets, tickets_amount, tickets_fee); and the buy-ins paid with a ticket, not voided (count, amount, fee and
    total): one grouped query."""

    def blank() -> dict[str, int]:
        return {
            "count": 0,
            "amount": 0,
            "bounty": 0,
            "fee": 0,
            "taken": 0,
            "refunded": 0,
            "tickets": 0,
            "tickets_amount": 0,
            "tickets_fee": 0,
        }

    found = {kind: {status: blank() for status in Purchase.Status.values} for kind in KINDS}
    tickets = {"count": 0, "amount": 0, "fee": 0, "total": 0}
    rows = (
        Purchase.objects.filter(tournament=t)
        .order_by()
        .values("kind", "status", "paid_with")
        .annotate(
            n=Count("id"),
            amount_sum=Sum("amount"),
            bounty_sum=Sum("bounty"),
            fee_sum=Sum("fee"),
            refunded=Sum("refund_amount"),
            taken=Sum(F("amount") + F("bounty") + F("fee"), filter=Q(paid_at__isnull=False)),
        )
    )
    for row in rows:
        cash = row["paid_with"] == Purchase.PaidWith.CASH
        into = found.setdefault(row["kind"], {}).setdefault(row["status"], blank())
        amount, fee, bounty = row["amount_sum"] or 0, row["fee_sum"] or 0, row["bounty_sum"] or 0
        for key, value in (
            ("count", row["n"]),
            ("amount", amount),
            ("bounty", bounty),
            ("fee", fee),
            ("taken", row["taken"] if cash else 0),
            ("refunded", row["refunded"]),
        ):
            into[key] += value or 0
        if not cash:
            into["tickets"] += row["n"]
            into["tickets_amount"] += amount + bounty  # what the ticket paid besides the fee: the pool's part and the bounty
            into["tickets_fee"] += fee
            if row["status"] == Purchase.Status.PAID:
                tickets["count"] += row["n"]
                tickets["amount"] += amount + bounty
                tickets["fee"] += fee
                tickets["total"] += amount + bounty + fee
    return found, tickets


def own_cash(t: Tournament) -> dict[str, int]:
    """A tournament's own cash: {cash_in (taken in cash less refunded), prizes_paid (prizes and bounties), cage}: three queries."""
    by_kind, _tickets = takings(t)
    taken = sum(row["taken"] for kinds in by_kind.values() for row in kinds.values())
    refunded = sum(row["refunded"] for kinds in by_kind.values() for row in kinds.values())
    paid = Payment.objects.filter(tournament=t, status=Payment.Status.PAID).aggregate(n=Sum("amount"))["n"] or 0
    paid += BountyPayment.objects.filter(tournament=t, status=BountyPayment.Status.PAID).aggregate(n=Sum("amount"))["n"] or 0
    return {"cash_in": taken - refunded, "prizes_paid": paid, "cage": taken - refunded - paid}


def event_cage(t: Tournament) -> tuple[str | None, dict | None]:
    """For an event's flight or Day 2: which part this is ("flight", "day2") and the event's cage, counted once:
    {name, cash_in, prizes_paid, cage, parts: [{tournament, name, part, cash_in, prizes_paid, cage}, ...]} over its
    flights (earliest first) and its Day 2. (None, None) for a tournament of its own."""
    event = flights_selectors.event_of(t)
    if event is None:
        return None, None
    part = "day2" if event.day2_id == t.pk else "flight"
    ids = [*flights_selectors.flight_ids(event), *([event.day2_id] if event.day2_id else [])]
    tournaments = Tournament.objects.in_bulk(ids)
    parts = [
        {"tournament": pk, "name": tournaments[pk].name, "part": "day2" if pk == event.day2_id else "flight", **own_cash(tournaments[pk])}
        for pk in ids
    ]
    totals = cage.totals(parts, "cash_in", "prizes_paid", "cage")
    return part, {"name": event.name, **totals, "parts": parts}


def reconciliation(t: Tournament) -> dict:
    """The reconciliation of a tournament's money, in minor units (the page and the API show the same)."""
    stats = tournament_stats(t)
    state = structure.payout_state(t, stats)
    by_kind, tickets = takings(t)
    paid = dict(Payment.objects.filter(tournament=t, status=Payment.Status.PAID).values_list("entry__number", "amount"))
    won = structure.prizes_won(t, state)
    voided = [by_kind[kind][Purchase.Status.VOIDED] for kind in KINDS]
    seats = {"n": 0, "total": 0}
    winners = structure.seat_winners(t, state) if state["satellite"] else []
    if state["satellite"]:
        seats = (
            Ticket.objects.filter(satellite__tournament=t).exclude(status=Ticket.Status.VOID).aggregate(n=Count("id"), total=Sum("value"))
        )
    # This tournament's own receipts: in an event, Day 2's figures also hold its flights' money (tournament.selectors.stats),
    # which their own pages count; here it is the pool they brought (pool_in), and a flight's pool goes to the event.
    part, event = event_cage(t)
    collected = sum(by_kind[kind][Purchase.Status.PAID]["amount"] for kind in KINDS)
    fees = sum(by_kind[kind][Purchase.Status.PAID]["fee"] for kind in KINDS)
    bounty = bounty_selectors.money(t) if bounty_selectors.is_bounty(t) else None
    pool_in = stats["collected"] - collected if part == "day2" else 0
    pool_out = stats["prize_pool"] if part == "flight" else 0
    closing = cage.close(
        collected=collected,
        fees=fees,
        voided_taken=sum(v["taken"] for v in voided),
        refunded=sum(v["refunded"] for v in voided),
        pool=stats["prize_pool"],
        won=won,
        paid=paid,
        tickets_in=tickets["total"],
        seats_out=seats["total"] or 0,
        pool_in=pool_in,
        pool_out=pool_out,
        bounties=None
        if bounty is None
        else {
            "in": sum(by_kind[kind][Purchase.Status.PAID]["bounty"] for kind in KINDS),
            "paid": bounty["paid"],
            "owed": bounty["owed"],
            "in_play": bounty["in_play"],
            "forfeited": bounty["forfeited"],
            "to_pool": bounty["to_pool"],
        },
    )
    rows = []
    for kind in KINDS:
        got, announced, void = (
            by_kind[kind][status] for status in (Purchase.Status.PAID, Purchase.Status.ANNOUNCED, Purchase.Status.VOIDED)
        )
        total, by_ticket = got["amount"] + got["bounty"] + got["fee"], got["tickets_amount"] + got["tickets_fee"]
        rows.append(
            {
                "kind": kind,
                "count": got["count"],
                "amount": got["amount"],
                "bounty": got["bounty"],
                "fee": got["fee"],
                "total": total,
                # Of those, paid with a satellite's ticket: in the pool and the fees, but no cash came in for them.
                "tickets": got["tickets"],
                "tickets_amount": got["tickets_amount"],
                "tickets_fee": got["tickets_fee"],
                "tickets_total": by_ticket,
                "cash_taken": total - by_ticket,
                "announced": announced["count"],
                "announced_total": announced["amount"] + announced["bounty"] + announced["fee"],
                "voided": void["count"],
                "voided_taken": void["taken"],
                "refunded": void["refunded"],
                "kept": void["taken"] - void["refunded"],
            }
        )
    figures = asdict(closing)
    figures.update(
        {
            "currency": t.currency,
            "guarantee": t.guaranteed_pool,
            "takings": rows,
            "takings_total": cage.totals(
                rows,
                "count",
                "amount",
                "bounty",
                "fee",
                "total",
                "tickets",
                "tickets_amount",
                "tickets_fee",
                "tickets_total",
                "cash_taken",
                "announced",
                "announced_total",
                "voided",
                "voided_taken",
                "refunded",
                "kept",
            ),
            "mismatches": [asdict(m) for m in closing.mismatches],
            "unpaid_entries": list(closing.unpaid_entries),
            "players_left": stats["players_left"],
            "tickets_in_count": tickets["count"],
            "seats_out_count": seats["n"],
            "tickets_in_amount": tickets["amount"],
            "tickets_in_fee": tickets["fee"],
            # A satellite whose play has stopped: the players left won seats (tickets), they are not in play any more.
            "play_stopped": bool(winners),
            "seat_winners": len(winners),
            "part": part,
            "event": event,
            "bounty_format": t.bounty_format,
            # Buy-ins taken from players still on the waiting list: in the drawer beside the cage's own money, owed back
            # to them or their receipts once seated (tournament/selectors/waiting_list.py).
            "waiting_list": waiting_list.money_held(t),
        }
    )
    return figures
