"""The floor's line of a Day 1 flight on the tournament's own screens: "N players left: this
flight ends at the end of this level." once its share rule fired (flights.selectors.events.ending_line), and on the
overview the event it is a flight of, linked for those who may open the event page.

    {% load flight_tags %}{% flight_line t %}            the table map: the line (hidden until it fires)
    {% flight_line t overview=True %}                  the overview: the event's link too
"""

from __future__ import annotations

from django import template

from core import access
from flights.selectors import events

register = template.Library()


@register.inclusion_tag("flights/_flight_line.html", takes_context=True)
def flight_line(context, t, overview: bool = False) -> dict:
    flight = events.flight_of(t)
    user = context.get("user")
    return {
        "flight": flight,
        "ending": events.ending_line(flight) if flight is not None else None,
        "overview": overview,
        "may_open": flight is not None and access.may(user, "flight-event"),
    }
