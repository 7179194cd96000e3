"""Sending one message to one phone (pywebpush, VAPID-signed, aes128gcm-encrypted to the subscription's keys), run by the
Celery worker (notify/tasks.py), never in the floor's request. A subscription the push service says is gone (404, 410)
is dropped; any other failure raises PushFailed, which the task retries a few times. The log names a subscription by
its push service and a short hash, never by its endpoint (the endpoint's path lets anyone push to that phone)."""

from __future__ import annotations

import json
import logging

import requests
from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from pywebpush import WebPushException, webpush

from core.actor import Actor
from notify.models import PushSubscription, Told
from notify.rules.keys import origin, short_hash
from notify.services import subscriptions
from tournament.models import Entry

log = logging.getLogger("notify")

GONE = (404, 410)
TTL = 4 * 3600  # seconds a push service keeps a message for a phone that is off: a seat is news for a few hours
SESSION = requests.Session()  # one connection pool per worker process; the tests mount their push service stand-in on it


class PushFailed(Exception):
    """The push service did not take the message (a 5xx, a 429, no answer): worth trying again."""


def described(row: PushSubscription) -> str:
    return f"{origin(row.endpoint)} #{short_hash(row.endpoint)}"


def send(subscription: PushSubscription, *, actor: Actor, message: dict, record: bool = True) -> str:
    """Send `message` (JSON) to the phone: "sent", "dropped" (gone: the row deleted), "off" (no VAPID key: nothing
    sent); PushFailed for a failure worth a retry. `record` False: a message sent is not written on its row here (a
    batch writes its sent ones in one statement: subscriptions.sent_many); a failure always is."""
    if not settings.WEBPUSH_VAPID_PRIVATE_KEY:
        log.warning("push not sent to %s: no VAPID key (docs/notifications.md)", described(subscription))
        return "off"
    info = {"endpoint": subscription.endpoint, "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth}}
    try:
        webpush(
            info,
            data=json.dumps(message, ensure_ascii=False),
            vapid_private_key=settings.WEBPUSH_VAPID_PRIVATE_KEY,
            vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},
            ttl=TTL,
            timeout=settings.WEBPUSH_TIMEOUT,
            headers={"Urgency": "high"},
            requests_session=SESSION,
        )
    except WebPushException as exc:
        status = exc.response.status_code if exc.response is not None else None
        if status in GONE:
            subscriptions.drop(subscription, actor=actor, status=status)
            log.info("push subscription %s is gone (%s): dropped", described(subscription), status)
            return "dropped"
        subscriptions.sent(subscription, actor=actor, ok=False)
        log.warning("push to %s failed: %s", described(subscription), status or "no answer")
        raise PushFailed(f"push service answered {status}") from None
    except (requests.RequestException, OSError) as exc:
        subscriptions.sent(subscription, actor=actor, ok=False)
        log.warning("push to %s failed: %s", described(subscription), type(exc).__name__)
        raise PushFailed(type(exc).__name__) from None
    if record:
        subscriptions.sent(subscription, actor=actor, ok=True)
    log.info("push sent to %s: %s", described(subscription), message.get("kind", ""))
    return "sent"


def claim_once(entry: Entry, *, actor: Actor, kind: str) -> bool:
    """Whether this entry is yet to be told this once-only kind (in the money, prize ready); marks it told. The mark is
    made before the message goes, so two runs of a task never both say it."""
    try:
        with transaction.atomic():
            Told.objects.create(entry=entry, kind=kind, at=timezone.now())
    except IntegrityError:
        return False
    return True
