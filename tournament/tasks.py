"""Celery tasks of the tournament app. Beat runs `waiting_list.sweep` every ten seconds; it is idempotent."""

from celery import shared_task

from tournament.services import reservations, waiting_list


@shared_task(name="waiting_list.sweep", ignore_result=True)
def sweep_waiting_lists() -> int:
    """Expire the reservations unclaimed at their time, pass over the alternates whose minutes ran out, and offer the
    seats open to the next on each waiting list."""
    return reservations.expire_due() + waiting_list.pass_over_due()
