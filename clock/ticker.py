"""The embedded ticker: with no Redis (eager tasks, no beat), the web process itself runs the
clock's periodic task once a second, inside the ASGI lifespan, so announcements reach the
in-memory channel layer of the same process; and every ten seconds the reservations' and the waiting lists' sweep (tournament/tasks.py)."""

from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async
from django.db import close_old_connections, connection

from clock.selectors import clock as clock_selectors
from clock.services import clock as clock_services
from tournament.services import reservations, waiting_list

log = logging.getLogger(__name__)


MIN_SLEEP = 0.02
SWEEP_EVERY = 10  # ticks: the waiting lists' sweep, as Celery beat runs it (config/settings.py)


def tick_once(interval: float = 1.0, sweep: bool = False) -> float:
    """One tick in a worker thread; returns how long to sleep before the next one (at most
    `interval`, less when something falls due sooner, so announcements are not up to a second
    late). The database connection is closed afterwards: no request cycle closes it here, and
    a connection left open in a pool thread would go stale or pile up (one per thread)."""
    close_old_connections()
    try:
        clock_services.tick()
        if sweep:
            reservations.expire_due()  # their places first, then the waiting lists offer them
            waiting_list.pass_over_due()
        until = clock_selectors.seconds_until_next_due()
    finally:
        connection.close()
    return interval if until is None else min(interval, max(MIN_SLEEP, until))


async def run_ticker(interval: float = 1.0) -> None:
    ticks = 0
    while True:
        delay = interval
        ticks += 1
        try:
            delay = await sync_to_async(tick_once, thread_sensitive=False)(interval, ticks % SWEEP_EVERY == 0)
        except Exception:  # keep ticking; the next tick retries what is due
            log.exception("clock tick failed")
        await asyncio.sleep(delay)


class LifespanTicker:
    """ASGI middleware: handles the lifespan scope and, when enabled, runs the ticker."""

    def __init__(self, app, enabled: bool) -> None:
        self.app = app
        self.enabled = enabled

    async def __call__(self, scope, receive, send):
        if scope["type"] != "lifespan":
            return await self.app(scope, receive, send)
        task = None
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                if self.enabled:
                    task = asyncio.get_running_loop().create_task(run_ticker())
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                if task is not None:
                    task.cancel()
                await send({"type": "lifespan.shutdown.complete"})
                return
