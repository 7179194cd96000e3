"""A screen left open says what a fresh load of it says: TVs and tablets stay on one page for a whole
night, so a push must bring every part a change touches, not only the part the push names.

`left_open`: open a screen (a URL, at a device's size, signed in or not), make a change through the services (a bust,
the money, hand-for-hand, a satellite's seat bubble, a table opened...), then open a fresh page of the same URL and
wait until the page left open shows the same visible text, time-varying parts (the clock's countdown) set aside. It
fails when the fresh page shows nothing new (the change proves nothing), when the page left open never catches up,
and when it caught up by reloading itself (a screen must redraw from its pushes and reads, not make the room reload)."""

from __future__ import annotations

import difflib
import re
import time
from collections.abc import Callable
from typing import NamedTuple

from tests.browser.conftest import session_cookie

# What changes with the time alone: a countdown or a time of day ("12:34", "1:02:03"), "in 5 min", "5 s ago".
TIME_PARTS = (re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"), re.compile(r"\b\d+\s*(?:s|sec|min|h)\b(?:\s+ago)?"))
MARK = "() => { window.__leftOpen = true; }"
STILL_MARKED = "() => window.__leftOpen === true"


class Seen(NamedTuple):
    """What `left_open` compared: the page left open and the fresh one, the text left open before the change, and
    the text both showed once the page left open caught up."""

    page: object
    fresh: object
    before: str
    now: str
    fresh_now: str


def visible_text(page, selector: str = "body", leave_out: tuple[str, ...] = ()) -> str:
    """The text a person sees on the screen (hidden parts left out: innerText), its lines trimmed and the empty ones
    dropped, the time-varying parts replaced by "#". `leave_out`: selectors of what only a page left open says, the
    news of the change itself ("You have been moved"), whose lines are dropped."""

    def lines(text: str) -> list[str]:
        for pattern in TIME_PARTS:
            text = pattern.sub("#", text)
        return [line.strip() for line in text.splitlines() if line.strip()]

    news = {line for each in leave_out for found in page.locator(each).all() if found.is_visible() for line in lines(found.inner_text())}
    return "\n".join(line for line in lines(page.locator(selector).first.inner_text()) if line not in news)


def open_screen(browser, base: str, path: str, *, size: dict, user: str | None = None, ready: str = "#live.live", locale: str = "en"):
    """A page of `path` in a context of its own at `size`, signed in as `user` (a username) or not; once `ready`
    (a selector: by default the live badge once the socket's first snapshot came) is on the page."""
    context = browser.new_context(viewport=size, locale=locale)
    if user is not None:
        context.add_cookies([session_cookie(base, user)])
    page = context.new_page()
    page.goto(base + path)
    if ready:
        page.wait_for_selector(ready, state="attached")
    return page


def mark(page) -> None:
    """Mark the page (a script variable): a reload loses the mark."""
    page.evaluate(MARK)


def left_open(
    browser,
    base: str,
    path: str,
    change: Callable[[object], object],
    *,
    size: dict,
    user: str | None = None,
    ready: str = "#live.live",
    selector: str = "body",
    timeout: float = 15.0,
    settle: int = 400,
    leave_out: tuple[str, ...] = (),
):
    """Open the screen, make `change` (given the page left open: a change may be made on it), open it afresh; the page
    left open must come to show what the fresh one shows (within `timeout` seconds), without reloading itself.
    Returns what it saw (Seen): the pages, the text before the change and the text both pages show after it."""
    page = open_screen(browser, base, path, size=size, user=user, ready=ready)
    page.wait_for_timeout(settle)
    mark(page)
    before = visible_text(page, selector)
    change(page)
    fresh = open_screen(browser, base, path, size=size, user=user, ready=ready)
    fresh.wait_for_timeout(settle)  # its own reads after the first paint (the draws' line, a table's state)
    want = visible_text(fresh, selector)
    assert want != before, f"{path}: a fresh load shows nothing new after the change, so this proves nothing:\n{want}"
    now, fresh_now = catch_up(page, fresh, selector=selector, timeout=timeout, what=path, leave_out=leave_out)
    return Seen(page, fresh, before, now, fresh_now)


def catch_up(
    page, fresh, *, selector: str = "body", timeout: float = 15.0, what: str = "", leave_out: tuple[str, ...] = ()
) -> tuple[str, str]:
    """Wait until `page` (left open, marked before the change) shows what `fresh` shows; fail with the difference after
    `timeout` seconds, or when it caught up by reloading itself. Returns the two texts compared last (the page left
    open's, the fresh page's)."""
    deadline = time.monotonic() + timeout
    while True:
        # The fresh page is read again each time: on a busy machine its own reads after the first paint may still be
        # coming, and a part that changed meanwhile on both is not a stale screen.
        want = visible_text(fresh, selector, leave_out)
        got = visible_text(page, selector, leave_out)
        if got == want:
            break
        if time.monotonic() > deadline:
            diff = "\n".join(difflib.unified_diff(want.splitlines(), got.splitlines(), "fresh load", "left open", lineterm=""))
            raise AssertionError(f"{what}: the screen left open differs from a fresh load:\n{diff}")
        page.wait_for_timeout(150)
    assert page.evaluate(STILL_MARKED), f"{what}: the screen left open reloaded itself to catch up"
    return got, want
