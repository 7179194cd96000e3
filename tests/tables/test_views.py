"""Screens of seating: the floor's table map (roles, bust, correct, refusals), seat cards (HTML and
PDF), the player's public seat page, the public draw verification, and the director's tables page
(break order, tables in and out of play, accessible tables)."""
from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from tables import draws, read_models, selectors
from tables import setup as table_setup
from tables.models import Draw, Seat, Table
from tests.conftest import id_doc
from tests.tables.test_seating_services import open_tables
from tournament import services
from tournament.models import AuditEvent, Entry


def register(cashier, tournament, n: int, start: int = 0) -> list[Entry]:
    out = []
    for i in range(start, start + n):
        player = services.create_player(cashier, first_name=f"P{i}", last_name="Test", date_of_birth=date(1990, 1, 1))
        out.append(services.register_entry(cashier, tournament, player, id_doc(f"EA{i:07d}")))
    return out


@pytest.fixture
def drawn(director, cashier, tournament):
    for n in (1, 2):
        table_setup.open_table(director, tournament, n, 9)
    entries = register(cashier, tournament, 12)
    draw = draws.draw_start(director, tournament)
    return draw, entries


def client_for(user) -> Client:
    c = Client()
    if user is not None:
        c.force_login(user)
    return c


def live_seat(entry) -> Seat:
    return Seat.objects.select_related("table").get(entry=entry, ended_at__isnull=True)


@pytest.mark.parametrize("who, expected", [("director", 200), ("floor", 200), ("cashier", 403), ("dealer", 403)])
def test_the_map_is_for_the_floor_and_the_director(request, drawn, tournament, who, expected):
    c = client_for(request.getfixturevalue(who))
    assert c.get(f"/t/{tournament.pk}/map/").status_code == expected
    assert c.get(f"/t/{tournament.pk}/map.json").status_code == expected


def test_the_map_sends_an_anonymous_visitor_to_log_in(drawn, tournament):
    response = Client().get(f"/t/{tournament.pk}/map/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Client().post(f"/t/{tournament.pk}/map/entries/1/bust/").status_code == 302
    assert Entry.objects.get(tournament=tournament, number=1).status == Entry.Status.ACTIVE


def test_map_json_lists_every_seat_and_the_next_commitment(drawn, floor, tournament):
    data = client_for(floor).get(f"/t/{tournament.pk}/map.json").json()
    assert data["players_seated"] == 12 and data["start_drawn"] is True
    pending = Draw.objects.get(tournament=tournament, drawn_at__isnull=True)
    assert data["next_draw"] == {"draw": pending.number, "commitment": pending.commitment}
    page = client_for(floor).get(f"/t/{tournament.pk}/map/").content.decode()
    assert pending.commitment in page and pending.seed not in page


@pytest.mark.parametrize("who, expected", [("director", 200), ("floor", 200), ("cashier", 200), ("dealer", 403)])
def test_seat_cards_are_for_staff_but_not_dealers(request, drawn, tournament, who, expected):
    c = client_for(request.getfixturevalue(who))
    assert c.get(f"/t/{tournament.pk}/seat-cards/").status_code == expected
    assert c.get(f"/t/{tournament.pk}/seat-cards/1/").status_code == expected


def test_bust_from_the_map_and_undo(drawn, floor, tournament):
    _draw, entries = drawn
    c = client_for(floor)
    url = f"/t/{tournament.pk}/map/entries/{entries[0].number}/"
    answer = c.post(url + "bust/", HTTP_ACCEPT="application/json").json()
    assert answer["ok"] is True and "place 12" in answer["message"]
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.Status.BUSTED and not Seat.objects.filter(entry=entries[0], ended_at__isnull=True).exists()
    # A second tablet busting the same player is refused with the service's message; nothing changes.
    again = c.post(url + "bust/", HTTP_ACCEPT="application/json")
    assert again.status_code >= 400 and again.json()["ok"] is False and again.json()["error"]
    answer = c.post(url + "undo-bust/", HTTP_ACCEPT="application/json").json()
    assert answer["ok"] is True
    entries[0].refresh_from_db()
    assert entries[0].status == Entry.Status.ACTIVE and live_seat(entries[0])


def test_correct_a_seat_with_a_plain_form_post(drawn, floor, tournament):
    _draw, entries = drawn
    data = read_models.floor_map(tournament)
    target = next((t["table"], s["seat"]) for t in data["tables"] for s in t["seat_list"] if s["entry"] is None and t["in_play"])
    response = client_for(floor).post(f"/t/{tournament.pk}/map/entries/{entries[3].number}/correct/",
                                      {"table": target[0], "seat": target[1]}, follow=True)
    assert response.redirect_chain[-1][0] == f"/t/{tournament.pk}/map/"
    seat = live_seat(entries[3])
    assert (seat.table.number, seat.seat) == target
    assert "now sits at table" in response.content.decode()


def test_a_refused_correction_shows_the_message_and_changes_nothing(drawn, floor, tournament):
    _draw, entries = drawn
    other = live_seat(entries[1])
    before = live_seat(entries[0])
    response = client_for(floor).post(f"/t/{tournament.pk}/map/entries/{entries[0].number}/correct/",
                                      {"table": other.table.number, "seat": other.seat}, follow=True)
    assert "is not free" in response.content.decode()
    assert live_seat(entries[0]).pk == before.pk and live_seat(entries[1]).pk == other.pk


def test_a_cashier_and_a_dealer_may_not_bust_or_correct(drawn, cashier, dealer, tournament):
    _draw, entries = drawn
    for user in (cashier, dealer):
        c = client_for(user)
        assert c.post(f"/t/{tournament.pk}/map/entries/1/bust/").status_code == 403
        assert c.post(f"/t/{tournament.pk}/map/entries/1/correct/", {"table": 2, "seat": 9}).status_code == 403
    assert Entry.objects.get(tournament=tournament, number=1).status == Entry.Status.ACTIVE


def test_start_draw_is_for_the_director_and_then_the_waiting_are_seated(director, floor, cashier, tournament):
    table_setup.open_table(director, tournament, 1, 9)
    register(cashier, tournament, 5)
    refused = client_for(floor).post(f"/t/{tournament.pk}/map/draw/")
    assert refused.status_code == 403 and not Seat.objects.exists()
    answer = client_for(director).post(f"/t/{tournament.pk}/map/draw/", HTTP_ACCEPT="application/json").json()
    assert answer["ok"] is True and Seat.objects.filter(ended_at__isnull=True).count() == 5
    again = client_for(director).post(f"/t/{tournament.pk}/map/draw/", HTTP_ACCEPT="application/json")
    assert again.status_code == 409 and again.json()["ok"] is False
    nobody = client_for(floor).post(f"/t/{tournament.pk}/map/seat-waiting/", HTTP_ACCEPT="application/json")
    assert nobody.status_code == 409 and nobody.json()["error"]


def test_button_and_open_table_from_the_map(drawn, director, floor, tournament):
    answer = client_for(floor).post(f"/t/{tournament.pk}/map/tables/1/button/", HTTP_ACCEPT="application/json").json()
    assert answer["ok"] is True
    occupied = list(Seat.objects.filter(table__number=1, ended_at__isnull=True).values_list("seat", flat=True))
    answer = client_for(floor).post(f"/t/{tournament.pk}/map/tables/1/button/", {"seat": occupied[0]},
                                    HTTP_ACCEPT="application/json").json()
    assert answer["ok"] is True and tournament.tables.get(number=1).button_seat == occupied[0]
    assert client_for(floor).post(f"/t/{tournament.pk}/map/tables/open/", {"number": 7}).status_code == 403
    answer = client_for(director).post(f"/t/{tournament.pk}/map/tables/open/", {"number": 7, "seats": 8, "accessible": "on"},
                                       HTTP_ACCEPT="application/json").json()
    assert answer["ok"] is True
    table = tournament.tables.get(number=7)
    assert table.seats == 8 and table.accessible


def test_seat_cards_html_and_pdf(drawn, floor, tournament):
    draw, entries = drawn
    c = client_for(floor)
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
    data = c.get(f"/s/{tournament.pk}/{entries[2].number}.json").json()
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
    data = c.get(f"/s/{tournament.pk}/draws.json").json()
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


def test_director_sets_the_break_order_and_it_is_saved_and_audited(three_tables, director, tournament):
    c = client_for(director)
    page = c.get(tables_url(tournament)).content.decode()
    assert 'id="break-order-input"' in page and 'value="3 2 1"' in page  # before the draw the highest break first
    response = c.post(tables_url(tournament, "break-order/"), {"order": " 1, 3  2 "}, follow=True)
    assert response.redirect_chain[-1][0] == tables_url(tournament)
    assert "Break order saved: 1, 3, 2." in response.content.decode()
    assert selectors.break_order(tournament) == [1, 3, 2]
    (event,) = events_of(tournament, "tables.break_order")
    assert event.payload == {"order": [1, 3, 2]} and event.actor == director
    rows = {row["table"]: row for row in response.context["rows"]}
    assert {n: rows[n]["break_position"] for n in rows} == {1: 1, 2: 3, 3: 2}
    assert 'value="1 3 2"' in response.content.decode()


@pytest.mark.parametrize("typed, message", [
    ("1 2 x", "List the table numbers in the order they break."),
    ("1 2", "List every table in play exactly once (tables in play: 1, 2, 3)."),
    ("1 2 3 4", "List every table in play exactly once (tables in play: 1, 2, 3)."),
    ("1 1 2 3", "List every table in play exactly once (tables in play: 1, 2, 3)."),
    ("", "List every table in play exactly once (tables in play: 1, 2, 3)."),
])
def test_a_bad_break_order_is_refused_with_the_message_and_changes_nothing(three_tables, director, tournament, typed, message):
    before = selectors.break_order(tournament)
    seq = AuditEvent.objects.filter(tournament=tournament).count()
    response = client_for(director).post(tables_url(tournament, "break-order/"), {"order": typed}, follow=True)
    assert response.redirect_chain[-1][0] == tables_url(tournament)
    assert message in response.content.decode()
    assert selectors.break_order(tournament) == before == [3, 2, 1]
    assert AuditEvent.objects.filter(tournament=tournament).count() == seq


@pytest.mark.parametrize("who", ["floor", "cashier", "dealer"])
def test_only_the_director_sets_the_break_order_or_takes_tables_out_of_play(request, three_tables, tournament, who):
    c = client_for(request.getfixturevalue(who))
    assert c.post(tables_url(tournament, "break-order/"), {"order": "1 2 3"}).status_code == 403
    assert c.post(tables_url(tournament, "2/in-play/"), {"in_play": "0"}).status_code == 403
    assert c.post(tables_url(tournament, "open/"), {"number": 9, "accessible": "on"}).status_code == 403
    assert selectors.break_order(tournament) == [3, 2, 1] and Table.objects.filter(in_play=True).count() == 3
    assert not Table.objects.filter(number=9).exists()
    if who == "floor":  # the floor sees the list, without the director's forms and buttons
        page = client_for(request.getfixturevalue(who)).get(tables_url(tournament)).content.decode()
        assert 'data-table="2"' in page
        assert 'id="break-order"' not in page and "/in-play/" not in page and 'id="open-table"' not in page


def test_anonymous_is_sent_to_log_in_and_nothing_changes(three_tables, tournament):
    posts = {tables_url(tournament, "break-order/"): {"order": "1 2 3"}, tables_url(tournament, "2/in-play/"): {"in_play": "0"}}
    for url, data in posts.items():
        response = Client().post(url, data)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert selectors.break_order(tournament) == [3, 2, 1] and Table.objects.filter(in_play=True).count() == 3


def test_director_takes_a_table_out_of_play_and_puts_it_back(three_tables, director, tournament):
    c = client_for(director)
    response = c.post(tables_url(tournament, "2/in-play/"), {"in_play": "0"}, follow=True)
    assert response.redirect_chain[-1][0] == tables_url(tournament)
    page = response.content.decode()
    assert "Table 2 is out of play." in page
    assert not Table.objects.get(tournament=tournament, number=2).in_play
    assert [e.payload for e in events_of(tournament, "table.out_of_play")] == [{"table": 2}]
    # Shown clearly: its row says so, keeps no break position, and offers to put it back.
    row = page[page.index('<tr data-table="2"'):]
    row = row[:row.index("</tr>")]
    assert 'class="out-of-play"' in row and "not in play" in row and "Put in play" in row and "data-in-play" not in row
    assert selectors.break_order(tournament) == [3, 1] and 'value="3 1"' in page
    assert [r["table"] for r in response.context["tables"]] == [1, 3]  # the live list: tables in play only
    response = c.post(tables_url(tournament, "2/in-play/"), {"in_play": "1"}, follow=True)
    assert "Table 2 is in play." in response.content.decode()
    assert Table.objects.get(tournament=tournament, number=2).in_play
    assert [e.payload for e in events_of(tournament, "table.in_play")] == [{"table": 2}]
    assert c.post(tables_url(tournament, "7/in-play/"), {"in_play": "0"}).status_code == 404
    assert c.get(tables_url(tournament, "2/in-play/")).status_code == 405


def test_a_table_with_a_seated_player_is_not_taken_out_of_play(director, cashier, tournament):
    open_tables(director, tournament, [1, 2])
    register(cashier, tournament, 3)
    draws.draw_start(director, tournament)
    occupied = Seat.objects.filter(ended_at__isnull=True).values_list("table__number", flat=True).first()
    before = AuditEvent.objects.filter(tournament=tournament).count()
    response = client_for(director).post(tables_url(tournament, f"{occupied}/in-play/"), {"in_play": "0"}, follow=True)
    assert response.redirect_chain[-1][0] == tables_url(tournament)
    assert f"Table {occupied} still has players: move them or break the table first." in response.content.decode()
    assert Table.objects.get(tournament=tournament, number=occupied).in_play
    assert AuditEvent.objects.filter(tournament=tournament).count() == before


def test_the_open_form_opens_an_accessible_table(director, tournament):
    c = client_for(director)
    page = c.get(tables_url(tournament)).content.decode()
    assert 'name="accessible"' in page and "Accessible table (special needs)" in page
    response = c.post(tables_url(tournament, "open/"), {"number": "4", "seats": "8", "accessible": "on"})
    assert response.status_code == 201
    table = Table.objects.get(tournament=tournament, number=4)
    assert table.accessible and table.seats == 8
    assert events_of(tournament, "table.opened")[0].payload["accessible"] is True
    c.post(tables_url(tournament, "open/"), {"number": "5"})
    assert Table.objects.get(tournament=tournament, number=5).accessible is False
    page = c.get(tables_url(tournament)).content.decode()
    row = page[page.index('<tr data-table="4"'):]
    assert 'class="badge accessible"' in row[:row.index("</tr>")]
    row = page[page.index('<tr data-table="5"'):]
    assert "badge accessible" not in row[:row.index("</tr>")]
