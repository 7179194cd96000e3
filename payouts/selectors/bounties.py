"""Reads of a bounty event's money (payouts/rules/bounties.py): its rules, the heads bought, the night's eliminations
in order, the ledger they make, and the figures the screens, the cage and the reconciliation show."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, Q, Sum
from django.utils.translation import gettext as _

from core.errors import ServiceError
from payouts.models import BountyAward, BountyPayment, BountyRules, MysteryBox
from payouts.rules import bounties as b
from tables.models import Draw, Elimination
from tournament.models import Entry, Purchase, Tournament

HEAD_KINDS = (Purchase.Kind.BUY_IN, Purchase.Kind.REENTRY)
SEAT_MODULUS = 100  # more than any table's seats: clockwise distances from the button


def is_bounty(t: Tournament) -> bool:
    return t.bounty_format != Tournament.BountyFormat.NONE


def bounty_rules(t: Tournament) -> BountyRules:
    """The tournament's bounty settings; the defaults (not stored: reading never writes) when none are set."""
    return BountyRules.objects.filter(tournament=t).first() or BountyRules(tournament=t)


def rules_of(t: Tournament, row: BountyRules | None = None) -> b.Rules:
    row = row or bounty_rules(t)
    return b.Rules(
        t.bounty_format,
        t.bounty,
        cash_share_bp=row.cash_share_bp,
        increment=row.increment,
        mystery_before=row.mystery_before,
    )


def starts(t: Tournament) -> dict[int, int]:
    """Entry number -> the bounty its buy-in paid (its head as bought): paid buy-ins and re-entries, not voided."""
    rows = Purchase.objects.filter(tournament=t, kind__in=HEAD_KINDS, status=Purchase.Status.PAID, bounty__gt=0)
    return dict(rows.values_list("entry__number", "bounty"))


def taken_in(t: Tournament) -> int:
    return Purchase.objects.filter(tournament=t, kind__in=HEAD_KINDS, status=Purchase.Status.PAID).aggregate(n=Sum("bounty"))["n"] or 0


def winners_in_order(row: Elimination, odd_unit: str) -> tuple[int, ...]:
    """The winners of an elimination in the order the odd units of its bounty go: clockwise from the button's left
    (the house's default, as TDA's odd chip), or as the floor named them."""
    winners = list(row.winners)
    if odd_unit != BountyRules.OddUnit.LEFT_OF_BUTTON or row.button_seat is None or len(row.winner_seats) != len(winners):
        return tuple(winners)
    seat_of = dict(zip(winners, row.winner_seats, strict=True))
    return tuple(sorted(winners, key=lambda n: (seat_of[n] - row.button_seat - 1) % SEAT_MODULUS))


def standing(t: Tournament) -> list[Elimination]:
    return list(Elimination.objects.filter(tournament=t, status=Elimination.Status.STANDING).select_related("busted").order_by("order"))


def envelopes_drawn(t: Tournament) -> dict[int, tuple[int, int]]:
    """Elimination order -> (the envelope's value, its draw's id), for the envelopes drawn and not given back (their
    elimination stands). The last draw of an order counts."""
    orders = set(Elimination.objects.filter(tournament=t, status=Elimination.Status.STANDING).values_list("order", flat=True))
    found: dict[int, tuple[int, int]] = {}
    for pk, result in Draw.objects.filter(tournament=t, kind=Draw.Kind.ENVELOPE).order_by("number").values_list("pk", "result"):
        if result and result.get("order") in orders:
            found[result["order"]] = (result["value"], pk)
    return found


def mystery_box(t: Tournament) -> MysteryBox | None:
    return MysteryBox.objects.filter(tournament=t).first()


def box_left(t: Tournament, box: MysteryBox | None = None, *, own: bool = True) -> list[tuple[int, int]]:
    """The envelopes still in the box: the list less the envelopes drawn whose eliminations stand, and (`own`) those
    the players left drew for their own heads at play over."""
    box = box or mystery_box(t)
    if box is None:
        return []
    drawn = [v for v, _pk in envelopes_drawn(t).values()]
    if own:
        drawn += list(awards(t).filter(kind=BountyAward.Kind.OWN, envelope__isnull=False).values_list("envelope", flat=True))
    return b.remaining([tuple(x) for x in box.envelopes], drawn)


def eliminations_of(t: Tournament, rules_row: BountyRules | None = None) -> list[b.Elimination]:
    """The night's standing eliminations as the pure rules read them, with the envelopes they drew; a mystery
    elimination in the envelope phase that has not drawn one yet is pending (the box is not committed)."""
    row = rules_row or bounty_rules(t)
    mystery = t.bounty_format == Tournament.BountyFormat.MYSTERY
    drawn = envelopes_drawn(t) if mystery else {}
    phase = row.mystery_from_order if mystery else None
    return [
        b.Elimination(
            e.order,
            e.busted.number,
            winners_in_order(e, row.odd_unit),
            drawn[e.order][0] if e.order in drawn else None,
            b.DQ if e.kind == Elimination.Kind.DQ else b.BUST,
            pending=phase is not None and e.order >= phase and e.order not in drawn,
        )
        for e in standing(t)
    ]


def awards(t: Tournament):
    return BountyAward.objects.filter(tournament=t, status=BountyAward.Status.STANDING)


def head_of(t: Tournament, number: int) -> int:
    """An entry's head now: the bounty it bought plus what it kept of the heads it took (PKO), or its bounty (knockout);
    0 once taken. Two small queries, whatever the size of the field."""
    entry = Entry.objects.filter(tournament=t, number=number).values("pk", "status").first()
    if entry is None:
        return 0
    taken = awards(t).filter(busted_id=entry["pk"]).exists()
    if taken:
        return 0
    start = (
        Purchase.objects.filter(entry_id=entry["pk"], kind__in=HEAD_KINDS, status=Purchase.Status.PAID).aggregate(n=Sum("bounty"))["n"] or 0
    )
    if t.bounty_format != Tournament.BountyFormat.PROGRESSIVE:
        return start
    return start + (awards(t).filter(winner_id=entry["pk"]).aggregate(n=Sum("head_added"))["n"] or 0)


def head_of_playing(t: Tournament, entry_ids: list[int], *, progressive: bool) -> dict[int, int]:
    """Entry id -> head, for entries whose head is not taken (in play, or the one busting now): the bounty bought plus,
    in a PKO, what it kept of the heads it took. Two grouped queries for any number of entries."""
    bought = dict(
        Purchase.objects.filter(entry_id__in=entry_ids, kind__in=HEAD_KINDS, status=Purchase.Status.PAID)
        .values_list("entry_id")
        .annotate(n=Sum("bounty"))
    )
    added = {}
    if progressive:
        added = dict(awards(t).filter(winner_id__in=entry_ids).values_list("winner_id").annotate(n=Sum("head_added")))
    return {pk: (bought.get(pk) or 0) + (added.get(pk) or 0) for pk in entry_ids}


def heads(t: Tournament) -> dict[int, int]:
    """Entry number -> head, for the entries still in play (three queries)."""
    live = dict(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).values_list("pk", "number"))
    bought = dict(
        Purchase.objects.filter(entry_id__in=live, kind__in=HEAD_KINDS, status=Purchase.Status.PAID)
        .values_list("entry_id")
        .annotate(n=Sum("bounty"))
    )
    added = {}
    if t.bounty_format == Tournament.BountyFormat.PROGRESSIVE:
        added = dict(awards(t).filter(winner_id__in=live).values_list("winner_id").annotate(n=Sum("head_added")))
    taken = set(awards(t).filter(busted_id__in=live).values_list("busted_id", flat=True))  # own heads paid at play over
    return {number: 0 if pk in taken else (bought.get(pk) or 0) + (added.get(pk) or 0) for pk, number in live.items()}


def won_by_entry(t: Tournament) -> dict[int, dict]:
    """Entry number -> {won, paid, owed, knockouts} over its standing awards."""
    rows = (
        awards(t)
        .filter(winner__isnull=False)
        .values("winner__number")
        .annotate(
            won=Sum("cash"),
            paid=Sum("cash", filter=Q(payment__isnull=False)),
            knockouts=Count("elimination", distinct=True, filter=Q(kind=BountyAward.Kind.BUST)),
        )
    )
    return {
        r["winner__number"]: {
            "won": r["won"] or 0,
            "paid": r["paid"] or 0,
            "owed": (r["won"] or 0) - (r["paid"] or 0),
            "knockouts": r["knockouts"],
        }
        for r in rows
    }


def pool_added(t: Tournament) -> int:
    """Disqualified players' heads the house added to the prize pool."""
    return awards(t).filter(kind=BountyAward.Kind.DQ, to_pool=True).aggregate(n=Sum("cash"))["n"] or 0


def pool_added_answer(*, tournament: Tournament) -> dict:
    """Answer to tournament.selectors.stats.POOL_ADDED."""
    if not is_bounty(tournament):
        return {}
    added = pool_added(tournament)
    return {"pool_added": added} if added else {}


def money(t: Tournament) -> dict:
    """The bounty money of a tournament, in minor units: taken in, won by players (paid and owed), disqualified heads
    (kept by the house, or added to the prize pool), and in play (heads still in, the mystery pot). It adds up:
    in_play + paid + owed + forfeited + to_pool = taken_in (`adds_up`)."""
    total_in = taken_in(t)
    sums = awards(t).aggregate(
        won=Sum("cash", filter=Q(winner__isnull=False)),
        paid=Sum("cash", filter=Q(winner__isnull=False, payment__isnull=False)),
        forfeited=Sum("cash", filter=Q(winner__isnull=True, to_pool=False)),
        to_pool=Sum("cash", filter=Q(winner__isnull=True, to_pool=True)),
    )
    won, paid = sums["won"] or 0, sums["paid"] or 0
    forfeited, to_pool = sums["forfeited"] or 0, sums["to_pool"] or 0
    in_play = total_in - won - forfeited - to_pool
    payments = BountyPayment.objects.filter(tournament=t, status=BountyPayment.Status.PAID).aggregate(n=Sum("amount"))["n"] or 0
    return {
        "format": t.bounty_format,
        "taken_in": total_in,
        "paid": paid,
        "owed": won - paid,
        "forfeited": forfeited,
        "to_pool": to_pool,
        "in_play": in_play,
        "payments": payments,
        # the receipts paid are the awards they cover; the heads in play are what the ledger says are still in
        "adds_up": payments == paid and in_play == ledger_in_play(t),
    }


def ledger(t: Tournament, rules_row: BountyRules | None = None) -> b.Ledger:
    """The night replayed from its standing eliminations (payouts/rules/bounties.replay)."""
    row = rules_row or bounty_rules(t)
    return b.replay(rules_of(t, row), starts(t), eliminations_of(t, row))


def ledger_in_play(t: Tournament) -> int:
    """The money in play by the replay, less what play-over awards took out (own heads, heads dealt)."""
    if not is_bounty(t):
        return 0
    out = awards(t).filter(kind__in=(BountyAward.Kind.OWN, BountyAward.Kind.DEALT)).aggregate(n=Sum("cash"))["n"] or 0
    return ledger(t).in_play() - out


# --- the cage and the payouts page ------------------------------------------------------------------------------


def rules_fixed(t: Tournament) -> bool:
    """The house's settings are fixed once a bounty has been won (payouts/services/bounties.set_bounty_rules)."""
    return BountyAward.objects.filter(tournament=t).exists()


def collected_later(t: Tournament, entry: Entry, row: BountyRules | None = None) -> bool:
    """The house pays all of a player's bounties in one payment once he is out or play is over: not yet."""
    row = row or bounty_rules(t)
    return row.cage == BountyRules.Cage.COLLECTED and entry.status == Entry.Status.ACTIVE and t.status != Tournament.Status.FINISHED


@dataclass(frozen=True)
class BountyDue:
    """What the cage may pay an entry in bounties now: the awards owed (oldest first, with the busted entries and
    their players), their sum, and why they cannot be paid now (None: they can)."""

    owed: list[BountyAward]
    amount: int
    refusal: ServiceError | None


def bounty_due(t: Tournament, entry: Entry) -> BountyDue:
    """Asked by the bounty pay page before the cashier takes the ID and the player signs: the same refusals as
    payouts/services/bounty_cage.pay_bounties (not a bounty event, nothing owed, collected later)."""
    owed = list(awards(t).filter(winner=entry, payment__isnull=True, cash__gt=0).select_related("busted__player").order_by("number"))
    refusal = None
    if not is_bounty(t):
        refusal = ServiceError(_("This tournament has no bounties."), code="not_bounty", status=409)
    elif not owed:
        refusal = ServiceError(_("Entry #%(number)s is owed no bounty.") % {"number": entry.number}, code="nothing_owed", status=409)
    elif collected_later(t, entry):
        refusal = ServiceError(
            _("The house pays bounties in one payment once the player is out or play is over: entry #%(number)s still plays.")
            % {"number": entry.number},
            code="collected_later",
            status=409,
        )
    return BountyDue(owed=owed, amount=sum(a.cash for a in owed), refusal=refusal)


def winners(t: Tournament) -> list[dict]:
    """The entries that won bounties, by entry number (`won_by_entry`), with the player's name, whether the entry still
    plays, and whether the cage may pay what it is owed now (`payable`: not while the house collects later)."""
    won = won_by_entry(t)
    row = bounty_rules(t)
    entries = Entry.objects.filter(tournament=t, number__in=won).select_related("player")
    return [
        {
            "entry": e.number,
            "name": e.player.display_name,
            "playing": e.status == Entry.Status.ACTIVE,
            **won[e.number],
            "payable": won[e.number]["owed"] > 0 and not collected_later(t, e, row),
        }
        for e in sorted(entries, key=lambda e: e.number)
    ]
