"""Screens of seating: the floor's table map (roles, bust, correct, refusals), seat cards (HTML and
PDF), the player's public seat page, the public draw verification, and the director's tables page
(break order, tables in and out of play, accessible tables)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.test import Client

from tables.models import Draw, Seat, Table
from tables.selectors import screens, state
from tables.services import draws
from tables.services import setup as table_setup
from tests.helpers import client_for as api_client
from tests.helpers import live_seat, logged_in, open_tables, register
from tests.helpers import url as api_url
from tournament.models import AuditEvent, Entry

# A screen's words are in its script (gettext, from Django's JavaScript catalogue), not in its page.
STATIC_JS = Path(__file__).resolve().parents[2] / "static" / "js"


@pytest.fixture
def drawn(director, cashier, tournament):
    for n in (1, 2):
        table_setup.open_table(tournament, actor=director, number=n, seats=9)
    entries = register(cashier, tournament, 12)
    draw = draws.draw_start(tournament, actor=director)
    return draw, entries


@pytest.mark.parametrize("who, expected", [("director", 200), ("floor", 200), ("cashier", 403), ("dealer", 403)])
def test_the_map_is_for_the_floor_and_the_director(request, drawn, tournament, who, expected):
    c = logged_in(request.getfixturevalue(who))
    assert c.get(f"/t/{tournament.pk}/map/").status_code == expected
    assert c.get(f"/api/tournaments/{tournament.pk}/map/").status_code == expected


def test_the_map_sends_an_anonymous_visitor_to_log_in(drawn, tournament):
    response = Client().get(f"/t/{tournament.pk}/map/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    refused = api_client().post(api_url(tournament, "entries/1/bust/"), {}, format="json")
    assert refused.status_code == 401 and refused.json()["error"] == "not_authenticated"
    assert Entry.objects.get(tournament=tournament, number=1).status == Entry.Status.ACTIVE


def test_map_json_lists_every_seat_and_the_next_commitment(drawn, floor, tournament):
    data = logged_in(floor).get(f"/api/tournaments/{tournament.pk}/map/").json()
    assert data["players_seated"] == 12 and data["start_drawn"] is True
    pending = Draw.objects.get(tournament=tournament, drawn_at__isnull=True)
    assert data["next_draw"] == {"draw": pending.number, "commitment": pending.commitment}
    page = logged_in(floor).get(f"/t/{tournament.pk}/map/").content.decode()
    assert pending.commitment in page and pending.seed not in page


@pytest.mark.parametrize("who, expected", [("director", 200), ("floor", 200), ("cashier", 200), ("dealer", 403)])
def test_seat_cards_are_for_staff_but_not_dealers(request, drawn, tournament, who, expected):
    c = logged_in(request.getfixturevalue(who))
    assert c.get(f"/t/{tournament.pk}/seat-cards/").status_code == expected
    assert c.get(f"/t/{tournament.pk}/seat-cards/1/").status_code == expected


# --- the map's presses: the documented JSON API, one door per action -----------------------------
# The map (static/js/floor-map.js) posts to these endpoints with static/js/api.js and builds its
# message from the answer with the JavaScript catalogue's messages.


def test_the_map_presses_go_to_the_api_and_carry_their_message_templates(drawn, director, tournament):
    page = logged_in(director).get(f"/t/{tournament.pk}/map/").content.decode()
    api = f"/api/tournaments/{tournament.pk}/"
    for rest in (
        "entries/999999/bust/",
        "entries/999999/undo-bust/",
        "entries/999999/seat/",
        "tables/999999/button/",
        "tables/999999/positions/",
        "tables/999999/hand-done/",
        "moves/999999/confirm/",
        "moves/999999/cancel/",
        "moves/balance/",
        "hand-for-hand/",
        "tables/",
        "draw/",
        "seating/waiting/",
    ):
        assert f'"{api}{rest}"' in page, rest
    assert f"/t/{tournament.pk}/map/entries/" not in page and f'action="/t/{tournament.pk}/' not in page
    script = (STATIC_JS / "map" / "words.js").read_text()
    assert 'gettext("Entry #{number} ({name}) is out in place {place}.")' in script
    assert 'gettext("Move slip #{move}: entry #{entry} sits at table {table} seat {seat}.")' in script
    assert 'gettext("The tables are balanced: no move is needed.")' in script
    assert 'id="notice" role="status" aria-live="polite" data-api-say' in page
    # The templates are the JavaScript catalogue's messages: a Czech floor gets them in Czech.
    page = logged_in(director).get(f"/t/{tournament.pk}/map/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    catalogue = logged_in(director).get("/jsi18n/cs/", HTTP_ACCEPT_LANGUAGE="cs").content.decode()
    assert 'src="/jsi18n/cs/"' in page and json.dumps("Vstup #{number} ({name}) vypadl na {place}. místě.") in catalogue


def test_bust_from_the_map_and_undo(drawn, floor, tournament):
    _draw, entries = drawn
    c = api_client(floor)
    answer = c.post(api_url(tournament, f"entries/{entries[0].number}/bust/"), {"stack": None}, format="json")
    assert answer.status_code == 200
    # What the map's message needs: "Entry #n (name) is out in place 12."
    body = answer.json()
    assert (body["number"], body["player"]["display_name"], body["finish_place"], body["finish_place_low"]) == (
        entries[0].number,
        entries[0].player.display_name,
        12,
        None,
    )
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.Status.BUSTED and not Seat.objects.filter(entry=entries[0], ended_at__isnull=True).exists()
    assert events_of(tournament, "entry.busted")[-1].actor == floor
    # A second tablet busting the same player is refused in the one error shape; nothing changes.
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    again = c.post(api_url(tournament, f"entries/{entries[0].number}/bust/"), {}, format="json")
    assert again.status_code == 409 and set(again.json()) >= {"error", "detail", "problems"} and again.json()["detail"]
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq
    undone = c.post(api_url(tournament, f"entries/{entries[0].number}/undo-bust/"), {}, format="json")
    assert undone.status_code == 200 and undone.json()["number"] == entries[0].number
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.Status.ACTIVE and live_seat(entries[0])


def test_correct_a_seat_from_the_map(drawn, floor, tournament):
    _draw, entries = drawn
    data = screens.floor_map(tournament)
    target = next((t["table"], s["seat"]) for t in data["tables"] for s in t["seat_list"] if s["entry"] is None and t["in_play"])
    answer = api_client(floor).post(
        api_url(tournament, f"entries/{entries[3].number}/seat/"), {"table": target[0], "seat": target[1]}, format="json"
    )
    assert answer.status_code == 200
    assert answer.json() == {"entry": entries[3].number, "table": target[0], "seat": target[1]}
    seat = live_seat(entries[3])
    assert (seat.table.number, seat.seat) == target


def test_a_refused_correction_shows_the_message_and_changes_nothing(drawn, floor, tournament):
    _draw, entries = drawn
    other = live_seat(entries[1])
    before = live_seat(entries[0])
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    refused = api_client(floor).post(
        api_url(tournament, f"entries/{entries[0].number}/seat/"), {"table": other.table.number, "seat": other.seat}, format="json"
    )
    assert refused.status_code == 409 and "is not free" in refused.json()["detail"]
    czech = api_client(floor).post(
        api_url(tournament, f"entries/{entries[0].number}/seat/"),
        {"table": other.table.number, "seat": other.seat},
        format="json",
        HTTP_ACCEPT_LANGUAGE="cs",
    )
    assert czech.json()["error"] == refused.json()["error"] and czech.json()["detail"] != refused.json()["detail"]
    missing = api_client(floor).post(api_url(tournament, f"entries/{entries[0].number}/seat/"), {"table": 1}, format="json")
    assert missing.status_code == 400 and missing.json()["error"] == "invalid" and "seat" in missing.json()["fields"]
    assert live_seat(entries[0]).pk == before.pk and live_seat(entries[1]).pk == other.pk
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq


def test_a_cashier_and_a_dealer_may_not_bust_or_correct(drawn, cashier, dealer, tournament):
    _draw, entries = drawn
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    for user in (cashier, dealer):
        c = api_client(user)
        assert c.post(api_url(tournament, "entries/1/bust/"), {}, format="json").status_code == 403
        assert c.post(api_url(tournament, "entries/1/seat/"), {"table": 2, "seat": 9}, format="json").status_code == 403
    assert Entry.objects.get(tournament=tournament, number=1).status == Entry.Status.ACTIVE
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq


def test_start_draw_is_for_the_director_and_then_the_waiting_are_seated(director, floor, cashier, tournament):
    table_setup.open_table(tournament, actor=director, number=1, seats=9)
    register(cashier, tournament, 5)
    refused = api_client(floor).post(api_url(tournament, "draw/"))
    assert refused.status_code == 403 and not Seat.objects.exists()
    answer = api_client(director).post(api_url(tournament, "draw/"))
    assert answer.status_code == 201 and answer.json()["draw"] == Draw.objects.get(kind="start").number
    assert Seat.objects.filter(ended_at__isnull=True).count() == 5
    again = api_client(director).post(api_url(tournament, "draw/"))
    assert again.status_code == 409 and again.json()["detail"]
    nobody = api_client(floor).post(api_url(tournament, "seating/waiting/"))
    assert nobody.status_code == 409 and nobody.json()["detail"]


def test_button_and_open_table_from_the_map(drawn, director, floor, tournament):
    answer = api_client(floor).post(api_url(tournament, "tables/1/button/"), {}, format="json")
    assert answer.status_code == 200 and answer.json()["table"] == 1 and answer.json()["button"]
    occupied = list(Seat.objects.filter(table__number=1, ended_at__isnull=True).values_list("seat", flat=True))
    answer = api_client(floor).post(api_url(tournament, "tables/1/button/"), {"seat": occupied[0]}, format="json")
    assert answer.status_code == 200 and answer.json()["button"] == occupied[0]
    assert tournament.tables.get(number=1).button_seat == occupied[0]
    assert api_client(floor).post(api_url(tournament, "tables/"), {"number": 7}, format="json").status_code == 403
    answer = api_client(director).post(api_url(tournament, "tables/"), {"number": 7, "seats": 8, "accessible": True}, format="json")
    assert answer.status_code == 201 and answer.json()["table"] == 7
    table = tournament.tables.get(number=7)
    assert table.seats == 8 and table.accessible


def test_seat_cards_html_and_pdf(drawn, floor, tournament):
    draw, entries = drawn
    c = logged_in(floor)
    html = c.get(f"/t/{tournament.pk}/seat-cards/?draw={draw.number}").content.decode()
    assert html.count('class="seat-card"') == 12 and "<svg" in html
    seat = live_seat(entries[0])
    one = c.get(f"/t/{tournament.pk}/seat-cards/{entries[0].number}/").content.decode()
    assert one.count('class="seat-card"') == 1 and f"Table {seat.table.number}" in one and f"Seat {seat.seat}" in one
    assert entries[0].player.display_name in one
    for url in (f"/t/{tournament.pk}/seat-cards/?format=pdf", f"/t/{tournament.pk}/seat-cards/1/?format=pdf&paper=a4"):
        pdf = c.get(url)
        assert pdf["Content-Type"] == "application/pdf" and pdf.content.startswith(b"%PDF") and len(pdf.content) > 1000
    assert c.get(f"/t/{tournament.pk}/seat-cards/999/").status_code == 404


def test_the_seat_page_is_public_and_shows_name_table_and_seat(drawn, tournament):
    _draw, entries = drawn
    seat = live_seat(entries[2])
    c = Client()
    page = c.get(f"/s/{tournament.pk}/{entries[2].number}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert entries[2].player.display_name in text and f'id="seat-table">{seat.table.number}<' in text
    data = c.get(f"/api/public/tournaments/{tournament.pk}/seats/{entries[2].number}/").json()
    assert data["table"] == seat.table.number and data["seat"] == seat.seat and "document" not in str(data)
    assert c.get(f"/s/{tournament.pk}/999/").status_code == 404
    # Search by number goes straight to the page; by name lists the matches.
    found = c.get(f"/s/{tournament.pk}/", {"q": str(entries[2].number)})
    assert found.status_code == 302 and found["Location"] == f"/s/{tournament.pk}/{entries[2].number}/"
    listed = c.get(f"/s/{tournament.pk}/", {"q": "P1"}).content.decode()
    assert entries[1].player.display_name in listed


def test_the_draw_pages_show_matches_and_keep_the_pending_seed_secret(drawn, tournament):
    draw, _entries = drawn
    c = Client()
    listing = c.get(f"/s/{tournament.pk}/draws/").content.decode()
    assert draw.commitment in listing
    detail = c.get(f"/s/{tournament.pk}/draws/{draw.number}/").content.decode()
    assert "matches" in detail and "does not match" not in detail and draw.seed in detail
    pending = Draw.objects.get(tournament=tournament, drawn_at__isnull=True)
    page = c.get(f"/s/{tournament.pk}/draws/{pending.number}/").content.decode()
    assert pending.commitment in page and pending.seed not in page and 'id="pending"' in page
    assert pending.seed not in listing
    data = c.get(f"/api/public/tournaments/{tournament.pk}/draws/").json()
    assert data["next_draw"]["commitment"] == pending.commitment and data["last_draw"]["seed"] == draw.seed


def test_a_tampered_draw_does_not_match(drawn, tournament):
    draw, _entries = drawn
    Draw.objects.filter(pk=draw.pk).update(result=list(reversed(draw.result)))
    page = Client().get(f"/s/{tournament.pk}/draws/{draw.number}/").content.decode()
    assert "does not match" in page


# --- the tables page: break order, in play, accessible tables (the director's) ------------------


def tables_url(tournament, rest: str = "") -> str:
    return f"/t/{tournament.pk}/tables/{rest}"


@pytest.fixture
def three_tables(director, tournament):
    open_tables(director, tournament, [1, 2, 3])
    return tournament


def events_of(tournament, kind: str) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(tournament=tournament, type=kind).order_by("seq"))


def test_the_tables_page_presses_go_to_the_api(three_tables, director, tournament):
    page = logged_in(director).get(tables_url(tournament)).content.decode()
    api = f"/api/tournaments/{tournament.pk}/"
    assert f'data-api-tables="{api}tables/"' in page and f'data-api-break-order="{api}tables/break-order/"' in page
    assert f'data-api-in-play="{api}tables/999999/in-play/"' in page
    assert f'action="/t/{tournament.pk}/' not in page and "/tables/open/" not in page
    assert 'data-set-in-play="0"' in page and 'id="new-token"' in page and "data-api-say" in page
    script = (STATIC_JS / "tables.js").read_text()
    assert 'gettext("Break order saved: {order}.")' in script and 'gettext("Table {number} is out of play.")' in script
    assert 'gettext("List the table numbers in the order they break.")' in script and "js/tables.js" in page


def test_director_sets_the_break_order_and_it_is_saved_and_audited(three_tables, director, tournament):
    c = logged_in(director)
    page = c.get(tables_url(tournament)).content.decode()
    assert 'id="break-order-input"' in page and 'value="3 2 1"' in page  # before the draw the highest break first
    response = api_client(director).put(api_url(tournament, "tables/break-order/"), {"order": [1, 3, 2]}, format="json")
    assert response.status_code == 200 and response.json() == {"order": [1, 3, 2]}
    assert state.break_order(tournament) == [1, 3, 2]
    (event,) = events_of(tournament, "tables.break_order")
    assert event.payload == {"order": [1, 3, 2]} and event.actor == director
    response = c.get(tables_url(tournament))
    rows = {row["table"]: row for row in response.context["rows"]}
    assert {n: rows[n]["break_position"] for n in rows} == {1: 1, 2: 3, 3: 2}
    assert 'value="1 3 2"' in response.content.decode()
    assert api_client(director).put(api_url(tournament, "tables/break-order/"), {"order": [3, 2, 1]}, format="json").json() == {
        "order": [3, 2, 1]
    }
    assert state.break_order(tournament) == [3, 2, 1]


@pytest.mark.parametrize(
    "order, message",
    [
        ([1, 2], "List every table in play exactly once (tables in play: 1, 2, 3)."),
        ([1, 2, 3, 4], "List every table in play exactly once (tables in play: 1, 2, 3)."),
        ([1, 1, 2, 3], "List every table in play exactly once (tables in play: 1, 2, 3)."),
        ([], "order: This list may not be empty."),
        (["1", "2", "x"], "order.2: A valid integer is required."),
    ],
)
def test_a_bad_break_order_is_refused_with_the_message_and_changes_nothing(three_tables, director, tournament, order, message):
    before = state.break_order(tournament)
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    response = api_client(director).put(api_url(tournament, "tables/break-order/"), {"order": order}, format="json")
    assert response.status_code == 400 and response.json()["detail"] == message
    assert state.break_order(tournament) == before == [3, 2, 1]
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq


@pytest.mark.parametrize("who", ["floor", "cashier", "dealer"])
def test_only_the_director_sets_the_break_order_or_takes_tables_out_of_play(request, three_tables, tournament, who):
    c = api_client(request.getfixturevalue(who))
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    for method in ("post", "put"):
        refused = getattr(c, method)(api_url(tournament, "tables/break-order/"), {"order": [1, 2, 3]}, format="json")
        assert refused.status_code == 403 and refused.json()["error"] == "permission_denied"
    assert c.post(api_url(tournament, "tables/2/in-play/"), {"in_play": False}, format="json").status_code == 403
    assert c.post(api_url(tournament, "tables/"), {"number": 9, "accessible": True}, format="json").status_code == 403
    assert state.break_order(tournament) == [3, 2, 1] and Table.objects.filter(in_play=True).count() == 3
    assert not Table.objects.filter(number=9).exists()
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq
    if who == "floor":  # the floor sees the list, without the director's forms and buttons
        page = logged_in(request.getfixturevalue(who)).get(tables_url(tournament)).content.decode()
        assert 'data-table="2"' in page
        assert 'id="break-order"' not in page and 'data-set-in-play="' not in page and 'id="open-table"' not in page
        assert 'id="new-token"' not in page


def test_anonymous_is_refused_and_nothing_changes(three_tables, tournament):
    for method, rest, body in (
        ("post", "tables/break-order/", {"order": [1, 2, 3]}),
        ("post", "tables/2/in-play/", {"in_play": False}),
        ("post", "tables/", {"number": 9}),
    ):
        response = getattr(api_client(), method)(api_url(tournament, rest), body, format="json")
        assert response.status_code == 401 and response.json()["error"] == "not_authenticated"
    assert state.break_order(tournament) == [3, 2, 1] and Table.objects.filter(in_play=True).count() == 3
    page = Client().get(tables_url(tournament))
    assert page.status_code == 302 and "/accounts/login/" in page["Location"]


def test_director_takes_a_table_out_of_play_and_puts_it_back(three_tables, director, tournament):
    c = logged_in(director)
    response = api_client(director).post(api_url(tournament, "tables/2/in-play/"), {"in_play": False}, format="json")
    assert response.status_code == 200 and response.json() == {"table": 2, "in_play": False}
    assert not Table.objects.get(tournament=tournament, number=2).in_play
    assert [e.payload for e in events_of(tournament, "table.out_of_play")] == [{"table": 2}]
    # Shown clearly: its row says so, keeps no break position, and offers to put it back.
    response = c.get(tables_url(tournament))
    page = response.content.decode()
    row = page[page.index('<tr data-table="2"') :]
    row = row[: row.index("</tr>")]
    assert 'class="out-of-play"' in row and "not in play" in row and "Put in play" in row and "data-in-play" not in row
    assert 'data-set-in-play="1"' in row
    assert state.break_order(tournament) == [3, 1] and 'value="3 1"' in page
    assert [r["table"] for r in response.context["tables"]] == [1, 3]  # the live list: tables in play only
    response = api_client(director).post(api_url(tournament, "tables/2/in-play/"), {"in_play": True}, format="json")
    assert response.status_code == 200 and response.json() == {"table": 2, "in_play": True}
    assert Table.objects.get(tournament=tournament, number=2).in_play
    assert [e.payload for e in events_of(tournament, "table.in_play")] == [{"table": 2}]
    missing = api_client(director).post(api_url(tournament, "tables/7/in-play/"), {"in_play": False}, format="json")
    assert missing.status_code == 404 and missing.json()["detail"]
    assert api_client(director).get(api_url(tournament, "tables/2/in-play/")).status_code == 405


def test_a_table_with_a_seated_player_is_not_taken_out_of_play(director, cashier, tournament):
    open_tables(director, tournament, [1, 2])
    register(cashier, tournament, 3)
    draws.draw_start(tournament, actor=director)
    occupied = Seat.objects.filter(ended_at__isnull=True).values_list("table__number", flat=True).first()
    before = AuditEvent.objects.filter(tournament=tournament).count()
    response = api_client(director).post(api_url(tournament, f"tables/{occupied}/in-play/"), {"in_play": False}, format="json")
    assert response.status_code == 409 and response.json()["error"] == "table_has_players"
    assert response.json()["detail"] == f"Table {occupied} still has players: move them or break the table first."
    assert Table.objects.get(tournament=tournament, number=occupied).in_play
    assert AuditEvent.objects.filter(tournament=tournament).count() == before


def test_the_open_form_opens_an_accessible_table(director, tournament):
    c = logged_in(director)
    page = c.get(tables_url(tournament)).content.decode()
    assert 'name="accessible"' in page and "Accessible table (special needs)" in page
    response = api_client(director).post(api_url(tournament, "tables/"), {"number": 4, "seats": 8, "accessible": True}, format="json")
    assert response.status_code == 201 and response.json()["table"] == 4 and response.json()["shuffler_token"]
    table = Table.objects.get(tournament=tournament, number=4)
    assert table.accessible and table.seats == 8
    assert events_of(tournament, "table.opened")[0].payload["accessible"] is True
    api_client(director).post(api_url(tournament, "tables/"), {"number": 5}, format="json")
    assert Table.objects.get(tournament=tournament, number=5).accessible is False
    page = c.get(tables_url(tournament)).content.decode()
    row = page[page.index('<tr data-table="4"') :]
    assert 'class="badge accessible"' in row[: row.index("</tr>")]
    row = page[page.index('<tr data-table="5"') :]
    assert "badge accessible" not in row[: row.index("</tr>")]
    # The token is in the API's answer only: never in the page.
    assert response.json()["shuffler_token"] not in page
    again = api_client(director).post(api_url(tournament, "tables/"), {"number": 4}, format="json")
    assert again.status_code == 409 and again.json()["detail"] == "Table 4 is already open."


# --- one door per action: the screens' old POST endpoints are gone --------------------------------

REMOVED = [  # (the URL name it had, its path after /t/<pk>/)
    ("table-open", "tables/open/"),
    ("tables-break-order", "tables/break-order/"),
    ("table-in-play", "tables/1/in-play/"),
    ("hand-start", "tables/1/hand/"),
    ("hand-undo", "tables/1/hand/undo/"),
    ("hand-done", "tables/1/hand/done/"),
    ("map-bust", "map/entries/1/bust/"),
    ("map-undo-bust", "map/entries/1/undo-bust/"),
    ("map-correct", "map/entries/1/correct/"),
    ("map-button", "map/tables/1/button/"),
    ("map-positions", "map/tables/1/positions/"),
    ("map-move-confirm", "map/moves/1/confirm/"),
    ("map-move-cancel", "map/moves/1/cancel/"),
    ("map-balance-now", "map/moves/balance/"),
    ("map-hand-done", "map/tables/1/hand-done/"),
    ("map-hand-for-hand", "map/hand-for-hand/"),
    ("map-open-table", "map/tables/open/"),
    ("map-draw-start", "map/draw/"),
    ("map-seat-waiting", "map/seat-waiting/"),
]


@pytest.mark.parametrize("name, rest", REMOVED, ids=[name for name, _rest in REMOVED])
def test_the_screens_old_post_endpoints_are_gone(drawn, director, tournament, name, rest):
    from django.urls import NoReverseMatch, reverse

    with pytest.raises(NoReverseMatch):
        reverse(name, args=[tournament.pk])
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    c = logged_in(director)
    response = c.post(
        f"/t/{tournament.pk}/{rest}", {"on": "1", "number": 9, "order": "1 2", "in_play": "0"}, HTTP_ACCEPT="application/json"
    )
    assert response.status_code in (404, 405), (rest, response.status_code)
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq
    assert not Table.objects.filter(tournament=tournament, number=9).exists()
