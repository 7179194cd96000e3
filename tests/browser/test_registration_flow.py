"""The cashier's registration, end to end in a real browser, with the entry pushed live to a second page.
The page registers a new player with his entry in one call of the public API (POST
/api/tournaments/<id>/entries/ with `new_player`: a refused registration keeps no player record) and
shows each refusal the API gives."""

import re
from datetime import date

import pytest
from playwright.sync_api import expect

from tables.services import setup as table_setup
from tests.browser.conftest import login
from tests.conftest import PASSWORD, make_user
from tests.tournament.test_registration import years_before
from tournament.models import AuditEvent, DisplayToken, Entry, Player
from tournament.services import registration, setup

pytestmark = pytest.mark.browser

# The new player's fields are named as the API's nested body: "new_player.first_name" (id_new_player.first_name).
FIRST_NAME, LAST_NAME, BORN = (f'[name="new_player.{name}"]' for name in ("first_name", "last_name", "date_of_birth"))


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
    entries_api = f"{base}/api/tournaments/{tournament.pk}/entries/"

    # A new player and the ID check on one page, one press: nothing is kept until the entry is taken.
    page.fill(FIRST_NAME, "Eva")
    page.fill(LAST_NAME, "Svobodová")
    page.fill(BORN, "1988-03-04")
    # Refused without an ID check: nothing is registered, nobody is created, and each field says what it misses.
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == entries_api) as refused:
        page.click("#register-button")
    assert refused.value.status == 400 and set(refused.value.json()["fields"]) == {"document_type", "document_number", "seen"}
    page.wait_for_selector(".api-say.refused")
    assert "no entry without an ID check" in page.inner_text(".api-say")
    assert "no entry without an ID check" in page.inner_text('.errorlist[data-api-field="document_number"]')
    assert "in person" in page.inner_text('.errorlist[data-api-field="seen"]')
    assert not Entry.objects.exists() and not Player.objects.exists()

    # The document, but not the confirmation that it was seen in person: refused by the API too.
    page.select_option("#id_document_type", "id_card")
    page.fill("#id_document_number", "EB 998877 6")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == entries_api) as unseen:
        page.click("#register-button")
    assert list(unseen.value.json()["fields"]) == ["seen"]
    expect(page.locator(".api-say")).to_have_text(unseen.value.json()["fields"]["seen"][0])  # the page has read the answer
    assert unseen.value.json()["fields"] == {"seen": [page.inner_text('.errorlist[data-api-field="seen"]')]}
    assert not page.query_selector('.errorlist[data-api-field="document_number"]')
    assert not Entry.objects.exists() and not Player.objects.exists()

    # Too young: the API's refusal is shown and nobody is created.
    page.check("#id_seen")
    page.fill(BORN, years_before(date.today(), 16).isoformat())
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == entries_api) as young:
        page.click("#register-button")
    assert young.value.status == 400 and young.value.json()["error"] == "under_age"
    page.wait_for_function("(answer) => document.querySelector('.api-say').textContent === answer", arg=young.value.json()["detail"])
    assert not Player.objects.exists()
    page.fill(BORN, "1988-03-04")

    # With the ID check: registered, and the receipt is shown.
    page.check("#id_seen")
    with page.expect_request(lambda r: r.method == "POST" and r.url == entries_api) as registered:
        page.click("#register-button")
    sent = registered.value.post_data_json
    assert sent["new_player"] == {"first_name": "Eva", "last_name": "Svobodová", "date_of_birth": "1988-03-04"}
    assert sent["document_type"] == "id_card" and sent["seen"] is True and "player" not in sent
    assert registered.value.headers["idempotency-key"] and registered.value.headers["x-csrftoken"]
    page.wait_for_selector("#receipt")
    entry = Entry.objects.get()
    assert entry.player == Player.objects.get(last_name="Svobodová")
    receipt_text = page.inner_text("#receipt")
    assert f"#{entry.number}" in receipt_text and "Eva Svobodová" in receipt_text and "kasa" in receipt_text
    shown = receipt_text.replace("\u00a0", " ")  # amounts in major units, no ",00" when whole: "EUR 1,100"
    assert "EUR 100\n" in shown and "EUR 15\n" in shown and "EUR 115\n" in shown and "10000" not in shown
    assert "EB9988776" not in page.content() and "998877" not in page.content()
    expect(page.locator(".api-say")).to_have_text(f"Entry #{entry.number} registered for Eva Svobodová.")

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


def test_registration_refusals_of_the_api_stay_visible(live_asgi, browser, director, tournament, player):
    """Closed registration and a document already used: the API's translated detail, on the page."""
    make_user("kasa", "Cashier")
    ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    page = ctx.new_page()
    login(page, live_asgi, "kasa", PASSWORD)
    entries_api = f"{live_asgi}/api/tournaments/{tournament.pk}/entries/"
    other = registration.create_player(actor=director, first_name="Petr", last_name="Malý", date_of_birth=date(1980, 1, 1))
    registration.register_entry(tournament, actor=director, player=other, document=registration.IdDocument("passport", "P1234567"))

    page.goto(f"{live_asgi}/t/{tournament.pk}/register/?player={player.pk}")
    page.select_option("#id_document_type", "passport")
    page.fill("#id_document_number", "P1234567")
    page.check("#id_seen")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == entries_api) as used:
        page.click("#register-button")
    assert used.value.status == 409 and used.value.json()["error"] == "id_other_player"
    page.wait_for_selector(".api-say.refused")
    assert page.inner_text(".api-say") == used.value.json()["detail"] and "Petr Malý" in used.value.json()["detail"]

    registration.set_registration_closed(tournament, actor=director, closed=True)
    page.fill("#id_document_number", "EA7654321")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == entries_api) as closed:
        page.click("#register-button")
    assert closed.value.status == 409 and closed.value.json()["error"] == "registration_closed"
    page.wait_for_function("(answer) => document.querySelector('.api-say').textContent === answer", arg=closed.value.json()["detail"])
    assert Entry.objects.count() == 1
    ctx.close()


def test_entry_page_rebuy_pay_void_bust_and_seat_request_through_the_api(live_asgi, browser, director, tournament, player):
    """The entry page's buttons: each press one call of the public API; the answer is said after the page
    reloads (or on the receipt it goes to), a refusal under its field and in the banner."""
    make_user("kasa", "Cashier")
    make_user("floorman", "Floor")
    setup.update_tournament(tournament, actor=director, data={"rebuy_allowed": True, "rebuy_price": 5000, "rebuy_chips": 10000})
    entry = registration.register_entry(tournament, actor=director, player=player, document=registration.IdDocument("id_card", "EA1234567"))
    table_setup.open_table(tournament, actor=director, number=2)
    base, api = live_asgi, f"{live_asgi}/api/tournaments/{tournament.pk}"
    entry_url = f"{base}/t/{tournament.pk}/entries/{entry.number}/"

    ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    page = ctx.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, base, "kasa", PASSWORD)
    page.goto(entry_url)
    with page.expect_request(f"{api}/entries/{entry.number}/rebuy/") as rebuy:
        page.click("#rebuy-announced")
    assert rebuy.value.post_data_json == {"paid": False}
    page.wait_for_function("(document.querySelector('.api-say') || {}).textContent === 'Receipt 2 recorded.'")
    with page.expect_request(f"{api}/receipts/2/pay/"):
        page.click('[data-pay="2"]')
    page.wait_for_selector("#receipt")
    assert page.url == f"{base}/t/{tournament.pk}/receipts/2/"
    expect(page.locator(".api-say")).to_have_text("Receipt 2 is paid.")  # said once the receipt page's script has run

    page.goto(entry_url)
    page.click("details:has([data-void='2']) summary")
    void_form = page.locator("form:has([data-void='2'])")
    void_form.locator("[name=refund_amount]").fill("999999")
    void_form.locator("[name=reason]").fill("typo")
    with page.expect_response(f"{api}/receipts/2/void/") as too_much:
        page.click('[data-void="2"]')
    assert too_much.value.status == 400
    page.wait_for_selector(".api-say.refused")
    assert page.inner_text(".api-say") == too_much.value.json()["detail"]
    void_form.locator("[name=refund_amount]").fill("")
    with page.expect_request(f"{api}/receipts/2/void/") as voided:
        page.click('[data-void="2"]')
    assert voided.value.post_data_json == {"reason": "typo"}
    page.wait_for_function("(document.querySelector('.api-say') || {}).textContent === 'Receipt 2 is void; the refund is recorded.'")
    ctx.close()

    ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    page = ctx.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, base, "floorman", PASSWORD)
    page.goto(entry_url)
    seat_form = page.locator("#seat-request")
    seat_form.locator("[name=seat]").fill("3")
    with page.expect_response(f"{api}/players/{player.pk}/seat-request/") as refused:
        seat_form.locator("button").click()
    assert refused.value.status == 400
    page.wait_for_selector('#seat-request .errorlist[data-api-field="table"]')
    assert page.inner_text('#seat-request .errorlist[data-api-field="table"]') == "A fixed seat needs its table."
    seat_form.locator("[name=table]").fill("2")
    with page.expect_request(f"{api}/players/{player.pk}/seat-request/") as saved:
        seat_form.locator("button").click()
    assert saved.value.post_data_json == {"table": 2, "seat": 3, "accessible": False}
    page.wait_for_function("(document.querySelector('.api-say') || {}).textContent === 'The seat request is saved.'")
    with page.expect_request(lambda r: r.method == "DELETE" and r.url == f"{api}/players/{player.pk}/seat-request/"):
        page.click("#seat-request-cancel")
    page.wait_for_function("(document.querySelector('.api-say') || {}).textContent === 'The seat request is cancelled.'")

    with page.expect_request(f"{api}/entries/{entry.number}/bust/"):
        page.click("#bust")
    page.wait_for_function("(document.querySelector('.api-say') || {}).textContent === 'Entry #1 is out in place 1.'")
    with page.expect_request(f"{api}/entries/{entry.number}/undo-bust/"):
        page.click("#undo-bust")
    page.wait_for_function("(document.querySelector('.api-say') || {}).textContent === 'Entry #1 plays again.'")
    types = list(AuditEvent.objects.filter(tournament=tournament).values_list("type", flat=True))
    for event in ("rebuy.announced", "rebuy.paid", "purchase.voided", "entry.busted", "entry.bust_undone"):
        assert event in types, (event, types)
    ctx.close()


def test_director_creates_and_revokes_a_lobby_screen_link(live_asgi, browser, director, tournament):
    ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    page = ctx.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_asgi, director.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{tournament.pk}/displays/")
    page.fill("#id_label", "TV bar")
    with page.expect_request(f"{live_asgi}/api/tournaments/{tournament.pk}/displays/") as created:
        page.click("#display-create button")
    assert created.value.post_data_json == {"label": "TV bar"}
    page.wait_for_selector("#display-list tr.new")
    token = DisplayToken.objects.get(label="TV bar")
    link = page.inner_text("#new-link-url")  # shown this once: the server keeps only its hash
    assert link.startswith(f"{live_asgi}/display/{token.prefix}") and DisplayToken.objects.for_link(link.split("/")[-2]).get() == token
    assert token.prefix in page.inner_text("#display-list tr.new")
    expect(page.locator(".api-say")).to_have_text("Screen link created for TV bar.")
    with page.expect_request(f"{live_asgi}/api/tournaments/{tournament.pk}/displays/{token.pk}/revoke/"):
        page.click("#display-list tr.new button")
    page.wait_for_function(
        "(document.querySelector('.api-say') || {}).textContent === 'The link of TV bar is revoked; that screen goes blank.'"
    )
    assert page.is_hidden("#new-link") and "revoked" in page.inner_text(f'#display-list tr[data-display="{token.pk}"]')
    ctx.close()


def test_a_new_player_refused_on_the_page_leaves_no_player_record(live_asgi, browser, director, tournament, player):
    """The new player page's document is already used by another player's record; the
    refusal is shown and Player.objects.count() is what it was (before, the player was saved first)."""
    make_user("kasa", "Cashier")
    registration.register_entry(tournament, actor=director, player=player, document=registration.IdDocument("passport", "P1234567"))
    players = Player.objects.count()
    ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    page = ctx.new_page()
    login(page, live_asgi, "kasa", PASSWORD)
    page.goto(f"{live_asgi}/t/{tournament.pk}/register/")
    page.click(f"a[href='/t/{tournament.pk}/players/new/']")
    page.wait_for_url("**/players/new/")
    page.wait_for_load_state()  # the form's scripts have run: it is sent through the API
    page.fill(FIRST_NAME, "Eva")
    page.fill(LAST_NAME, "Malá")
    page.fill(BORN, "1988-03-04")
    page.select_option("#id_document_type", "passport")
    page.fill("#id_document_number", "P1234567")
    page.check("#id_seen")
    entries_api = f"{live_asgi}/api/tournaments/{tournament.pk}/entries/"
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == entries_api) as used:
        page.click("#register-button")
    assert used.value.status == 409 and used.value.json()["error"] == "id_other_player"
    page.wait_for_selector(".api-say.refused")
    assert page.inner_text(".api-say") == used.value.json()["detail"] and "Jana Nováková" in used.value.json()["detail"]
    assert Player.objects.count() == players and Entry.objects.count() == 1
    assert not Player.objects.filter(last_name="Malá").exists()
    page.screenshot(path="/tmp/new_player_refused.png", full_page=True)
    # Another document: the player and his entry, together.
    page.fill("#id_document_number", "EA7654321")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url == entries_api) as registered:
        page.click("#register-button")
    assert registered.value.status == 201
    page.wait_for_selector("#receipt")
    assert Player.objects.count() == players + 1 and Entry.objects.get(number=2).player.last_name == "Malá"
    ctx.close()
