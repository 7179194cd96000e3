"""The desk's and the floor's screens of a sold-out tournament's waiting list (web/tournament/views.py waiting_list,
templates/tournament/waiting_list.html): the list page for the desk roles only, the registration pages that put a new
player on the list once the tournament is sold out, and the list's settings saved through the tournament's form and
its API. The browser test (tests/browser/test_waiting_list_desk.py) presses the buttons and follows the live stream."""

from __future__ import annotations

import re
from datetime import date, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.urls import reverse

from tables.selectors.state import live_seats
from tables.services import busts, draws
from tests.helpers import client_for, logged_in, page_as, register, text
from tests.tournament.test_setup_views import tournament_body
from tests.tournament.test_waiting_list import fixed_room, join, newcomer, settle
from tournament.models import AuditEvent, Entry, Tournament, WaitingPlace
from web.templatetags.money import money


@pytest.fixture
def sold_out(director, cashier, tournament):
    """A fixed room of two tables of six, twelve players seated by the start draw: every seat taken (as
    tests/tournament/test_waiting_list.py's sold_out_room)."""
    fixed_room(director, [1, 2])
    register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    return tournament


def waiting_page(user, t):
    return page_as(user, reverse("waiting-list", args=[t.pk]))


def row_of(html: str, number: int) -> str:
    """The list's row of one alternate, as markup."""
    return html.split(f'id="place-{number}"', 1)[1].split("</li>", 1)[0]


def test_the_desk_sees_the_list_in_order_and_the_offered_alternates_table_seat_and_time(director, floor, cashier, sold_out):
    t = sold_out
    first, second = join(cashier, t, 1), join(cashier, t, 2)
    out = live_seats(t).select_related("table").first()
    busts.bust_entry(out.entry, actor=floor)  # the seat goes to alternate 1
    first.refresh_from_db()
    answer = waiting_page(cashier, t)
    assert answer.status_code == 200
    html = answer.content.decode()
    words = text(html)
    assert "Sold out: new players join the waiting list." in words and 'class="wl-state wl-sold-out"' in html
    assert html.index('id="place-1"') < html.index('id="place-2"')  # the list's order
    offered, waiting = text(row_of(html, 1)), text(row_of(html, 2))
    sit_by = (first.offered_at + timedelta(minutes=t.alternate_minutes)).astimezone(ZoneInfo(t.time_zone)).strftime("%H:%M")
    assert first.player.display_name in offered and "Seat offered" in offered
    assert f"entry #{first.entry.number}" in offered and f"Table {out.table.number}, seat {out.seat}" in offered
    assert f"sit down by {sit_by}" in offered  # in the venue's time zone
    assert second.player.display_name in waiting and "Waiting" in waiting and "next in line" in waiting
    assert text(f"paid {money(second.paid, t.currency)}") in waiting and second.paid == t.buy_in + t.fee  # taken when he joined
    # The cashier: "Sat down" and "Take off the list" through the API; the floor's buttons are not his.
    assert f'data-action="tournaments/{t.pk}/waiting-list/1/seat/"' in html
    assert f'data-action="tournaments/{t.pk}/waiting-list/2/cancel/"' in html
    assert "/pass/" not in html and 'id="offer-form"' not in html
    assert f'data-socket="/ws/s/{t.pk}/"' in html  # the public stream: no names
    floor_html = waiting_page(floor, t).content.decode()
    assert f'data-action="tournaments/{t.pk}/waiting-list/1/pass/"' in floor_html and 'id="offer-form"' in floor_html
    assert "/2/pass/" not in floor_html  # only an offered alternate is passed over
    assert f'data-socket="/ws/t/{t.pk}/floor/"' in floor_html
    assert waiting_page(director, t).status_code == 200


def test_only_the_desk_reaches_the_page_and_its_link(director, floor, cashier, dealer, tournament):
    for user in (director, floor, cashier):
        assert waiting_page(user, tournament).status_code == 200
        assert 'id="nav-waiting-list"' in page_as(user, reverse("register", args=[tournament.pk])).content.decode()
    assert waiting_page(dealer, tournament).status_code == 403  # names: not a dealer's
    assert 'id="nav-waiting-list"' not in page_as(dealer, reverse("tournament-detail", args=[tournament.pk])).content.decode()
    anonymous = waiting_page(None, tournament)
    assert anonymous.status_code == 302 and anonymous["Location"].startswith(reverse("login"))
    assert logged_in(cashier).post(reverse("waiting-list", args=[tournament.pk])).status_code == 405  # the page only reads
    html = waiting_page(cashier, tournament).content.decode()
    assert "Seats open: register new players as usual." in text(html) and "Nobody is on the list." in text(html)


def test_a_sold_out_registration_puts_the_player_on_the_waiting_list(cashier, sold_out):
    t = sold_out
    join(cashier, t, 1)
    player = newcomer(cashier, 2)
    for path in (reverse("register", args=[t.pk]) + f"?player={player.pk}", reverse("player-create", args=[t.pk])):
        html = page_as(cashier, path).content.decode()
        words = text(html)
        assert "Sold out: 1 player on the waiting list." in words, path
        assert words.index("Sold out") < words.index("Check the ID"), path  # said first
        assert f'data-api="tournaments/{t.pk}/waiting-list/"' in html and 'data-says="waiting-join"' in html
        assert f'data-next="{reverse("waiting-list", args=[t.pk])}"' in html
        assert f'data-api="tournaments/{t.pk}/entries/"' not in html
        button = re.search(r'id="register-button">([^<]*)<', html).group(1)
        assert button == "Put on the waiting list", path
        assert "taken when he joins the list (given back if he is never seated)." in words, path
    settle(t, waiting_payment="on_seating")
    words = text(page_as(cashier, reverse("register", args=[t.pk]) + f"?player={player.pk}").content.decode())
    assert "taken when he is seated." in words
    # What the form sends, through the API the page names: the player is on the list, the page says where to go.
    answer = client_for(cashier).post(
        f"/api/tournaments/{t.pk}/waiting-list/",
        {"player": player.pk, "document_type": "id_card", "document_number": "WL0000002", "seen": True},
        format="json",
    )
    assert answer.status_code == 201 and answer.json()["number"] == 2 and answer.json()["name"] == player.display_name
    assert text(waiting_page(cashier, t).content.decode()).count("Waiting") >= 2


def test_a_tournament_with_seats_registers_as_before(cashier, tournament, player):
    html = page_as(cashier, reverse("register", args=[tournament.pk]) + f"?player={player.pk}").content.decode()
    assert 'id="sold-out"' not in html and f'data-api="tournaments/{tournament.pk}/entries/"' in html
    assert "Register and print receipt" in html and "/waiting-list/" not in html.split('id="register-form"', 1)[1]


WAITING = {"max_entries": 40, "alternate_minutes": 15, "waiting_payment": "on_seating", "no_show_money": "kept"}


def test_the_waiting_list_settings_are_saved_through_the_form_and_the_api(director, template, tournament):
    edit = reverse("tournament-edit", args=[tournament.pk])
    html = page_as(director, edit).content.decode()
    for name in WAITING:
        assert f'name="{name}"' in html, name
    assert 'name="max_entries"' in html.split("Waiting list", 1)[1] and 'data-blank="null"' in html.split('name="max_entries"', 1)[1][:200]
    assert "a new player joins the waiting list" in text(html) and "1 to 120" in text(html)
    body = {**tournament_body(tournament.structure, time_zone="Europe/Bratislava", currency="EUR", buy_in=10000, fee=1500)}
    del body["template"]
    answer = client_for(director).patch(f"/api/tournaments/{tournament.pk}/", {**body, **WAITING}, format="json")
    assert answer.status_code == 200, answer.content
    tournament.refresh_from_db()
    assert {name: getattr(tournament, name) for name in WAITING} == WAITING
    assert {name: answer.json()[name] for name in WAITING} == WAITING  # the API's answer says them too
    changed = AuditEvent.objects.filter(tournament=tournament, type="tournament.changed").last().payload["changed"]
    assert changed["max_entries"] == {"from": None, "to": 40} and changed["no_show_money"]["to"] == "kept"
    html = page_as(director, edit).content.decode()
    assert 'name="max_entries" value="40"' in html and 'name="alternate_minutes" value="15"' in html
    assert '<option value="on_seating" selected>' in html and '<option value="kept" selected>' in html
    # Emptied, the maximum is none again (the form's data-blank="null").
    assert client_for(director).patch(f"/api/tournaments/{tournament.pk}/", {"max_entries": None}, format="json").status_code == 200
    tournament.refresh_from_db()
    assert tournament.max_entries is None and tournament.alternate_minutes == 15
    # A new tournament takes them at once.
    created = client_for(director).post("/api/tournaments/", {**tournament_body(template), **WAITING}, format="json")
    assert created.status_code == 201, created.content
    t = Tournament.objects.get(pk=created.json()["id"])
    assert {name: getattr(t, name) for name in WAITING} == WAITING


def test_bad_waiting_list_settings_are_refused_with_a_message_and_change_nothing(director, tournament):
    api = client_for(director)
    bad = {"max_entries": 1, "alternate_minutes": 0, "waiting_payment": "later", "no_show_money": ""}
    answer = api.patch(f"/api/tournaments/{tournament.pk}/", bad, format="json")
    assert answer.status_code == 400
    fields = answer.json()["fields"]
    assert set(fields) == set(bad), fields
    assert all(fields[name] and all(message for message in fields[name]) for name in bad)
    assert "2" in fields["max_entries"][0] and "1" in fields["alternate_minutes"][0]
    assert "later" in fields["waiting_payment"][0]
    too_long = api.patch(f"/api/tournaments/{tournament.pk}/", {"alternate_minutes": 121}, format="json")
    assert too_long.status_code == 400 and "120" in too_long.json()["fields"]["alternate_minutes"][0]
    tournament.refresh_from_db()
    assert (tournament.max_entries, tournament.alternate_minutes, tournament.waiting_payment, tournament.no_show_money) == (
        None,
        10,
        "on_joining",
        "refunded",
    )
    assert not AuditEvent.objects.filter(tournament=tournament, type="tournament.changed").exists()


def test_the_list_shows_a_place_taken_at_the_desk_with_a_new_player(cashier, sold_out):
    """The new-player form's body (new_player and the ID check) goes to the list's API as the registration's does."""
    t = sold_out
    body = {
        "new_player": {"first_name": "Eva", "last_name": "Nová", "date_of_birth": date(1988, 4, 4).isoformat()},
        "document_type": "passport",
        "document_number": "PP998877",
        "seen": True,
    }
    assert client_for(cashier).post(f"/api/tournaments/{t.pk}/waiting-list/", body, format="json").status_code == 201
    place = WaitingPlace.objects.get(tournament=t)
    row = text(row_of(waiting_page(cashier, t).content.decode(), place.number))
    assert "Eva Nová" in row and "next in line" in row and "paid" in row
    assert not Entry.objects.filter(tournament=t, player=place.player).exists()
