"""One press, one hand: a repeated hand start from the same table within HAND_START_REPEAT_SECONDS is the
same hand (tables/services/hands.py), for the dealer tablet, the floor and a shuffler that sends no Idempotency-Key."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tables.models import HandStart, Table
from tables.services import handforhand, hands
from tables.services import setup as table_setup
from tests.concurrency import at_once
from tests.tables.test_moves import start
from tournament.models import AuditEvent

SHUFFLER_URL = "/api/shuffler/hand-started/"


@pytest.fixture
def table(settings, director, cashier, tournament) -> Table:
    settings.HAND_START_REPEAT_SECONDS = 5
    start(director, cashier, tournament, 6, table_numbers=(1,))
    return Table.objects.get(tournament=tournament, number=1)


def state(table: Table) -> tuple:
    """What a repeated press must leave alone: the table's hand and positions, its hands, the audit log."""
    t = Table.objects.get(pk=table.pk)
    return (
        t.hand_number,
        t.hand_started_at,
        t.button_seat,
        t.small_blind_seat,
        t.big_blind_seat,
        t.hand_in_progress,
        HandStart.objects.filter(table=table).count(),
        AuditEvent.objects.count(),
    )


def test_a_second_press_within_the_window_is_the_same_hand(floor, table, fake_now):
    first = hands.start_hand(table, actor=floor)
    before = state(table)
    fake_now.advance(4.9)
    again = hands.start_hand(table, actor=floor)
    assert again.pk == first.pk and state(table) == before
    assert before[0] == 1 and before[6] == 1


def test_after_the_window_the_next_press_is_the_next_hand(floor, table, fake_now):
    first = hands.start_hand(table, actor=floor)
    button = Table.objects.get(pk=table.pk).button_seat
    fake_now.advance(5)
    second = hands.start_hand(table, actor=floor)
    assert second.number == first.number + 1 and Table.objects.get(pk=table.pk).button_seat != button


def test_a_hand_reported_done_is_not_repeated(floor, table, fake_now):
    first = hands.start_hand(table, actor=floor)
    handforhand.hand_done(table, actor=floor)
    fake_now.advance(1)
    assert hands.start_hand(table, actor=floor).number == first.number + 1, "a new hand right after the last one ended"


def test_an_undone_start_is_not_the_hand_pressed_again(floor, table, fake_now):
    first = hands.start_hand(table, actor=floor)
    hands.undo_hand_start(table, actor=floor)
    fake_now.advance(1)
    again = hands.start_hand(table, actor=floor)
    assert again.pk != first.pk and HandStart.objects.filter(undone_at__isnull=True).get() == again


def test_a_shuffler_that_signals_twice_starts_one_hand(director, table, fake_now):
    token = table_setup.renew_shuffler_token(table, actor=director)
    shuffler = APIClient()
    shuffler.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    first = shuffler.post(SHUFFLER_URL)
    before = state(table)
    fake_now.advance(2)
    again = shuffler.post(SHUFFLER_URL)
    assert first.status_code == again.status_code == 201 and again.json() == first.json()
    assert state(table) == before


def test_a_shuffler_key_replays_even_after_the_window(settings, director, table, fake_now):
    token = table_setup.renew_shuffler_token(table, actor=director)
    shuffler = APIClient()
    shuffler.credentials(HTTP_AUTHORIZATION=f"Table {token}")
    first = shuffler.post(SHUFFLER_URL, HTTP_IDEMPOTENCY_KEY="green-1")
    before = state(table)
    fake_now.advance(60)
    again = shuffler.post(SHUFFLER_URL, HTTP_IDEMPOTENCY_KEY="green-1")
    assert again.status_code == 201 and again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert state(table) == before
    assert shuffler.post(SHUFFLER_URL, HTTP_IDEMPOTENCY_KEY="green-2").json()["hand"] == first.json()["hand"] + 1


@pytest.mark.django_db(transaction=True)
def test_twenty_starts_at_once_make_one_hand(floor, table):
    before = Table.objects.get(pk=table.pk).button_seat
    outcomes = at_once([lambda: hands.start_hand(Table.objects.get(pk=table.pk), actor=floor) for _ in range(20)])
    assert all(isinstance(o, HandStart) for o in outcomes), [o for o in outcomes if not isinstance(o, HandStart)]
    assert {o.pk for o in outcomes} == {HandStart.objects.get(table=table).pk}
    assert AuditEvent.objects.filter(type="table.hand_started").count() == 1
    after = Table.objects.get(pk=table.pk)
    assert after.hand_number == 1 and (before is None or after.button_seat is not None)
