"""Seating in a real browser: the director draws 30 players from the table map; a player's seat page
on a phone follows a seat correction made on the floor's map, live and without a reload; a bust
from the map shows an Undo, and the seat page follows both. The map's presses go to the public JSON
API and show its answer or its refusal. The director opens a table (its shuffler token shown once),
saves the break order and takes a table out of play on the tables page, through the same API."""

from __future__ import annotations

from datetime import date

import pytest
from playwright.sync_api import expect

from tables.models import Seat, Table
from tables.selectors import draw_check, screens
from tables.selectors import state as tables_selectors
from tables.services import draws
from tables.services import setup as table_setup
from tables.services.seats import correct_seat
from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.helpers import id_doc, live_seat
from tournament.models import Entry
from tournament.services import registration

pytestmark = pytest.mark.browser

TABLET = {"width": 1180, "height": 820}
PHONE = {"width": 390, "height": 844}


def staff_page(browser, base: str, username: str, path: str):
    page = browser.new_context(viewport=TABLET).new_page()
    login(page, base, username, PASSWORD)
    page.goto(base + path)
    page.wait_for_selector("#live.live")
    return page


def test_draw_then_move_a_player_and_their_phone_follows(live_asgi, browser, director, floor, cashier, tournament):
    base = live_asgi
    for n in (1, 2, 3, 4):
        table_setup.open_table(tournament, actor=director, number=n, seats=9)
    entries = []
    for i in range(30):
        player = registration.create_player(actor=cashier, first_name=f"Player{i:02d}", last_name="Test", date_of_birth=date(1990, 1, 1))
        entries.append(registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(f"EA{i:07d}")))

    # The director draws from the map; the commitment shown beforehand is the draw's.
    chief = staff_page(browser, base, director.username, f"/t/{tournament.pk}/map/")
    shown = chief.inner_text("#next-commitment")
    chief.on("dialog", lambda dialog: dialog.accept())
    with chief.expect_request(lambda r: r.method == "POST" and r.url == f"{base}/api/tournaments/{tournament.pk}/draw/"):
        chief.click("#start-draw")
    chief.wait_for_function("document.getElementById('count-seated').textContent === '30'")
    assert chief.locator(".m-seat[data-entry]").count() == 30
    assert not chief.is_visible("#start-draw")
    draw = tournament.draws.get(kind="start")
    assert draw.commitment == shown and draw_check.verify_draw(draw)["matches"]
    # Said once the press is answered (the map may have drawn the seats from its socket's event before).
    expect(chief.locator("#notice")).to_have_text(f"Draw {draw.number} is done: every entry has a seat.")
    chief.context.close()

    # A player finds their seat on their phone.
    entry = entries[7]
    before = live_seat(entry)
    phone = browser.new_context(viewport=PHONE).new_page()
    phone.goto(f"{base}/s/{tournament.pk}/")
    phone.fill("#q", str(entry.number))
    phone.click("#seat-search button")
    phone.wait_for_url(f"{base}/s/{tournament.pk}/{entry.number}/")
    phone.wait_for_selector("#live.live")
    assert phone.inner_text("#seat-table") == str(before.table.number) and phone.inner_text("#seat-seat") == str(before.seat)
    assert not phone.is_visible("#moved")
    phone.evaluate("window.__sameDocument = true")

    # The floor corrects the seat on the map: to the first open seat of another table.
    floor_page = staff_page(browser, base, floor.username, f"/t/{tournament.pk}/map/")
    floor_page.click(f'.m-seat[data-entry="{entry.number}"]')
    floor_page.wait_for_selector("#seat-dialog[open]")
    options = floor_page.eval_on_selector_all("#correct-target option", "os => os.map(o => o.value)")
    target = next(v for v in options if not v.startswith(f"{before.table.number}:"))
    floor_page.select_option("#correct-target", target)
    table, seat = target.split(":")
    with floor_page.expect_request(
        lambda r: r.method == "POST" and r.url.endswith(f"/api/tournaments/{tournament.pk}/entries/{entry.number}/seat/")
    ) as pressed:
        floor_page.click("#correct-go")
    assert pressed.value.post_data_json == {"table": int(table), "seat": int(seat)}
    floor_page.wait_for_selector(f'.m-table[data-table="{table}"] .m-seat[data-seat="{seat}"][data-entry="{entry.number}"]')
    expect(floor_page.locator("#notice")).to_have_text(f"Entry #{entry.number} now sits at table {table} seat {seat}.")

    # A refusal shows the API's detail: the button set at a seat nobody sits at.
    short, empty_seat = next(
        (t["table"], s["seat"]) for t in screens.floor_map(tournament)["tables"] for s in t["seat_list"] if s["entry"] is None
    )
    floor_page.click(f'.m-table[data-table="{short}"] .button-draw')
    floor_page.wait_for_selector("#button-dialog[open]")
    floor_page.fill("#button-seat", str(empty_seat))
    with floor_page.expect_response(
        lambda r: r.request.method == "POST" and r.url.endswith(f"/api/tournaments/{tournament.pk}/tables/{short}/button/")
    ) as answered:
        floor_page.click("#button-set")
    refusal = answered.value.json()
    assert answered.value.status == 400 and refusal["error"] == "bad_seat"
    floor_page.wait_for_selector("#notice.refused")
    assert floor_page.inner_text("#notice") == refusal["detail"] and "The button goes to an occupied seat" in refusal["detail"]

    # The phone changes by itself: new table and seat, and the notice.
    phone.wait_for_function(
        f"document.getElementById('seat-table').textContent === '{table}' && document.getElementById('seat-seat').textContent === '{seat}'"
    )
    phone.wait_for_selector("#moved", state="visible")
    assert f"table {table} seat {seat}" in phone.inner_text("#moved")
    assert phone.evaluate("window.__sameDocument") is True  # no reload
    now = live_seat(entry)
    assert (now.table.number, now.seat) == (int(table), int(seat))

    # A bust from the map (confirmed first) shows an Undo; the phone shows the player out, then back.
    floor_page.click(f'.m-seat[data-entry="{entry.number}"]')
    floor_page.click("#bust-ask")
    floor_page.wait_for_selector("#bust-confirm:not([hidden])")
    floor_page.click("#bust-go")
    floor_page.wait_for_selector("#undo-bar:not([hidden])")
    phone.wait_for_selector("#seat-out", state="visible")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.BUSTED
    floor_page.click("#undo-bust")
    floor_page.wait_for_selector("#undo-bar[hidden]", state="attached")
    phone.wait_for_selector("#seat-boxes", state="visible")
    phone.wait_for_function(f"document.getElementById('seat-table').textContent === '{table}'")
    entry.refresh_from_db()
    assert entry.status == Entry.Status.ACTIVE
    for page in (floor_page, phone):
        page.context.close()


def test_the_tables_page_opens_a_table_saves_the_break_order_and_takes_a_table_out(live_asgi, browser, director, tournament):
    base = live_asgi
    for n in (1, 2, 3):
        table_setup.open_table(tournament, actor=director, number=n, seats=9)
    page = staff_page(browser, base, director.username, f"/t/{tournament.pk}/tables/")
    page.evaluate("window.__sameDocument = true")

    # Open table 4: the API's answer carries the shuffler token, shown this once, with the new row.
    page.fill("#open-number", "4")
    tables_api = f"{base}/api/tournaments/{tournament.pk}/tables/"
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == tables_api) as opened:
        page.click("#open-button")
    token = opened.value.json()["shuffler_token"]
    page.wait_for_selector("#new-token:not([hidden])")
    assert page.inner_text("#shuffler-token") == token and "Table 4 is open" in page.inner_text("#new-token")
    page.wait_for_selector('#table-list tr[data-table="4"][data-in-play]')
    assert page.inner_text("#tables-say") == "Table 4 is open."
    assert Table.objects.get(tournament=tournament, number=4).shuffler_token_hash != token

    # The break order: a word that is not a table number is refused on the page; the API checks the rest.
    page.fill("#break-order-input", "1 2 x 4")
    page.click("#break-order-button")
    page.wait_for_selector("#tables-say.refused")
    assert page.inner_text("#tables-say") == "List the table numbers in the order they break."
    page.fill("#break-order-input", "1 2")
    page.click("#break-order-button")
    page.wait_for_function("document.getElementById('tables-say').textContent.indexOf('exactly once') >= 0")
    assert page.inner_text("#tables-say") == "List every table in play exactly once (tables in play: 1, 2, 3, 4)."
    page.fill("#break-order-input", "2, 4 1 3")
    with page.expect_request(lambda r: r.method == "PUT" and r.url.endswith("/tables/break-order/")) as pressed:
        page.click("#break-order-button")
    assert pressed.value.post_data_json == {"order": [2, 4, 1, 3]}
    page.wait_for_function("document.getElementById('tables-say').textContent === 'Break order saved: 2, 4, 1, 3.'")
    page.wait_for_function("document.getElementById('break-order-input').value === '2 4 1 3'")
    assert tables_selectors.break_order(tournament) == [2, 4, 1, 3]

    # Table 3 out of play, then back.
    page.click('#table-list button[data-table="3"][data-set-in-play="0"]')
    page.wait_for_selector('#table-list tr[data-table="3"].out-of-play')
    assert page.inner_text("#tables-say") == "Table 3 is out of play."
    assert not Table.objects.get(tournament=tournament, number=3).in_play
    page.click('#table-list button[data-table="3"][data-set-in-play="1"]')
    page.wait_for_selector('#table-list tr[data-table="3"][data-in-play]')
    assert page.inner_text("#tables-say") == "Table 3 is in play."
    # The token is still on the screen: nothing reloaded the page.
    assert page.inner_text("#shuffler-token") == token and page.evaluate("window.__sameDocument") is True
    page.context.close()


def test_a_seat_page_asks_its_seat_again_only_when_the_sockets_snapshot_has_newer_seats(
    live_asgi, browser, director, floor, cashier, tournament
):
    """The draw rush: the page carries its seat and the seats' version it is at; the socket's first snapshot says
    the room's (seats_seq). No newer: the phone asks nothing more. Newer (the floor moves the player between the
    page and its socket): one seat JSON, naming the snapshot's seq, and the page shows the new seat."""
    base = live_asgi
    table_setup.open_table(tournament, actor=director, number=1, seats=9)
    entries = []
    for i in range(4):
        player = registration.create_player(actor=cashier, first_name=f"Rush{i}", last_name="Test", date_of_birth=date(1990, 1, 1))
        entries.append(registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(f"RS{i:07d}")))
    draws.draw_start(tournament, actor=director)
    entry = entries[0]
    seat_json = f"{base}/api/public/tournaments/{tournament.pk}/seats/{entry.number}/"

    def open_phone(between=None):
        """The phone opens its seat page; `between` runs after the page is served and before its script (and so
        its socket) starts."""
        context = browser.new_context(viewport=PHONE)

        def hold_script(route):
            if between is not None:
                between()
            route.continue_()  # the request itself goes on as it was

        context.route("**/js/seat-page*.js", hold_script)
        phone = context.new_page()
        asked = []
        phone.on("request", lambda r: asked.append(r.url) if r.url.startswith(seat_json) else None)
        phone.goto(f"{base}/s/{tournament.pk}/{entry.number}/")
        phone.wait_for_selector("#live.live")
        phone.wait_for_timeout(600)  # longer than the page waits before it refetches (200 ms)
        return phone, asked

    phone, asked = open_phone()
    assert asked == []
    assert phone.inner_text("#seat-seat") == str(live_seat(entry).seat)
    phone.context.close()

    free = next(n for n in range(1, 10) if not Seat.objects.filter(table__tournament=tournament, seat=n, ended_at__isnull=True).exists())
    phone, asked = open_phone(between=lambda: correct_seat(entry, actor=floor, table_number=1, seat_number=free))
    tournament.refresh_from_db()
    assert asked == [f"{seat_json}?v={tournament.event_seq}"]
    phone.wait_for_function(f"document.getElementById('seat-seat').textContent === '{free}'")
    phone.context.close()
