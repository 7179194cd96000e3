"""The floor's penalties page (TDA 51): give a warning, one hand, one to four rounds or a disqualification to a
seated player,
cancel a penalty given in error, and the list (who sits out now first). The page only renders: its forms
give and cancel through the JSON API (web/tables/penalty_api.py, static/js/penalties.js). The floor names
the player by name, entry number, or table and seat; a name is looked up here (`?who=`, a GET): one player
in play it matches is given the penalty, several are listed (with their table and seat) to choose from,
and nothing is recorded until one is chosen."""

from __future__ import annotations

from datetime import datetime

from django.shortcuts import render
from django.utils.translation import gettext as _

from tables.rules import missed_hands
from tables.selectors import screens, state
from tournament.models import Tournament
from web.access import page
from web.tables.forms import GivePenaltyForm
from web.tournament.views import in_venue_time

# The list's order: who sits out now first, then warnings, the served and the cancelled.
ORDER = {"serving": 0, "disqualified": 1, "warning": 2, "served": 3, "ended": 4, "cancelled": 5}
NAMES_LISTED = 12  # the players a name matches, listed to choose from; more: type more of the name


def _rows(tournament: Tournament) -> list[dict]:
    rows = screens.penalties(tournament)  # newest first
    for row in rows:  # aware datetimes: the template shows them in the venue's zone (in_venue_time)
        for key in ("given_at", "cancelled_at"):
            row[key + "_dt"] = datetime.fromisoformat(row[key]) if row[key] else None
    return sorted(
        rows,
        key=lambda r: (
            ORDER.get(r["status"], 9),
            (r["now"] or {}).get("table", 0) if r["status"] == "serving" else 0,
            (r["now"] or {}).get("seat", 0) if r["status"] == "serving" else 0,
            -r["number"],
        ),
    )


def _named(tournament: Tournament, name: str) -> dict:
    """The players in play a name matches, with their table and seat, to choose from (never a guess: two
    players named alike are both listed); `nobody`: the message when it matches no one."""
    found, total = state.entries_named(tournament, name, limit=NAMES_LISTED)
    nobody = (
        ""
        if total
        else _("Nobody in play here is named “%(name)s”: check the name, or give the entry number, or the table and the seat.")
        % {"name": name}
    )
    return {"name": name, "rows": found, "more": total - len(found), "total": total, "nobody": nobody}


@page("penalties")
@in_venue_time
def penalties_page(request, tournament: Tournament):
    name = " ".join(request.GET.get("who", "").split())[:100]
    rows = _rows(tournament)
    return render(
        request,
        "tables/penalties.html",
        {
            "t": tournament,
            "give": GivePenaltyForm(initial={"who": name}),
            "candidates": _named(tournament, name) if name else None,
            "max_rounds": missed_hands.MAX_ROUNDS,
            "dq_place": state.house_rules(tournament).disqualified_place,
            "serving": [r for r in rows if r["status"] == "serving"],
            "others": [r for r in rows if r["status"] != "serving"],
        },
    )
