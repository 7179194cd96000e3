"""Screens left open through what bench/festival_screens.py found them missing: a new level while tables still play
the old one (the floor map), set by the director or by the clock's own time."""

from __future__ import annotations

import pytest
from django.utils import timezone

from clock.rules.timeline import Anchor
from clock.selectors.clock import clock_at, clock_snapshot, rows_of
from clock.services import clock as clock_services
from tables.services import hands
from tests.browser.left_open import left_open
from tests.browser.sizes import TABLET
from tests.helpers import table

pytestmark = pytest.mark.browser


def test_the_floor_map_left_open_marks_a_table_still_on_the_old_level(live_asgi, browser, room, director, floor):
    """A table that started its hand before the level changed plays the old level until its next shuffle: the map left
    open marks it "still level 1" when the clock goes on, as a fresh load does."""
    t = room
    clock_services.start_clock(t, actor=director)
    hands.start_hand(table(t, 1), actor=floor)
    seen = left_open(
        browser,
        live_asgi,
        f"/t/{t.pk}/map/",
        lambda _page: clock_services.step_level(t, actor=director, step=1),
        size=TABLET,
        user=floor.username,
        selector="main",
    )
    assert "still level 1" in seen.now.lower() and seen.now == seen.fresh_now


def test_the_floor_map_left_open_through_a_level_the_clock_ends_by_its_time(live_asgi, browser, room, director, floor):
    """No press and no event: the level's time runs out while table 1 plays a hand begun in it. The map left open reads
    again when the clock's row changes and marks table 1 "still level 1", as a fresh load does."""
    t = room
    clock_services.start_clock(t, actor=director)
    hands.start_hand(table(t, 1), actor=floor)
    snapshot = clock_snapshot(t)
    left = clock_at(rows_of(t), Anchor(**snapshot["anchor"]), timezone.now())["current"]["remaining"]
    clock_services.adjust_clock(t, actor=director, seconds=-int(left - 8))  # eight seconds of level 1 left
    seen = left_open(
        browser, live_asgi, f"/t/{t.pk}/map/", lambda page: page.wait_for_timeout(9_000), size=TABLET, user=floor.username, selector="main"
    )
    assert "still level 1" in seen.now.lower() and "still level 1" not in seen.before.lower()
