"""Reads of the waiting list: whether a tournament is sold out, the list in its order, and a player's place on it.

The seats a tournament's tables give are the tables' to say: asked of the apps above (core.reactions, SEATS), as
registration asks where an entry sits."""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Count, Q, Sum

from core import reactions
from tournament.models import Entry, Reservation, Tournament, WaitingPlace
from tournament.rules import waiting_list as wl

# Asked of the apps above with tournament=: {"seats": n, "held": h}, the seats this tournament may fill (its tables in
# play and the free tables of its room it may take), when its room has a fixed set of tables, and the seats held twice for
# a while (a player's own and the one a pending slip reserves for him: free again once it is confirmed); no answer: the
# seats set no limit.
SEATS = "seats"

OPEN = [WaitingPlace.State.WAITING, WaitingPlace.State.OFFERED]


def rules_of(t: Tournament) -> wl.Rules:
    return wl.Rules(max_entries=t.max_entries, sit_minutes=t.alternate_minutes, payment=t.waiting_payment, no_show=t.no_show_money)


def seats_of(t: Tournament) -> int | None:
    """The seats the tournament may fill now, or None when its room's tables are not a fixed set."""
    return reactions.react(SEATS, tournament=t).get("seats")


def counts(t: Tournament) -> dict:
    """The entries (not voided), the players in play, the places waiting and offered, and the places reserved from phones
    and not claimed yet (`reserved`: each holds a place like an entry), in one query each."""
    entries = Entry.objects.filter(tournament=t).aggregate(
        entries=Count("id", filter=~Q(status=Entry.Status.VOIDED)), in_play=Count("id", filter=Q(status=Entry.Status.ACTIVE))
    )
    places = WaitingPlace.objects.filter(tournament=t, state__in=OPEN).aggregate(
        waiting=Count("id", filter=Q(state=WaitingPlace.State.WAITING)), offered=Count("id", filter=Q(state=WaitingPlace.State.OFFERED))
    )
    reserved = Reservation.objects.filter(tournament=t, state=Reservation.State.HELD, holds_place=True).count() if t.reservation_cap else 0
    return {**entries, **places, "reserved": reserved}


def capacity(t: Tournament, *, claiming: bool = False) -> dict:
    """Where the tournament stands: its maximum, its seats (None: no limit), entries, players in play, the list's
    length, the places reserved, and whether it is sold out (full, the reserved places counted, or players are waiting:
    nobody passes them at the desk). `claiming`: the desk claims a reservation, whose own place is not counted."""
    seats = seats_of(t)
    figures = counts(t)
    held = max(figures["reserved"] - (1 if claiming else 0), 0)
    limited = t.max_entries is not None or seats is not None
    full = limited and wl.full(
        rules_of(t),
        entries=figures["entries"] + held,
        in_play=figures["in_play"] + held,
        seats=seats if seats is not None else figures["in_play"] + held + 1,
    )
    return {
        "max_entries": t.max_entries,
        "seats": seats,
        **figures,
        "full": full,
        "sold_out": full or figures["waiting"] > 0,
    }


def summary(t: Tournament) -> dict:
    """What the lobby, the public pages and the API say of it: sold out, and the places waiting. Every event's figures
    say it (tournament_stats), so it is cheap: the list's count (an index's) first, since players waiting make it sold
    out; then, in a room that adds its tables and with no maximum, the room's one query; the seats' only otherwise."""
    waiting = WaitingPlace.objects.filter(tournament=t, state=WaitingPlace.State.WAITING).count()  # an index's count
    if waiting:
        return {"sold_out": True, "waiting": waiting}
    if t.max_entries is None and seats_of(t) is None:
        return {"sold_out": False, "waiting": 0}
    return {"sold_out": capacity(t)["full"], "waiting": 0}


def money_held(t: Tournament) -> dict:
    """The buy-ins the cage holds for the places still waiting (taken when they joined): theirs until they are seated
    (then a receipt's) or given back. {"places", "held"}."""
    figures = WaitingPlace.objects.filter(tournament=t, state=WaitingPlace.State.WAITING, paid__gt=0).aggregate(
        n=Count("id"), held=Sum("paid")
    )
    return {"places": figures["n"], "held": figures["held"] or 0}


def sold_out(t: Tournament) -> bool:
    """Whether a new entry must join the waiting list. A tournament with no maximum and no fixed room never is."""
    if t.max_entries is None and seats_of(t) is None:
        return False
    return capacity(t)["sold_out"]


def seats_open(t: Tournament, figures: dict | None = None) -> int | None:
    """The seats an alternate may be offered now (None: the seats set no limit, only the maximum does): the seats less
    the players in play and the seats pending slips hold twice (the next sweep offers those once the slips are done)."""
    answer = reactions.react(SEATS, tournament=t)
    if answer.get("seats") is None:
        return None
    figures = figures or counts(t)
    return max(answer["seats"] - figures["in_play"] - answer.get("held", 0) - figures.get("reserved", 0), 0)


def as_rule(place: WaitingPlace) -> wl.Place:
    return wl.Place(
        number=place.number, player=place.player_id, reentry=place.reentry, state=place.state, offered_at=place.offered_at, paid=place.paid
    )


def places(t: Tournament, *, open_only: bool = True):
    rows = WaitingPlace.objects.filter(tournament=t).select_related("player", "entry", "tournament")
    return rows.filter(state__in=OPEN) if open_only else rows


def position_of(place: WaitingPlace) -> int | None:
    """The place's position now (1: the next to be offered a seat), or None once offered or off the list."""
    if place.state != WaitingPlace.State.WAITING:
        return None
    return (
        WaitingPlace.objects.filter(tournament_id=place.tournament_id, state=WaitingPlace.State.WAITING, number__lt=place.number).count()
        + 1
    )


def listing(t: Tournament) -> list[dict]:
    """The list in its order, as the floor sees it: waiting places with their position, offers with their seat."""
    out = []
    position = 0
    for place in places(t).order_by("number"):
        if place.state == WaitingPlace.State.WAITING:
            position += 1
        out.append(place_json(place, position=position if place.state == WaitingPlace.State.WAITING else None))
    return out


def sit_by(offered_at, minutes: int):
    """When an alternate offered a seat at `offered_at` loses his turn if he has not sat down."""
    return offered_at + timedelta(minutes=minutes)


def offers(tournament_id: int, numbers: list[int] | None = None) -> dict[int, dict]:
    """The alternates offered a seat who have not sat down yet, by entry id (of the entries numbered `numbers`, or all):
    {"number", "called_at", "sit_by", "position"} (one query)."""
    rows = WaitingPlace.objects.filter(tournament_id=tournament_id, state=WaitingPlace.State.OFFERED)
    if numbers is not None:
        rows = rows.filter(entry__number__in=numbers)
    return {
        entry: {"number": number, "called_at": at.isoformat(), "sit_by": sit_by(at, minutes).isoformat(), "position": position or "unknown"}
        for entry, number, at, minutes, position in rows.values_list(
            "entry_id", "number", "offered_at", "tournament__alternate_minutes", "position"
        )
    }


def waiting_numbers(tournament_id: int) -> list[int]:
    """The alternate numbers still waiting, in the list's order (the public board: numbers, never names)."""
    return list(
        WaitingPlace.objects.filter(tournament_id=tournament_id, state=WaitingPlace.State.WAITING)
        .order_by("number")
        .values_list("number", flat=True)
    )


def place_json(place: WaitingPlace, *, position: int | None = None) -> dict:
    return {
        "number": place.number,
        "player": place.player_id,
        "name": place.player.display_name,
        "reentry": place.reentry,
        "state": place.state,
        "position": position,
        "paid": place.paid,
        "refund": place.refund,
        "entry": place.entry.number if place.entry_id else None,
        "created_at": place.created_at.isoformat(),
        "offered_at": place.offered_at.isoformat() if place.offered_at else None,
        "sit_by": sit_by(place.offered_at, place.tournament.alternate_minutes).isoformat() if place.offered_at else None,
        "position_at_table": place.position,
        "closed_at": place.closed_at.isoformat() if place.closed_at else None,
        "close_reason": place.close_reason,
    }
