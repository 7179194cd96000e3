"""The prizes as the room sees them, in a real browser: the lobby TV shows the places paid and the
bubble, then "in the money" and the next pay jump as busts come; the busted player's phone shows the
prize won."""

from __future__ import annotations

import pytest

from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from tables.services import busts, draws
from tests.helpers import open_tables, register
from tournament.services import registration as tournament_services


def sign(page) -> None:
    """The player signs on the pay page's pad."""
    box = page.locator("#signature").bounding_box()
    page.mouse.move(box["x"] + 30, box["y"] + 150)
    page.mouse.down()
    for x, y in ((120, 60), (220, 170), (330, 50), (450, 140)):
        page.mouse.move(box["x"] + x, box["y"] + y, steps=6)
    page.mouse.up()


TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}


@pytest.fixture
def four_paid_of_eight(director, cashier, tournament):
    tournament.guaranteed_pool = 0
    tournament.save(update_fields=["guaranteed_pool"])
    open_tables(director, tournament, [1])
    entries = register(cashier, tournament, 8)
    draws.draw_start(tournament, actor=director)
    payouts_services.set_payout_plan(tournament, actor=director, data={"share_paid_bp": 5000, "min_cash_bp": 0})  # four paid
    return entries


def test_the_lobby_goes_in_the_money_and_the_phone_shows_the_prize(browser, live_asgi, director, floor, tournament, four_paid_of_eight):
    display = tournament_services.create_display_token(tournament, actor=director, label="TV")
    tv = browser.new_context(viewport=TV, locale="en").new_page()
    tv.goto(f"{live_asgi}/display/{display.token}/")
    tv.wait_for_selector("#live.live")
    assert tv.inner_text("#lobby-places") == "4"
    # Eight left, four paid: not the bubble yet, the minimum cash.
    min_cash = f"{payouts_selectors.payout_state(tournament)['prizes'][-1] // 100:,}"
    jump = tv.inner_text("#lobby-jump")
    assert "bubble" not in jump and "min. cash" in jump and min_cash in jump

    out = four_paid_of_eight[:4]
    for entry in out[:3]:  # places 8 to 6: five left, four paid, the next bust is the bubble
        busts.bust_entry(entry, actor=floor)
    tv.wait_for_function("document.getElementById('lobby-jump').textContent.includes('bubble')", timeout=8000)
    assert min_cash in tv.inner_text("#lobby-jump")
    busts.bust_entry(out[3], actor=floor)  # place 5: the bubble bursts
    tv.wait_for_function("document.getElementById('lobby-jump').textContent.includes('IN THE MONEY')", timeout=8000)
    assert "next pay jump: 3." in tv.inner_text("#lobby-jump")
    assert "itm" in tv.get_attribute("#lobby-paid", "class")

    busts.bust_entry(four_paid_of_eight[4], actor=floor)  # place 4: in the money
    prize = payouts_selectors.prizes_won(tournament)[four_paid_of_eight[4].number]
    phone = browser.new_context(viewport=PHONE, locale="en").new_page()
    phone.goto(f"{live_asgi}/s/{tournament.pk}/{four_paid_of_eight[4].number}/")
    phone.wait_for_selector("#seat-prize:not([hidden])", timeout=8000)
    text = phone.inner_text("#seat-prize")
    assert f"{prize // 100:,}" in text and tournament.currency in text
    assert "place 4" in phone.inner_text("#seat-out")


def pay_page(browser, live_asgi, cashier, tournament, entry):
    """The cashier's tablet, logged in: the payouts page, then the entry's "Pay"."""
    from tests.conftest import PASSWORD

    page = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en").new_page()
    page.goto(f"{live_asgi}/accounts/login/")
    page.fill("input[name=username]", cashier.username)
    page.fill("input[name=password]", PASSWORD)
    page.click("button[type=submit], input[type=submit]")
    page.goto(f"{live_asgi}/t/{tournament.pk}/payouts/")
    page.click(f"#pay-{entry.number}")
    page.wait_for_url(f"{live_asgi}/t/{tournament.pk}/payouts/pay/{entry.number}/")
    page.wait_for_load_state()  # the page's scripts have run: the signature pad draws, the form is sent through the API
    return page


def test_the_cashier_pays_a_prize_with_the_id_typed_again_and_a_signature_drawn(
    browser, live_asgi, director, cashier, floor, tournament, four_paid_of_eight
):
    from payouts.models import Payment

    for entry in four_paid_of_eight[:5]:  # places 8 to 4; four paid
        busts.bust_entry(entry, actor=floor)
    tournament_services.set_registration_closed(tournament, actor=director, closed=True)
    fourth = four_paid_of_eight[4]
    prize = payouts_selectors.prizes_won(tournament)[fourth.number]
    page = pay_page(browser, live_asgi, cashier, tournament, fourth)
    page.wait_for_selector("#pay-form")
    page.on("dialog", lambda dialog: dialog.accept())

    page.fill("#pay-doc-number", "EA9999999")  # not the document the entry was registered with
    sign(page)
    page.click("#pay-button")
    page.wait_for_selector("text=does not match")
    assert not Payment.objects.exists()

    page.fill("#pay-doc-number", "EA0000004")  # registered as EA0000004 (tests/tables/test_seating_services.register)
    page.click("#pay-button")
    page.wait_for_url(f"{live_asgi}/t/{tournament.pk}/payouts/receipts/*/")
    page.wait_for_load_state()  # the receipt has loaded, its signature's image too
    page.wait_for_selector("#receipt-signature")
    payment = Payment.objects.get()
    assert payment.entry_id == fourth.pk and payment.amount == prize and bytes(payment.signature).startswith(b"\x89PNG")
    assert f"{prize // 100:,}" in page.inner_text("#receipt") and fourth.player.display_name in page.inner_text("#receipt")
    assert page.evaluate("document.getElementById('receipt-signature').naturalWidth") == 640
    pdf = page.request.get(f"{live_asgi}/t/{tournament.pk}/payouts/receipts/{payment.number}/pdf/?paper=a4")
    assert pdf.ok and pdf.body().startswith(b"%PDF")


def test_the_pay_page_says_the_prize_waits_for_the_end_of_registration_before_any_id_is_typed(
    browser, live_asgi, cashier, floor, tournament, four_paid_of_eight
):
    """With registration still open the cashier is told at once, not after typing the ID again and
    having the player sign: the reason shows, and no ID field and no signature pad."""
    for entry in four_paid_of_eight[:5]:  # places 8 to 4; four paid, but registration is still open
        busts.bust_entry(entry, actor=floor)
    page = pay_page(browser, live_asgi, cashier, tournament, four_paid_of_eight[4])
    page.wait_for_selector("#pay-refused")
    assert "Prizes are paid once late registration is over" in page.inner_text("#pay-refused")
    assert page.locator("#pay-doc-number, #signature, #pay-button").count() == 0
    page.context.close()


def test_the_floor_proposes_an_icm_deal_and_the_director_approves_it(browser, live_asgi, director, floor, tournament, four_paid_of_eight):
    from payouts.models import Deal
    from payouts.rules import deals
    from tests.browser.conftest import login
    from tests.conftest import PASSWORD

    for entry in four_paid_of_eight[:5]:  # three players left, three paid places left
        busts.bust_entry(entry, actor=floor)
    left = four_paid_of_eight[5:]
    prizes_left = payouts_selectors.payout_state(tournament)["prizes"][:3]
    page = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en").new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_asgi, floor.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{tournament.pk}/payouts/")
    for entry, chips in zip(left, ("lots", "150000", "50000"), strict=True):
        page.fill(f"#chips-{entry.number}", chips)
    page.click("#deal-calculate")
    assert "whole number" in page.inner_text("#deal-error")

    for entry, chips in zip(left, ("200 000", "150000", "50000"), strict=True):
        page.fill(f"#chips-{entry.number}", chips)
    page.click("#deal-calculate")
    page.wait_for_selector("#deal-figures")
    page.wait_for_load_state()  # the page's scripts have run: the deal's form is sent through the API
    icm = deals.icm_deal([200_000, 150_000, 50_000], prizes_left, unit=100)  # the plan's unit
    assert f"{icm[0] // 100:,}" in page.inner_text("#deal-figures")
    page.select_option("#deal-kind", "icm")
    page.click("#deal-submit")
    page.wait_for_selector("#deal-pending")
    assert not page.locator("#deal-approve").count()  # the floor proposes; the director approves
    deal = Deal.objects.get()
    assert deal.status == Deal.Status.PROPOSED and deal.amounts == icm

    director_page = browser.new_context(viewport={"width": 1180, "height": 820}, locale="en").new_page()
    director_page.on("dialog", lambda dialog: dialog.accept())
    login(director_page, live_asgi, director.username, PASSWORD)
    director_page.goto(f"{live_asgi}/t/{tournament.pk}/payouts/")
    director_page.click("#deal-approve")
    director_page.wait_for_selector("#deal-calc")  # approved: no proposal waits, the calculator is back
    deal.refresh_from_db()
    assert deal.status == Deal.Status.APPROVED
    assert payouts_selectors.payout_state(tournament)["prizes"][:3] == sorted(icm, reverse=True)
