"""Satellites through the JSON API (web/payouts/satellites_api.py): the director sets one up, everyone on the staff
reads its seats, the desk reads the tickets and registers a holder into the target with his ID, the director passes a
ticket on where the house allows it; refusals are said and change nothing."""

from __future__ import annotations

from datetime import date

from payouts.models import Satellite, Ticket
from payouts.services import structure, tickets
from tests.conftest import tournament_data
from tests.helpers import api, id_doc
from tests.payouts.conftest import SEAT, bust_down_to
from tests.payouts.test_payments import signature
from tournament.models import AuditEvent, Entry, Purchase
from tournament.services import registration as tournament_services
from tournament.services import setup


def test_the_director_sets_a_satellite_and_the_staff_read_its_seats(client, director, dealer, tournament, main_event):
    client.force_login(director)
    assert api(client, "get", f"tournaments/{tournament.pk}/satellite/").json() == {"satellite": None}
    refused = api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"target": tournament.pk}, key="s0")
    assert refused.status_code == 400 and refused.json()["error"] == "target_itself"
    unknown = api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"target": main_event.pk, "seats": 3}, key="s1")
    assert unknown.status_code == 400 and not Satellite.objects.exists()
    made = api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"target": main_event.pk, "leftover": "seat_winners"}, key="s2")
    assert made.status_code == 200, made.content
    sat = made.json()["satellite"]
    assert (sat["target"]["name"], sat["seat_value"], sat["leftover"], sat["stopped"]) == ("Main Event", SEAT, "seat_winners", False)
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
        "satellite.set",
        "satellite.set",
        "satellite.removed",
    ]


def test_the_desk_registers_a_tickets_holder_into_the_target_through_the_api(
    client, satellite, main_event, floor, cashier, director, player
):
    bust_down_to(floor, satellite, 2)
    client.force_login(cashier)
    won = api(client, "get", f"tournaments/{satellite.pk}/tickets/").json()
    assert [(t["number"], t["status"], t["value"], t["target_name"]) for t in won] == [
        (1, "issued", SEAT, "Main Event"),
        (2, "issued", SEAT, "Main Event"),
    ]
    waiting = api(client, "get", f"tournaments/{main_event.pk}/target-tickets/").json()
    assert [t["holder_name"] for t in waiting] == sorted(t["holder_name"] for t in won)
    ticket = Ticket.objects.get(number=1)
    path = f"tournaments/{satellite.pk}/tickets/1/register/"
    no_id = api(client, "post", path, {"document_type": "id_card", "document_number": "", "seen": True}, key="r0")
    assert no_id.status_code == 400 and not Entry.objects.filter(tournament=main_event).exists()
    not_seen = api(client, "post", path, {"document_type": "id_card", "document_number": "EA0000000", "seen": False}, key="r1")
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


def test_the_targets_reconciliation_counts_the_tickets_apart_from_the_cash_taken(client, satellite, main_event, floor, cashier):
    bust_down_to(floor, satellite, 2)
    for ticket in Ticket.objects.order_by("number"):
        tickets.register_with_ticket(ticket, actor=cashier, document=id_doc(f"EA{ticket.won_by.number - 1:07d}"))
    client.force_login(cashier)
    money = api(client, "get", f"tournaments/{main_event.pk}/reconciliation/").json()
    buy_in = next(row for row in money["takings"] if row["kind"] == "buy_in")
    # Two buy-ins paid, both with tickets: in the pool and the fees, but no cash was taken for them.
    assert (buy_in["count"], buy_in["amount"], buy_in["fee"], buy_in["total"]) == (2, 20_000, 3_000, 2 * SEAT)
    assert (buy_in["tickets"], buy_in["tickets_amount"], buy_in["tickets_fee"], buy_in["tickets_total"], buy_in["cash_taken"]) == (
        2,
        20_000,
        3_000,
        2 * SEAT,
        0,
    )
    assert money["takings_total"]["cash_taken"] == money["taken"] == money["cash_in"] == 0
    assert (money["tickets_in_count"], money["tickets_in_amount"], money["tickets_in_fee"], money["tickets_in"]) == (
        2,
        20_000,
        3_000,
        2 * SEAT,
    )
    assert money["tickets_in_amount"] <= money["collected"] and money["tickets_in_fee"] <= money["fees"]
    # One more buy-in, in cash: only it is cash taken.
    player = tournament_services.create_player(actor=cashier, first_name="Cash", last_name="Paid", date_of_birth=date(1990, 1, 1))
    tournament_services.register_entry(main_event, actor=cashier, player=player, document=id_doc("ZZ0000001"))
    money = api(client, "get", f"tournaments/{main_event.pk}/reconciliation/").json()
    buy_in = next(row for row in money["takings"] if row["kind"] == "buy_in")
    assert (buy_in["count"], buy_in["total"], buy_in["tickets"], buy_in["cash_taken"]) == (3, 3 * SEAT, 2, SEAT)
    assert money["takings_total"]["cash_taken"] == money["taken"] == money["cash_in"] == SEAT
    assert (money["collected"], money["tickets_in_amount"], money["fees"], money["tickets_in_fee"]) == (30_000, 20_000, 4_500, 3_000)
    assert money["balance"] == 0


def test_the_satellites_reconciliation_says_its_seat_winners_are_not_in_play_once_play_stopped(client, satellite, floor, cashier):
    client.force_login(cashier)
    bust_down_to(floor, satellite, 3)
    going = api(client, "get", f"tournaments/{satellite.pk}/reconciliation/").json()
    assert (going["players_left"], going["play_stopped"], going["seat_winners"]) == (3, False, 0)
    bust_down_to(floor, satellite, 2)
    stopped = api(client, "get", f"tournaments/{satellite.pk}/reconciliation/").json()
    assert (stopped["play_stopped"], stopped["seat_winners"], stopped["seats_out_count"]) == (True, 2, 2)
    assert (stopped["prizes_in_play"], stopped["seats_out"], stopped["balance"]) == (0, 2 * SEAT, 0)


def test_the_public_seat_api_says_the_seat_won_and_the_place_the_results_give(client, satellite, floor, cashier):
    bust_down_to(floor, satellite, 3)
    third = Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).order_by("number").first()
    seat = client.get(f"/api/public/tournaments/{satellite.pk}/seats/{third.number}/").json()
    assert (seat["seat_won"], seat["place"], seat["place_low"]) == (None, None, None)  # play goes on
    bust_down_to(floor, satellite, 2)
    client.force_login(cashier)
    results = {row["entry"]: row for row in api(client, "get", f"tournaments/{satellite.pk}/results/").json()}
    client.logout()
    winners = Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).order_by("number")
    assert winners.count() == 2
    for entry in [*winners, third]:
        answer = client.get(f"/api/public/tournaments/{satellite.pk}/seats/{entry.number}/").json()  # the seat page's read
        row = results[entry.number]
        assert (answer["place"], answer["place_low"]) == (row["place"], row["place_low"]), answer
        assert answer["seat_won"] == ("Main Event" if row["seat"] else None)
        assert "next_draw" in answer  # the commitment the seat page shows
    assert [(results[e.number]["place"], results[e.number]["place_low"]) for e in winners] == [(1, 2), (1, 2)]


def test_a_prize_paid_refuses_to_make_a_tournament_a_satellite_in_words_that_fit(
    client, director, cashier, tournament, finished, main_event
):
    # Not a satellite: a prize paid, it cannot become one (its seats and cash are not what is refused).
    structure.pay_prize(finished[4], actor=cashier, document=id_doc("EA0000004"), signature=signature())
    client.force_login(director)
    becoming = api(client, "put", f"tournaments/{tournament.pk}/satellite/", {"target": main_event.pk}, key="d0")
    assert becoming.status_code == 409 and becoming.json()["error"] == "satellite_fixed_by_payment"
    assert becoming.json()["detail"] == "A prize was paid: this tournament can no longer become a satellite."
    assert not Satellite.objects.filter(tournament=tournament).exists()


def test_a_prize_paid_refuses_to_change_or_remove_a_satellite_in_words_that_fit(client, director, cashier, floor, satellite, template):
    # A satellite played to a winner (its pool is below one seat of a High Roller): the winner's cash paid, its seats
    # and cash stand and it stays a satellite.
    high = setup.create_tournament(tournament_data(name="High Roller", buy_in=50_000, guaranteed_pool=0), actor=director, template=template)
    tickets.set_satellite(satellite, actor=director, data={"target": high.pk})
    bust_down_to(floor, satellite, 1)
    tournament_services.set_registration_closed(satellite, actor=director, closed=True)
    winner = Entry.objects.get(tournament=satellite, status=Entry.Status.ACTIVE)
    structure.pay_prize(winner, actor=cashier, document=id_doc(f"EA{winner.number - 1:07d}"), signature=signature())
    assert not Ticket.objects.exists()
    client.force_login(director)
    change = api(client, "put", f"tournaments/{satellite.pk}/satellite/", {"leftover": "seat_winners"}, key="d1")
    assert change.status_code == 409
    assert change.json()["detail"] == "A prize was paid: the satellite's seats and cash cannot change any more."
    gone = api(client, "delete", f"tournaments/{satellite.pk}/satellite/", key="d2")
    assert gone.status_code == 409 and gone.json()["error"] == "satellite_fixed_by_payment"
    assert gone.json()["detail"] == "A prize was paid: the tournament stays a satellite."
    assert Satellite.objects.get(tournament=satellite).target == high
    # The house's rule on passing tickets on is no money: it still changes.
    house = api(client, "put", f"tournaments/{satellite.pk}/satellite/", {"transferable": True}, key="d3")
    assert house.status_code == 200 and house.json()["satellite"]["transferable"] is True
