"""The cashier's registration, end to end in a real browser, with the entry pushed live to a second page."""
import re

import pytest

from tests.browser.conftest import login
from tests.conftest import PASSWORD, make_user
from tournament.models import AuditEvent, Entry, Player

pytestmark = pytest.mark.browser


def test_cashier_registers_with_id_check_and_entry_appears_live(live_asgi, browser, tournament):
    make_user("kasa", "Cashier")
    make_user("floorman", "Floor")
    base = live_asgi

    # A second screen: the floor's tournament overview, live over the WebSocket.
    floor_ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    floor_page = floor_ctx.new_page()
    login(floor_page, base, "floorman", PASSWORD)
    floor_page.goto(f"{base}/t/{tournament.pk}/")
    floor_page.wait_for_selector("#live.live")
    floor_page.evaluate("window.__notReloaded = true")

    ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    page = ctx.new_page()
    login(page, base, "kasa", PASSWORD)
    page.goto(f"{base}/t/{tournament.pk}/players/new/")
    page.fill("#id_first_name", "Eva")
    page.fill("#id_last_name", "Svobodová")
    page.fill("#id_date_of_birth", "1988-03-04")
    page.click("button[type=submit]")
    page.wait_for_selector("#chosen-player")
    assert "Eva Svobodová" in page.inner_text("#chosen-player")

    # Refused without an ID check: nothing is registered.
    page.click("#register-button")
    page.wait_for_selector(".errorlist")
    assert "No entry without an ID check" in page.inner_text(".errorlist")
    assert not Entry.objects.exists()

    # With the ID check: registered, and the receipt is shown.
    page.select_option("#id_document_type", "id_card")
    page.fill("#id_document_number", "EB 998877 6")
    page.check("#id_seen")
    page.click("#register-button")
    page.wait_for_selector("#receipt")
    entry = Entry.objects.get()
    assert entry.player == Player.objects.get(last_name="Svobodová")
    receipt_text = page.inner_text("#receipt")
    assert f"#{entry.number}" in receipt_text and "Eva Svobodová" in receipt_text and "kasa" in receipt_text
    assert "100.00 EUR" in receipt_text and "15.00 EUR" in receipt_text
    assert "EB9988776" not in page.content() and "998877" not in page.content()

    # Print: the button opens the print dialog; the print stylesheet hides everything but the receipt.
    page.evaluate("window.__printed = 0; window.print = () => { window.__printed += 1; }")
    page.click("#print-receipt")
    assert page.evaluate("window.__printed") >= 1
    page.emulate_media(media="print")
    assert not page.is_visible("header.top") and page.is_visible("#receipt")
    pdf = page.request.get(f"{base}/t/{tournament.pk}/receipts/1/pdf/")
    assert pdf.status == 200 and pdf.headers["content-type"] == "application/pdf" and pdf.body().startswith(b"%PDF")

    # The second page got the entry over the WebSocket, without a reload.
    row = floor_page.wait_for_selector(f'#recent tr[data-entry="{entry.number}"]', timeout=5000)
    assert "Eva Svobodová" in row.inner_text()
    assert floor_page.evaluate("window.__notReloaded") is True
    assert re.sub(r"\D", "", floor_page.inner_text('[data-stat="entries"]')) == "1"
    assert AuditEvent.objects.filter(type="entry.registered", tournament=tournament).count() == 1
    ctx.close()
    floor_ctx.close()
