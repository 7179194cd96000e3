"""The director's clock page for a tablet, and the thin view its buttons post to."""
from __future__ import annotations

from django.contrib import messages
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from clock import selectors, services
from core import roles
from core.errors import ServiceError
from tournament.models import Tournament
from web.tournament.views import in_venue_time, role_required


def wants_json(request) -> bool:
    """The page's buttons post with fetch and ask for JSON; a plain form post gets a redirect."""
    return "application/json" in request.headers.get("Accept", "")


@role_required(roles.SETUP)
@in_venue_time
def director_clock(request, tournament: Tournament):
    snapshot = selectors.clock_snapshot(tournament)
    return render(request, "clock/director.html", {"t": tournament, "clock": snapshot})


def _int(value, message: str) -> int:
    try:
        return int(str(value).strip())
    except (TypeError, ValueError):
        raise ServiceError(message, code="invalid") from None


def perform(user, tournament: Tournament, data) -> str:
    """Call the one service the button asks for. Returns what to tell the director."""
    action = data.get("action", "")
    if action == "start":
        services.start_clock(user, tournament)
        return _("The clock is running.")
    if action == "pause":
        services.pause_clock(user, tournament)
        return _("The clock is paused.")
    if action == "resume":
        services.resume_clock(user, tournament)
        return _("The clock is running again.")
    if action == "adjust":
        seconds = _int(data.get("seconds"), _("Give a number of seconds to add or remove."))
        services.adjust_clock(user, tournament, seconds)
        minutes = abs(seconds) / 60
        if seconds > 0:
            return _("%(minutes)s min added.") % {"minutes": f"{minutes:g}"}
        return _("%(minutes)s min removed.") % {"minutes": f"{minutes:g}"}
    if action in ("next", "previous"):
        services.step_level(user, tournament, 1 if action == "next" else -1)
        return _("Moved to the next level.") if action == "next" else _("Moved back to the previous level.")
    if action == "jump":
        level = _int(data.get("level"), _("Enter a level number of 1 or more."))
        if level < 1:
            raise ServiceError(_("Enter a level number of 1 or more."), code="invalid")
        services.jump_to_level(user, tournament, level)
        return _("Level %(level)s is now in play.") % {"level": level}
    if action == "announce":
        text = data.get("text", "")
        services.set_announcement(user, tournament, text)
        return _("The announcement is on the screens.") if text.strip() else _("The announcement is cleared.")
    raise ServiceError(_("Unknown clock action."), code="invalid")


@require_POST
@role_required(roles.SETUP)
def clock_action(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    try:
        message = perform(request.user, tournament, request.POST)
    except ServiceError as exc:
        if wants_json(request):
            return JsonResponse({"ok": False, "error": exc.message, "code": exc.code}, status=exc.status)
        messages.error(request, exc.message)
        return redirect("director-clock", pk=pk)
    if wants_json(request):
        return JsonResponse({"ok": True, "message": message, "clock": selectors.clock_snapshot(tournament)})
    messages.success(request, message)
    return redirect("director-clock", pk=pk)
