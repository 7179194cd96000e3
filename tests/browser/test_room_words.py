"""Words and small things a room notices, in a real browser: a flight's bust on the floor map and on the player's
seat page says the player is out of the flight (no raw "{place}", no "out of the tournament"); the disqualification's
message writes the chips with a thousands separator; a button that cannot be pressed looks it."""

from __future__ import annotations

import pytest

from flights.models import Flight
from flights.services import events
from tables.services import draws
from tables.services import setup as table_setup
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.sizes import PHONE, TABLET
from tests.browser.test_balancing import bust_from_map
from tests.conftest import PASSWORD
from tests.flights.test_flights import event_with, register
from tests.tables.test_penalty_api import at_table
from tournament.models import Entry

pytestmark = pytest.mark.browser


def staff(browser, base: str, user, path: str):
    page = browser.new_context(viewport=TABLET, locale="en").new_page()
    errors = watch_errors(page)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, base, user.username, PASSWORD)
    page.goto(f"{base}{path}")
    return page, errors


def test_a_flights_bust_on_the_floor_map_says_the_player_is_out_of_the_flight(
    live_asgi, browser, director, cashier, floor, template, players
):
    _event, (a, _b) = event_with(director, template)
    events.set_flight_end(Flight.objects.get(tournament=a), actor=director, share_percent=10)
    table_setup.open_table(a, actor=director, number=1, seats=9)
    entries = register(cashier, a, players[:5])
    draws.draw_start(a, actor=director)
    page, errors = staff(browser, live_asgi, floor, f"/t/{a.pk}/map/")
    page.wait_for_selector("#live.live")
    victim = entries[0]
    bust_from_map(page, victim.number)
    page.wait_for_function(f"document.getElementById('notice').textContent.indexOf('Entry #{victim.number} (') === 0")
    said = page.inner_text("#notice")
    assert said == f"Entry #{victim.number} ({victim.player.display_name}) is out of this flight (a flight's bust has no place)."
    assert "{" not in said and Entry.objects.get(pk=victim.pk).finish_place is None
    assert csp_problems(page, errors) == []
    page.context.close()
    # His phone's seat page says the same: out of this flight (another flight may still take him), no place.
    phone = browser.new_context(viewport=PHONE, locale="en").new_page()
    phone.goto(f"{live_asgi}/s/{a.pk}/{victim.number}/")
    assert phone.inner_text("#seat-out") == "You are out of flight 1A. Thank you for playing."
    phone.context.close()


def test_the_disqualification_message_groups_the_thousands(live_asgi, browser, room, floor):
    offender = at_table(room, 1)[0]
    page, errors = staff(browser, live_asgi, floor, f"/t/{room.pk}/penalties/")
    page.wait_for_selector("#give-form")
    page.wait_for_load_state()
    page.fill("#id_who", f"#{offender.number}")
    page.click("label[for=id_kind_3]")  # Disqualification
    page.fill("#id_chips", "25000")
    page.fill("#id_reason", "Collusion")
    page.click("#give-go")
    page.wait_for_selector("[data-api-say].ok")
    said = page.inner_text("[data-api-say]")
    assert said == f"{offender.player.display_name} is disqualified: 25,000 chips out of play, no refund.", said
    assert csp_problems(page, errors) == []
    page.context.close()


STYLE = "(sel) => { const s = getComputedStyle(document.querySelector(sel)); return [parseFloat(s.opacity), s.cursor]; }"


def test_a_button_that_cannot_be_pressed_looks_it(live_asgi, browser, director, floor, tournament):
    table_setup.open_table(tournament, actor=director, number=1, seats=9)
    page, errors = staff(browser, live_asgi, floor, f"/t/{tournament.pk}/tables/1/dealer/")
    page.wait_for_selector("#live.live")
    assert page.is_disabled("#undo") and page.is_enabled("#stacks-open")  # no hand yet: nothing to undo
    disabled, enabled = page.evaluate(STYLE, "#undo"), page.evaluate(STYLE, "#stacks-open")
    assert enabled == [1, "pointer"] and disabled[0] <= 0.5 and disabled[1] == "not-allowed", (disabled, enabled)
    # The race's big button (Race on an empty table) and any other: the same look wherever it is disabled.
    race = page.evaluate("""() => { const b = document.getElementById('race-go'), box = document.getElementById('race');
      box.hidden = false; document.getElementById('race-count').hidden = false; b.disabled = true;
      const s = getComputedStyle(b); return [parseFloat(s.opacity), s.cursor]; }""")
    assert race[0] <= 0.5 and race[1] == "not-allowed", race
    assert csp_problems(page, errors) == []
    page.context.close()
