"""Celery tasks of the notifications: one per event a player may be told of (scheduled after its commit by
notify/reactions.py), which reads the notices and their phones (one query) and hands the messages to tasks of up to
BATCH phones each; a phone whose push service failed gets a task of its own, retried a few times. On the embedded
default (CELERY_TASK_ALWAYS_EAGER) they run at once, after the floor's
commit: one try per phone (a retry would only hold the request up), a failure logged, never the floor's action's."""

from __future__ import annotations

import logging

from celery import shared_task

from notify.models import PushSubscription
from notify.selectors.notices import ONCE, notices, subscriptions_by_entry
from notify.selectors.words import message
from notify.services import push, subscriptions
from tournament.models import AuditEvent, Entry

log = logging.getLogger("notify")

RETRIES = 3
BATCH = 100  # messages one task sends: a draw's 5,000 phones in 50 tasks, not 5,000 (bench/notifications.py)


@shared_task(name="notify.event", ignore_result=True)
def tell_of_event(event_id: int) -> int:
    """The messages of one audit event, sent by tasks of up to BATCH phones each; returns how many were scheduled. Run
    twice, it sends the same messages again under the same tags (the phone shows each once) and never a once-only one
    twice."""
    event = AuditEvent.objects.filter(pk=event_id).select_related("tournament").first()
    if event is None or event.tournament is None:
        return 0
    t = event.tournament
    found = notices(event_id)
    phones = subscriptions_by_entry(t, [notice.entry for notice in found])
    batch: list[tuple[int, dict]] = []
    scheduled = 0
    for notice in found:
        if notice.kind in ONCE:
            entry = Entry.objects.get(tournament=t, number=notice.entry)
            if not push.claim_once(entry, actor=None, kind=notice.kind):
                continue
        for row in phones.get(notice.entry, []):
            batch.append((row.pk, message(notice.as_dict(), row, event_id=event_id, tournament_name=t.name)))
    for start in range(0, len(batch), BATCH):
        part = batch[start : start + BATCH]
        try:
            send_batch.delay(part)
            scheduled += len(part)
        except Exception as exc:  # eager (the embedded default): sent once, at once; the others still go
            log.warning("pushes not sent: %s", type(exc).__name__)
    return scheduled


@shared_task(name="notify.send_batch", ignore_result=True)
def send_batch(messages: list) -> int:
    """Up to BATCH messages, one phone each, sent one after another in this task; a phone whose push service failed
    gets its own task, tried again later (send_push's retries). Returns how many went."""
    rows = PushSubscription.objects.in_bulk([pk for pk, _message in messages])
    sent = []
    for pk, body in messages:
        row = rows.get(pk)
        if row is None:
            continue  # stopped meanwhile
        try:
            if push.send(row, actor=None, message=body, record=False) == "sent":
                sent.append(pk)
        except push.PushFailed:
            if not send_push.app.conf.task_always_eager:  # eager (no worker): the failure is logged (push.send did)
                send_push.apply_async((pk, body), countdown=30)
    subscriptions.sent_many(sent, actor=None)
    return len(sent)


@shared_task(bind=True, name="notify.send", ignore_result=True, max_retries=RETRIES)
def send_push(self, subscription_id: int, message: dict) -> str:
    """One message to one phone; a failure of its push service is tried again (after 30 s, 2 min, 8 min)."""
    row = PushSubscription.objects.filter(pk=subscription_id).first()
    if row is None:
        return "gone"  # stopped meanwhile
    try:
        return push.send(row, actor=None, message=message)
    except push.PushFailed as exc:
        raise self.retry(exc=exc, countdown=30 * 4**self.request.retries)


def schedule(event_id: int) -> None:
    """After the floor's commit: the event's task queued (or, eager, run). Never raises into the floor's request."""
    try:
        if PushSubscription.objects.filter(tournament__events__pk=event_id).exists():  # no phone in the tournament: no task
            tell_of_event.delay(event_id)
    except Exception:
        log.exception("notifications of event %s failed", event_id)
