"""The flights' event types in words (flights/services/events.py, flights/reactions.py): events with flights into one
Day 2, their labels and one line per event. Collected with every other app's by web/event_words.py."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web import event_parts as parts
from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "flights.event_created": _("Event with flights created"),
        "flight.added": _("Flight added to an event"),
        "flights.day2_set": _("Day 2 of the event set"),
        "flights.policy_set": _("Stack policy set"),
        "flights.late_registration_set": _("Day 2 late registration set"),
        "flight.end_set": _("Flight end set"),
        "flight.ending": _("Flight ends at the end of this level"),
        "flights.carried": _("Bags carried into Day 2"),
    }


def _flights(type_: str, label: str, p: dict, names: Names) -> str:
    """Events with flights into one Day 2 (flights/services/events.py, flights/reactions.py)."""
    if type_ == "flight.ending":
        return _("Flight %(flight)s: %(players)s players left of %(entries)s (%(percent)s%%): it ends at the end of level %(level)s") % {
            "flight": p.get("flight", "–"),
            "players": p.get("players_left", "–"),
            "entries": p.get("entries", "–"),
            "percent": p.get("percent", "–"),
            "level": p.get("level") or "–",
        }
    if type_ == "flights.carried":
        return _(
            "Bags carried into Day 2: %(carried)s players with %(chips)s chips; %(forfeited)s bags forfeited (%(forfeited_chips)s chips)"
        ) % {k: p.get(k, "–") for k in ("carried", "chips", "forfeited", "forfeited_chips")}
    if type_ == "flight.added":
        return _("Flight %(flight)s of %(event)s") % {"flight": p.get("flight", "–"), "event": p.get("event_name", "–")}
    if type_ == "flight.end_set":
        return _("Flight %(flight)s ends after level %(level)s or at %(percent)s%% of its field left") % {
            "flight": p.get("flight", "–"),
            "level": p.get("after_level") or "–",
            "percent": p.get("share_percent") or "–",
        }
    return parts.generic(label, p, names)


# Which line writes which types (web/event_words.py).
LINES: tuple[tuple[tuple[str, ...], Line], ...] = ((("flight.", "flights."), _flights),)
