"""The notifications' tests: the server's VAPID pair, the push service stand-in mounted on the sender's session, and a
phone's opt-in through the public API."""

from __future__ import annotations

import pytest
from celery import current_app
from rest_framework.test import APIClient

from notify.rules.keys import make_pair
from notify.services import push
from tests.notify.standin import HOST, ORIGIN, Browser, PushServiceStandIn

PRIVATE, PUBLIC = make_pair()
SUBJECT = "mailto:floor@example.test"


@pytest.fixture
def push_service(settings, monkeypatch):
    settings.WEBPUSH_VAPID_PRIVATE_KEY, settings.WEBPUSH_VAPID_PUBLIC_KEY, settings.WEBPUSH_VAPID_SUBJECT = PRIVATE, PUBLIC, SUBJECT
    settings.WEBPUSH_PUSH_HOSTS = [HOST]
    settings.WEBPUSH_SUBSCRIBE_RATE = "1000/minute"
    # The tasks run at once, as on the embedded default, with Redis as the broker too (CELERY_TASK_ALWAYS_EAGER off).
    monkeypatch.setitem(current_app.conf, "task_always_eager", True)
    monkeypatch.setitem(current_app.conf, "task_eager_propagates", True)
    service = PushServiceStandIn(PUBLIC, SUBJECT, [])
    push.SESSION.mount(ORIGIN, service)
    yield service
    push.SESSION.adapters.pop(ORIGIN, None)


def opt_in(service: PushServiceStandIn, t, number: int, *, language: str = "en-gb", waiting: bool = False) -> Browser:
    """A phone opts in on the seat page (or, `waiting`, on the waiting board for alternate `number`)."""
    browser = Browser()
    service.add(browser)
    path = f"/api/public/tournaments/{t.pk}/{'waiting' if waiting else 'seats'}/{number}/push/"
    answer = APIClient().post(path, {**browser.subscription(), "language": language}, format="json")
    assert answer.status_code == 201, answer.content
    return browser
