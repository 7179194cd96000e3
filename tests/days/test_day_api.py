"""The end of a day through the JSON API (web/days/api.py): a table's bags on its tablet (a dealer link at its own
table, the floor), one player's bag by the floor, the day's state and report for the floor, the close for the
director. Bad input is a 4xx with a message and writes nothing; a retried press with its Idempotency-Key acts once."""

from __future__ import annotations

import pytest

from days.models import Bag, Day
from tables.models import Table
from tables.services import dealer_links
from tests.days.test_bagging import STACK, even
from tests.helpers import client_for, url
from tests.tables.test_dealer_links import as_link
from tests.tables.test_penalty_api import at_table
from tournament.models import AuditEvent


def body(bags: dict) -> dict:
    return {"bags": [{"seat": seat, "chips": chips, "bag": bag} for seat, (chips, bag) in sorted(bags.items())]}


def bag_table(client, t, number: int, bags: dict, **headers):
    return client.post(url(t, f"tables/{number}/bags/"), body(bags), format="json", **headers)


def link(floor, t, number: int) -> str:
    return dealer_links.create_dealer_link(Table.objects.get(tournament=t, number=number), actor=floor)[1]


def written(t) -> tuple:
    return (
        list(Bag.objects.filter(tournament=t).values_list("pk", "current")),
        Day.objects.filter(tournament=t).count(),
        AuditEvent.objects.filter(tournament=t).count(),
    )


@pytest.mark.django_db
def test_the_dealer_tablet_bags_its_table_and_reads_it_back(t, floor):
    tablet = as_link(link(floor, t, 1))
    before = tablet.get(url(t, "tables/1/bags/"))
    assert before.status_code == 200 and before.json()["bagged"] == 0 and len(before.json()["players"]) == 6
    answer = bag_table(tablet, t, 1, even(t, 1))
    assert answer.status_code == 201, answer.content
    tablet_view = answer.json()
    assert (tablet_view["bagged"], tablet_view["total"], tablet_view["day"], tablet_view["status"]) == (6, 6 * STACK, 1, "playing")
    assert all(p["bag"] == f"T1-{p['seat']}" and p["last_count"] == STACK for p in tablet_view["players"])
    assert bag_table(tablet, t, 2, even(t, 2)).status_code == 403  # not its table
    # Elsewhere a dealer link is no login at all.
    assert tablet.get(url(t, "day/")).status_code == 401 and tablet.post(url(t, "day/close/"), {}, format="json").status_code == 401


@pytest.mark.django_db
@pytest.mark.parametrize(
    "change, status, code",
    [
        ("negative", 400, "no_chips"),
        ("empty", 409, "empty_seat"),
        ("missing", 400, "missing"),
        ("bag", 400, "bag_characters"),
        ("twice", 400, "bag_twice"),
        ("seat twice", 400, "invalid"),
        ("seat eleven", 400, "invalid"),
        ("no bags", 400, "invalid"),
        ("text", 400, "invalid"),
    ],
)
def test_bad_bags_are_refused_with_a_message_and_write_nothing(t, floor, change, status, code):
    bags = even(t, 1)
    first = min(bags)
    payload = body(bags)
    if change == "negative":
        payload["bags"][0]["chips"] = -5
    elif change == "empty":
        payload["bags"].append({"seat": next(n for n in range(1, 10) if n not in bags), "chips": 100, "bag": "Z9"})
    elif change == "missing":
        payload["bags"].pop(0)
    elif change == "bag":
        payload["bags"][0]["bag"] = "A#1"
    elif change == "twice":
        payload["bags"][1]["bag"] = f"t1-{first}"
    elif change == "seat twice":
        payload["bags"][1]["seat"] = first
    elif change == "seat eleven":
        payload["bags"][0]["seat"] = 11
    elif change == "no bags":
        payload["bags"] = []
    else:
        payload["bags"][0]["chips"] = "many"
    before = written(t)
    answer = client_for(floor).post(url(t, "tables/1/bags/"), payload, format="json")
    assert answer.status_code == status, answer.content
    assert answer.json()["error"] == code and answer.json()["detail"]
    assert written(t) == before


@pytest.mark.django_db
def test_one_players_bag_is_the_floors(t, floor, dealer, cashier):
    player = at_table(t, 2)[0]
    path = url(t, f"entries/{player.number}/bag/")
    assert client_for(dealer).post(path, {"chips": 30_000, "bag": "a-1"}, format="json").status_code == 403
    assert client_for(cashier).post(path, {"chips": 30_000, "bag": "a-1"}, format="json").status_code == 403
    answer = client_for(floor).post(path, {"chips": 30_000, "bag": "a-1"}, format="json")
    assert answer.status_code == 201, answer.content
    assert {k: answer.json()[k] for k in ("day", "entry", "chips", "bag", "table", "bagged_by")} == {
        "day": 1,
        "entry": player.number,
        "chips": 30_000,
        "bag": "A-1",
        "table": 2,
        "bagged_by": floor.username,
    }
    other = at_table(t, 2)[1]
    taken = client_for(floor).post(url(t, f"entries/{other.number}/bag/"), {"chips": 1, "bag": "A-1"}, format="json")
    assert taken.status_code == 409 and taken.json()["error"] == "bag_taken" and f"#{player.number}" in taken.json()["detail"]
    assert client_for(floor).post(url(t, "entries/999/bag/"), {"chips": 1, "bag": "B"}, format="json").status_code == 404


@pytest.mark.django_db
def test_the_director_closes_the_day_with_a_reason_when_bags_are_missing(t, floor, director, cashier):
    bag_table(client_for(floor), t, 1, even(t, 1))
    state = client_for(floor).get(url(t, "day/"))
    assert state.status_code == 200 and state.json()["bagged"] == 6 and state.json()["needs_reason"]
    assert client_for(cashier).get(url(t, "day/")).status_code == 403
    assert client_for(floor).post(url(t, "day/close/"), {}, format="json").status_code == 403
    before = written(t)
    refusal = client_for(director).post(url(t, "day/close/"), {}, format="json")
    assert refusal.status_code == 409 and refusal.json()["error"] == "bags_missing"
    assert "table 2 seats" in refusal.json()["detail"] and written(t) == before
    closed = client_for(director).post(
        url(t, "day/close/"), {"reason": "Table 2 bagged on paper"}, format="json", HTTP_IDEMPOTENCY_KEY="close-1"
    )
    assert closed.status_code == 200, closed.content
    assert closed.json()["day"] == 1 and closed.json()["reason"] == "Table 2 bagged on paper"
    assert closed.json()["missing"] == [e.number for e in at_table(t, 2)]
    again = client_for(director).post(
        url(t, "day/close/"), {"reason": "Table 2 bagged on paper"}, format="json", HTTP_IDEMPOTENCY_KEY="close-1"
    )
    assert again.status_code == 200 and again["Idempotent-Replayed"] == "true"
    assert list(Day.objects.filter(tournament=t).values_list("number", "status").order_by("number")) == [(1, "closed"), (2, "playing")]
    assert client_for(floor).get(url(t, "day/")).json()["day"] == 2


@pytest.mark.django_db
def test_a_retried_press_bags_once(t, floor):
    key = {"HTTP_IDEMPOTENCY_KEY": "bags-1"}
    first = bag_table(client_for(floor), t, 1, even(t, 1), **key)
    events = AuditEvent.objects.filter(tournament=t).count()
    again = bag_table(client_for(floor), t, 1, even(t, 1), **key)
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert Bag.objects.filter(tournament=t).count() == 6 and AuditEvent.objects.filter(tournament=t).count() == events


@pytest.mark.django_db
def test_the_report_by_stack_for_the_floor(t, floor, cashier):
    bags = even(t, 1)
    bags[max(bags)] = (64_000, "TOP")
    bag_table(client_for(floor), t, 1, bags)
    answer = client_for(floor).get(url(t, "day/report/"))
    assert answer.status_code == 200, answer.content
    report = answer.json()
    assert report["rows"][0]["bag"] == "TOP" and report["rows"][0]["big_blinds"] == 320.0 and report["rows"][0]["rank"] == 1
    assert report["players"] == 6 and report["status"] == "playing" and report["closed"] is None
    assert client_for(floor).get(url(t, "day/report/"), {"day": 1}).json() == report
    missing = client_for(floor).get(url(t, "day/report/"), {"day": 2})
    assert missing.status_code == 404 and missing.json()["detail"]
    assert client_for(floor).get(url(t, "day/report/"), {"day": 0}).status_code == 400
    assert client_for(cashier).get(url(t, "day/report/")).status_code == 403
