"""A table's dealer link on the screens: the floor makes it on the Tables page (shown once), a tablet
with no login opens it and deals at that table only; the floor revokes it and the tablet goes blank."""

from __future__ import annotations

import pytest

from tables.models import DealerLink, HandStart
from tables.services import setup as table_setup
from tests.browser.conftest import login
from tests.conftest import PASSWORD

pytestmark = pytest.mark.browser
TABLET = {"width": 1180, "height": 820}


def test_the_floor_makes_a_dealer_link_and_a_tablet_deals_with_it(live_asgi, browser, director, floor, tournament):
    base = live_asgi
    for n in (1, 2):
        table_setup.open_table(tournament, actor=director, number=n, seats=9)
    tables = browser.new_context(viewport=TABLET).new_page()
    login(tables, base, floor.username, PASSWORD)
    tables.goto(f"{base}/t/{tournament.pk}/tables/")
    tables.click('button[data-dealer-link="1"]')
    tables.wait_for_selector("#new-link:not([hidden])")
    url = tables.inner_text("#new-link-url").strip()
    link = DealerLink.objects.get()
    assert url.startswith(f"{base}/dealer/") and link.table.number == 1 and link.revoked_at is None

    tablet = browser.new_context(viewport=TABLET).new_page()  # no login
    tablet.on("dialog", lambda dialog: dialog.accept())
    tablet.goto(url)
    tablet.wait_for_selector("#live.live")
    tablet.click("#shuffle")
    tablet.wait_for_function("document.getElementById('hand-number').textContent === '1'")
    hand = HandStart.objects.get()
    assert (hand.table.number, hand.source, hand.actor) == (1, "tablet", None)

    tables.reload()
    tables.on("dialog", lambda dialog: dialog.accept())
    tables.click(f'button[data-revoke-link="{link.pk}"]')
    tables.wait_for_selector(f'li[data-link="{link.pk}"]', state="detached")
    link.refresh_from_db()
    assert link.revoked_at is not None
    tablet.wait_for_selector("#live.offline")
    tablet.click("#shuffle")
    tablet.wait_for_selector("#dealer-feedback.refused")
    assert HandStart.objects.count() == 1
