"""Figures the lobby and the floor show: entries, players left, prize pool, chips in play."""

from __future__ import annotations

from django.db.models import Count, Q, Sum

from core import reactions
from tournament.models import ChipAdjustment, Entry, Purchase, Tournament
from tournament.selectors import waiting_list

# Asked of the apps above (core.reactions): the figures of the other tournaments whose prize pool this one pays (an
# event's Day 1 flights, for its Day 2: the flights app answers), as amounts added to this tournament's own:
# {"entries", "unique_players", "reentries", "collected", "fees"}; for a tournament whose prizes another pays (a Day 1
# flight), {"paid_from": {...}}, given on in the figures. No answer: the tournament's own pool alone.
SHARED_POOL = "shared_pool"
# Asked of the apps above: money added to this tournament's prize pool that no buy-in brought, {"pool_added": amount}
# (a disqualified player's bounty, where the house adds it to the pool: payouts answers).
POOL_ADDED = "pool_added"


def tournament_stats(tournament: Tournament) -> dict:
    entries = Entry.objects.filter(tournament=tournament).aggregate(
        entries=Count("id", filter=~Q(status=Entry.Status.VOIDED)),
        players_left=Count("id", filter=Q(status=Entry.Status.ACTIVE)),
        unique_players=Count("player", filter=~Q(status=Entry.Status.VOIDED), distinct=True),
        reentries=Count("id", filter=Q(kind=Entry.Kind.REENTRY) & ~Q(status=Entry.Status.VOIDED)),
    )
    money = (
        Purchase.objects.filter(tournament=tournament)
        .exclude(status=Purchase.Status.VOIDED)
        .aggregate(
            collected=Sum("amount", filter=Q(status=Purchase.Status.PAID)),
            fees=Sum("fee", filter=Q(status=Purchase.Status.PAID)),
            chips=Sum("chips"),
            rebuys=Count("id", filter=Q(kind=Purchase.Kind.REBUY)),
            addons=Count("id", filter=Q(kind=Purchase.Kind.ADDON)),
        )
    )
    shared = reactions.react(SHARED_POOL, tournament=tournament)
    added = reactions.react(POOL_ADDED, tournament=tournament).get("pool_added", 0)
    collected = (money["collected"] or 0) + shared.get("collected", 0) + added
    adjusted = ChipAdjustment.objects.filter(tournament=tournament).aggregate(total=Sum("amount"))["total"] or 0
    chips = (money["chips"] or 0) + adjusted  # the races' changes: one query whatever the number of tables
    players_left = entries["players_left"]
    return {
        "entries": entries["entries"] + shared.get("entries", 0),
        "unique_players": entries["unique_players"] + shared.get("unique_players", 0),
        "reentries": entries["reentries"] + shared.get("reentries", 0),
        "rebuys": money["rebuys"],
        "addons": money["addons"],
        "players_left": players_left,
        "collected": collected,
        "fees": (money["fees"] or 0) + shared.get("fees", 0),
        "prize_pool": max(collected, tournament.guaranteed_pool),
        "guarantee_overlay": max(tournament.guaranteed_pool - collected, 0),
        "chips_in_play": chips,
        "average_stack": chips // players_left if players_left else 0,
        "current_level": tournament.current_level,
        "registration_open": registration_problem(tournament) is None,
        **waiting_list.summary(tournament),  # sold out, and the places on its waiting list
        "currency": tournament.currency,
        **({"paid_from": shared["paid_from"]} if "paid_from" in shared else {}),
    }


def registration_problem(tournament: Tournament) -> str | None:
    """Why registration is closed, as a code, or None when it is open."""
    if tournament.status == Tournament.Status.FINISHED:
        return "finished"
    if tournament.registration_closed:
        return "closed"
    if tournament.late_reg_until_level is not None and tournament.current_level > tournament.late_reg_until_level:
        return "late_registration_over"
    return None
