"""The director's clock page for a tablet. Its buttons call the JSON API (POST /api/tournaments/<id>/clock/,
web/clock/api.py) through static/js/api.js; the page only reads."""

from __future__ import annotations

from django.shortcuts import render

from clock.selectors import clock as clock_selectors
from tournament.models import Tournament
from web.access import page
from web.tournament.views import in_venue_time


@page("director-clock")
@in_venue_time
def director_clock(request, tournament: Tournament):
    snapshot = clock_selectors.clock_snapshot(tournament)
    return render(request, "clock/director.html", {"t": tournament, "clock": snapshot})
