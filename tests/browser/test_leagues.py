"""Leagues in a real browser: the director makes a league on the leagues page and adds a tournament to it
on the league's page; when that tournament's play is over, the league's page and the players' standings page on a
phone show the standings without a reload, and a bust undone takes them away again."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from leagues.models import League
from tables.services import busts
from tests.browser import accessibility
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.test_seating import TABLET
from tests.conftest import PASSWORD
from tests.helpers import register

pytestmark = pytest.mark.browser
PHONE = {"width": 390, "height": 844}


def standings(page) -> list[list[str]]:
    return page.evaluate(
        "[...document.querySelectorAll('#lg-standings tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent.trim()))"
    )


def played_and_wins_shown(phone) -> None:
    """The first of the standings (the winner: one result played, one win) shows both on the phone, with no sideways scroll."""
    first = phone.locator("#lg-standings tbody tr").first
    for label in ("Played", "Wins"):
        expect(first.locator(f'.lg-opt[data-label="{label}"]')).to_be_visible()
        expect(first.locator(f'.lg-opt[data-label="{label}"]')).to_have_text("1")
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_league_made_on_its_pages_shows_the_standings_live_once_play_is_over(live_asgi, browser, director, floor, cashier, tournament):
    entries = register(cashier, tournament, 3)
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors = watch_errors(page)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_asgi, director.username, PASSWORD)
    page.click("#leagues-link")
    page.wait_for_url("**/leagues/")
    page.wait_for_load_state()  # the page's module scripts have run: the formula's radios are followed
    page.fill("#league-name", "Páteční liga – podzim")
    page.check('#league-create input[name="formula"][value="linear"]')
    expect(page.locator("#new-table")).to_be_disabled()  # only the points-table formula takes a table
    page.fill("#new-participation", "1")
    page.click("#league-create-go")
    page.wait_for_url("**/leagues/*/")
    league = League.objects.get()
    assert (league.formula, league.participation, league.points_table) == ("linear", 1, [])
    page.select_option("#lg-add-tournament", str(tournament.pk))
    page.click("#lg-add-go")
    page.wait_for_selector(f"#lg-t-{tournament.pk}")
    assert "when play is over" in page.inner_text(f"#lg-t-{tournament.pk}")
    assert page.is_visible("#lg-no-standings")
    page.wait_for_selector("#live.live")

    phone = browser.new_context(viewport=PHONE).new_page()
    phone_errors = watch_errors(phone)
    phone.goto(f"{live_asgi}/l/{league.pk}/")
    phone.wait_for_selector("#live.live")
    assert phone.is_visible("#lg-no-standings")

    # The floor plays the tournament out: the last bust gives the points, and both pages follow.
    busts.bust_entry(entries[2], actor=floor)
    busts.bust_entry(entries[1], actor=floor)
    for screen in (page, phone):
        screen.wait_for_function("document.querySelectorAll('#lg-standings tbody tr').length === 3")
    # Linear over three entries, plus one for playing: 4, 3, 2.
    assert [row[2] for row in standings(phone)] == ["4", "3", "2"]
    # The phone shows the results played and the wins too (under the name), and nothing runs off it sideways; so does
    # the page as the server makes it.
    played_and_wins_shown(phone)
    served = browser.new_context(viewport=PHONE).new_page()  # the standings as the server writes them
    served.goto(f"{live_asgi}/l/{league.pk}/")
    played_and_wins_shown(served)
    served.context.close()
    assert [row[1] for row in standings(page)] == [e.player.display_name for e in entries]
    page.wait_for_function(f"document.querySelector('#lg-t-{tournament.pk} [data-field=given]').textContent.includes('given to 3 players')")

    # A mistake: the last bust undone, play goes on, and the points go until it is over again.
    busts.undo_bust(entries[1], actor=floor)
    phone.wait_for_selector("#lg-no-standings:not([hidden])")
    page.wait_for_selector("#lg-no-standings:not([hidden])")
    assert accessibility.problems(phone) == [] and accessibility.problems(page) == []
    assert csp_problems(phone, phone_errors) == [] and csp_problems(page, errors) == []
    phone.context.close()
    context.close()


def test_a_refused_setting_is_said_under_its_field_and_changes_nothing(live_asgi, browser, director):
    league = League.objects.create(name="Liga", formula="table", points_table=[10, 5], created_at="2026-11-01T18:00Z")
    page = browser.new_context(viewport=TABLET).new_page()
    login(page, live_asgi, director.username, PASSWORD)
    page.goto(f"{live_asgi}/leagues/{league.pk}/")
    page.fill("#lg-table", "10, 20")
    page.click("#lg-settings-go")
    page.wait_for_selector("[data-api-say].refused, .api-say.refused")
    assert "Place 2 would get more points than place 1" in page.inner_text("[data-api-say]")
    league.refresh_from_db()
    assert league.points_table == [10, 5]
    # The checkbox sits beside its words (their first line level with it), not above them; on a phone too.
    beside = """() => { const box = document.getElementById("lg-lobby").getBoundingClientRect();
      const words = document.createRange(); words.selectNodeContents(document.getElementById("lg-lobby").parentElement);
      words.setStartAfter(document.getElementById("lg-lobby"));
      const line = words.getClientRects()[0];
      return line.left >= box.right && line.top < box.bottom && line.bottom > box.top; }"""
    assert page.evaluate(beside)
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate(beside)
    page.context.close()
