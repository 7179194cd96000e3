"""The notifications' reaction to every audit event (core.reactions; registered in NotifyConfig.ready()): an event a
player may be told of (notify/selectors/notices.TOLD_OF) schedules, once its transaction commits, the Celery task that
sends the messages (notify/tasks.py). Nothing is read or sent inside the floor's transaction."""

from __future__ import annotations

from django.db import transaction

from notify.selectors.notices import told_of
from notify.tasks import schedule
from tournament.models import AuditEvent, Tournament


def push_after_commit(*, tournament: Tournament | None, event: AuditEvent) -> None:
    """Reaction to tournament.services.audit.EVENT_RECORDED."""
    if tournament is None or not told_of(event.type):
        return
    pk = event.pk
    transaction.on_commit(lambda: schedule(pk), robust=True)
