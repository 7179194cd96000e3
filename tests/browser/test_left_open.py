"""Screens left open through a change say what a fresh load says (issue 39), in a real browser: each screen a push
changes is opened at its device's size, a change is made through the services, and the page left open must come to
show the fresh page's text (tests/browser/left_open.py). The lobby TV in its modes (the chip leaders after a bust, in
the money, a satellite's seat bubble, a flight's TV)..."""
from __future__ import annotations

from datetime import date

import pytest

from clock import services as clock_services
from flights.selectors import flights_pool
from payouts.selectors import payout_state
from tables import busts, counting
from tables.models import Table
from tests.browser.left_open import left_open, open_screen, visible_text
from tests.browser.sizes import TV
from tests.conftest import pay_places
from tests.flights.test_flights import event_with, register
from tests.payouts.conftest import bust_down_to, make_main_event, make_satellite
from tests.tables.test_counting import even
from tests.tables.test_hand_for_hand import confirm_all
from tests.tables.test_penalty_api import at_table, room  # noqa: F401  (room: the fixture)
from tournament import services
from tournament.models import Entry
from web.templatetags.money import money

pytestmark = pytest.mark.browser


def lobby_path(t, director, query: str = "") -> str:
    token = services.create_display_token(t, actor=director, label="Lobby TV").token
    return f"/display/{token}/{query}"


def count_every_table(t, floor) -> None:
    for number in (1, 2):
        counts = even(t, number)
        first = min(counts)
        counts[first] += 1_000 * number  # a leader at each table, the rest even
        counting.record_table_counts(Table.objects.get(tournament=t, number=number), actor=floor, counts=counts)


def active(t) -> list[Entry]:
    return list(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).order_by("number"))


def bust(t, floor, entry: Entry) -> None:
    busts.bust_entry(entry, actor=floor)
    confirm_all(floor, t)


def test_the_tvs_chip_leaders_follow_a_bust(live_asgi, browser, room, director, floor):  # noqa: F811
    """The chip leaders' TV left open through a bust: the busted leader leaves the list, and the counted line says
    one player fewer."""
    t = room
    clock_services.start_clock(t, actor=director)
    count_every_table(t, floor)
    leader = at_table(t, 2)[0]  # seat order: the first seat took the table's extra chips
    page, _fresh = left_open(browser, live_asgi, lobby_path(t, director, "?leaders=1"), lambda: bust(t, floor, leader),
                             size=TV)
    assert leader.player.display_name not in visible_text(page)


def test_the_tvs_chip_leaders_in_the_money_leave_out_the_bubble(live_asgi, browser, room, director, floor):  # noqa: F811
    """In the money: the bubble's bust leaves the chip leaders (it was listed on a TV left open)."""
    t = room
    clock_services.start_clock(t, actor=director)
    pay_places(director, t, 3)
    count_every_table(t, floor)
    bust_down_to(floor, t, 4)
    bubble = next(e for e in active(t) if e.player.display_name in visible_text(
        open_screen(browser, live_asgi, lobby_path(t, director, "?leaders=1"), size=TV)))
    page, _fresh = left_open(browser, live_asgi, lobby_path(t, director, "?leaders=1"), lambda: bust(t, floor, bubble),
                             size=TV)
    assert "IN THE MONEY" in visible_text(page) and bubble.player.display_name not in visible_text(page)


def test_a_satellites_tv_shows_its_seat_winners_after_the_seat_bubble(live_asgi, browser, director, floor, cashier,
                                                                        template):
    main_event = make_main_event(director, template)
    satellite = make_satellite(director, cashier, template, main_event)
    clock_services.start_clock(satellite, actor=director)
    bust_down_to(floor, satellite, 3)
    page, _fresh = left_open(browser, live_asgi, lobby_path(satellite, director),
                             lambda: bust(satellite, floor, active(satellite)[0]), size=TV)
    winners = active(satellite)
    assert all(e.player.display_name in visible_text(page, "#lobby-final") for e in winners)


def test_a_flights_tv_shows_the_events_pool_and_places_paid(live_asgi, browser, director, floor, cashier, template):
    """A Day 1 flight pays no places itself: its TV shows its event's one pool (every flight's) and the places its
    Day 2 pays, live through a registration in the other flight... and in this one."""
    event, (flight_a, flight_b) = event_with(director, template)
    people = [services.create_player(actor=cashier, first_name=f"F{i}", last_name="Flight", date_of_birth=date(1990, 1, 1))
              for i in range(12)]
    register(cashier, flight_a, people[:6])
    register(cashier, flight_b, people[6:10])
    path = lobby_path(flight_a, director)
    tv = open_screen(browser, live_asgi, path, size=TV)
    pool = flights_pool(event)["prize_pool"]
    places = payout_state(event.day2)["places_paid"]
    assert places > 0
    assert tv.inner_text(".l-pool .value") == money(pool, flight_a.currency)
    assert tv.inner_text("#lobby-places") == str(places)
    left_open(browser, live_asgi, path, lambda: register(cashier, flight_a, people[10:11]), size=TV)
