"""The seat page's "Tell me on this phone" in chromium: the players' service worker registered, the permission granted,
the browser subscribed with the server's VAPID public key and the subscription stored on the server; "Stop telling me"
takes it away. Headless chromium has no push service, so PushManager's subscribe is stood in for by a script that
returns a subscription with keys the page makes as a browser does (a P-256 pair by WebCrypto, 16 random auth bytes)."""

from __future__ import annotations

import base64

import pytest

from notify.models import PushSubscription
from tests.browser import accessibility
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.sizes import PHONE
from tests.tables.test_penalty_api import at_table
from tournament.models import AuditEvent

pytestmark = pytest.mark.browser

STAND_IN = """
(() => {
  if (!window.PushManager) return;
  let current = null;
  const b64 = (buffer) => btoa(String.fromCharCode(...new Uint8Array(buffer))).replace(/\\+/g, "-").replace(/\\//g, "_").replace(/=+$/, "");
  PushManager.prototype.getSubscription = async function () { return current; };
  PushManager.prototype.subscribe = async function (options) {
    window.pushOptions = {key: b64(options.applicationServerKey), visible: options.userVisibleOnly};
    const pair = await crypto.subtle.generateKey({name: "ECDH", namedCurve: "P-256"}, true, ["deriveBits"]);
    const raw = await crypto.subtle.exportKey("raw", pair.publicKey);
    const auth = crypto.getRandomValues(new Uint8Array(16));
    const endpoint = "https://fcm.googleapis.com/fcm/send/stand-in-" + b64(crypto.getRandomValues(new Uint8Array(12)));
    current = {
      endpoint: endpoint,
      getKey: (name) => (name === "p256dh" ? raw : auth.buffer),
      toJSON: () => ({endpoint: endpoint, keys: {p256dh: b64(raw), auth: b64(auth)}}),
      unsubscribe: async () => { current = null; window.pushUnsubscribed = true; return true; },
    };
    return current;
  };
})();
"""


def test_a_player_opts_in_on_his_seat_page_and_out_again(live_asgi, browser, room, settings):
    base, t = live_asgi, room
    settings.WEBPUSH_SUBSCRIBE_RATE = "1000/minute"  # the suite's earlier presses from this address are not this phone's
    entry = at_table(t, 1)[0]
    context = browser.new_context(viewport=PHONE)
    context.grant_permissions(["notifications"], origin=base)
    context.add_init_script(STAND_IN)
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{base}/s/{t.pk}/{entry.number}/")
    page.wait_for_selector("#push-button", state="visible")
    assert page.inner_text("#push-button") == "Tell me on this phone"
    assert accessibility.problems(page) == []

    page.click("#push-button")
    page.wait_for_function("!document.getElementById('push-button').disabled && document.getElementById('push-note').textContent")
    assert "even with this page closed" in page.inner_text("#push-note")
    row = PushSubscription.objects.get(entry=entry)
    assert row.endpoint.startswith("https://fcm.googleapis.com/fcm/send/stand-in-") and row.language == "en-gb"
    point = base64.urlsafe_b64decode(row.p256dh + "==")
    assert len(point) == 65 and point[0] == 4 and len(base64.urlsafe_b64decode(row.auth + "==")) == 16
    assert page.evaluate("window.pushOptions") == {"key": settings.WEBPUSH_VAPID_PUBLIC_KEY, "visible": True}
    assert page.evaluate("navigator.serviceWorker.getRegistration('/').then((r) => r && r.active && r.active.scriptURL)").endswith(
        "/push-sw.js"
    )
    assert page.inner_text("#push-button") == "Stop telling me"
    assert AuditEvent.objects.filter(tournament=t, type="notify.subscribed", payload__entry=entry.number).exists()

    page.click("#push-button")
    page.wait_for_function(
        "document.getElementById('push-note').textContent.indexOf('no longer') > 0 || !document.getElementById('push-button').disabled"
    )
    assert "no longer" in page.inner_text("#push-note")
    assert not PushSubscription.objects.filter(entry=entry).exists()
    assert page.evaluate("window.pushUnsubscribed") is True  # no other page of this phone uses it
    assert page.inner_text("#push-button") == "Tell me on this phone"

    # "Stop" pressed on a notification while the page was closed: the worker leaves a mark (push-sw.js, stoppedHere);
    # the page opened again forgets the opt-in and offers it anew.
    page.click("#push-button")
    page.wait_for_function("document.getElementById('push-button').textContent === 'Stop telling me'")
    stop = f"/api/public/tournaments/{t.pk}/seats/{entry.number}/push/stop/"
    page.evaluate("(path) => caches.open('push-stopped').then((c) => c.put(path, new Response('1')))", stop)
    page.reload()
    page.wait_for_function("document.getElementById('push-button').textContent === 'Tell me on this phone'")
    assert "no longer" in page.inner_text("#push-note")
    assert csp_problems(page, errors) == []
    context.close()
