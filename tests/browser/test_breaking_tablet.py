"""The dealer tablet of a table that breaks, and the tablet that follows its own presses kept offline, in a
real browser: the tablet says live that its table is breaking and deals no new hand; its slips made
during a hand say "after this hand"; a Shuffle kept offline shows the hand started, so Hand done can be pressed and
is kept too; Count stacks offline says why it cannot wait."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tables.models import HandStart, Move, Table
from tables.services import hands
from tables.services import setup as table_setup
from tests.browser.test_offline_tablets import LINE, csp_violations, queued, tablet
from tests.tables.test_breaking_table import breaking_soon, bust_elsewhere

pytestmark = pytest.mark.browser


def test_the_tablet_of_a_breaking_table_says_so_live_and_refuses_a_new_hand(
    live_asgi, browser, director, cashier, floor, dealer, tournament
):
    breaking = breaking_soon(director, cashier, tournament)
    hands.start_hand(breaking, actor=dealer)  # a hand in play when the table breaks
    context, page, errors = tablet(live_asgi, browser, floor, f"/t/{tournament.pk}/tables/{breaking.number}/dealer/")
    expect(page.locator("#breaking")).to_be_hidden()
    expect(page.locator("#shuffle")).to_be_enabled()
    slips = bust_elsewhere(floor, tournament, breaking)  # from another tablet: the push tells this one
    expect(page.locator("#breaking")).to_be_visible(timeout=10_000)
    expect(page.locator("#breaking")).to_contain_text(f"Table {breaking.number} is breaking: no new hand here.")
    expect(page.locator("#shuffle")).to_be_disabled()
    # Each slip out says that the player goes once the hand in play is over.
    items = page.locator("#slips-out li")
    expect(items).to_have_count(len(slips))
    assert all(text.endswith("(after this hand)") for text in items.all_inner_texts())
    page.click("#hand-done")
    expect(page.locator("#dealer-feedback")).to_have_text("Hand done.")
    page.wait_for_function("[...document.querySelectorAll('#slips-out li')].every((li) => !li.textContent.includes('after'))")
    expect(page.locator("#shuffle")).to_be_disabled()  # still breaking: no new hand
    assert HandStart.objects.filter(table=breaking).count() == 1
    assert Move.objects.filter(from_table=breaking, status=Move.Status.PENDING, kind=Move.Kind.BREAK).count() == len(slips)
    assert csp_violations(page) == [], errors
    context.close()


def test_a_shuffle_kept_offline_shows_the_hand_started_and_hand_done_follows(live_asgi, browser, director, floor, tournament):
    table, _token = table_setup.open_table(tournament, actor=director, number=1, seats=9)
    context, page, errors = tablet(live_asgi, browser, floor, f"/t/{tournament.pk}/tables/1/dealer/")
    expect(page.locator("#hand-number")).to_have_text("no hand yet")
    expect(page.locator("#hand-done")).to_be_disabled()
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    page.click("#shuffle")
    page.wait_for_function(
        f"document.querySelector('{LINE}') && document.querySelector('{LINE}').textContent === 'Offline: 1 press waiting'"
    )
    # The tablet follows its own press: hand 1 started just now, Hand done can be pressed.
    expect(page.locator("#hand-number")).to_have_text("1")
    expect(page.locator("#hand-age")).to_have_text("· started just now")
    expect(page.locator("#hand-done")).to_be_enabled()
    expect(page.locator("#undo")).to_be_enabled()
    page.click("#hand-done")
    page.wait_for_function(f"document.querySelector('{LINE}').textContent === 'Offline: 2 presses waiting'")
    expect(page.locator("#hand-done")).to_be_disabled()
    expect(page.locator("#hand-number")).to_have_text("1")
    scope = f"dealer:{tournament.pk}:1:user:{floor.pk}"
    assert [p["label"] for p in queued(page, scope)] == ["Shuffle / new hand", "Hand done"]
    table.refresh_from_db()
    assert (table.hand_number, table.hand_in_progress) == (0, False)  # nothing reached the server yet
    # A reload offline keeps following them (the worker's copy says "no hand yet").
    page.reload()
    page.wait_for_selector(LINE)
    expect(page.locator("#hand-number")).to_have_text("1")
    expect(page.locator("#hand-done")).to_be_disabled()
    expect(page.locator("#shuffle")).to_be_enabled()
    # The line is back: the presses are applied, and the tablet shows the server's state, the same.
    context.set_offline(False)
    page.wait_for_function(f"document.querySelector('{LINE}').textContent === 'Sent'", timeout=20_000)
    table.refresh_from_db()
    assert (table.hand_number, table.hand_in_progress) == (1, False)
    expect(page.locator("#hand-number")).to_have_text("1")
    expect(page.locator("#hand-done")).to_be_disabled()
    assert csp_violations(page) == [], errors
    context.close()


def test_count_stacks_offline_says_why_it_cannot_wait(live_asgi, browser, director, cashier, floor, dealer, tournament):
    breaking = breaking_soon(director, cashier, tournament)
    number = next(n for n in Table.objects.filter(tournament=tournament).values_list("number", flat=True) if n != breaking.number)
    context, page, errors = tablet(live_asgi, browser, floor, f"/t/{tournament.pk}/tables/{number}/dealer/")
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    page.click("#stacks-open")
    expect(page.locator("#dealer-feedback")).to_contain_text("Count stacks needs the connection")
    expect(page.locator("#stacks")).to_be_hidden()
    context.set_offline(False)
    page.click("#stacks-open")
    expect(page.locator("#stacks")).to_be_visible()
    assert csp_violations(page) == [], errors
    context.close()
