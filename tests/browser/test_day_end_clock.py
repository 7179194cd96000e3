"""The end of a day on the real screens: the director sets the day to end after level 1 on
the clock page, the lobby says so; the clock reaches the end of level 1 (the ticker, run here by the test as the
test server runs none) and stops there with 0:00, and the lobby says play has stopped for the day; the director
schedules the next day's start, and the lobby says when play resumes and at which level. The lobby with the day's
line fits its TV sizes and stays axe-clean, as does the director's page."""

from __future__ import annotations

import time
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from django.utils import timezone

from clock.models import ClockState
from clock.selectors import clock as clock_selectors
from clock.services import clock as clock_services
from tests.browser import accessibility
from tests.browser.conftest import login
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.test_screen_sizes import CHECK, SETTLED, SOUND_OFF
from tournament.models import AuditEvent
from tournament.services import registration

pytestmark = pytest.mark.browser

TABLET = {"width": 1180, "height": 820}
TV_SIZES = ((1920, 1080), (1080, 1920))
DAY = "#lobby-day"


def open_lobby(browser, base: str, token: str, size=(1920, 1080)):
    context = browser.new_context(viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    errors = watch_errors(page)
    page.goto(f"{base}/display/{token}/")
    page.wait_for_selector("#live.live")
    return page, errors


def day_line(page) -> str:
    page.evaluate("window.lobby.view.tick()")
    return "" if page.is_hidden(DAY) else page.inner_text(DAY)


def wait_for_day_line(page, text: str) -> None:
    page.wait_for_function(
        """(text) => { const el = document.getElementById("lobby-day");
      return !!el && !el.hidden && el.textContent === text; }""",
        arg=text,
        timeout=8000,
    )


def check_fits(browser, base: str, token: str) -> list[str]:
    """The lobby at its landscape and portrait TV sizes, with the day's line: nothing cut, spilled or overlapping;
    axe-clean and nothing a keyboard cannot reach (at the first size); no CSP or console error."""
    problems = []
    for size in TV_SIZES:
        page, errors = open_lobby(browser, base, token, size)
        page.wait_for_function("""() => { const el = document.getElementById("lobby-day"); return !!el && !el.hidden; }""")
        page.evaluate(SOUND_OFF)
        page.evaluate("document.fonts.ready")
        page.evaluate(SETTLED)
        problems += [f"{size} {p}" for p in page.evaluate(CHECK, {"noScroll": True})]
        if size == TV_SIZES[0]:
            problems += [f"{size} {p}" for p in accessibility.problems(page)]
        problems += [f"{size} {p}" for p in csp_problems(page, errors)]
        page.context.close()
    return problems


def test_the_day_ends_after_level_n_and_the_next_day_is_scheduled(live_asgi, browser, director, tournament):
    base = live_asgi
    display = registration.create_display_token(tournament, actor=director, label="Lobby TV")
    clock_services.start_clock(tournament, actor=director)
    lobby, lobby_errors = open_lobby(browser, base, display.token)
    director_page = browser.new_context(viewport=TABLET).new_page()
    director_errors = watch_errors(director_page)
    login(director_page, base, director.username)
    director_page.goto(f"{base}/t/{tournament.pk}/clock/")
    director_page.wait_for_selector("#live.live")

    # A level that does not exist: refused, said on the page, nothing set.
    director_page.fill("#day-end-level", "9")
    director_page.click("#btn-day-end")
    director_page.wait_for_function("document.getElementById('clock-feedback').textContent.includes('does not exist')")
    assert ClockState.objects.get(tournament=tournament).stop_after_level is None

    # End the day after level 1, through the clock's API.
    director_page.fill("#day-end-level", "1")
    with director_page.expect_request(f"**/api/tournaments/{tournament.pk}/clock/day-end/"):
        director_page.click("#btn-day-end")
    wait_for_day_line(lobby, "Day ends after level 1")
    director_page.wait_for_function("document.querySelector('#clock-face [data-clock=day]').textContent === 'Day ends after level 1'")
    assert ClockState.objects.get(tournament=tournament).stop_after_level == 1

    # The clock reaches the end of level 1 (two seconds left, then the ticker stops it there: the test server runs
    # no ticker, so the test does).
    left = clock_selectors.clock_snapshot(tournament)["current"]["remaining"]
    clock_services.adjust_clock(tournament, actor=director, seconds=-(int(left) - 2))
    deadline = time.monotonic() + 20
    while ClockState.objects.get(tournament=tournament).status != ClockState.Status.PAUSED:
        assert time.monotonic() < deadline, "the day did not end"
        clock_services.tick()
        time.sleep(0.1)
    wait_for_day_line(lobby, "Play has stopped for the day")
    time.sleep(1.2)  # and it stays there: level 1 at 0:00, the next level not started
    lobby.evaluate("window.lobby.view.tick()")
    assert lobby.inner_text("#lobby-time") == "00:00"
    assert lobby.inner_text("[data-clock=title]").upper() == "LEVEL 1"
    assert lobby.get_attribute("#lobby-time", "data-index") == "0"
    assert "is-paused" in lobby.get_attribute("body", "class")
    assert day_line(lobby) == "Play has stopped for the day"
    types = list(AuditEvent.objects.filter(type__startswith="clock.").values_list("type", flat=True))
    assert types[-3:] == ["clock.day_end_set", "clock.adjusted", "clock.day_ended"] and "clock.level_started" not in types
    director_page.wait_for_function("document.querySelector('#clock-face [data-clock=day]').textContent === 'Play has stopped for the day'")
    problems = check_fits(browser, base, display.token)

    # The next day starts tomorrow at noon (venue time), at level 2 with 15:00 left.
    zone = ZoneInfo(tournament.time_zone)
    day = (timezone.now().astimezone(zone) + timedelta(days=1)).date()
    director_page.fill("#restart-at", f"{day.isoformat()}T12:00")
    director_page.fill("#restart-level", "2")
    director_page.fill("#restart-left", "15:00")
    with director_page.expect_request(f"**/api/tournaments/{tournament.pk}/clock/restart/"):
        director_page.click("#btn-restart")
    wait_for_day_line(lobby, "Play resumes at 12:00 (venue time), level 2")
    director_page.wait_for_function("document.getElementById('clock-feedback').textContent.includes('12:00')")
    clock = ClockState.objects.get(tournament=tournament)
    assert clock.resume_at == datetime(day.year, day.month, day.day, 12, 0, tzinfo=zone)
    now = clock_selectors.clock_snapshot(tournament)["current"]
    assert (now["index"], now["remaining"]) == (1, 900)
    lobby.evaluate("window.lobby.view.tick()")
    assert lobby.inner_text("#lobby-time") == "15:00" and lobby.inner_text("[data-clock=title]").upper() == "LEVEL 2"
    problems += check_fits(browser, base, display.token)
    problems += [f"director {p}" for p in accessibility.problems(director_page)]
    # The browser's own console line for the one refusal asked for above is not a fault of the page.
    assert len([e for e in director_errors if "status of 400" in e]) <= 1
    director_errors[:] = [e for e in director_errors if "status of 400" not in e]
    problems += [f"director {p}" for p in csp_problems(director_page, director_errors)]
    problems += [f"lobby {p}" for p in csp_problems(lobby, lobby_errors)]
    assert not problems, "\n".join(problems)
    for page in (lobby, director_page):
        page.context.close()
