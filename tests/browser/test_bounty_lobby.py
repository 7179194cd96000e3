"""A mystery bounty event's lobby TV in a real browser: the bounty panel (the money in play, the envelopes left by value),
and a bust entered while the TV is open draws an envelope that the TV says at once, without a reload: a banner across the
screen ("Envelope drawn: EUR 20 for P0 Test"), the panel in the side column's place, one envelope fewer in the box. Inside
the screen and clear of the clock, nothing scrolls, on a TV, a small TV and a portrait screen; no CSP refusal, no error."""

from __future__ import annotations

import pytest

from payouts.selectors import bounties as sel
from payouts.services import bounties
from tables.services import busts
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.left_open import left_open
from tests.browser.sizes import PHONE, shot
from tests.browser.test_lobby import TV
from tests.payouts.test_bounties import bounty_night, entry, mystery
from tournament.models import Tournament
from tournament.services import registration

pytestmark = pytest.mark.browser

SIZES = (TV, {"width": 1366, "height": 768}, {"width": 1080, "height": 1920})
FITS = (
    "(id) => { const b = document.getElementById(id); return b.scrollHeight <= b.clientHeight + 1 && b.scrollWidth <= b.clientWidth + 1; }"
)
ENVELOPES = [[2_000, 1], [1_000, 2], [500, 2]]  # five players of a bounty of 1,000 (EUR 10): EUR 50 in five envelopes


@pytest.fixture
def night(director, cashier, floor, template):
    """Five players at one table, envelopes drawn from level 2, registration closed, the envelopes committed, level 2."""
    t = mystery(director, cashier, floor, template)
    registration.set_registration_closed(t, actor=director, closed=True)
    Tournament.objects.filter(pk=t.pk).update(current_level=2)
    bounties.commit_envelopes(t, actor=director, envelopes=ENVELOPES)
    return t


def open_tv(browser, base: str, token: str, size: dict):
    page = browser.new_context(viewport=size, locale="en").new_page()
    errors = watch_errors(page)
    page.goto(f"{base}/display/{token}/")
    page.wait_for_selector("#live.live")
    page.evaluate("window.keptOpen = true")  # gone if the page were loaded again
    return page, errors


def cells(page) -> list[list[str]]:
    """The panel's list, row by row, each row's cells' texts."""
    return page.eval_on_selector_all("#lobby-bounty-list li", "ls => ls.map((l) => [...l.children].map((c) => c.textContent))")


def inside(page, selector: str, size: dict) -> dict:
    box = page.locator(selector).bounding_box()
    assert box["x"] >= 0 and box["y"] >= 0, selector
    assert box["x"] + box["width"] <= size["width"] + 1 and box["y"] + box["height"] <= size["height"] + 1, (selector, box, size)
    return box


def test_a_bust_draws_an_envelope_the_tv_says_at_once_with_one_envelope_fewer_in_the_box(live_asgi, browser, director, floor, night):
    t = night
    display = registration.create_display_token(t, actor=director, label="Lobby TV")
    tvs = [(size, *open_tv(browser, live_asgi, display.token, size)) for size in SIZES]
    for _size, page, _errors in tvs:
        # the panel's figures are there before its turn comes: the money in play and the box as committed
        assert page.text_content("#lobby-bounty-pool").strip() == "EUR\u00a050"
        assert page.text_content("#lobby-bounty-sub").strip() == "5 envelopes left"
        assert cells(page) == [["1 ×", "EUR\u00a020"], ["2 ×", "EUR\u00a010"], ["2 ×", "EUR\u00a05"]]
        assert page.is_hidden("#lobby-envelope")

    busts.bust_entry(entry(t, 5), actor=floor, eliminators=[1])  # level 2: an envelope for #1
    value = sel.won_by_entry(t)[1]["won"]
    said = f"Envelope drawn: EUR\u00a0{value // 100} for {entry(t, 1).player.display_name}"
    left = {2_000: 1, 1_000: 2, 500: 2}
    left[value] -= 1
    for size, page, errors in tvs:
        page.wait_for_selector("#lobby-envelope:not([hidden])", timeout=8000)
        assert page.inner_text("#lobby-envelope") == said
        assert page.get_attribute("#lobby-envelope", "role") == "status"  # said to a screen reader too
        # the panel takes the side column's place while the envelope is said, with one envelope fewer
        page.wait_for_selector("#lobby-bounties:not([hidden])")
        assert page.text_content("#lobby-bounty-sub") == "4 envelopes left"
        assert page.is_hidden(".l-side")
        assert cells(page) == [[f"{n} ×", f"EUR\u00a0{v // 100}"] for v, n in sorted(left.items(), reverse=True) if n]
        assert page.text_content("#lobby-bounty-pool") == f"EUR\u00a0{(5_000 - value) // 100}"
        assert page.text_content("#lobby-bounty-last") == said.replace("Envelope drawn", "Last envelope")
        assert page.evaluate("window.keptOpen === true")  # no reload
        # on the screen, clear of the clock, nothing scrolls
        banner, panel, clock = (
            inside(page, "#lobby-envelope", size),
            inside(page, "#lobby-bounties", size),
            inside(page, "#lobby-clock", size),
        )
        assert banner["y"] + banner["height"] <= clock["y"] + 1
        assert panel["y"] >= clock["y"] + clock["height"] - 1 or panel["x"] >= clock["x"] + clock["width"] - 1
        last = page.locator("#lobby-bounty-list li").last.bounding_box()
        assert last["y"] + last["height"] <= panel["y"] + panel["height"] + 1
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight && document.documentElement.scrollWidth <= innerWidth")
        fitted = page.evaluate(FITS, "lobby-envelope")
        assert fitted, size
        assert not csp_problems(page, errors), csp_problems(page, errors)
        shot(page, "bounty_lobby", f"{size['width']}x{size['height']}")  # with SCREEN_SHOTS=1, to look at by eye

    # a fresh load in those seconds shows the same
    fresh, _errors = open_tv(browser, live_asgi, display.token, TV)
    fresh.wait_for_selector("#lobby-envelope:not([hidden])")
    assert fresh.inner_text("#lobby-envelope") == said and fresh.text_content("#lobby-bounty-sub") == "4 envelopes left"

    busts.undo_bust(entry(t, 5), actor=floor)  # the envelope goes back into the box
    page = tvs[0][1]
    page.wait_for_function("document.getElementById('lobby-bounty-sub').textContent === '5 envelopes left'", timeout=8000)
    page.wait_for_selector("#lobby-envelope", state="hidden")
    assert page.is_hidden("#lobby-bounty-last")
    for context in browser.contexts:
        context.close()


def test_a_pko_knockout_reaches_the_tv_and_the_winners_seat_page_left_open(live_asgi, browser, director, cashier, floor, template):
    """The TV's biggest heads (with names: the house shows its figures in public by default) and the winner's own page,
    whose seat did not change: both left open show what a fresh load shows, his new head and his first knockout."""
    t = bounty_night(director, cashier, template, "progressive", players=4)  # bounties of EUR 100
    display = registration.create_display_token(t, actor=director, label="Lobby TV")
    seen = left_open(
        browser,
        live_asgi,
        f"/display/{display.token}/?bounties=1",
        lambda _page: busts.bust_entry(entry(t, 4), actor=floor, eliminators=[1]),
        size=TV,
        selector="#lobby-bounties",
    )
    name = entry(t, 1).player.display_name
    # half of #4's head paid in cash, the rest onto #1's
    assert "EUR\u00a0400" in seen.before and "EUR\u00a0350" in seen.now and "4.\n" not in seen.now
    assert f"1.\n{name}\nEUR\u00a0150" in seen.now
    seat_page = left_open(
        browser,
        live_asgi,
        f"/s/{t.pk}/1/",
        lambda _page: busts.bust_entry(entry(t, 3), actor=floor, eliminators=[1]),
        size=PHONE,
        selector="main",
    )
    before, now = seat_page.before.replace("\u00a0", " "), seat_page.now.replace("\u00a0", " ")
    assert "The bounty on your head: EUR 150" in before and "Bounties you have won: EUR 50 (1 knockout)" in before
    assert "The bounty on your head: EUR 200" in now and "Bounties you have won: EUR 100 (2 knockouts)" in now
    for context in browser.contexts:
        context.close()
