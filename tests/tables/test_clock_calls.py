"""Calling the clock on a player (club 11, TDA 25; tables/services/clock_calls.py) through the JSON API: the table's tablet or
the floor calls it for a seat, with the house's time (at most 60 s, the last 10 counted down); he acts in time, or
time is up and the hand is dead; a call made in error is cancelled; the next hand ends it. One open call per table;
bad input is a 4xx with a message and changes nothing; every start and end is audited."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client

from tables.models import ClockCall, HouseRules, Table
from tables.services import clock_calls, dealer_links, hands, house_rules
from tests.helpers import client_for, url
from tests.tables.test_dealer_links import as_link
from tests.tables.test_penalty_api import at_table
from tournament.models import AuditEvent


def seat_of(t, number: int, i: int = 0) -> int:
    return at_table(t, number)[i].seats.get(ended_at__isnull=True).seat


def call(client, t, number: int, seat):
    return client.post(url(t, f"tables/{number}/clock-call/"), {"seat": seat}, format="json")


def end(client, t, number: int, outcome: str):
    return client.post(url(t, f"tables/{number}/clock-call/end/"), {"outcome": outcome}, format="json")


def time_passes(seconds: int) -> None:
    """The open calls' time moves on (their ends_at moved back), as the clock would have run."""
    for row in ClockCall.objects.filter(ended_at__isnull=True):
        row.started_at -= timedelta(seconds=seconds)
        row.ends_at -= timedelta(seconds=seconds)
        row.save(update_fields=["started_at", "ends_at"])


@pytest.mark.django_db
def test_the_tablet_calls_the_clock_and_he_acts_in_time(t, floor):
    _link, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=t, number=1), actor=floor)
    tablet = as_link(secret)
    seat = seat_of(t, 1)
    answer = call(tablet, t, 1, seat)
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert (body["seat"], body["seconds"], body["countdown"], body["time_up"]) == (seat, 60, 10, False)
    assert body["name"] == at_table(t, 1)[0].player.display_name
    assert tablet.get(url(t, "tables/1/clock-call/")).json()["call"] == body["call"]
    browser = Client()
    browser.force_login(floor)
    state = browser.get(f"/api/tournaments/{t.pk}/tables/1/state/").json()
    assert state["table"]["clock_call"]["seat"] == seat  # the tablet's state carries it
    again = call(client_for(floor), t, 1, seat_of(t, 1, 1))
    assert again.status_code == 409 and again.json()["error"] == "already_called"
    assert end(tablet, t, 1, "dead").status_code == 409  # he still has time
    acted = end(tablet, t, 1, "acted")
    assert acted.status_code == 200 and acted.json()["outcome"] == "acted"
    assert tablet.get(url(t, "tables/1/clock-call/")).status_code == 204
    types = list(AuditEvent.objects.filter(tournament=t, type__startswith="clock_call.").values_list("type", flat=True))
    assert types == ["clock_call.started", "clock_call.ended"]


@pytest.mark.django_db
def test_time_up_the_hand_is_dead_and_the_house_sets_the_time(t, floor, director):
    house_rules.set_house_rules(t, actor=director, data={"clock_call_seconds": 30})
    floor_api = client_for(floor)
    assert call(floor_api, t, 2, seat_of(t, 2)).json()["seconds"] == 30
    time_passes(31)
    assert floor_api.get(url(t, "tables/2/clock-call/")).json()["time_up"] is True
    late = end(floor_api, t, 2, "acted")
    assert late.status_code == 409 and late.json()["error"] == "time_up"
    dead = end(floor_api, t, 2, "dead")
    assert dead.status_code == 200 and dead.json()["outcome"] == "dead"
    for bad in (5, 61):
        refused = client_for(director).patch(url(t, "house-rules/"), {"clock_call_seconds": bad}, format="json")
        assert refused.status_code == 400
    assert HouseRules.objects.get(tournament=t).clock_call_seconds == 30


@pytest.mark.django_db
def test_the_next_hand_ends_the_call_and_a_call_in_error_is_cancelled(t, floor):
    table = Table.objects.get(tournament=t, number=1)
    clock_calls.call_clock(table, actor=floor, seat=seat_of(t, 1))
    hand = hands.start_hand(table, actor=floor)
    ended = ClockCall.objects.get()
    assert ended.outcome == "new_hand" and ended.ended_at is not None
    assert (
        AuditEvent.objects.get(tournament=t, type="table.hand_started", payload__hand=hand.number).payload["clock_call_ended"]
        == ended.number
    )
    clock_calls.call_clock(table, actor=floor, seat=seat_of(t, 1, 2))
    cancelled = end(client_for(floor), t, 1, "cancelled")
    assert cancelled.status_code == 200 and cancelled.json()["outcome"] == "cancelled"
    assert ClockCall.objects.filter(ended_at__isnull=True).count() == 0


@pytest.mark.django_db
@pytest.mark.parametrize(
    "body, status, code",
    [({"seat": 0}, 400, "invalid"), ({"seat": "x"}, 400, "invalid"), ({}, 400, "invalid"), ("empty", 409, "empty_seat")],
)
def test_a_bad_call_is_refused_and_changes_nothing(t, floor, body, status, code):
    if body == "empty":
        body = {"seat": next(n for n in range(1, 10) if n not in {s.seats.get(ended_at__isnull=True).seat for s in at_table(t, 1)})}
    before = AuditEvent.objects.filter(tournament=t).count()
    answer = client_for(floor).post(url(t, "tables/1/clock-call/"), body, format="json")
    assert answer.status_code == status, answer.content
    assert answer.json()["error"] == code and answer.json()["detail"]
    assert ClockCall.objects.count() == 0 and AuditEvent.objects.filter(tournament=t).count() == before
    assert end(client_for(floor), t, 1, "acted").json()["error"] == "no_call"
    assert end(client_for(floor), t, 1, "new_hand").status_code == 400  # not an ending the floor presses


@pytest.mark.django_db
def test_only_the_table_and_the_floor_call_the_clock(t, floor, cashier, dealer):
    _link, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=t, number=1), actor=floor)
    assert call(as_link(secret), t, 2, seat_of(t, 2)).status_code == 403  # another table's tablet
    assert call(client_for(cashier), t, 1, seat_of(t, 1)).status_code == 403
    assert call(client_for(), t, 1, seat_of(t, 1)).status_code in (401, 403)
    assert ClockCall.objects.count() == 0
