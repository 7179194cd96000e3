"""Satellites through the JSON API (web/payouts/satellites_api.py): the director sets one up, everyone on the staff
reads its seats, the desk reads the tickets and registers a holder into the target with his ID, the director passes a
ticket on where the house allows it; refusals are said and change nothing."""
from __future__ import annotations

from django.test import Client

from payouts.models import Satellite, Ticket
from tests.payouts.conftest import SEAT, bust_down_to
from tournament.models import AuditEvent, Entry, Purchase


def api(client: Client, method: str, path: str, body: dict | None = None, key: str = ""):
    return getattr(client, method)(f"/api/{path}", body, content_type="application/json",
                                   **({"HTTP_IDEMPOTENCY_KEY": key} if key else {}))


def test_the_director_sets_a_satellite_and_the_staff_read_its_seats(client, director, dealer, tournament, main_event):
    client.force_login(director)
    assert api(client, "get", f"tournaments/{tournament.pk}/satellite/").json() == {"satellite": None}
    refused = api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"target": tournament.pk}, key="s0")
    assert refused.status_code == 400 and refused.json()["error"] == "target_itself"
    unknown = api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"target": main_event.pk, "seats": 3}, key="s1")
    assert unknown.status_code == 400 and not Satellite.objects.exists()
    made = api(client, "put", f"tournaments/{tournament.pk}/satellite/",
               {"target": main_event.pk, "leftover": "seat_winners"}, key="s2")
    assert made.status_code == 200, made.content
    sat = made.json()["satellite"]
    assert (sat["target"]["name"], sat["seat_value"], sat["leftover"], sat["stopped"]) == (
        "Main Event", SEAT, "seat_winners", False)
    # Nobody has entered yet: the guarantee of 5,000 is no seat (never more seats than entries), it is the winner's.
    assert (sat["seats"], sat["cash"], sat["stops_at"]) == (0, 500_000, 1)
    # The house waives the target's fee for a ticket: a seat is its buy-in alone. A choice it does not know is refused.
    bad = api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"seat": "half"}, key="s5")
    assert bad.status_code == 400 and Satellite.objects.get().seat == "entry"
    waived = api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"seat": "buy_in"}, key="s6").json()["satellite"]
    assert (waived["seat"], waived["seat_value"]) == ("buy_in", 10_000)
    client.force_login(dealer)
    payouts = api(client, "get", f"tournaments/{tournament.pk}/payouts/").json()
    assert payouts["method"] == "satellite" and payouts["satellite"]["seats"] == sat["seats"]
    assert api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"leftover": "next_place"}, key="s3").status_code == 403
    client.force_login(director)
    gone = api(client, "delete", f"tournaments/{tournament.pk}/satellite/", key="s4")
    assert gone.status_code == 200 and gone.json() == {"satellite": None}
    assert [e.type for e in AuditEvent.objects.filter(tournament=tournament).order_by("seq")][-3:] == [
        "satellite.set", "satellite.set", "satellite.removed"]


def test_the_desk_registers_a_tickets_holder_into_the_target_through_the_api(client, satellite, main_event, floor,
                                                                            cashier, director, player):
    bust_down_to(floor, satellite, 2)
    client.force_login(cashier)
    won = api(client, "get", f"tournaments/{satellite.pk}/tickets/").json()
    assert [(t["number"], t["status"], t["value"], t["target_name"]) for t in won] == [
        (1, "issued", SEAT, "Main Event"), (2, "issued", SEAT, "Main Event")]
    waiting = api(client, "get", f"tournaments/{main_event.pk}/target-tickets/").json()
    assert [t["holder_name"] for t in waiting] == sorted(t["holder_name"] for t in won)
    ticket = Ticket.objects.get(number=1)
    path = f"tournaments/{satellite.pk}/tickets/1/register/"
    no_id = api(client, "post", path, {"document_type": "id_card", "document_number": "", "seen": True}, key="r0")
    assert no_id.status_code == 400 and not Entry.objects.filter(tournament=main_event).exists()
    not_seen = api(client, "post", path, {"document_type": "id_card", "document_number": "EA0000000", "seen": False},
                   key="r1")
    assert not_seen.status_code == 400
    document = f"EA{ticket.won_by.number - 1:07d}"
    made = api(client, "post", path, {"document_type": "id_card", "document_number": document, "seen": True}, key="r2")
    assert made.status_code == 201, made.content
    assert made.json()["id_check"]["last4"] == document[-4:]
    purchase = Purchase.objects.get(tournament=main_event)
    assert purchase.paid_with == "ticket" and purchase.entry.number == made.json()["number"]
    again = api(client, "post", path, {"document_type": "id_card", "document_number": document, "seen": True}, key="r3")
    assert again.status_code == 409 and again.json()["error"] == "ticket_used"
    money = api(client, "get", f"tournaments/{main_event.pk}/reconciliation/").json()
    assert (money["cash_in"], money["tickets_in"], money["tickets_in_count"], money["balance"]) == (0, SEAT, 1, 0)
    # Passing a ticket on: the director's, where the house allows it.
    transfer = {"player": player.pk, "reason": "Cannot play the Main Event"}
    assert api(client, "post", f"tournaments/{satellite.pk}/tickets/2/transfer/", transfer, key="t0").status_code == 403
    client.force_login(director)
    no = api(client, "post", f"tournaments/{satellite.pk}/tickets/2/transfer/", transfer, key="t1")
    assert no.status_code == 409 and no.json()["error"] == "not_transferable"
    api(client, "put", f"tournaments/{satellite.pk}/satellite/", {"transferable": True}, key="t2")
    yes = api(client, "post", f"tournaments/{satellite.pk}/tickets/2/transfer/", transfer, key="t3")
    assert yes.status_code == 200 and yes.json()["holder_name"] == player.display_name
    results = api(client, "get", f"tournaments/{satellite.pk}/results/").json()
    assert [row["seat"] for row in results[:3]] == [True, True, False]
