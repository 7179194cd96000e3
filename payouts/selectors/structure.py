"""Reads of the money: the payout structure in force and the prize of every finishing place."""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Q
from django.utils.translation import gettext as _

from core.errors import ServiceError
from flights.selectors import events as flights_selectors
from payouts.models import Deal, Payment, PayoutPlan, Satellite
from payouts.rules import deals as dl
from payouts.rules import prizes as pz
from payouts.rules import satellite as sl
from payouts.rules.house_tables import house_table_from_data, house_table_payouts
from payouts.rules.icm import MAX_PLAYERS
from payouts.rules.payout_structure import PayoutBand, PayoutRules, PayoutStructure, payout_structure
from tables.models import Table
from tables.selectors import state as tables_selectors
from tournament.models import Entry, Tournament
from tournament.selectors.stats import registration_problem, tournament_stats

LIVE = "live"  # follows the entries and the pool
FROZEN = "frozen"  # late registration is over: no entry can come any more
EDITED = "edited"  # the director's own prizes
PAID_FROM_DAY2 = "paid_from_day2"  # the reason a Day 1 flight pays no places (flights)
MAX_DEAL_PLAYERS = MAX_PLAYERS  # a deal is made at the final table; exact ICM goes this far


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


def satellite_of(t: Tournament) -> Satellite | None:
    """The tournament's satellite setting (its target read with it), or None: it is not a satellite."""
    return Satellite.objects.filter(tournament=t).select_related("target").first()


def seat_value(sat: Satellite) -> int:
    """What a seat is worth: one entry into the target event, its buy-in, its bounty and its fee (what the desk would
    take), or its buy-in and bounty alone where the house waives the fee for a ticket."""
    return sat.target.buy_in + sat.target.bounty + (sat.target.fee if sat.seat == Satellite.Seat.ENTRY else 0)


def satellite_prizes_of(sat: Satellite, pool: int, entries: int) -> sl.SatellitePrizes:
    value = seat_value(sat)
    if value <= 0:  # a target made free since: no seat to give, the pool is the winner's
        return sl.SatellitePrizes(0, 0, (pool,) if pool else ())
    return sl.satellite_prizes(pool, value, entries, sat.leftover)


def _bands_of(prizes: list[int]) -> list[PayoutBand]:
    """Prizes by place as bands of equal prizes (the places without a prize left out)."""
    bands: list[PayoutBand] = []
    for place, prize in enumerate(prizes, 1):
        if not prize:
            continue
        if bands and bands[-1].prize == prize and bands[-1].last_place == place - 1:
            bands[-1] = PayoutBand(bands[-1].first_place, place, prize)
        else:
            bands.append(PayoutBand(place, place, prize))
    return bands


def satellite_state(t: Tournament, sat: Satellite, stats: dict, plan: PayoutPlan) -> dict:
    """payout_state of a satellite: its seats and the cash by place (payouts/rules/satellite.py) instead of a
    structure. `places_paid` counts the places that get something; play stops at `satellite.stops_at` players,
    and that is the bubble the floor plays hand-for-hand."""
    pool, entries, left = stats["prize_pool"], stats["entries"], stats["players_left"]
    prizes = satellite_prizes_of(sat, pool, entries)
    stops_at = sl.play_stops_at(prizes)
    cash = list(prizes.cash)
    bands = _bands_of(cash)
    return {
        "method": "satellite",
        "state": LIVE if registration_problem(t) is None else FROZEN,
        "edit_stale": False,
        "pool": pool,
        "entries": entries,
        "players_left": left,
        "currency": t.currency,
        "unit": plan.unit,
        "share_paid_bp": plan.share_paid_bp,
        "min_cash_bp": plan.min_cash_bp,
        "min_cash": 0,
        "places_wanted": stops_at,
        "places_paid": max(prizes.seats, len(cash)),
        "reason": None,
        "paid_from": None,
        "bands": [{"first": b.first_place, "last": b.last_place, "prize": b.prize} for b in bands],
        "in_the_money": 0 < left <= stops_at,
        "next_jump": None,
        "deal": None,
        "prizes": cash,
        "satellite": {
            "target": {"id": sat.target_id, "name": sat.target.name, "start_at": sat.target.start_at.isoformat()},
            "seats": prizes.seats,
            "seat_value": prizes.seat_value,
            "seat": sat.seat,
            "cash": prizes.leftover,
            "leftover": sat.leftover,
            "stops_at": stops_at,
            "transferable": sat.transferable,
            "stopped": 0 < left <= stops_at,
        },
    }


def payout_state(t: Tournament, stats: dict | None = None) -> dict:
    """The structure in force with what the screens say about it: the bands, places paid (and why fewer
    than wanted), whether it still follows the entries, the next pay jump, in the money or not. A satellite's
    is its seats and cash (satellite_state)."""
    stats = stats or tournament_stats(t)
    plan = plan_of(t)
    sat = satellite_of(t)
    if sat is not None:
        return satellite_state(t, sat, stats, plan)
    pool, entries, left = stats["prize_pool"], stats["entries"], stats["players_left"]
    paid_from = stats.get("paid_from")  # a Day 1 flight pays nothing: its prizes are paid from Day 2 (flights)
    if paid_from is not None:  # the figures carry the facts; the words are the reader's
        paid_from = flights_selectors.with_message(paid_from)
    structure = generated(t, plan, pool, entries) if paid_from is None else None
    state = LIVE if registration_problem(t) is None else FROZEN
    edit_stale = False
    bands = list(structure.bands) if structure else []
    if plan.edited and paid_from is None:
        if plan.edited["pool"] == pool and plan.edited["entries"] == entries:
            bands, state = edited_bands(plan), EDITED
        else:
            edit_stale = True  # the pool or the field changed since: the edit no longer adds up
    prizes = [band.prize for band in bands for _ in range(band.last_place - band.first_place + 1)]
    deals = approved_deals(t)
    if deals:
        prizes = with_deals(prizes, deals)
        dealt = deals[0].players  # the first deal had the most players: its places, one by one, then the rest
        bands = [PayoutBand(place, place, prize) for place, prize in enumerate(prizes[:dealt], 1) if prize] + [
            PayoutBand(max(band.first_place, dealt + 1), band.last_place, band.prize) for band in bands if band.last_place > dealt
        ]
    jump = pz.next_pay_jump(prizes, left)
    return {
        "method": plan.method,
        "state": state,
        "edit_stale": edit_stale,
        "pool": pool,
        "entries": entries,
        "players_left": left,
        "currency": t.currency,
        "unit": plan.unit,
        "share_paid_bp": plan.share_paid_bp,
        "min_cash_bp": plan.min_cash_bp,
        "min_cash": structure.min_cash if structure else 0,
        "places_wanted": structure.places_wanted if structure else 0,
        "places_paid": len(prizes),
        "reason": PAID_FROM_DAY2 if paid_from else None if state == EDITED or structure is None else structure.reason,
        "paid_from": paid_from,
        "bands": [{"first": b.first_place, "last": b.last_place, "prize": b.prize} for b in bands],
        "in_the_money": bool(prizes) and 0 < left <= len(prizes),
        "next_jump": None if jump is None else {"place": jump[0], "prize": jump[1]},
        "deal": None if not deals else {"number": deals[-1].number, "mode": deals[-1].mode, "players": deals[-1].players},
        "prizes": prizes,
        "satellite": None,
    }


def places_paid_answer(*, tournament: Tournament) -> dict:
    """Reaction to tables.selectors.screens.PLACES_PAID: the places the structure in force pays; a satellite's bubble is
    its seats (play stops there), so it answers with the players play stops at."""
    state = payout_state(tournament)
    return {"places_paid": state["satellite"]["stops_at"] if state["satellite"] else state["places_paid"]}


class ApprovedDeal:
    """An approved deal as the prizes read it: its table for places 1..players, and for a stop, who
    finished where with which amount."""

    def __init__(self, deal: Deal) -> None:
        self.number, self.mode, self.table = deal.number, deal.mode, list(deal.table)
        self.entries = list(deal.entries)
        self.players = len(deal.entries)
        self.finishes = [tuple(row) for row in deal.finishes or ()]


def approved_deals(t: Tournament) -> list[ApprovedDeal]:
    """The approved deals, in order (a second deal, heads-up after a three-way deal, shares what the
    first left to play for)."""
    return [ApprovedDeal(d) for d in Deal.objects.filter(tournament=t, status=Deal.Status.APPROVED).order_by("number")]


def with_deals(prizes: list[int], deals: list[ApprovedDeal]) -> list[int]:
    """The prizes by place once the deals are in: each deal's table replaces the prizes of its places."""
    prizes = list(prizes)
    for deal in deals:
        prizes = deal.table + prizes[deal.players :]
    while prizes and prizes[-1] == 0:  # a deal with fewer prizes than players may leave a place unpaid
        prizes.pop()
    return prizes


def stop_finishes(t: Tournament) -> list[tuple[int, int, int, int]]:
    """(entry, place, place_low, amount) of the players placed by a deal that stopped play, if any."""
    stops = [d for d in approved_deals(t) if d.mode == Deal.Mode.STOP]
    return stops[-1].finishes if stops else []


def deal_basis(t: Tournament, state: dict | None = None) -> dict:
    """What a deal shares: the players left (entry number, name, by number), the prizes of places 1..n
    in force now (fewer when fewer places are paid than players are left) and the plan's rounding unit,
    in which a deal is paid (payouts/rules/deals.py)."""
    state = state or payout_state(t)
    players = [
        {"entry": e.number, "name": e.player.display_name}
        for e in Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).select_related("player").order_by("number")
    ]
    if stop_finishes(t):
        players = []  # play has stopped: nothing is left to deal
    return {
        "players": players,
        "prizes_left": state["prizes"][: len(players)],
        "currency": t.currency,
        "unit": state["unit"],
        "pending": Deal.objects.filter(tournament=t, status=Deal.Status.PROPOSED).first(),
    }


def deal_figures(stacks: list[int], prizes_left: list[int], to_play_for: int, unit: int) -> dict:
    """The calculator: ICM and chip chop for these stacks in the plan's rounding unit, each with the rule it
    breaks if it breaks one (as DealRefused or ValueError text; the screens translate the codes)."""
    answer = {}
    for kind, fn in ((dl.ICM, dl.icm_deal), (dl.CHIP_CHOP, dl.chip_chop)):
        try:
            amounts = fn(stacks, prizes_left, to_play_for, unit)
        except ValueError as exc:
            answer[kind] = {
                "amounts": None,
                "refused": str(exc),
                "code": getattr(exc, "code", "invalid"),
                "player": getattr(exc, "player", None),
                "other": getattr(exc, "other", None),
            }
            continue
        try:
            dl.check_deal(amounts, prizes_left, to_play_for, unit)
            refused = None
        except dl.DealRefused as exc:
            refused = exc
        answer[kind] = {
            "amounts": amounts,
            "refused": str(refused) if refused else None,
            "code": refused.code if refused else None,
            "player": refused.player if refused else None,
            "other": refused.other if refused else None,
        }
    return answer


def finishers(t: Tournament, state: dict | None = None) -> list[pz.Finisher]:
    """Every entry with a finishing place (the last one playing is first once everyone else is out; the players
    left when a satellite's play stopped share places 1 to their number: each has won a seat)."""
    rows = list(
        Entry.objects.filter(tournament=t)
        .filter(Q(finish_place__isnull=False) | Q(status=Entry.Status.ACTIVE))
        .exclude(status=Entry.Status.VOIDED)
        .values_list("number", "status", "finish_place", "finish_place_low")
    )
    active = [row for row in rows if row[1] == Entry.Status.ACTIVE]
    found = [pz.Finisher(number, place, low or place) for number, status, place, low in rows if status != Entry.Status.ACTIVE]
    stopped = {entry: pz.Finisher(entry, place, low) for entry, place, low, _amount in stop_finishes(t)}
    if stopped:
        return [f for f in found if f.entry not in stopped] + list(stopped.values())
    if len(active) == 1 and found:
        found.append(pz.Finisher(active[0][0], 1, 1))
    elif len(active) > 1 and (state["satellite"] if state is not None else satellite_of(t) is not None):
        state = state or payout_state(t)
        if play_is_over(state):
            found += [pz.Finisher(row[0], 1, len(active)) for row in active]
    return found


def tie_orders(t: Tournament, found: list[pz.Finisher]) -> dict[tuple[int, int], list[int]]:
    """(place, place_low) -> the tied entries in the order the odd units go, from the verifiable tie draws
    (tables/services/draws.draw_tie_order)."""
    drawn = tables_selectors.tie_orders(t)
    groups: dict[tuple[int, int], list[int]] = {}
    for f in found:
        if f.place_low != f.place:
            groups.setdefault((f.place, f.place_low), []).append(f.entry)
    return {key: drawn[frozenset(entries)] for key, entries in groups.items() if frozenset(entries) in drawn}


def seat_winners(t: Tournament, state: dict | None = None) -> list[int]:
    """The entries (numbers) that won a seat in a satellite whose play has stopped (payouts/rules/satellite.seat_winners);
    none while play goes on, or in a tournament that is not a satellite."""
    state = state or payout_state(t)
    sat = state["satellite"]
    if not sat or not play_is_over(state):
        return []
    rows = Entry.objects.filter(tournament=t).filter(
        Q(status=Entry.Status.ACTIVE) | Q(status=Entry.Status.BUSTED, finish_place__lte=sat["seats"])
    )
    active, finished = [], []
    for number, status, place, low in rows.values_list("number", "status", "finish_place", "finish_place_low"):
        if status == Entry.Status.ACTIVE:
            active.append(number)
        else:
            finished.append((number, place, low or place))
    found = [pz.Finisher(*row) for row in finished]
    return sl.seat_winners(active, finished, sat["seats"], tie_orders(t, found) if finished else None)


def _won(t: Tournament, prizes: list[int], found: list[pz.Finisher]) -> dict[int, int]:
    """Ties split their places' prizes (the odd units by the tie draw); players placed by a deal that
    stopped play get its amounts."""
    won = pz.split(prizes, found, tie_orders(t, found) if any(f.place_low != f.place for f in found) else None)
    won.update({entry: amount for entry, _place, _low, amount in stop_finishes(t)})
    return won


def prizes_won(t: Tournament, state: dict | None = None, found: list[pz.Finisher] | None = None) -> dict[int, int]:
    """Entry number -> its prize (minor units), for every entry with a finishing place. `found`: finishers(t, state),
    when the caller has them."""
    state = state or payout_state(t)
    return _won(t, state["prizes"], finishers(t, state) if found is None else found)


def prizes_paid(t: Tournament, numbers: set[int] | None = None) -> set[int]:
    """The entries (numbers; of `numbers` only, when given) whose prize the cage has paid and not voided."""
    rows = Payment.objects.filter(tournament=t, status=Payment.Status.PAID)
    if numbers is not None:
        rows = rows.filter(entry__number__in=numbers)
    return set(rows.values_list("entry__number", flat=True))


@dataclass(frozen=True)
class PrizeDue:
    """An entry's prize as the cashier may pay it now: its place and amount, the payment already made,
    and why it cannot be paid now (None: it can)."""

    finisher: pz.Finisher | None
    amount: int
    paid: Payment | None
    refusal: ServiceError | None


def _hand_still_played(t: Tournament, entry: Entry) -> str | None:
    """Why the entry's place may still be shared: it went out in the hand-for-hand hand other tables are playing
    now, or in the hand its table is still playing (a player out in that hand ties or is placed by his stack)."""
    key = entry.bust_hand
    if key.startswith("h4h:"):
        h = tables_selectors.hand_for_hand(t)
        if h is not None and h.called and key == f"h4h:{h.number}:{h.hand}":
            return _(
                "Entry #%(entry)s went out in hand-for-hand hand %(hand)s, which other tables are still playing: "
                "players out in that hand may share his place. His prize is paid once every table has reported "
                "the hand."
            ) % {"entry": entry.number, "hand": h.hand}
    elif key.startswith("table:"):
        _kind, table_id, hand = key.split(":")
        table = Table.objects.filter(pk=int(table_id), hand_number=int(hand), hand_in_progress=True).first()
        if table is not None:
            return _(
                "Entry #%(entry)s went out in the hand table %(table)s is still playing: a player out in it too "
                "may change his place. His prize is paid once the table reports the hand done."
            ) % {"entry": entry.number, "table": table.number}
    return None


def prize_due(t: Tournament, entry: Entry) -> PrizeDue:
    """Whether the entry's prize can be paid now (club 32), asked before the cashier takes the ID and the
    player signs, by the pay page, and again by services.pay_prize under its locks: not twice, not while
    registration is open (the prizes still follow the entries), not to an entry still playing, nor to one
    outside the money."""
    paid = Payment.objects.filter(entry=entry, status=Payment.Status.PAID).first()
    state = payout_state(t)
    finisher = next((f for f in finishers(t, state) if f.entry == entry.number), None)
    amount = prizes_won(t, state).get(entry.number, 0) if finisher is not None else 0
    refusal = None
    paid_from = flights_selectors.paid_from(t)
    if paid_from is not None:
        refusal = ServiceError(paid_from["message"], code=PAID_FROM_DAY2, status=409)
    elif paid is not None:
        refusal = ServiceError(
            _("The prize of entry #%(entry)s is already paid (payout receipt %(receipt)s).")
            % {"entry": entry.number, "receipt": paid.number},
            code="already_paid",
            status=409,
        )
    elif registration_problem(t) is None:
        refusal = ServiceError(
            _("Prizes are paid once late registration is over: until then they follow the entries."), code="prizes_not_final", status=409
        )
    elif finisher is None:
        refusal = ServiceError(
            _("Entry #%(entry)s is still playing: it has no place yet.") % {"entry": entry.number}, code="still_playing", status=409
        )
    elif (still := _hand_still_played(t, entry)) is not None:
        refusal = ServiceError(still, code="hand_not_over", status=409)
    elif amount <= 0 and entry.number in seat_winners(t, state):
        refusal = ServiceError(
            _("Entry #%(entry)s won a seat in %(target)s: the prize is the ticket, there is no cash to pay.")
            % {"entry": entry.number, "target": state["satellite"]["target"]["name"]},
            code="seat_only",
            status=409,
        )
    elif amount <= 0:
        refusal = ServiceError(
            _("Entry #%(entry)s finished outside the money: there is no prize to pay.") % {"entry": entry.number},
            code="no_prize",
            status=409,
        )
    return PrizeDue(finisher=finisher, amount=amount, paid=paid, refusal=refusal)


def results(t: Tournament, state: dict | None = None) -> list[dict]:
    """Every finishing place with its name and prize, best first (ties: by entry number); in a satellite, `seat`
    says who won one."""
    state = state or payout_state(t)
    found = finishers(t, state)
    won = _won(t, state["prizes"], found)
    seats = set(seat_winners(t, state)) if state["satellite"] else set()
    names = {
        e.number: e.player.display_name
        for e in Entry.objects.filter(tournament=t, number__in=[f.entry for f in found]).select_related("player")
    }
    rows = [
        {
            "entry": f.entry,
            "name": names.get(f.entry, ""),
            "place": f.place,
            "place_low": f.place_low,
            "prize": won.get(f.entry, 0),
            "seat": f.entry in seats,
        }
        for f in found
    ]
    return sorted(rows, key=lambda row: (row["place"], row["entry"]))


def play_is_over(state: dict) -> bool:
    """The tournament has its winner: at most one entry plays on (the last one playing is first, see
    finishers), or an approved deal stopped play (its places are the deal's), or a satellite is down to its seats.
    A re-entry or an undone last bust makes play go on again. `state` is payout_state's."""
    sat = state.get("satellite")
    return (
        state["players_left"] <= 1
        or (state["deal"] is not None and state["deal"]["mode"] == Deal.Mode.STOP)
        or bool(sat and state["players_left"] <= sat["stops_at"])
    )


def play_over(t: Tournament) -> bool:
    """play_is_over, reading the money only for a satellite: at most one entry plays on, an approved deal stopped
    play, or a satellite is down to its seats."""
    if Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count() <= 1:
        return True
    if satellite_of(t) is not None:
        return play_is_over(payout_state(t))
    return Deal.objects.filter(tournament=t, status=Deal.Status.APPROVED, mode=Deal.Mode.STOP).exists()


def final_results(t: Tournament, state: dict | None = None) -> list[dict] | None:
    """The results once play is over (results: best first, with names and prizes); None while it goes on, or
    when nobody has a place (one entry, or none, and no bust)."""
    state = state or payout_state(t)
    if not play_is_over(state):
        return None
    return results(t, state) or None
