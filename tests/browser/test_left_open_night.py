"""Screens left open through what bench/festival_screens.py found them missing (issue 39): a new level while tables
still play the old one (the floor map)."""
from __future__ import annotations

import pytest

from clock import services as clock_services
from tables import hands
from tests.browser.left_open import left_open
from tests.browser.sizes import TABLET
from tests.tables.test_penalty_api import at_table, room, table  # noqa: F401  (room: the fixture)

pytestmark = pytest.mark.browser


def test_the_floor_map_left_open_marks_a_table_still_on_the_old_level(live_asgi, browser, room, director, floor):  # noqa: F811
    """A table that started its hand before the level changed plays the old level until its next shuffle: the map left
    open marks it "still level 1" when the clock goes on, as a fresh load does."""
    t = room
    clock_services.start_clock(t, actor=director)
    hands.start_hand(table(t, 1), actor=floor)
    seen = left_open(browser, live_asgi, f"/t/{t.pk}/map/",
                     lambda _page: clock_services.step_level(t, actor=director, step=1), size=TABLET,
                     user=floor.username, selector="main")
    assert "still level 1" in seen.now.lower() and seen.now == seen.fresh_now
