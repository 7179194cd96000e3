"""Screens of the tables: the floor's overview of every table's level in play, the floor's table
map, the dealer tablet of one table, house rules, seat cards and the public seat and draw pages.

The screens only read here (pages); their JSON reads are the API's (the map: seating_api.py, the dealer
tablet's state and the draws' line: screen_api.py, the player's seat: seating_api.py), at the addresses the pages hand
them. Every change they make goes through the JSON API (web/tables/api.py, seating_api.py)
with static/js/api.js; the one exception is the house rules page, a setup form that works without
JavaScript."""

from __future__ import annotations

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.selectors.clock import clock_snapshot
from core import roles
from flights.selectors import day2
from leagues.selectors.leagues import league_link
from tables.models import ChipRace, DealerLink, Draw, Table
from tables.rules import chip_counts, seating
from tables.selectors import color_ups, draw_check, screens, seat_cards
from tables.selectors import state as tables_selectors
from tournament.models import Entry, Tournament
from web import access
from web.access import page
from web.caching import public_head, room_search, room_seats, versioned
from web.public_addresses import public_url
from web.push_offer import push_offer
from web.tables.forms import HouseRulesForm
from web.tables.screen_api import tablet_state
from web.tables.seating_api import floor_map
from web.tables.waiting_board import has_list
from web.tournament.views import in_venue_time
from web.venues import printing


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
        {
            **in_play.get(table.number, {}),
            "table": table.number,
            "in_play": table.in_play,
            "accessible": table.accessible,
            "broken": table.broken_at is not None,
            "break_position": position.get(table.number),
            "sends_hand_signals": table.sends_hand_signals,
        }
        for table in Table.objects.filter(tournament=tournament).order_by("number")
    ]


def _tables_context(tournament: Tournament) -> dict:
    # The sequence number the page shows: its live script reloads when a later event changes the list.
    seq = Tournament.objects.filter(pk=tournament.pk).values_list("event_seq", flat=True).first() or 0
    overview = screens.tables_overview(tournament)
    order = tables_selectors.break_order(tournament)
    return {
        "t": tournament,
        "seq": seq,
        "clock": clock_snapshot(tournament),
        "tables": overview,
        "old_tables": [row["table"] for row in overview if row["on_old_level"]],
        "rows": _table_rows(tournament, overview, order),
        "break_order": " ".join(str(n) for n in order),
        "next_number": _next_number(tournament),
        "dealer_links": DealerLink.objects.filter(table__tournament=tournament, revoked_at__isnull=True)
        .select_related("table", "created_by")
        .order_by("table__number", "id"),
    }


@page("tables")
@in_venue_time
def tables_page(request, tournament: Tournament):
    return render(request, "tables/tables.html", _tables_context(tournament))


@page("dealer-choose")
@in_venue_time
def dealer_choose(request, tournament: Tournament):
    """The tablet chooses its table. A Dealer login is bound to the first table it opens (web/access.py)."""
    tables = Table.objects.filter(tournament=tournament, in_play=True).order_by("number")
    bound = request.session.get(access.DEALER_TABLE) if roles.table_bound(request.user) else None
    if bound is not None:
        tables = tables.filter(pk=bound)
    return render(request, "tables/dealer_choose.html", {"t": tournament, "tables": tables, "bound": bound is not None})


SUIT_SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}


def _race_card_pad() -> dict:
    """The keys of the tablet's pad for race cards dealt at the table: ranks and suits of the deck
    (tables.rules.seating), highest first, 10 written as on the cards."""
    names = {"s": _("spades"), "h": _("hearts"), "d": _("diamonds"), "c": _("clubs")}
    return {
        "race_ranks": [(r, "10" if r == "T" else r) for r in reversed(seating.RANKS)],
        "race_suits": [(s, SUIT_SYMBOLS[s], names[s], s in "hd") for s in reversed(seating.SUITS)],
    }


def _dealer_tablet(request, table: Table, *, state_url: str, socket_path: str, link_token: str = ""):
    at = [table.tournament_id, table.number]
    config = {
        "state": state_url,
        "socket": socket_path,
        "hand": reverse("api-table-hand", args=at),
        "handDone": reverse("api-table-hand-done", args=at),
        "race": reverse("api-table-race", args=at),
        "raceConfirm": reverse("api-table-race-confirm", args=at),
        "raceCards": reverse("api-table-race-cards", args=at),
        "counts": reverse("api-table-counts", args=at),
        "maxChips": chip_counts.MAX_CHIPS,
        "clockCall": reverse("api-table-clock-call", args=at),
        "clockCallEnd": reverse("api-table-clock-call-end", args=at),
        "bust": reverse("api-table-bust", args=at),
        "bounty": table.tournament.bounty_format != "none",  # a reported bust names who won the pot
        "bags": reverse("api-table-bags", args=at),
        "draws": reverse("draw-list", args=[table.tournament_id]),
    }  # what static/js/dealer.js reads and calls
    return render(
        request,
        "tables/dealer.html",
        {
            **_race_card_pad(),
            "t": table.tournament,
            "table": table,
            "state": tablet_state(table),
            "clock": tables_selectors.with_color_ups(table.tournament, clock_snapshot(table.tournament)),
            "dealer_config": config,
            "link_token": link_token,
        },
    )


@page("dealer")
@in_venue_time
def dealer_page(request, tournament: Tournament, number: int):
    table = _table(tournament.pk, number)
    access.bind_dealer(request, table)
    return _dealer_tablet(
        request,
        table,
        state_url=reverse("api-table-state", args=[tournament.pk, number]),
        socket_path=f"/ws/t/{tournament.pk}/tables/{number}/",
    )


@page("dealer-link")
def dealer_link_page(request, token: str):
    """The tablet of a table's dealer link: no login; the secret in the URL is the credential."""
    link = access.link_or_403(token)
    with timezone.override(link.table.tournament.time_zone):
        return _dealer_tablet(
            request,
            link.table,
            state_url=reverse("api-dealer-link-state", args=[token]),
            socket_path=f"/ws/dealer/{token}/",
            link_token=token,
        )


# --- the floor's table map (tablet) ------------------------------------------------------------


@page("floor-map")
@in_venue_time
def floor_map_page(request, tournament: Tournament):
    return render(
        request,
        "tables/map.html",
        {
            "t": tournament,
            "map": floor_map(tournament),
            "next_number": _next_number(tournament),
            "urls": _map_urls(tournament.pk),
            # A bounty event's bust names who won the pot; the seat dialog says the player's head (static/js/map/winners.js).
            "bounty_event": tournament.bounty_format != Tournament.BountyFormat.NONE,
        },
    )


def _map_urls(pk: int) -> dict:
    """What static/js/floor-map.js reads and calls: the map's JSON, the floor socket and the API operations
    (999999 stands for the entry, table or slip number the script puts in)."""
    n = 999999
    named = {
        "json": ("api-floor-map", [pk]),
        "card": ("seat-card", [pk, n]),
        "bust": ("api-entry-bust", [pk, n]),
        "undo": ("api-entry-undo-bust", [pk, n]),
        "eliminators": ("api-entry-eliminators", [pk, n]),
        "bustReports": ("api-bust-reports", [pk]),
        "bustReportConfirm": ("api-bust-report-confirm", [pk, n]),
        "bustReportReject": ("api-bust-report-reject", [pk, n]),
        "bounties": ("api-bounties", [pk]),
        "seat": ("api-entry-seat", [pk, n]),
        "button": ("api-table-button", [pk, n]),
        "positions": ("api-table-positions", [pk, n]),
        "handDone": ("api-table-hand-done", [pk, n]),
        "confirmMove": ("api-move-confirm", [pk, n]),
        "cancelMove": ("api-move-cancel", [pk, n]),
        "balance": ("api-moves-balance", [pk]),
        "handForHand": ("api-hand-for-hand", [pk]),
        "dealer": ("dealer", [pk, n]),
        "openTable": ("api-tables", [pk]),
        "drawStart": ("api-draw-start", [pk]),
        "seatWaiting": ("api-seat-waiting", [pk]),
        "counts": ("api-table-counts", [pk, n]),
        "count": ("api-entry-count", [pk, n]),
        "clockCall": ("api-table-clock-call", [pk, n]),
        "clockCallEnd": ("api-table-clock-call-end", [pk, n]),
        "bags": ("api-table-bags", [pk, n]),
        "bag": ("api-entry-bag", [pk, n]),
        "day": ("api-day", [pk]),
    }
    return {"socket": f"/ws/t/{pk}/floor/", **{key: reverse(name, args=args) for key, (name, args) in named.items()}}


def _whole(value) -> int | None:
    value = str(value or "").strip()
    return int(value) if value.isdigit() else None


# --- color-ups and chip races (the floor) -------------------------------------------------------


@page("color-up")
@in_venue_time
def color_up_page(request, tournament: Tournament):
    """The floor's color-up screen: the breaks' color-ups (the director confirms, with the software's
    suggestion), every table's race and the difference, chips found after the race (TDA 21C). Every
    change is a call of the JSON API; the page reads the API's status again on each floor event."""
    status = color_ups.color_up_status(tournament)
    after = tables_selectors.levels_before(tournament)  # a break is named "the break after level 4", never by its row
    for item in (*status["breaks"], status["suggestion"], status["color_up"]):
        if item:
            item["after_level"] = after.get(item["level"])
    return render(
        request,
        "tables/color_up.html",
        {
            "t": tournament,
            "status": status,
            "removed": tables_selectors.removed_denominations(tournament, tables_selectors.latest_color_up(tournament)),
        },
    )


@page("color-up-sheets")
@in_venue_time
def color_up_sheets(request, tournament: Tournament):
    """The result sheets of the latest color-up's races (one table with ?table=N), to print."""
    latest = tables_selectors.latest_color_up(tournament)
    races = (
        ChipRace.objects.none()
        if latest is None
        else ChipRace.objects.filter(color_up=latest)
        .exclude(status=ChipRace.Status.REDONE)
        .select_related("table", "draw")
        .order_by("table__number")
    )
    table = _whole(request.GET.get("table"))
    if table is not None:
        races = races.filter(table__number=table)
    return render(
        request,
        "tables/color_up_sheets.html",
        {
            "t": tournament,
            "color_up": latest,
            "after_level": None if latest is None else tables_selectors.levels_before(tournament).get(latest.level),
            "sheets": [{**color_ups.race_sheet(race), "recorded": race.recorded_at, "confirmed": race.confirmed_at} for race in races],
        },
    )


# --- house rules (the director) ---------------------------------------------------------------


@page("house-rules")
@in_venue_time
def house_rules_page(request, tournament: Tournament):
    """The form; saving goes through the API (PATCH /api/tournaments/<pk>/house-rules/), which refuses by field."""
    rules = tables_selectors.house_rules(tournament)
    return render(
        request,
        "tables/house_rules.html",
        {
            "t": tournament,
            "form": HouseRulesForm(instance=rules),
            "stored": rules.pk is not None,
            "places_paid": screens.places_paid(tournament),
        },
    )


# --- seat cards (print and PDF) ------------------------------------------------------------------


def _seat_card_rows(request, tournament: Tournament, entry_number: int | None = None) -> list[dict]:
    draw = _whole(request.GET.get("draw"))
    return seat_cards.seat_cards(
        tournament,
        entry_number=entry_number,
        draw=draw,
        url=lambda n: public_url(request, reverse("seat-page", args=[tournament.pk, n])),
        stacks=day2.day_stacks(tournament),
    )


def _cards_response(request, tournament: Tournament, rows: list[dict], name: str):
    if request.GET.get("format") == "pdf":
        pdf = seat_cards.seat_cards_pdf(tournament, rows, paper=request.GET.get("paper", "80mm"))
        response = HttpResponse(pdf, content_type="application/pdf")
        response["Content-Disposition"] = f'inline; filename="{name}.pdf"'
        return response
    try:  # the cards laid out for the house's paper, or ?paper=80|58|a4 for this print
        paper = printing.paper_of(request, tournament)
    except printing.BadPaper as problem:
        return printing.bad_paper(problem)
    query = request.GET.copy()
    query.pop("paper", None)
    return render(
        request,
        "tables/seat_cards.html",
        {
            "t": tournament,
            "cards": rows,
            "draw": request.GET.get("draw", ""),
            "query": query.urlencode(),
            "print_base": f"tournaments/{tournament.pk}/entries/",
            **printing.print_view(request, tournament, paper=paper, api="", who="api-seat-ticket-print:POST"),
        },
    )


@page("seat-cards")
@in_venue_time
def seat_cards_all(request, tournament: Tournament):
    rows = _seat_card_rows(request, tournament)
    return _cards_response(request, tournament, rows, f"seat-cards-{tournament.pk}")


@page("seat-card")
@in_venue_time
def seat_card(request, tournament: Tournament, number: int):
    rows = _seat_card_rows(request, tournament, entry_number=number)
    if not rows:
        raise Http404(_("Entry #%(number)s has no seat.") % {"number": number})
    return _cards_response(request, tournament, rows, f"seat-card-{tournament.pk}-{number}")


# --- public: the player's seat page and the draw verification ------------------------------------


def _public_tournament(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


@page("seat-search")
@versioned(seats=True)
def seat_search(request, pk: int):
    tournament = _public_tournament(pk)
    q = request.GET.get("q", "").strip()
    found = screens.find_entries(room_search(request, pk), q) if q else []
    if q and len(found) == 1 and q.lstrip("#").isdigit():
        return redirect("seat-page", pk=pk, number=found[0]["entry"])
    return render(
        request,
        "tables/seat_search.html",
        {
            "t": tournament,
            "q": q,
            "found": found,
            "counts_public": tables_selectors.house_rules(tournament).public_chip_counts,
            "league": league_link(pk),
            "waiting_list": has_list(tournament),
        },
    )


@page("seat-page")
@versioned(remember=False, seats=True)
def seat_page(request, pk: int, number: int):
    head = None if request.state_version is None else public_head(request, pk)
    if head is None:
        raise Http404(_("No such tournament."))
    seat = room_seats(request, pk).get(number)
    if seat is None:  # said in words: a player's page left open reads itself again and lands here once he is out of it
        reason = _("There is no entry #%(number)s.") % {"number": number}
        if Entry.objects.filter(tournament_id=pk, number=number, status=Entry.Status.VOIDED).exists():
            reason = _(
                "Entry #%(number)s no longer plays in this tournament: it was voided (an alternate who did not sit down in "
                "time loses his turn). Ask the desk."
            ) % {"number": number}
        return render(request, "tables/seat_gone.html", {"reason": reason, "pk": pk}, status=404)
    return render(
        request,
        "tables/seat_page.html",
        {
            "t": head,
            "seat": {**seat, "next_draw": head["next_draw"]},
            "seat_config": {
                "json": reverse("api-public-seat", args=[pk, seat["entry"]]),
                "socket": f"/ws/s/{pk}/?entry={seat['entry']}",
                "entry": seat["entry"],
                "currency": head["currency"],
                "version": request.answer_version,
                "flight": head["flight"],
                "time_zone": head.get("time_zone"),  # an alternate's time to sit down by, on the venue's clock
                "waiting_board": reverse("waiting-board", args=[pk]),
                # "Tell me on this phone" (docs/notifications.md); None: the server sends no notifications
                "push": push_offer("api-public-seat-push", "api-public-seat-push-stop", args=[pk, seat["entry"]]),
            },
        },
    )


@page("draw-list")
@versioned
def draw_list(request, pk: int):
    tournament = _public_tournament(pk)
    draws = Draw.objects.filter(tournament=tournament).order_by("-number")
    with timezone.override(tournament.time_zone):  # the venue's clock, not the server's
        return render(request, "tables/draws.html", {"t": tournament, "draws": draws})


@page("draw-detail")
@versioned
def draw_detail(request, pk: int, number: int):
    tournament = _public_tournament(pk)
    draw = get_object_or_404(Draw, tournament=tournament, number=number)
    check = draw_check.verify_draw(draw)
    after = None  # a race's break, as the floor names it: "the break after level 4"
    if draw.kind == Draw.Kind.RACE:
        after = tables_selectors.levels_before(tournament).get((check.get("inputs") or {}).get("color_up"))
    with timezone.override(tournament.time_zone):
        return render(request, "tables/draw.html", {"t": tournament, "draw": draw, "check": check, "after_level": after})
