"""Screens of the tables: the floor's overview of every table's level in play, opening a table,
and the dealer tablet of one table with its "Shuffle / new hand" button. Thin: parse, check
the role, call one service, render."""
from __future__ import annotations

import re
import time

from django.contrib import messages
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_POST

from clock.selectors import clock_snapshot
from core import roles
from core.errors import ServiceError
from tables import busts, draws, handforhand, hands, moves, read_models, seat_cards, seats, selectors
from tables import setup as table_setup
from tables.models import Draw, Table
from tournament.models import Entry, Tournament
from web.clock.views import wants_json
from web.tables.forms import HouseRulesForm
from web.tournament.views import in_venue_time, role_required

TABLES_VIEW = (roles.FLOOR,)  # and the director (has_role adds the director everywhere)


def _table(pk: int, number: int) -> Table:
    return get_object_or_404(Table.objects.select_related("tournament"), tournament_id=pk, number=number)


def _next_number(tournament: Tournament) -> int:
    numbers = set(Table.objects.filter(tournament=tournament).values_list("number", flat=True))
    return next(n for n in range(1, 1000) if n not in numbers) if len(numbers) < 999 else 999


def _table_rows(tournament: Tournament, overview: list[dict], order: list[int]) -> list[dict]:
    """Every table of the tournament for the list: those in play with their level (tables_overview)
    and break position, and those out of play (closed or broken), each with its accessible flag."""
    in_play = {row["table"]: row for row in overview}
    position = {number: i for i, number in enumerate(order, start=1)}
    return [
        {**in_play.get(table.number, {}), "table": table.number, "in_play": table.in_play, "accessible": table.accessible,
         "broken": table.broken_at is not None, "break_position": position.get(table.number),
         "sends_hand_signals": table.sends_hand_signals}
        for table in Table.objects.filter(tournament=tournament).order_by("number")
    ]


def _tables_context(tournament: Tournament, **extra) -> dict:
    # The sequence number the page shows: its live script reloads when a later event changes the list.
    seq = Tournament.objects.filter(pk=tournament.pk).values_list("event_seq", flat=True).first() or 0
    overview = read_models.tables_overview(tournament)
    order = selectors.break_order(tournament)
    return {
        "t": tournament, "seq": seq, "clock": clock_snapshot(tournament), "tables": overview,
        "rows": _table_rows(tournament, overview, order), "break_order": " ".join(str(n) for n in order),
        "next_number": _next_number(tournament), **extra,
    }


@role_required(TABLES_VIEW)
@in_venue_time
def tables_page(request, tournament: Tournament):
    return render(request, "tables/tables.html", _tables_context(tournament))


@require_POST
@role_required(roles.SETUP)
@in_venue_time
def table_open(request, tournament: Tournament):
    """Open a table. The shuffler token is shown on this answer only (it is stored hashed), so the
    page is rendered here rather than after a redirect."""
    try:
        number = int(request.POST.get("number", ""))
        seats = int(request.POST["seats"]) if request.POST.get("seats", "").strip() else None
    except ValueError:
        messages.error(request, _("Enter the table number (and the seats) as whole numbers."))
        return redirect("tables", pk=tournament.pk)
    signals = request.POST.get("sends_hand_signals") in ("on", "1", "true")
    accessible = request.POST.get("accessible") in ("on", "1", "true")
    try:
        table, token = table_setup.open_table(request.user, tournament, number, seats, signals, accessible=accessible)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("tables", pk=tournament.pk)
    response = render(request, "tables/tables.html", _tables_context(tournament, opened=table, token=token), status=201)
    response["Cache-Control"] = "no-store"
    return response


@require_POST
@role_required(roles.SETUP)
@in_venue_time
def tables_break_order(request, tournament: Tournament):
    """The director's break order, typed as table numbers separated by spaces or commas, first to
    break first. The words go to the service as typed: it turns them into numbers, checks them (every
    table in play once) and says what is wrong."""
    numbers = [n for n in re.split(r"[\s,;]+", request.POST.get("order", "")) if n]
    try:
        order = table_setup.set_break_order(request.user, tournament, numbers)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, _("Break order saved: %(order)s.") % {"order": ", ".join(str(n) for n in order)})
    return redirect("tables", pk=tournament.pk)


@require_POST
@role_required(roles.SETUP)
def table_in_play(request, pk: int, number: int):
    """Take a table out of play or put it back (`in_play` = 1 or 0); one with players is refused."""
    table = _table(pk, number)
    in_play = request.POST.get("in_play") in ("on", "1", "true")
    try:
        table = table_setup.set_table_in_play(request.user, table, in_play)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        done = _("Table %(number)s is in play.") if table.in_play else _("Table %(number)s is out of play.")
        messages.success(request, done % {"number": table.number})
    return redirect("tables", pk=pk)


@role_required(roles.DEALING)
@in_venue_time
def dealer_choose(request, tournament: Tournament):
    tables = Table.objects.filter(tournament=tournament, in_play=True).order_by("number")
    return render(request, "tables/dealer_choose.html", {"t": tournament, "tables": tables})


@role_required(roles.DEALING)
@in_venue_time
def dealer_page(request, tournament: Tournament, number: int):
    table = _table(tournament.pk, number)
    return render(request, "tables/dealer.html", {
        "t": tournament, "table": table, "state": read_models.table_state(table), "clock": clock_snapshot(tournament),
    })


@never_cache
@role_required(roles.DEALING)
def dealer_state(request, pk: int, number: int):
    """Polled by the dealer tablet (dealers have no floor socket). `?ping=1` answers only the server
    time, for the tablet's time sync."""
    if request.GET.get("ping"):
        get_object_or_404(Tournament, pk=pk)
        return JsonResponse({"server_time": time.time()})
    table = _table(pk, number)
    return JsonResponse({"server_time": time.time(), "table": read_models.table_state(table), "clock": clock_snapshot(table.tournament)})


def _hand_action(request, pk: int, number: int, service, done_message) -> JsonResponse:
    table = _table(pk, number)
    try:
        hand = service(request.user, table)
    except ServiceError as exc:
        if wants_json(request):
            return JsonResponse({"ok": False, "error": exc.message, "code": exc.code}, status=exc.status)
        messages.error(request, exc.message)
        return redirect("dealer", pk=pk, number=number)
    table.refresh_from_db()
    message = done_message(hand)
    if wants_json(request):
        return JsonResponse({"ok": True, "message": message, "server_time": time.time(), "table": read_models.table_state(table),
                             "clock": clock_snapshot(table.tournament)})
    messages.success(request, message)
    return redirect("dealer", pk=pk, number=number)


@require_POST
@role_required(roles.DEALING)
def hand_start(request, pk: int, number: int):
    return _hand_action(request, pk, number, hands.start_hand,
                        lambda hand: _("Hand %(hand)s started.") % {"hand": hand.number})


@require_POST
@role_required(roles.REPORTING)
def hand_done(request, pk: int, number: int):
    return _hand_action(request, pk, number, handforhand.hand_done,
                        lambda h: _("Hand done: this table waits for the next hand.") if h is not None
                        else _("Hand done."))


@require_POST
@role_required(roles.DEALING)
def hand_undo(request, pk: int, number: int):
    return _hand_action(request, pk, number, hands.undo_hand_start,
                        lambda hand: _("Hand %(hand)s is undone.") % {"hand": hand.number})


# --- the floor's table map (tablet) ------------------------------------------------------------

MAP_VIEW = (roles.FLOOR,)  # and the director
SEAT_CARDS = (roles.FLOOR, roles.CASHIER)  # and the director


@role_required(MAP_VIEW)
@in_venue_time
def floor_map_page(request, tournament: Tournament):
    return render(request, "tables/map.html", {"t": tournament, "map": _floor_map(tournament),
                                               "next_number": _next_number(tournament)})


def _floor_map(tournament: Tournament) -> dict:
    """The map's data with the balancing status: halted tables, buttons asked for, pending slips."""
    return {**read_models.floor_map(tournament), "moves": read_models.balancing_status(tournament),
            "h4h": read_models.hand_for_hand_status(tournament)}


@never_cache
@role_required(MAP_VIEW)
def floor_map_json(request, pk: int):
    return JsonResponse(_floor_map(get_object_or_404(Tournament, pk=pk)))


def _entry(tournament_id: int, number) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player", "tournament"), tournament_id=tournament_id,
                             number=number)


def _whole(value) -> int | None:
    value = str(value or "").strip()
    return int(value) if value.isdigit() else None


def _map_answer(request, pk: int, fn, done, *args, **kwargs):
    """Call one service for the map: JSON for the page's fetch, a message and a redirect otherwise."""
    try:
        result = fn(request.user, *args, **kwargs)
    except ServiceError as exc:
        if wants_json(request):
            return JsonResponse({"ok": False, "error": exc.message, "code": exc.code}, status=exc.status)
        messages.error(request, exc.message)
        return redirect("floor-map", pk=pk)
    message = done(result)
    if wants_json(request):
        return JsonResponse({"ok": True, "message": message})
    messages.success(request, message)
    return redirect("floor-map", pk=pk)


def _bad_input(request, pk: int, message: str):
    if wants_json(request):
        return JsonResponse({"ok": False, "error": message, "code": "invalid"}, status=400)
    messages.error(request, message)
    return redirect("floor-map", pk=pk)


@require_POST
@role_required(roles.BUST)
def map_bust(request, pk: int, number: int):
    return _map_answer(request, pk, busts.bust_entry, _bust_done, _entry(pk, number),
                       stack=request.POST.get("stack", "").strip() or None)


def _bust_done(e: Entry) -> str:
    if e.finish_place_low:
        return (_("Entry #%(number)s (%(name)s) is out, tied for places %(place)s to %(low)s.")
                % {"number": e.number, "name": e.player.display_name, "place": e.finish_place, "low": e.finish_place_low})
    return (_("Entry #%(number)s (%(name)s) is out in place %(place)s.")
            % {"number": e.number, "name": e.player.display_name, "place": e.finish_place})


@require_POST
@role_required(roles.BUST)
def map_undo_bust(request, pk: int, number: int):
    return _map_answer(request, pk, busts.undo_bust,
                       lambda e: _("Entry #%(number)s plays again.") % {"number": e.number}, _entry(pk, number))


@require_POST
@role_required(roles.SEATING)
def map_correct(request, pk: int, number: int):
    table, seat = _whole(request.POST.get("table")), _whole(request.POST.get("seat"))
    if table is None or seat is None:
        return _bad_input(request, pk, _("Choose the table and the seat."))
    return _map_answer(request, pk, seats.correct_seat,
                       lambda s: _("Entry #%(number)s now sits at table %(table)s seat %(seat)s.")
                       % {"number": number, "table": s.table.number, "seat": s.seat},
                       _entry(pk, number), table, seat)


@require_POST
@role_required(roles.SEATING)
def map_button(request, pk: int, number: int):
    seat = request.POST.get("seat", "").strip() or None
    return _map_answer(request, pk, draws.draw_button,
                       lambda r: _("Table %(table)s: the button is at seat %(seat)s.") % {"table": r["table"], "seat": r["button"]},
                       _table(pk, number), seat=seat)


@require_POST
@role_required(roles.SETUP)
def map_open_table(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    number, seats = _whole(request.POST.get("number")), _whole(request.POST.get("seats"))
    if number is None or (request.POST.get("seats", "").strip() and seats is None):
        return _bad_input(request, pk, _("Enter the table number (and the seats) as whole numbers."))
    checked = lambda name: request.POST.get(name) in ("on", "1", "true")  # noqa: E731
    return _map_answer(request, pk, table_setup.open_table,
                       lambda r: _("Table %(number)s is open.") % {"number": r[0].number},
                       tournament, number, seats, checked("sends_hand_signals"), checked("accessible"))


@require_POST
@role_required(roles.SETUP)
def map_draw_start(request, pk: int):
    return _map_answer(request, pk, draws.draw_start,
                       lambda d: _("Draw %(draw)s is done: every entry has a seat.") % {"draw": d.number},
                       get_object_or_404(Tournament, pk=pk))


@require_POST
@role_required(roles.SEATING)
def map_seat_waiting(request, pk: int):
    return _map_answer(request, pk, draws.seat_waiting_entries,
                       lambda d: _("Draw %(draw)s seated the waiting entries.") % {"draw": d.number},
                       get_object_or_404(Tournament, pk=pk))


# --- move slips, balancing and the button the rules ask for ---------------------------------------


def _moves_done(created) -> str:
    if not created:
        return _("The tables are balanced: no move is needed.")
    return _("Move slips written: %(moves)s.") % {"moves": ", ".join(f"#{m.number}" for m in created)}


@require_POST
@role_required(roles.MOVING)
def map_move_confirm(request, pk: int, number: int):
    return _map_answer(request, pk, moves.confirm_move,
                       lambda m: _("Move slip #%(move)s: entry #%(entry)s sits at table %(table)s seat %(seat)s.")
                       % {"move": m.number, "entry": m.entry.number, "table": m.to_table.number, "seat": m.to_seat},
                       get_object_or_404(Tournament, pk=pk), number)


@require_POST
@role_required(roles.MOVING)
def map_move_cancel(request, pk: int, number: int):
    return _map_answer(request, pk, moves.cancel_move,
                       lambda m: _("Move slip #%(move)s is cancelled.") % {"move": m.number},
                       get_object_or_404(Tournament, pk=pk), number, reason=request.POST.get("reason", "").strip())


@require_POST
@role_required(roles.MOVING)
def map_balance_now(request, pk: int):
    return _map_answer(request, pk, moves.balance_now, _moves_done, get_object_or_404(Tournament, pk=pk))


@require_POST
@role_required(roles.SEATING)
def map_positions(request, pk: int, number: int):
    return _map_answer(request, pk, seats.enter_button,
                       lambda r: _("Table %(table)s: the button is at seat %(seat)s.")
                       % {"table": r["table"], "seat": r["positions"]["button"]},
                       _table(pk, number), request.POST.get("seat", "").strip())


@require_POST
@role_required(roles.REPORTING)
def map_hand_done(request, pk: int, number: int):
    return _map_answer(request, pk, handforhand.hand_done,
                       lambda h: _("Table %(table)s: hand done.") % {"table": number}, _table(pk, number))


@require_POST
@role_required(roles.SETUP)
def map_hand_for_hand(request, pk: int):
    tournament = get_object_or_404(Tournament, pk=pk)
    if request.POST.get("on") in ("1", "on", "true"):
        return _map_answer(request, pk, handforhand.start_hand_for_hand, lambda h: _("Hand-for-hand is on."), tournament)
    return _map_answer(request, pk, handforhand.stop_hand_for_hand, lambda h: _("Hand-for-hand is over."), tournament)


# --- house rules (the director) ---------------------------------------------------------------


@role_required(roles.SETUP)
@in_venue_time
def house_rules_page(request, tournament: Tournament):
    rules = selectors.house_rules(tournament)
    form = HouseRulesForm(request.POST or None, instance=rules)
    error = None
    if request.method == "POST" and form.is_valid():
        try:
            moves.set_house_rules(request.user, tournament, form.data_for_service())
        except ServiceError as exc:
            error = exc
        else:
            messages.success(request, _("House rules saved."))
            return redirect("house-rules", pk=tournament.pk)
    return render(request, "tables/house_rules.html", {"t": tournament, "form": form, "error": error,
                                                       "stored": rules.pk is not None})


# --- seat cards (print and PDF) ------------------------------------------------------------------


def _seat_card_rows(request, tournament: Tournament, entry_number: int | None = None) -> list[dict]:
    draw = _whole(request.GET.get("draw"))
    return seat_cards.seat_cards(tournament, entry_number=entry_number, draw=draw,
                            url=lambda n: request.build_absolute_uri(reverse("seat-page", args=[tournament.pk, n])))


def _cards_response(request, tournament: Tournament, rows: list[dict], name: str):
    if request.GET.get("format") == "pdf":
        pdf = seat_cards.seat_cards_pdf(tournament, rows, paper=request.GET.get("paper", "80mm"))
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
        return response
    return render(request, "tables/seat_cards.html", {"t": tournament, "cards": rows,
                                                      "draw": request.GET.get("draw", ""), "query": request.GET.urlencode()})


@role_required(SEAT_CARDS)
@in_venue_time
def seat_cards_all(request, tournament: Tournament):
    rows = _seat_card_rows(request, tournament)
    return _cards_response(request, tournament, rows, f"seat-cards-{tournament.pk}")


@role_required(SEAT_CARDS)
@in_venue_time
def seat_card(request, tournament: Tournament, number: int):
    rows = _seat_card_rows(request, tournament, entry_number=number)
    if not rows:
        raise Http404(_("Entry #%(number)s has no seat.") % {"number": number})
    return _cards_response(request, tournament, rows, f"seat-card-{tournament.pk}-{number}")


# --- public: the player's seat page and the draw verification ------------------------------------


def _public_tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def seat_search(request, pk: int):
    tournament = _public_tournament(pk)
    q = request.GET.get("q", "").strip()
    found = read_models.find_entries(tournament, q) if q else []
    if q and len(found) == 1 and q.lstrip("#").isdigit():
        return redirect("seat-page", pk=pk, number=found[0]["entry"])
    return render(request, "tables/seat_search.html", {"t": tournament, "q": q, "found": found})


def seat_page(request, pk: int, number: int):
    tournament = _public_tournament(pk)
    seat = read_models.public_seat(tournament, number)
    if seat is None:
        raise Http404(_("There is no entry #%(number)s.") % {"number": number})
    return render(request, "tables/seat_page.html", {"t": tournament, "seat": seat,
                                                     "next_draw": selectors.pending_commitment(tournament)})


@never_cache
def seat_json(request, pk: int, number: int):
    seat = read_models.public_seat(_public_tournament(pk), number)
    if seat is None:
        return JsonResponse({"error": _("There is no entry #%(number)s.") % {"number": number}}, status=404)
    return JsonResponse(seat)


def draw_list(request, pk: int):
    tournament = _public_tournament(pk)
    draws = Draw.objects.filter(tournament=tournament).order_by("-number")
    return render(request, "tables/draws.html", {"t": tournament, "draws": draws})


def draw_detail(request, pk: int, number: int):
    tournament = _public_tournament(pk)
    draw = get_object_or_404(Draw, tournament=tournament, number=number)
    return render(request, "tables/draw.html", {"t": tournament, "draw": draw, "check": read_models.verify_draw(draw)})


@never_cache
def draws_json(request, pk: int):
    """The next commitment and the last revealed draw (public: the lobby TV shows them)."""
    tournament = _public_tournament(pk)
    last = Draw.objects.filter(tournament=tournament, drawn_at__isnull=False).order_by("-number").first()
    return JsonResponse({
        "next_draw": selectors.pending_commitment(tournament),
        "last_draw": None if last is None else {"draw": last.number, "kind": last.kind, "commitment": last.commitment,
                                                "seed": last.seed},
    })
