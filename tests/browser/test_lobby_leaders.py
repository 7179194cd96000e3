"""The lobby's chip leaders in a real browser: a table's counts entered on its tablet reach a TV at once,
over its socket: the top stacks with names and big blinds, in the side column's place (all the time on a link that
says ?leaders=1), inside the screen and clear of the clock, on a TV and on a portrait screen; the house rule that
hides public counts takes them away."""

from __future__ import annotations

import pytest

from tables.models import Table
from tables.services import counting, house_rules
from tests.browser.test_lobby import open_lobby
from tests.tables.test_counting import even
from tests.tables.test_penalty_api import at_table

pytestmark = pytest.mark.browser


def inside_and_clear(page, size: dict) -> None:
    box = page.locator("#lobby-leaders").bounding_box()
    clock = page.locator("#lobby-clock").bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0
    assert box["x"] + box["width"] <= size["width"] + 1 and box["y"] + box["height"] <= size["height"] + 1
    assert box["y"] >= clock["y"] + clock["height"] - 1 or box["x"] >= clock["x"] + clock["width"] - 1
    rows = page.locator("#lobby-leader-list li")
    last = rows.nth(rows.count() - 1).bounding_box()
    assert last["y"] + last["height"] <= box["y"] + box["height"] + 1  # every row inside its box


def test_counts_entered_at_a_table_change_the_tvs_chip_leaders(live_asgi, browser, room, display, floor, director):
    t = room
    page = open_lobby(browser, live_asgi, display.token, "?leaders=1")
    assert page.locator("#lobby-leaders").is_hidden() and page.locator(".l-side").is_visible()
    counts = even(t, 1)
    top_seat = max(counts)
    counts[top_seat] = 61_000
    leader = next(e for e in at_table(t, 1) if e.seats.get(ended_at__isnull=True).seat == top_seat)
    counting.record_table_counts(Table.objects.get(tournament=t, number=1), actor=floor, counts=counts)
    page.wait_for_selector("#lobby-leaders:not([hidden])")
    first = page.locator("#lobby-leader-list li").first
    assert leader.player.display_name in first.inner_text()
    assert "61,000" in first.inner_text() and "305 BB" in first.inner_text()  # 61,000 at a big blind of 200
    assert page.locator(".l-side").is_hidden()
    inside_and_clear(page, {"width": 1920, "height": 1080})
    tall = {"width": 1080, "height": 1920}
    portrait = browser.new_context(viewport=tall, locale="en").new_page()
    portrait.goto(f"{live_asgi}/display/{display.token}/?leaders=1")
    portrait.wait_for_selector("#lobby-leaders:not([hidden])")
    inside_and_clear(portrait, tall)
    portrait.context.close()
    house_rules.set_house_rules(t, actor=director, data={"public_chip_counts": False})
    page.wait_for_selector("#lobby-leaders[hidden]", state="attached")
    assert page.locator(".l-side").is_visible()
    page.context.close()
