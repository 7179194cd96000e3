"""Calling the clock on a player from the dealer tablet (club 11, TDA 25), in a real browser: "Call the clock" lists
the seated players, the dealer picks one and confirms, the JSON API has the call; the banner counts down against the
server's time and "He acted" ends it. With the house's 10 seconds the whole countdown is large, then "Hand dead" is
shown and pressed. A refusal of the server (the player busted meanwhile) is said on the tablet."""

from __future__ import annotations

import pytest
from django.test import Client
from playwright.sync_api import expect

from tables.models import ClockCall
from tables.services import busts
from tables.services.house_rules import set_house_rules
from tests.browser import accessibility, sizes
from tests.browser.conftest import login
from tests.browser.sizes import TABLET, by_device, shot
from tests.conftest import PASSWORD
from tests.helpers import clock_call_answer, seats_at

pytestmark = pytest.mark.browser

SHOTS = "clock_call"  # with SCREEN_SHOTS set: /tmp/clock_call_<label>.png, to look at by eye


def fits(tablet, name: str) -> None:
    """Nothing sticks out of the window on the right (the clock call's box, the bottom row's buttons) on the tablet,
    nor on a phone (shot to <name> and <name>_phone when asked for), axe clean."""
    assert (
        sizes.fits(
            tablet, name, prefix=SHOTS, selector="#call, .d-bottom", whole_page=False, wait=200, shots=by_device(whole=(), tablet="")
        )
        == []
    )
    assert accessibility.problems(tablet) == []


def open_tablet(browser, base: str, dealer, t):
    tablet = browser.new_context(viewport=TABLET).new_page()
    login(tablet, base, dealer.username, PASSWORD)
    tablet.goto(f"{base}/t/{t.pk}/tables/1/dealer/")
    tablet.wait_for_selector("#live.live")
    return tablet


def call_on(tablet, seat: int) -> None:
    tablet.click("#call-open")
    tablet.wait_for_selector("#call-pick", state="visible")
    tablet.click(f'#call-seats button[data-seat="{seat}"]')
    assert tablet.get_attribute(f'#call-seats button[data-seat="{seat}"]', "aria-pressed") == "true"
    assert tablet.inner_text("#call-go") == f"Call the clock on seat {seat}"
    tablet.click("#call-go")
    tablet.wait_for_selector("#call-banner", state="visible")


def end_with(tablet, button: str, said: str, floor_api, t) -> None:
    """One of the banner's buttons ends the call: the tablet says so, the banner leaves, the API has no call."""
    tablet.click(button)
    tablet.wait_for_selector("#call", state="hidden")  # (the table's socket may hide it before the answer is said)
    expect(tablet.locator("#dealer-feedback")).to_have_text(said)
    assert clock_call_answer(floor_api, t, 1).status_code == 204


def test_a_dealer_calls_the_clock_he_acts_then_a_hand_dies(live_asgi, browser, dealer, floor, director, room):
    base, t = live_asgi, room
    players = seats_at(t, 1)
    floor_api = Client()
    floor_api.force_login(floor)
    tablet = open_tablet(browser, base, dealer, t)
    assert tablet.is_hidden("#call") and tablet.is_visible("#call-open")
    assert clock_call_answer(floor_api, t, 1).status_code == 204

    # The seat list: the seated players, by seat; nothing is sent before the confirmation.
    tablet.click("#call-open")
    tablet.wait_for_selector("#call-pick", state="visible")
    assert tablet.get_attribute("#call-open", "aria-expanded") == "true"
    shown = tablet.eval_on_selector_all("#call-seats button", "bs => bs.map(b => [b.dataset.seat, b.textContent])")
    assert [int(seat) for seat, _text in shown] == [s.seat for s in players]
    assert all(text.endswith(s.entry.player.display_name) for (_seat, text), s in zip(shown, players, strict=True))
    assert tablet.is_disabled("#call-go")
    fits(tablet, "pick")
    tablet.keyboard.press("Escape")
    tablet.wait_for_selector("#call-pick", state="hidden")
    assert ClockCall.objects.count() == 0

    who = players[1]
    call_on(tablet, who.seat)
    name = who.entry.player.display_name
    assert tablet.inner_text("#call-title") == f"Clock on seat {who.seat} · {name}"
    expect(tablet.locator("#dealer-feedback")).to_have_text(f"Clock called on seat {who.seat} · {name}.")  # the banner may come first
    assert tablet.is_hidden("#call-say")  # by the banner only its refusals are repeated
    answer = clock_call_answer(floor_api, t, 1)
    assert answer.status_code == 200, answer.content
    call = answer.json()
    assert (call["seat"], call["entry"], call["seconds"], call["countdown"]) == (who.seat, who.entry.number, 60, 10)
    # The countdown: m:ss against the server's time, the big number not yet; the ticking is hidden from screen readers.
    tablet.wait_for_function("() => /^0:5\\d$/.test(document.getElementById('call-time').textContent)")
    assert tablet.is_hidden("#call-big") and tablet.is_hidden("#call-open")
    assert tablet.get_attribute("#call-banner", "role") == "status"
    assert tablet.get_attribute("#call-time", "aria-hidden") == "true"
    tablet.wait_for_function("() => document.getElementById('call-announce').textContent !== ''")
    said = tablet.inner_text("#call-announce")  # the start, heard once (the seconds ticking are not)
    assert said in (f"Clock on seat {who.seat} · {name}: {n} seconds left" for n in (60, 59)), said
    assert tablet.is_enabled("#call-acted") and tablet.is_disabled("#call-dead")
    fits(tablet, "called")

    end_with(tablet, "#call-acted", "He acted in time: the clock call is over.", floor_api, t)
    assert ClockCall.objects.get().outcome == "acted"
    assert tablet.is_visible("#call-open")

    # The house gives 10 seconds: the whole countdown is large, then "Hand dead", which the dealer presses.
    set_house_rules(t, actor=director, data={"clock_call_seconds": 10})
    last = players[-1]
    call_on(tablet, last.seat)
    assert clock_call_answer(floor_api, t, 1).json()["seconds"] == 10
    tablet.wait_for_selector("#call-big", state="visible")
    assert tablet.is_hidden("#call-time")
    assert int(tablet.inner_text("#call-big")) <= 10
    # The start and the last seconds at once: heard once, with who.
    tablet.wait_for_function(
        "(m) => document.getElementById('call-announce').textContent.startsWith(m)",
        arg=f"Clock on seat {last.seat} · {last.entry.player.display_name}: ",
    )
    shot(tablet, SHOTS, "last")
    tablet.wait_for_function("() => document.getElementById('call-big').textContent === 'Hand dead'", timeout=20_000)
    tablet.wait_for_function("() => document.getElementById('call-announce').textContent === 'Hand dead'")
    assert tablet.is_hidden("#call-acted") and tablet.is_enabled("#call-dead")
    fits(tablet, "dead")
    end_with(tablet, "#call-dead", "The hand is dead: the clock call is over.", floor_api, t)
    assert ClockCall.objects.order_by("number").last().outcome == "dead"


def test_a_refusal_of_the_server_is_said_on_the_tablet(live_asgi, browser, dealer, floor, room):
    """The player the dealer picks is busted meanwhile from another tablet: the server refuses the call for his empty
    seat and the tablet says its message, by the seats and in the feedback line."""
    base, t = live_asgi, room
    players = seats_at(t, 1)
    tablet = open_tablet(browser, base, dealer, t)
    tablet.click("#call-open")
    tablet.wait_for_selector("#call-pick", state="visible")
    gone = players[2]
    busts.bust_entry(gone.entry, actor=floor)
    tablet.click(f'#call-seats button[data-seat="{gone.seat}"]')
    tablet.click("#call-go")
    message = f"Nobody sits at table 1 seat {gone.seat}."
    tablet.wait_for_function("(m) => document.getElementById('dealer-feedback').textContent === m", arg=message)
    assert tablet.get_attribute("#dealer-feedback", "role") == "alert"
    assert tablet.inner_text("#call-say") == message and tablet.is_visible("#call-say")
    assert tablet.is_visible("#call-pick") and ClockCall.objects.count() == 0

    # The floor calls the clock from its own screen: the table's socket notes it and the tablet shows the banner
    # (the seat list closes); the table's next hand, started from elsewhere, ends the call and the banner leaves.
    floor_api = Client()
    floor_api.force_login(floor)
    answer = floor_api.post(f"/api/tournaments/{t.pk}/tables/1/clock-call/", {"seat": players[0].seat}, content_type="application/json")
    assert answer.status_code == 201, answer.content
    tablet.wait_for_selector("#call-banner", state="visible", timeout=10_000)
    assert tablet.get_attribute("#call-banner", "data-seat") == str(players[0].seat)
    assert tablet.is_hidden("#call-pick") and tablet.is_hidden("#call-say")
    answer = floor_api.post(f"/api/tournaments/{t.pk}/tables/1/hand/", {}, content_type="application/json")
    assert answer.status_code in (200, 201), answer.content
    tablet.wait_for_selector("#call", state="hidden", timeout=10_000)
    assert ClockCall.objects.get().outcome == "new_hand"
