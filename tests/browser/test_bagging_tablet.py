"""Bag-and-tag on the dealer tablet, in a real browser: once the clock has stopped for the day,
"Bag stacks" opens a panel with every seated player (seat, name, his chips prefilled from his last count, the bag
number); the dealer types the chips on the tablet's number pad, Next goes to the bag number (typed on the keyboard),
Enter to the next seat, and "Save bags" sends the whole table at once through the JSON API. The API's bags and the
day's state follow; a table already bagged shows its bags and takes a correction. A bag number already on another
player's bag is refused with the server's message, which names that entry, and what was typed is kept."""

from __future__ import annotations

import os
from datetime import timedelta

import pytest
from django.test import Client
from django.utils import timezone

from clock.models import ClockState
from clock.selectors import clock as clock_selectors
from clock.services import clock as clock_services
from days.models import Bag
from days.services import bags as day_services
from tables.models import Table
from tables.services import counting, dealer_links
from tests.browser import accessibility
from tests.browser.conftest import login
from tests.browser.test_chip_counts import PHONE, TABLET
from tests.browser.test_penalties import OVERFLOW
from tests.conftest import PASSWORD
from tests.helpers import seats_at

pytestmark = pytest.mark.browser

SHOTS = "/tmp/bagging_tablet_{}.png" if os.environ.get("SCREEN_SHOTS") else ""  # to look at by eye


def end_the_day(t, director) -> None:
    """The clock runs level 1, the day is set to end after it, and the ticker reaches its end (the test server runs no
    ticker: the test runs it, at a moment past the level's end): the clock stops there for the day."""
    if not ClockState.objects.filter(tournament=t, status=ClockState.Status.RUNNING).exists():
        clock_services.start_clock(t, actor=director)
    clock_services.set_day_end(t, actor=director, level=1)
    left = clock_selectors.clock_snapshot(t)["current"]["remaining"]
    clock_services.tick(timezone.now() + timedelta(seconds=left + 1))
    clock = ClockState.objects.get(tournament=t)
    assert clock.status == ClockState.Status.PAUSED and clock.day_ended_level == 1


def api_json(client, path: str) -> dict:
    answer = client.get(path)
    assert answer.status_code == 200, answer.content
    return answer.json()


def table_bags(client, t, number: int) -> dict:
    return api_json(client, f"/api/tournaments/{t.pk}/tables/{number}/bags/")


def day_state(client, t) -> dict:
    return api_json(client, f"/api/tournaments/{t.pk}/day/")


def rows_shown(tablet) -> list[list]:
    """Each row of the panel: seat, the chips shown (digits only), the bag number in its field."""
    return tablet.eval_on_selector_all(
        "#bags-rows .r-row",
        """rows => rows.map(r => [Number(r.dataset.seat),
        r.querySelector('.r-field b').textContent.replace(/\\D/g, ''), r.querySelector('.b-bag input').value])""",
    )


def type_chips(tablet, chips: int) -> None:
    for digit in str(chips):
        tablet.click(f'#bags-pad button[data-key="{digit}"]')
    tablet.click("#bags-next")


def test_a_dealer_bags_the_table_on_the_tablet(live_asgi, browser, director, dealer, floor, room):
    base, t = live_asgi, room
    players = seats_at(t, 1)
    assert len(players) == 6
    last = [30_000, 20_000, 25_000, 41_000, 9_000, 15_000]
    counting.record_table_counts(
        Table.objects.get(tournament=t, number=1), actor=floor, counts={s.seat: chips for s, chips in zip(players, last, strict=True)}
    )
    clock_services.start_clock(t, actor=director)
    tablet = browser.new_context(viewport=TABLET).new_page()
    login(tablet, base, dealer.username, PASSWORD)
    tablet.goto(f"{base}/t/{t.pk}/tables/1/dealer/")
    tablet.wait_for_selector("#live.live")
    assert tablet.is_hidden("#bags-open") and tablet.is_hidden("#bags")  # the day is being played

    end_the_day(t, director)
    # The tablet reads the clock stopped for the day (its next read of the state: clock events are not sent to the
    # tables' sockets, so the test asks for the read the 30-second fallback would make): it says so, and "Bag
    # stacks" comes.
    tablet.evaluate("window.dealerPage.poll()")
    tablet.wait_for_selector("#bags-open", state="visible")
    assert tablet.inner_text(".d-day") == "Play has stopped for the day"
    assert tablet.is_disabled("#shuffle")  # no new hand after the day's end: the server refuses it too
    tablet.click("#bags-open")
    tablet.wait_for_selector("#bags", state="visible")
    assert tablet.get_attribute("#bags-open", "aria-expanded") == "true"
    assert tablet.inner_text("#bags-state") == "Day 1 · Nobody at this table is bagged yet today."
    names = tablet.eval_on_selector_all("#bags-rows .r-name", "ns => ns.map(n => n.textContent)")
    assert names == [f"{s.entry.player.display_name}Last count: {chips:,}" for s, chips in zip(players, last, strict=True)]
    # The chips start from each player's last count; no bag number yet; the first seat is selected, with the focus.
    assert rows_shown(tablet) == [[s.seat, str(chips), ""] for s, chips in zip(players, last, strict=True)]
    first = tablet.locator("#bags-rows .r-field").first
    assert first.get_attribute("aria-pressed") == "true"
    assert tablet.evaluate("document.activeElement.id") == first.get_attribute("id")
    assert tablet.inner_text("#bags-target") == f"Seat {players[0].seat} · {players[0].entry.player.display_name}"

    # Seat by seat: the chips on the pad (the first digit replaces the last count; or kept: Next at once), Next, the
    # bag number on the keyboard, Enter: the next seat's chips.
    chips = [31_500, 20_000, 24_000, 41_000, 9_500, 15_000]
    bags = ["a-101", "A-102", "a 103", "A-104", "A-105", "A-106"]
    for s, count, bag, before in zip(players, chips, bags, last, strict=True):
        assert tablet.get_attribute("#bags-rows .r-field.selected", "data-seat") == str(s.seat)
        if count != before:
            type_chips(tablet, count)
        else:
            tablet.click("#bags-next")
        assert tablet.evaluate("document.activeElement.dataset.bag") == str(s.entry.number)
        tablet.keyboard.type(bag)
        tablet.keyboard.press("Enter")
    assert tablet.evaluate("document.activeElement.id") == "bags-save"  # past the last seat: Save
    assert rows_shown(tablet) == [[s.seat, str(c), b] for s, c, b in zip(players, chips, bags, strict=True)]
    assert tablet.evaluate(OVERFLOW, "#bags") == []
    assert accessibility.problems(tablet) == []
    SHOTS and tablet.screenshot(path=SHOTS.format("tablet"), full_page=True)
    tablet.set_viewport_size(PHONE)
    tablet.wait_for_timeout(200)
    assert tablet.evaluate(OVERFLOW, "#bags") == []
    for key in tablet.locator("#bags-pad button:visible").all() + tablet.locator("#bags-rows input").all():
        box = key.bounding_box()
        assert box["height"] >= 48, box
    SHOTS and tablet.screenshot(path=SHOTS.format("phone"), full_page=True)
    tablet.set_viewport_size(TABLET)
    assert not Bag.objects.exists()  # nothing is sent before Save

    tablet.click("#bags-save")
    tablet.wait_for_selector("#bags", state="hidden")
    assert tablet.inner_text("#dealer-feedback") == f"Bagged: 6 players, total {sum(chips):,}"
    assert tablet.get_attribute("#dealer-feedback", "role") == "status"
    assert tablet.evaluate("document.activeElement.id") == "bags-open"

    # The API's bags are the ones typed (numbers as stored: upper case, no spaces), by the dealer; the day's state
    # has table 1 bagged and table 2 missing.
    floor_api = Client()
    floor_api.force_login(floor)
    answer = table_bags(floor_api, t, 1)
    assert [(p["seat"], p["chips"], p["bag"]) for p in answer["players"]] == [
        (s.seat, c, b.replace(" ", "").upper()) for s, c, b in zip(players, chips, bags, strict=True)
    ]
    assert answer["bagged"] == 6 and answer["total"] == sum(chips)
    assert {p["bagged_by"] for p in answer["players"]} == {dealer.username}
    state = day_state(floor_api, t)
    assert state["bagged"] == 6 and state["total"] == sum(chips)
    assert [m["table"] for m in state["missing_tables"]] == [2]

    # Opened again: the table's bags are shown, and one is corrected.
    tablet.click("#bags-open")
    tablet.wait_for_selector("#bags", state="visible")
    assert tablet.inner_text("#bags-state") == f"Day 1 · 6 of 6 players bagged, total {sum(chips):,}"
    assert rows_shown(tablet) == [[s.seat, str(c), b.replace(" ", "").upper()] for s, c, b in zip(players, chips, bags, strict=True)]
    assert tablet.inner_text(f'#bags-rows .r-row[data-seat="{players[2].seat}"] .s-last') == "Bag A103 · 24,000 chips"
    tablet.click(f"#bags-{players[2].entry.number}")
    type_chips(tablet, 23_500)
    tablet.fill(f"#bags-{players[2].entry.number}-bag", "A-113")
    tablet.click("#bags-save")
    tablet.wait_for_selector("#bags", state="hidden")
    total = sum(chips) - 24_000 + 23_500
    assert tablet.inner_text("#dealer-feedback") == f"Bagged: 6 players, total {total:,}"
    answer = table_bags(floor_api, t, 1)
    assert {p["seat"]: (p["chips"], p["bag"]) for p in answer["players"]}[players[2].seat] == (23_500, "A-113")
    assert Bag.objects.filter(current=True).count() == 6 and Bag.objects.filter(current=False).count() == 6
    tablet.context.close()


def test_a_bag_number_used_twice_is_refused_and_what_was_typed_kept(live_asgi, browser, director, floor, room):
    """The tablet of a dealer link (no login): a bag number already on a player's bag at table 2 is refused with the
    server's message naming that entry; the panel stays open with everything typed, and once mended Save bags the
    table. A seat left without a bag number is said before anything is sent."""
    base, t = live_asgi, room
    end_the_day(t, director)
    other = seats_at(t, 2)[0]
    day_services.record_bag(other.entry, actor=floor, chips=18_000, bag="B-7")
    _link, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=t, number=1), actor=floor)
    tablet = browser.new_context(viewport=TABLET).new_page()
    tablet.goto(f"{base}/dealer/{secret}/")
    tablet.wait_for_selector("#live.live")
    tablet.click("#bags-open")
    tablet.wait_for_selector("#bags", state="visible")
    players = seats_at(t, 1)
    assert rows_shown(tablet) == [[s.seat, "", ""] for s in players]  # never counted: nothing to start from
    chips = [25_000, 15_000, 30_000, 10_000, 22_500, 17_500]
    bags = ["B-1", "B-2", "b-7", "B-4", "B-5", ""]
    for count, bag in zip(chips, bags, strict=True):
        tablet.keyboard.type(str(count))  # the chips' field has the focus: the keyboard's digits go to the pad
        tablet.click("#bags-next")
        if bag:
            tablet.keyboard.type(bag)
        tablet.keyboard.press("Enter")
    # A seat with no bag number: said, and its field has the focus; nothing is sent.
    tablet.click("#bags-save")
    last = players[-1]
    tablet.wait_for_function(
        "(m) => document.getElementById('bags-say').textContent === m", arg=f"Seat {last.seat}: type the number written on his bag."
    )
    assert tablet.evaluate("document.activeElement.id") == f"bags-{last.entry.number}-bag"
    tablet.keyboard.type("B-6")
    typed = [[s.seat, str(c), b or "B-6"] for s, c, b in zip(players, chips, bags, strict=True)]
    assert rows_shown(tablet) == typed

    tablet.click("#bags-save")
    message = f"Table 1 seat {players[2].seat}: bag B-7 is already the bag of entry #{other.entry.number}."
    tablet.wait_for_function("(m) => document.getElementById('dealer-feedback').textContent === m", arg=message)
    assert tablet.get_attribute("#dealer-feedback", "role") == "alert"
    assert tablet.inner_text("#bags-say") == message and tablet.is_visible("#bags-say")
    assert tablet.is_visible("#bags")
    tablet.wait_for_timeout(300)  # the table read again: what was typed stays
    assert rows_shown(tablet) == typed
    assert Bag.objects.filter(table_number=1).count() == 0
    SHOTS and tablet.screenshot(path=SHOTS.format("refused"), full_page=True)

    tablet.fill(f"#bags-{players[2].entry.number}-bag", "B-3")
    tablet.click("#bags-save")
    tablet.wait_for_selector("#bags", state="hidden")
    assert tablet.inner_text("#dealer-feedback") == f"Bagged: 6 players, total {sum(chips):,}"
    floor_api = Client()
    floor_api.force_login(floor)
    answer = table_bags(floor_api, t, 1)
    assert [(p["seat"], p["chips"], p["bag"]) for p in answer["players"]] == [
        (s.seat, c, b or "B-6") for s, c, b in zip(players, chips, ["B-1", "B-2", "B-3", "B-4", "B-5", ""], strict=True)
    ]
    tablet.context.close()
