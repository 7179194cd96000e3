"""The new-tournament form in a real browser: money typed in major units with its currency in the labels,
the currency following the time zone, and the re-entry count enabled (and taken) when re-entry is allowed;
saved through the JSON API, as are the settings and the tournament's own structure, a refusal
shown at its field."""

import pytest
from django.urls import reverse

from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.helpers import said
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
    with page.expect_response(lambda r: r.url.endswith("/api/tournaments/") and r.request.method == "POST") as saved:
        page.click("#tournament-form button[type=submit]")
    assert saved.value.status == 201, saved.value.text()
    t = Tournament.objects.get(name="Browser Friday")
    page.wait_for_url(base + reverse("tournament-detail", args=[t.pk]))  # where the form went before
    said(page, "Tournament Browser Friday saved.")
    assert (t.currency, t.buy_in, t.fee, t.reentry_allowed, t.max_reentries) == ("CZK", 110000, 10050, True, 2)
    # Shown back in major units.
    page.goto(base + reverse("tournament-edit", args=[t.pk]))
    assert page.input_value("#id_buy_in") == "1100" and page.input_value("#id_fee") == "100.5"
    assert page.is_enabled("#id_max_reentries") and page.input_value("#id_max_reentries") == "2"

    # The settings: an amount that is not one is refused at its field, and nothing changes.
    page.fill("#id_buy_in", "eleven")
    page.click("#tournament-form button[type=submit]")
    field = page.locator('.errorlist[data-api-field="buy_in"]')
    field.wait_for()
    assert field.inner_text() == "Enter an amount such as 1100 or 1 100,50."
    t.refresh_from_db()
    assert t.buy_in == 110000
    page.fill("#id_buy_in", "1 200")
    page.fill("#id_start_at", "2026-11-27T20:00")
    page.click("#tournament-form button[type=submit]")
    page.wait_for_url(base + reverse("tournament-detail", args=[t.pk]))
    said(page, "Tournament Browser Friday saved.")
    t.refresh_from_db()
    assert t.buy_in == 120000 and t.start_at.isoformat() == "2026-11-27T19:00:00+00:00"  # 20:00 in Prague


def test_the_tournaments_own_structure_is_edited_in_a_browser(live_asgi, browser, director, tournament):
    base = live_asgi
    page = browser.new_context(viewport={"width": 1440, "height": 900}).new_page()
    login(page, base, director.username, PASSWORD)
    page.goto(base + reverse("tournament-structure", args=[tournament.pk]))
    page.fill("#id_chips-0-value", "300")  # no 25 chip in play: the break cannot color it up
    page.click("#structure-form button[type=submit]")
    row = page.locator('tbody[data-row=levels] .errorlist[data-api-field="levels.2"]')
    row.wait_for()
    assert row.inner_text() == "Row 3: the 25 chip is not in play at this break, so it cannot color up."
    assert row.inner_text() in page.inner_text("[data-api-say].refused")
    assert tournament.structure.denominations.filter(value=25).exists()  # nothing saved
    page.fill("#id_chips-0-value", "25")
    page.fill("#id_levels-0-minutes", "25")
    page.click("#structure-form button[type=submit]")
    page.wait_for_url(base + reverse("tournament-detail", args=[tournament.pk]))
    said(page, f"The structure of {tournament.name} is saved.")
    assert tournament.structure.levels.order_by("position").first().minutes == 25
