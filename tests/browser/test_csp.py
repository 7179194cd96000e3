"""The Content-Security-Policy in a real browser: the check every screen of test_screen_sizes.py runs
catches what the policy blocks, and the pages outside the screens (the API docs, Django's admin) work under
the policy their URLs get."""

from __future__ import annotations

import pytest

from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser


def test_the_check_catches_an_inline_script_and_a_style_attribute(live_asgi, browser):
    """A script injected into a page as inline text, and a style attribute set by a script, are blocked by
    the policy and reported by the check; a page left alone reports nothing."""
    page = browser.new_context().new_page()
    errors = watch_errors(page)
    page.goto(live_asgi + "/accounts/login/")
    page.wait_for_timeout(200)
    assert csp_problems(page, errors) == []
    with pytest.raises(Exception):  # noqa: B017 - Playwright's error when the script is refused
        page.add_script_tag(content="window.injected = true;")
    page.evaluate("document.body.setAttribute('style', 'color: red')")
    page.wait_for_timeout(200)
    problems = csp_problems(page, errors)
    assert page.evaluate("window.injected === undefined")
    assert any(p.startswith("CSP: script-src-elem blocked inline") for p in problems), problems
    assert any(p.startswith("CSP: style-src-attr blocked inline") for p in problems), problems
    assert any(p.startswith("console error:") for p in problems), problems
    page.context.close()


def test_the_check_catches_a_page_error(live_asgi, browser):
    page = browser.new_context().new_page()
    errors = watch_errors(page)
    page.goto(live_asgi + "/accounts/login/")
    page.evaluate("setTimeout(() => { throw new Error('a broken screen'); })")
    page.wait_for_timeout(200)
    assert any(p.startswith("page error:") and "a broken screen" in p for p in csp_problems(page, errors))
    page.context.close()


@pytest.mark.parametrize(
    "path, ready",
    [
        ("/api/docs/", "#swagger-ui .info .title"),
        ("/api/redoc/", "#redoc-container h1, redoc h1"),
        ("/admin/", "#content-main"),
        ("/admin/auth/user/", "#result_list"),
        ("/admin/auth/user/add/", "#user_form"),
    ],
)
def test_the_pages_outside_the_screens_work_under_their_policy(live_asgi, browser, django_user_model, path, ready):
    django_user_model.objects.create_superuser("root", password=PASSWORD)
    page = browser.new_context().new_page()
    errors = watch_errors(page)
    login(page, live_asgi, "root", PASSWORD)
    answer = page.goto(live_asgi + path)
    assert answer is not None and answer.ok and "content-security-policy" in answer.headers
    page.wait_for_selector(ready)
    page.wait_for_timeout(500)
    # Redoc's logo from cdn.redoc.ly is refused on purpose (web/api_docs.py): nothing is fetched from another host.
    assert [p for p in csp_problems(page, errors) if "cdn.redoc.ly/redoc/logo-mini.svg" not in p] == []
    page.context.close()
