"""A festival afternoon in a real browser: a Main Event and a side event share the room, a sit & go waits for a table;
a table breaks in the Main Event, goes back to the venue, and the sit & go that fills takes it and plays to its winner,
who gives it back. The floor's room map and the room TV follow every step live, without a reload: the TV's cards (the
clock, players left, registration open, sold out, the sit & go's seats taken) and today's schedule. The room TV is
axe-clean, has no CSP or console error, and fits a TV, a tablet and a phone; its link revoked, it goes blank."""

from __future__ import annotations

from datetime import datetime, time
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from clock.services import clock
from tables.models import Move
from tables.selectors.state import live_seats
from tables.services import busts, draws, moves
from tests.browser import accessibility, sizes
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.conftest import tournament_data
from tests.helpers import register
from tournament.models import Entry, Tournament
from tournament.services import setup
from venues.models import SitAndGo, VenueTable
from venues.services import displays, sit_and_go
from venues.services import setup as venue_setup

pytestmark = pytest.mark.browser

ZONE = ZoneInfo("Europe/Bratislava")  # the events' time zone (tournament_data)


def at(hour: int) -> datetime:
    """A time of today where the events are played: they are today's schedule."""
    return datetime.combine(timezone.now().astimezone(ZONE).date(), time(hour), tzinfo=ZONE)


def card_of(page, name: str) -> str:
    """The TV's card of a tournament, as its text reads."""
    script = "(cards, name) => (cards.find(c => c.querySelector('.rt-name').textContent === name) || {}).innerText || ''"
    return page.eval_on_selector_all(".rt-card", script, name)


def wait_card(page, name: str, words: str) -> None:
    page.wait_for_function(
        "([name, words]) => [...document.querySelectorAll('.rt-card')].some(c => c.querySelector('.rt-name').textContent === name "
        "&& c.innerText.includes(words))",
        arg=[name, words],
    )


def table_card(number: int, state: str) -> str:
    return f'.rm-table[data-number="{number}"].rm-{state}'


def play_off(t: Tournament, floor, entries) -> None:
    """Busts, every slip they make confirmed at once (a table that breaks gives its table back)."""
    for entry in entries:
        busts.bust_entry(Entry.objects.get(pk=entry), actor=floor)
        while pending := list(Move.objects.filter(tournament=t, status=Move.Status.PENDING).order_by("number")):
            for move in pending:
                moves.confirm_move(t, actor=floor, number=move.number)


def test_a_festival_afternoon_on_the_room_map_and_the_room_tv(live_asgi, browser, director, floor, cashier, template):
    base = live_asgi
    venue = venue_setup.default_venue()
    room_file = "number,area,seats\n" + "\n".join(f"{n},{'Main hall' if n <= 3 else 'Side room'},9" for n in range(1, 5))
    venue_setup.import_room(venue, actor=director, text=room_file)

    def event(name: str, hour: int, **data) -> Tournament:
        return setup.create_tournament(tournament_data(name=name, start_at=at(hour), **data), actor=director, template=template)

    main = event("Main Event", 1, late_reg_until_level=6)
    side = event("Side Event", 2)
    sng = event("Turbo SNG", 3, seats_per_table=6)
    sit_and_go.set_sit_and_go(sng, actor=director, players=6, opens_next=True)
    register(cashier, main, 25)
    draws.draw_start(main, actor=director)  # tables 1, 2 and 3 of the Main hall, two seats open
    clock.start_clock(main, actor=director)
    register(cashier, side, 9, start=30)
    draws.draw_start(side, actor=director)  # table 4, the last free one: every seat taken
    register(cashier, sng, 5, start=50)  # five of its six: it waits
    link = displays.create_display(venue, actor=director, label="Room TV")

    tv = browser.new_context(viewport=sizes.TV).new_page()
    errors = watch_errors(tv)
    tv.goto(f"{base}/display/room/{link.token}/")
    tv.wait_for_selector("#live.live")
    assert tv.eval_on_selector_all(".rt-card .rt-name", "els => els.map(e => e.textContent)") == ["Main Event", "Side Event"]
    main_card = card_of(tv, "Main Event")
    assert "LEVEL 1" in main_card and "100 / 200" in main_card and "25 / 25" in main_card and "20,000" in main_card
    assert "Registration open until the end of level 6" in main_card
    assert "Sold out" in card_of(tv, "Side Event")  # nine players at its one table, and no table free in the room
    schedule = tv.inner_text("#rt-schedule")
    assert "Turbo SNG" in schedule and "Sit & go: 5 of 6 seats taken, starts when full" in schedule
    first = int(tv.get_attribute(".rt-card .rt-time", "data-remaining"))
    tv.wait_for_function("(first) => Number(document.querySelector('.rt-card .rt-time').dataset.remaining) < first - 900", arg=first)
    assert accessibility.problems(tv) == []

    floor_page = browser.new_context(viewport=sizes.TABLET).new_page()
    login(floor_page, base, floor.username)
    floor_page.goto(f"{base}/room/")
    floor_page.wait_for_selector("#live.live")
    assert floor_page.inner_text("#rm-counts") == "0 free · 4 in play · 0 reserved · 0 out of service · 0 cash games"
    phone = browser.new_context(viewport=sizes.PHONE).new_page()  # the players' page of the day, left open too
    phone_errors = watch_errors(phone)
    phone.goto(f"{base}/today/")
    assert "Turbo SNG" in phone.inner_text("#events")

    # Seven busts in the Main Event: 18 players fit two tables, table 3 breaks and goes back to the venue; the side
    # event is no longer sold out.
    at_table = {n: [s.entry_id for s in live_seats(main).filter(table__number=n)] for n in (1, 3)}
    play_off(main, floor, at_table[3][:5] + at_table[1][:2])
    floor_page.wait_for_selector(table_card(3, "free"))
    wait_card(tv, "Main Event", "18 / 25")
    wait_card(tv, "Side Event", "Registration open until the end of level 4")

    # The sixth player of the sit & go: it starts at table 3, the only free one; the next of its series opens.
    register(cashier, sng, 1, start=55)
    floor_page.wait_for_selector(table_card(3, "held"))
    assert floor_page.inner_text(table_card(3, "held") + " .rm-what") == "Turbo SNG"
    wait_card(tv, "Turbo SNG", "6 / 6")
    tv.wait_for_function("() => document.querySelector('#rt-schedule').innerText.includes('Turbo SNG #2')")
    # The floor's lists follow: the next of the series can be handed or reserved a table from the map left open.
    floor_page.wait_for_function("() => [...document.querySelectorAll('#rm-for option')].some(o => o.textContent === 'Turbo SNG #2')")
    wait_card(tv, "Side Event", "Sold out")
    assert VenueTable.objects.get(number=3).table.tournament == sng

    # The next of the series fills while no table is free: it waits, and the schedule says so.
    following = SitAndGo.objects.get(tournament=sng).next.tournament
    register(cashier, following, 6, start=60)
    tv.wait_for_function("() => document.querySelector('#rt-schedule').innerText.includes('Sit & go full: waits for a free table')")

    # The sit & go plays to its winner: its table goes back to the venue, its card leaves the TV, the schedule says so.
    play_off(sng, floor, [s.entry_id for s in live_seats(sng).order_by("entry__number")][:5])
    assert Tournament.objects.get(pk=sng.pk).status == Tournament.Status.FINISHED
    floor_page.wait_for_selector(table_card(3, "free"))
    tv.wait_for_function("() => ![...document.querySelectorAll('.rt-card .rt-name')].some(e => e.textContent === 'Turbo SNG')")
    assert tv.eval_on_selector_all("#rt-schedule li.finished .nm", "els => els.map(e => e.textContent)") == ["Turbo SNG"]
    wait_card(tv, "Side Event", "Registration open until the end of level 4")
    phone.wait_for_function(  # the page of the day left open says what a fresh load says
        "() => [...document.querySelectorAll('.today-event')]"
        ".some(li => li.querySelector('strong').textContent === 'Turbo SNG' && li.innerText.includes('Finished'))"
    )
    assert csp_problems(phone, phone_errors) == []

    assert accessibility.problems(tv) == []
    assert sizes.fits(tv, "room_tv", (sizes.TV, sizes.TABLET, sizes.PHONE), prefix="room_tv") == []
    assert csp_problems(tv, errors) == []

    # Its link revoked: the screen goes blank at once.
    displays.revoke_display(link, actor=director)
    tv.wait_for_function("() => !document.querySelector('.rt-card')")


def test_more_tournaments_than_the_screen_holds_turn_in_pages(live_asgi, browser, director, cashier, template):
    venue = venue_setup.default_venue()
    venue_setup.import_room(venue, actor=director, text="number,area,seats\n" + "\n".join(f"{n},Hall,9" for n in range(1, 11)))
    for i in range(8):
        t = setup.create_tournament(tournament_data(name=f"Event {i + 1}", start_at=at(1 + i)), actor=director, template=template)
        register(cashier, t, 2, start=10 * i)
        draws.draw_start(t, actor=director)
    link = displays.create_display(venue, actor=director, label="Room TV")
    tv = browser.new_context(viewport=sizes.TABLET).new_page()
    tv.goto(f"{live_asgi}/display/room/{link.token}/")
    tv.wait_for_selector("#live.live")
    per_page = tv.evaluate("window.roomTv.perPage")
    assert 1 < per_page < 8 and len(tv.query_selector_all(".rt-card")) == per_page
    assert tv.inner_text("#rt-page") == f"Page 1 of {-(-8 // per_page)}"
    first = tv.eval_on_selector_all(".rt-card .rt-name", "els => els.map(e => e.textContent)")
    tv.wait_for_function("() => window.roomTv.page === 1", timeout=16_000)  # the next page after 12 seconds
    second = tv.eval_on_selector_all(".rt-card .rt-name", "els => els.map(e => e.textContent)")
    assert first == [f"Event {i + 1}" for i in range(per_page)] and second[0] == f"Event {per_page + 1}"
    assert sizes.fits(tv, "room_tv_pages", (sizes.TABLET, sizes.PHONE), prefix="room_tv") == []
