"""Reads of the satellites and of what may still change: the tickets into a target event (held and used), the seats
a satellite's winners won, and whether a structure's or a satellite's settings may still change (the refusal if not)."""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import ServiceError
from flights.selectors import events as flights_selectors
from payouts.models import Deal, Payment, Ticket
from payouts.selectors.structure import finishers, payout_state, satellite_of, seat_winners
from tournament.models import Tournament


def tickets_into(t: Tournament) -> list[Ticket]:
    """The tickets not yet used for an entry into this event, by holder: what the desk registers with no payment."""
    return list(
        Ticket.objects.filter(satellite__target=t, status=Ticket.Status.ISSUED)
        .select_related("satellite__tournament", "holder")
        .order_by("holder__last_name", "holder__first_name", "pk")
    )


def tickets_used_into(t: Tournament) -> list[Ticket]:
    """The tickets used for an entry into this event, in the order the desk used them, each with its entry."""
    return list(
        Ticket.objects.filter(satellite__target=t, status=Ticket.Status.USED)
        .select_related("satellite__tournament", "holder", "used_entry")
        .order_by("used_at", "pk")
    )


def seats_won(t: Tournament) -> dict[int, dict]:
    """Entry number -> {target: the target event's name, place, place_low: the places the seat winners share, as the
    results give them}, for a satellite's seat winners once play has stopped (the players' phones say it); empty
    otherwise."""
    sat = satellite_of(t)
    if sat is None:
        return {}
    state = payout_state(t)
    winners = seat_winners(t, state)
    if not winners:
        return {}
    places = {f.entry: f for f in finishers(t, state)}
    return {
        number: {"target": sat.target.name, "place": places[number].place, "place_low": places[number].place_low}
        for number in winners
        if number in places
    }


def structure_fixed(t: Tournament) -> ServiceError | None:
    """Why the payout structure can no longer change (the refusal the services raise), None while it may: the prizes
    stop changing once a deal was made on them or a prize was paid from them: a new plan would take from a deal's
    players what they agreed on, or pay a player less than he was paid (found by the night machine: a plan paying one
    more place after a deal made the prizes exceed the pool). A Day 1 flight has no structure at all: its prizes are
    paid from Day 2. The payouts page offers no edit where this says no."""
    paid_from = flights_selectors.paid_from(t)
    if paid_from is not None:
        return ServiceError(paid_from["message"], code="paid_from_day2", status=409)
    if satellite_of(t) is not None:
        return ServiceError(
            _("A satellite pays seats and the cash left over: it has no payout structure to change."), code="satellite", status=409
        )
    deal = Deal.objects.filter(tournament=t, status=Deal.Status.APPROVED).order_by("number").values_list("number", flat=True).first()
    if deal is not None:
        return ServiceError(
            _("Deal %(number)s was made on these prizes: the payout structure cannot change after it.") % {"number": deal},
            code="structure_fixed_by_deal",
            status=409,
        )
    paid = (
        Payment.objects.filter(tournament=t, status=Payment.Status.PAID)
        .order_by("entry__number")
        .values_list("entry__number", flat=True)
        .first()
    )
    if paid is not None:
        return ServiceError(
            _("A prize was paid (entry #%(number)s): the payout structure cannot change any more. Void the payments first to change it.")
            % {"number": paid},
            code="structure_fixed_by_payment",
            status=409,
        )
    return None


BECOME, CHANGE, REMOVE = "become", "change", "remove"  # what satellite_fixed is asked for, to say the refusal right


def satellite_fixed(t: Tournament, change: str) -> ServiceError | None:
    """Why the seats and the cash can no longer change (the refusal the services raise), None while they may: once a
    prize was paid or a deal made. `change`: the tournament would BECOME a satellite, a satellite's money would CHANGE,
    or it would stop being one (REMOVE). The payouts page offers no satellite setting where this says no."""
    if change != REMOVE and flights_selectors.paid_from(t) is not None:  # dropping the setting pays nothing either
        return ServiceError(
            _("A Day 1 flight pays nothing: its players' prizes come from Day 2, which may be the satellite."),
            code="paid_from_day2",
            status=409,
        )
    if Payment.objects.filter(tournament=t, status=Payment.Status.PAID).exists():
        return ServiceError(
            {
                BECOME: _("A prize was paid: this tournament can no longer become a satellite."),
                CHANGE: _("A prize was paid: the satellite's seats and cash cannot change any more."),
                REMOVE: _("A prize was paid: the tournament stays a satellite."),
            }[change],
            code="satellite_fixed_by_payment",
            status=409,
        )
    if Deal.objects.filter(tournament=t).exclude(status=Deal.Status.REJECTED).exists():
        return ServiceError(
            {
                BECOME: _("A deal was made on these prizes: the tournament cannot become a satellite now."),
                CHANGE: _("A deal was made on these prizes: the satellite's seats and cash cannot change any more."),
                REMOVE: _("A deal was made on these prizes: the tournament stays a satellite."),
            }[change],
            code="satellite_fixed_by_deal",
            status=409,
        )
    return None
