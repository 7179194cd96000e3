"""The chip counts' pages: the floor's page (every stack with who counted it and when, each table's check,
the room's difference from the chips in play, one player's count entered through the JSON API) and the players'
public chip-count page, searchable, while the house rule shows counts in public. The pages only read."""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _

from tables.selectors import counts
from tournament.models import Tournament
from tournament.selectors.stats import tournament_stats
from web.access import page
from web.caching import versioned
from web.tournament.views import in_venue_time


@page("chip-counts")
@in_venue_time
def chip_counts_page(request, tournament: Tournament):
    room = counts.room(tournament)
    return render(
        request,
        "tables/chip_counts.html",
        {"t": tournament, "room": room, "stacks": room["stacks"], "flagged_tables": [row for row in room["tables"] if row["flagged"]]},
    )


@page("public-counts")
@versioned()
def public_counts(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    if not counts.public(tournament):
        raise Http404(_("No public chip counts for this tournament."))
    q = " ".join(request.GET.get("q", "").split())[:100]
    stacks, total = counts.every_stack(tournament, q, limit=counts.PUBLIC_LIMIT)
    stats = tournament_stats(tournament)
    with timezone.override(tournament.time_zone):  # the times counted, in the venue's zone
        return render(
            request,
            "tables/public_counts.html",
            {
                "t": tournament,
                "q": q,
                "stacks": stacks,
                "total": total,
                "stats": stats,
                "big_blind": counts.big_blind_now(tournament),
                "limit": counts.PUBLIC_LIMIT,
            },
        )
