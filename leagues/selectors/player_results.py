"""A player's results across the room's tournaments, for the staff: each tournament he entered
with his best place (a re-entry's), his entries, the prize (paid, with its receipt, or won and not yet paid) and the
league points, and the satellite tickets he won or holds. Nothing beyond the name and the results: no ID number, no
date of birth, no contact."""

from __future__ import annotations

from django.db.models import Q

from flights.models import CarriedBag, Flight
from leagues.models import LeagueResult
from leagues.rules import points as pts
from payouts.models import Payment, Ticket
from payouts.selectors.structure import finishers, play_over, prizes_won
from tournament.models import Entry, Player


def player_tournaments(player_id: int) -> list[int]:
    """The tournaments a player's results touch (ids): those he entered (an entry not voided) and those of the
    satellite tickets he won or holds (the satellite and its target). A member of the staff who works one of them
    reads his results, those in the tournaments worked only (core.roles.works_in, player_results' `only`)."""
    entered = set(Entry.objects.filter(player_id=player_id).exclude(status=Entry.Status.VOIDED).values_list("tournament_id", flat=True))
    for satellite, target in _tickets(player_id).values_list("satellite__tournament_id", "satellite__target_id"):
        entered.update((satellite, target))
    return sorted(entered)


def _tickets(player_id: int):
    return Ticket.objects.filter(Q(holder_id=player_id) | Q(won_by__player_id=player_id)).exclude(status=Ticket.Status.VOID)


def player_results(player: Player, only: frozenset | None = None) -> dict:
    """{"player", "name", "tournaments": [...], "played", "cashes", "wins", "totals"}: the tournaments newest first.
    Where play is over, the places are the finishers' (the last one playing is first, a deal that stopped play places
    its players) and a prize not yet paid is the structure in force's; where it goes on, a busted entry has its place
    and the player may still be playing; a flight entry whose bag went on to the event's Day 2 is "carried" (a bag
    the stack policy forfeited: "forfeited"), not playing there. `only`: the ids of the tournaments a member of the
    staff works (None: every one): the results there, and the tickets of those satellites or into those targets,
    nothing of the others."""
    entries = Entry.objects.filter(player=player).exclude(status=Entry.Status.VOIDED)
    if only is not None:
        entries = entries.filter(tournament_id__in=only)
    entries = list(entries.select_related("tournament").order_by("-tournament__start_at", "tournament_id", "number"))
    paid = {p.entry_id: p for p in Payment.objects.filter(entry__player=player, status=Payment.Status.PAID)}
    points = {r.tournament_id: r for r in LeagueResult.objects.filter(player=player).select_related("league")}
    # A satellite's seat he won is his prize there (a ticket, passed on or not; a void one is a seat taken away).
    seats: dict[int, list[dict]] = {}
    for tk in (
        Ticket.objects.filter(won_by__player=player)
        .exclude(status=Ticket.Status.VOID)
        .select_related("won_by", "satellite__target")
        .order_by("number")
    ):
        seats.setdefault(tk.won_by.tournament_id, []).append({"target": tk.satellite.target_id, "target_name": tk.satellite.target.name})
    # A flight entry whose bag went on to Day 2 (carried) or was forfeited by the stack policy plays no more there.
    went_on = dict(CarriedBag.objects.filter(entry__player=player).values_list("entry_id", "forfeited"))
    mine: dict[int, list[Entry]] = {}
    for e in entries:
        mine.setdefault(e.tournament_id, []).append(e)
    # A Day 2's points go to a player out in its event's flights too: shown on his flight (the first of them).
    for flight, day2 in (
        Flight.objects.filter(tournament_id__in=mine, event__day2_id__in=set(points) - set(mine))
        .order_by("tournament__start_at", "pk")
        .values_list("tournament_id", "event__day2_id")
    ):
        if day2 in points:
            points[flight] = points.pop(day2)
    listed = []
    for own in mine.values():
        t = own[0].tournament
        row = {
            "tournament": t.pk,
            "name": t.name,
            "start_at": t.start_at,
            "currency": t.currency,
            "entries": [e.number for e in own],
            "place": None,
            "place_low": None,
            "playing": False,
            "prize": 0,
            "paid": sum(paid[e.pk].amount for e in own if e.pk in paid),
            "receipts": [paid[e.pk].number for e in own if e.pk in paid],
            "points": None,
            "points_shown": None,
            "league": None,
            "seats": seats.get(t.pk, []),
            "carried": False,
            "forfeited": False,
        }
        over = play_over(t)
        placed = (
            {f.entry: (f.place, f.place_low) for f in finishers(t)}
            if over
            else {e.number: (e.finish_place, e.finish_place_low or e.finish_place) for e in own if e.finish_place is not None}
        )
        won = prizes_won(t) if over and any(e.pk not in paid for e in own) else {}
        for e in own:
            place = placed.get(e.number)
            if place is not None and (row["place"] is None or place < (row["place"], row["place_low"])):
                row["place"], row["place_low"] = place
            row["prize"] += paid[e.pk].amount if e.pk in paid else won.get(e.number, 0)
            if e.pk in went_on:  # his flight's bag: carried to Day 2 (where he plays on) or forfeited
                row["forfeited" if went_on[e.pk] else "carried"] = True
                continue
            row["playing"] = row["playing"] or (not over and e.status == Entry.Status.ACTIVE)
        result = points.get(t.pk)
        if result is not None:
            row["points"], row["points_shown"], row["league"] = result.points, pts.shown(result.points), result.league.name
        listed.append(row)
    totals: dict[str, dict[str, int]] = {}
    for row in listed:
        money = totals.setdefault(row["currency"], {"prizes": 0, "paid": 0})
        money["prizes"] += row["prize"]
        money["paid"] += row["paid"]
    return {
        "player": player.pk,
        "name": player.display_name,
        "tournaments": listed,
        "played": len(listed),
        "cashes": sum(1 for row in listed if row["prize"]),
        "wins": sum(1 for row in listed if row["place"] == 1 and row["place_low"] == 1 and not row["playing"]),
        "totals": [{"currency": c, **m} for c, m in sorted(totals.items())],
        "tickets": tickets_of(player, only),
    }


def tickets_of(player: Player, only: frozenset | None = None) -> list[dict]:
    """The satellite tickets he won or holds (void ones left out), newest first: whether he holds it (a ticket passed
    on names its holder), its status, and the entry it paid for in the target once used. `only`: those of these
    satellites or into these targets."""
    rows = _tickets(player.pk)
    if only is not None:
        rows = rows.filter(Q(satellite__tournament_id__in=only) | Q(satellite__target_id__in=only))
    rows = rows.select_related("satellite__tournament", "satellite__target", "holder", "used_entry").order_by("-issued_at", "-pk")
    return [
        {
            "satellite": tk.satellite.tournament_id,
            "satellite_name": tk.satellite.tournament.name,
            "number": tk.number,
            "target": tk.satellite.target_id,
            "target_name": tk.satellite.target.name,
            "status": tk.status,
            "value": tk.value,
            "currency": tk.satellite.tournament.currency,
            "held": tk.holder_id == player.pk,
            "holder_name": tk.holder.display_name,
            "used_entry": tk.used_entry.number if tk.used_entry else None,
        }
        for tk in rows
    ]
