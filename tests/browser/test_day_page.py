"""The end of a day in a real browser: the director's day page follows the room live (a table
bagged through the API shows at once: the bagged count, the bags missing by table with names, the table's slips);
closing without a reason while bags are missing is refused with the server's message and changes nothing; with the
reason the day closes and its record shows; a bag slip link of the report answers a PDF ("a bag slip printed").
The day page and the report are axe-clean, with no CSP or console error, and fit a tablet and a phone."""

from __future__ import annotations

import re
from functools import partial

import pytest

from days.models import Day
from tests.browser import accessibility, sizes
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.sizes import OVERFLOW, PHONE, TABLET  # noqa: F401  (OVERFLOW, PHONE: test_day2_seat takes them from here)
from tests.days.test_bagging import even
from tests.helpers import client_for, url
from tests.tables.test_penalty_api import at_table

pytestmark = pytest.mark.browser

# Fits a tablet and a phone; with SCREEN_SHOTS set each is shot to /tmp/day_page_<name>_<width>.png.
fits = partial(sizes.fits, prefix="day_page")


def bag_through_the_api(floor, t, number: int) -> None:
    body = {"bags": [{"seat": seat, "chips": chips, "bag": bag} for seat, (chips, bag) in sorted(even(t, number).items())]}
    answer = client_for(floor).post(url(t, f"tables/{number}/bags/"), body, format="json")
    assert answer.status_code == 201, answer.content


def test_the_director_follows_the_bags_live_closes_the_day_and_prints_a_slip(live_asgi, browser, director, floor, room):
    base, t = live_asgi, room
    page = browser.new_context(viewport=TABLET).new_page()
    errors = watch_errors(page)
    page.on("dialog", lambda dialog: dialog.accept())  # "Close day 1?"
    login(page, base, director.username)
    page.goto(f"{base}/t/{t.pk}/")
    page.click(f"nav.tabs a[href='/t/{t.pk}/day/']")
    page.wait_for_url(f"{base}/t/{t.pk}/day/")  # the overview has a #live.live of its own
    page.wait_for_load_state()
    page.wait_for_selector("#live.live")
    assert page.inner_text("#dy-bagged") == "0 of 12"
    assert page.get_attribute("#close-reason", "aria-required") == "true" and page.is_visible("#close-reason-required")

    # Table 1 bagged on its tablet (the API): the page follows without a reload.
    page.evaluate("document.getElementById('close-reason').dataset.kept = 'yes'")
    bag_through_the_api(floor, t, 1)
    page.wait_for_function("() => document.getElementById('dy-bagged').textContent === '6 of 12'")
    missing = page.inner_text("#day-missing")
    assert "Table 2" in missing and "Table 1" not in missing
    assert all(e.player.display_name in missing for e in at_table(t, 2))
    assert page.is_visible("#dy-table-1") and page.get_attribute("#close-reason", "data-kept") == "yes"  # the form stays
    assert accessibility.problems(page) == []
    assert fits(page, "day") == []

    # Closing without the reason: refused, with the server's words; nothing changes.
    page.click("#close-go")
    page.wait_for_selector("[data-api-say].refused")
    said = page.inner_text("[data-api-say]")
    assert "Day 1 cannot close: bags are missing at table 2" in said, said
    assert not Day.objects.filter(tournament=t, status=Day.Status.CLOSED).exists()

    # With the reason: the day closes, the page reloads with day 1's record; day 2 has not begun (no close yet).
    page.fill("#close-reason", "Table 2 bagged on paper: its tablet was down")
    page.click("#close-go")
    page.wait_for_function("() => (document.querySelector('[data-api-say].ok') || {}).textContent === 'Day 1 is closed.'")
    assert page.inner_text("#day-title") == "Day 1" and page.inner_text("#dy-day") == "Day 1 · closed"
    assert page.inner_text("#dy-not-begun") == "Day 2 has not begun: its bags are taken at its end."
    assert page.locator("#close-form").count() == 0
    record = page.inner_text("#dy-record-1")
    assert "Table 2 bagged on paper" in record and director.username in record
    assert Day.objects.get(tournament=t, number=1).close_reason == "Table 2 bagged on paper: its tablet was down"

    # The night's report (day 2 has no bag yet), and one player's bag slip from it.
    page.click("#dy-record-1 a[href$='/day/report/?day=1']")
    page.wait_for_url(f"{base}/t/{t.pk}/day/report/?day=1")
    page.wait_for_load_state()
    page.wait_for_selector("#report-rows")
    assert page.locator("#report-rows tbody tr").count() == 6
    slip = page.locator("#report-rows a.dy-slip").first.get_attribute("href")
    answer = page.request.get(base + slip.replace("&amp;", "&"))
    assert answer.ok and answer.headers["content-type"] == "application/pdf"
    assert answer.body().startswith(b"%PDF") and len(re.findall(rb"/Type\s*/Page(?![s\w])", answer.body())) == 1
    csv_answer = page.request.get(base + page.get_attribute("#report-csv", "href"))
    assert csv_answer.ok and csv_answer.body().startswith("\ufeff".encode())
    assert accessibility.problems(page) == []
    assert fits(page, "report") == []
    # The one refusal above is the browser's console line for a 409 answer; anything else is a fault.
    assert [p for p in csp_problems(page, errors) if "status of 409" not in p] == []
