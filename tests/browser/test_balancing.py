"""Balancing and hand-for-hand in a real browser. The floor busts players on the table map until the
tables are out of balance; the move slip appears on the floor's map, on the destination table's
dealer tablet and on the mover's phone; the floor confirms it and both tables change on every
screen, live. The director runs hand-for-hand from the map while the dealer tablets deal, report
and wait. Every press goes to the public JSON API (/api/), and a refusal shows the API's
translated detail."""

from __future__ import annotations

import json
import re

import pytest
from django.utils import translation
from django.utils.translation.trans_real import DjangoTranslation
from playwright.sync_api import expect

from tables.models import Move, Table
from tables.selectors import screens
from tests.browser.conftest import login
from tests.browser.test_seating import PHONE, TABLET, staff_page
from tests.conftest import PASSWORD, pay_places
from tests.helpers import live_seat
from tests.tables.test_moves import seated, start

pytestmark = pytest.mark.browser

# Through a variable, so that makemessages does not list this file as a place of these messages.
lookup = translation.gettext


MAP_READ = re.compile(r"/api/tournaments/\d+/map/(\?.*)?$")  # the map's read (the API's floor map)


def in_czech(message: str, **values) -> str:
    with translation.override("cs"):
        return lookup(message) % values


def in_czech_script(message: str, **values) -> str:
    """A screen script's own words: Django's JavaScript catalogue (djangojs), each {name} filled as Util.fmt does."""
    text = DjangoTranslation("cs", domain="djangojs").gettext(message)
    for name, value in values.items():
        text = text.replace("{" + name + "}", str(value))
    return text


def api_press(method: str, ending: str):
    """Matches the request a press sends to the JSON API."""
    return lambda r: r.method == method and "/api/tournaments/" in r.url and r.url.endswith(ending)


def bust_from_map(page, entry_number: int) -> None:
    page.click(f'.m-seat[data-entry="{entry_number}"]')
    page.wait_for_selector("#seat-dialog[open]")
    page.click("#bust-ask")
    page.wait_for_selector("#bust-confirm:not([hidden])")
    page.click("#bust-go")
    page.wait_for_selector("#undo-bar:not([hidden])")


def test_bust_until_a_balance_then_the_slip_travels_and_both_tables_update(
    live_asgi, browser, director, floor, cashier, dealer, tournament
):
    base = live_asgi
    start(director, cashier, tournament, 20)  # three tables of 7, 7 and 6, buttons drawn
    counts = {t: len(s) for t, s in seated(tournament).items()}
    short = min(counts, key=lambda t: (counts[t], t))

    floor_page = staff_page(browser, base, floor.username, f"/t/{tournament.pk}/map/")
    floor_page.on("dialog", lambda dialog: dialog.accept())
    assert floor_page.is_visible("#no-moves")
    busts = 0
    while True:
        victim = min(seated(tournament)[short].values())
        # The map's refetch is blocked: a slip must show from its event alone.
        floor_page.route(MAP_READ, lambda route: route.abort())
        with floor_page.expect_request(api_press("POST", f"/entries/{victim}/bust/")) as pressed:
            bust_from_map(floor_page, victim)
        assert json.loads(pressed.value.post_data) == {"stack": None} and pressed.value.headers.get("idempotency-key")
        floor_page.wait_for_function(f"document.getElementById('notice').textContent.indexOf('Entry #{victim} (') === 0")
        assert "is out in place" in floor_page.inner_text("#notice") and floor_page.is_visible("#notice.ok")
        busts += 1
        move = (
            Move.objects.select_related("entry", "from_table", "to_table").filter(tournament=tournament, status=Move.Status.PENDING).first()
        )
        if move is not None:
            floor_page.wait_for_selector(f'#move-list li[data-move="{move.number}"]')
        floor_page.unroute(MAP_READ)
        floor_page.evaluate("window.floorMap.refetch()")
        floor_page.wait_for_selector(f'.m-seat[data-entry="{victim}"]', state="detached")
        if move is not None:
            break
        assert busts < 3, "the tables should be out of balance by now"
    text = floor_page.inner_text(f'#move-list li[data-move="{move.number}"]')
    assert f"table {move.from_table.number} seat {move.from_seat}" in text and f"table {move.to_table.number} seat {move.to_seat}" in text
    # The reserved seat shows on the destination table's card.
    floor_page.wait_for_selector(f'.m-table[data-table="{move.to_table.number}"] .m-seat.reserved[data-seat="{move.to_seat}"]')

    # The mover's phone and the destination dealer tablet. The floor cancels the slip and balances
    # again: the same slip comes back and both screens show it without a reload.
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{base}/s/{tournament.pk}/{move.entry.number}/")
    phone.wait_for_selector("#live.live")
    phone.wait_for_selector("#go", state="visible")
    dealer_page = browser.new_context(viewport=TABLET).new_page()
    login(dealer_page, base, dealer.username, PASSWORD)
    dealer_page.goto(f"{base}/t/{tournament.pk}/tables/{move.to_table.number}/dealer/")
    dealer_page.wait_for_selector("#live.live")
    dealer_page.wait_for_selector("#slips-in li")
    floor_page.click(f'#move-list li[data-move="{move.number}"] .cancel-move')
    phone.wait_for_selector("#go", state="hidden")
    dealer_page.wait_for_selector("#slips", state="hidden")
    for page in (phone, dealer_page):
        page.evaluate("window.__sameDocument = true")
    expect(floor_page.locator("#move-list li")).to_have_count(0)  # the cancelled slip gone: the slip waited for below is new
    floor_page.click("#balance-now")
    again = Move.objects.select_related("entry", "from_table", "to_table")
    floor_page.wait_for_selector("#move-list li .confirm-move")
    again = again.get(tournament=tournament, status=Move.Status.PENDING)
    assert (again.entry_id, again.to_table_id, again.to_seat) == (move.entry_id, move.to_table_id, move.to_seat)
    phone.wait_for_selector("#go", state="visible")
    assert f"table {again.to_table.number} seat {again.to_seat}" in phone.inner_text("#go-where")
    dealer_page.wait_for_selector("#slips-in li")
    assert move.entry.player.display_name in dealer_page.inner_text("#slips-in")

    # The player sits down: the floor confirms. Both tables change on the map, the tablet and the phone.
    with floor_page.expect_request(api_press("POST", f"/moves/{again.number}/confirm/")):
        floor_page.click(f'#move-list li[data-move="{again.number}"] .confirm-move')
    floor_page.wait_for_selector(
        f'.m-table[data-table="{again.to_table.number}"] .m-seat[data-seat="{again.to_seat}"][data-entry="{again.entry.number}"]'
    )
    floor_page.wait_for_selector(f'.m-table[data-table="{again.from_table.number}"] .m-seat[data-seat="{again.from_seat}"].empty')
    expect(floor_page.locator("#no-moves")).to_be_visible()
    expect(floor_page.locator("#notice")).to_contain_text(
        f"Move slip #{again.number}: entry #{again.entry.number} sits at table {again.to_table.number}"
    )
    phone.wait_for_function(
        f"document.getElementById('seat-table').textContent === '{again.to_table.number}'"
        f" && document.getElementById('seat-seat').textContent === '{again.to_seat}'"
    )
    phone.wait_for_selector("#go", state="hidden")
    phone.wait_for_selector("#moved", state="visible")
    dealer_page.wait_for_selector("#slips", state="hidden")
    for page in (phone, dealer_page):
        assert page.evaluate("window.__sameDocument") is True  # live, no reload
    now = live_seat(again.entry)
    assert (now.table_id, now.seat) == (again.to_table_id, again.to_seat)
    for page in (floor_page, phone, dealer_page):
        page.context.close()


def test_hand_for_hand_on_the_map_and_the_dealer_tablets(live_asgi, browser, director, cashier, dealer, tournament):
    base = live_asgi
    start(director, cashier, tournament, 20)
    pay_places(director, tournament, 19)
    numbers = sorted(seated(tournament))
    chief = staff_page(browser, base, director.username, f"/t/{tournament.pk}/map/")
    chief.on("dialog", lambda dialog: dialog.accept())
    chief.wait_for_selector("#h4h-suggest:not([hidden])")
    assert "the next bust is the bubble" in chief.inner_text("#h4h-suggest")
    tablets = {}
    for i, n in enumerate(numbers[:2]):  # the first tablet is set to Czech
        page = browser.new_context(viewport=TABLET, **({"locale": "cs-CZ"} if i == 0 else {})).new_page()
        page.on("dialog", lambda dialog: dialog.accept())
        login(page, base, dealer.username, PASSWORD)
        page.goto(f"{base}/t/{tournament.pk}/tables/{n}/dealer/")
        page.wait_for_selector("#live.live")
        assert page.is_hidden("#h4h")
        page.evaluate("window.__sameDocument = true")
        tablets[n] = page

    chief.click("#h4h-toggle")
    chief.wait_for_selector("#h4h-panel.on")
    for page in tablets.values():  # the room-wide note reaches every tablet
        page.wait_for_selector("#h4h.deal")
    first, second = numbers[:2]
    with tablets[first].expect_request(api_press("POST", f"/tables/{first}/hand/")) as pressed:
        tablets[first].click("#shuffle")
    assert pressed.value.headers.get("idempotency-key")
    tablets[first].wait_for_selector("#h4h.playing")
    tablets[first].wait_for_selector("#dealer-feedback.ok")
    assert tablets[first].inner_text("#dealer-feedback") == in_czech_script("Hand {hand} started.", hand=1)
    with tablets[first].expect_request(api_press("POST", f"/tables/{first}/hand-done/")):
        tablets[first].click("#hand-done")
    tablets[first].wait_for_selector("#h4h.done")
    assert tablets[first].is_disabled("#shuffle")
    # Undo after "Hand done" in hand-for-hand: the API refuses, and the tablet shows its Czech detail.
    with tablets[first].expect_request(api_press("DELETE", f"/tables/{first}/hand/")):
        tablets[first].click("#undo")
    tablets[first].wait_for_selector("#dealer-feedback.refused")
    assert tablets[first].inner_text("#dealer-feedback") == in_czech(
        "Hand-for-hand: table %(table)s has reported hand %(hand)s done; its start can no longer be undone.", table=first, hand=1
    )
    tablets[first].wait_for_selector("#h4h.done")
    chief.wait_for_function(f"document.getElementById('h4h-detail').textContent.indexOf('{second}') >= 0")
    tablets[second].click("#shuffle")
    tablets[second].wait_for_selector("#h4h.playing")
    tablets[second].click("#hand-done")
    for n in numbers[2:]:  # the floor reports for the third table, from the map
        with chief.expect_request(api_press("POST", f"/tables/{n}/hand-done/")):
            chief.click(f'.m-table[data-table="{n}"] .hand-done')
    for page in tablets.values():  # hand 2 is called: every tablet may deal again
        page.wait_for_selector("#h4h.deal")
        assert "2" in page.inner_text("#h4h-text")
        assert page.evaluate("window.__sameDocument") is True
    assert screens.hand_for_hand_status(tournament)["hand"] == 2
    chief.click("#h4h-toggle")
    for page in tablets.values():
        page.wait_for_selector("#h4h", state="hidden")
    assert not Table.objects.filter(tournament=tournament, hand_in_progress=True).exists()
    for page in (chief, *tablets.values()):
        page.context.close()
