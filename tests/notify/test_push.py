"""A message reaches a phone as a push service receives it: VAPID-signed by the server, encrypted to the browser's keys
(the stand-in decrypts it), with the player's own facts and nobody else's; a subscription the push service says is
gone (410) is dropped, one whose service fails (500) is kept and tried again."""

from __future__ import annotations

import pytest

from notify.models import PushSubscription
from notify.tasks import send_batch, send_push
from tables.models import Seat
from tables.services import draws
from tests.helpers import open_tables, register
from tests.notify.conftest import opt_in
from tournament.models import AuditEvent

pytestmark = pytest.mark.django_db


def drawn(director, cashier, tournament, service, django_capture_on_commit_callbacks, statuses=None):
    open_tables(director, tournament, [1, 2])
    entries = register(cashier, tournament, 12)
    mine, other = entries[3], entries[4]
    browser = opt_in(service, tournament, mine.number)
    second = opt_in(service, tournament, other.number, language="cs")
    for endpoint, status in (statuses or {}).items():
        service.statuses[{"mine": browser, "other": second}[endpoint].endpoint] = status
    with django_capture_on_commit_callbacks(execute=True):
        draws.draw_start(tournament, actor=director)
    return mine, other, browser, second


def test_each_phone_decrypts_its_own_seat_and_no_one_elses(director, cashier, tournament, push_service, django_capture_on_commit_callbacks):
    mine, other, browser, second = drawn(director, cashier, tournament, push_service, django_capture_on_commit_callbacks)
    seat = Seat.objects.select_related("table").get(entry=mine, ended_at__isnull=True)
    theirs = Seat.objects.select_related("table").get(entry=other, ended_at__isnull=True)
    [message] = push_service.received[browser.endpoint]
    assert message["body"] == f"Your seat: table {seat.table.number}, seat {seat.seat}."
    assert message["title"] == tournament.name and message["url"] == f"/s/{tournament.pk}/{mine.number}/"
    assert message["stop"] == {"url": f"/api/public/tournaments/{tournament.pk}/seats/{mine.number}/push/stop/", "label": "Stop"}
    assert mine.player.display_name not in str(message) and other.player.display_name not in str(message)
    assert f"table {theirs.table.number}, seat {theirs.seat}" not in message["body"] or (seat.table_id, seat.seat) == (
        theirs.table_id,
        theirs.seat,
    )
    [czech] = push_service.received[second.endpoint]  # in the language his page had when he opted in
    assert (
        czech["lang"] == "cs" and str(theirs.seat) in czech["body"] and czech["stop"]["url"].endswith(f"/seats/{other.number}/push/stop/")
    )
    assert push_service.posts == 2  # the ten players without a phone are told nothing
    assert PushSubscription.objects.get(endpoint=browser.endpoint).last_sent_at is not None


def test_a_subscription_the_push_service_says_is_gone_is_dropped_and_audited_without_its_endpoint(
    director, cashier, tournament, push_service, django_capture_on_commit_callbacks
):
    mine, _other, browser, second = drawn(
        director, cashier, tournament, push_service, django_capture_on_commit_callbacks, statuses={"mine": 410}
    )
    assert not PushSubscription.objects.filter(endpoint=browser.endpoint).exists()
    assert PushSubscription.objects.filter(endpoint=second.endpoint).exists()
    event = AuditEvent.objects.get(tournament=tournament, type="notify.unsubscribed")
    assert event.payload["entry"] == mine.number and event.payload["via"] == "push_service" and event.payload["status"] == 410
    assert browser.endpoint not in str(event.payload) and len(event.payload["endpoint"]) == 12


def test_a_push_service_that_fails_keeps_the_subscription_and_is_tried_again(
    director, cashier, tournament, push_service, django_capture_on_commit_callbacks, caplog, monkeypatch
):
    mine, _other, browser, second = drawn(
        director, cashier, tournament, push_service, django_capture_on_commit_callbacks, statuses={"mine": 500}
    )
    row = PushSubscription.objects.get(endpoint=browser.endpoint)
    assert row.failures == 1 and row.last_sent_at is None  # eager, the embedded default: one try, logged
    assert push_service.posts == 2 and push_service.received[second.endpoint]  # the other phone is told all the same
    assert "failed: 500" in caplog.text and browser.endpoint not in caplog.text
    assert Seat.objects.filter(tournament=tournament, ended_at__isnull=True).count() == 12  # the floor's draw stands
    # The worker's way: the task tries again, three times, then gives up; the subscription stays.
    monkeypatch.setitem(send_push.app.conf, "task_eager_propagates", False)  # as a worker: a retry is a retry
    result = send_push.apply(args=(row.pk, {"title": "t", "body": "b", "kind": "draw"}), throw=False)
    assert result.failed() and push_service.posts == 2 + 4
    assert PushSubscription.objects.get(pk=row.pk).failures == 5
    push_service.statuses.clear()
    assert send_push.apply(args=(row.pk, {"title": "t", "body": "b", "kind": "draw"})).get() == "sent"
    assert PushSubscription.objects.get(pk=row.pk).failures == 0


def test_a_draws_messages_go_in_batches_and_a_failed_phone_gets_its_own_retried_task(
    director, cashier, tournament, push_service, django_capture_on_commit_callbacks, monkeypatch
):
    """A worker's way (not eager): the draw's messages travel in tasks of up to BATCH phones; one whose push service
    fails is handed to send_push with a delay (its retries), the others are sent all the same."""
    mine, _other, browser, second = drawn(
        director, cashier, tournament, push_service, django_capture_on_commit_callbacks, statuses={"mine": 500}
    )
    rows = {r.endpoint: r.pk for r in PushSubscription.objects.all()}
    retried = []
    monkeypatch.setitem(send_batch.app.conf, "task_always_eager", False)
    monkeypatch.setattr(send_push, "apply_async", lambda args, countdown: retried.append((args, countdown)))
    body = {"title": "t", "body": "b", "kind": "draw"}
    PushSubscription.objects.update(last_sent_at=None)
    assert send_batch.run([(rows[browser.endpoint], body), (rows[second.endpoint], body), (999999, body)]) == 1
    sent, failed = PushSubscription.objects.get(pk=rows[second.endpoint]), PushSubscription.objects.get(pk=rows[browser.endpoint])
    assert sent.last_sent_at is not None and (failed.last_sent_at, failed.failures) == (None, 2)  # the batch's one write
    assert retried == [((rows[browser.endpoint], body), 30)] and len(push_service.received[second.endpoint]) == 2


def test_nothing_is_sent_inside_the_floors_transaction(director, cashier, tournament, push_service, django_capture_on_commit_callbacks):
    open_tables(director, tournament, [1])
    [entry] = register(cashier, tournament, 1)
    opt_in(push_service, tournament, entry.number)
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        draws.draw_start(tournament, actor=director)
    assert push_service.posts == 0 and callbacks  # queued for after the commit only
    for callback in callbacks:
        callback()
    assert push_service.posts == 1
