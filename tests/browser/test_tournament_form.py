"""The new-tournament form in a real browser: money typed in major units with its currency in the labels,
the currency following the time zone, and the re-entry count enabled (and taken) when re-entry is allowed."""
import pytest
from django.urls import reverse

from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tournament.models import Tournament

pytestmark = pytest.mark.browser


def test_new_tournament_in_major_units_with_a_re_entry_count(live_asgi, browser, director, template):
    base = live_asgi
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    login(page, base, director.username, PASSWORD)
    page.goto(base + reverse("tournament-create") + f"?template={template.pk}")
    assert page.input_value("#id_currency") == "CZK" and page.input_value("#id_time_zone") == "Europe/Prague"
    assert "Buy-in (CZK)" in page.inner_text("label[for=id_buy_in]")
    # Bratislava pays in euros: the untouched currency and the labels follow the time zone.
    page.select_option("#id_time_zone", "Europe/Bratislava")
    assert page.input_value("#id_currency") == "EUR" and "Buy-in (EUR)" in page.inner_text("label[for=id_buy_in]")
    page.select_option("#id_time_zone", "Europe/Prague")
    assert page.input_value("#id_currency") == "CZK"
    # Re-entries per player: disabled while re-entry is off, enabled once it is allowed.
    assert page.is_disabled("#id_max_reentries")
    page.check("#id_reentry_allowed")
    assert page.is_enabled("#id_max_reentries")
    page.fill("#id_name", "Browser Friday")
    page.fill("#id_venue", "Card Casino Praha")
    page.fill("#id_start_at", "2026-11-27T19:00")
    page.fill("#id_buy_in", "1 100")
    assert page.inner_text("#field-buy_in .money-preview") == "= CZK\u00a01,100"
    page.fill("#id_fee", "100,50")
    assert page.inner_text("#field-fee .money-preview") == "= CZK\u00a0100.50"
    page.fill("#id_starting_stack", "20000")
    page.fill("#id_max_reentries", "2")
    create = page.url
    page.click("#tournament-form button[type=submit]")
    page.wait_for_load_state()
    assert page.url != create, page.locator(".has-error").all_inner_texts()
    t = Tournament.objects.get(name="Browser Friday")
    assert (t.currency, t.buy_in, t.fee, t.reentry_allowed, t.max_reentries) == ("CZK", 110000, 10050, True, 2)
    # Shown back in major units.
    page.goto(base + reverse("tournament-edit", args=[t.pk]))
    assert page.input_value("#id_buy_in") == "1100" and page.input_value("#id_fee") == "100.5"
    assert page.is_enabled("#id_max_reentries") and page.input_value("#id_max_reentries") == "2"
