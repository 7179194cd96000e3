"""A bounty event on the floor map, in a real browser: the bust asks who won the pot (a large button per other player at
the table, pressed on and off; "Yes, bust" stays off until one is chosen and says why), the bust names the seat that
won, the winner's dialog then shows his grown head (PKO: 1.5 × the bounty with the house's default half share), and
"Wrong winner?" on the undo bar names another with a reason, the API's refusal said in its dialog."""

from __future__ import annotations

import pytest

from payouts.selectors import bounties as sel
from tables.models import Elimination, Seat
from tests.browser.test_seating import staff_page
from tests.payouts.test_bounties import bounty_night, entry
from tournament.models import Entry

pytestmark = pytest.mark.browser

NBSP = "\u00a0"


def text(page, selector: str) -> str:
    return page.inner_text(selector).replace(NBSP, " ").strip()


def test_a_pko_bust_on_the_map_names_its_winner_and_his_head_grows(live_asgi, browser, director, cashier, floor, template):
    t = bounty_night(director, cashier, template, "progressive", players=4)  # EUR 100 a head
    seat = dict(Seat.objects.filter(tournament=t, ended_at__isnull=True).values_list("entry__number", "seat"))
    victim, winner, other = 1, 2, 3
    page = staff_page(browser, live_asgi, floor.username, f"/t/{t.pk}/map/")
    errors = []
    page.on("pageerror", lambda error: errors.append(error))

    # The seat's dialog says the player's head, in the event's money.
    page.click(f'.m-seat[data-entry="{winner}"]')
    page.wait_for_function("document.getElementById('seat-head').textContent.indexOf('100') >= 0")
    assert text(page, "#seat-head") == "Bounty on his head: EUR 100"
    page.click("#seat-close")

    # "Bust": who won the pot? One button per other player at the table; no winner, no bust, and the sentence says why.
    page.click(f'.m-seat[data-entry="{victim}"]')
    page.click("#bust-ask")
    buttons = page.eval_on_selector_all("#bust-winner-list button", "bs => bs.map(b => [Number(b.dataset.seat), b.innerText])")
    assert sorted(s for s, _label in buttons) == sorted(seat[n] for n in (2, 3, 4))
    assert all(label.replace("\n", " ").startswith(f"Seat {s} P") for s, label in buttons)
    assert page.is_disabled("#bust-go")
    assert "names who won it" in text(page, "#bust-winner-say")
    page.click("#bust-go", force=True)  # a press on the refused confirm sends nothing
    assert entry(t, victim).status == Entry.Status.ACTIVE

    # Pressed on and off: a split pot said in words, then the one winner.
    page.click(f'#bust-winner-list button[data-entry="{other}"]')
    page.click(f'#bust-winner-list button[data-entry="{winner}"]')
    assert text(page, "#bust-winner-say").startswith("Split pot: seat ")
    page.click(f'#bust-winner-list button[data-entry="{other}"]')
    assert page.get_attribute(f'#bust-winner-list button[data-entry="{other}"]', "aria-pressed") == "false"
    assert page.get_attribute(f'#bust-winner-list button[data-entry="{winner}"]', "aria-pressed") == "true"
    assert text(page, "#bust-winner-say") == f"The pot went to seat {seat[winner]} (P1 Test)."
    assert page.is_enabled("#bust-go")
    page.click("#bust-go")
    page.wait_for_selector("#undo-bar:not([hidden])")
    assert f"the pot went to seat {seat[winner]} (P1 Test)" in text(page, "#undo-text")
    assert entry(t, victim).status == Entry.Status.BUSTED
    standing = Elimination.objects.get(tournament=t, busted__number=victim, status=Elimination.Status.STANDING)
    assert (standing.winners, standing.winner_seats) == ([winner], [seat[winner]])

    # The winner's head grew by the half the cash share left on it: EUR 150, and his knockout says what he won.
    page.click(f'.m-seat[data-entry="{winner}"]')
    page.wait_for_function("document.getElementById('seat-head').textContent.indexOf('150') >= 0")
    assert text(page, "#seat-head") == "Bounty on his head: EUR 150 · 1 knockout, EUR 50 won"
    page.click("#seat-close")

    # "Wrong winner?": the reason is required; the same winner again is refused by the API, said in the dialog.
    page.click("#wrong-winner")
    page.click(f'#winner-list button[data-entry="{winner}"]')
    assert page.is_disabled("#winner-go")
    assert text(page, "#winner-pick-say") == "Type the reason for the correction."
    page.fill("#winner-reason", "dealer pushed the pot to the wrong seat")
    page.click("#winner-go")
    page.wait_for_function("document.getElementById('winner-say').textContent !== ''")
    assert text(page, "#winner-say") == "These are the winners already recorded."
    page.click(f'#winner-list button[data-entry="{winner}"]')
    page.click(f'#winner-list button[data-entry="{other}"]')
    page.click("#winner-go")
    page.wait_for_selector("#winner-dialog", state="hidden")
    assert "the winner is corrected" in text(page, "#notice")
    standing = Elimination.objects.get(tournament=t, busted__number=victim, status=Elimination.Status.STANDING)
    assert standing.winners == [other]
    assert sel.heads(t)[winner] == 10_000 and sel.heads(t)[other] == 15_000
    assert errors == []
    page.context.close()
