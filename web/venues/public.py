"""The players' page of the day (/today/, public): today's events with their state (registration open, the level in
play and players left, finished), each linked to its seat search, and one search that finds a player's seat in any
tournament running now. Names, tables and seats only, as every public page (docs/roles.md)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

from django.shortcuts import render
from django.utils import timezone

from tables.selectors import screens
from tournament.models import Tournament
from tournament.selectors.stats import tournament_stats
from web.access import page
from web.caching import search_at

DAYS_AROUND = 2  # a day's events are those starting within this many days of now, read in their own time zones


def today_events() -> list[Tournament]:
    """The tournaments running now, and those that start or started today where they are played, by start time."""
    now = timezone.now()
    near = Tournament.objects.filter(start_at__range=(now - timedelta(days=DAYS_AROUND), now + timedelta(days=DAYS_AROUND)))
    chosen = {t.pk: t for t in Tournament.objects.filter(status=Tournament.Status.RUNNING)}
    for t in near:
        zone = ZoneInfo(t.time_zone)
        if t.start_at.astimezone(zone).date() == now.astimezone(zone).date():
            chosen.setdefault(t.pk, t)
    return sorted(chosen.values(), key=lambda t: (t.start_at, t.pk))


def state_of(t: Tournament, stats: dict) -> dict:
    late = t.late_reg_until_level
    open_now = not t.registration_closed and t.status != Tournament.Status.FINISHED and (late is None or t.current_level <= late)
    return {
        "status": t.status,
        "registration_open": open_now,
        "late_until": late if open_now and t.status == Tournament.Status.RUNNING else None,
        "level": t.current_level if t.status == Tournament.Status.RUNNING else None,
        "players_left": stats["players_left"],
        "entries": stats["entries"],
    }


@page("today")
def today_page(request):
    events = today_events()
    rows = [{"t": t, **state_of(t, tournament_stats(t))} for t in events]
    q = request.GET.get("q", "").strip()[:80]
    found = []
    if q:
        for t in events:
            if t.status == Tournament.Status.RUNNING:
                found += [{"t": t, **seat} for seat in screens.find_entries(search_at(t.pk, t.seats_seq), q)]
    return render(request, "venues/today.html", {"rows": rows, "q": q, "found": found})
