"""The confirmed race on the dealer tablet: it no longer holds the top of the tablet
and pushes Shuffle below the fold. Once confirmed it folds to one line, "Race confirmed · show sheet" (the
sheet a tap away), and it goes when the clock leaves the break, by the tablet's own clock; Shuffle stays
above the fold on a tablet and a phone."""

from __future__ import annotations

import re

import pytest

from clock.services import clock
from tables.models import Table
from tables.services import color_ups, draws
from tests.browser.conftest import login
from tests.browser.test_color_up import PHONE, TABLET
from tests.conftest import PASSWORD
from tests.helpers import open_tables, register
from tests.tables.test_color_up_api import counts
from tournament.models import Level

pytestmark = pytest.mark.browser


STATE_READ = re.compile(r"/state/(\?.*)?$")  # the tablet's state read (the API's)


def above_the_fold(page, selector: str) -> bool:
    return page.evaluate(
        "(s) => { const r = document.querySelector(s).getBoundingClientRect(); return r.height > 0 && r.bottom <= window.innerHeight; }",
        selector,
    )


def test_a_confirmed_race_folds_and_leaves_with_the_break(live_asgi, browser, director, cashier, dealer, tournament):
    base, t = live_asgi, tournament
    open_tables(director, t, [1, 2])
    register(cashier, t, 12)
    draws.draw_start(t, actor=director)
    clock.start_clock(t, actor=director)
    clock.step_level(t, actor=director, step=2)  # level 1, level 2, the break (row 3 of the structure)
    color_up = color_ups.confirm_color_up(t, actor=director, level=Level.objects.get(structure=t.structure, kind=Level.Kind.BREAK).position)
    table = Table.objects.get(tournament=t, number=1)
    color_ups.confirm_race(color_ups.record_race(table, actor=director, color_up=color_up, seats=counts(t, 1)), actor=director)

    tablet = browser.new_context(viewport=TABLET).new_page()
    login(tablet, base, dealer.username, PASSWORD)
    tablet.goto(f"{base}/t/{t.pk}/tables/1/dealer/")
    tablet.wait_for_selector("#live.live")
    tablet.wait_for_selector("#race", state="visible")
    tablet.wait_for_timeout(300)
    assert above_the_fold(tablet, "#shuffle"), tablet.locator("#shuffle").bounding_box()  # the sheet held it down
    tablet.wait_for_selector("#race-done", state="visible")
    assert tablet.inner_text("#race-done").replace("\n", " ").split() == ["✓", "Race", "confirmed", "·", "show", "sheet"]
    assert tablet.is_hidden("#race-sheet") and tablet.is_hidden("#race-banner") and tablet.is_hidden("#race-count")
    tablet.screenshot(path="/tmp/race_fold_tablet.png")
    # The sheet a tap away, and folded again.
    tablet.click("#race-show")
    tablet.wait_for_selector("#race-sheet", state="visible")
    assert tablet.is_visible("#race-stamp") and tablet.get_attribute("#race-show", "aria-expanded") == "true"
    assert tablet.inner_text("#race-show") == "hide sheet"
    tablet.click("#race-show")
    tablet.wait_for_selector("#race-sheet", state="hidden")
    tablet.set_viewport_size(PHONE)
    tablet.wait_for_timeout(200)
    tablet.screenshot(path="/tmp/race_fold_phone.png")
    assert tablet.is_visible("#race-done") and above_the_fold(tablet, "#shuffle"), tablet.locator("#shuffle").bounding_box()

    # The break runs out (fifteen seconds left: time for the reload on a busy machine): the tablet drops the race by
    # its own clock, reading nothing new.
    clock.adjust_clock(t, actor=director, seconds=-(10 * 60 - 15))
    tablet.reload()
    tablet.wait_for_selector("#race-done", state="visible")
    tablet.route(STATE_READ, lambda route: route.abort())
    tablet.wait_for_selector("#race", state="hidden", timeout=30_000)
    assert tablet.inner_text("[data-clock=title]") == "Level 3"
    assert above_the_fold(tablet, "#shuffle")
