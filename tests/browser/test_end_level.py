""" "End this level now" on the director's clock, in a real browser: shown once the clock has
started, confirmed before it is sent (dismissed: nothing happens), then the next level is on the director's face at
once with its full time, said, and in the event log."""

from __future__ import annotations

import pytest

from clock.services import clock as clock_services
from tests.browser.csp import csp_problems, watch_errors
from tests.browser.test_clock_screens import is_clock_call, open_staff_page
from tournament.models import AuditEvent

pytestmark = pytest.mark.browser


def test_the_director_ends_the_level_now_with_one_confirmed_press(live_asgi, browser, director, tournament):
    page = open_staff_page(browser, live_asgi, director.username, f"/t/{tournament.pk}/clock/")
    errors = watch_errors(page)
    page.wait_for_selector("#live.live")
    assert page.is_hidden("#btn-end-level")  # nothing to end before the start
    clock_services.start_clock(tournament, actor=director)
    page.wait_for_selector("#btn-end-level", state="visible")
    answers = []

    def on_dialog(dialog):
        answers.append(dialog.message)
        dialog.dismiss() if len(answers) == 1 else dialog.accept()

    page.on("dialog", on_dialog)
    page.click("#btn-end-level")
    page.wait_for_timeout(300)
    assert answers == [
        "End the level (or break) in play now? The time it has left is removed and the next one starts "
        "at once with its full time, on every screen."
    ]
    assert not AuditEvent.objects.filter(type="clock.level_ended").exists()  # dismissed: nothing sent
    with page.expect_request(is_clock_call(tournament)) as pressed:
        page.click("#btn-end-level")
    assert pressed.value.post_data_json == {"action": "end_level"}
    page.wait_for_function(
        "document.getElementById('clock-feedback').textContent === 'The level in play is over: the next one has started.'"
    )
    page.wait_for_function("document.getElementById('clock-time').dataset.index === '1'")
    assert page.inner_text("#clock-time") in ("20:00", "19:59")
    ended = AuditEvent.objects.get(type="clock.level_ended")
    assert ended.actor == director and ended.payload["level"] == 1
    page.goto(f"{live_asgi}/t/{tournament.pk}/events/?kind=clock")
    assert "Level 1 ended now (" in page.inner_text("main")
    assert csp_problems(page, errors) == []
    page.context.close()
