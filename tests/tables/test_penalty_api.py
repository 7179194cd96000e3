"""Penalties through the JSON API (TDA 51), as the floor uses it: a warning, one hand, or one to four rounds
of a hand for every player at the table; the hands started at the player's table (at whatever table he
sits) count, an undone start does not; a bust ends it; a penalty given in error is cancelled; the table's
tablet shows the players still sitting out. Only the floor (and the director) reaches it; bad input is a
4xx and records nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from tables.models import Penalty
from tables.selectors import state
from tables.services import busts, dealer_links, hands, seats
from tests.helpers import client_for, open_tables, register, table, url
from tests.tables.test_api import free_seat_at
from tests.tables.test_dealer_links import as_link
from tournament.models import AuditEvent, Entry


def at_table(t, number: int) -> list[Entry]:
    """The entries seated at a table, by seat."""
    return [s.entry for s in state.live_seats(t).filter(table__number=number).select_related("entry").order_by("seat")]


def give(user, t, entry: int, kind: str, rounds=None, reason: str = "Abusive language"):
    body = {"entry": entry, "kind": kind, "reason": reason}
    if rounds is not None:
        body["rounds"] = rounds
    return client_for(user).post(url(t, "penalties/"), body, format="json")


def listed(user, t, number: int) -> dict:
    answer = client_for(user).get(url(t, "penalties/"))
    assert answer.status_code == 200, answer.content
    return next(p for p in answer.json()["penalties"] if p["number"] == number)


def start_hands(user, t, number: int, n: int) -> None:
    for _ in range(n):
        hands.start_hand(table(t, number), actor=user)


def tablet_penalties(floor, t, number: int) -> list[dict]:
    """What the table's tablet shows (the dealer state it polls)."""
    browser = Client()
    browser.force_login(floor)
    answer = browser.get(f"/api/tournaments/{t.pk}/tables/{number}/state/")
    assert answer.status_code == 200, answer.content
    return answer.json()["table"]["penalties"]


def penalty_events(t) -> int:
    return AuditEvent.objects.filter(tournament=t, type__startswith="penalty.").count()


def test_two_rounds_at_a_table_of_six_are_twelve_hands_served_as_the_table_deals(room, floor):
    offender = at_table(room, 1)[2]
    answer = give(floor, room, offender.number, "rounds", 2)
    assert answer.status_code == 201, answer.content
    penalty = answer.json()
    assert penalty["number"] == 1 and penalty["entry"] == offender.number and penalty["name"]
    assert (penalty["kind"], penalty["rounds"], penalty["players_at_table"], penalty["hands"]) == ("rounds", 2, 6, 12)
    assert (penalty["status"], penalty["hands_left"], penalty["served"]) == ("serving", 12, 0)
    assert (penalty["table"], penalty["now"]["table"]) == (1, 1) and penalty["now"]["seat"] == penalty["seat"]
    assert penalty["reason"] == "Abusive language" and penalty["given_by"] == floor.username
    assert Penalty.objects.get(tournament=room, number=1).hands == 12
    start_hands(floor, room, 2, 3)  # another table's hands do not count
    assert listed(floor, room, 1)["hands_left"] == 12
    start_hands(floor, room, 1, 5)
    assert (listed(floor, room, 1)["hands_left"], listed(floor, room, 1)["served"]) == (7, 5)
    hands.undo_hand_start(table(room, 1), actor=floor)  # a mistaken press is no hand
    assert listed(floor, room, 1)["hands_left"] == 8
    start_hands(floor, room, 1, 7)
    assert listed(floor, room, 1)["hands_left"] == 1 and listed(floor, room, 1)["status"] == "serving"
    start_hands(floor, room, 1, 1)
    done = listed(floor, room, 1)
    assert (done["status"], done["hands_left"], done["served"]) == ("served", 0, 12)
    start_hands(floor, room, 1, 2)
    assert listed(floor, room, 1)["served"] == 12  # never more than the penalty


def test_a_warning_is_no_hand_and_one_hand_is_one(room, floor):
    first, second = at_table(room, 2)[:2]
    warning = give(floor, room, first.number, "warning").json()
    assert (warning["hands"], warning["status"], warning["hands_left"], warning["rounds"]) == (0, "warning", 0, None)
    one = give(floor, room, second.number, "hand").json()
    assert (one["number"], one["hands"], one["status"], one["hands_left"], one["rounds"]) == (2, 1, "serving", 1, None)
    numbers = [p["number"] for p in client_for(floor).get(url(room, "penalties/")).json()["penalties"]]
    assert numbers == [2, 1]  # newest first
    start_hands(floor, room, 2, 1)
    assert listed(floor, room, 2)["status"] == "served" and listed(floor, room, 1)["status"] == "warning"


def test_the_penalty_follows_the_player_to_another_table(room, floor):
    offender = at_table(room, 1)[0]
    give(floor, room, offender.number, "rounds", 1)  # six hands
    start_hands(floor, room, 1, 2)
    assert listed(floor, room, 1)["hands_left"] == 4
    seat = free_seat_at(room, 2)
    seats.correct_seat(offender, actor=floor, table_number=2, seat_number=seat)
    moved = listed(floor, room, 1)
    assert moved["now"] == {"table": 2, "seat": seat} and moved["table"] == 1 and moved["hands_left"] == 4
    start_hands(floor, room, 1, 3)  # his old table's hands no longer count
    assert listed(floor, room, 1)["hands_left"] == 4
    start_hands(floor, room, 2, 3)
    assert listed(floor, room, 1)["hands_left"] == 1
    assert [p["number"] for p in tablet_penalties(floor, room, 2)] == [1] and tablet_penalties(floor, room, 1) == []


def test_a_bust_ends_the_penalty(room, floor):
    offender = at_table(room, 1)[1]
    give(floor, room, offender.number, "rounds", 3)
    start_hands(floor, room, 1, 2)
    busts.bust_entry(offender, actor=floor)
    gone = listed(floor, room, 1)
    assert gone["hands_left"] == 0 and gone["now"] is None and gone["status"] == "ended"
    assert gone["served"] == 2  # the two hands dealt before the bust; not the whole penalty
    assert tablet_penalties(floor, room, 1) == []
    refused = give(floor, room, offender.number, "hand")
    assert refused.status_code == 409 and refused.json()["detail"]


def test_the_floor_cancels_a_penalty_given_in_error_once(room, floor, director):
    offender = at_table(room, 1)[3]
    give(floor, room, offender.number, "rounds", 1)
    start_hands(floor, room, 1, 2)
    assert client_for(floor).post(url(room, "penalties/1/cancel/"), {}, format="json").status_code == 400
    answer = client_for(floor).post(url(room, "penalties/1/cancel/"), {"reason": "Wrong player"}, format="json")
    assert answer.status_code == 200, answer.content
    cancelled = answer.json()
    assert (cancelled["status"], cancelled["hands_left"], cancelled["served"]) == ("cancelled", 0, None)
    assert cancelled["cancel_reason"] == "Wrong player" and cancelled["cancelled_at"]
    assert cancelled["now"]["table"] == 1
    assert tablet_penalties(floor, room, 1) == []
    assert listed(floor, room, 1)["status"] == "cancelled"  # still on the record
    again = client_for(director).post(url(room, "penalties/1/cancel/"), {"reason": "Twice"}, format="json")
    assert again.status_code == 409 and again.json()["error"] == "already_cancelled" and again.json()["detail"]
    missing = client_for(floor).post(url(room, "penalties/9/cancel/"), {"reason": "Nothing"}, format="json")
    assert missing.status_code == 404 and missing.json()["detail"]
    event = AuditEvent.objects.get(tournament=room, type="penalty.cancelled")
    assert (event.payload["penalty"], event.payload["table"], event.payload["entry"]) == (1, 1, offender.number)
    assert event.actor == floor
    assert AuditEvent.objects.filter(tournament=room, type="penalty.cancelled").count() == 1


def test_the_audit_records_who_gave_what_and_at_which_table(room, floor):
    offender = at_table(room, 2)[4]
    give(floor, room, offender.number, "rounds", 4, reason="  Soft   play  ")
    event = AuditEvent.objects.get(tournament=room, type="penalty.given")
    assert event.actor == floor
    assert {k: event.payload[k] for k in ("penalty", "entry", "table", "kind", "rounds", "players", "hands", "reason")} == {
        "penalty": 1,
        "entry": offender.number,
        "table": 2,
        "kind": "rounds",
        "rounds": 4,
        "players": 6,
        "hands": 24,
        "reason": "Soft play",
    }


def test_the_tablet_shows_a_penalty_at_its_own_table_only_while_hands_are_left(room, floor):
    one, warned = at_table(room, 1)[:2]
    give(floor, room, warned.number, "warning")
    give(floor, room, one.number, "hand")
    shown = tablet_penalties(floor, room, 1)
    assert [(p["entry"], p["hands_left"]) for p in shown] == [(one.number, 1)]  # a warning is no hand to sit out
    assert tablet_penalties(floor, room, 2) == []
    start_hands(floor, room, 1, 1)
    assert tablet_penalties(floor, room, 1) == []


@pytest.mark.parametrize("method,path", [("get", "penalties/"), ("post", "penalties/"), ("post", "penalties/1/cancel/")])
def test_only_the_floor_and_the_director_reach_penalties(room, floor, cashier, dealer, method, path):
    give(floor, room, at_table(room, 1)[0].number, "hand")
    count, events = Penalty.objects.count(), penalty_events(room)
    body = {"entry": at_table(room, 1)[1].number, "kind": "warning", "reason": "Late"}
    for user in (cashier, dealer):
        answer = getattr(client_for(user), method)(url(room, path), body, format="json")
        assert answer.status_code == 403 and answer.json()["detail"], (user, answer.content)
    anonymous = getattr(client_for(), method)(url(room, path), body, format="json")
    assert anonymous.status_code == 401 and anonymous.json()["detail"]
    _, secret = dealer_links.create_dealer_link(table(room, 1), actor=floor, label="tablet 1")
    link = getattr(as_link(secret), method)(url(room, path), body, format="json")
    assert link.status_code == 401 and link.json()["detail"]  # a dealer link is read only at its table's endpoints
    assert (Penalty.objects.count(), penalty_events(room)) == (count, events)
    assert Penalty.objects.get().cancelled_at is None


def test_bad_input_is_refused_and_records_nothing(room, floor, director, cashier):
    entry = at_table(room, 1)[0].number
    busted = at_table(room, 2)[0]
    busts.bust_entry(busted, actor=floor)
    ok = {"entry": entry, "kind": "rounds", "rounds": 1, "reason": "Slow play"}
    bad = [
        ({k: v for k, v in ok.items() if k != "reason"}, 400),
        ({**ok, "reason": "   "}, 400),
        ({**ok, "reason": "x" * 201}, 400),
        ({**ok, "rounds": 0}, 400),
        ({**ok, "rounds": 5}, 400),
        ({k: v for k, v in ok.items() if k != "rounds"}, 400),
        ({**ok, "kind": "warning"}, 400),  # rounds for a warning
        ({**ok, "kind": "hand", "rounds": 2}, 400),
        ({**ok, "kind": "x"}, 400),
        ({**ok, "entry": 0}, 400),
        ({**ok, "entry": "seven"}, 400),
        ({**ok, "entry": 999}, 404),
        ({**ok, "entry": busted.number}, 409),
    ]
    for body, code in bad:
        answer = client_for(floor).post(url(room, "penalties/"), body, format="json")
        assert answer.status_code == code and answer.json()["detail"], (body, answer.content)
    rounds_refusal = client_for(floor).post(url(room, "penalties/"), {**ok, "kind": "warning"}, format="json").json()
    assert "rounds" in rounds_refusal["fields"] and "rounds" in rounds_refusal["detail"]
    for raw in ("not json", "[1, 2]", '"text"'):
        answer = client_for(floor).post(url(room, "penalties/"), raw, content_type="application/json")
        assert answer.status_code == 400 and answer.json()["detail"], raw
    for raw in ("not json", "[]"):
        answer = client_for(floor).post(url(room, "penalties/1/cancel/"), raw, content_type="application/json")
        assert answer.status_code == 400 and answer.json()["detail"], raw
    assert client_for(floor).get("/api/tournaments/99999/penalties/").status_code == 404
    assert client_for(floor).post("/api/tournaments/99999/penalties/", ok, format="json").status_code == 404
    assert not Penalty.objects.exists() and penalty_events(room) == 0
    assert client_for(floor).post(url(room, "penalties/"), ok, format="json").status_code == 201  # the good one passes


def test_an_entry_without_a_seat_gets_no_penalty(director, cashier, floor, tournament):
    open_tables(director, tournament, [1])
    (entry,) = register(cashier, tournament, 1)  # before the start draw: no seat
    answer = give(floor, tournament, entry.number, "warning")
    assert answer.status_code == 409 and answer.json()["error"] == "not_seated" and answer.json()["detail"]
    assert not Penalty.objects.exists() and penalty_events(tournament) == 0


def test_the_schema_documents_the_penalty_endpoints(db):
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    for path, method in [
        ("/api/tournaments/{id}/penalties/", "get"),
        ("/api/tournaments/{id}/penalties/", "post"),
        ("/api/tournaments/{id}/penalties/{number}/cancel/", "post"),
    ]:
        assert schema["paths"][path][method].get("summary"), path
    assert schema["components"]["schemas"]["PenaltyKindEnum"]["enum"] == ["warning", "hand", "rounds", "dq"]


# --- who: by entry number, or by table and seat ---------------------------------------------------------


def test_the_floor_names_the_player_by_table_and_seat(room, floor):
    offender = at_table(room, 2)[3]
    seat = state.seat_of(offender).seat
    answer = client_for(floor).post(
        url(room, "penalties/"), {"table": 2, "seat": seat, "kind": "hand", "reason": "Exposed a card"}, format="json"
    )
    assert answer.status_code == 201, answer.content
    given = answer.json()
    assert (given["entry"], given["table"], given["seat"], given["hands"]) == (offender.number, 2, seat, 1)
    event = AuditEvent.objects.get(tournament=room, type="penalty.given")
    assert (event.payload["entry"], event.payload["table"], event.payload["seat"]) == (offender.number, 2, seat)


def test_who_is_one_way_and_an_empty_seat_gets_nothing(room, floor):
    offender = at_table(room, 1)[0]
    seat = state.seat_of(offender).seat
    empty = free_seat_at(room, 1)
    ok = {"kind": "warning", "reason": "Slow play"}
    for body, code, error in [
        (ok, 400, "invalid"),  # nobody named
        ({**ok, "table": 1}, 400, "invalid"),  # a table without its seat
        ({**ok, "seat": seat}, 400, "invalid"),
        ({**ok, "entry": offender.number, "table": 1, "seat": seat}, 400, "invalid"),  # both ways: never a guess
        ({**ok, "table": 1, "seat": empty}, 409, "empty_seat"),
        ({**ok, "table": 9, "seat": 1}, 409, "empty_seat"),
        ({**ok, "table": 1, "seat": 0}, 400, "invalid"),
    ]:
        answer = client_for(floor).post(url(room, "penalties/"), body, format="json")
        assert (answer.status_code, answer.json()["error"]) == (code, error), (body, answer.content)
        assert answer.json()["detail"]
    assert not Penalty.objects.exists() and penalty_events(room) == 0
    refused = client_for(floor).post(url(room, "penalties/"), {**ok, "table": 1, "seat": empty}, format="json").json()
    assert refused["detail"] == f"Nobody sits at table 1 seat {empty}."


def test_the_schema_documents_who_gets_the_penalty(db):
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    body = schema["components"]["schemas"]["GivePenaltyRequest"]
    assert {"entry", "table", "seat"} <= set(body["properties"])
    assert not {"entry", "table", "seat"} & set(body.get("required", []))
    assert all(body["properties"][name].get("description") for name in ("entry", "table", "seat"))
    operation = schema["paths"]["/api/tournaments/{id}/penalties/"]["post"]
    assert "table" in operation["description"] and "seat" in operation["description"]
    assert {"400", "404", "409"} <= set(operation["responses"])
