"""The players' page of the day (/today/, public): today's events with their state (registration open, the level in
play and players left, finished), each linked to its seat search, and one search that finds a player's seat in any
tournament running now. Names, tables and seats only, as every public page (docs/roles.md)."""

from __future__ import annotations

from django.shortcuts import render

from tables.selectors import screens
from tables.selectors.room_map import registration_state
from tournament.models import Tournament
from tournament.selectors.stats import tournament_stats
from venues.selectors.today import today_events
from web.access import page
from web.caching import search_at


def state_of(t: Tournament, stats: dict) -> dict:
    registration = registration_state(t, stats)
    return {
        "status": t.status,
        "registration_open": registration["open"],
        "late_until": registration["until_level"],
        "sold_out": registration["sold_out"],
        "waiting": registration["waiting"],
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
