"""Server-rendered screens. Thin: check the role, read, render.

Every state change of these screens goes through the documented JSON API (web/tournament/api.py,
web/clock/api.py, web/tables/...) with the one client static/js/api.js; static/js/api-forms.js
wires a page's forms to it. Only what must work without JavaScript posts here: the language preference
(and, elsewhere, login, logout and the setup forms)."""

from __future__ import annotations

from datetime import datetime
from functools import wraps
from urllib.parse import urlencode

import redis
from django.conf import settings
from django.core.paginator import Paginator
from django.db import DatabaseError, connection
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from clock.selectors.clock import clock_statuses
from core import access, roles
from flights.selectors.events import bag_hint
from live.snapshots import lobby_answer, lobby_names
from payouts.selectors import bounties as bounty_selectors
from payouts.selectors.bounty_screens import seat_bounties
from payouts.selectors.satellites import tickets_into, tickets_used_into
from tables.models import Penalty, SeatRequest
from tables.selectors.state import live_seats, seat_of
from tournament.models import DisplayToken, Entry, Player, Purchase, Reservation, StaffProfile, Tournament
from tournament.selectors import receipts
from tournament.selectors import waiting_list as waiting_selectors
from tournament.selectors.stats import tournament_stats
from web.access import page, role_required  # noqa: F401  (role_required: for pages outside this package)
from web.event_words import event_groups, event_labels
from web.public_addresses import public_url, qr_svg, shown_url
from web.venues import printing

from . import event_log
from .forms import DisplayForm, IdCheckForm, LevelForm, NewPlayerForm, PreferencesForm, VoidForm


def in_venue_time(view):
    """Show times in the tournament's time zone."""

    @wraps(view)
    def wrapper(request, pk, *args, **kwargs):
        tournament = get_object_or_404(Tournament, pk=pk)
        with timezone.override(tournament.time_zone):
            return view(request, tournament, *args, **kwargs)

    return wrapper


@page("home")
def home(request):
    mine = roles.worked(request.user, Tournament.objects.all())  # staff of some tournaments see theirs
    tournaments = list(mine.exclude(status=Tournament.Status.FINISHED).order_by("start_at"))
    clocks = clock_statuses([t.pk for t in tournaments])
    for t in tournaments:  # each start in its own venue's zone (the template's |timezone), the clock's real state
        t.clock_status = clocks[t.pk]
    return render(
        request,
        "tournament/home.html",
        {"tournaments": tournaments, "finished": mine.filter(status=Tournament.Status.FINISHED).order_by("-start_at", "-pk")[:20]},
    )  # the last twenty played


@page("preferences")
def preferences(request):
    """The form; saving goes through the API (PATCH /api/auth/preferences/)."""
    profile = StaffProfile.objects.filter(user=request.user).first()
    return render(
        request, "tournament/preferences.html", {"form": PreferencesForm(initial={"language": profile.language if profile else ""})}
    )


@page("tournament-detail")
@in_venue_time
def tournament_detail(request, tournament):
    # Names only for those who read entries (the desk, the floor): a dealer sees the figures.
    show_entries = access.may(request.user, "api-entries:GET", tournament.pk)
    recent = tournament.entries.select_related("player").order_by("-number")[:15] if show_entries else []
    return render(
        request,
        "tournament/detail.html",
        {
            "t": tournament,
            "stats": tournament_stats(tournament),
            "recent": recent,
            "show_entries": show_entries,
            "clock_status": clock_statuses([tournament.pk])[tournament.pk],
            "floor_socket": access.may(request.user, "floor-socket", tournament.pk),
            "levels": _numbered_levels(tournament),
            "level_form": LevelForm(initial={"level": tournament.current_level}),
        },
    )


def _numbered_levels(tournament: Tournament) -> list[tuple]:
    rows, number = [], 0
    for level in tournament.structure.levels.order_by("position"):
        if level.kind == "level":
            number += 1
        rows.append((level, number if level.kind == "level" else None))
    return rows


@require_safe
@page("player-create")
@in_venue_time
def player_create(request, tournament):
    """A new player and the ID check on one form: the page registers both with one POST
    /api/tournaments/<id>/entries/ (`new_player`), so a refused registration keeps no player record."""
    stats, reservation = tournament_stats(tournament), _reservation_chosen(request, tournament)
    return render(
        request,
        "tournament/player_form.html",
        {
            "t": tournament,
            "form": NewPlayerForm(),
            "id_form": IdCheckForm(),
            "stats": stats,
            "reservation": reservation,
            "claim": _claim_of(reservation, stats),
        },
    )


@require_safe
@page("register")
@in_venue_time
def register(request, tournament):
    """Find the player (GET ?q=), choose one (?player=); the page registers with POST /api/tournaments/<id>/entries/."""
    q = request.GET.get("q", "").strip()
    found = []
    if q:
        found = list(Player.objects.named(q)[:30])  # folded: "novak" finds Novák
    chosen = None
    player_id = request.GET.get("player")
    if player_id and str(player_id).isdigit():
        chosen = Player.objects.filter(pk=int(player_id)).first()
    history = []
    if chosen is not None:
        history = list(Entry.objects.filter(tournament=tournament, player=chosen).order_by("number"))
    live_entry = next((e for e in history if e.status == Entry.Status.ACTIVE), None)
    held_bag = bag_hint(tournament, chosen) if chosen is not None else None  # a bag from another flight of the event
    tickets = tickets_into(tournament)  # satellites' seats: registered with the ID checked, no payment
    ticket_id = request.GET.get("ticket", "")
    ticket = next((tk for tk in tickets if str(tk.pk) == ticket_id), None)
    # The used ones stay listed below them, each with the entry it registered: the desk sees what happened.
    used_tickets = tickets_used_into(tournament)
    reservation = _reservation_chosen(request, tournament)
    stats = tournament_stats(tournament)
    return render(
        request,
        "tournament/register.html",
        {
            "t": tournament,
            "q": q,
            "found": found,
            "chosen": chosen,
            "form": IdCheckForm(),
            "history": history,
            "live_entry": live_entry,
            "held_bag": held_bag,
            "stats": stats,
            "claim": _claim_of(reservation, stats),
            "tickets": tickets,
            "ticket": ticket,
            "used_tickets": used_tickets,
            "reservation": reservation,
        },
    )


def _claim_of(reservation, stats) -> str | None:
    """What claiming the chosen reservation does: "entry" (it held a place, or places are free), "waiting" (made sold out
    and still sold out: the waiting list), None (none chosen, or not held any more)."""
    if reservation is None or reservation.state != Reservation.State.HELD:
        return None
    return "waiting" if not reservation.holds_place and stats["sold_out"] else "entry"


def _reservation_chosen(request, tournament):
    """?reservation=<number>: the place a player reserved from his phone, which the registration below claims (None when
    not given, not one, or not held any more: the page then says so and registers as usual)."""
    number = request.GET.get("reservation", "")
    if not number.isdigit() or len(number) > 9:
        return None
    return Reservation.objects.filter(tournament=tournament, number=int(number)).first()


@page("waiting-list")
@in_venue_time
def waiting_list(request, tournament):
    """A sold-out tournament's waiting list in its order, as the desk and the floor work it: where the tournament stands,
    each place's state, and for an alternate offered a seat his entry, table, seat and the time he must sit down by.
    The buttons go through /api/tournaments/<id>/waiting-list/...; the page's script reads the list again from the API
    when the live stream tells of a change."""
    t = tournament
    places = waiting_selectors.listing(t)
    offered = [p["entry"] for p in places if p["entry"] is not None]
    seats = {
        number: (table, seat)
        for number, table, seat in live_seats(t).filter(entry__number__in=offered).values_list("entry__number", "table__number", "seat")
    }
    for place in places:
        place["table"], place["seat"] = seats.get(place["entry"], (None, None))
        offered_at = datetime.fromisoformat(place["offered_at"]) if place["offered_at"] else None
        place["sit_by_at"] = waiting_selectors.sit_by(offered_at, t.alternate_minutes) if offered_at else None
    floor_socket = access.may(request.user, "floor-socket", t.pk)
    return render(
        request,
        "tournament/waiting_list.html",
        {
            "t": t,
            "capacity": waiting_selectors.capacity(t),
            "places": places,
            "can_offer": access.may(request.user, "api-waiting-offer:POST", t.pk),
            "can_pass": access.may(request.user, "api-waiting-pass:POST", t.pk),
            # The floor hears every event on its socket; the cashier the public stream (types and figures, no names).
            "socket": f"/ws/t/{t.pk}/floor/" if floor_socket else f"/ws/s/{t.pk}/",
        },
    )


@page("entries")
@in_venue_time
def entry_list(request, tournament):
    status = request.GET.get("status", "")
    entries = tournament.entries.select_related("player").order_by("-number")
    if status in Entry.Status.values:
        entries = entries.filter(status=status)
    return render(
        request, "tournament/entries.html", {"t": tournament, "entries": entries[:500], "status": status, "statuses": Entry.Status.choices}
    )


@page("entry-detail")
@in_venue_time
def entry_detail(request, tournament, number):
    entry = get_object_or_404(Entry.objects.select_related("player", "id_check__checked_by"), tournament=tournament, number=number)
    return render(
        request,
        "tournament/entry_detail.html",
        {
            "t": tournament,
            "entry": entry,
            "purchases": entry.purchases.order_by("number"),
            "void_form": VoidForm(currency=tournament.currency),
            "seat": seat_of(entry),
            "can_bust": access.may(request.user, "api-entry-bust:POST", tournament.pk),
            "seat_request": SeatRequest.objects.filter(tournament=tournament, player=entry.player, cancelled_at__isnull=True).first(),
            "disqualified": Penalty.objects.filter(entry=entry, kind=Penalty.Kind.DISQUALIFIED, cancelled_at__isnull=True).first(),
            "bounty": entry_bounties(request, tournament, entry),
        },
    )


def entry_bounties(request, t: Tournament, entry: Entry) -> dict | None:
    """A bounty event's figures on an entry's page (None outside one): his head now, the bounties won and his
    knockouts as his seat page shows them (payouts/selectors/bounty_screens.seat_bounties), the awards he won one by
    one with their receipts and who took his head (bounties.record_of), and whether the cashier may pay him now
    (bounties.bounty_due: the cage's own refusals)."""
    record = bounty_selectors.record_of(t, entry)
    if record is None:
        return None
    due = bounty_selectors.bounty_due(t, entry)
    return {
        **record,
        "own": seat_bounties(t, {entry.number})[entry.number],
        "mystery": t.bounty_format == Tournament.BountyFormat.MYSTERY,
        "progressive": t.bounty_format == Tournament.BountyFormat.PROGRESSIVE,
        "due": due,
        "later": due.refusal is not None and due.refusal.code == "collected_later",
        "may_pay": due.refusal is None and access.may(request.user, "api-entry-bounty-payout:POST", t.pk),
    }


def _purchase(tournament_id: int, number: int) -> Purchase:
    return get_object_or_404(
        Purchase.objects.select_related("entry__player", "created_by", "voided_by", "tournament"),
        tournament_id=tournament_id,
        number=number,
    )


@page("receipt")
@in_venue_time
def receipt(request, tournament, number):
    purchase = _purchase(tournament.pk, number)
    try:
        paper = printing.paper_of(request, tournament)
    except printing.BadPaper as problem:
        return printing.bad_paper(problem)
    api = f"tournaments/{tournament.pk}/receipts/{number}/print/"
    return render(
        request,
        "tournament/receipt.html",
        {
            "t": tournament,
            "p": purchase,
            "lines": receipts.receipt_lines(purchase),
            **printing.print_view(request, tournament, paper=paper, api=api, who="api-receipt-print:POST"),
        },
    )


@page("receipt-pdf")
def receipt_pdf(request, pk, number):
    purchase = _purchase(pk, number)
    with timezone.override(purchase.tournament.time_zone):
        pdf = receipts.receipt_pdf(purchase, paper=request.GET.get("paper", "80mm"))
    response = HttpResponse(pdf, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="receipt-{purchase.tournament_id}-{purchase.number}.pdf"'
    return response


@page("events")
@in_venue_time
def events(request, tournament):
    """The log in words, newest first, filtered by table, player and kind (GET), 100 a page. With ?after=<seq>
    only the lines after that event (the live page fetches them when the floor socket tells of one)."""
    filters = event_log.Filters.of(request.GET)
    found = event_log.filtered(tournament, filters)
    after = request.GET.get("after", "")
    if after.isdigit():
        newer = found.filter(seq__gt=int(after))[:200]
        return render(request, "tournament/_event_lines.html", {"lines": event_log.lines(tournament, newer)})
    page_obj = Paginator(found, 100).get_page(request.GET.get("page"))
    labels = event_labels()
    return render(
        request,
        "tournament/events.html",
        {
            "t": tournament,
            "page_obj": page_obj,
            "lines": event_log.lines(tournament, page_obj.object_list),
            "filters": filters,
            "groups": event_groups(),
            "labels": sorted(labels.items(), key=lambda kv: kv[1]),
            "query": urlencode(
                {k: v for k, v in (("table", filters.table), ("player", filters.player), ("kind", filters.kind)) if v not in (None, "")}
            ),
        },
    )


@require_safe
@page("displays")
@in_venue_time
def displays(request, tournament):
    """The links; the page creates and revokes them through /api/tournaments/<id>/displays/."""
    tokens = tournament.display_tokens.order_by("-created_at")
    return render(
        request,
        "tournament/displays.html",
        {"t": tournament, "form": DisplayForm(), "tokens": tokens, "links_api": f"tournaments/{tournament.pk}/displays/"},
    )


def _display(token: str) -> DisplayToken:
    return get_object_or_404(DisplayToken.objects.select_related("tournament").for_link(token))


@page("lobby")
def lobby(request, token):
    display = _display(token)
    display.token = token  # the page's socket opens with the link's own secret
    seat_finder = public_url(request, reverse("seat-search", args=[display.tournament.pk]))
    return render(
        request,
        "tournament/lobby.html",
        {
            "t": display.tournament,
            "display": display,
            "snapshot": lobby_names(display.tournament, lobby_answer(display.tournament)),
            "seat_finder": shown_url(seat_finder),
            "seat_finder_qr": qr_svg(seat_finder),
            "lobby_config": {
                "draws": reverse("api-public-draws", args=[display.tournament.pk]),
                # the draws' public check, written as the seat finder's address is (PUBLIC_BASE_URL)
                "draw_list": shown_url(public_url(request, reverse("draw-list", args=[display.tournament.pk]))),
                "snapshot": reverse("api-lobby-snapshot", args=[token]),
                "currency": display.tournament.currency,
                "socket": f"/ws/display/{token}/",
            },
        },
    )


def database_answers() -> bool:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        return True
    except DatabaseError:
        return False


def redis_answers() -> bool | None:
    """None when no Redis is configured (the embedded defaults)."""
    if not settings.REDIS_URL:
        return None
    try:
        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=1, socket_timeout=1)
        try:
            return bool(client.ping())
        finally:
            client.close()
    except redis.RedisError:
        return False


@never_cache
@page("healthz")
def healthz(request):
    """Health for the container check and the room's monitoring: 200 "ok" when the database answers
    and, where one is configured, Redis; otherwise 503 naming what is down."""
    down = [name for name, ok in (("database", database_answers()), ("redis", redis_answers())) if ok is False]
    if down:
        return HttpResponse("down: " + ", ".join(down), content_type="text/plain", status=503)
    return HttpResponse("ok", content_type="text/plain")
