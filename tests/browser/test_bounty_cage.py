"""The cage pays a bounty event's bounties, in a real browser: a PKO knockout made through the services, the cashier
opens the payouts page, follows "Pay bounties", types the player's document again, the player signs, the cashier pays,
and the bounty receipt shows the amount and the knockout it paid."""

from __future__ import annotations

import pytest
from django.utils import translation

from payouts.models import BountyPayment
from payouts.selectors import bounties as sel
from tests.browser.conftest import login
from tests.browser.test_payouts import sign
from tests.conftest import PASSWORD
from tests.payouts.test_bounties import bounty_night, bust, entry
from web.templatetags.money import money

pytestmark = pytest.mark.browser


def pay(page, base: str, t, document: str) -> None:
    """On the bounty pay page: the document typed again, the player signs, paid; the receipt with its signature."""
    page.fill("#pay-doc-number", document)
    sign(page)
    page.click("#pay-button")
    page.wait_for_url(f"{base}/t/{t.pk}/payouts/bounty-receipts/*/")
    page.wait_for_selector("#receipt-signature")


def test_the_cashier_pays_a_pko_knockout_with_the_id_typed_again_and_a_signature(browser, live_asgi, director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "progressive", players=4)
    bust(floor, t, 4, 1)  # #1 takes half of #4's 100 EUR head in cash, the rest onto his own head
    owed = sel.won_by_entry(t)[1]["owed"]
    assert owed == 5_000

    page = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en").new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_asgi, cashier.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{t.pk}/payouts/")
    with translation.override("en"):
        assert page.inner_text("#bounty-owed").replace("\xa0", " ") == money(owed, "EUR").replace("\xa0", " ")
    page.click("#bounty-pay-1")
    page.wait_for_url(f"{live_asgi}/t/{t.pk}/payouts/bounties/pay/1/")
    page.wait_for_load_state()  # the page's scripts have run: the signature pad draws, the form goes through the API
    assert "#4" in page.inner_text("#bounty-owed")  # what the payment pays: the knockout of entry #4

    page.fill("#pay-doc-number", "EA0000009")  # not the document entry #1 was registered with
    sign(page)
    page.click("#pay-button")
    page.wait_for_selector("text=does not match")
    assert not BountyPayment.objects.exists()

    pay(page, live_asgi, t, "EA0000000")  # registered as EA0000000 (tests/helpers.register)
    payment = BountyPayment.objects.get()
    assert (payment.entry_id, payment.amount, payment.status) == (entry(t, 1).pk, owed, BountyPayment.Status.PAID)
    assert bytes(payment.signature).startswith(b"\x89PNG") and payment.id_check.number_last4 == "0000"
    receipt = page.inner_text("#receipt").replace("\xa0", " ")
    with translation.override("en"):
        amount = money(owed, "EUR").replace("\xa0", " ")
    assert "Bounty receipt" in receipt and amount in receipt and entry(t, 1).player.display_name in receipt
    assert f"#4 {entry(t, 4).player.display_name}" in receipt
    assert "Bounties paid: bounty receipt 1." in page.inner_text("[data-api-say]")
    assert sel.won_by_entry(t)[1]["owed"] == 0
    pdf = page.request.get(f"{live_asgi}/t/{t.pk}/payouts/bounty-receipts/{payment.number}/pdf/")
    assert pdf.ok and pdf.body().startswith(b"%PDF")
    page.context.close()


def test_the_director_sets_the_bounty_settings_and_commits_the_mystery_envelopes_from_the_payouts_page(
    browser, live_asgi, director, cashier, template
):
    from payouts.models import BountyRules, MysteryBox
    from payouts.rules import bounties as b
    from tournament.services import registration

    t = bounty_night(director, cashier, template, "mystery", players=4, bounty=1_000, mystery_level=2)
    registration.set_registration_closed(t, actor=director, closed=True)
    page = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en").new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_asgi, director.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{t.pk}/payouts/")
    page.wait_for_load_state()

    page.fill("#bounty-increment", "5")  # euros, sent as cents
    page.fill("#bounty-mystery-level", "")  # blank: not by level, sent as null
    page.check("#bounty-mystery-money")
    page.click("#bounty-rules-save")
    page.wait_for_selector("text=Bounty settings saved.")
    row = BountyRules.objects.get(tournament=t)
    assert (row.increment, row.mystery_level, row.mystery_at_money) == (500, None, True)

    rows = page.locator("[data-envelope-row]")
    rows.nth(0).locator("[data-envelope-value]").fill("20")
    rows.nth(0).locator("[data-envelope-count]").fill("1")
    rows.nth(1).locator("[data-envelope-value]").fill("5")
    rows.nth(1).locator("[data-envelope-count]").fill("2")  # 30 EUR in 3 envelopes: one short of the four players
    page.click("#bounty-envelopes-commit")
    page.wait_for_selector(".api-say.refused")
    assert "4 players" in page.inner_text(".api-say.refused")
    assert not MysteryBox.objects.exists()
    page.click("#bounty-envelope-add")
    assert rows.count() == 7
    rows.nth(6).locator("[data-envelope-value]").fill("10")
    rows.nth(6).locator("[data-envelope-count]").fill("1")
    page.click("#bounty-envelopes-commit")
    page.wait_for_selector("#bounty-box-hash")
    box = MysteryBox.objects.get(tournament=t)
    assert box.envelopes == [[2_000, 1], [1_000, 1], [500, 2]] and box.list_hash == b.list_hash([(2_000, 1), (1_000, 1), (500, 2)])
    assert page.inner_text("#bounty-box-hash") == box.list_hash
    assert "4 envelopes left" in page.inner_text("#bounty-box-left")
    assert not page.locator("#bounty-envelopes-form").count()
    page.context.close()
