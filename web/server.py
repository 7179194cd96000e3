"""Views of the server rather than of a screen: robots.txt, the favicon, the scripts' words (Django's JavaScript
catalogue) and the answer when the server is full or the database unavailable.

When the database cannot be used, the request is answered 503 with Retry-After, "The database is
unavailable: try again in a moment.", in the API's error shape under /api/ (error "database_unavailable")
and as a plain page elsewhere, never a 500: the database is down or restarting (a connection refused or
lost in the middle of a request), or every connection of the worker's pool stayed busy for DB_POOL_TIMEOUT
seconds. Nothing was changed: a request's writes are one transaction, rolled back by the database when
its connection is lost, and the same press with its Idempotency-Key is applied once when the database is
back (tests/resilience/test_database_lost.py). A phone or a tablet tries again a moment later
(static/js/api.js). Any other unexpected error is the usual 500.
"""

from __future__ import annotations

import asyncio
import sys

from django.conf import settings
from django.http import Http404, HttpResponse, HttpResponseRedirect, JsonResponse
from django.templatetags.static import static
from django.utils import translation
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.cache import cache_control, cache_page, never_cache
from django.views.decorators.http import require_safe
from django.views.i18n import JavaScriptCatalog

from core.database import database_unavailable

from .api import error_body

RETRY_AFTER_SECONDS = 2
STAFF_FIRST_SECONDS = 0.25  # the longest a public read waits for the staff's requests to finish (Admission)


@require_safe
def robots(request):
    """No search engine indexes the room: the public pages carry players' names."""
    return HttpResponse("User-agent: *\nDisallow: /\n", content_type="text/plain")


@require_safe
@cache_control(max_age=86400, public=True)
def favicon(request):
    """The browser asks /favicon.ico on its own, whatever the page links: send it to the static icon."""
    return HttpResponseRedirect(static("favicon.ico"))


# The words of the scripts in static/js/ (gettext, ngettext, pgettext, interpolate): locale/*/djangojs.po.
SCRIPT_WORDS = JavaScriptCatalog.as_view(packages=["web"])


@require_safe
@cache_page(86400)
def javascript_catalogue(request, lang):
    """The catalogue in the language its address names (base.html gives every page its own language's), so a
    browser or a cache keeps one copy for each language and an address always means the same words."""
    if lang not in dict(settings.PLAYER_LANGUAGES):  # the staff's languages and the players' (web/middleware.py)
        raise Http404
    with translation.override(lang):
        return SCRIPT_WORDS(request)


@never_cache
def server_error(request):
    """handler500: a database that cannot be used becomes 503 with Retry-After; anything else stays a 500."""
    if not database_unavailable(sys.exc_info()[1]):
        return defaults.server_error(request)
    message = _("The database is unavailable: try again in a moment.")
    if request.path.startswith("/api/"):
        response = JsonResponse(error_body("database_unavailable", message), status=503)
    else:
        response = HttpResponse(message, content_type="text/plain; charset=utf-8", status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    return response


# Players' phones and lobby TVs, and the static files every screen loads (the staff's too: a page's
# scripts are not the floor's action, and must not hold the phones back as one); so are the browsers'
# Content-Security-Policy reports (web/csp_report.py), from any page.
PUBLIC_PATHS = ("/s/", "/api/public/", "/display/", "/robots.txt", "/static/", settings.CSP_REPORT_PATH)


class Admission:
    """ASGI middleware of each worker process, before Django:
    - at most `limit` public HTTP requests (players' phones, lobby TVs) in progress, waiting or running
      (WEB_MAX_PENDING); one more is answered at once with 503 and Retry-After instead of queueing behind
      them (refusing here costs next to nothing). The staff's requests count apart, against a limit of
      their own, so a thousand phones never get the floor's bust refused;
    - the public reads run at most `public_limit` at a time (WEB_PUBLIC_CONCURRENCY); the others wait
      their turn here, holding no thread and no database connection. Django runs each request in a
      thread of its own: without this gate a thousand phones would be a thousand threads fighting for
      the interpreter and the pool, and the floor's bust would wait behind all of them. Staff requests
      never wait at this gate;
    - while a staff request is in progress, no public read starts (for STAFF_FIRST_SECONDS at most): the
      interpreter runs one thread at a time, so a bust among sixteen phones' threads would get a
      seventeenth of the processor; the reads already running finish, the next ones start after it.
    WebSockets pass."""

    def __init__(self, app, limit: int, public_limit: int = 4) -> None:
        self.app, self.limit, self.public_limit = app, limit, public_limit
        self.waiting = {True: 0, False: 0}  # public or not -> requests in progress
        self._loop = None
        self._bind()

    def _bind(self) -> None:
        """The gate and the staff's flag belong to the event loop that serves (one per process in
        production; a test's servers may come and go, each with its own loop)."""
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is self._loop and hasattr(self, "staff_idle"):
            return
        self._loop = loop
        self.public_gate = asyncio.Semaphore(self.public_limit)
        self.staff_idle = asyncio.Event()
        if not self.waiting[False]:
            self.staff_idle.set()

    @property
    def pending(self) -> int:
        return self.waiting[True] + self.waiting[False]

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        self._bind()
        public = scope["path"].startswith(PUBLIC_PATHS)
        if self.waiting[public] >= self.limit:
            return await self.busy(scope, send)
        self.waiting[public] += 1
        if not public:
            self.staff_idle.clear()
        try:
            if public:
                async with self.public_gate:
                    await self.staff_first()
                    return await self.app(scope, receive, send)
            return await self.app(scope, receive, send)
        finally:
            self.waiting[public] -= 1
            if not self.waiting[False]:
                self.staff_idle.set()

    async def staff_first(self) -> None:
        """Wait while the staff's requests run (bounded: a stream of them never starves the phones)."""
        if not self.staff_idle.is_set():
            try:
                await asyncio.wait_for(self.staff_idle.wait(), STAFF_FIRST_SECONDS)
            except TimeoutError:
                pass

    async def busy(self, scope, send) -> None:
        if scope["path"].startswith("/api/"):
            body, kind = (
                b'{"error": "busy", "detail": "The server is busy. Please try again in a moment.", '
                b'"problems": ["The server is busy. Please try again in a moment."]}',
                b"application/json",
            )
        else:
            body, kind = b"The server is busy. Please try again in a moment.", b"text/plain; charset=utf-8"
        await send(
            {
                "type": "http.response.start",
                "status": 503,
                "headers": [
                    (b"content-type", kind),
                    (b"retry-after", str(RETRY_AFTER_SECONDS).encode()),
                    (b"content-length", str(len(body)).encode()),
                    (b"cache-control", b"no-store"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
