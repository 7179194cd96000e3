"""Chip counts on the floor map, in a real browser: a table's "Count stacks" opens a dialog with every seated player
(seat, name, his last count as a hint, an empty field for the count), a seat left out is said and focused, and Save
sends the whole table at once through the JSON API; a seat's dialog counts one player. The API's counts follow; a
refusal of the server (a player busted meanwhile, through the service) is said, and the table read again keeps the
counts typed for the others. The dialogs are clean for axe and fit a tablet and a phone."""

from __future__ import annotations

import pytest

from tables.models import ChipCount
from tables.services import busts
from tests.browser import accessibility, sizes
from tests.browser.sizes import by_device, shot
from tests.browser.test_chip_counts import api_counts
from tests.browser.test_seating import staff_page
from tests.helpers import client_for, seats_at

pytestmark = pytest.mark.browser

SHOTS = "floor_map_counts"  # with SCREEN_SHOTS set: /tmp/floor_map_counts_<label>.png, to look at by eye

NOTICE = "(m) => document.getElementById('notice').textContent === m"


def fits(page, name: str) -> None:
    """The open dialog and the page: no overflow on the tablet, nor on the phone (shot to <name>_phone when asked for)."""
    assert sizes.fits(page, name, prefix=SHOTS, selector="dialog[open]", wait=200, shots=by_device(whole=(), tablet=None)) == []


def open_counts(page, number: int) -> None:
    page.click(f'.m-table[data-table="{number}"] .count-stacks')
    page.wait_for_selector("#counts-dialog[open]")


def test_the_floor_counts_a_table_and_a_player_on_the_map(live_asgi, browser, floor, room):
    t, players = room, seats_at(room, 1)
    assert len(players) == 6
    page = staff_page(browser, live_asgi, floor.username, f"/t/{t.pk}/map/")
    page.wait_for_selector("#map .m-table")
    assert page.inner_text('.m-table[data-table="1"] .count-stacks') == "Count stacks"

    open_counts(page, 1)
    assert page.inner_text("#counts-where") == "Table 1"
    rows = page.eval_on_selector_all(
        "#counts-rows .m-count-row",
        """rows => rows.map(r => {
        const input = r.querySelector('input'), label = r.querySelector('label');
        return [input.dataset.seat, label.htmlFor === input.id, label.textContent, input.value, input.inputMode,
                document.getElementById(input.getAttribute('aria-describedby')).textContent]; })""",
    )
    assert rows == [
        [str(s.seat), True, f"Seat {s.seat} · {s.entry.player.display_name}", "", "numeric", "Not counted since he sat down"]
        for s in players
    ]
    assert page.evaluate("document.activeElement.id") == f"count-seat-{players[0].seat}"
    assert accessibility.problems(page) == []

    # Typed from the keyboard; one seat left out: Save says which, and puts the cursor there. Nothing is sent.
    stacks = [31_500, 18_000, 0, 47_250, 12_000, 11_250]
    for s, chips in list(zip(players, stacks, strict=True))[:-1]:
        page.fill(f"#count-seat-{s.seat}", str(chips))
    page.click("#counts-save")
    assert page.inner_text("#counts-say") == f"Seat {players[-1].seat}: type his chips (every player is counted at once)."
    assert page.evaluate("document.activeElement.id") == f"count-seat-{players[-1].seat}"
    assert ChipCount.objects.count() == 0
    fits(page, "table")
    shot(page, SHOTS, "table_tablet")
    page.keyboard.type(str(stacks[-1]))
    page.keyboard.press("Enter")  # Enter in a field saves the table, as the Save button does
    page.wait_for_selector("#counts-dialog", state="hidden")
    total = sum(stacks)
    page.wait_for_function(NOTICE, arg=f"Counted: 6 players, total {total:,}")
    assert page.get_attribute("#notice", "role") == "status"

    counts = api_counts(client_for(floor), t, 1)
    assert {p["seat"]: p["chips"] for p in counts["players"]} == {s.seat: c for s, c in zip(players, stacks, strict=True)}
    assert counts["counted"] == 6 and counts["total"] == total
    assert {p["counted_by"] for p in counts["players"]} == {floor.username}

    # Opened again: each player's last count is the hint, every field empty; Cancel sends nothing.
    open_counts(page, 1)
    hints = page.eval_on_selector_all("#counts-rows small", "hs => hs.map(h => h.textContent)")
    assert hints == [f"Last count: {chips:,}" for chips in stacks]
    assert page.eval_on_selector_all("#counts-rows input", "is => is.map(i => i.value)") == [""] * 6
    page.click("#counts-close")
    page.wait_for_selector("#counts-dialog", state="hidden")
    assert ChipCount.objects.count() == 6

    # One player counted from his seat: his last count shown, the new one typed.
    one = players[3]
    page.click(f'.m-seat[data-entry="{one.entry.number}"]')
    page.wait_for_selector("#seat-dialog[open]")
    page.wait_for_function("(m) => document.getElementById('count-last').textContent === m", arg="Last count: 47,250")
    assert page.get_attribute("#count-chips", "inputmode") == "numeric"
    assert page.inner_text('label[for="count-chips"]').strip()
    assert accessibility.problems(page) == []
    fits(page, "player")
    shot(page, SHOTS, "player_tablet")
    page.fill("#count-chips", "52500")
    page.click("#count-go")
    page.wait_for_function(NOTICE, arg=f"Entry #{one.entry.number}: 52,500 chips counted.")
    assert page.is_hidden("#seat-dialog")
    counts = api_counts(client_for(floor), t, 1)
    assert {p["entry"]: p["chips"] for p in counts["players"]}[one.entry.number] == 52_500
    assert counts["total"] == total - 47_250 + 52_500
    page.context.close()


def test_a_refusal_of_the_server_is_said_on_the_map(live_asgi, browser, floor, room):
    """A player busted meanwhile (through the service, as from another tablet): the table's count for his empty seat
    is refused with the server's message, said in the dialog, which stays open; the table read again has one row
    less and keeps the counts typed, and Save then counts the others. One player's count for a player busted
    meanwhile is refused with the server's message too."""
    t, players = room, seats_at(room, 1)
    page = staff_page(browser, live_asgi, floor.username, f"/t/{t.pk}/map/")
    page.wait_for_selector("#map .m-table")
    open_counts(page, 1)
    stacks = [25_000, 15_000, 30_000, 10_000, 22_500, 17_500]
    for s, chips in zip(players, stacks, strict=True):
        page.fill(f"#count-seat-{s.seat}", str(chips))
    gone = players[2]
    busts.bust_entry(gone.entry, actor=floor)

    page.click("#counts-save")
    message = f"Nobody sits at table 1 seat {gone.seat}: a count goes to a seated player."
    page.wait_for_function("(m) => document.getElementById('counts-say').textContent === m", arg=message)
    assert page.inner_text("#notice") == message and page.get_attribute("#notice", "role") == "alert"
    assert page.is_visible("#counts-dialog") and page.get_attribute("#counts-say", "role") == "alert"
    assert ChipCount.objects.count() == 0
    page.wait_for_function("() => document.querySelectorAll('#counts-rows input').length === 5")
    shown = page.eval_on_selector_all("#counts-rows input", "is => is.map(i => [Number(i.dataset.seat), Number(i.value)])")
    expected = [[s.seat, chips] for s, chips in zip(players, stacks, strict=True) if s.pk != gone.pk]
    assert shown == expected
    shot(page, SHOTS, "refused")
    page.click("#counts-save")
    page.wait_for_selector("#counts-dialog", state="hidden")
    page.wait_for_function(NOTICE, arg=f"Counted: 5 players, total {sum(c for _s, c in expected):,}")
    counts = api_counts(client_for(floor), t, 1)
    assert [[p["seat"], p["chips"]] for p in counts["players"]] == expected

    # One player: his seat's dialog open, he busts meanwhile; the count is refused and nothing is written.
    other = seats_at(t, 2)[0]
    page.click(f'.m-seat[data-entry="{other.entry.number}"]')
    page.wait_for_selector("#seat-dialog[open]")
    page.wait_for_function("() => document.getElementById('count-last').textContent === 'Not counted since he sat down'")
    busts.bust_entry(other.entry, actor=floor)
    page.fill("#count-chips", "40000")
    page.press("#count-chips", "Enter")
    page.wait_for_function(NOTICE, arg=f"Entry #{other.entry.number} has no seat in play: only a seated player's chips are counted.")
    assert page.get_attribute("#notice", "role") == "alert"
    assert not ChipCount.objects.filter(entry=other.entry).exists()
    page.context.close()
