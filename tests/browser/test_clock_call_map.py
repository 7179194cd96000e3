"""Calling the clock on a player from the floor map (club 11, TDA 25), in a real browser: the seat's dialog calls it;
the API has the call and the table's card a badge counting his time down against the server's time; a second call
at the table is refused with the server's message; from the badge the floor ends it ("Called in error": the badge
goes, the API answers 204). A call made elsewhere (through the service, as from the dealer's tablet) shows on the
map live; once time is up the badge says "Hand dead" and the dialog offers "Hand dead" instead of "He acted". The
dialog is clean for axe and fits a tablet and a phone."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from tables.models import ClockCall, Table
from tables.services import clock_calls
from tests.browser import accessibility, sizes
from tests.browser.sizes import PHONE, by_device, shot
from tests.browser.test_seating import staff_page
from tests.helpers import client_for, clock_call_answer, seats_at

pytestmark = pytest.mark.browser

SHOTS = "clock_call_map"  # with SCREEN_SHOTS set: /tmp/clock_call_map_<label>.png, to look at by eye

NOTICE = "(m) => document.getElementById('notice').textContent === m"
BADGE = '.m-table[data-table="{}"] .m-clock'


def badge_text(page, number: int) -> str:
    return page.inner_text(BADGE.format(number)).strip()


def fits(page, name: str) -> None:
    """The open dialog and the page: no overflow on the tablet, nor on the phone (the map's tables too); the phone
    shot to <name>_phone when asked for."""

    def selector(size: dict) -> str:
        return "dialog[open], .m-table" if size == PHONE else "dialog[open]"

    assert sizes.fits(page, name, prefix=SHOTS, selector=selector, wait=200, shots=by_device(whole=(), tablet=None)) == []


def test_the_floor_calls_the_clock_and_ends_it_on_the_map(live_asgi, browser, floor, room):
    t, players = room, seats_at(room, 1)
    one = players[2]
    page = staff_page(browser, live_asgi, floor.username, f"/t/{t.pk}/map/")
    page.wait_for_selector("#map .m-table")
    page.wait_for_selector("#live.live")
    assert page.query_selector(".m-clock") is None

    page.click(f'.m-seat[data-entry="{one.entry.number}"]')
    page.wait_for_selector("#seat-dialog[open]")
    assert page.inner_text("#clock-call-go") == "Call the clock"
    assert accessibility.problems(page) == []
    page.click("#clock-call-go")
    name = one.entry.player.display_name
    page.wait_for_function(NOTICE, arg=f"Table 1: the clock is called on seat {one.seat} ({name}), 60 s to act.")
    assert page.is_hidden("#seat-dialog")

    answer = clock_call_answer(client_for(floor), t, 1)
    assert answer.status_code == 200
    call = answer.json()
    assert (call["seat"], call["entry"], call["seconds"], call["time_up"]) == (one.seat, one.entry.number, 60, False)

    # The badge counts down (m:ss), against the server's time.
    page.wait_for_selector(BADGE.format(1))
    first = badge_text(page, 1)
    assert re.fullmatch(rf"Clock: seat {one.seat} · (1:00|0:5\d)", first), first
    page.wait_for_function("([sel, was]) => document.querySelector(sel).textContent !== was", arg=[BADGE.format(1), first], timeout=3000)
    assert page.evaluate("window.floorMap.conn.sync.known")
    assert page.get_attribute(BADGE.format(1), "class") == "m-clock"  # not "up": time is left
    shot(page, SHOTS, "badge_tablet")

    # A second call at the table is refused: the server's words are said.
    other = players[4]
    page.click(f'.m-seat[data-entry="{other.entry.number}"]')
    page.wait_for_selector("#seat-dialog[open]")
    page.click("#clock-call-go")
    page.wait_for_function(NOTICE, arg=f"The clock is already called at table 1 (seat {one.seat}): end that call first.")
    assert page.get_attribute("#notice", "role") == "alert"
    assert ClockCall.objects.filter(ended_at__isnull=True).count() == 1

    # From the badge (a button, by keyboard): the dialog offers "He acted" and "Called in error", not "Hand dead".
    page.focus(BADGE.format(1))
    page.keyboard.press("Enter")
    page.wait_for_selector("#clock-dialog[open]")
    assert page.inner_text("#clock-title") == f"Table 1: clock called on seat {one.seat}"
    assert re.fullmatch(r"0:[0-5]\d left to act\.|1:00 left to act\.", page.inner_text("#clock-left"))
    assert page.is_visible("#clock-acted") and page.is_hidden("#clock-dead") and page.is_visible("#clock-cancel")
    assert accessibility.problems(page) == []
    fits(page, "dialog")
    shot(page, SHOTS, "dialog_tablet")
    page.click("#clock-cancel")
    page.wait_for_function(NOTICE, arg=f"Table 1: the clock call on seat {one.seat} is cancelled (called in error).")
    page.wait_for_selector(BADGE.format(1), state="detached")
    assert clock_call_answer(client_for(floor), t, 1).status_code == 204
    assert ClockCall.objects.get().outcome == ClockCall.Outcome.CANCELLED
    page.context.close()


def test_a_call_made_elsewhere_shows_live_and_its_time_runs_out(live_asgi, browser, floor, room):
    t, players = room, seats_at(room, 2)
    page = staff_page(browser, live_asgi, floor.username, f"/t/{t.pk}/map/")
    page.wait_for_selector("#map .m-table")
    page.wait_for_selector("#live.live")
    marker = page.evaluate("() => (window.__notReloaded = true)")
    assert marker

    seat = players[1]
    clock_calls.call_clock(Table.objects.get(tournament=t, number=2), actor=floor, seat=seat.seat)
    page.wait_for_selector(BADGE.format(2))
    assert re.fullmatch(rf"Clock: seat {seat.seat} · (1:00|0:5\d)", badge_text(page, 2))
    assert page.evaluate("() => window.__notReloaded === true")  # live, not a reload

    # His time runs out (moved back in the database; the map reads the call again on its next fetch).
    call = ClockCall.objects.get()
    ClockCall.objects.filter(pk=call.pk).update(
        started_at=call.started_at - timedelta(seconds=120), ends_at=call.ends_at - timedelta(seconds=120)
    )
    page.evaluate("() => window.floorMap.refetch()")
    page.wait_for_function(
        "(sel) => document.querySelector(sel) && document.querySelector(sel).textContent.endsWith('Hand dead')", arg=BADGE.format(2)
    )
    assert badge_text(page, 2) == f"Clock: seat {seat.seat} · Hand dead"
    assert "up" in page.get_attribute(BADGE.format(2), "class").split()
    shot(page, SHOTS, "dead_tablet")
    page.click(BADGE.format(2))
    page.wait_for_selector("#clock-dialog[open]")
    assert page.inner_text("#clock-left") == "Time is up: the hand is dead."
    assert page.is_hidden("#clock-acted") and page.is_visible("#clock-dead")
    assert accessibility.problems(page) == []
    page.click("#clock-dead")
    page.wait_for_function(NOTICE, arg=f"Table 2: time is up, the hand of seat {seat.seat} is dead.")
    page.wait_for_selector(BADGE.format(2), state="detached")
    assert clock_call_answer(client_for(floor), t, 2).status_code == 204
    assert ClockCall.objects.get().outcome == ClockCall.Outcome.DEAD

    # Ended elsewhere: the badge goes live too.
    clock_calls.call_clock(Table.objects.get(tournament=t, number=2), actor=floor, seat=seat.seat)
    page.wait_for_selector(BADGE.format(2))
    clock_calls.end_clock_call(Table.objects.get(tournament=t, number=2), actor=floor, outcome="cancelled")
    page.wait_for_selector(BADGE.format(2), state="detached")
    page.context.close()
