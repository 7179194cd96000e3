"""The room's screen for the staff: the venue's tables by area, each free, held by a tournament (its name, in the
tournament's colour and in words), reserved, out of service or given to cash games; filtered by tournament; live (a
note on the room socket reads the map again). The floor closes, reserves or hands a table over from it, and the
director sets the venue up there (a table, a room file, the order of the areas). The page only reads
(tables/selectors/room_map.py); every change goes through the JSON API (web/venues/api.py), sent by
static/js/room.js."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from core import access, roles
from tables.selectors.room_map import room_map
from tournament.models import Tournament
from venues.models import Paper, Venue
from venues.services.setup import default_venue
from web.access import page
from web.tournament.forms import DisplayForm


def tournaments_in(venue: Venue, user):
    """The tournaments of this venue that are not over, those the user works: the room's filter and the floor's
    choice of a tournament to reserve a table for or hand one to."""
    return roles.worked(user, venue.all_tournaments().exclude(status=Tournament.Status.FINISHED).order_by("start_at", "pk"))


def _movable(venue: Venue) -> list[Tournament]:
    """The tournaments being set up, with no table yet, that play in another venue: the director may move them here."""
    setting_up = Tournament.objects.filter(status=Tournament.Status.SETUP, tables__isnull=True).select_related("room")
    return list(setting_up.exclude(pk__in=venue.all_tournaments().values("pk")).order_by("start_at", "pk"))


def _room(request, venue: Venue):
    try:
        only = int(request.GET["tournament"]) if request.GET.get("tournament") else None
    except ValueError:
        only = None
    state = room_map(venue, user=request.user, tournament=only)
    may = {name: access.may(request.user, f"api-venue-{name}") for name in ("tables:POST", "import:POST", "table-state:POST")}
    return render(
        request,
        "venues/room.html",
        {
            "venue": venue,
            "venues": Venue.objects.order_by("id"),
            "state": state,
            "only": only,
            "tournaments": list(tournaments_in(venue, request.user)),
            "may_set_up": may["tables:POST"],
            "may_floor": may["table-state:POST"],
            # the room TVs' links, made and revoked by whoever sets the venue up (web/venues/room_tv.py)
            "tokens": venue.displays.order_by("-created_at", "-id") if may["tables:POST"] else [],
            "form": DisplayForm(),
            "links_api": f"venues/{venue.pk}/displays/",
            "movable": _movable(venue) if may["tables:POST"] else [],
            "papers": Paper.choices,  # the desk's paper and the roll printer (docs/printing.md), set with the venue
        },
    )


@page("room")
def room_page(request):
    return _room(request, default_venue())


@page("venue-room")
def venue_room_page(request, venue_id: int):
    return _room(request, get_object_or_404(Venue, pk=venue_id))
