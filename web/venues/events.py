"""The venue's event types in words (venues/services, tables/services/venue.py): a tournament's tables taken from the
room and given back, reservations, and the room's own changes (its tables added, changed, closed, imported). Collected
with every other app's by web/event_words.py."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web import event_parts as parts
from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "venue.tables_taken": _("Tables taken from the venue"),
        "table.dealer_links_followed": _("Dealer tablets followed their tables"),
        "sit_and_go.set": _("Sit & go set up"),
        "sit_and_go.opened": _("Sit & go opened"),
        "sit_and_go.waiting": _("Sit & go waiting for a table"),
        "venue.room_set": _("Venue chosen"),
        "venue.tables_given_back": _("Tables given back to the venue"),
        "venue.reserved": _("Table reserved"),
        "venue.reservation_cancelled": _("Reservation cancelled"),
        "venue.reservation_ended": _("Reservation ended"),
        "venue.created": _("Venue created"),
        "venue.areas": _("Venue's areas set"),
        "venue.table_added": _("Venue table added"),
        "venue.table_changed": _("Venue table changed"),
        "venue.table_removed": _("Venue table removed"),
        "venue.table_state": _("Venue table opened or closed"),
        "venue.imported": _("Venue's tables imported"),
        "venue.display_created": _("Room TV link made"),
        "venue.display_revoked": _("Room TV link revoked"),
        "venue.printing": _("Paper and roll printer set"),
        "venue.printed": _("Printed on the roll printer"),
    }


def printed_paper(name: str) -> str:
    """A paper the roll printer prints, in words (venues/services/printing.py)."""
    words = {
        "receipt": _("Buy-in receipt"),
        "payout-receipt": _("Payout receipt"),
        "bounty-receipt": _("Bounty receipt"),
        "seat-ticket": _("Seat ticket of entry"),
        "bag-slip": _("Bag slip of entry"),
    }
    return words.get(name, name)


def _venue(type_: str, label: str, p: dict, names: Names) -> str:
    facts = {"table": p.get("table", "–"), "tables": parts.numbers(p.get("tables")), "reason": p.get("reason") or "–"}
    if type_ == "venue.room_set":
        return _("This tournament takes its tables from the venue %(name)s") % {"name": p.get("name", "–")}
    if type_ == "venue.tables_taken":
        return _("Tables taken from the venue: %(tables)s") % facts
    if type_ == "venue.tables_given_back":
        return _("Tables given back to the venue: %(tables)s") % facts
    if type_ == "venue.reserved":
        return _("Table %(table)s reserved for this tournament (%(reason)s)") % facts
    if type_ == "venue.reservation_cancelled":
        return _("Reservation of table %(table)s cancelled") % facts
    if type_ == "venue.reservation_ended":
        return _("Reservation of table %(table)s ended: the table closed (%(reason)s)") % facts
    if type_ == "venue.table_state":
        return _("Table %(table)s: %(state)s (%(reason)s)") % {**facts, "state": p.get("state", "–")}
    if type_ == "venue.imported":
        return _("Venue's tables imported: %(tables)s tables, %(added)s added, %(changed)s changed") % {
            "tables": p.get("tables", "–"),
            "added": p.get("added", "–"),
            "changed": p.get("changed", "–"),
        }
    if type_ == "venue.printing":
        return _("The desk prints on %(paper)s; roll printer: %(printer)s") % {
            "paper": p.get("paper", "–"),
            "printer": p.get("printer") or _("none"),
        }
    if type_ == "venue.printed":
        return _("%(paper)s %(number)s printed on the roll printer at %(printer)s (%(roll)s mm)") % {
            "paper": printed_paper(p.get("paper", "–")),
            "number": p.get("number", "–"),
            "printer": p.get("printer", "–"),
            "roll": p.get("roll", "–"),
        }
    if type_ in ("venue.display_created", "venue.display_revoked"):
        return f"{label}: {p.get('label', '–')}"
    return parts.generic(label, p, names)


def _sit_and_go(type_: str, label: str, p: dict, names: Names) -> str:
    if type_ == "sit_and_go.set":
        return _("A sit & go of %(players)s players") % {"players": p.get("players", "–")}
    if type_ == "sit_and_go.opened":
        return _("Sit & go #%(number)s of the series opened") % {"number": p.get("number", "–")}
    if type_ == "sit_and_go.waiting":
        return _("The sit & go is full and waits for a table: %(reason)s") % {"reason": p.get("reason", "–")}
    return parts.generic(label, p, names)


LINES: tuple[tuple[tuple[str, ...], Line], ...] = ((("venue.",), _venue), (("sit_and_go.",), _sit_and_go))
