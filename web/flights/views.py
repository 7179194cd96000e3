"""The screens of the events with Day 1 flights into one Day 2: the events page (every event with
its flights; the director makes one there), the event page (each flight with its players left, bags and end rules,
Day 2 with its late registration, the stack policy, the one prize pool summed over the flights, the carry to Day 2 and
after it the bags carried and forfeited); the floor's "this flight ends" line that the table map refetches live is the
JSON API's (web/flights/api.py, api-flight-ending). The pages only read (flights/selectors/events.py); every change
goes through the JSON API (web/flights/api.py), sent by static/js/api-forms.js and static/js/flights.js."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from core import access, roles
from flights.models import Event
from flights.selectors import events as flights_selectors
from tournament.models import Tournament
from web.access import page


def _names(ids) -> dict[int, str]:
    return dict(Tournament.objects.filter(pk__in=[pk for pk in ids if pk]).values_list("pk", "name"))


@page("flight-events")
def events_page(request):
    events = flights_selectors.event_list(worked_by(request.user))
    day2_names = _names(e["day2"] for e in events)
    for e in events:
        e["day2_name"] = day2_names.get(e["day2"])
    return render(request, "flights/events.html", {"events": events, "may_create": access.may(request.user, "api-flight-events:POST")})


def worked_by(user):
    """The tournaments a scoped member of the staff works (core/roles.worked), or None for every one: only their
    events are listed."""
    every = Tournament.objects.all()
    worked = roles.worked(user, every)
    return None if worked is every else worked


def free_tournaments():
    """The tournaments that are neither a flight nor an event's Day 2 (the choosers' candidates), the earliest first;
    the services refuse the rest with their reason (started, entries, another buy-in)."""
    return (
        Tournament.objects.filter(flight__isnull=True, day2_of__isnull=True)
        .exclude(status=Tournament.Status.FINISHED)
        .order_by("start_at", "pk")
    )


@page("flight-event")
def event_page(request, event_id: int):
    event = get_object_or_404(Event, pk=event_id)
    state = flights_selectors.event_state(event)
    may = {
        name: access.may(request.user, f"api-flight-{name}")
        for name in ("event-settings:PATCH", "event-flights:POST", "event-day2:POST", "end:POST", "carry:POST")
    }
    free = free_tournaments() if may["event-flights:POST"] or may["event-day2:POST"] else Tournament.objects.none()
    return render(
        request,
        "flights/event.html",
        {
            "event": event,
            "state": state,
            "pool": state["pool"],
            "may_settings": may["event-settings:PATCH"],
            "may_add_flight": may["event-flights:POST"],
            "may_day2": may["event-day2:POST"] and state["day2"] is None,
            "may_end": may["end:POST"],
            "may_carry": may["carry:POST"] and not state["carried"],
            "flight_choices": free.filter(status=Tournament.Status.SETUP),
            "day2_choices": free.filter(entries__isnull=True),
            "open_flights": [f["label"] for f in state["flights"] if not f["day1_closed"]],
            "socket_flights": [f["tournament"] for f in state["flights"] if f["carried_at"] is None],
        },
    )
