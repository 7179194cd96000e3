"""The director's API token page in a real browser: the list from the database (first characters only) and
a revocation through the JSON API (POST /api/auth/tokens/<id>/revoke/, with one Idempotency-Key)."""

import pytest
from rest_framework.test import APIClient

from tests.browser.conftest import login
from tests.conftest import PASSWORD
from web import auth
from web.models import ApiToken

pytestmark = pytest.mark.browser


def test_the_director_revokes_a_tablets_token(live_asgi, browser, director, floor):
    tablet = auth.issue_token(floor, address="10.0.0.7")
    ctx = browser.new_context(viewport={"width": 1180, "height": 820})
    page = ctx.new_page()
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_asgi, director.username, PASSWORD)
    page.click("header nav >> text=API tokens")
    page.wait_for_url(f"{live_asgi}/tokens/")
    page.wait_for_load_state()  # the page's scripts have run: the revoke form is sent through the API
    page.wait_for_selector(f'#token-list tr[data-token="{tablet.pk}"]')
    row = page.inner_text(f'#token-list tr[data-token="{tablet.pk}"]')
    assert "floor" in row and tablet.prefix in row and "10.0.0.7" in row and "active" in row
    assert tablet.key not in page.content()
    with page.expect_request(f"{live_asgi}/api/auth/tokens/{tablet.pk}/revoke/") as sent:
        page.click(f'#token-list tr[data-token="{tablet.pk}"] button')
    assert sent.value.headers.get("idempotency-key")
    page.wait_for_function("(document.querySelector('.api-say') || {}).textContent === 'The token is revoked.'")
    assert "revoked" in page.inner_text(f'#token-list tr[data-token="{tablet.pk}"]')
    assert ApiToken.objects.get(pk=tablet.pk).revoked_by == director
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {tablet.key}")
    assert client.get("/api/tournaments/").status_code == 401
    ctx.close()
