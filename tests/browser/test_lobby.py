"""The lobby TV in a real browser: it never asks to be touched and sounds only when its link
asks for it (?sound=1); the last bust brings the winner screen (the winner and the final results instead of the
clock), live, and an undone bust takes it away."""

from __future__ import annotations

import pytest
from django.urls import reverse

from clock.services import clock as clock_services
from payouts.selectors import structure
from tables.services import busts
from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tests.payouts.test_payments import finish
from tournament.models import DisplayToken

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
# The browser holds the sound until someone touches the screen (a kiosk without the autoplay flag).
AUDIO_HELD = """() => Object.defineProperty(Clock.sounds, "available", {get: () => false})"""
HINT_CHECKS = 2500  # ms: the page looks at the sound every two seconds


# clock.js is an ES module: the page's own instance of it (the same address), for the test to read as window.Clock.
CLOCK_MODULE = "import('/static/js/clock.js').then((module) => { window.Clock = module; })"


def open_lobby(browser, base: str, token: str, query: str = "", touch: bool = False):
    page = browser.new_context(viewport=TV, locale="en", has_touch=touch).new_page()
    page.goto(f"{base}/display/{token}/{query}")
    page.wait_for_selector("#live.live")
    page.evaluate(CLOCK_MODULE)
    return page


def test_the_tv_shows_where_players_find_their_seat(live_asgi, browser, tournament, display):
    """The seat finder's address as text and as a QR code big enough for a phone a few metres away (a sixth of
    the screen's height), on the screen and clear of the clock."""
    for size in (TV, {"width": 1080, "height": 1920}):
        page = browser.new_context(viewport=size, locale="en").new_page()
        page.goto(f"{live_asgi}/display/{display.token}/")
        page.wait_for_selector("#live.live")
        address = f"{live_asgi.split('://', 1)[1]}/s/{tournament.pk}/"
        assert address in page.inner_text("body")
        qr = page.locator(".l-qr svg").bounding_box()
        assert qr["height"] >= min(size["width"], size["height"]) / 6 and abs(qr["width"] - qr["height"]) < 2
        assert qr["x"] >= 0 and qr["y"] >= 0 and qr["x"] + qr["width"] <= size["width"]
        assert qr["y"] + qr["height"] <= size["height"]
        clock = page.locator("#lobby-clock").bounding_box()
        assert qr["y"] >= clock["y"] + clock["height"] or qr["x"] >= clock["x"] + clock["width"]
        page.context.close()


def test_a_tv_never_asks_to_be_touched_and_sounds_only_when_its_link_asks(live_asgi, browser, director, tournament, display):
    # A TV has no touch: whether its link asks for sound or not, it never shows the touch prompt.
    tvs = {query: open_lobby(browser, live_asgi, display.token, query) for query in ("", "?sound=1")}
    for tv in tvs.values():
        assert not tv.evaluate("matchMedia('(pointer: coarse)').matches")
        tv.evaluate(AUDIO_HELD)
    tvs[""].wait_for_timeout(HINT_CHECKS)
    for query, tv in tvs.items():
        assert tv.is_hidden("#sound-off"), query

    # A screen with touch asks, only when its link asks for sound.
    touch = {query: open_lobby(browser, live_asgi, display.token, query, touch=True) for query in ("", "?sound=1")}
    for tablet in touch.values():
        assert tablet.evaluate("matchMedia('(pointer: coarse)').matches")
        tablet.evaluate(AUDIO_HELD)
    touch["?sound=1"].wait_for_selector("#sound-off", state="visible", timeout=HINT_CHECKS + 2000)
    assert "touch the screen" in touch["?sound=1"].inner_text("#sound-off")
    assert touch[""].is_hidden("#sound-off")

    # The level changes (a second or two left): only the screen whose link asks for sound beeps.
    clock_services.start_clock(tournament, actor=director)
    clock_services.adjust_clock(tournament, actor=director, seconds=-(20 * 60 - 2))
    for tv in tvs.values():
        tv.wait_for_function("document.getElementById('lobby-time').dataset.index === '1'", timeout=8000)
    assert tvs["?sound=1"].evaluate("Clock.beeps.some((b) => b.tones === 3)")
    assert tvs[""].evaluate("Clock.beeps.length") == 0
    for page in (*tvs.values(), *touch.values()):
        page.context.close()


def test_the_last_bust_brings_the_winner_screen_and_its_undo_the_clock(live_asgi, browser, director, cashier, floor, tournament, display):
    entries = finish(director, cashier, floor, tournament)  # eight entries, four paid, three play on
    third, second, winner = entries[5:]
    busts.bust_entry(third, actor=floor)
    tv = open_lobby(browser, live_asgi, display.token)
    assert tv.is_hidden("#lobby-final") and tv.is_visible("#lobby-time") and tv.is_visible("[data-clock=next-blinds]")

    busts.bust_entry(second, actor=floor)  # the winner is known: the screen changes by itself
    tv.wait_for_selector("#lobby-final", state="visible", timeout=8000)
    tv.wait_for_function(f"document.getElementById('lobby-winner').textContent === {winner.player.display_name!r}")
    won = structure.prizes_won(tournament)
    assert tv.inner_text("#lobby-winner-label").upper() == "WINNER"
    assert f"{won[winner.number] // 100:,}" in tv.inner_text("#lobby-winner-prize")
    rows = tv.eval_on_selector_all("#lobby-results li", "ls => ls.map(l => l.innerText.replace(/\\s+/g, ' ').trim())")
    assert rows == [
        f"{place}. {e.player.display_name} {tournament.currency} {won[e.number] // 100:,}"
        for place, e in ((2, second), (3, third), (4, entries[4]))
    ]
    # No clock, no break, no next level; all of it on the screen, nothing scrolls.
    for gone in ("#lobby-time", "[data-clock=next-blinds]", "[data-clock=break-in]", "#lobby-paid"):
        assert tv.is_hidden(gone), gone
    assert tv.evaluate("document.documentElement.scrollHeight <= innerHeight")
    box = tv.locator("#lobby-final").bounding_box()
    assert box["y"] >= 0 and box["y"] + box["height"] <= TV["height"]

    busts.undo_bust(second, actor=floor)  # a mistake: two play on again
    tv.wait_for_selector("#lobby-final", state="hidden", timeout=8000)
    assert tv.is_visible("#lobby-time") and tv.is_visible("[data-clock=next-blinds]")
    tv.context.close()


def test_a_screen_link_is_made_on_the_page_and_shown_once(live_asgi, browser, director, tournament):
    """static/js/displays.js: the new link comes in the creation answer only; the page shows it and adds its row."""
    page = browser.new_context(viewport={"width": 1280, "height": 900}, locale="en").new_page()
    login(page, live_asgi, director.username, PASSWORD)
    page.goto(live_asgi + reverse("displays", args=[tournament.pk]))
    page.fill("#id_label", "Bar TV")
    page.click("#display-create button")
    page.wait_for_selector("#new-link:not([hidden])")
    url = page.inner_text("#new-link-url")
    assert "/display/" in url and page.inner_text("#new-link-label") == "Bar TV"
    display = DisplayToken.objects.get(tournament=tournament, label="Bar TV")
    assert page.locator(f'#display-list tr[data-display="{display.pk}"]').count() == 1
    page.goto(url)
    page.wait_for_selector("#live.live")
    page.context.close()
