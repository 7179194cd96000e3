"""A screen through a Redis outage, in a real browser: the web process restarts while the channel layer
is down, so the screen's socket drops and every new one is accepted and closed with 1013; the badge
says "reconnecting…" (not "live", not "offline") while live.js retries with backoff; what happens
meanwhile does not reach it; once the layer is back it reconnects by itself and the snapshot brings
the figures it missed."""

from __future__ import annotations

import time
from datetime import date

import pytest
from channels.layers import get_channel_layer
from django.utils import translation

from live.consumers import CLOSE_UNAVAILABLE
from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.helpers import id_doc
from tournament.services import registration

pytestmark = pytest.mark.browser

# Before the page's scripts: note the code of every WebSocket close the page sees (live.js is unchanged).
RECORD_CLOSE_CODES = """(() => {
  const Real = window.WebSocket;
  window.__closeCodes = [];
  window.WebSocket = function (url, protocols) {
    const ws = protocols === undefined ? new Real(url) : new Real(url, protocols);
    ws.addEventListener("close", (ev) => window.__closeCodes.push(ev.code));
    return ws;
  };
  window.WebSocket.prototype = Real.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""


def test_a_screen_shows_reconnecting_through_a_redis_outage_and_resyncs(
    restartable_asgi, browser, director, cashier, tournament, monkeypatch
):
    page = browser.new_context(viewport={"width": 1180, "height": 820}).new_page()
    page.add_init_script(RECORD_CLOSE_CODES)
    login(page, restartable_asgi.url, director.username, PASSWORD)
    page.goto(f"{restartable_asgi.url}/t/{tournament.pk}/")
    page.wait_for_selector("#live.live", timeout=10000)
    assert page.text_content("[data-stat=entries]").strip() == "0"

    refused = []

    async def layer_down(self, *args, **kwargs):
        refused.append(time.monotonic())
        raise ConnectionError("Error 111 connecting to redis: connection refused")

    # New sockets cannot join their groups, on whichever layer the run uses (in-memory, or Redis in CI).
    monkeypatch.setattr(get_channel_layer(), "group_add", layer_down)
    restartable_asgi.stop()  # the web process restarts meanwhile: its sockets drop (1012) and every screen reconnects
    restartable_asgi.start()

    page.wait_for_selector("#live.reconnecting", timeout=10000)
    with translation.override("en-gb"):
        assert page.text_content("#live").strip() == "reconnecting…"
    for i in range(2):  # the screen is not connected: this reaches it only through the next snapshot
        player = registration.create_player(actor=cashier, first_name=f"Out{i}", last_name="Age", date_of_birth=date(1990, 1, 1))
        registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(f"EB{i:07d}"))
    # It tries again and is refused cleanly: accepted, then closed with "try again later".
    page.wait_for_function(f"window.__closeCodes.includes({CLOSE_UNAVAILABLE})", timeout=20000)
    assert refused
    assert "reconnecting" in page.get_attribute("#live", "class")
    assert page.text_content("[data-stat=entries]").strip() == "0"
    page.wait_for_timeout(3000)  # backoff: a refused screen does not hammer the server
    assert len(refused) <= 3, len(refused)

    monkeypatch.undo()  # Redis is back
    page.wait_for_selector("#live.live", timeout=40000)
    page.wait_for_function("document.querySelector('[data-stat=entries]').textContent.trim() === '2'", timeout=5000)
    page.context.close()
