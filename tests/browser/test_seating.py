"""Seating in a real browser: the director draws 30 players from the table map; a player's seat page
on a phone follows a seat correction made on the floor's map, live and without a reload; a bust
from the map shows an Undo, and the seat page follows both."""
from __future__ import annotations

from datetime import date

import pytest

from tables import read_models
from tables import setup as table_setup
from tables.models import Seat
from tests.browser.conftest import login
from tests.conftest import PASSWORD, id_doc
from tournament import services
from tournament.models import Entry

pytestmark = pytest.mark.browser

TABLET = {"width": 1180, "height": 820}
PHONE = {"width": 390, "height": 844}


def staff_page(browser, base: str, username: str, path: str):
    page = browser.new_context(viewport=TABLET).new_page()
    login(page, base, username, PASSWORD)
    page.goto(base + path)
    page.wait_for_selector("#live.live")
    return page


def live_seat(entry: Entry) -> Seat:
    return Seat.objects.select_related("table").get(entry=entry, ended_at__isnull=True)


def test_draw_then_move_a_player_and_their_phone_follows(live_asgi, browser, director, floor, cashier, tournament):
    base = live_asgi
    for n in (1, 2, 3, 4):
        table_setup.open_table(director, tournament, n, 9)
    entries = []
    for i in range(30):
        player = services.create_player(cashier, first_name=f"Player{i:02d}", last_name="Test", date_of_birth=date(1990, 1, 1))
        entries.append(services.register_entry(cashier, tournament, player, id_doc(f"EA{i:07d}")))

    # The director draws from the map; the commitment shown beforehand is the draw's.
    chief = staff_page(browser, base, director.username, f"/t/{tournament.pk}/map/")
    shown = chief.inner_text("#next-commitment")
    chief.on("dialog", lambda dialog: dialog.accept())
    chief.click("#start-draw")
    chief.wait_for_function("document.getElementById('count-seated').textContent === '30'")
    assert chief.locator(".m-seat[data-entry]").count() == 30
    assert not chief.is_visible("#start-draw")
    draw = tournament.draws.get(kind="start")
    assert draw.commitment == shown and read_models.verify_draw(draw)["matches"]
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
    floor_page.click("#correct-go")
    table, seat = target.split(":")
    floor_page.wait_for_selector(f'.m-table[data-table="{table}"] .m-seat[data-seat="{seat}"][data-entry="{entry.number}"]')

    # The phone changes by itself: new table and seat, and the notice.
    phone.wait_for_function(f"document.getElementById('seat-table').textContent === '{table}'"
                            f" && document.getElementById('seat-seat').textContent === '{seat}'")
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
