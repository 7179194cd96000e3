"""The end of a day through the JSON API: POST /api/tournaments/<id>/clock/day-end/ and
.../clock/restart/ — the director only, the one error shape for bad input with nothing changed, one effect
per Idempotency-Key, and the clock's answer carrying day_end_after_level and resume_at."""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from clock.models import ClockState
from clock.services import clock as clock_services
from tests.clock.fake_time import T0
from tests.helpers import client_for
from tournament.models import AuditEvent, Tournament

ROLES = ["director", "floor", "cashier", "dealer"]


def day_end(client, t, body, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/tournaments/{t.pk}/clock/day-end/", body, format="json", **headers)


def restart(client, t, body, key=None):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    return client.post(f"/api/tournaments/{t.pk}/clock/restart/", body, format="json", **headers)


def frozen(t: Tournament) -> tuple:
    return (Tournament.objects.get(pk=t.pk).event_seq, ClockState.objects.filter(tournament=t).values().first(), AuditEvent.objects.count())


@pytest.fixture
def running(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    return tournament


@pytest.mark.parametrize("role", ROLES)
def test_only_the_director_sets_the_day(request, running, role):
    client = client_for(request.getfixturevalue(role))
    before = frozen(running)
    answers = [
        day_end(client, running, {"level": 2}),
        restart(client, running, {"start_at": (T0 + timedelta(hours=18)).isoformat(), "level": 2, "seconds_left": 600}),
    ]
    if role == "director":
        assert [a.status_code for a in answers] == [200, 200], [a.content for a in answers]
    else:
        assert [a.status_code for a in answers] == [403, 403]
        assert all(a.json()["error"] == "permission_denied" for a in answers)
        assert frozen(running) == before


def test_anonymous_gets_401(running):
    assert day_end(APIClient(), running, {"level": 2}).status_code == 401
    assert restart(APIClient(), running, {"level": 2}).status_code == 401


def test_day_end_set_and_cleared(director, running):
    client = client_for(director)
    answer = day_end(client, running, {"level": 2}, key="day-1")
    assert answer.status_code == 200
    assert (answer.json()["day_end_after_level"], answer.json()["resume_at"], answer.json()["day_ended_level"]) == (2, None, None)
    events = AuditEvent.objects.count()
    again = day_end(client, running, {"level": 2}, key="day-1")  # a retried press: the first answer, no second event
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true" and AuditEvent.objects.count() == events
    assert day_end(client, running, {"level": None}).json()["day_end_after_level"] is None
    assert client.get(f"/api/tournaments/{running.pk}/clock/").json()["day_end_after_level"] is None


def test_restart_scheduled(director, running):
    client = client_for(director)
    answer = restart(client, running, {"start_at": "2026-11-30T12:00:00+01:00", "level": 3, "seconds_left": 754})
    assert answer.status_code == 200, answer.content
    data = answer.json()
    assert data["resume_at"] == "2026-11-30T12:00:00+01:00"  # in the venue's zone (Europe/Bratislava)
    assert data["status"] == "paused" and data["current"]["remaining"] == 754
    assert data["rows"][data["current"]["index"]]["number"] == 3
    clock = ClockState.objects.get(tournament=running)
    assert clock.resume_at == T0 + timedelta(hours=17)


BAD_DAY_END = {
    "no level": ({}, "invalid", 400),
    "level zero": ({"level": 0}, "invalid", 400),
    "not a number": ({"level": "two"}, "invalid", 400),
    "a level that does not exist": ({"level": 9}, "level_range", 400),
    "a level already over": ({"level": 1}, "level_over", 409),
}


@pytest.mark.parametrize("case", BAD_DAY_END, ids=list(BAD_DAY_END))
def test_day_end_bad_input_is_refused_and_changes_nothing(director, running, fake_now, case):
    clock_services.tick(fake_now.at(1200))  # level 2
    body, code, status = BAD_DAY_END[case]
    before = frozen(running)
    answer = day_end(client_for(director), running, body)
    assert answer.status_code == status, answer.content
    assert answer.json()["error"] == code and answer.json()["detail"]
    assert frozen(running) == before


GOOD = {"start_at": "2026-11-30T12:00:00+01:00", "level": 2, "seconds_left": 600}
BAD_RESTART = {
    "no time zone": ({"start_at": "2026-11-30T12:00:00"}, "invalid", "start_at"),
    "not a time": ({"start_at": "tomorrow"}, "invalid", "start_at"),
    "in the past": ({"start_at": "2026-11-29T10:00:00+01:00"}, "start_at_past", None),
    "an unknown level": ({"level": 9}, "level_range", None),
    "level zero": ({"level": 0}, "invalid", "level"),
    "no time left": ({"seconds_left": 0}, "invalid", "seconds_left"),
    "more than the level": ({"seconds_left": 1201}, "seconds_left", None),
    "time left as text": ({"seconds_left": "10:00"}, "invalid", "seconds_left"),
}


@pytest.mark.parametrize("case", BAD_RESTART, ids=list(BAD_RESTART))
def test_restart_bad_input_is_refused_and_changes_nothing(director, running, case):
    change, code, field = BAD_RESTART[case]
    before = frozen(running)
    answer = restart(client_for(director), running, {**GOOD, **change})
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["error"] == code and body["detail"]
    if field:
        assert field in body["fields"]
    assert frozen(running) == before


def test_the_clock_answer_documents_the_day_fields():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    clock = schema["components"]["schemas"]["Clock"]["properties"]
    assert {"day_end_after_level", "day_ended_level", "resume_at"} <= set(clock)
    assert "/api/tournaments/{id}/clock/day-end/" in schema["paths"] and "/api/tournaments/{id}/clock/restart/" in schema["paths"]
