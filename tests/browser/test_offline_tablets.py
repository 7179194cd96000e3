"""Tablets that ride out a Wi-Fi drop, in a real browser: the presses made offline wait on the
device with their Idempotency-Keys (static/js/press-queue.js), survive a reload (the page itself from the service
worker, static/js/tablet-sw.js, marked old), and are sent in order once the line is back, each applied once; a press
the server now refuses is said with its reason and dropped, never applied twice."""

from __future__ import annotations

import json
import re

import pytest
from django.test import Client
from playwright.sync_api import expect

from tables.models import ColorUp, HandStart
from tables.services import draws
from tables.services import setup as table_setup
from tests.browser import accessibility, sizes
from tests.browser.conftest import login
from tests.browser.csp import watch_errors
from tests.browser.test_seating import TABLET
from tests.conftest import PASSWORD
from tests.helpers import open_tables, register
from tests.tables.test_moves import seated, start
from tournament.models import AuditEvent, Entry, Level
from web.models import IdempotencyKey

pytestmark = pytest.mark.browser

LINE = "#press-queue .pq-line"
OLD = "#press-queue .pq-old"
REFUSED = "#press-queue .pq-refused"
SAID = "[data-api-say], .api-say"  # where api.js says a press's outcome
KEPT = "Kept on this device"


def kept_by_the_worker(page) -> None:
    """The page is run by its service worker, which has kept the page itself (its first visit, press-queue.js's
    "keep")."""
    page.wait_for_function("navigator.serviceWorker && navigator.serviceWorker.controller !== null", timeout=10_000)
    page.wait_for_function("async () => !!(await caches.match(location.href.split('#')[0]))", timeout=10_000)


def queued(page, scope: str) -> list[dict]:
    return page.evaluate("(name) => JSON.parse(localStorage.getItem(name) || '[]')", "press-queue:" + scope)


def said_on_screen(page) -> list[str]:
    return page.evaluate(f"[...document.querySelectorAll('{SAID}')].filter((n) => !n.hidden).map((n) => n.textContent)")


def line(page) -> str:
    return page.inner_text(LINE).strip()


def csp_violations(page) -> list[str]:
    # Offline, the console has the browser's own "net::ERR_INTERNET_DISCONNECTED": only what the policy blocked counts.
    return page.evaluate("window.cspViolations || []")


def tablet(live_asgi, browser, user, path: str):
    """A tablet signed in as `user` on `path`, live, its page kept by the service worker: (context, page, errors)."""
    context = browser.new_context(viewport=TABLET)
    page = context.new_page()
    errors = watch_errors(page)
    page.on("dialog", lambda dialog: dialog.accept())
    login(page, live_asgi, user.username, PASSWORD)
    page.goto(f"{live_asgi}{path}")
    page.wait_for_selector("#live.live")
    kept_by_the_worker(page)
    return context, page, errors


def test_three_presses_made_offline_survive_a_reload_and_are_applied_once_in_order(live_asgi, browser, director, floor, tournament):
    table, _token = table_setup.open_table(tournament, actor=director, number=1, seats=9)
    context, page, errors = tablet(live_asgi, browser, floor, f"/t/{tournament.pk}/tables/1/dealer/")
    page.click("#shuffle")
    page.wait_for_function("document.getElementById('hand-number').textContent === '1'")
    assert page.is_hidden("#press-queue")  # nothing waits: no line
    kept_by_the_worker(page)

    # The line drops. Hand done, the next hand, Hand done: an order the server takes only as pressed (a second
    # "Hand done" before the shuffle is refused: no hand in play).
    context.set_offline(True)
    page.wait_for_function("navigator.onLine === false")
    page.click("#hand-done")
    page.wait_for_function(
        f"document.querySelector('{LINE}') && document.querySelector('{LINE}').textContent === 'Offline: 1 press waiting'"
    )
    assert page.is_visible("#dealer-feedback.queued")
    assert "sent when the connection returns" in page.inner_text("#dealer-feedback")
    page.wait_for_selector("#shuffle:not([disabled])")
    page.click("#shuffle")
    page.wait_for_function(f"document.querySelector('{LINE}').textContent === 'Offline: 2 presses waiting'")
    page.wait_for_selector("#hand-done:not([disabled])")
    page.click("#hand-done")
    page.wait_for_function(f"document.querySelector('{LINE}').textContent === 'Offline: 3 presses waiting'")
    scope = f"dealer:{tournament.pk}:1:user:{floor.pk}"
    waiting = queued(page, scope)
    assert [(p["method"], p["url"].split("/api/")[1]) for p in waiting] == [
        ("POST", f"tournaments/{tournament.pk}/tables/1/hand-done/"),
        ("POST", f"tournaments/{tournament.pk}/tables/1/hand/"),
        ("POST", f"tournaments/{tournament.pk}/tables/1/hand-done/"),
    ]
    keys = [p["key"] for p in waiting]
    assert len(set(keys)) == 3 and all(keys)
    assert [p["label"] for p in waiting] == ["Hand done", "Shuffle / new hand", "Hand done"]
    table.refresh_from_db()
    assert (table.hand_number, table.hand_in_progress, HandStart.objects.count()) == (1, True, 1)  # nothing reached it

    # A reload with no connection: the worker answers with the page it kept, marked old; the queue is still there.
    page.reload()
    page.wait_for_selector(LINE)
    assert line(page) == "Offline: 3 presses waiting"
    assert re.fullmatch(r"Offline: this is the last state seen at \d\d:\d\d", page.inner_text(OLD).strip())
    assert page.get_attribute('meta[name="offline-copy"]', "content")
    # The state the page reads from the worker's copy (hand 1), with the three presses kept played on it: hand 2, done.
    expect(page.locator("#hand-number")).to_have_text("2")
    expect(page.locator("#hand-done")).to_be_disabled()
    assert queued(page, scope) == waiting
    page.wait_for_selector("#live.offline")  # its state read from the worker's copy (X-Offline-Copy): not "live"
    # The lines fit a tablet and a phone, and say their state in words a screen reader hears (axe clean).
    assert sizes.fits(page, "offline_dealer", prefix="offline", selector="#press-queue, #press-queue *") == []
    assert accessibility.problems(page) == []

    # The line is back: the three presses go in order, one at a time, each once.
    context.set_offline(False)
    page.wait_for_function(f"document.querySelector('{LINE}').textContent === 'Sent'", timeout=20_000)
    assert queued(page, scope) == []
    table.refresh_from_db()
    assert (table.hand_number, table.hand_in_progress, HandStart.objects.count()) == (2, False, 2)
    events = list(
        AuditEvent.objects.filter(tournament=tournament, type__startswith="table.hand_")
        .order_by("seq")
        .values_list("type", "payload__hand")
    )
    assert events == [("table.hand_started", 1), ("table.hand_done", 1), ("table.hand_started", 2), ("table.hand_done", 2)]
    presses = list(IdempotencyKey.objects.filter(key__in=keys).order_by("created_at", "pk").values_list("key", "status"))
    assert presses == list(zip(keys, [200, 201, 200], strict=True))  # a hand started is made: 201
    # Live again: the page's state is fresh, not "old" any more; the tablet shows the hand the server has.
    page.wait_for_selector(OLD, state="hidden", timeout=15_000)
    page.wait_for_function("document.getElementById('hand-number').textContent === '2'", timeout=15_000)
    # A second reload sends nothing again.
    page.reload()
    page.wait_for_selector("#live.live")
    page.wait_for_timeout(500)
    assert HandStart.objects.count() == 2 and IdempotencyKey.objects.filter(key__in=keys).count() == 3
    assert csp_violations(page) == [], errors
    context.close()


def test_a_queued_bust_the_server_now_refuses_is_said_and_applied_once(live_asgi, browser, director, floor, cashier, tournament):
    start(director, cashier, tournament, 6, table_numbers=(1,))
    victim = min(seated(tournament)[1].values())
    context, page, _errors = tablet(live_asgi, browser, floor, f"/t/{tournament.pk}/map/")

    context.set_offline(True)
    page.click(f'.m-seat[data-entry="{victim}"]')
    page.wait_for_selector("#seat-dialog[open]")
    page.click("#bust-ask")
    page.wait_for_selector("#bust-confirm:not([hidden])")
    page.click("#bust-go")
    page.wait_for_function(
        f"document.querySelector('{LINE}') && document.querySelector('{LINE}').textContent === 'Offline: 1 press waiting'"
    )
    [press] = queued(page, f"map:{tournament.pk}:user:{floor.pk}")
    assert press["url"].endswith(f"/entries/{victim}/bust/") and json.loads(press["body"]) == {"stack": None}
    assert any(KEPT in text for text in said_on_screen(page))

    # Meanwhile another tablet, online, busts the same player.
    other = Client()
    other.force_login(director)
    answer = other.post(
        f"/api/tournaments/{tournament.pk}/entries/{victim}/bust/",
        {},
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="the-other-tablet",
    )
    assert answer.status_code == 200, answer.content

    context.set_offline(False)
    page.wait_for_selector(f"{REFUSED} p", timeout=20_000)
    said = page.inner_text(REFUSED).strip()
    assert said == f"Not applied (Yes, bust): Entry #{victim} is not playing; it may have been busted already."
    page.wait_for_function(
        f"![...document.querySelectorAll('{SAID}')].some((n) => !n.hidden && n.textContent.includes('{KEPT}'))"
    )  # "kept" is over once the press was answered
    assert page.get_attribute(REFUSED, "role") == "alert"
    assert sizes.fits(page, "offline_map", prefix="offline", selector="#press-queue, #press-queue *") == []
    assert accessibility.problems(page) == []
    assert queued(page, f"map:{tournament.pk}:user:{floor.pk}") == []
    assert IdempotencyKey.objects.get(key=press["key"]).status == 409
    entry = Entry.objects.get(tournament=tournament, number=victim)
    assert entry.status == Entry.Status.BUSTED
    assert AuditEvent.objects.filter(tournament=tournament, type="entry.busted").count() == 1
    # Never sent again: a reload leaves it refused once.
    page.reload()
    page.wait_for_selector("#live.live")
    page.wait_for_timeout(500)
    assert IdempotencyKey.objects.filter(key=press["key"]).count() == 1
    assert AuditEvent.objects.filter(tournament=tournament, type="entry.busted").count() == 1
    assert csp_violations(page) == []
    # Logging out deletes the offline copies (the map's names): none opens on the device without a login.
    assert "tablet-v1" in page.evaluate("caches.keys()")
    page.click("form[data-forget-offline] button")
    page.wait_for_url("**/accounts/login/**")
    assert [name for name in page.evaluate("caches.keys()") if name.startswith("tablet-")] == []
    context.close()


def test_the_color_up_page_keeps_a_confirm_made_offline(live_asgi, browser, director, cashier, tournament):
    open_tables(director, tournament, [1])
    register(cashier, tournament, 4)
    draws.draw_start(tournament, actor=director)
    context, page, _errors = tablet(live_asgi, browser, director, f"/t/{tournament.pk}/color-up/")

    context.set_offline(True)
    page.click(".cu-confirm button")
    page.wait_for_function(
        f"document.querySelector('{LINE}') && document.querySelector('{LINE}').textContent === 'Offline: 1 press waiting'"
    )
    [press] = queued(page, f"color-up:{tournament.pk}:user:{director.pk}")
    assert ColorUp.objects.count() == 0
    context.set_offline(False)
    # Applied once; its event reloads the page, which shows the color-up confirmed.
    page.wait_for_selector("#cu-current:not([hidden])", timeout=20_000)
    level = Level.objects.get(structure=tournament.structure, kind=Level.Kind.BREAK).position
    assert list(ColorUp.objects.values_list("level", flat=True)) == [level]
    assert AuditEvent.objects.filter(tournament=tournament, type="colorup.confirmed").count() == 1
    assert IdempotencyKey.objects.get(key=press["key"]).status in (200, 201)
    assert queued(page, f"color-up:{tournament.pk}:user:{director.pk}") == []
    assert csp_violations(page) == []
    context.close()
