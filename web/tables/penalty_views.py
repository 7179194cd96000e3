"""The floor's penalties page (TDA 51): give a warning, one hand or one to four rounds to a seated player,
cancel a penalty given in error, and the list (who sits out now first). Thin: a form for the shape, one
service call (tables/penalties.py) for the rules, a message, then POST/redirect/GET; a refusal re-renders
the page with the service's message and nothing recorded. The floor names the player by name, entry
number, or table and seat; a name that matches several players in play lists them (with their table and
seat) to choose from, and nothing is recorded until one is chosen."""
from __future__ import annotations

from datetime import datetime

from django.contrib import messages
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from core.errors import ServiceError
from tables import missed_hands, penalties, read_models, selectors
from tournament.models import Tournament
from web.access import page
from web.tables.forms import ROUND_CHOICES, CancelPenaltyForm, GivePenaltyForm
from web.tournament.views import in_venue_time

# The list's order: who sits out now first, then warnings, the served and the cancelled.
ORDER = {"serving": 0, "warning": 1, "served": 2, "ended": 3, "cancelled": 4}
NAMES_LISTED = 12  # the players a name matches, listed to choose from; more: type more of the name


def _rows(tournament: Tournament) -> list[dict]:
    rows = read_models.penalties(tournament)  # newest first
    for row in rows:  # aware datetimes: the template shows them in the venue's zone (in_venue_time)
        for key in ("given_at", "cancelled_at"):
            row[key + "_dt"] = datetime.fromisoformat(row[key]) if row[key] else None
    return sorted(rows, key=lambda r: (ORDER.get(r["status"], 9),
                                       (r["now"] or {}).get("table", 0) if r["status"] == "serving" else 0,
                                       (r["now"] or {}).get("seat", 0) if r["status"] == "serving" else 0,
                                       -r["number"]))


def _given(penalty) -> str:
    who = {"number": penalty.number, "name": penalty.entry.player.display_name, "entry": penalty.entry.number,
           "table": penalty.table_number, "seat": penalty.seat, "hands": penalty.hands}
    if penalty.kind == missed_hands.WARNING:
        return _("Penalty #%(number)s: a warning to %(name)s (entry #%(entry)s, table %(table)s seat %(seat)s).") % who
    return _("Penalty #%(number)s: %(name)s (entry #%(entry)s, table %(table)s seat %(seat)s) sits out %(hands)s "
             "hands, dealt in and blinded off. The table's tablet shows it.") % who


def _named(tournament: Tournament, give: GivePenaltyForm) -> tuple[int | None, dict | None]:
    """The entry a name typed on the form stands for: the one player in play it matches, or the one picked
    among those it matched; otherwise the players it matches (with their table and seat) to choose from.
    Never a guess: two players named alike are both listed. (entry number, the candidates to show)."""
    name, picked = give.cleaned_data["name"], give.cleaned_data["entry"]
    found, total = selectors.entries_named(tournament, name, limit=NAMES_LISTED)
    if not total:
        raise ServiceError(_("Nobody in play here is named “%(name)s”: check the name, or give the entry number, "
                             "or the table and the seat.") % {"name": name}, code="not_found")
    chosen = [row for row in found if row["entry"] == picked] or (found if total == 1 else [])
    if chosen:
        return chosen[0]["entry"], None
    return None, {"name": name, "rows": found, "more": total - len(found), "total": total}


@page("penalties", posts=True)
@in_venue_time
def penalties_page(request, tournament: Tournament):
    give = GivePenaltyForm(request.POST if request.POST.get("action") == "give" else None)
    cancel = CancelPenaltyForm(request.POST if request.POST.get("action") == "cancel" else None, prefix="cancel")
    error, cancelling, candidates = None, None, None
    if request.method == "POST":
        try:
            if give.is_bound:
                if give.is_valid():
                    entry_number = None
                    if give.cleaned_data["name"]:
                        entry_number, candidates = _named(tournament, give)
                    if candidates is None:
                        penalty = penalties.give_penalty(request.user, tournament, **give.data_for_service(entry_number))
                        messages.success(request, _given(penalty))
                        return redirect("penalties", pk=tournament.pk)
            elif cancel.is_bound:
                cancelling = request.POST.get("cancel-number")
                if cancel.is_valid():
                    penalty = penalties.cancel_penalty(request.user, tournament, cancel.cleaned_data["number"],
                                                       cancel.cleaned_data["reason"])
                    messages.success(request, _("Penalty #%(number)s is cancelled.") % {"number": penalty.number})
                    return redirect("penalties", pk=tournament.pk)
                error = ServiceError(_("Nothing was cancelled: say which penalty and why."))
            else:
                error = ServiceError(_("Nothing was done: give or cancel a penalty with the forms below."))
        except ServiceError as exc:
            error = exc
    rows = _rows(tournament)
    return render(request, "tables/penalties.html", {
        "t": tournament, "give": give, "error": error, "cancelling": cancelling, "candidates": candidates,
        "cancel_reason": request.POST.get("cancel-reason", "") if cancelling else "",
        "round_choices": ROUND_CHOICES, "max_rounds": missed_hands.MAX_ROUNDS,
        "serving": [r for r in rows if r["status"] == "serving"],
        "others": [r for r in rows if r["status"] != "serving"]})
