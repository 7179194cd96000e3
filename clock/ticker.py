"""The embedded ticker: with no Redis (eager tasks, no beat), the web process itself runs the
clock's periodic task once a second, inside the ASGI lifespan, so announcements reach the
in-memory channel layer of the same process."""
from __future__ import annotations

import asyncio
import logging

from asgiref.sync import sync_to_async

log = logging.getLogger(__name__)


async def run_ticker(interval: float = 1.0) -> None:
    from . import services

    while True:
        try:
            await sync_to_async(services.tick, thread_sensitive=False)()
        except Exception:  # keep ticking; the next tick retries what is due
            log.exception("clock tick failed")
        await asyncio.sleep(interval)


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
