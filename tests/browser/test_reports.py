"""The cashier closing the night, in a real browser: from the payouts page to the reconciliation (what
the cage should hold, the prizes still owed, the balance), and the results downloaded as CSV and PDF."""

from __future__ import annotations

from django.utils import translation

from payouts.selectors.reconciliation import reconciliation
from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.payouts.test_reports import Night
from web.templatetags.money import money


def test_the_cashier_opens_the_reconciliation_and_downloads_the_results(browser, live_asgi, director, cashier, floor, tournament):
    night = Night(director, cashier, floor, tournament)
    night.pay(night.entries[3])
    figures = reconciliation(tournament)
    page = browser.new_context(viewport={"width": 1180, "height": 820}, locale="cs", accept_downloads=True).new_page()
    login(page, live_asgi, cashier.username, PASSWORD)
    page.goto(f"{live_asgi}/t/{tournament.pk}/payouts/")
    with page.expect_download() as download:
        page.click("#results-downloads >> text=CSV")
    csv_file = download.value
    assert csv_file.suggested_filename == f"results-{tournament.pk}.csv"
    content = open(csv_file.path(), "rb").read()
    assert content.startswith(b"\xef\xbb\xbf") and "Tomáš Dvořák".encode() in content and "Umístění".encode() in content

    page.click("#reconciliation-link")
    page.wait_for_selector("#rec-takings")
    with translation.override("cs"):
        assert page.inner_text("#rec-cage") == money(figures["cage"], "EUR")
        assert page.inner_text("#rec-owed") == money(figures["prizes_owed"], "EUR")
        assert page.inner_text("#rec-balance") == money(0, "EUR")
    assert "Výherní fond" in page.inner_text("#rec-pool")
    assert page.locator("#rec-unpaid-entries a").count() == figures["places_unpaid"] == 2
    pdf = page.request.get(f"{live_asgi}/t/{tournament.pk}/payouts/results/pdf/")
    assert pdf.ok and pdf.body().startswith(b"%PDF") and b"DejaVu" in pdf.body()
