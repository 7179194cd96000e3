"""The tablets' service worker (static/js/tablet-sw.js), served at the site's root.

A service worker handles the pages under its scope, and its scope can be no wider than the folder of its script:
from /static/js/ it could never cover a dealer tablet at /t/<id>/tables/<n>/dealer/. The same file is therefore
answered here, at /tablet-sw.js, and each of the three screens that opt in (the dealer tablet, the floor map, the
color-up page: static/js/press-queue.js) registers it with its own page's path as the scope. No cache: the browser
checks a worker for an update on each visit, and a release's new worker must reach the tablets at once. Its
Content-Security-Policy is the site's (config/settings.py: a worker falls under script-src 'self', and its reads
under connect-src 'self')."""

from __future__ import annotations

from django.contrib.staticfiles import finders
from django.http import Http404, HttpResponse
from django.views.decorators.cache import never_cache

from .access import page

SOURCE = "js/tablet-sw.js"


def worker_script(name: str) -> HttpResponse:
    """A service worker's script of static/, answered at the site's root (the players' worker too: web/notify/worker.py)."""
    path = finders.find(name)
    if not path:
        raise Http404
    with open(path, "rb") as source:
        return HttpResponse(source.read(), content_type="text/javascript; charset=utf-8")


@never_cache
@page("tablet-worker")
def tablet_worker(request):
    return worker_script(SOURCE)
