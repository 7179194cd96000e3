"""Bag-and-tag on the floor map, in a real browser: a table's "Bag stacks" opens a dialog with
every seated player (seat and name, his chips prefilled from his last count, the bag number), and Save sends the
whole table at once through the JSON API; a seat's "Bag" bags one player. Once the day's first bag is in, each
table's card says how many of its players are bagged, live (the floor socket's bags.recorded). A refusal of the
server (a bag number on another player's bag) is said in the dialog, which keeps what was typed. The dialogs are
clean for axe and fit a tablet and a phone."""

from __future__ import annotations

import os

import pytest

from days.models import Bag
from days.services import bags as day_services
from tables.models import Table
from tables.services import counting
from tests.browser import accessibility
from tests.browser.test_bagging_tablet import day_state, table_bags
from tests.browser.test_floor_map_counts import NOTICE, fits
from tests.browser.test_seating import staff_page
from tests.helpers import client_for, seats_at

pytestmark = pytest.mark.browser

SHOTS = "/tmp/bagging_map_{}.png" if os.environ.get("SCREEN_SHOTS") else ""  # to look at by eye


def badge(page, number: int) -> str:
    box = page.locator(f'.m-table[data-table="{number}"] .m-badge.bags')
    return box.inner_text() if box.count() else ""


def wait_badge(page, number: int, text: str) -> None:
    page.wait_for_function(
        """([n, text]) => { const b = document.querySelector(`.m-table[data-table="${n}"] .m-badge.bags`);
      return !!b && b.textContent === text; }""",
        arg=[number, text],
    )


def dialog_rows(page) -> list[list]:
    return page.eval_on_selector_all(
        "#bags-rows .m-bag-row",
        """rows => rows.map(r => [Number(r.dataset.seat),
        r.querySelector('.who').textContent, r.querySelector('small').textContent, r.querySelector('.chips input').value,
        r.querySelector('.bag input').value])""",
    )


def test_the_floor_bags_a_table_and_a_player_on_the_map(live_asgi, browser, floor, room):
    t, players = room, seats_at(room, 1)
    last = [30_000, 20_000, 25_000, 41_000, 9_000, 15_000]
    counting.record_table_counts(
        Table.objects.get(tournament=t, number=1), actor=floor, counts={s.seat: chips for s, chips in zip(players, last, strict=True)}
    )
    page = staff_page(browser, live_asgi, floor.username, f"/t/{t.pk}/map/")
    page.wait_for_selector("#map .m-table")
    page.wait_for_function("() => window.floorMap.day !== null")
    assert badge(page, 1) == "" and badge(page, 2) == ""  # no bag yet today: the cards say nothing of bags
    assert page.inner_text('.m-table[data-table="1"] .bag-stacks') == "Bag stacks"

    page.click('.m-table[data-table="1"] .bag-stacks')
    page.wait_for_selector("#bags-dialog[open]")
    assert page.inner_text("#bags-where") == "Table 1 · day 1"
    assert dialog_rows(page) == [
        [s.seat, f"Seat {s.seat} · {s.entry.player.display_name}", f"Last count: {chips:,}", str(chips), ""]
        for s, chips in zip(players, last, strict=True)
    ]
    # The first bag number to type has the focus; each field is named by its seat, player and what it holds.
    assert page.evaluate("document.activeElement.id") == f"bag-seat-{players[0].seat}-bag"
    assert page.evaluate("""() => { const i = document.activeElement, ids = i.getAttribute('aria-labelledby').split(' ');
      return ids.map(id => document.getElementById(id).textContent).join(' '); }""") == (
        f"Seat {players[0].seat} · {players[0].entry.player.display_name} Bag number"
    )
    assert accessibility.problems(page) == []

    chips = [31_500, 20_000, 24_000, 41_000, 9_500, 15_000]
    for s, count in zip(players, chips, strict=True):
        page.fill(f"#bag-seat-{s.seat}-chips", str(count))
        page.fill(f"#bag-seat-{s.seat}-bag", f"a-{s.seat}")
    page.fill(f"#bag-seat-{players[4].seat}-chips", "")  # a seat left out: said and focused, nothing sent
    page.click("#bags-save")
    assert page.inner_text("#bags-say") == f"Seat {players[4].seat}: type his chips (every player is bagged at once)."
    assert page.evaluate("document.activeElement.id") == f"bag-seat-{players[4].seat}-chips"
    fits(page, "table")
    SHOTS and page.screenshot(path=SHOTS.format("table_tablet"))
    page.keyboard.type(str(chips[4]))
    # A bag number given twice at the table: the server's refusal is said in the dialog, which keeps what was typed.
    page.fill(f"#bag-seat-{players[1].seat}-bag", f"A-{players[0].seat}")
    page.keyboard.press("Enter")  # Enter in a field saves the table, as the Save button does
    message = f"Table 1 seat {players[1].seat}: bag A-{players[0].seat} is given twice."
    page.wait_for_function("(m) => document.getElementById('bags-say').textContent === m", arg=message)
    assert page.get_attribute("#notice", "role") == "alert" and page.is_visible("#bags-dialog")
    page.wait_for_timeout(300)  # the table read again
    typed = [[s.seat, str(c), f"a-{s.seat}"] for s, c in zip(players, chips, strict=True)]
    typed[1][2] = f"A-{players[0].seat}"
    assert [[seat, c, b] for seat, _who, _hint, c, b in dialog_rows(page)] == typed
    assert not Bag.objects.exists()
    page.fill(f"#bag-seat-{players[1].seat}-bag", f"a-{players[1].seat}")
    page.click("#bags-save")
    page.wait_for_selector("#bags-dialog", state="hidden")
    page.wait_for_function(NOTICE, arg=f"Bagged: 6 players, total {sum(chips):,}")
    assert page.get_attribute("#notice", "role") == "status"
    answer = table_bags(client_for(floor), t, 1)
    assert [(p["seat"], p["chips"], p["bag"]) for p in answer["players"]] == [
        (s.seat, c, f"A-{s.seat}") for s, c in zip(players, chips, strict=True)
    ]
    assert {p["bagged_by"] for p in answer["players"]} == {floor.username}
    # Bagging has started: every card says how many of its players are bagged (in words; green once all are).
    wait_badge(page, 1, "6/6 bagged")
    wait_badge(page, 2, "0/6 bagged")
    assert "done" in page.get_attribute('.m-table[data-table="1"] .m-badge.bags', "class")
    assert "done" not in page.get_attribute('.m-table[data-table="2"] .m-badge.bags', "class")

    # A player of table 2 bagged from elsewhere (another tablet, through the service): the card follows, live.
    second = seats_at(t, 2)
    day_services.record_bag(second[0].entry, actor=floor, chips=18_000, bag="B-1")
    wait_badge(page, 2, "1/6 bagged")

    # One player bagged from his seat: never counted, nothing to start from; a bag number already on a player's bag
    # is refused in the dialog, with what was typed kept; then his own number is taken.
    one = second[1]
    page.click(f'.m-seat[data-entry="{one.entry.number}"]')
    page.wait_for_selector("#seat-dialog[open]")
    page.click("#bag-ask")
    page.wait_for_selector("#bag-form", state="visible")
    assert page.is_hidden("#seat-main")
    assert page.inner_text("#bag-now") == "Not bagged today. Not counted since he sat down"
    assert page.input_value("#bag-chips") == "" and page.input_value("#bag-number") == ""
    assert page.evaluate("document.activeElement.id") == "bag-chips"
    assert accessibility.problems(page) == []
    fits(page, "player")
    page.fill("#bag-chips", "12000")
    page.fill("#bag-number", "b-1")
    page.press("#bag-number", "Enter")
    message = f"Table 2 seat {one.seat}: bag B-1 is already the bag of entry #{second[0].entry.number}."
    page.wait_for_function("(m) => document.getElementById('bag-say').textContent === m", arg=message)
    assert page.is_visible("#seat-dialog") and page.input_value("#bag-chips") == "12000"
    assert page.input_value("#bag-number") == "b-1"
    SHOTS and page.screenshot(path=SHOTS.format("player_refused"))
    page.fill("#bag-number", "b-2")
    page.click("#bag-go")
    page.wait_for_function(NOTICE, arg=f"Entry #{one.entry.number}: bag B-2, 12,000 chips.")
    assert page.is_hidden("#seat-dialog")
    wait_badge(page, 2, "2/6 bagged")
    state = day_state(client_for(floor), t)
    assert state["bagged"] == 8 and state["total"] == sum(chips) + 18_000 + 12_000
    assert [m["table"] for m in state["missing_tables"]] == [2] and len(state["missing_tables"][0]["seats"]) == 4

    # His seat opened again: his bag today is shown, and a correction starts from it.
    page.click(f'.m-seat[data-entry="{one.entry.number}"]')
    page.wait_for_selector("#seat-dialog[open]")
    assert page.is_hidden("#bag-form") and page.is_visible("#seat-main")
    page.click("#bag-ask")
    page.wait_for_selector("#bag-form", state="visible")
    assert page.inner_text("#bag-now") == "Bagged today: bag B-2 · 12,000 chips"
    assert page.input_value("#bag-chips") == "12000" and page.input_value("#bag-number") == "B-2"
    page.fill("#bag-chips", "12500")
    page.click("#bag-go")
    page.wait_for_function(NOTICE, arg=f"Entry #{one.entry.number}: bag B-2, 12,500 chips.")
    assert Bag.objects.get(entry=one.entry, current=True).chips == 12_500
    page.context.close()
