"""Two bounty events in one room on one evening, through the screens only, in a real browser.

The progressive knockout: the dealer tablet reports the night's first bust with the seat that won the pot, the floor
confirms it on the map with one press, the lobby TV left open shows the winner's grown head, the cashier pays his bounty
at the cage with the ID typed again and a signature and the receipt names the knockout, and the winner's phone left open
says what he won. The mystery bounty, at the same time: the floor busts a player on the map naming who won the pot, and
the event's TV left open says the envelope drawn at once, one fewer in the box. Nothing is made through the services
after the draws; no page is reloaded."""

from __future__ import annotations

import pytest
from django.utils import translation
from playwright.sync_api import expect

from payouts.models import BountyPayment
from payouts.selectors import bounties as sel
from payouts.services import bounties
from tables.selectors.state import seat_of
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.sizes import PHONE
from tests.browser.test_bounty_cage import pay
from tests.browser.test_bounty_lobby import ENVELOPES, open_tv
from tests.browser.test_clock_call_dealer import open_tablet
from tests.browser.test_lobby import TV
from tests.browser.test_seating import staff_page
from tests.conftest import PASSWORD
from tests.payouts.test_bounties import bounty_night, entry
from tournament.models import Entry, Tournament
from tournament.services import registration
from web.templatetags.money import money

pytestmark = pytest.mark.browser


def said(page, selector: str) -> str:
    return page.inner_text(selector).replace("\u00a0", " ")


def test_a_pko_and_a_mystery_bounty_evening_through_the_screens(live_asgi, browser, dealer, floor, director, cashier, template):
    base = live_asgi
    pko = bounty_night(director, cashier, template, "progressive", players=5)  # EUR 100 a head, at table 1
    mystery = bounty_night(director, cashier, template, "mystery", players=5, bounty=1_000, mystery_level=2, table=2)
    registration.set_registration_closed(mystery, actor=director, closed=True)
    bounties.commit_envelopes(mystery, actor=director, envelopes=ENVELOPES)
    Tournament.objects.filter(pk=mystery.pk).update(current_level=2)  # the envelopes are drawn from level 2
    pko_tv = browser.new_context(viewport=TV, locale="en").new_page()
    pko_errors = watch_errors(pko_tv)
    pko_tv.goto(f"{base}/display/{registration.create_display_token(pko, actor=director, label='PKO TV').token}/?bounties=1")
    pko_tv.wait_for_selector("#live.live")  # ?bounties=1: the bounty panel kept in view
    pko_tv.evaluate("window.keptOpen = true")
    mystery_tv, mystery_errors = open_tv(
        browser, base, registration.create_display_token(mystery, actor=director, label="Mystery TV").token, TV
    )
    phone = browser.new_context(viewport=PHONE, locale="en").new_page()
    phone.goto(f"{base}/s/{pko.pk}/2/")
    phone.wait_for_selector("#live.live")
    phone.evaluate("window.keptOpen = true")
    assert "Bounties you have won" not in said(phone, "main")

    # The dealer of table 1 reports the first bust: seat of #1 out, the pot to #2's seat.
    out, won = seat_of(entry(pko, 1)).seat, seat_of(entry(pko, 2)).seat
    tablet = open_tablet(browser, base, dealer, pko)
    tablet.click("#bust-open")
    tablet.click(f'#bust-out button[data-seat="{out}"]')
    tablet.click(f'#bust-won button[data-seat="{won}"]')
    tablet.click("#bust-go")
    expect(tablet.locator("#dealer-feedback")).to_contain_text("waits for the floor")

    # The floor confirms it on the map with one press.
    floor_page = staff_page(browser, base, floor.username, f"/t/{pko.pk}/map/")
    floor_page.wait_for_selector("#reports-panel", state="visible")
    floor_page.click("#report-list .confirm-report")
    expect(floor_page.locator("#notice")).to_contain_text("as the dealer reported")
    assert entry(pko, 1).status == Entry.Status.BUSTED and sel.heads(pko)[2] == 15_000  # half in cash, half onto his head

    # The PKO's TV left open: #2 heads the biggest heads with EUR 150, the money in play down by the cash paid.
    name = entry(pko, 2).player.display_name
    pko_tv.wait_for_function(  # every head was EUR 100 before: the first row is his once the TV heard it
        "() => { const li = document.querySelector('#lobby-bounty-list li'); return !!li && li.textContent.indexOf('150') >= 0; }",
        timeout=8000,
    )
    first = pko_tv.locator("#lobby-bounty-list li").first.inner_text().replace("\u00a0", " ")
    assert first.split("\n") == ["1.", name, "EUR 150"]
    assert pko_tv.text_content("#lobby-bounty-pool") == "EUR\u00a0450"
    assert pko_tv.evaluate("window.keptOpen === true")

    # The cage pays #2's cash share: the ID typed again, the signature, the receipt naming the knockout of #1.
    cage = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en").new_page()
    cage.on("dialog", lambda dialog: dialog.accept())
    login(cage, base, cashier.username, PASSWORD)
    cage.goto(f"{base}/t/{pko.pk}/payouts/")
    cage.click("#bounty-pay-2")
    cage.wait_for_url(f"{base}/t/{pko.pk}/payouts/bounties/pay/2/")
    cage.wait_for_load_state()
    pay(cage, base, pko, "EA0000001")  # #2 registered with EA0000001 (tests/helpers.register)
    payment = BountyPayment.objects.get(tournament=pko)
    assert (payment.entry_id, payment.amount, payment.status) == (entry(pko, 2).pk, 5_000, BountyPayment.Status.PAID)
    with translation.override("en"):
        amount = money(5_000, "EUR").replace("\u00a0", " ")
    receipt = said(cage, "#receipt")
    assert "Bounty receipt" in receipt and amount in receipt and f"#1 {entry(pko, 1).player.display_name}" in receipt
    assert sel.won_by_entry(pko)[2]["owed"] == 0

    # The winner's phone, left open since before the bust: his head and what he won.
    phone.wait_for_function("document.querySelector('main').textContent.indexOf('Bounties you have won') >= 0", timeout=8000)
    text = said(phone, "main")
    assert "The bounty on your head: EUR 150" in text and "Bounties you have won: EUR 50 (1 knockout)" in text
    assert phone.evaluate("window.keptOpen === true")

    # Meanwhile, the mystery bounty: the floor busts #5 on its map, the pot won by #1.
    floor_page.goto(f"{base}/t/{mystery.pk}/map/")
    floor_page.wait_for_selector("#live.live")
    floor_page.click('.m-seat[data-entry="5"]')
    floor_page.click("#bust-ask")
    floor_page.click('#bust-winner-list button[data-entry="1"]')
    floor_page.click("#bust-go")
    floor_page.wait_for_selector("#undo-bar:not([hidden])")
    value = sel.won_by_entry(mystery)[1]["won"]
    assert value in {v for v, _n in ENVELOPES}
    mystery_tv.wait_for_selector("#lobby-envelope:not([hidden])", timeout=8000)
    winner = entry(mystery, 1).player.display_name
    assert mystery_tv.inner_text("#lobby-envelope") == f"Envelope drawn: EUR\u00a0{value // 100} for {winner}"
    assert mystery_tv.text_content("#lobby-bounty-sub") == "4 envelopes left"
    assert mystery_tv.evaluate("window.keptOpen === true")
    # the other event's TV says nothing of it
    assert pko_tv.is_hidden("#lobby-envelope")
    for page, errors in ((pko_tv, pko_errors), (mystery_tv, mystery_errors)):
        assert not csp_problems(page, errors), csp_problems(page, errors)
    for context in browser.contexts:
        context.close()
