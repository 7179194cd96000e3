"""The tournament's event types in words (tournament/services: setup, structures, players, registration, receipts,
lobby screen links): their labels and one line per event. Collected with every other app's by web/event_words.py."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web import event_parts as parts
from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "tournament.created": _("Tournament created"),
        "tournament.changed": _("Tournament settings changed"),
        "tournament.structure_changed": _("Structure changed"),
        "registration.closed": _("Registration closed"),
        "registration.reopened": _("Registration reopened"),
        "entry.registered": _("Entry registered"),
        "rebuy.announced": _("Re-buy announced"),
        "rebuy.paid": _("Re-buy paid"),
        "addon.paid": _("Add-on paid"),
        "purchase.voided": _("Receipt voided"),
        "display.created": _("Lobby screen link created"),
        "display.revoked": _("Lobby screen link revoked"),
        "addon.announced": _("Add-on announced"),
        "player.created": _("Player created"),
        "structure.created": _("Structure created"),
        "structure.changed": _("Structure template changed"),
        "structure.copied": _("Structure copied"),
        "structure.imported": _("Structure imported"),
        "waiting.joined": _("Joined the waiting list"),
        "waiting.seated": _("Alternate sat down"),
        "waiting.passed": _("Alternate passed over"),
        "waiting.cancelled": _("Taken off the waiting list"),
        "reservation.made": _("Place reserved from a phone"),
        "reservation.cancelled": _("Reservation cancelled"),
        "reservation.expired": _("Reservations expired"),
    }


def _entry(type_: str, label: str, p: dict, names: Names) -> str:
    """A registration; the entry's other events (a bust, a disqualification) are the tables' words."""
    who = parts.who(p, names)
    at = parts.seat(p)
    if type_ == "entry.registered":
        kind = _("re-entry") if p.get("kind") == "reentry" else _("entry")
        if p.get("reservation") is not None:
            return _("%(who)s registered on reservation R-%(number)s (%(kind)s)") % {"who": who, "number": p["reservation"], "kind": kind}
        if p.get("alternate") is not None:
            return _("Alternate %(number)s, %(who)s: offered %(seat)s") % {"number": p["alternate"], "who": who, "seat": at}
        if p.get("table") is not None:
            return _("%(who)s registered (%(kind)s), seated at %(seat)s") % {"who": who, "kind": kind, "seat": at}
        return _("%(who)s registered (%(kind)s)") % {"who": who, "kind": kind}
    return parts.generic(label, p, names)


def _purchase(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"who": parts.who(p, names), "label": label, "receipt": p.get("receipt", "–"), "reason": p.get("reason") or "–"}
    if type_ == "purchase.voided":
        return _("%(who)s: receipt %(receipt)s voided (%(reason)s)") % facts
    return _("%(who)s: %(label)s, receipt %(receipt)s") % facts


def _setup(type_: str, label: str, p: dict, names: Names) -> str:
    if type_ == "player.created":
        return _("New player: %(name)s") % {"name": p.get("name", "–")}
    name = p.get("name") or p.get("label")
    if name:
        return _("%(label)s: %(name)s") % {"label": label, "name": name}
    if isinstance(p.get("changed"), (list, dict)) and p.get("changed"):
        return _("%(label)s: %(keys)s") % {"label": label, "keys": ", ".join(str(k) for k in p["changed"])}
    return label


def _waiting(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"number": p.get("alternate", "–"), "name": p.get("name", "–"), "reason": p.get("reason") or "–"}
    if type_ == "waiting.joined":
        if p.get("reservation") is not None:
            return _("%(name)s joined the waiting list on reservation R-%(reservation)s: alternate %(number)s") % {
                **facts,
                "reservation": p["reservation"],
            }
        return _("%(name)s joined the waiting list: alternate %(number)s") % facts
    if type_ == "waiting.seated":
        return _("Alternate %(number)s, %(name)s, sat down") % facts
    if type_ == "waiting.passed":
        return _("Alternate %(number)s, %(name)s, passed over: %(reason)s") % facts
    return _("Alternate %(number)s, %(name)s, taken off the list: %(reason)s") % facts


def _reservation(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"number": p.get("reservation", "–"), "name": p.get("name", "–"), "reason": p.get("reason") or "–"}
    if type_ == "reservation.made":
        return _("%(name)s reserved a place from a phone: R-%(number)s") % facts
    if type_ == "reservation.cancelled":
        if p.get("reason"):
            return _("Reservation R-%(number)s, %(name)s, cancelled by the desk: %(reason)s") % facts
        return _("Reservation R-%(number)s, %(name)s, cancelled by the player") % facts
    if type_ == "reservation.expired":
        numbers = ", ".join(f"R-{n}" for n in p.get("reservations") or [])
        return _("Reservations not claimed in time expired: %(numbers)s") % {"numbers": numbers or "–"}
    return parts.generic(label, p, names)


# Which line writes which types; of two prefixes a type starts with, the longer wins (web/event_words.py): an entry's
# bust is the tables' line, the end of play the payouts'.
LINES: tuple[tuple[tuple[str, ...], Line], ...] = (
    (("entry.",), _entry),
    (("rebuy.", "addon.", "purchase."), _purchase),
    (("player.", "tournament.", "structure.", "display.", "registration."), _setup),
    (("waiting.",), _waiting),
    (("reservation.",), _reservation),
)
