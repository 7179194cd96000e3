"""Reads of a bounty event's money (payouts/rules/bounties.py): its rules, the heads bought, the night's eliminations
in order, the ledger they make, and the figures the screens, the cage and the reconciliation show."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce
from django.utils.translation import gettext as _

from core.errors import ServiceError
from payouts.models import BountyAward, BountyPayment, BountyRules, MysteryBox
from payouts.rules import bounties as b
from tables.models import Draw, Elimination
from tournament.models import Entry, Player, Purchase, Tournament

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


def heads_at_a_bust(t: Tournament, busted: int, winners, *, progressive: bool) -> dict[int, tuple[int, str, int]]:
    """Entry id -> (number, name, head) of the entry busting now (`busted`: its id) and of the pot's winners (entry
    numbers), whose heads are not taken: the bounty bought plus, in a PKO, what each kept of the heads it took. One
    query, whatever the size of the field."""
    bought = (
        Purchase.objects.filter(entry_id=OuterRef("pk"), kind__in=HEAD_KINDS, status=Purchase.Status.PAID)
        .values("entry_id")
        .annotate(n=Sum("bounty"))
        .values("n")
    )
    rows = Entry.objects.filter(Q(pk=busted) | Q(tournament=t, number__in=list(winners))).annotate(bought=Coalesce(Subquery(bought), 0))
    if progressive:
        added = awards(t).filter(winner_id=OuterRef("pk")).values("winner_id").annotate(n=Sum("head_added")).values("n")
        rows = rows.annotate(added=Coalesce(Subquery(added), 0))
    else:
        rows = rows.annotate(added=Value(0))
    found = rows.values_list("pk", "number", "player__first_name", "player__last_name", "player__nickname", "bought", "added")
    return {pk: (number, Player.name_of(first, last, nick), bought + added) for pk, number, first, last, nick, bought, added in found}


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


# --- the heads beside a deal (the payouts page's deal section) -----------------------------------------------------


def heads_beside_deal(t: Tournament, entries: list[int], deals: dict[str, list[int] | None] | None = None) -> dict | None:
    """What the heads in play do beside a deal of `entries` (entry numbers, the players left): each one's head now
    (`heads`), the bounty money in play (`in_play`: the heads, and a mystery event's envelopes left), the house rule
    when a deal stops play (`rule`, payouts/services/bounties._play_over_awards) and, where the heads are dealt too,
    what each would be paid of them by each of `deals` (a name -> the deal's amounts in the order of `entries`; None:
    that deal is not made) by the same rule (payouts/rules/bounties.dealt_heads). None outside a bounty event."""
    if not is_bounty(t):
        return None
    row = bounty_rules(t)
    now = heads(t)
    own = {n: now.get(n, 0) for n in entries}
    # Everything taken in that no award has taken out: what `money` calls in play, in two queries.
    in_play = taken_in(t) - (awards(t).aggregate(n=Sum("cash"))["n"] or 0)
    dealt = {}
    if row.deal_heads == BountyRules.DealHeads.DEALT:
        rules = rules_of(t, row)
        for name, amounts in (deals or {}).items():
            if amounts is None:
                dealt[name] = None
                continue
            ledger = b.Ledger(heads=dict(now), pot=in_play - sum(now.values()))
            made = b.dealt_heads(ledger, dict(zip(entries, amounts, strict=True)), rules, order=0)
            dealt[name] = {a.winner: a.cash for a in made}
    return {
        "format": t.bounty_format,
        "mystery": t.bounty_format == Tournament.BountyFormat.MYSTERY,
        "rule": row.deal_heads,
        "heads": own,
        "total": sum(own.values()),
        "in_play": in_play,
        "dealt": dealt,
    }


# --- a player's record: the entry page and his every-result page --------------------------------------------------------


def _knockout_row(a: BountyAward, number: int) -> dict:
    """One standing award an entry won, as his record says it (`record_of`)."""
    elim = a.elimination
    bust = a.kind == BountyAward.Kind.BUST and a.busted is not None
    winners = list(elim.winners) if elim is not None else []
    return {
        "award": a.number,
        "kind": a.kind,
        "label": a.get_kind_display(),
        "busted": a.busted.number if bust else None,
        "name": a.busted.player.display_name if bust else "",
        # the bust's time (a correction's row is written later); a play-over award's own
        "at": (a.busted.busted_at if bust else None) or (elim.created_at if elim is not None else a.created_at),
        "table": elim.table_number if elim is not None else None,
        "split": len(winners) if len(winners) > 1 else None,
        "others": [n for n in winners if n != number],
        "cash": a.cash,
        "head_added": a.head_added,
        "envelope": a.envelope,
        "receipt": a.payment.number if a.payment_id else None,
    }


def _head_taken(t: Tournament, entry: Entry) -> dict | None:
    """Who took an entry's head, once his elimination stands: the pot's winners (a split pot: each), each with the cash
    of his head and what went onto his own (PKO; none in a mystery event before its envelopes, where the bounty stays
    for them), or for a disqualified player where his head went. None while no elimination of his stands."""
    elim = Elimination.objects.filter(tournament=t, busted=entry, status=Elimination.Status.STANDING).first()
    if elim is None:
        return None
    got = {}
    to_pool = None
    envelope = None
    for winner, cash, added, pool, value in (
        awards(t)
        .filter(busted=entry, kind__in=(BountyAward.Kind.BUST, BountyAward.Kind.DQ))
        .values_list("winner__number", "cash", "head_added", "to_pool", "envelope")
    ):
        if winner is None:
            to_pool = pool
        else:
            got[winner] = (cash, added)
        envelope = value if value is not None else envelope
    names = {e.number: e.player.display_name for e in Entry.objects.filter(tournament=t, number__in=elim.winners).select_related("player")}
    return {
        "disqualified": elim.kind == Elimination.Kind.DQ,
        "to_pool": to_pool,
        "envelope": envelope,
        "paid": bool(got) or to_pool is not None,
        "at": entry.busted_at or elim.created_at,
        "table": elim.table_number,
        "by": [
            {"entry": n, "name": names.get(n, ""), "cash": got.get(n, (None, 0))[0], "head_added": got.get(n, (None, 0))[1]}
            for n in elim.winners
        ],
    }


def record_of(t: Tournament, entry: Entry) -> dict | None:
    """An entry's bounties on his record (the entry page; None outside a bounty event). `won`: his standing awards in
    the order of the night, each knockout with the entry he took out (number and name), when and at which table, the
    number of winners and the others where the pot was split, the cash he won, what went onto his head (PKO), the
    envelope (mystery) and the bounty receipt that paid it (None: owed); a play-over award (his own head, the heads
    dealt) as it is. An undone or corrected elimination's awards are void: not listed. `totals` over them (cash, head
    added, paid, owed; the same figures as `won_by_entry`). `taken`: who took his head once he is out (`_head_taken`)."""
    if not is_bounty(t):
        return None
    rows = awards(t).filter(winner=entry).select_related("busted__player", "elimination", "payment").order_by("order", "number")
    won = [_knockout_row(a, entry.number) for a in rows]
    cash = sum(r["cash"] for r in won)
    paid = sum(r["cash"] for r in won if r["receipt"] is not None)
    return {
        "won": won,
        "totals": {"cash": cash, "head_added": sum(r["head_added"] for r in won), "paid": paid, "owed": cash - paid},
        "taken": None if entry.status == Entry.Status.ACTIVE else _head_taken(t, entry),
    }


def won_by_player(player_id: int, tournament_ids) -> dict[int, dict]:
    """Tournament id -> {knockouts, won} of a player's entries (re-entries together), for the bounty events among
    `tournament_ids` (his every-result page): the players he knocked out (a split pot counting for each winner, as
    `won_by_entry`) and the bounty cash he won there, over the standing awards. Two queries, whatever the count."""
    events = list(
        Tournament.objects.filter(pk__in=tournament_ids).exclude(bounty_format=Tournament.BountyFormat.NONE).values_list("pk", flat=True)
    )
    rows = (
        BountyAward.objects.filter(tournament_id__in=events, status=BountyAward.Status.STANDING, winner__player_id=player_id)
        .values("tournament_id")
        .annotate(won=Sum("cash"), knockouts=Count("elimination", distinct=True, filter=Q(kind=BountyAward.Kind.BUST)))
    )
    found = {r["tournament_id"]: {"knockouts": r["knockouts"], "won": r["won"] or 0} for r in rows}
    return {pk: found.get(pk, {"knockouts": 0, "won": 0}) for pk in events}
