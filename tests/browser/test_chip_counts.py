"""A table's stacks counted on the dealer tablet, in a real browser: "Count stacks" opens the panel with every
seated player (seat, name, last count), the dealer types each stack on the tablet's number pad (the chip race's),
Next after each, and "Save counts" sends the whole table at once through the JSON API. The API's counts and the
lobby's chip leaders follow; a refusal of the server (a player busted meanwhile from another tablet) is said on the
tablet, and the table read again keeps the other counts typed."""

from __future__ import annotations

import pytest
from django.test import Client

from live.snapshots import lobby_snapshot
from tables.models import ChipCount, Table
from tables.services import busts, dealer_links
from tests.browser import accessibility
from tests.browser.conftest import login
from tests.browser.sizes import PHONE, TABLET, by_device, fits, shot  # noqa: F401  (PHONE: test_bagging_tablet takes it from here)
from tests.conftest import PASSWORD
from tests.helpers import seats_at

pytestmark = pytest.mark.browser

SHOTS = "chip_counts"  # with SCREEN_SHOTS set: /tmp/chip_counts_<label>.png, to look at by eye


def type_on_pad(page, count: int) -> None:
    for digit in str(count):
        page.click(f'#stacks-pad button[data-key="{digit}"]')
    page.click("#stacks-next")


def api_counts(client, t, number: int) -> dict:
    answer = client.get(f"/api/tournaments/{t.pk}/tables/{number}/counts/")
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_a_dealer_counts_every_stack_on_the_pad_and_the_lobby_leaders_follow(live_asgi, browser, dealer, floor, room):
    base, t = live_asgi, room
    players = seats_at(t, 1)
    assert len(players) == 6
    tablet = browser.new_context(viewport=TABLET).new_page()
    login(tablet, base, dealer.username, PASSWORD)
    tablet.goto(f"{base}/t/{t.pk}/tables/1/dealer/")
    tablet.wait_for_selector("#live.live")
    assert tablet.is_hidden("#stacks")
    assert tablet.get_attribute("#stacks-open", "aria-expanded") == "false"

    tablet.click("#stacks-open")
    tablet.wait_for_selector("#stacks", state="visible")
    assert tablet.get_attribute("#stacks-open", "aria-expanded") == "true"
    rows = tablet.eval_on_selector_all(
        "#stacks-rows .r-row", "rows => rows.map(r => [r.dataset.seat, r.querySelector('.r-name').textContent])"
    )
    assert [int(seat) for seat, _text in rows] == [s.seat for s in players]
    for (_seat, text), s in zip(rows, players, strict=True):
        assert text.startswith(s.entry.player.display_name) and text.endswith("Not counted since he sat down"), text
    # The first player's count is selected, and has the focus: its name says the seat, the player, his last count.
    first = tablet.locator("#stacks-rows .r-field").first
    assert first.get_attribute("aria-pressed") == "true"
    assert tablet.evaluate("document.activeElement.dataset.field") == first.get_attribute("data-field")
    assert tablet.inner_text("#stacks-target") == f"Seat {players[0].seat} · {players[0].entry.player.display_name}"
    for key in tablet.locator("#stacks-pad button").all():
        box = key.bounding_box()
        assert box["width"] >= 64 and box["height"] >= 64, box

    # Every seat typed on the pad, Next after each; one mistake mended (C clears, ⌫ deletes a digit).
    stacks = [31_500, 18_000, 0, 47_250, 12_000, 11_250]
    for chips in stacks[:-1]:
        type_on_pad(tablet, chips)
    for k in ("9", "9", "back", "clear"):
        tablet.click(f'#stacks-pad button[data-key="{k}"]')
    assert tablet.inner_text("#stacks-rows .r-field.selected b") == "–"
    type_on_pad(tablet, stacks[-1])
    assert tablet.locator("#stacks-rows .r-field.selected").count() == 0  # past the last seat: nothing selected
    shown = tablet.eval_on_selector_all("#stacks-rows .r-field b", "bs => bs.map(b => b.textContent.replace(/\\D/g, ''))")
    assert shown == [str(n) for n in stacks]
    # Every element of the stacks' panel inside the window on the tablet and on a phone (shot: the tablet's whole page).
    assert (
        fits(
            tablet,
            "",
            prefix=SHOTS,
            selector="#stacks",
            whole_page=False,
            wait=200,
            shots=by_device(whole=(TABLET,), tablet="tablet", phone="phone"),
        )
        == []
    )
    assert accessibility.problems(tablet) == []
    assert ChipCount.objects.count() == 0  # nothing is sent before Save

    tablet.click("#stacks-save")
    tablet.wait_for_selector("#stacks", state="hidden")
    total = sum(stacks)
    assert tablet.inner_text("#dealer-feedback") == f"Counted: 6 players, total {total:,}"
    assert tablet.get_attribute("#dealer-feedback", "role") == "status"
    assert tablet.get_attribute("#stacks-open", "aria-expanded") == "false"
    assert tablet.evaluate("document.activeElement.id") == "stacks-open"

    # (a) The API's counts are the ones typed, by the dealer.
    floor_api = Client()
    floor_api.force_login(floor)
    counts = api_counts(floor_api, t, 1)
    assert {p["seat"]: p["chips"] for p in counts["players"]} == dict(zip([s.seat for s in players], stacks, strict=True))
    assert counts["counted"] == 6 and counts["total"] == total
    assert {p["counted_by"] for p in counts["players"]} == {dealer.username}
    # (b) The lobby's chip leaders: the biggest stack typed on top.
    leaders = lobby_snapshot(t)["leaders"]
    assert leaders["top"][0]["chips"] == max(stacks) == 47_250
    assert leaders["top"][0]["name"] == players[3].entry.player.display_name

    # Opened again: each player's last count is shown, the pad starts afresh.
    tablet.click("#stacks-open")
    tablet.wait_for_selector("#stacks", state="visible")
    last = tablet.eval_on_selector_all("#stacks-rows .s-last", "ls => ls.map(l => l.textContent.replace(/\\D/g, ''))")
    assert last == [str(n) for n in stacks]
    assert tablet.eval_on_selector_all("#stacks-rows .r-field b", "bs => bs.map(b => b.textContent)") == ["–"] * 6
    # A seat left out is not sent: the tablet says which one and selects it.
    type_on_pad(tablet, 20_000)
    tablet.click("#stacks-save")
    tablet.wait_for_function(
        f"() => document.getElementById('stacks-say').textContent.startsWith('Seat {players[1].seat}: type his chips')"
    )
    assert tablet.get_attribute("#stacks-rows .r-field.selected", "data-seat") == str(players[1].seat)
    assert ChipCount.objects.count() == 6
    tablet.keyboard.press("Escape")  # the panel closes; nothing sent
    tablet.wait_for_selector("#stacks", state="hidden")
    assert ChipCount.objects.count() == 6


def test_a_refusal_of_the_server_is_said_and_the_table_read_again(live_asgi, browser, floor, room):
    """The tablet of a dealer link (no login) counts its table while the floor busts a player from another tablet:
    the server refuses the count for his empty seat and the tablet says its message; the table read again has
    one player less and keeps the counts typed for the others, and Save then counts them."""
    base, t = live_asgi, room
    _link, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=t, number=1), actor=floor)
    tablet = browser.new_context(viewport=TABLET).new_page()
    tablet.goto(f"{base}/dealer/{secret}/")
    tablet.wait_for_selector("#live.live")
    tablet.click("#stacks-open")
    tablet.wait_for_selector("#stacks", state="visible")
    players = seats_at(t, 1)
    stacks = [25_000, 15_000, 30_000, 10_000, 22_500, 17_500]
    # Typed with the keyboard's digits (the first count has the focus, then the pad's Next).
    for chips in stacks:
        tablet.keyboard.type(str(chips))
        tablet.click("#stacks-next")
    gone = players[2]
    busts.bust_entry(gone.entry, actor=floor)  # from the floor's tablet, meanwhile

    tablet.click("#stacks-save")
    message = f"Nobody sits at table 1 seat {gone.seat}: a count goes to a seated player."
    tablet.wait_for_function("(m) => document.getElementById('dealer-feedback').textContent === m", arg=message)
    assert tablet.get_attribute("#dealer-feedback", "role") == "alert"
    assert tablet.inner_text("#stacks-say") == message and tablet.is_visible("#stacks-say")
    assert tablet.is_visible("#stacks") and ChipCount.objects.count() == 0
    shot(tablet, SHOTS, "refused", full_page=True)
    # The table read again: the busted player's row is gone, the others keep their counts.
    tablet.wait_for_function("() => document.querySelectorAll('#stacks-rows .r-row').length === 5")
    shown = tablet.eval_on_selector_all(
        "#stacks-rows .r-field", "fs => fs.map(f => [f.dataset.seat, f.querySelector('b').textContent.replace(/\\D/g, '')])"
    )
    expected = [(s.seat, chips) for s, chips in zip(players, stacks, strict=True) if s.pk != gone.pk]
    assert [(int(seat), int(chips)) for seat, chips in shown] == expected

    tablet.click("#stacks-save")
    tablet.wait_for_selector("#stacks", state="hidden")
    assert tablet.get_attribute("#dealer-feedback", "role") == "status"
    assert tablet.inner_text("#dealer-feedback").startswith("Counted: 5 players")
    floor_api = Client()
    floor_api.force_login(floor)
    counts = api_counts(floor_api, t, 1)
    assert [(p["seat"], p["chips"]) for p in counts["players"]] == expected
    assert lobby_snapshot(t)["leaders"]["top"][0]["chips"] == 25_000  # the busted player's 30,000 was never counted
