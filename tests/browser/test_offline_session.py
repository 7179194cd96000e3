"""A tablet's offline copy of a staff page lives only as long as its session, in a real browser:
the service worker (static/js/tablet-sw.js) keeps with the copy how long the session had left (X-Session-Left,
web/middleware.py); offline after that, the floor map's names and counts are not shown, the staff copies go, and the
tablet says to log in again. A session ended on the server (a logout elsewhere) drops the copies at the next contact."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.sessions.models import Session
from django.utils import timezone
from playwright.sync_api import Error as PlaywrightError

from tests.browser.conftest import login
from tests.browser.test_offline_tablets import kept_by_the_worker
from tests.browser.test_seating import TABLET
from tests.conftest import PASSWORD
from tests.tables.test_moves import start
from tournament.models import Entry

pytestmark = pytest.mark.browser

LIFE = 60  # seconds the session has left when the map is opened: time to open it on a loaded machine (at 25 s, CI
# once took longer: the session was over before the tablet went offline, and its copy had gone), short enough to wait out


def a_name(tournament) -> str:
    """A seated player, given a name found nowhere else on a page (the browser's own pages included)."""
    player = (
        Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).select_related("player").order_by("number").first().player
    )
    player.last_name = "Ohrádková"
    player.save(update_fields=["last_name"])
    return "Ohrádková"


def staff_copies(page) -> list[str]:
    """The URLs the worker keeps for a session (their copies carry X-Offline-Until)."""
    return page.evaluate("""async () => {
        const cache = await caches.open('tablet-v1'), out = [];
        for (const request of await cache.keys()) {
            const copy = await cache.match(request);
            if (copy && copy.headers.has('X-Offline-Until')) out.push(request.url);
        }
        return out;
    }""")


def kept_for_the_session(page, url: str) -> str:
    """The time its session ends, which the page's copy carries (read in the same look: the worker may be keeping the
    copy again meanwhile, and between its delete and its put there is no copy to read). Polled from here, each look
    awaited in the page: an async predicate's promise is not what wait_for_function waits on."""
    look = "async (u) => { const c = await caches.match(u); return c ? c.headers.get('X-Offline-Until') : null; }"
    deadline = time.monotonic() + 10
    while (until := page.evaluate(look, url)) is None:
        assert time.monotonic() < deadline, "the worker kept no copy of the map with its session's end"
        page.wait_for_timeout(100)
    return until


def seconds_until(moment: str) -> float:
    """How long until a time the worker wrote (ISO 8601, UTC)."""
    return (datetime.fromisoformat(moment.replace("Z", "+00:00")) - datetime.now(UTC)).total_seconds()


def signed_in_tablet(live_asgi, browser, user):
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    login(page, live_asgi, user.username, PASSWORD)
    return context, page


def test_offline_the_maps_copy_is_shown_only_until_its_session_expires(live_asgi, browser, director, cashier, floor, tournament):
    start(director, cashier, tournament, 6, table_numbers=(1,))
    name = a_name(tournament)
    context, page = signed_in_tablet(live_asgi, browser, floor)
    Session.objects.update(expire_date=timezone.now() + timedelta(seconds=LIFE))
    url = f"{live_asgi}/t/{tournament.pk}/map/"
    page.goto(url)
    page.wait_for_selector("#live.live")
    kept_by_the_worker(page)
    until = kept_for_the_session(page, url)
    assert seconds_until(until) > 5, "the session was nearly over before the tablet went offline: raise LIFE"
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    page.reload()  # offline, while the session lives: the copy, names and all, marked old
    page.wait_for_selector("#press-queue .pq-old")
    assert name in page.content()
    # The session's time is up, and the tablet is still offline: no names, no counts; the way to log in again.
    left = seconds_until(until)
    assert left <= LIFE, f"the copy is kept {left:.0f} s, past the {LIFE} s its session had left"
    page.wait_for_timeout(max(0.0, left) * 1000 + 500)  # waited here, not polled in the page: a hidden page's
    # animation frames, which wait_for_function polls on, may not come
    page.reload()
    page.wait_for_selector("#offline-ended")
    assert name not in page.content()
    assert page.inner_text("#offline-ended h1") == "Log in again"
    assert "shown only while your log-in lasts" in page.inner_text("#offline-ended")
    assert page.get_attribute("#offline-ended a", "href") == f"/accounts/login/?next=%2Ft%2F{tournament.pk}%2Fmap%2F"
    assert staff_copies(page) == []
    assert not page.evaluate("async (u) => !!(await caches.match(u, {ignoreVary: true}))", url)  # nothing left to show
    context.close()


def test_a_session_ended_elsewhere_drops_the_copies_at_the_next_contact(live_asgi, browser, director, cashier, floor, tournament):
    start(director, cashier, tournament, 6, table_numbers=(1,))
    name = a_name(tournament)
    context, page = signed_in_tablet(live_asgi, browser, floor)
    url = f"{live_asgi}/t/{tournament.pk}/map/"
    page.goto(url)
    page.wait_for_selector("#live.live")
    kept_by_the_worker(page)
    kept_for_the_session(page, url)
    Session.objects.all().delete()  # the session ends on the server: a logout elsewhere, a clear of the sessions
    page.reload()  # the next contact: the server sends the login
    page.wait_for_url("**/accounts/login/**")
    page.wait_for_function(
        """async (u) => {
        const copy = await caches.match(u);
        return !copy;
    }""",
        arg=url,
        timeout=10_000,
    )
    page.wait_for_timeout(1000)  # a read still on its way when the session ended is not kept after all
    assert staff_copies(page) == []
    context.set_offline(True)  # offline now: the map is not on the device any more
    try:
        page.goto(url)
    except Exception:  # noqa: BLE001 - the browser's own "no connection" page: nothing of the map
        pass
    assert name not in settled_content(page)
    context.close()


def settled_content(page) -> str:
    """The page's HTML once it has stopped navigating (offline, the browser may still be putting up its own page)."""
    for _try in range(40):
        try:
            page.wait_for_load_state()
            return page.content()
        except PlaywrightError:
            page.wait_for_timeout(250)
    return page.content()
