"""Server-rendered screens. Thin: parse, check the role, call one service, render."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Q
from django.http import HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_POST

from clock import services as clock_services
from core import errors, roles
from live.snapshots import floor_snapshot, lobby_snapshot
from tables import busts, seats
from tables.models import SeatRequest
from tables.selectors import seat_of
from tournament import receipts, services
from tournament.models import DisplayToken, Entry, Player, Purchase, StaffProfile, Tournament
from tournament.stats import tournament_stats

from .event_labels import event_labels
from .forms import DisplayForm, IdCheckForm, LevelForm, PlayerForm, PreferencesForm, VoidForm


def role_required(allowed: tuple[str, ...]):
    """Log in first; then the role decides. A wrong role gets 403, never the page."""

    def decorator(view):
        @wraps(view)
        @login_required
        def wrapper(request, *args, **kwargs):
            if not roles.has_role(request.user, allowed):
                raise PermissionDenied(_("Your role does not allow this page."))
            return view(request, *args, **kwargs)

        return wrapper

    return decorator


ANY_STAFF = roles.ALL_ROLES


def in_venue_time(view):
    """Show times in the tournament's time zone."""

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=pk)
        with timezone.override(tournament.time_zone):
            return view(request, tournament, *args, **kwargs)

    return wrapper


def service_call(request, fn, *args, **kwargs):
    """Run a service; a refusal becomes an error message. Returns the result or None."""
    try:
        return fn(*args, **kwargs)
    except errors.ServiceError as exc:
        messages.error(request, exc.message)
        return None


@role_required(ANY_STAFF)
def home(request):
    tournaments = Tournament.objects.exclude(status=Tournament.Status.FINISHED).order_by("start_at")
    return render(request, "tournament/home.html", {"tournaments": tournaments,
                                                    "finished": Tournament.objects.filter(status=Tournament.Status.FINISHED)[:20]})


@login_required
def preferences(request):
    profile, _created = StaffProfile.objects.get_or_create(user=request.user)
    form = PreferencesForm(request.POST or None, initial={"language": profile.language})
    if request.method == "POST" and form.is_valid():
        profile.language = form.cleaned_data["language"]
        profile.save(update_fields=["language"])
        if profile.language:
            translation.activate(profile.language)
        messages.success(request, _("Your language is saved."))
        response = redirect("home")
        response.set_cookie("django_language", profile.language or "", samesite="Lax")
        return response
    return render(request, "tournament/preferences.html", {"form": form})


@role_required(ANY_STAFF)
@in_venue_time
def tournament_detail(request, tournament):
    recent = tournament.entries.select_related("player").order_by("-number")[:15]
    return render(request, "tournament/detail.html", {
        "t": tournament, "stats": tournament_stats(tournament), "recent": recent,
        "levels": _numbered_levels(tournament), "level_form": LevelForm(initial={"level": tournament.current_level}),
    })


def _numbered_levels(tournament: Tournament) -> list[tuple]:
    rows, number = [], 0
    for level in tournament.structure.levels.order_by("position"):
        if level.kind == "level":
            number += 1
        rows.append((level, number if level.kind == "level" else None))
    return rows


@role_required(roles.REGISTER)
@in_venue_time
def player_create(request, tournament):
    form = PlayerForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        player = service_call(request, services.create_player, request.user, **form.cleaned_data)
        if player is not None:
            messages.success(request, _("Player %(name)s created. Now check the ID and register.") % {"name": player.display_name})
            return redirect(f"{reverse('register', args=[tournament.pk])}?player={player.pk}")
    return render(request, "tournament/player_form.html", {"t": tournament, "form": form})


@sensitive_post_parameters("document_number")
@role_required(roles.REGISTER)
@in_venue_time
def register(request, tournament):
    q = request.GET.get("q", "").strip()
    found = []
    if q:
        words = q.split()
        query = Player.objects.all()
        for word in words:
            query = query.filter(Q(first_name__icontains=word) | Q(last_name__icontains=word) | Q(nickname__icontains=word))
        found = list(query[:30])
    chosen = None
    player_id = request.POST.get("player") or request.GET.get("player")
    if player_id and str(player_id).isdigit():
        chosen = Player.objects.filter(pk=int(player_id)).first()
    form = IdCheckForm(request.POST or None)
    if request.method == "POST":
        if chosen is None:
            messages.error(request, _("Choose a player first."))
        elif form.is_valid():
            document = services.IdDocument(form.cleaned_data["document_type"], form.cleaned_data["document_number"])
            entry = service_call(request, services.register_entry, request.user, tournament, chosen, document)
            if entry is not None:
                purchase = entry.purchases.order_by("number").first()
                messages.success(request, _("Entry #%(number)s registered for %(name)s.") % {
                    "number": entry.number, "name": chosen.display_name})
                return redirect("receipt", pk=tournament.pk, number=purchase.number)
        # A refused registration never shows the document number again.
        form.data = form.data.copy()
        form.data["document_number"] = ""
    live_entry = None
    history = []
    if chosen is not None:
        history = list(Entry.objects.filter(tournament=tournament, player=chosen).order_by("number"))
        live_entry = next((e for e in history if e.status == Entry.Status.ACTIVE), None)
    return render(request, "tournament/register.html", {
        "t": tournament, "q": q, "found": found, "chosen": chosen, "form": form, "history": history,
        "live_entry": live_entry, "stats": tournament_stats(tournament),
    })


@role_required(ANY_STAFF)
@in_venue_time
def entry_list(request, tournament):
    status = request.GET.get("status", "")
    entries = tournament.entries.select_related("player").order_by("-number")
    if status in Entry.Status.values:
        entries = entries.filter(status=status)
    return render(request, "tournament/entries.html", {"t": tournament, "entries": entries[:500], "status": status,
                                                       "statuses": Entry.Status.choices})


@role_required(ANY_STAFF)
@in_venue_time
def entry_detail(request, tournament, number):
    entry = get_object_or_404(Entry.objects.select_related("player", "id_check__checked_by"), tournament=tournament, number=number)
    return render(request, "tournament/entry_detail.html", {
        "t": tournament, "entry": entry, "purchases": entry.purchases.order_by("number"), "void_form": VoidForm(),
        "seat": seat_of(entry), "can_bust": roles.has_role(request.user, roles.BUST),
        "seat_request": SeatRequest.objects.filter(tournament=tournament, player=entry.player, cancelled_at__isnull=True).first(),
    })


@require_POST
@role_required(roles.REGISTER)
def entry_chips(request, pk, number):
    entry = get_object_or_404(Entry, tournament_id=pk, number=number)
    kind = request.POST.get("kind")
    purchase = service_call(request, services.add_chips, request.user, entry, kind, paid=request.POST.get("paid") != "0")
    if purchase is not None:
        messages.success(request, _("Receipt %(number)s recorded.") % {"number": purchase.number})
    return redirect("entry-detail", pk=pk, number=number)


@require_POST
@role_required(roles.BUST)
def entry_bust(request, pk, number):
    entry = get_object_or_404(Entry, tournament_id=pk, number=number)
    busted = service_call(request, busts.bust_entry, request.user, entry)
    if busted is not None:
        messages.success(request, _("Entry #%(number)s is out in place %(place)s.") % {"number": number, "place": busted.finish_place})
    return redirect("entry-detail", pk=pk, number=number)


@require_POST
@role_required(roles.BUST)
def entry_undo_bust(request, pk, number):
    entry = get_object_or_404(Entry, tournament_id=pk, number=number)
    if service_call(request, busts.undo_bust, request.user, entry) is not None:
        messages.success(request, _("Entry #%(number)s plays again.") % {"number": number})
    return redirect("entry-detail", pk=pk, number=number)


def _optional_number(value: str):
    value = (value or "").strip()
    return int(value) if value.isdigit() else (None if not value else value)


@require_POST
@role_required(roles.BUST)
def entry_seat_request(request, pk, number):
    entry = get_object_or_404(Entry.objects.select_related("tournament", "player"), tournament_id=pk, number=number)
    if request.POST.get("cancel"):
        if service_call(request, seats.cancel_seat_request, request.user, entry.tournament, entry.player):
            messages.success(request, _("The seat request is cancelled."))
        return redirect("entry-detail", pk=pk, number=number)
    table, seat = _optional_number(request.POST.get("table")), _optional_number(request.POST.get("seat"))
    if isinstance(table, str) or isinstance(seat, str):
        messages.error(request, _("Enter the table and the seat as whole numbers."))
    elif service_call(request, seats.set_seat_request, request.user, entry.tournament, entry.player, table_number=table,
                      seat=seat, accessible=bool(request.POST.get("accessible")), note=request.POST.get("note", "")) is not None:
        messages.success(request, _("The seat request is saved."))
    return redirect("entry-detail", pk=pk, number=number)


def _purchase(tournament_id: int, number: int) -> Purchase:
    return get_object_or_404(Purchase.objects.select_related("entry__player", "created_by", "voided_by", "tournament"),
                             tournament_id=tournament_id, number=number)


@role_required(roles.REGISTER + roles.VOID)
@in_venue_time
def receipt(request, tournament, number):
    purchase = _purchase(tournament.pk, number)
    return render(request, "tournament/receipt.html", {"t": tournament, "p": purchase, "lines": receipts.receipt_lines(purchase)})


@role_required(roles.REGISTER + roles.VOID)
def receipt_pdf(request, pk, number):
    purchase = _purchase(pk, number)
    with timezone.override(purchase.tournament.time_zone):
        pdf = receipts.receipt_pdf(purchase, paper=request.GET.get("paper", "80mm"))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="receipt-{purchase.tournament_id}-{purchase.number}.pdf"'
    return response


@require_POST
@role_required(roles.VOID)
def receipt_void(request, pk, number):
    purchase = _purchase(pk, number)
    form = VoidForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Give a reason for voiding."))
    elif service_call(request, services.void_purchase, request.user, purchase, form.cleaned_data["reason"],
                      form.cleaned_data.get("refund_amount")) is not None:
        messages.success(request, _("Receipt %(number)s is void; the refund is recorded.") % {"number": number})
    return redirect("entry-detail", pk=pk, number=purchase.entry.number)


@require_POST
@role_required(roles.CASH)
def receipt_pay(request, pk, number):
    purchase = _purchase(pk, number)
    if service_call(request, services.pay_purchase, request.user, purchase) is not None:
        messages.success(request, _("Receipt %(number)s is paid.") % {"number": number})
        return redirect("receipt", pk=pk, number=number)
    return redirect("entry-detail", pk=pk, number=purchase.entry.number)


@role_required(roles.EVENTS)
@in_venue_time
def events(request, tournament):
    snapshot = floor_snapshot(tournament, events=200)
    labels = event_labels()
    for event in snapshot["events"]:
        event["label"] = labels.get(event["type"], event["type"])
    return render(request, "tournament/events.html", {"t": tournament, "snapshot": snapshot, "labels": labels})


@role_required(roles.FLOOR_VIEW)
def floor_snapshot_json(request, pk):
    return JsonResponse(floor_snapshot(get_object_or_404(Tournament, pk=pk)))


@require_POST
@role_required(roles.SETUP)
def registration_toggle(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    closed = request.POST.get("closed") == "1"
    if service_call(request, services.set_registration_closed, request.user, tournament, closed) is not None:
        messages.success(request, _("Registration is closed.") if closed else _("Registration is open."))
    return redirect("tournament-detail", pk=pk)


@require_POST
@role_required(roles.SETUP)
def level_set(request, pk):
    tournament = get_object_or_404(Tournament, pk=pk)
    form = LevelForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Enter a level number of 1 or more."))
    elif service_call(request, clock_services.jump_to_level, request.user, tournament, form.cleaned_data["level"]) is not None:
        messages.success(request, _("Level %(level)s is now in play.") % {"level": form.cleaned_data["level"]})
    return redirect("tournament-detail", pk=pk)


@role_required(roles.DISPLAYS)
@in_venue_time
def displays(request, tournament):
    form = DisplayForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        token = service_call(request, services.create_display_token, request.user, tournament, form.cleaned_data["label"])
        if token is not None:
            messages.success(request, _("Screen link created for %(label)s.") % {"label": token.label})
            return redirect("displays", pk=tournament.pk)
    tokens = tournament.display_tokens.order_by("-created_at")
    return render(request, "tournament/displays.html", {"t": tournament, "form": form, "tokens": tokens})


@require_POST
@role_required(roles.DISPLAYS)
def display_revoke(request, pk, display_id):
    token = get_object_or_404(DisplayToken, tournament_id=pk, pk=display_id)
    if service_call(request, services.revoke_display_token, request.user, token) is not None:
        messages.success(request, _("The link of %(label)s is revoked; that screen goes blank.") % {"label": token.label})
    return redirect("displays", pk=pk)


def _display(token: str) -> DisplayToken:
    return get_object_or_404(DisplayToken.objects.select_related("tournament"), token=token, revoked_at__isnull=True)


def lobby(request, token):
    display = _display(token)
    return render(request, "tournament/lobby.html", {"t": display.tournament, "display": display,
                                                     "snapshot": lobby_snapshot(display.tournament)})


def lobby_snapshot_json(request, token):
    return JsonResponse(lobby_snapshot(_display(token).tournament))


def healthz(request):
    """Liveness for the container health check: the database answers."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
    return HttpResponse("ok", content_type="text/plain")
