"""The players' service worker (static/js/push-sw.js), served at the site's root as /push-sw.js: a worker's scope is
no wider than its script's folder, and it must cover the seat pages (/s/...) and the waiting boards (/t/<id>/waiting/).
The pages register it with the scope "/"; it only handles pushes, a tap on a notification and its "Stop" button, never
a page's requests (it has no fetch handler), and the tablets' own worker (web/tablet_worker.py), registered with
narrower scopes, keeps its pages. No cache: a release's new worker reaches the phones at their next visit."""

from __future__ import annotations

from django.views.decorators.cache import never_cache

from web.access import page
from web.tablet_worker import worker_script

SOURCE = "js/push-sw.js"


@never_cache
@page("push-worker")
def push_worker(request):
    return worker_script(SOURCE)
