"""Screens of seating: the floor's table map (roles, bust, correct, refusals), seat cards (HTML and
PDF), the player's public seat page and the public draw verification."""
from __future__ import annotations

from datetime import date

import pytest
from django.test import Client

from tables import services as tables
from tables.models import Draw, Seat
from tests.conftest import id_doc
from tournament import services
from tournament.models import Entry


def register(cashier, tournament, n: int, start: int = 0) -> list[Entry]:
    out = []
    for i in range(start, start + n):
        player = services.create_player(cashier, first_name=f"P{i}", last_name="Test", date_of_birth=date(1990, 1, 1))
        out.append(services.register_entry(cashier, tournament, player, id_doc(f"EA{i:07d}")))
    return out


@pytest.fixture
def drawn(director, cashier, tournament):
    for n in (1, 2):
        tables.open_table(director, tournament, n, 9)
    entries = register(cashier, tournament, 10)
    draw = tables.draw_start(director, tournament)
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
    assert data["players_seated"] == 10 and data["start_drawn"] is True
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
    assert answer["ok"] is True and "place 10" in answer["message"]
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
    data = tables.floor_map(tournament)
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
    tables.open_table(director, tournament, 1, 9)
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
    assert html.count('class="seat-card"') == 10 and "<svg" in html
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
