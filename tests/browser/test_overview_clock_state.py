"""The overview says whether the clock runs, next to the tournament's status, and follows it live."""

from __future__ import annotations

from clock.services import clock as clock_services
from tests.browser.test_clock_screens import open_staff_page


def test_the_overview_shows_the_clock_state_live(live_asgi, browser, director, floor, tournament):
    page = open_staff_page(browser, live_asgi, floor.username, f"/t/{tournament.pk}/")
    page.wait_for_selector("#live.live")
    assert page.inner_text("#clock-state") == "clock not started"
    clock_services.start_clock(tournament, actor=director)
    page.wait_for_selector('#clock-state[data-clock="running"]')
    assert page.inner_text("#clock-state") == "clock running"
    clock_services.pause_clock(tournament, actor=director)
    page.wait_for_selector('#clock-state[data-clock="paused"]')
    assert page.inner_text("#clock-state") == "clock paused"
    page.context.close()
