"""Real-browser tests: the ASGI app served by uvicorn in a thread, driven by Playwright in Debian's chromium."""

from __future__ import annotations

import os
import re
import threading
import time
from types import SimpleNamespace

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from playwright.sync_api import Frame, Page, sync_playwright

from tests.helpers import free_port

# Playwright's sync API runs an event loop in this thread; the tests still use the ORM here.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


# Under the Content-Security-Policy (no 'unsafe-eval', config/settings.py) Playwright's wait_for_function polls
# a bare expression with eval in the page, which the policy refuses; as an arrow function it is called instead.
FUNCTION = re.compile(r"^\s*(?:async\s+)?(?:function\b|\([^()]*\)\s*=>|[\w$]+\s*=>)")


def _as_function(wait_for_function):
    def wait(self, expression: str, *args, **kwargs):
        if not FUNCTION.match(expression):
            expression = f"() => ({expression})"
        return wait_for_function(self, expression, *args, **kwargs)

    return wait


Page.wait_for_function = _as_function(Page.wait_for_function)
Frame.wait_for_function = _as_function(Frame.wait_for_function)


@pytest.fixture
def live_asgi(transactional_db, settings):
    """Serve config.asgi:application (HTTP and WebSockets) on a free port."""
    import uvicorn

    from config.asgi import application

    settings.ALLOWED_HOSTS = ["*"]
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the test server did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)


@pytest.fixture
def restartable_asgi(transactional_db, settings):
    """Like live_asgi, but the server can be stopped and started again on the same port: `url`, `stop()`, `start()`."""
    import uvicorn

    from config.asgi import application

    settings.ALLOWED_HOSTS = ["*"]
    port = free_port()
    running = []

    def start():
        server = uvicorn.Server(uvicorn.Config(application, host="127.0.0.1", port=port, log_level="warning", lifespan="off"))
        thread = threading.Thread(target=server.run, daemon=True)
        thread.start()
        deadline = time.monotonic() + 15
        while not server.started:
            assert time.monotonic() < deadline, "the test server did not start"
            time.sleep(0.05)
        running.append((server, thread))

    def stop():
        server, thread = running.pop()
        server.should_exit = True
        thread.join(timeout=10)

    start()
    yield SimpleNamespace(url=f"http://127.0.0.1:{port}", start=start, stop=stop)
    while running:
        stop()


class Chromium:
    """One Playwright driver and one chromium for the browser tests a worker runs in a row (a launch is about two
    seconds, once per module it was a minute of the suite). Playwright's sync API keeps an event loop running in
    this thread while it is started, which the async tests of the other folders must not inherit: the root
    conftest closes it before any test that does not ask for `browser`, and at the end of the session."""

    playwright = None
    browser = None

    @classmethod
    def get(cls):
        if cls.browser is None:
            if not os.path.exists(CHROMIUM):
                pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium (scripts/test does it)")
            cls.playwright = sync_playwright().start()
            cls.browser = cls.playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        return cls.browser

    @classmethod
    def close(cls) -> None:
        if cls.browser is not None:
            cls.browser.close()
            cls.playwright.stop()
            cls.browser = cls.playwright = None


@pytest.fixture
def browser():
    """The shared chromium; the contexts a test leaves open are closed after it."""
    shared = Chromium.get()
    yield shared
    for context in shared.contexts:
        context.close()


def session_cookie(base_url: str, username: str) -> dict:
    """A signed-in session for `username`, made on the server as the login form makes it (django.contrib.auth's
    login, its signals), as the cookie a browser context takes (context.add_cookies). The login form itself is
    driven by the tests that test it (test_csp.py, test_payouts.py) and shown by the screen walk."""
    client = Client()
    client.force_login(User.objects.get(username=username), backend="django.contrib.auth.backends.ModelBackend")
    return {"name": settings.SESSION_COOKIE_NAME, "value": client.cookies[settings.SESSION_COOKIE_NAME].value, "url": base_url}


def login(page, base_url: str, username: str, password: str = "") -> None:
    """The page's browser signed in as `username` (its session cookie), then on the home page."""
    page.context.add_cookies([session_cookie(base_url, username)])
    page.goto(f"{base_url}/")
