"""The waiting list's API (web/tournament/waiting_api.py): the desk puts a player on it with the ID check and sees the
list, the floor seats the next by hand, and every bad request is refused with a message and changes nothing."""

from __future__ import annotations

from tables.selectors.state import live_seats
from tables.services import busts
from tests.helpers import client_for, row_counts, url
from tests.tournament.test_waiting_list import newcomer
from tournament.models import AuditEvent, WaitingPlace


def body(player, number="WL0000001", **extra) -> dict:
    return {"player": player.pk, "document_type": "id_card", "document_number": number, "seen": True, **extra}


def test_the_desk_joins_a_player_to_the_list_and_reads_it_in_order(cashier, sold_out_room):
    t = sold_out_room
    desk = client_for(cashier)
    answer = desk.post(url(t, "waiting-list/"), body(newcomer(cashier, 1)), format="json")
    assert answer.status_code == 201, answer.content
    assert (answer.json()["number"], answer.json()["position"], answer.json()["state"]) == (1, 1, "waiting")
    assert "WL0000001" not in answer.content.decode()  # the number is only hashed
    new = {"new_player": {"first_name": "Eva", "last_name": "Nová", "date_of_birth": "1988-04-04"}}
    second = desk.post(
        url(t, "waiting-list/"), {"document_type": "passport", "document_number": "PP998877", "seen": True, **new}, format="json"
    )
    assert second.status_code == 201 and second.json()["name"] == "Eva Nová" and second.json()["position"] == 2
    listing = desk.get(url(t, "waiting-list/")).json()
    assert listing["capacity"]["sold_out"] is True and listing["capacity"]["seats"] == 12
    assert [p["position"] for p in listing["places"] if p["state"] == "waiting"] == list(range(1, len(listing["places"]) + 1))


def test_bad_requests_are_refused_with_a_message_and_change_nothing(cashier, floor, dealer, sold_out_room):
    t = sold_out_room
    desk = client_for(cashier)
    player, other = newcomer(cashier, 1), newcomer(cashier, 2)
    assert desk.post(url(t, "waiting-list/"), body(player), format="json").status_code == 201
    events = AuditEvent.objects.count()
    before = row_counts()
    again = desk.post(url(t, "waiting-list/"), body(player), format="json")
    assert again.status_code == 409 and again.json()["error"] == "already_waiting" and "alternate 1" in again.json()["detail"]
    unseen = desk.post(url(t, "waiting-list/"), body(other, "WL0000002", seen=False), format="json")
    assert unseen.status_code == 400
    full = client_for(floor).post(url(t, "waiting-list/offer/"), {"count": 1}, format="json")
    assert full.status_code == 409 and full.json()["error"] == "room_full" and full.json()["detail"]
    assert client_for(floor).post(url(t, "waiting-list/offer/"), {"count": 0}, format="json").status_code == 400
    assert client_for(floor).post(url(t, "waiting-list/1/seat/")).status_code == 409  # not offered a seat yet
    assert client_for(floor).post(url(t, "waiting-list/1/pass/")).status_code == 409
    assert desk.post(url(t, "waiting-list/1/cancel/"), {"reason": ""}, format="json").status_code == 400
    assert desk.post(url(t, "waiting-list/99/cancel/"), {"reason": "x"}, format="json").status_code == 404
    assert client_for(dealer).get(url(t, "waiting-list/")).status_code == 403
    assert client_for(cashier).post(url(t, "waiting-list/offer/"), {"count": 1}, format="json").status_code == 403
    assert row_counts() == before and AuditEvent.objects.count() == events
    assert WaitingPlace.objects.get().state == "waiting"


def test_after_a_bust_the_desk_sees_the_offer_and_confirms_the_alternate_sat_down(floor, cashier, sold_out_room):
    t = sold_out_room
    desk = client_for(cashier)
    desk.post(url(t, "waiting-list/"), body(newcomer(cashier, 1)), format="json")
    busts.bust_entry(live_seats(t).first().entry, actor=floor)
    offered = desk.get(url(t, "waiting-list/")).json()["places"][0]
    assert offered["state"] == "offered" and offered["entry"] is not None and offered["position"] is None
    seated = desk.post(url(t, "waiting-list/1/seat/"))
    assert seated.status_code == 200 and seated.json()["state"] == "seated"
    assert desk.get(url(t, "waiting-list/")).json()["places"] == []
