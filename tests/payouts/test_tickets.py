"""Satellites and their tickets (payouts/services/tickets.py): play stops at the seats, each seat winner gets a ticket
that follows every correction, the desk registers the holder into the target with his ID checked and no payment, and
the target's pool counts it while the cage takes no cash for it."""

from __future__ import annotations

from leagues.selectors.player_results import player_results
from payouts.models import Satellite, Ticket
from payouts.selectors import reconciliation
from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from payouts.services import tickets
from tables.models import HandForHand
from tables.selectors import screens
from tables.services import busts, handforhand, hands
from tests.conftest import tournament_data
from tests.helpers import id_doc, refused, table
from tests.payouts.conftest import SEAT, bust_down_to
from tests.payouts.test_payments import signature
from tests.tables.test_moves import entry, seated
from tournament.models import AuditEvent, Entry, Purchase, Tournament
from tournament.selectors import receipts
from tournament.selectors.stats import tournament_stats
from tournament.services import registration as tournament_services
from tournament.services import setup


def test_the_seats_are_the_pool_over_the_targets_entry_price_and_the_bubble_is_at_the_seats(satellite, floor):
    state = payouts_selectors.payout_state(satellite)
    assert state["satellite"] == {
        "target": {"id": Satellite.objects.get().target_id, "name": "Main Event", "start_at": state["satellite"]["target"]["start_at"]},
        "seats": 2,
        "seat_value": SEAT,
        "seat": "entry",
        "cash": 7_000,
        "leftover": "next_place",
        "stops_at": 2,
        "transferable": False,
        "stopped": False,
    }
    assert state["prizes"] == [0, 0, 7_000] and state["bands"] == [{"first": 3, "last": 3, "prize": 7_000}]
    bust_down_to(floor, satellite, 3)
    h4h = screens.hand_for_hand_status(satellite)
    assert h4h["places_paid"] == 2 and h4h["suggested"]  # the seat bubble is played hand-for-hand
    assert not payouts_selectors.play_over(satellite) and not Ticket.objects.exists()


def test_play_stops_at_the_seats_and_each_seat_winner_gets_a_ticket(satellite, floor, cashier):
    bust_down_to(floor, satellite, 2)
    assert payouts_selectors.play_over(satellite)
    winners = sorted(Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).values_list("number", flat=True))
    assert payouts_selectors.seat_winners(satellite) == winners
    issued = list(Ticket.objects.order_by("number"))
    assert [(tk.number, tk.won_by.number, tk.value, tk.status) for tk in issued] == [
        (1, winners[0], SEAT, "issued"),
        (2, winners[1], SEAT, "issued"),
    ]
    event = AuditEvent.objects.get(tournament=satellite, type="ticket.issued")
    assert [row["entry"] for row in event.payload["tickets"]] == winners
    rows = payouts_selectors.results(satellite)
    assert [(r["place"], r["place_low"], r["prize"], r["seat"]) for r in rows[:3]] == [
        (1, 2, 0, True),
        (1, 2, 0, True),
        (3, 3, 7_000, False),
    ]
    # Nobody else busts: play has stopped.
    refused("play_stopped", busts.bust_entry, entry(satellite, winners[0]), actor=floor)
    # The cash of third place is paid at the cage; a seat winner's prize is his ticket.
    third = Entry.objects.get(tournament=satellite, finish_place=3)
    tournament_services.set_registration_closed(satellite, actor=Satellite.objects.get().set_by, closed=True)
    payouts_services.pay_prize(third, actor=cashier, document=id_doc(f"EA{third.number - 1:07d}"), signature=signature())
    refused(
        "seat_only",
        payouts_services.pay_prize,
        entry(satellite, winners[0]),
        actor=cashier,
        document=id_doc(f"EA{winners[0] - 1:07d}"),
        signature=signature(),
    )


def test_an_undone_last_bust_voids_the_unused_tickets_and_the_next_bust_issues_them_again(satellite, floor):
    bust_down_to(floor, satellite, 2)
    last = Entry.objects.get(tournament=satellite, finish_place=3)
    busts.undo_bust(last, actor=floor)
    assert set(Ticket.objects.values_list("status", flat=True)) == {"void"}
    assert not payouts_selectors.play_over(satellite) and payouts_selectors.seat_winners(satellite) == []
    assert AuditEvent.objects.filter(tournament=satellite, type="ticket.voided").count() == 1
    busts.bust_entry(entry(satellite, last.number), actor=floor)
    assert Ticket.objects.filter(status="issued").count() == 2 and Ticket.objects.count() == 4


def test_the_desk_registers_a_ticket_into_the_target_with_the_id_checked_and_no_cash(satellite, main_event, floor, cashier, director):
    bust_down_to(floor, satellite, 2)
    tk = Ticket.objects.order_by("number").first()
    refused("id_check_missing", tickets.register_with_ticket, tk, actor=cashier, document=None)
    document = id_doc(f"EA{tk.won_by.number - 1:07d}")
    entry_in_main = tickets.register_with_ticket(tk, actor=cashier, document=document)
    tk.refresh_from_db()
    assert (tk.status, tk.used_entry, entry_in_main.player_id) == ("used", entry_in_main, tk.holder_id)
    purchase = entry_in_main.purchases.get()
    assert (purchase.paid_with, purchase.amount, purchase.fee) == (Purchase.PaidWith.TICKET, 10_000, 1_500)
    assert ("Paid with", "Satellite ticket") in receipts.receipt_lines(purchase)
    assert tournament_stats(main_event)["prize_pool"] == 10_000  # the pool counts the ticket as a paid buy-in
    money = reconciliation.reconciliation(main_event)
    assert (money["cash_in"], money["tickets_in"], money["cage"], money["balance"]) == (0, SEAT, 0, 0)
    refused("ticket_used", tickets.register_with_ticket, tk, actor=cashier, document=document)
    # A used ticket holds the satellite's places: the correction waits for the target's entry to be voided.
    last = Entry.objects.get(tournament=satellite, finish_place=3)
    refused("ticket_used", busts.undo_bust, last, actor=floor)
    tournament_services.void_purchase(purchase, actor=cashier, reason="Registered by mistake")
    tk.refresh_from_db()
    purchase.refresh_from_db()
    assert (tk.status, tk.used_entry, purchase.refund_amount) == ("issued", None, 0)  # the ticket back, no cash out
    assert AuditEvent.objects.filter(tournament=main_event, type="ticket.returned").exists()
    busts.undo_bust(last, actor=floor)
    assert not Ticket.objects.filter(status__in=["issued", "used"]).exists()


def test_the_satellites_books_count_the_seats_as_prizes_given_in_tickets(satellite, floor, director):
    bust_down_to(floor, satellite, 2)
    tournament_services.set_registration_closed(satellite, actor=director, closed=True)
    money = reconciliation.reconciliation(satellite)
    assert (money["cash_in"], money["pool"], money["seats_out"], money["prizes_owed"], money["balance"]) == (
        36_000,
        30_000,
        2 * SEAT,
        7_000,
        0,
    )


def test_a_ticket_passes_to_another_player_only_where_the_house_allows_it(satellite, floor, director, cashier, player):
    bust_down_to(floor, satellite, 2)
    tk = Ticket.objects.order_by("number").first()
    refused("not_transferable", tickets.transfer_ticket, tk, actor=director, player=player, reason="Sold to a friend")
    tickets.set_satellite(satellite, actor=director, data={"transferable": True})
    refused("reason_missing", tickets.transfer_ticket, tk, actor=director, player=player, reason=" ")
    refused("forbidden", tickets.transfer_ticket, tk, actor=cashier, player=player, reason="Sold")
    tickets.transfer_ticket(tk, actor=director, player=player, reason="Sold to a friend")
    tk.refresh_from_db()
    assert tk.holder == player
    event = AuditEvent.objects.get(tournament=satellite, type="ticket.transferred")
    assert (event.payload["to"], event.payload["reason"]) == (player.display_name, "Sold to a friend")
    made = tickets.register_with_ticket(tk, actor=cashier, document=id_doc("ZZ9876543"))
    assert made.player == player
    # The players' results pages: the winner's ticket passed on, the holder's used for his entry.
    winner = player_results(tk.won_by.player)["tickets"]
    assert [(row["number"], row["held"], row["holder_name"]) for row in winner] == [(1, False, player.display_name)]
    held = player_results(player)["tickets"]
    assert [(row["target_name"], row["status"], row["used_entry"]) for row in held] == [("Main Event", "used", made.number)]


def test_the_settings_refuse_a_target_that_cannot_take_the_seats(director, template, satellite, main_event, floor):
    other = setup.create_tournament(tournament_data(name="Koruna Cup", currency="CZK"), actor=director, template=template)
    refused("target_currency", tickets.set_satellite, satellite, actor=director, data={"target": other.pk})
    refused("target_itself", tickets.set_satellite, satellite, actor=director, data={"target": satellite.pk})
    refused("target_unknown", tickets.set_satellite, satellite, actor=director, data={"target": 999_999})
    refused("target_circle", tickets.set_satellite, main_event, actor=director, data={"target": satellite.pk})
    refused("invalid", tickets.set_satellite, satellite, actor=director, data={"leftover": "the house"})
    refused("invalid", tickets.set_satellite, satellite, actor=director, data={"seat": "half"})
    refused("unknown_setting", tickets.set_satellite, satellite, actor=director, data={"seats": 5})
    refused("satellite", payouts_services.edit_structure, satellite, actor=director, rows=[[1, 1, 30_000]])
    bust_down_to(floor, satellite, 2)
    refused("tickets_issued", tickets.set_satellite, satellite, actor=director, data={"leftover": "seat_winners"})
    refused("tickets_issued", tickets.remove_satellite, satellite, actor=director)
    # Every refusal changed nothing: the satellite is the one set up, for the Main Event, its cash to the next place.
    assert Satellite.objects.filter(tournament=satellite).values_list("target", "leftover", "seat").get() == (
        main_event.pk,
        "next_place",
        "entry",
    )
    assert not AuditEvent.objects.filter(tournament__in=[satellite, main_event], type="satellite.removed").exists()


def test_the_seat_winners_share_the_cash_when_the_house_says_so(satellite, director, floor):
    tickets.set_satellite(satellite, actor=director, data={"leftover": "seat_winners"})
    assert payouts_selectors.payout_state(satellite)["prizes"] == [3_500, 3_500]
    bust_down_to(floor, satellite, 2)
    assert sorted(payouts_selectors.prizes_won(satellite).values(), reverse=True)[:3] == [3_500, 3_500, 0]


def test_players_out_in_the_hand_that_stops_play_take_the_last_seat_by_the_tie_rules(satellite, director, dealer, floor):
    bust_down_to(floor, satellite, 3)
    handforhand.start_hand_for_hand(satellite, actor=director)  # the seat bubble
    for n in sorted(seated(satellite)):
        hands.start_hand(table(satellite, n), actor=dealer)
    big, small, other = sorted(Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).values_list("number", flat=True))
    busts.bust_entry(entry(satellite, big), actor=floor, stack=8_000)  # two left: play stops, for now
    assert sorted(Ticket.objects.filter(status="issued").values_list("won_by__number", flat=True)) == [small, other]
    # The same hand: a second player out, with fewer chips at the start of it. The bigger stack finishes higher
    # and takes the last seat; the ticket issued a moment ago to the smaller one is voided.
    busts.bust_entry(entry(satellite, small), actor=floor, stack=3_000)
    assert (entry(satellite, big).finish_place, entry(satellite, small).finish_place) == (2, 3)
    assert payouts_selectors.seat_winners(satellite) == sorted([big, other])
    assert sorted(Ticket.objects.filter(status="issued").values_list("won_by__number", flat=True)) == sorted([big, other])
    # The hand reported done at every table, hand-for-hand ends with play: no next hand is dealt, no bust is taken.
    for n in sorted(seated(satellite)):
        handforhand.hand_done(table(satellite, n), actor=dealer)
    assert HandForHand.objects.get(tournament=satellite).ended_at is not None
    assert Tournament.objects.get(pk=satellite.pk).status == Tournament.Status.FINISHED
    for n in sorted(seated(satellite)):
        refused("play_over", hands.start_hand, table(satellite, n), actor=dealer)
    refused("play_stopped", busts.bust_entry, entry(satellite, other), actor=floor, stack=1_000)


def test_a_seat_worth_the_buy_in_alone_makes_more_seats_and_its_ticket_enters_with_the_fee_waived(
    satellite, main_event, director, floor, cashier, template
):
    # The house waives the Main Event's fee for a ticket: a pool of 30,000 is three seats of its 10,000 buy-in.
    tickets.set_satellite(satellite, actor=director, data={"seat": "buy_in"})
    state = payouts_selectors.payout_state(satellite)["satellite"]
    assert (state["seats"], state["seat_value"], state["seat"], state["cash"], state["stops_at"]) == (3, 10_000, "buy_in", 0, 3)
    changed = AuditEvent.objects.filter(tournament=satellite, type="satellite.set").latest("pk").payload
    assert (changed["before"]["seat"], changed["after"]["seat"]) == ("entry", "buy_in")
    bust_down_to(floor, satellite, 3)
    assert [(tk.value, tk.status) for tk in Ticket.objects.order_by("number")] == [(10_000, "issued")] * 3
    refused("tickets_issued", tickets.set_satellite, satellite, actor=director, data={"seat": "entry"})
    tk = Ticket.objects.order_by("number").first()
    made = tickets.register_with_ticket(tk, actor=cashier, document=id_doc(f"EA{tk.won_by.number - 1:07d}"))
    purchase = made.purchases.get()
    assert (purchase.paid_with, purchase.amount, purchase.fee) == (Purchase.PaidWith.TICKET, 10_000, 0)
    assert tournament_stats(main_event)["prize_pool"] == 10_000
    money = reconciliation.reconciliation(main_event)
    assert (money["cash_in"], money["tickets_in"], money["balance"]) == (0, 10_000, 0)
    tournament_services.set_registration_closed(satellite, actor=director, closed=True)
    money = reconciliation.reconciliation(satellite)
    assert (money["pool"], money["seats_out"], money["prizes_owed"], money["balance"]) == (30_000, 30_000, 0, 0)
