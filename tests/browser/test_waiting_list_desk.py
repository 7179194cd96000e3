"""A sold-out tournament's waiting list at the desk and on the floor, in a real browser: the cashier puts a player on the
list through the registration page, which sends him to the list page; left open, that page shows the seat a bust
offered him (table and seat, read again from the API when the live stream tells of it) without a reload, and "Sat
down" closes his place. The floor's page seats by hand, passes over a no-show and takes a place off the list, each
press confirmed first."""

from __future__ import annotations

import pytest

from tables.models import Seat
from tables.selectors.state import live_seats
from tables.services import busts, draws
from tests.browser.conftest import login
from tests.helpers import register, said
from tests.tournament.test_waiting_list import fixed_room, join, newcomer
from tournament.models import WaitingPlace

pytestmark = pytest.mark.browser

TABLET = {"width": 1180, "height": 820}


@pytest.fixture
def sold_out(director, cashier, tournament):
    """A fixed room of two tables of six, twelve players seated by the start draw: every seat taken (as
    tests/tournament/test_waiting_list.py's sold_out_room)."""
    fixed_room(director, [1, 2])
    register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    return tournament


def waiting_page(browser, base, user, t, viewport=TABLET):
    page = browser.new_context(viewport=viewport, locale="en").new_page()
    login(page, base, user.username)
    page.goto(f"{base}/t/{t.pk}/waiting-list/")
    page.wait_for_selector("#live.live")
    return page


def test_the_desk_puts_a_player_on_the_list_and_sees_his_seat_offered_live(browser, live_asgi, floor, cashier, sold_out):
    t = sold_out
    player = newcomer(cashier, 1)
    page = browser.new_context(viewport=TABLET, locale="en").new_page()
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    login(page, live_asgi, cashier.username)
    page.goto(f"{live_asgi}/t/{t.pk}/register/?player={player.pk}")
    assert "Sold out" in page.inner_text("#sold-out") and page.inner_text("#register-button") == "Put on the waiting list"
    page.select_option("#id_document_type", "id_card")
    page.fill("#id_document_number", "WL0000001")
    page.check("#id_seen")
    page.click("#register-button")
    page.wait_for_url(f"{live_asgi}/t/{t.pk}/waiting-list/")
    said(page, f"{player.display_name} is on the waiting list: alternate 1.")
    place = WaitingPlace.objects.get(tournament=t)
    assert (place.number, place.state, place.player_id) == (1, "waiting", player.pk)
    row = page.locator("#place-1")
    assert player.display_name in row.inner_text() and "next in line" in row.inner_text()
    page.wait_for_selector("#live.live")
    page.evaluate("window.__notReloaded = true")

    # A bust on the floor: the seat goes to alternate 1 by the late-entry draw; the page left open shows it.
    out = live_seats(t).select_related("table").first()
    busts.bust_entry(out.entry, actor=floor)
    where = f"Table {out.table.number}, seat {out.seat}"
    page.wait_for_function("(where) => (document.querySelector('#place-1') || {}).textContent.includes(where)", arg=where, timeout=10000)
    place.refresh_from_db()
    assert place.state == "offered" and page.get_attribute("#place-1", "data-state") == "offered"
    assert f"entry #{place.entry.number}" in row.inner_text() and "sit down by" in row.inner_text()
    assert "Sold out" in page.inner_text("#cap-state") and page.inner_text("#cap-offered") == "1"
    assert page.query_selector("#pass-1") is None  # passing over is the floor's
    assert page.evaluate("window.__notReloaded") is True

    # He sat down: asked first, then his place is closed and leaves the list.
    page.click("#seat-1")
    said(page, f"Alternate 1, {player.display_name}, sat down.")
    assert asked == [f"Alternate 1, {player.display_name}, has sat down at his seat? His place on the list is closed."]
    page.wait_for_selector("#place-1", state="detached")
    assert page.is_visible("#no-places")
    place.refresh_from_db()
    assert place.state == "seated" and Seat.objects.filter(entry=place.entry, ended_at__isnull=True).exists()


def test_the_floor_seats_by_hand_passes_over_a_no_show_and_takes_a_place_off(browser, live_asgi, floor, cashier, sold_out):
    t = sold_out
    first, second = join(cashier, t, 1), join(cashier, t, 2)
    page = waiting_page(browser, live_asgi, floor, t, viewport={"width": 390, "height": 844})  # a phone in the hand
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    page.wait_for_selector("#place-2")

    # Every seat is taken: seating by hand is refused, with the reason.
    page.click("#offer-go")
    said(page, "Every seat is taken: an alternate is seated when a player busts or a table opens.")
    assert asked[-1].startswith("Seat the next alternate now?")

    busts.bust_entry(live_seats(t).first().entry, actor=floor)
    page.wait_for_selector("#place-1[data-state=offered]", timeout=10000)
    page.click("#pass-1")
    said(page, f"Alternate 1, {first.player.display_name}, is passed over.")
    assert "This cannot be undone." in asked[-1]
    page.wait_for_selector("#place-1", state="detached")
    page.wait_for_selector("#place-2[data-state=offered]", timeout=10000)  # the seat went to the next
    second.refresh_from_db()
    seat = Seat.objects.select_related("table").get(entry=second.entry, ended_at__isnull=True)
    page.wait_for_function(
        "(where) => document.querySelector('#place-2').textContent.includes(where)", arg=f"Table {seat.table.number}, seat {seat.seat}"
    )

    page.click("#cancel-open-2")
    page.fill("#cancel-reason-2", "Went home")
    page.click("#cancel-2")
    page.wait_for_function(
        "(text) => document.querySelector('[data-api-say]').textContent.startsWith(text)",
        arg=f"Alternate 2, {second.player.display_name}, is off the list.",
    )
    assert page.inner_text("[data-api-say]").endswith("Give back EUR\u00a0115.")  # offered, he had paid: his money back
    assert asked[-1] == f"Take alternate 2, {second.player.display_name}, off the list? This cannot be undone."
    page.wait_for_selector("#no-places:not([hidden])")
    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.state, second.state, second.close_reason) == ("passed", "cancelled", "Went home")
