"""The event log in words, every app's together: each app labels the audit event types it records and writes their
lines next to its screens (web/<app>/events.py: `labels()` and `LINES`); this registry collects them for the floor's
event log (web/tournament/event_log.py, its page and its filter by kind). The parts the lines share (a player, a seat,
the line of last resort, the details) are in web/event_parts.py."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web.archive import events as archive
from web.clock import events as clock
from web.days import events as days
from web.event_parts import Line, Names, details, entry_numbers, generic
from web.flights import events as flights
from web.leagues import events as leagues
from web.notify import events as notify
from web.payouts import events as payouts
from web.tables import events as tables
from web.tournament import events as tournament
from web.venues import events as venues

__all__ = ["BY_APP", "details", "entry_numbers", "event_groups", "event_labels", "event_line", "group_of", "types_of"]

# The apps whose event types the log shows, each with its labels and its lines.
BY_APP = (tournament, clock, tables, days, flights, payouts, leagues, archive, venues, notify)

# Each type in words by the line whose prefix is the longest it starts with ("table.button_needed" before
# "table.button" before "table.", the tables' "entry.busted" before the tournament's "entry.").
LINES: tuple[tuple[str, Line], ...] = tuple(
    sorted(((prefix, line) for app in BY_APP for prefixes, line in app.LINES for prefix in prefixes), key=lambda pair: -len(pair[0]))
)


def event_labels() -> dict[str, str]:
    """Human names of the audit event types, every app's."""
    return {type_: label for app in BY_APP for type_, label in app.labels().items()}


# The log's filter by kind: each type belongs to the first group whose prefix it starts with.
GROUP_PREFIXES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("busts", ("entry.busted", "entry.bust_undone")),
    ("penalties", ("penalty.", "clock_call.", "entry.disqualified", "entry.reinstated")),  # before "entry."
    ("entries", ("entry.", "player.", "rebuy.", "addon.", "purchase.", "registration.", "notify.")),
    (
        "seating",
        (
            "move.",
            "seat.",
            "seat_request.",
            "seating.",
            "draw.",
            "balance.",
            "tables.halted",
            "table.breaking",
            "table.button",
            "house_rules.",
        ),
    ),
    ("tables", ("table.", "tables.", "h4h.", "venue.")),
    ("clock", ("clock.",)),
    ("chips", ("colorup.", "race.", "chips.", "bags.", "day.")),
    ("payouts", ("payouts.", "payout.", "deal.", "satellite.", "ticket.")),
    ("flights", ("flight.", "flights.")),
    ("leagues", ("league.",)),
    ("setup", ("tournament.", "structure.", "display.", "sit_and_go.")),
)


def event_groups() -> dict[str, str]:
    return {
        "busts": _("Busts"),
        "entries": _("Entries and purchases"),
        "seating": _("Seating, moves and balancing"),
        "tables": _("Tables and hands"),
        "clock": _("Clock"),
        "chips": _("Chips and color-ups"),
        "payouts": _("Prizes, deals and satellites"),
        "penalties": _("Penalties"),
        "flights": _("Flights and Day 2"),
        "leagues": _("Leagues"),
        "setup": _("Setup"),
    }


def group_of(type_: str) -> str:
    for group, prefixes in GROUP_PREFIXES:
        if type_.startswith(prefixes):
            return group
    return "setup"


def types_of(group: str) -> list[str]:
    return sorted(type_ for type_ in event_labels() if group_of(type_) == group)


def event_line(type_: str, payload: dict, names: Names, labels: dict[str, str] | None = None) -> str:
    """One event in words."""
    labels = event_labels() if labels is None else labels
    label = labels.get(type_) or type_.replace("_", " ").replace(".", ": ").capitalize()
    payload = payload if isinstance(payload, dict) else {}
    line = next((line for prefix, line in LINES if type_.startswith(prefix)), None)
    if line is not None:
        try:
            return line(type_, label, payload, names)
        except (KeyError, TypeError, ValueError, AttributeError):  # an old payload of another shape
            pass
    return generic(label, payload, names)
