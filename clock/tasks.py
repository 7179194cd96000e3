"""Celery tasks of the clock. Beat runs `clock.tick` every second; it is idempotent."""

from celery import shared_task

from clock.services import clock as clock_services


@shared_task(name="clock.tick", ignore_result=True)
def tick() -> int:
    """Make every announcement that is due (level changes, one-minute warnings, breaks)."""
    return clock_services.tick()
