"""A bust reported on the dealer tablet in a bounty event, in a real browser: "Report a bust" lists the seated players,
the dealer taps the seat that is out and the seat that won the pot (a winner is required: the button says why until one
is tapped), sends it, and the tablet says it waits for the floor; the floor confirms it and the bounty is paid to the
winner's head."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from payouts.selectors import bounties as sel
from tables.models import BustReport
from tables.selectors.state import seat_of
from tests.browser import accessibility
from tests.browser.test_clock_call_dealer import open_tablet
from tests.browser.test_seating import staff_page
from tests.payouts.test_bounties import bounty_night, entry
from tournament.models import Entry

pytestmark = pytest.mark.browser


def test_a_dealer_reports_a_pko_bust_with_its_winner_and_the_floor_confirms_it(
    live_asgi, browser, dealer, floor, director, cashier, template
):
    base = live_asgi
    t = bounty_night(director, cashier, template, "progressive", players=5)
    out, won = seat_of(entry(t, 1)).seat, seat_of(entry(t, 2)).seat
    tablet = open_tablet(browser, base, dealer, t)
    tablet.click("#bust-open")
    tablet.wait_for_selector("#bust-pick", state="visible")
    assert tablet.is_disabled("#bust-go")
    expect(tablet.locator("#bust-why")).to_have_text("Tap the seat that is out.")
    tablet.click(f'#bust-out button[data-seat="{out}"]')
    expect(tablet.locator("#bust-why")).to_have_text("A bounty event: tap the seat that won the pot (several for a split pot).")
    assert tablet.is_disabled("#bust-go")
    assert tablet.locator(f'#bust-won button[data-seat="{out}"]').count() == 0  # the player out did not win the pot
    tablet.click(f'#bust-won button[data-seat="{won}"]')
    assert tablet.get_attribute(f'#bust-won button[data-seat="{won}"]', "aria-pressed") == "true"
    assert accessibility.problems(tablet) == []
    tablet.click("#bust-go")
    expect(tablet.locator("#dealer-feedback")).to_contain_text("waits for the floor")
    report = BustReport.objects.get(tournament=t)
    assert (report.seat, report.winner_seats, report.status) == (out, [won], "pending")
    assert entry(t, 1).status == Entry.Status.ACTIVE
    # The floor sees it on the map and confirms it with one press.
    page = staff_page(browser, live_asgi, floor.username, f"/t/{t.pk}/map/")
    page.wait_for_selector("#reports-panel", state="visible")
    expect(page.locator("#report-list li")).to_have_count(1)
    expect(page.locator("#report-list li .slip")).to_contain_text(f"seat {out}: #1")
    assert accessibility.problems(page) == []
    page.click("#report-list .confirm-report")
    expect(page.locator("#notice")).to_contain_text("as the dealer reported")
    page.wait_for_selector("#reports-panel", state="hidden")
    assert entry(t, 1).status == Entry.Status.BUSTED and sel.heads(t)[2] == 15_000
