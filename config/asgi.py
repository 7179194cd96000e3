"""ASGI entry point: HTTP through Django, WebSockets through Channels.

A request is handled by Django's WSGI handler in one thread of a fixed pool (a2wsgi, WEB_THREADS threads),
from the middleware to the view and back without leaving it. Django's ASGI handler runs the same sync
middleware and views with a thread hand-off at each sync/async boundary (several per request) and a new
thread per request: three times the processor time of a request (bench/phone.py; docs/capacity.md).
The event loop keeps what must be asynchronous: the connections, the admission gate (web/server.py), the
WebSockets and the pushes.
"""

import gc
import os

from a2wsgi import WSGIMiddleware
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_wsgi_app = get_wsgi_application()

from channels.auth import AuthMiddlewareStack  # noqa: E402
from channels.routing import ProtocolTypeRouter, URLRouter  # noqa: E402
from django.conf import settings  # noqa: E402
from django.urls import get_resolver  # noqa: E402

from clock.ticker import LifespanTicker  # noqa: E402
from config.logmask import mask_handlers  # noqa: E402
from live.origins import ExactOriginValidator  # noqa: E402
from live.routing import websocket_urlpatterns  # noqa: E402
from web.server import Admission  # noqa: E402

# uvicorn's handlers (its socket and access lines carry paths) mask link secrets too, as Django's do.
mask_handlers("uvicorn", "uvicorn.error", "uvicorn.access")

router = ProtocolTypeRouter(
    {
        # Past WEB_MAX_PENDING requests in progress, this worker answers 503 with Retry-After (web/server.py).
        "http": Admission(
            WSGIMiddleware(django_wsgi_app, workers=settings.WEB_THREADS), settings.WEB_MAX_PENDING, settings.WEB_PUBLIC_CONCURRENCY
        ),
        "websocket": ExactOriginValidator(AuthMiddlewareStack(URLRouter(websocket_urlpatterns))),
    }
)

# Without a broker (embedded defaults) the web process runs the clock's periodic task itself.
application = LifespanTicker(router, enabled=settings.CLOCK_TICKER_IN_PROCESS)

# What the process loads at start-up (Django, the apps, every view module: 100,000+ objects) lives as
# long as the process. Frozen into the collector's permanent generation, it is no longer walked by the
# full collections that a request's allocations set off; collection stays on for everything requests
# allocate. bench/seating.py prints the floor map with and without it (docs/draws.md, "Figures").
get_resolver().url_patterns  # noqa: B018 -- imports every view module now, so that it is frozen with the rest
gc.collect()
gc.freeze()
