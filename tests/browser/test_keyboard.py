"""The screens by keyboard alone: what a tap does on the floor map, the dealer tablet's race pad and
the lobby's sound hint, Tab reaches and Enter does; and what the screens show in colour they also say in words."""

from __future__ import annotations

import pytest

from tables.services import color_ups, draws
from tests.browser.conftest import login
from tests.browser.test_color_up import TABLET
from tests.browser.test_seating import staff_page
from tests.conftest import PASSWORD
from tests.helpers import open_tables, register
from tests.tables.test_moves import start
from tournament.models import Level
from tournament.services import registration

pytestmark = pytest.mark.browser


def tab_to(page, selector: str, most: int = 150) -> None:
    """Press Tab until the focus is on an element that matches selector (as a keyboard user would)."""
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate("(s) => !!document.activeElement && document.activeElement.matches(s)", selector):
            return
    raise AssertionError(f"Tab never reached {selector}")


def test_a_seat_on_the_floor_map_by_tab_and_enter(live_asgi, browser, director, cashier, tournament):
    start(director, cashier, tournament, 30)  # four tables of nine, thirty players
    page = staff_page(browser, live_asgi, director.username, f"/t/{tournament.pk}/map/")
    page.wait_for_selector("#map .m-seat[data-entry]")
    tab_to(page, "#map .m-seat[data-entry]")
    name = page.evaluate("document.activeElement.getAttribute('aria-label')")
    assert name and "#" in name  # the seat says who sits there, not only a coloured tile
    page.keyboard.press("Enter")
    page.wait_for_selector("#seat-dialog[open]")
    assert page.evaluate("document.getElementById('seat-dialog').contains(document.activeElement)")
    page.keyboard.press("Escape")
    page.wait_for_selector("#seat-dialog:not([open])", state="attached")

    # Colour states in words: each table's status, each empty seat.
    statuses = page.eval_on_selector_all(
        "#map .m-table", "ts => ts.map(t => [t.className, t.querySelector('.m-status').textContent.trim()])"
    )
    assert statuses and all(text for _, text in statuses), statuses
    assert all(text == "short" for cls, text in statuses if " short" in cls), statuses
    assert all(text == "full" for cls, text in statuses if " full" in cls), statuses
    empty = page.eval_on_selector_all("#map .m-seat.empty", "bs => bs.map(b => b.textContent)")
    assert empty and all("open" in text for text in empty), empty  # 36 seats, 30 taken
    page.context.close()


def test_the_race_pad_by_keyboard(live_asgi, browser, director, cashier, dealer, tournament):
    t = tournament
    open_tables(director, t, [1, 2])
    register(cashier, t, 12)
    draws.draw_start(t, actor=director)
    color_ups.confirm_color_up(
        t, actor=director, level=Level.objects.get(structure=t.structure, kind=Level.Kind.BREAK).position, leaving=[25, 100]
    )
    page = browser.new_context(viewport=TABLET).new_page()
    login(page, live_asgi, dealer.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{t.pk}/tables/1/dealer/")
    page.wait_for_selector("#race-banner", state="visible")
    first = page.locator("#race-rows .r-field").first
    # The pad's keys by Tab and Enter: the first count (selected) becomes 7; Enter on a key presses that key.
    tab_to(page, '#race-pad button[data-key="7"]')
    page.keyboard.press("Enter")
    assert first.locator("b").inner_text() == "7"
    # Another count, reached by Tab and chosen with Enter, then typed with the keyboard's digits.
    third = page.locator("#race-rows .r-field").nth(3)
    tab_to(page, third.evaluate('f => `#race-rows .r-field[data-seat="${f.dataset.seat}"][data-value="${f.dataset.value}"]`'))
    page.keyboard.press("Enter")
    assert "selected" in third.get_attribute("class")
    page.keyboard.type("12")
    assert third.locator("b").inner_text() == "12"
    assert first.locator("b").inner_text() == "7"
    page.context.close()


def test_the_lobby_sound_hint_by_keyboard(live_asgi, browser, director, tournament):
    """A touch screen asks for a touch to turn the sound on: the hint is a button a keyboard reaches, and a key
    starts the sound as a touch does."""
    display = registration.create_display_token(tournament, actor=director, label="Lobby TV")
    page = browser.new_context(viewport={"width": 1920, "height": 1080}, has_touch=True).new_page()
    # An audio output that starts only after a gesture of the user's (a key or a touch), as a browser's autoplay
    # policy wants (a headless browser lets any page play).
    page.add_init_script("""let gesture = false;
      for (const type of ["keydown", "pointerdown"]) window.addEventListener(type, () => { gesture = true; }, true);
      const Real = window.AudioContext;
      window.AudioContext = class extends Real {
        get state() { return this.started ? "running" : "suspended"; }
        resume() { if (gesture) this.started = true; return Promise.resolve(); }
      };""")
    page.goto(f"{live_asgi}/display/{display.token}/?sound=1")
    hint = page.locator("#sound-off")
    hint.wait_for(state="visible", timeout=10000)  # the page looks at the sound every two seconds
    assert hint.evaluate("b => b.tagName") == "BUTTON"
    tab_to(page, "#sound-off", most=20)
    page.keyboard.press("Enter")
    hint.wait_for(state="hidden", timeout=10000)  # the sound is on: the hint goes
    page.context.close()
