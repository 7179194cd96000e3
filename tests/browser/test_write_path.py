"""One write path: forms that used to post to their page save through the JSON API with the
shared client (static/js/api-forms.js), in a real browser."""

import json
import time

import pytest
from django.urls import reverse

from payouts.selectors.structure import plan_of
from tables.models import HouseRules
from tests.browser.conftest import login
from tests.conftest import PASSWORD, tournament_data
from tournament.models import StaffProfile
from tournament.services import setup

pytestmark = pytest.mark.browser


def test_the_language_is_saved_through_the_api(live_asgi, browser, cashier):
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    login(page, live_asgi, cashier.username, PASSWORD)
    page.goto(live_asgi + reverse("preferences"))
    page.select_option("#id_language", "sk")
    with page.expect_response(lambda r: r.url.endswith("/api/auth/preferences/") and r.request.method == "PATCH") as saved:
        page.click("form[data-api] button")
    assert saved.value.status == 200
    page.wait_for_url(live_asgi + reverse("home"))
    assert page.get_attribute("html", "lang") == "sk"
    assert StaffProfile.objects.get(user=cashier).language == "sk"
    page.goto(live_asgi + reverse("preferences"))
    page.select_option("#id_language", "")  # as the browser says again
    page.click("form[data-api] button")
    page.wait_for_url(live_asgi + reverse("home"))
    assert StaffProfile.objects.get(user=cashier).language == ""
    page.context.close()


def test_the_house_rules_are_saved_through_the_api_and_refused_by_field(live_asgi, browser, director, template):
    """The screen refuses what the API refuses, with the same message under the field, and saves nothing;
    fixed, it saves. The page itself takes no post."""
    tournament = setup.create_tournament(tournament_data(seats_per_table=4, name="Four max"), actor=director, template=template)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    login(page, live_asgi, director.username, PASSWORD)
    page.goto(live_asgi + reverse("house-rules", args=[tournament.pk]))
    page.fill("#id_balance_threshold", "4")
    page.fill("#id_halt_short_by", "4")
    page.click("#house-rules-form button[type=submit]")
    field = page.locator('.errorlist[data-api-field="balance_threshold"]')
    field.wait_for()
    assert "never more than 3 players apart" in field.inner_text()
    assert page.get_attribute("#id_balance_threshold", "aria-invalid") == "true"
    assert not HouseRules.objects.filter(tournament=tournament).exists()
    page.fill("#id_balance_threshold", "3")
    page.click("#house-rules-form button[type=submit]")
    page.wait_for_selector(".api-say.ok")
    assert "House rules saved." in page.inner_text(".api-say.ok")
    assert HouseRules.objects.get(tournament=tournament).balance_threshold == 3
    page.context.close()


def test_a_write_the_server_cannot_take_yet_says_it_waits_and_tries_again(live_asgi, browser, director, template):
    """A database away answers 503 only after its pool's wait (10 s): the screen says at once that it waits and then
    that it tries again (static/js/api.js, patience), never a dimmed button alone; the same press is saved once."""
    tournament = setup.create_tournament(tournament_data(name="Patience"), actor=director, template=template)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    login(page, live_asgi, director.username, PASSWORD)
    page.goto(live_asgi + reverse("house-rules", args=[tournament.pk]))
    # Every sentence the page says, kept past the reload that follows the save.
    page.evaluate("""() => { new MutationObserver(() => {
        const said = JSON.parse(sessionStorage.getItem('said') || '[]');
        document.querySelectorAll('[data-api-say], .api-say').forEach((n) => {
          const t = n.hidden ? '' : n.textContent.trim();
          if (t && said[said.length - 1] !== t) said.push(t); });
        sessionStorage.setItem('said', JSON.stringify(said)); })
      .observe(document.body, {subtree: true, childList: true, characterData: true, attributes: true}); }""")
    keys = []

    def database_away(route):
        if route.request.method != "PATCH":
            return route.continue_()
        keys.append(route.request.headers["idempotency-key"])
        if len(keys) > 2:
            return route.continue_()
        if len(keys) == 1:
            time.sleep(3.5)  # the pool's wait: no answer yet
        route.fulfill(
            status=503,
            headers={"Retry-After": "2"},
            content_type="application/json",
            body=json.dumps({"error": "database_unavailable", "detail": "The database is unavailable."}),
        )

    page.route("**/api/tournaments/*/house-rules/", database_away)
    page.fill("#id_balance_threshold", "2")
    page.click("#house-rules-form button[type=submit]")
    page.wait_for_selector(".api-say.ok", timeout=20_000)
    said = page.evaluate("JSON.parse(sessionStorage.getItem('said') || '[]')")
    assert said[:2] == ["Waiting for the server…", "No answer from the server yet: trying again…"], said
    assert "House rules saved." in page.inner_text(".api-say.ok") and len(set(keys)) == 1 and len(keys) == 3
    assert HouseRules.objects.get(tournament=tournament).balance_threshold == 2
    page.context.close()


def test_an_amount_typed_on_a_form_is_sent_by_its_currencys_decimals(live_asgi, browser, director, template):
    """A yen has no minor unit: a rounding unit of 500 typed on the payouts page is 500, not 50,000
    (api-forms.js sends an input with data-money by the money rule, Util.parseMoney)."""
    yen = setup.create_tournament(tournament_data(name="Tokyo Night", currency="JPY"), actor=director, template=template)
    page = browser.new_context(viewport={"width": 1280, "height": 900}).new_page()
    login(page, live_asgi, director.username, PASSWORD)
    page.goto(live_asgi + reverse("payouts", args=[yen.pk]))
    page.fill("#unit", "500")
    with page.expect_response(lambda r: r.url.endswith("/payouts/plan/") and r.request.method == "PATCH") as saved:
        page.click("#plan-form button:not([type=button])")
    assert saved.value.status == 200, saved.value.text()
    assert saved.value.request.post_data_json["unit"] == 500
    assert plan_of(yen).unit == 500
    page.context.close()


def test_markup_behaviours_need_no_handler_attribute(live_asgi, browser, cashier, tournament):
    """The login page's language and the entries' status filter send their form when changed
    (data-submit-on-change, static/js/util.js)."""
    page = browser.new_context(viewport={"width": 1024, "height": 768}).new_page()
    page.goto(live_asgi + reverse("login"))
    with page.expect_navigation():
        page.select_option("select[name=language]", "cs")
    assert page.get_attribute("html", "lang") == "cs"
    login(page, live_asgi, cashier.username, PASSWORD)
    page.goto(live_asgi + reverse("entries", args=[tournament.pk]))
    with page.expect_navigation():
        page.select_option("select[name=status]", index=1)
    assert "status=" in page.url
    page.context.close()
