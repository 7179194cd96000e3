"""The JSON API of events with flights (web/flights/api.py): the director makes the event, adds flights, names Day 2,
sets the policy, late registration and a flight's end, and carries the bags; the floor reads; the others are refused.
Bad input is a 4xx with a message and changes nothing; a retried press with its Idempotency-Key acts once."""

from __future__ import annotations

from datetime import date

import pytest
from rest_framework.test import APIClient

from flights.models import Event, Flight
from tests.flights.test_flights import STACK, event_with, new_tournament, play_and_bag, two_flights_of_ten
from tests.helpers import client_for
from tournament.models import AuditEvent
from tournament.services import registration as desk

E = "/api/events/"


def test_the_director_builds_an_event_the_floor_reads_it(director, floor, cashier, dealer, template):
    made = client_for(director).post(E, {"name": "Spring Main Event", "policy": "first"}, format="json", HTTP_IDEMPOTENCY_KEY="event-1")
    assert made.status_code == 201, made.content
    body = made.json()
    assert (body["name"], body["policy"], body["flights"], body["day2"]) == ("Spring Main Event", "first", [], None)
    again = client_for(director).post(E, {"name": "Spring Main Event", "policy": "first"}, format="json", HTTP_IDEMPOTENCY_KEY="event-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true" and Event.objects.count() == 1
    event = body["id"]
    a = new_tournament(director, template, "Day 1A")
    day2 = new_tournament(director, template, "Day 2", day=3)
    added = client_for(director).post(f"{E}{event}/flights/", {"tournament": a.pk, "label": "1a"}, format="json")
    assert added.status_code == 201, added.content
    assert [f["label"] for f in added.json()["flights"]] == ["1A"]
    set_day2 = client_for(director).post(f"{E}{event}/day2/", {"tournament": day2.pk}, format="json")
    assert set_day2.status_code == 200 and set_day2.json()["day2"]["tournament"] == day2.pk
    settings = client_for(director).patch(
        f"{E}{event}/settings/", {"policy": "best", "day2_late_registration": True, "day2_late_stack": 40_000}, format="json"
    )
    assert settings.status_code == 200, settings.content
    assert (settings.json()["policy"], settings.json()["day2_late_stack"]) == ("best", 40_000)
    day2.refresh_from_db()
    assert day2.starting_stack == 40_000
    end = client_for(director).post(f"{E}{event}/flights/{a.pk}/end/", {"after_level": 4, "share_percent": 15}, format="json")
    assert end.status_code == 200, end.content
    assert (end.json()["flights"][0]["end_after_level"], end.json()["flights"][0]["end_share_percent"]) == (4, 15)
    for user in (floor, director):
        assert client_for(user).get(f"{E}{event}/").status_code == 200
        assert client_for(user).get(E).json()[0]["flights"] == ["1A"]
        assert client_for(user).get(f"{E}{event}/forfeited/").json() == []
    for user in (cashier, dealer):
        assert client_for(user).get(f"{E}{event}/").status_code == 403
    for user in (floor, cashier, dealer):
        assert client_for(user).post(f"{E}{event}/carry/", {}, format="json").status_code == 403
        assert client_for(user).post(E, {"name": "Mine"}, format="json").status_code == 403
    assert client_for().get(E).status_code == 401


@pytest.mark.parametrize(
    "path, body, code, status",
    [
        ("", {"name": ""}, "name_missing", 400),
        ("", {"name": "X", "policy": "most"}, "invalid", 400),
        ("{event}/flights/", {"tournament": 10**12, "label": "1C"}, "invalid", 400),
        ("{event}/flights/", {"tournament": "{a}", "label": "1Z"}, "already_in_event", 409),
        ("{event}/day2/", {"tournament": "{other}"}, "different_buy_in", 400),
        ("{event}/flights/{a}/end/", {"share_percent": 0}, "share", 400),
        ("{event}/carry/", {}, "no_day2", 409),
    ],
)
def test_bad_input_is_refused_and_changes_nothing(director, template, path, body, code, status):
    event, (a, _b) = event_with(director, template, day2=False)
    other = new_tournament(director, template, "Other", buy_in=1)
    ids = {"event": event.pk, "a": a.pk, "other": other.pk}
    body = {k: int(v.format(**ids)) if isinstance(v, str) and v.startswith("{") else v for k, v in body.items()}
    before = (
        AuditEvent.objects.count(),
        list(Flight.objects.values_list("pk", "end_share_percent")),
        list(Event.objects.values_list("pk", "day2_id", "policy")),
    )
    answer = client_for(director).post(E + path.format(**ids), body, format="json")
    assert answer.status_code == status, answer.content
    assert answer.json()["error"] == code and answer.json()["detail"]
    assert before == (
        AuditEvent.objects.count(),
        list(Flight.objects.values_list("pk", "end_share_percent")),
        list(Event.objects.values_list("pk", "day2_id", "policy")),
    )


def test_the_carry_through_the_api_acts_once(director, cashier, floor, template):
    event, (a, b) = event_with(director, template)
    people = [desk.create_player(actor=cashier, first_name=f"A{i}", last_name="Api", date_of_birth=date(1990, 1, 1)) for i in range(4)]
    play_and_bag(director, cashier, floor, a, people[:2], {p.pk: STACK for p in people[:2]})
    play_and_bag(director, cashier, floor, b, people[1:4], {p.pk: STACK + 1000 * i for i, p in enumerate(people)})
    first = client_for(director).post(f"{E}{event.pk}/carry/", {}, format="json", HTTP_IDEMPOTENCY_KEY="carry-1")
    assert first.status_code == 200, first.content
    assert (first.json()["carried"], first.json()["forfeited"]) == (4, 1)
    again = client_for(director).post(f"{E}{event.pk}/carry/", {}, format="json", HTTP_IDEMPOTENCY_KEY="carry-1")
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    twice = client_for(director).post(f"{E}{event.pk}/carry/", {}, format="json", HTTP_IDEMPOTENCY_KEY="carry-2")
    assert twice.status_code == 409 and twice.json()["error"] == "already_carried"
    forfeited = client_for(floor).get(f"{E}{event.pk}/forfeited/").json()
    assert [(r["flight"], r["name"]) for r in forfeited] == [("1A", people[1].display_name)]
    state = client_for(floor).get(f"{E}{event.pk}/").json()
    assert state["carried"] and len(state["carried_bags"]) == 4 and state["day2"]["players_left"] == 4


def test_a_flights_share_answers_with_the_places_warning_and_a_share_raised_enough_clears_it(director, cashier, template):
    event, fa, fb = two_flights_of_ten(director, cashier, template)
    for flight in (fa, fb):  # 5 % of 10 entries: 1 player each goes on, while Day 2 pays 3 places
        answer = client_for(director).post(f"{E}{event.pk}/flights/{flight.tournament_id}/end/", {"share_percent": 5}, format="json")
        assert answer.status_code == 200, answer.content
    warning = answer.json()["places_warning"]
    assert (warning["places_paid"], warning["players_sent_on"]) == (3, 2)
    assert "Places paid: 3; players sent on: 2; places unpaid unless more players reach Day 2: 3." in warning["message"]
    assert client_for(director).get(f"{E}{event.pk}/").json()["places_warning"] == warning
    raised = client_for(director).post(f"{E}{event.pk}/flights/{fb.tournament_id}/end/", {"share_percent": 20}, format="json")
    assert raised.status_code == 200 and raised.json()["places_warning"] is None
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert schema["components"]["schemas"]["FlightEvent"]["properties"]["places_warning"]["nullable"] is True
