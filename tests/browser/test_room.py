"""The room map in a real browser: a Main Event and a side event sharing the venue's tables; the floor watches a table
break in the Main Event go back to the venue live, hands it to the side event from the map, and is told in the API's
words why a table in play cannot close. The desk reads the same map without the floor's form; a player finds his seat
on the page of the day. Axe-clean, no CSP or console error, fits a tablet and a phone."""

from __future__ import annotations

from functools import partial

import pytest
from django.utils import timezone

from tables.models import Move
from tables.selectors.state import live_seats
from tables.services import busts, draws, moves
from tests.browser import accessibility, sizes
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.sizes import TABLET
from tests.conftest import tournament_data
from tests.helpers import register
from tournament.models import Entry
from tournament.services import setup
from venues.models import VenueTable
from venues.services import setup as venue_setup

pytestmark = pytest.mark.browser

fits = partial(sizes.fits, prefix="room")


def said(page, before: str = "") -> str:
    """What the page says (the API's answer or refusal), once it says something other than `before`."""
    page.wait_for_function(
        "(before) => { const s = document.querySelector('[data-api-say]'); return s && !s.hidden && s.textContent !== before; }", arg=before
    )
    return page.inner_text("[data-api-say]")


def card(number: int, state: str) -> str:
    return f'.rm-table[data-number="{number}"].rm-{state}'


def test_the_floor_follows_a_table_breaking_live_and_hands_it_to_the_side_event(live_asgi, browser, director, floor, cashier, template):
    base = live_asgi
    venue = venue_setup.default_venue()
    room_file = "number,area,seats\n" + "\n".join(f"{n},{'Main hall' if n <= 4 else 'Side room'},9" for n in range(1, 7))
    venue_setup.import_room(venue, actor=director, text=room_file)
    main = setup.create_tournament(tournament_data(name="Main Event"), actor=director, template=template)
    side = setup.create_tournament(tournament_data(name="Side Event", start_at=timezone.now()), actor=director, template=template)
    register(cashier, main, 27)
    draws.draw_start(main, actor=director)  # 27 players: tables 1, 2 and 3 of the Main hall
    assert sorted(VenueTable.objects.filter(table__tournament=main).values_list("number", flat=True)) == [1, 2, 3]

    page = browser.new_context(viewport=TABLET).new_page()
    errors = watch_errors(page)
    login(page, base, floor.username)
    page.goto(f"{base}/room/")
    page.wait_for_selector("#live.live")
    assert page.inner_text(card(1, "held") + " .rm-what") == "Main Event"
    assert page.inner_text(card(1, "held") + " .rm-facts") == "9 players · 9 seats"
    assert page.inner_text("#rm-counts") == "3 free · 3 in play · 0 reserved · 0 out of service · 0 cash games"
    assert accessibility.problems(page) == []
    assert fits(page, "room") == []

    # Nine busts in the Main Event: 18 players fit two tables, table 3 breaks, its players move, it goes back to the venue.
    at = {n: [s.entry_id for s in live_seats(main).filter(table__number=n)] for n in (1, 3)}
    for pk in at[3][:5] + at[1][:4]:
        busts.bust_entry(Entry.objects.get(pk=pk), actor=floor)
        while pending := list(Move.objects.filter(tournament=main, status=Move.Status.PENDING).order_by("number")):
            for move in pending:
                moves.confirm_move(main, actor=floor, number=move.number)
    page.wait_for_selector(card(3, "free"))  # live: no reload
    assert page.inner_text("#rm-counts") == "4 free · 2 in play · 0 reserved · 0 out of service · 0 cash games"

    # The floor hands table 3 to the side event from the map.
    page.click(card(3, "free"))
    assert page.input_value("#rm-number") == "3"
    page.select_option("#rm-action", "hand")
    page.select_option("#rm-for", str(side.pk))
    page.click("#rm-act-go")
    assert said(page) == "Table 3: done."
    page.wait_for_selector(card(3, "held"))
    assert page.inner_text(card(3, "held") + " .rm-what") == "Side Event"
    assert VenueTable.objects.get(number=3).table.tournament == side

    # A table in play does not close: the API's words.
    page.click(card(1, "held"))
    page.select_option("#rm-action", "out_of_service")
    page.fill("#rm-reason", "Felt torn")
    page.click("#rm-act-go")
    assert said(page, "Table 3: done.") == "Table 1 is in play (Main Event): close it once it breaks."
    assert VenueTable.objects.get(number=1).status == "open"

    # Filtered by tournament: the side event's table only.
    page.select_option("#rm-tournament", str(side.pk))
    page.click("#rm-filter-go")
    page.wait_for_url(f"{base}/room/?tournament={side.pk}")
    assert page.eval_on_selector_all(".rm-table", "els => els.map(e => e.dataset.number)") == ["3"]
    assert accessibility.problems(page) == []
    assert [p for p in csp_problems(page, errors) if "status of 409" not in p] == []  # the refusal above is an answer

    desk = browser.new_context(viewport=sizes.PHONE).new_page()
    login(desk, base, cashier.username)
    desk.goto(f"{base}/room/")
    desk.wait_for_selector(card(3, "held"))
    assert desk.query_selector("#rm-act") is None  # the desk reads the room; the floor acts on it
    assert fits(desk, "room_desk", (sizes.PHONE,)) == []

    # A player's phone: today's events, and his seat found in any of them.
    phone = browser.new_context(viewport=sizes.PHONE).new_page()
    phone_errors = watch_errors(phone)
    phone.goto(f"{base}/today/")
    assert "Main Event" in phone.inner_text("#events") and "Side Event" in phone.inner_text("#events")
    phone.fill("#q", "P20")
    phone.click("#today-search button")
    phone.wait_for_selector("#found")
    assert phone.inner_text("#found").startswith("Main Event · #21 · P20 Test")
    assert accessibility.problems(phone) == []
    assert fits(phone, "today", (sizes.PHONE, sizes.TABLET)) == []
    assert csp_problems(phone, phone_errors) == []
