"""The clock's event types in words (clock/services/clock.py and the levels' boundaries): their labels and one line
per event ("Level 6 started"). Collected with every other app's by web/event_words.py."""

from __future__ import annotations

from datetime import datetime

from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from web.event_parts import Line, Names


def labels() -> dict[str, str]:
    return {
        "clock.started": _("Clock started"),
        "clock.paused": _("Clock paused"),
        "clock.resumed": _("Clock resumed"),
        "clock.adjusted": _("Time added or removed"),
        "clock.level_ended": _("Level ended now"),
        "clock.next": _("Next level"),
        "clock.previous": _("Previous level"),
        "clock.jumped": _("Jumped to a level"),
        "clock.announcement": _("Announcement changed"),
        "clock.level_started": _("New level"),
        "clock.break_started": _("Break"),
        "clock.break_ended": _("Break over"),
        "clock.day_end_set": _("Day's end set"),
        "clock.day_ended": _("Day ended"),
        "clock.restart_scheduled": _("Next day's start scheduled"),
        "clock.one_minute": _("One minute left"),
        "clock.level_set": _("Level set"),
    }


def _when(value) -> str:
    """An ISO time of a payload, in the zone the page shows (the venue's) and the reader's format."""
    try:
        moment = datetime.fromisoformat(value)
    except (TypeError, ValueError):
        return "–"
    return date_format(timezone.localtime(moment) if timezone.is_aware(moment) else moment, "SHORT_DATETIME_FORMAT")


def _clock(type_: str, label: str, p: dict, names: Names) -> str:
    level = p.get("level")
    if type_ == "clock.level_started" and level is not None:
        return _("Level %(level)s started") % {"level": level}
    if type_ == "clock.one_minute" and level is not None:
        return _("One minute left in level %(level)s") % {"level": level}
    if type_ == "clock.level_ended" and p.get("removed") is not None:
        minutes, seconds = divmod(int(p["removed"]), 60)
        row = _("Level %(level)s") % {"level": level} if level is not None else _("The break")
        return _("%(row)s ended now (%(minutes)s:%(seconds)02d left removed)") % {"row": row, "minutes": minutes, "seconds": seconds}
    if type_ == "clock.jumped" and level is not None:
        return _("Clock jumped to level %(level)s") % {"level": level}
    if type_ == "clock.announcement":
        return _("Announcement: %(text)s") % {"text": p.get("text") or "–"} if p.get("text") else _("Announcement cleared")
    if type_ == "clock.day_end_set":
        return _("The day ends after level %(level)s") % {"level": level} if level else _("The day's end is cleared")
    if type_ == "clock.day_ended":
        return _("The day ended after level %(level)s") % {"level": level}
    if type_ == "clock.restart_scheduled":
        return _("Play resumes %(start)s at level %(level)s") % {"start": _when(p.get("start_at")), "level": level}
    if type_ == "clock.resumed" and p.get("by_schedule"):
        return _("Clock resumed by schedule")
    return label


# Which line writes which types (web/event_words.py).
LINES: tuple[tuple[tuple[str, ...], Line], ...] = ((("clock.",), _clock),)
