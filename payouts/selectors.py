"""Reads of the money: the payout structure in force and the prize of every finishing place."""
from __future__ import annotations

from django.db.models import Q

from tournament.models import Entry, Tournament
from tournament.stats import registration_problem, tournament_stats

from . import prizes as pz
from .house_tables import house_table_from_data, house_table_payouts
from .models import PayoutPlan
from .payout_structure import PayoutBand, PayoutRules, PayoutStructure, payout_structure

LIVE = "live"  # follows the entries and the pool
FROZEN = "frozen"  # late registration is over: no entry can come any more
EDITED = "edited"  # the director's own prizes


def plan_of(t: Tournament) -> PayoutPlan:
    """The tournament's plan, or the house defaults (unsaved) when it has none."""
    return PayoutPlan.objects.filter(tournament=t).first() or PayoutPlan(tournament=t)


def rules_of(plan: PayoutPlan) -> PayoutRules:
    return PayoutRules.from_basis_points(plan.share_paid_bp, plan.min_cash_bp, plan.unit)


def generated(t: Tournament, plan: PayoutPlan, pool: int, entries: int) -> PayoutStructure | None:
    """The structure the plan's method makes for this pool and field (None: nobody to pay yet)."""
    if entries < 1:
        return None
    if plan.method == PayoutPlan.Method.HOUSE_TABLE:
        table = house_table_from_data(plan.house_table)
        if entries < table[0].min_entries or entries > table[-1].max_entries:
            return None
        return house_table_payouts(pool, entries, table, plan.unit)
    return payout_structure(pool, entries, t.buy_in, rules_of(plan))


def edited_bands(plan: PayoutPlan) -> list[PayoutBand]:
    return [PayoutBand(first, last, prize) for first, last, prize in plan.edited["prizes"]]


def payout_state(t: Tournament, stats: dict | None = None) -> dict:
    """The structure in force with what the screens say about it: the bands, places paid (and why fewer
    than wanted), whether it still follows the entries, the next pay jump, in the money or not."""
    stats = stats or tournament_stats(t)
    plan = plan_of(t)
    pool, entries, left = stats["prize_pool"], stats["entries"], stats["players_left"]
    structure = generated(t, plan, pool, entries)
    state = LIVE if registration_problem(t) is None else FROZEN
    edit_stale = False
    bands = list(structure.bands) if structure else []
    if plan.edited:
        if plan.edited["pool"] == pool and plan.edited["entries"] == entries:
            bands, state = edited_bands(plan), EDITED
        else:
            edit_stale = True  # the pool or the field changed since: the edit no longer adds up
    prizes = [band.prize for band in bands for _ in range(band.last_place - band.first_place + 1)]
    jump = pz.next_pay_jump(prizes, left)
    return {
        "method": plan.method, "state": state, "edit_stale": edit_stale,
        "pool": pool, "entries": entries, "players_left": left, "currency": t.currency, "unit": plan.unit,
        "share_paid_bp": plan.share_paid_bp, "min_cash_bp": plan.min_cash_bp,
        "min_cash": structure.min_cash if structure else 0,
        "places_wanted": structure.places_wanted if structure else 0,
        "places_paid": len(prizes),
        "reason": None if state == EDITED or structure is None else structure.reason,
        "bands": [{"first": b.first_place, "last": b.last_place, "prize": b.prize} for b in bands],
        "in_the_money": bool(prizes) and 0 < left <= len(prizes),
        "next_jump": None if jump is None else {"place": jump[0], "prize": jump[1]},
        "prizes": prizes,
    }


def finishers(t: Tournament) -> list[pz.Finisher]:
    """Every entry with a finishing place (the last one playing is first once everyone else is out)."""
    rows = list(Entry.objects.filter(tournament=t).filter(
        Q(finish_place__isnull=False) | Q(status=Entry.Status.ACTIVE)).exclude(status=Entry.Status.VOIDED)
        .values_list("number", "status", "finish_place", "finish_place_low"))
    active = [row for row in rows if row[1] == Entry.Status.ACTIVE]
    found = [pz.Finisher(number, place, low or place) for number, status, place, low in rows if status != Entry.Status.ACTIVE]
    if len(active) == 1 and found:
        found.append(pz.Finisher(active[0][0], 1, 1))
    return found


def prizes_won(t: Tournament, state: dict | None = None) -> dict[int, int]:
    """Entry number -> its prize (minor units), for every entry with a finishing place."""
    return pz.split((state or payout_state(t))["prizes"], finishers(t))


def results(t: Tournament, state: dict | None = None) -> list[dict]:
    """Every finishing place with its name and prize, best first (ties: by entry number)."""
    found = finishers(t)
    won = pz.split((state or payout_state(t))["prizes"], found)
    names = {e.number: e.player.display_name for e in Entry.objects.filter(
        tournament=t, number__in=[f.entry for f in found]).select_related("player")}
    rows = [{"entry": f.entry, "name": names.get(f.entry, ""), "place": f.place, "place_low": f.place_low,
             "prize": won.get(f.entry, 0)} for f in found]
    return sorted(rows, key=lambda row: (row["place"], row["entry"]))
