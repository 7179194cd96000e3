"""The notifications' event types in words (notify/services/subscriptions.py): a phone told of an entry or of an
alternate's place from now on, and told no more. Collected with every other app's by web/event_words.py. The endpoint
is never in an event: a short hash of it tells two phones apart."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web import event_parts as parts
from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "notify.subscribed": _("Phone told of an entry"),
        "notify.unsubscribed": _("Phone no longer told"),
    }


def _notify(type_: str, label: str, p: dict, names: Names) -> str:
    whom = parts.who(p, names) if p.get("entry") is not None else _("alternate %(number)s") % {"number": p.get("alternate", "–")}
    facts = {"who": whom, "phone": p.get("endpoint", "–")}
    if type_ == "notify.subscribed":
        return _("%(who)s: a phone (%(phone)s) is told of seats, moves and prizes") % facts
    via = {"notification": _("from a notification"), "push_service": _("its push service says it is gone")}.get(
        p.get("via"), _("from the seat page")
    )
    return _("%(who)s: a phone (%(phone)s) is no longer told (%(via)s)") % {**facts, "via": via}


LINES: tuple[tuple[tuple[str, ...], Line], ...] = ((("notify.",), _notify),)
