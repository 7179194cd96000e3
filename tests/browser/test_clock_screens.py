"""The clock's screens in a real browser: two lobby screens and the director's page agree with the
server to a tenth of a second through start, pause, add a minute and resume, also on a screen
whose own clock is ten minutes wrong; the lobby changes level by itself, shows breaks, goes
offline and comes back; the dealer tablet's button sets the table's level in play, and the floor
sees it live."""

from __future__ import annotations

import math
import random
import time

import pytest
from django.utils import translation
from playwright.sync_api import expect

from clock.models import ClockState
from clock.rules import timeline as tl
from clock.selectors import clock as clock_selectors
from clock.services import clock as clock_services
from tables.models import HandStart
from tables.services import setup as table_setup
from tests.browser.conftest import login
from tests.conftest import PASSWORD
from tournament.models import AuditEvent, StaffProfile
from tournament.services import registration

pytestmark = pytest.mark.browser

TV = {"width": 1920, "height": 1080}
TABLET = {"width": 1180, "height": 820}
SKEW_MS = 600_000  # ten minutes
TOLERANCE = 0.2  # seconds, between screens and against the server

# Before any script of the page: this device's wall clock runs ten minutes fast.
WRONG_CLOCK = """(() => {
  const Real = Date;
  window.__skew = SKEW;
  class Skewed extends Real {
    constructor(...args) { if (args.length === 0) super(Real.now() + window.__skew); else super(...args); }
    static now() { return Real.now() + window.__skew; }
  }
  window.Date = Skewed;
})();""".replace("SKEW", str(SKEW_MS))

# Read a screen now: compute a fresh frame, then read what it shows and its precise value.
READ = """(id) => {
  const el = document.getElementById(id);
  (window.lobby || window.clockPage || window.dealerPage).view.tick();
  return {ms: Number(el.dataset.remaining), text: el.textContent, version: Number(el.dataset.version),
          status: el.dataset.status, index: Number(el.dataset.index)};
}"""


def shown_seconds(text: str) -> int:
    parts = [int(p) for p in text.strip().split(":")]
    assert len(parts) in (2, 3), text
    return sum(p * 60**i for i, p in enumerate(reversed(parts)))


def server_state(tournament) -> tuple[int, list[tl.Row], tl.Anchor | None]:
    clock = ClockState.objects.filter(tournament=tournament).first()
    rows = clock_selectors.rows_of(tournament)
    if clock is None:
        return 0, rows, None
    return clock.version, rows, clock_selectors.anchor_of(clock)


def expected_remaining(rows, anchor, at: float) -> float:
    if anchor is None:
        return float(rows[0].seconds)
    return tl.position_at(rows, anchor, at).remaining


def wait_for_version(pages, version: int, timeout: float = 8000) -> None:
    for page, element in pages:
        page.wait_for_function(
            "([id, v]) => document.getElementById(id).dataset.version === String(v)", arg=[element, version], timeout=timeout
        )


def wait_for_new_version(tournament, old: int, timeout: float = 8.0) -> int:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        version = server_state(tournament)[0]
        if version > old:
            return version
        time.sleep(0.02)
    raise AssertionError(f"the clock version stayed at {old}")


def check_screens_agree(tournament, pages, status: str) -> list[float]:
    """Every screen shows the server's time left, within TOLERANCE, and they agree with each other."""
    version, rows, anchor = server_state(tournament)
    wait_for_version(pages, version)
    errors = []
    for page, element in pages:
        before = time.time()
        shown = page.evaluate(READ, element)
        after = time.time()
        running = anchor is not None and not anchor.paused
        expected = expected_remaining(rows, anchor, (before + after) / 2)
        slack = (after - before) / 2 if running else 0.0
        error = shown["ms"] / 1000 - expected
        assert shown["status"] == status, shown
        assert abs(error) <= TOLERANCE + slack, (page.url, shown, expected, error)
        # What the screen shows is the precise value rounded up to whole seconds (20:00, 19:59, ... 0:00).
        seconds = shown_seconds(shown["text"])
        assert seconds == math.ceil(shown["ms"] / 1000 - 0.0005) or abs(seconds - shown["ms"] / 1000) < 1.001, shown
        assert abs(seconds - expected) <= 1 + TOLERANCE, (shown, expected)
        errors.append(error)
    assert max(errors) - min(errors) <= TOLERANCE, errors
    return errors


@pytest.fixture
def displays(director, tournament):
    return [registration.create_display_token(tournament, actor=director, label=f"Lobby TV {n}") for n in (1, 2)]


# clock.js is an ES module: the page's own instance of it (the same address), for the test to read as window.Clock.
CLOCK_MODULE = "import('/static/js/clock.js').then((module) => { window.Clock = module; })"


def open_lobby(browser, base: str, token: str, wrong_clock: bool = False, query: str = ""):
    context = browser.new_context(viewport=TV)
    if wrong_clock:
        context.add_init_script(WRONG_CLOCK)
    page = context.new_page()
    page.goto(f"{base}/display/{token}/{query}")
    page.wait_for_selector("#live.live")
    page.evaluate(CLOCK_MODULE)
    return page


def open_staff_page(browser, base: str, username: str, path: str):
    page = browser.new_context(viewport=TABLET).new_page()
    login(page, base, username, PASSWORD)
    page.goto(base + path)
    return page


def test_two_lobbies_and_the_director_agree_with_the_server(live_asgi, browser, director, tournament, displays):
    base = live_asgi
    right = open_lobby(browser, base, displays[0].token)
    wrong = open_lobby(browser, base, displays[1].token, wrong_clock=True)
    clock_page = open_staff_page(browser, base, director.username, f"/t/{tournament.pk}/clock/")
    clock_page.wait_for_selector("#live.live")

    # The second screen's own clock really is ten minutes fast; it has measured its offset by ping.
    skew = wrong.evaluate("Date.now() / 1000") - time.time()
    assert abs(skew - SKEW_MS / 1000) < 2, skew
    assert abs(wrong.evaluate("new Date().getTime() / 1000") - time.time() - SKEW_MS / 1000) < 2
    wrong.wait_for_function("window.lobby.conn.sync.info.samples >= 3")
    assert abs(wrong.evaluate("window.lobby.conn.sync.offset") + SKEW_MS / 1000) < 0.5
    assert abs(right.evaluate("window.lobby.conn.sync.offset")) < 0.5

    screens = [(right, "lobby-time"), (wrong, "lobby-time"), (clock_page, "clock-time")]
    check_screens_agree(tournament, screens, "not_started")
    assert shown_seconds(right.inner_text("#lobby-time")) == 20 * 60

    steps = [("#btn-start", "running"), ("#btn-pause", "paused"), ("#btn-plus", "paused"), ("#btn-resume", "running")]
    for button, status in steps:
        version = server_state(tournament)[0]
        with clock_page.expect_request(f"**/api/tournaments/{tournament.pk}/clock/"):  # the public API, nothing else
            clock_page.click(button)
        wait_for_new_version(tournament, version)
        check_screens_agree(tournament, screens, status)
        time.sleep(1.2)  # and a moment later, still together (counting down, or frozen while paused)
        check_screens_agree(tournament, screens, status)

    # Start, a pause, one minute added: a minute more than the level's time, less the few seconds it ran.
    _version, rows, anchor = server_state(tournament)
    assert 20 * 60 + 60 - 10 < expected_remaining(rows, anchor, time.time()) < 20 * 60 + 60
    assert list(AuditEvent.objects.filter(type__startswith="clock.").values_list("type", flat=True)) == [
        "clock.started",
        "clock.paused",
        "clock.adjusted",
        "clock.resumed",
    ]

    # The wrong clock is stepped by another five minutes while the screen runs: it measures again.
    wrong.evaluate("window.__skew += 300000")
    wrong.wait_for_function("Math.abs(window.lobby.conn.sync.offset + 900) < 0.5", timeout=5000)
    check_screens_agree(tournament, screens, "running")
    for page in (right, wrong, clock_page):
        page.context.close()


def test_the_timeline_in_javascript_matches_the_python_one(live_asgi, browser, director, tournament, displays):
    """clock.js walks the rows exactly like clock/rules/timeline.py: same row, same time left, everywhere."""
    page = open_lobby(browser, live_asgi, displays[0].token)
    rnd = random.Random(20)
    cases = []
    for _ in range(300):
        kinds = [(rnd.choice(["level", "level", "level", "break"]), rnd.choice([1, 2, 15, 20, 60])) for _ in range(rnd.randint(1, 8))]
        rows = tl.numbered(kinds)
        started = 1_790_000_000 + rnd.uniform(0, 10_000)
        paused = started + rnd.uniform(-100, 20_000) if rnd.random() < 0.3 else None
        anchor = tl.Anchor(rnd.randrange(len(rows)), started, paused)
        at = started + rnd.uniform(-200, sum(r.seconds for r in rows) * 1.3)
        pos = tl.position_at(rows, anchor, at)
        cases.append(
            {
                "rows": [{"kind": r.kind, "seconds": r.seconds, "number": r.number} for r in rows],
                "anchor": {"index": anchor.index, "started_at": anchor.started_at, "paused_at": anchor.paused_at},
                "at": at,
                "expected": [
                    pos.index,
                    pos.remaining,
                    pos.ends_at,
                    pos.finished,
                    tl.seconds_to_next_break(rows, pos),
                    tl.next_level_index(rows, pos.index),
                ]
                + ([tl.level_in_force(rows, pos.index)] if any(r.kind == "level" for r in rows) else [None]),
            }
        )
    got = page.evaluate(
        """(cases) => cases.map((c) => {
      const p = Clock.position(c.rows, c.anchor, c.at);
      return [p.index, p.remaining, p.endsAt, p.finished, Clock.secondsToNextBreak(c.rows, p),
              Clock.nextLevelIndex(c.rows, p.index), Clock.levelInForce(c.rows, p.index)];
    })""",
        cases,
    )
    for case, answer in zip(cases, got, strict=True):
        assert answer == case["expected"], case
    assert page.evaluate("[Clock.format(1200), Clock.format(1199.2), Clock.format(0.2), Clock.format(0), Clock.format(3725)]") == [
        "20:00",
        "20:00",
        "00:01",
        "00:00",
        "1:02:05",
    ]
    page.context.close()


def test_lobby_changes_level_by_itself_with_a_warning_and_a_sound(live_asgi, browser, director, tournament, displays):
    """No server announcement is needed (the test server runs no ticker): the screen walks on by itself.
    Its link asks for sound (?sound=1)."""
    page = open_lobby(browser, live_asgi, displays[0].token, query="?sound=1")
    screens = [(page, "lobby-time")]
    clock_services.start_clock(tournament, actor=director)
    clock_services.adjust_clock(tournament, actor=director, seconds=-(20 * 60 - 62))  # about a minute and two seconds left
    wait_for_version(screens, server_state(tournament)[0])
    assert page.inner_text("[data-clock=blinds]") == "100 / 200"
    page.wait_for_function("Clock.beeps.some((b) => b.tones === 2)", timeout=5000)  # the one-minute warning
    assert "is-last-minute" in page.get_attribute("body", "class")

    _, rows, anchor = server_state(tournament)
    left = expected_remaining(rows, anchor, time.time())  # about a minute, less the time the warning took
    clock_services.adjust_clock(tournament, actor=director, seconds=-(int(left) - 2))  # a second or two left
    wait_for_version(screens, server_state(tournament)[0])
    page.wait_for_function("document.getElementById('lobby-time').dataset.index === '1'", timeout=5000)
    assert page.inner_text("[data-clock=title]").upper() == "LEVEL 2"
    assert page.inner_text("[data-clock=blinds]") == "200 / 400"
    assert page.inner_text("[data-clock=ante]").upper() == "BB ANTE 400"
    assert "level-changed" in page.get_attribute("body", "class")
    assert page.evaluate("Clock.beeps.some((b) => b.tones === 3)")
    assert not AuditEvent.objects.filter(type="clock.level_started").exists()
    check_screens_agree(tournament, screens, "running")
    page.context.close()


def test_lobby_break_shows_colour_up_and_the_announcement(live_asgi, browser, director, tournament, displays):
    page = open_lobby(browser, live_asgi, displays[0].token)
    clock_services.start_clock(tournament, actor=director)
    clock_services.jump_to_level(tournament, actor=director, level=2)
    clock_services.step_level(tournament, actor=director, step=1)  # the break after level 2
    clock_services.set_announcement(tournament, actor=director, text="Chip race at table 4")
    wait_for_version([(page, "lobby-time")], server_state(tournament)[0])
    assert "is-break" in page.get_attribute("body", "class")
    assert page.inner_text("[data-clock=title]").upper() == "BREAK"
    assert page.inner_text("[data-clock=color-up]") == "Color-up: 25 (green) chips leave play"
    assert page.inner_text("[data-clock=next-blinds]") == "300 / 600"
    assert page.inner_text("[data-clock=announcement]") == "Chip race at table 4"
    assert 597 <= shown_seconds(page.inner_text("#lobby-time")) <= 600
    assert not page.is_visible("[data-clock=blinds]")
    # Nothing on a TV scrolls or spills, even with the longest announcement, which stays large enough to read.
    clock_services.set_announcement(
        tournament,
        actor=director,
        text="Final table on the feature table with live stream. " * 3 + "Keep the rail clear for the crew, please.",
    )
    wait_for_version([(page, "lobby-time")], server_state(tournament)[0])
    page.wait_for_timeout(300)
    assert page.evaluate("""() => {
      const doc = document.documentElement, box = document.querySelector('.l-clock');
      const ann = document.querySelector('.l-announcement');
      return doc.scrollHeight <= innerHeight && doc.scrollWidth <= innerWidth && box.scrollHeight <= box.clientHeight + 1
        && ann.scrollHeight <= ann.clientHeight + 1 && parseFloat(getComputedStyle(ann).fontSize) >= 0.03 * innerHeight;
    }""")
    page.context.close()


def test_lobby_shows_offline_keeps_counting_and_reconnects(restartable_asgi, browser, director, tournament, displays):
    page = open_lobby(browser, restartable_asgi.url, displays[0].token)
    screens = [(page, "lobby-time")]
    clock_services.start_clock(tournament, actor=director)
    check_screens_agree(tournament, screens, "running")
    assert not page.is_visible(".offline-banner")

    restartable_asgi.stop()
    page.wait_for_selector(".offline-banner", state="visible", timeout=5000)
    assert "is-offline" in page.get_attribute("body", "class")
    check_screens_agree(tournament, screens, "running")  # the countdown goes on without the server

    clock_services.pause_clock(tournament, actor=director)  # missed while offline: the new snapshot brings it
    restartable_asgi.start()
    page.wait_for_selector(".offline-banner", state="hidden", timeout=20000)
    check_screens_agree(tournament, screens, "paused")
    page.context.close()


def test_revoked_screen_goes_blank(live_asgi, browser, director, tournament, displays):
    page = open_lobby(browser, live_asgi, displays[0].token)
    registration.revoke_display_token(displays[0], actor=director)
    page.wait_for_function("document.body.children.length === 0", timeout=5000)
    assert page.inner_text("body") == ""  # nothing of the tournament left on the screen
    page.context.close()


def test_dealer_button_sets_the_table_level_and_the_floor_sees_it_live(live_asgi, browser, director, floor, dealer, tournament):
    base = live_asgi
    table_setup.open_table(tournament, actor=director, number=1)
    table_setup.open_table(tournament, actor=director, number=2)
    clock_services.start_clock(tournament, actor=director)
    tables_page = open_staff_page(browser, base, floor.username, f"/t/{tournament.pk}/tables/")
    tables_page.wait_for_selector("#live.live")
    dealer_page = open_staff_page(browser, base, dealer.username, f"/t/{tournament.pk}/tables/1/dealer/")
    dealer_page.on("dialog", lambda dialog: dialog.accept())
    # The tablet's time sync has measured (its burst of pings), not only guessed from the page's own time: a page
    # made slowly on a busy machine guessed a few tenths of a second off.
    dealer_page.wait_for_function("window.dealerPage && window.dealerPage.sync.info.samples >= 3")
    check_screens_agree(tournament, [(dealer_page, "clock-time")], "running")

    dealer_page.click("#shuffle")
    dealer_page.wait_for_function("document.getElementById('hand-number').textContent === '1'")
    assert HandStart.objects.get().level_index == 0
    assert dealer_page.inner_text("#play-blinds") == "100 / 200" and not dealer_page.is_visible("#new-level")

    # The director moves on: table 1 is in the middle of a hand at level 1; table 2 (no hand yet) follows the clock.
    clock_services.step_level(tournament, actor=director, step=1)
    tables_page.wait_for_selector('#table-list tr[data-table="1"].old-level')
    assert "old-level" not in (tables_page.get_attribute('#table-list tr[data-table="2"]', "class") or "")
    assert tables_page.inner_text("#old-summary") == "1 table still plays the old level: 1. It changes at its next shuffle."
    dealer_page.evaluate("window.dealerPage.poll()")
    dealer_page.wait_for_selector("#new-level", state="visible")
    assert "Level 2" in dealer_page.inner_text("#new-level")
    assert dealer_page.inner_text("#play-blinds") == "100 / 200"

    # The next shuffle brings the table to the new level, and the floor sees it at once.
    dealer_page.click("#shuffle")
    dealer_page.wait_for_function("document.getElementById('hand-number').textContent === '2'")
    assert dealer_page.inner_text("#play-blinds") == "200 / 400" and not dealer_page.is_visible("#new-level")
    tables_page.wait_for_selector('#table-list tr[data-table="1"]:not(.old-level)')

    # A mistaken press is undone: back to hand 1 at level 1.
    dealer_page.click("#undo")
    dealer_page.wait_for_function("document.getElementById('hand-number').textContent === '1'")
    assert dealer_page.inner_text("#play-blinds") == "100 / 200"
    tables_page.wait_for_selector('#table-list tr[data-table="1"].old-level')
    assert HandStart.objects.filter(undone_at__isnull=True).count() == 1
    for page in (tables_page, dealer_page):
        page.context.close()


def is_clock_call(tournament):
    """A request, or the response to one, of POST /api/tournaments/<id>/clock/."""

    def matches(r):
        request = getattr(r, "request", r)
        return request.method == "POST" and request.url.endswith(f"/api/tournaments/{tournament.pk}/clock/")

    return matches


def test_director_confirms_before_next_and_sees_refusals(live_asgi, browser, director, tournament):
    """Every button is a call of the public API (POST /api/tournaments/<id>/clock/); its refusal, the API's
    translated detail, and the director's message built in the page are shown in the same place."""
    page = open_staff_page(browser, live_asgi, director.username, f"/t/{tournament.pk}/clock/")
    page.wait_for_selector("#live.live")
    answers = []
    calls = []
    page.on("request", lambda r: calls.append(r.url) if "/clock/action" in r.url else None)

    def on_dialog(dialog):
        answers.append(dialog.message)
        dialog.dismiss() if len(answers) == 1 else dialog.accept()

    page.on("dialog", on_dialog)
    page.click("#btn-next")  # refused before the clock starts
    page.wait_for_timeout(300)
    assert answers == ["Move every screen to the next level now?"]
    assert not AuditEvent.objects.filter(type__startswith="clock.").exists()  # dismissed: nothing sent
    with page.expect_response(is_clock_call(tournament)) as refused:
        page.click("#btn-next")
    request = refused.value.request
    assert request.post_data_json == {"action": "next"} and request.headers["idempotency-key"]
    assert refused.value.status == 409
    page.wait_for_selector("#clock-feedback.refused")
    assert page.inner_text("#clock-feedback") == refused.value.json()["detail"] == "Start the clock first."

    with page.expect_request(is_clock_call(tournament)) as start:
        page.click("#btn-start")
    assert start.value.post_data_json == {"action": "start"}
    page.wait_for_selector("#clock-feedback.ok")
    assert page.inner_text("#clock-feedback") == "The clock is running."
    with page.expect_request(is_clock_call(tournament)) as plus:
        page.click("#btn-plus")
    assert plus.value.post_data_json == {"action": "adjust", "seconds": 60}
    page.wait_for_function("document.getElementById('clock-feedback').textContent === '1 min added.'")
    page.fill("#jump-level", "3")
    with page.expect_request(is_clock_call(tournament)) as jump:
        page.click("#btn-jump")
    assert jump.value.post_data_json == {"action": "jump", "level": 3}
    page.wait_for_function("document.getElementById('clock-time').dataset.index === '3'")
    assert answers[-1] == "Jump to level 3 with its full time, on every screen?"
    page.wait_for_function("document.getElementById('clock-feedback').textContent === 'Level 3 is now in play.'")
    assert "current" in page.get_attribute('#level-list tr[data-row-index="3"]', "class")
    page.fill("#announce-text", "Final table at 22:00")
    page.click("#btn-announce")
    page.wait_for_function("document.getElementById('clock-feedback').textContent === 'The announcement is on the screens.'")
    assert ClockState.objects.get(tournament=tournament).announcement == "Final table at 22:00"
    with page.expect_request(is_clock_call(tournament)) as clear:
        page.click("#btn-announce-clear")
    assert clear.value.post_data_json == {"action": "announce", "text": ""}
    page.wait_for_function("document.getElementById('clock-feedback').textContent === 'The announcement is cleared.'")
    assert page.input_value("#announce-text") == ""
    assert ClockState.objects.get(tournament=tournament).announcement == ""
    assert list(AuditEvent.objects.filter(type__startswith="clock.").values_list("type", flat=True)) == [
        "clock.started",
        "clock.adjusted",
        "clock.jumped",
        "clock.announcement",
        "clock.announcement",
    ]
    assert calls == []
    page.context.close()


def test_the_director_sees_the_apis_refusal_in_his_language(live_asgi, browser, director, tournament):
    """The director works in Czech: the API's refusal and the page's own message are Czech."""
    StaffProfile.objects.update_or_create(user=director, defaults={"language": "cs"})
    with translation.override("cs"):
        not_started = translation.gettext("Start the clock first.")
        running = translation.gettext("The clock is running.")
    assert not_started != "Start the clock first." and running != "The clock is running."
    page = open_staff_page(browser, live_asgi, director.username, f"/t/{tournament.pk}/clock/")
    page.wait_for_selector("#live.live")
    page.on("dialog", lambda dialog: dialog.accept())
    with page.expect_response(is_clock_call(tournament)) as refused:
        page.click("#btn-next")
    page.wait_for_selector("#clock-feedback.refused")
    assert page.inner_text("#clock-feedback") == refused.value.json()["detail"] == not_started
    page.click("#btn-start")
    page.wait_for_selector("#clock-feedback.ok")
    assert page.inner_text("#clock-feedback") == running
    page.context.close()


def test_director_sets_the_level_and_closes_registration_from_the_overview(live_asgi, browser, director, tournament):
    page = open_staff_page(browser, live_asgi, director.username, f"/t/{tournament.pk}/")
    page.on("dialog", lambda dialog: dialog.accept())
    page.fill("#id_level", "2")
    with page.expect_request(is_clock_call(tournament)) as jump:
        page.click("#level-set")
    assert jump.value.post_data_json == {"action": "jump", "level": 2}
    expect(page.locator(".api-say.ok")).to_have_text("Level 2 is now in play.")  # said after the page reloaded
    tournament.refresh_from_db()
    assert tournament.current_level == 2
    with page.expect_request(lambda r: r.url.endswith(f"/api/tournaments/{tournament.pk}/registration/")) as close:
        page.click("#registration-toggle")
    assert close.value.post_data_json == {"closed": True}
    page.wait_for_function("(document.querySelector('.api-say') || {}).textContent === 'Registration is closed.'")
    assert page.inner_text("#registration-toggle") == "Reopen registration"
    tournament.refresh_from_db()
    assert tournament.registration_closed
    page.context.close()
