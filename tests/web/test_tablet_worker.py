"""The tablets' service worker and the press queue's opt-in: the worker is answered at the site's
root (a tablet page's path can be its scope), never cached, under the site's Content-Security-Policy; only the dealer
tablet, the floor map and the color-up page opt in (a queue named for the screen and the presser, and the worker's
address), every other screen keeps api.js's behaviour. The browser side: tests/browser/test_offline_tablets.py."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tables.services import dealer_links
from tables.services import setup as table_setup

pytestmark = pytest.mark.django_db

QUEUE = re.compile(r'<meta name="press-queue" content="([^"]+)" data-worker="/tablet-sw.js">')


def test_the_worker_is_served_at_the_root_uncached_under_the_strict_policy(client):
    answer = client.get("/tablet-sw.js")
    assert answer.status_code == 200 and answer["Content-Type"].startswith("text/javascript")
    assert "no-cache" in answer["Cache-Control"] and "max-age=0" in answer["Cache-Control"]
    assert "script-src 'self'" in answer["Content-Security-Policy"]
    body = answer.content.decode()
    assert 'self.addEventListener("fetch"' in body and "X-Offline-Copy" in body and "import " not in body
    assert client.post("/tablet-sw.js").status_code == 405


def test_only_the_three_tablet_screens_opt_in(director, floor, tournament):
    table, _token = table_setup.open_table(tournament, actor=director, number=3, seats=9)
    _link, secret = dealer_links.create_dealer_link(table, actor=floor, label="tablet 3")
    staff = Client()
    staff.force_login(floor)
    t = tournament.pk
    scopes = {
        path: QUEUE.findall(staff.get(path).content.decode())
        for path in (
            f"/t/{t}/tables/3/dealer/",
            f"/t/{t}/map/",
            f"/t/{t}/color-up/",
            f"/t/{t}/",
            f"/t/{t}/tables/",
            f"/t/{t}/counts/",
            f"/t/{t}/penalties/",
        )
    }
    assert scopes == {
        f"/t/{t}/tables/3/dealer/": [f"dealer:{t}:3:user:{floor.pk}"],
        f"/t/{t}/map/": [f"map:{t}:user:{floor.pk}"],
        f"/t/{t}/color-up/": [f"color-up:{t}:user:{floor.pk}"],
        f"/t/{t}/": [],
        f"/t/{t}/tables/": [],
        f"/t/{t}/counts/": [],
        f"/t/{t}/penalties/": [],
    }
    # A dealer link's tablet: its own queue (the link's presses are never sent under a login, nor the reverse).
    page = Client().get(f"/dealer/{secret}/").content.decode()
    assert QUEUE.findall(page) == [f"dealer:{t}:3:link:{secret[:12]}"]
    for path in (f"/t/{t}/tables/3/dealer/", f"/t/{t}/map/", f"/t/{t}/color-up/"):
        assert "data-press-queue-status" in staff.get(path).content.decode(), path
