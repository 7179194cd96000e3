"""The days' event types in words (days/services/bags.py): bag-and-tag and the close of a day, their labels and one
line per event. Collected with every other app's by web/event_words.py."""

from __future__ import annotations

from django.utils.translation import gettext as _

from web import event_parts as parts
from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "bags.recorded": _("Bags recorded"),
        "day.closed": _("Day closed"),
    }


def _days(type_: str, label: str, p: dict, names: Names) -> str:
    """Bag-and-tag and the close of a day (days/services/bags.py)."""
    if type_ == "day.closed":
        line = _("Day %(day)s closed: %(bags)s bags, %(total)s chips, difference %(difference)s") % {
            "day": p.get("day", "–"),
            "bags": p.get("bags", "–"),
            "total": p.get("total", "–"),
            "difference": p.get("difference", "–"),
        }
        if p.get("missing"):
            line += " " + _("(no bag: %(entries)s)") % {"entries": ", ".join(f"#{n}" for n in p["missing"])}
        return line + (f": {p['reason']}" if p.get("reason") else "")
    if type_ == "bags.recorded" and "entry" in p:
        return _("Table %(table)s: %(who)s bagged, %(total)s chips in bag %(bag)s") % {
            "table": p.get("table", "–"),
            "who": parts.who(p, names),
            "total": p.get("total", "–"),
            "bag": p.get("bag", "–"),
        }
    if type_ == "bags.recorded":
        return _("Table %(table)s: bags recorded, %(total)s chips in all") % {"table": p.get("table", "–"), "total": p.get("total", "–")}
    return parts.generic(label, p, names)


# Which line writes which types (web/event_words.py).
LINES: tuple[tuple[tuple[str, ...], Line], ...] = ((("bags.", "day."), _days),)
