"""Day 2 seating in a real browser: Day 1 bagged and closed, the director redraws Day 2 from the
day page (a confirm, then the page says which draw seated the day); a player's phone, open on his seat page since the
night before, follows live: his Day 2 table and seat and the stack he sits down with ("Day 2 · stack 20,000 (bag
T1-3)"). The phone's seat page and the day page are axe-clean, with no CSP or console error, and fit their screens."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import Draw
from tables.selectors.state import live_seats
from tests.browser import accessibility
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.test_day_page import OVERFLOW, PHONE, TABLET, bag_through_the_api
from tests.helpers import client_for, url
from tests.tables.test_penalty_api import at_table

pytestmark = pytest.mark.browser


def test_the_director_redraws_day2_and_the_players_phone_shows_his_seat_and_stack(live_asgi, browser, director, floor, room):
    base, t = live_asgi, room
    for number in (1, 2):
        bag_through_the_api(floor, t, number)
    entry = at_table(t, 1)[0]
    bag = f"T1-{live_seats(t).get(entry=entry).seat}"
    assert client_for(director).post(url(t, "day/close/"), {}, format="json").status_code == 200

    # The player's phone, open since the night before: Day 1's seat, nothing about Day 2 yet.
    phone = browser.new_context(viewport=PHONE).new_page()
    phone_errors = watch_errors(phone)
    phone.goto(f"{base}/s/{t.pk}/{entry.number}/")
    phone.wait_for_selector("#live.live")
    assert phone.is_hidden("#seat-day")

    page = browser.new_context(viewport=TABLET).new_page()
    errors = watch_errors(page)
    asked = []
    page.on("dialog", lambda dialog: (asked.append(dialog.message), dialog.accept()))
    login(page, base, director.username)
    page.goto(f"{base}/t/{t.pk}/day/")
    page.wait_for_selector("#live.live")
    assert page.inner_text("#redraw-go") == "Redraw Day 2 seating"
    assert accessibility.problems(page) == []
    page.click("#redraw-go")
    page.wait_for_selector("#redraw-done")  # (the page's live read may show it before the page reloads)
    draw = Draw.objects.get(tournament=t, kind=Draw.Kind.REDRAW)
    # The reloaded page says the answer: the checks below read it, not the page being left.
    expect(page.locator("[data-api-say].ok")).to_contain_text(f"Day 2 is seated by draw {draw.number}")
    assert asked and asked[0].startswith("Redraw the seating of day 2?")
    assert f"Day 2 is seated by draw {draw.number}." in page.inner_text("#redraw-done")
    assert page.locator("#redraw-form").count() == 0
    assert page.evaluate(OVERFLOW) == [] and accessibility.problems(page) == []
    assert csp_problems(page, errors) == []

    # The phone follows the redraw's push: the new seat, and the day and the stack he sits down with.
    seat = live_seats(t).select_related("table").get(entry=entry)
    phone.wait_for_function("() => !document.getElementById('seat-day').hidden")
    assert phone.inner_text("#seat-day") == f"Day 2 · stack 20,000 (bag {bag})"
    phone.wait_for_function(f"() => document.getElementById('seat-table').textContent === '{seat.table.number}'")
    assert phone.inner_text("#seat-seat") == str(seat.seat)
    assert phone.evaluate(OVERFLOW) == [] and accessibility.problems(phone) == []
    phone.reload()  # a fresh load shows it too
    phone.wait_for_selector("#seat-day:not([hidden])")
    assert phone.inner_text("#seat-day") == f"Day 2 · stack 20,000 (bag {bag})"
    assert csp_problems(phone, phone_errors) == []
