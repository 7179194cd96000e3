"""Screens left open through a change say what a fresh load says, in a real browser: each screen a push
changes is opened at its device's size, a change is made through the services (or on the screen itself), and the page
left open must come to show the fresh page's text without reloading itself (tests/browser/left_open.py). The lobby TV
in its modes (the chip leaders through a bust and in the money, hand-for-hand, a satellite's seat bubble, a flight's
TV with its event's pool), the Tables page (a table opened here or elsewhere), the floor map, the dealer tablet, the
overview, a player's seat page, an event's Day 2 page through the start of play and the event page."""

from __future__ import annotations

from datetime import date

import pytest

from clock.services import clock as clock_services
from flights.selectors.events import flights_pool
from payouts.selectors.structure import payout_state
from tables.models import Table
from tables.selectors.state import live_seats, pending_commitment
from tables.services import busts, counting, draws, handforhand, penalties, seats
from tables.services import setup as table_setup
from tests.browser.left_open import left_open, open_screen, visible_text
from tests.browser.sizes import PHONE, TABLET, TV
from tests.conftest import pay_places
from tests.flights.test_flights import event_with, register
from tests.helpers import id_doc
from tests.payouts.conftest import bust_down_to, make_main_event, make_satellite
from tests.tables.test_counting import even
from tests.tables.test_hand_for_hand import confirm_all
from tests.tables.test_moves import start
from tests.tables.test_penalty_api import at_table
from tests.web.test_screens_say_true import carried_event
from tournament.models import Entry
from tournament.services import registration
from web.templatetags.money import money

pytestmark = pytest.mark.browser


def lobby_path(t, director, query: str = "") -> str:
    token = registration.create_display_token(t, actor=director, label="Lobby TV").token
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


def test_the_tvs_chip_leaders_follow_a_bust(live_asgi, browser, room, director, floor):
    """The chip leaders' TV left open through a bust: the busted leader leaves the list, and the counted line says
    one player fewer."""
    t = room
    clock_services.start_clock(t, actor=director)
    count_every_table(t, floor)
    leader = at_table(t, 2)[0]  # seat order: the first seat took the table's extra chips
    seen = left_open(browser, live_asgi, lobby_path(t, director, "?leaders=1"), lambda _page: bust(t, floor, leader), size=TV)
    assert leader.player.display_name in seen.before and leader.player.display_name not in seen.now


def test_the_tvs_chip_leaders_in_the_money_leave_out_the_bubble(live_asgi, browser, room, director, floor):
    """In the money: the bubble's bust leaves the chip leaders (it was listed on a TV left open)."""
    t = room
    clock_services.start_clock(t, actor=director)
    pay_places(director, t, 3)
    count_every_table(t, floor)
    bust_down_to(floor, t, 4)
    bubble = next(
        e
        for e in active(t)
        if e.player.display_name in visible_text(open_screen(browser, live_asgi, lobby_path(t, director, "?leaders=1"), size=TV))
    )
    seen = left_open(browser, live_asgi, lobby_path(t, director, "?leaders=1"), lambda _page: bust(t, floor, bubble), size=TV)
    assert "IN THE MONEY" in seen.now and bubble.player.display_name not in seen.now


def test_a_satellites_tv_shows_its_seat_winners_after_the_seat_bubble(live_asgi, browser, director, floor, cashier, template):
    main_event = make_main_event(director, template)
    satellite = make_satellite(director, cashier, template, main_event)
    clock_services.start_clock(satellite, actor=director)
    bust_down_to(floor, satellite, 3)
    seen = left_open(
        browser, live_asgi, lobby_path(satellite, director), lambda _page: bust(satellite, floor, active(satellite)[0]), size=TV
    )
    winners = active(satellite)
    assert all(e.player.display_name in visible_text(seen.page, "#lobby-final") for e in winners)


def test_a_flights_tv_shows_the_events_pool_and_places_paid(live_asgi, browser, director, floor, cashier, template):
    """A Day 1 flight pays no places itself: its TV shows its event's one pool (every flight's) and the places its
    Day 2 pays, live through a registration in the other flight... and in this one."""
    event, (flight_a, flight_b) = event_with(director, template)
    people = [
        registration.create_player(actor=cashier, first_name=f"F{i}", last_name="Flight", date_of_birth=date(1990, 1, 1)) for i in range(12)
    ]
    register(cashier, flight_a, people[:6])
    register(cashier, flight_b, people[6:10])
    path = lobby_path(flight_a, director)
    tv = open_screen(browser, live_asgi, path, size=TV)
    pool = flights_pool(event)["prize_pool"]
    places = payout_state(event.day2)["places_paid"]
    assert places > 0
    assert tv.inner_text(".l-pool .value") == money(pool, flight_a.currency)
    assert tv.inner_text("#lobby-places") == str(places)
    seen = left_open(browser, live_asgi, path, lambda _page: register(cashier, flight_a, people[10:11]), size=TV)
    grown = flights_pool(event)["prize_pool"]
    assert grown > pool and seen.page.inner_text(".l-pool .value") == money(grown, flight_a.currency)
    # A registration in the other flight grows the same pool: the TV left open hears it too.
    seen = left_open(browser, live_asgi, path, lambda _page: register(cashier, flight_b, people[11:12]), size=TV)
    both = flights_pool(event)["prize_pool"]
    assert both > grown and seen.page.inner_text(".l-pool .value") == money(both, flight_a.currency)


# --- the floor's screens ----------------------------------------------------------------------------------------------


def test_a_table_opened_on_the_tables_page_adds_its_row_in_place(live_asgi, browser, room, director):
    """The director opens a table on the Tables page, its shuffler token shown once; a push of the list that comes
    while the token is shown (its own, late, or another table opened by a colleague) adds the row in place: never
    "Reload the page", and the token stays."""
    t = room

    def open_tables_here_and_elsewhere(page):
        page.fill("#open-number", "3")
        page.click("#open-button")
        page.wait_for_selector("#new-token:not([hidden])")
        page.wait_for_selector('#table-list tr[data-table="3"][data-in-play]')
        table_setup.open_table(t, actor=director, number=4, seats=9)

    seen = left_open(
        browser,
        live_asgi,
        f"/t/{t.pk}/tables/",
        open_tables_here_and_elsewhere,
        size=TABLET,
        user=director.username,
        selector="#table-list",
    )
    page = seen.page
    assert page.locator("#stale").is_hidden()
    assert page.locator("#new-token").is_visible()
    assert page.locator('#table-list tr[data-table="4"][data-in-play]').count() == 1


@pytest.mark.parametrize("user", ["director", "floor"])
def test_a_table_opened_elsewhere_shows_on_the_tables_page_left_open(live_asgi, browser, room, director, floor, user):
    t = room
    staff = {"director": director, "floor": floor}[user]
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{t.pk}/tables/",
        lambda _page: table_setup.open_table(t, actor=director, number=3, seats=9),
        size=TABLET,
        user=staff.username,
    )
    assert seen.page.locator('tr[data-table="3"]').count() == 1 and seen.now == seen.fresh_now


def test_the_floor_map_left_open_through_a_bust(live_asgi, browser, room, director, floor):
    t = room
    clock_services.start_clock(t, actor=director)
    out = at_table(t, 1)[0]
    seen = left_open(
        browser, live_asgi, f"/t/{t.pk}/map/", lambda _page: bust(t, floor, out), size=TABLET, user=floor.username, selector="main"
    )
    assert seen.now == seen.fresh_now and seen.now != seen.before


def test_the_dealer_tablet_left_open_through_hand_for_hand(live_asgi, browser, room, director, floor):
    t = room
    clock_services.start_clock(t, actor=director)
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{t.pk}/tables/1/dealer/",
        lambda _page: handforhand.start_hand_for_hand(t, actor=director),
        size=TABLET,
        user=floor.username,
    )
    assert "hand-for-hand" in seen.now.lower() and "hand-for-hand" not in seen.before.lower()


def test_the_lobby_tv_left_open_through_hand_for_hand(live_asgi, browser, room, director, floor):
    t = room
    clock_services.start_clock(t, actor=director)
    seen = left_open(browser, live_asgi, lobby_path(t, director), lambda _page: handforhand.start_hand_for_hand(t, actor=director), size=TV)
    assert "hand-for-hand" in seen.now.lower() and "hand-for-hand" not in seen.before.lower()


def test_the_tournament_overview_left_open_through_a_bust(live_asgi, browser, room, director, floor):
    t = room
    clock_services.start_clock(t, actor=director)
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{t.pk}/",
        lambda _page: bust(t, floor, at_table(t, 1)[0]),
        size=TABLET,
        user=director.username,
        selector="main",
    )
    assert seen.now == seen.fresh_now and seen.now != seen.before


def test_a_players_seat_page_left_open_through_a_seat_correction(live_asgi, browser, room, director, floor):
    """A player's phone on his seat page: the floor puts him in another seat at the other table (a correction)."""
    t = room
    clock_services.start_clock(t, actor=director)
    entry = at_table(t, 1)[0]
    taken = {s.seat for s in live_seats(t).filter(table__number=2)}
    free = min(set(range(1, 10)) - taken)
    seen = left_open(
        browser,
        live_asgi,
        f"/s/{t.pk}/{entry.number}/",
        lambda _page: seats.correct_seat(entry, actor=floor, table_number=2, seat_number=free),
        size=PHONE,
        selector="main",
        leave_out=("#moved",),
    )
    assert seen.now == seen.fresh_now and str(free) in seen.now


def test_a_players_seat_page_left_open_through_a_late_draw(live_asgi, browser, room, director, cashier):
    """The seat page shows the next draw's commitment, which anyone can check the coming draw against: a late
    registration's draw uses it and commits the next, and the page left open shows the new one."""
    t = room
    entry = at_table(t, 1)[0]
    before = pending_commitment(t)

    def register_late(_page):
        late = registration.create_player(actor=cashier, first_name="Late", last_name="Comer", date_of_birth=date(1990, 1, 1))
        registration.register_entry(t, actor=cashier, player=late, document=id_doc("LATE00001"))

    seen = left_open(browser, live_asgi, f"/s/{t.pk}/{entry.number}/", register_late, size=PHONE, selector="main")
    after = pending_commitment(t)
    assert before["commitment"] in seen.before and after["draw"] > before["draw"]
    assert after["commitment"] in seen.now and before["commitment"] not in seen.now


# --- the days and the events ------------------------------------------------------------------------------------------


def test_day2s_end_of_day_page_left_open_through_the_start_of_play(live_asgi, browser, director, cashier, floor, template, players):
    """An event's Day 2 page before play ("Day 2 · not begun", nothing missing), left open while the clock starts:
    Day 2 is played, its carried players' bags are missing, as a fresh load says."""
    event, _a, _b = carried_event(director, cashier, floor, template, players)
    day2 = event.day2
    table_setup.open_table(day2, actor=director, number=1, seats=9)
    draws.draw_start(day2, actor=director)
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{day2.pk}/day/",
        lambda _page: clock_services.start_clock(day2, actor=director),
        size=TABLET,
        user=floor.username,
        selector="main",
    )
    assert "Day 2 · playing" in seen.now and "Day 2 · playing" not in seen.before


def test_the_event_page_left_open_through_a_registration_in_a_flight(live_asgi, browser, director, cashier, template):
    event, (flight_a, _b) = event_with(director, template)
    people = [
        registration.create_player(actor=cashier, first_name=f"E{i}", last_name="Event", date_of_birth=date(1990, 1, 1)) for i in range(3)
    ]
    register(cashier, flight_a, people[:2])
    seen = left_open(
        browser,
        live_asgi,
        f"/events/{event.pk}/",
        lambda _page: register(cashier, flight_a, people[2:]),
        size=TABLET,
        user=director.username,
        selector="main",
    )
    pool = money(flights_pool(event)["prize_pool"], flight_a.currency)
    assert seen.now == seen.fresh_now and pool in seen.now and pool not in seen.before


# --- the director's and the floor's other live pages ------------------------------------------------------------------


def test_the_director_clock_left_open_through_a_pause(live_asgi, browser, room, director):
    t = room
    clock_services.start_clock(t, actor=director)
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{t.pk}/clock/",
        lambda _page: clock_services.pause_clock(t, actor=director),
        size=TABLET,
        user=director.username,
        selector="main",
    )
    assert "paused" in seen.now.lower() and seen.now == seen.fresh_now


def test_the_event_log_left_open_through_a_bust(live_asgi, browser, room, director, floor):
    t = room
    out = at_table(t, 1)[0]
    seen = left_open(
        browser, live_asgi, f"/t/{t.pk}/events/", lambda _page: bust(t, floor, out), size=TABLET, user=director.username, selector="main"
    )
    assert seen.now.count(out.player.display_name) > seen.before.count(out.player.display_name)


def test_the_penalties_page_left_open_through_a_penalty(live_asgi, browser, room, director, floor):
    t = room
    offender = at_table(t, 1)[0]
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{t.pk}/penalties/",
        lambda _page: penalties.give_penalty(
            t, actor=floor, entry_number=offender.number, kind="warning", rounds=None, reason="Abusive language"
        ),
        size=TABLET,
        user=floor.username,
        selector="main",
    )
    assert "Abusive language" in seen.now and "Abusive language" not in seen.before


def test_the_tables_page_left_open_through_a_breaks_last_slip(live_asgi, browser, director, cashier, floor, tournament):
    """Nineteen players at three tables of nine: a bust breaks one, and confirming its last slip breaks the table; the
    Tables page left open shows it out of play, as a fresh load does."""
    start(director, cashier, tournament, 19, table_numbers=(1, 2, 3))
    busts.bust_entry(at_table(tournament, 1)[0], actor=floor)
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{tournament.pk}/tables/",
        lambda _page: confirm_all(floor, tournament),
        size=TABLET,
        user=director.username,
        selector="#table-list",
    )
    broken = Table.objects.get(tournament=tournament, in_play=False)
    assert seen.page.locator(f'#table-list tr[data-table="{broken.number}"][data-in-play]').count() == 0
    assert seen.now == seen.fresh_now and seen.now != seen.before


def test_the_tables_page_left_open_through_the_final_tables_redraw(live_asgi, browser, room, director, floor):
    """Two tables of six: down to nine, the final table is drawn and the other table breaks with it."""
    t = room
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{t.pk}/tables/",
        lambda _page: [bust(t, floor, at_table(t, 1)[0]) for _ in range(3)],
        size=TABLET,
        user=director.username,
        selector="#table-list",
    )
    assert Table.objects.filter(tournament=t, in_play=True).count() == 1
    assert seen.now == seen.fresh_now and seen.now != seen.before
