"""The day's events: what the players' page of the day (/today/) and a room TV (its schedule) list."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from django.db.models import QuerySet
from django.utils import timezone

from tournament.models import Tournament

DAYS_AROUND = 2  # a day's events are those starting within this many days of now, read in their own time zones


def today_events(tournaments: QuerySet | None = None) -> list[Tournament]:
    """The tournaments running now, and those that start or started today where they are played, by start time;
    among `tournaments` (a venue's, for its room TV), or every one."""
    rows = Tournament.objects.all() if tournaments is None else tournaments
    now = timezone.now()
    near = rows.filter(start_at__range=(now - timedelta(days=DAYS_AROUND), now + timedelta(days=DAYS_AROUND)))
    chosen = {t.pk: t for t in rows.filter(status=Tournament.Status.RUNNING)}
    for t in near:
        zone = ZoneInfo(t.time_zone)
        if t.start_at.astimezone(zone).date() == now.astimezone(zone).date():
            chosen.setdefault(t.pk, t)
    return sorted(chosen.values(), key=lambda t: (t.start_at, t.pk))
