"""A sold-out tournament's waiting list on the players' side, in a real browser: the lobby TV and the players' board left
open while a bust offers a seat to alternate 1, his own seat page, and the desk confirming he sat down. The TV says
"Sold out · N on the waiting list" and the call "Alternate 1: table T seat S · sit down by HH:MM" (highlighted as new, as
a TV loaded fresh then says it too); the board tells alternate 1 he is called and alternate 2 that he is next; the seat
page of his entry says where to sit and by when; once he sat down the call is gone everywhere. No page is reloaded."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest
from playwright.sync_api import expect

from tables.models import Seat, Table
from tables.selectors.state import live_seats
from tables.services import busts, draws
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.sizes import PHONE, TV
from tests.helpers import register
from tests.tournament.test_waiting_list import fixed_room, join
from tournament.models import WaitingPlace
from tournament.services import registration, waiting_list

pytestmark = pytest.mark.browser

GONE = "Not waiting any more: seated, or off the list. If you have no seat, ask the desk."


def opened(browser, base: str, path: str, size: dict):
    """A page of its own at `size`, its errors watched, once its socket's first snapshot came; marked (a reload loses it)."""
    page = browser.new_context(viewport=size, locale="en").new_page()
    errors = watch_errors(page)
    page.goto(base + path)
    page.wait_for_selector("#live.live")
    page.evaluate("window.keptOpen = true")
    return page, errors


def said(page, selector: str) -> str:
    return " ".join(page.inner_text(selector).replace("\u00a0", " ").split())


def test_a_seat_offered_to_alternate_1_shows_on_the_tv_the_board_and_his_seat_page_live(
    live_asgi, browser, director, floor, cashier, tournament
):
    base, t = live_asgi, tournament
    fixed_room(director, [1, 2])  # two tables of six: twelve players fill the room
    register(cashier, t, 12)
    draws.draw_start(t, actor=director)
    for table in Table.objects.filter(tournament=t):
        draws.draw_button(table, actor=director)  # the seat offered then has its position
    for i in (1, 2, 3):
        join(cashier, t, i)

    token = registration.create_display_token(t, actor=director, label="Lobby TV").token
    tv, tv_errors = opened(browser, base, f"/display/{token}/", TV)
    expect(tv.locator("#lobby-alt-head")).to_have_text("Sold out \u00b7 3 on the waiting list")
    assert tv.is_hidden("#lobby-alt-calls")
    first_board, first_errors = opened(browser, base, f"/t/{t.pk}/waiting/?n=1", PHONE)
    second_board, second_errors = opened(browser, base, f"/t/{t.pk}/waiting/?n=2", PHONE)
    expect(first_board.locator("#wb-mine")).to_contain_text("You are next in line.")
    expect(second_board.locator("#wb-mine")).to_contain_text("You are 2nd in line.")
    expect(second_board.locator("#wb-waiting")).to_have_text("1, 2, 3")

    # A player busts: his seat goes to alternate 1, seated by the late-entry draw.
    out = live_seats(t).select_related("table").first()
    busts.bust_entry(out.entry, actor=floor)
    place = WaitingPlace.objects.select_related("entry").get(tournament=t, number=1)
    seat = Seat.objects.select_related("table").get(entry=place.entry, ended_at__isnull=True)
    where = f"table {seat.table.number} seat {seat.seat}"
    by = (place.offered_at + timedelta(minutes=t.alternate_minutes)).astimezone(ZoneInfo(t.time_zone)).strftime("%H:%M")

    # The TV left open: the call in large type, new (highlighted, and said so), and one fewer waiting.
    call = tv.locator("#lobby-alt-calls li").first
    expect(call).to_contain_text(f"Alternate 1: {where}", timeout=8000)
    expect(call).to_contain_text(f"sit down by {by}")
    expect(call).to_have_class("l-alt-call is-new")
    expect(call.locator(".l-alt-new")).to_have_text("New")
    expect(tv.locator("#lobby-alt-head")).to_have_text("Sold out \u00b7 2 on the waiting list")
    if place.position == "wait_for_button":
        expect(call).to_contain_text("wait for the button")
    # A TV loaded now says the same (the highlight is a matter of the server's time, not of the TV).
    fresh, fresh_errors = opened(browser, base, f"/display/{token}/", TV)
    expect(fresh.locator("#lobby-alt-calls li .l-alt-new")).to_have_text("New")
    assert said(fresh, "#lobby-alternates") == said(tv, "#lobby-alternates")

    # The board left open: alternate 1 is called, alternate 2 is next.
    expect(first_board.locator("#wb-mine")).to_contain_text(f"Called: {where}, sit down by {by}", timeout=8000)
    expect(first_board.locator("#wb-mine")).to_have_class("wb-mine is-called")
    expect(first_board.locator("#wb-calls li").first).to_contain_text(f"Alternate 1: {where}")
    expect(second_board.locator("#wb-mine")).to_contain_text("You are next in line.")
    expect(second_board.locator("#wb-waiting")).to_have_text("2, 3")

    # His seat page, by his entry number: where to sit, and by when.
    phone, phone_errors = opened(browser, base, f"/s/{t.pk}/{place.entry.number}/", PHONE)
    expect(phone.locator("#seat-alternate")).to_be_visible()
    assert said(phone, "#alt-line") == f"Alternate 1: {where} \u2014 sit down by {by}"
    assert phone.is_visible("#alt-wait") == (place.position == "wait_for_button")
    assert (said(phone, "#seat-table"), said(phone, "#seat-seat")) == (str(seat.table.number), str(seat.seat))

    # The desk: he sat down. The call is gone from every screen; his page is a player's like any other.
    waiting_list.seat(place, actor=cashier)
    expect(phone.locator("#seat-alternate")).to_be_hidden(timeout=8000)
    expect(phone.locator("#seat-boxes")).to_be_visible()
    expect(tv.locator("#lobby-alt-calls")).to_be_hidden(timeout=8000)
    expect(tv.locator("#lobby-alt-head")).to_have_text("Sold out \u00b7 2 on the waiting list")
    expect(first_board.locator("#wb-mine")).to_contain_text(GONE, timeout=8000)
    expect(first_board.locator("#wb-no-calls")).to_be_visible()

    pages = ((tv, tv_errors), (fresh, fresh_errors), (first_board, first_errors), (second_board, second_errors), (phone, phone_errors))
    for page, errors in pages:
        assert page.evaluate("window.keptOpen === true")  # never reloaded
        assert not csp_problems(page, errors), csp_problems(page, errors)


def test_the_board_shows_a_number_typed_without_reloading_and_keeps_it_in_its_address(live_asgi, browser, director, cashier, tournament):
    t = tournament
    fixed_room(director, [1])
    register(cashier, t, 6)
    draws.draw_start(t, actor=director)
    for i in (1, 2, 3, 4, 5):
        join(cashier, t, i)
    board, errors = opened(browser, live_asgi, f"/t/{t.pk}/waiting/", PHONE)
    assert board.is_hidden("#wb-mine")
    expect(board.locator("#wb-state")).to_have_text("Sold out \u00b7 5 on the waiting list")
    board.fill("#wb-number", "4")
    board.click("#wb-form button")
    expect(board.locator("#wb-mine")).to_contain_text("You are 4th in line.")
    assert board.url.endswith(f"/t/{t.pk}/waiting/?n=4") and board.evaluate("window.keptOpen === true")
    board.fill("#wb-number", "9")
    board.press("#wb-number", "Enter")
    expect(board.locator("#wb-mine")).to_contain_text(GONE)
    expect(board.locator("#wb-mine")).to_have_class("wb-mine is-gone")
    assert not csp_problems(board, errors), csp_problems(board, errors)


def test_the_board_reads_the_list_again_when_its_socket_comes_back(restartable_asgi, browser, director, cashier, tournament):
    """What changed while the board's socket was down (the server restarted) reaches it with the next connection's
    snapshot: it reads the list again, with no reload."""
    t = tournament
    fixed_room(director, [1])
    register(cashier, t, 6)
    draws.draw_start(t, actor=director)
    join(cashier, t, 1)
    board, errors = opened(browser, restartable_asgi.url, f"/t/{t.pk}/waiting/?n=2", PHONE)
    expect(board.locator("#wb-mine")).to_contain_text(GONE)
    restartable_asgi.stop()
    join(cashier, t, 2)  # no socket hears it
    restartable_asgi.start()
    expect(board.locator("#wb-mine")).to_contain_text("You are 2nd in line.", timeout=40000)
    expect(board.locator("#wb-waiting")).to_have_text("1, 2")
    assert board.evaluate("window.keptOpen === true")
    assert not [e for e in csp_problems(board, errors) if "WebSocket" not in e], csp_problems(board, errors)
