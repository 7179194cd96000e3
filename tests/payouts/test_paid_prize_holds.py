"""A paid prize holds what it was paid on (payouts/reactions.py): play that was over (the winner known, a satellite
at its seats) does not go on again under a player already paid, a paid place and amount do not move, and
registration does not reopen once a prize is paid, until the cashier voids that payment; a player out in a
hand-for-hand hand still played elsewhere is paid once it is over. Found by the satellite nights of the whole-night machine: an undone bust
let play go on with a seat winner's cash share paid."""

from __future__ import annotations

from payouts.models import Payment
from payouts.selectors import structure as payouts_selectors
from payouts.services import structure as payouts_services
from payouts.services import tickets
from tables.services import busts, handforhand, hands
from tests.helpers import id_doc, refused, table
from tests.payouts.conftest import bust_down_to
from tests.payouts.test_payments import signature
from tests.tables.test_hand_for_hand import bubble  # noqa: F401  (the fixture)
from tests.tables.test_moves import entry, seated
from tournament.models import AuditEvent, Entry, Tournament
from tournament.selectors.stats import registration_problem
from tournament.services import registration as tournament_services


def pay(cashier, entry: Entry):
    entry = Entry.objects.get(pk=entry.pk)
    return payouts_services.pay_prize(entry, actor=cashier, document=id_doc(f"EA{entry.number - 1:07d}"), signature=signature())


def test_a_paid_winner_keeps_play_over_until_the_payment_is_voided(director, cashier, floor, tournament, finished):
    busts.bust_entry(finished[5], actor=floor)
    busts.bust_entry(finished[6], actor=floor)
    assert payouts_selectors.play_over(tournament)
    paid = pay(cashier, finished[7])  # the winner, the last one playing
    events = AuditEvent.objects.filter(tournament=tournament).count()
    error = refused("prize_paid", busts.undo_bust, Entry.objects.get(pk=finished[6].pk), actor=floor)
    assert f"payout receipt {paid.number}" in str(error) and "#8" in str(error)
    # Nothing changed: the runner-up is out in second place, play is over, no event.
    runner_up = Entry.objects.get(pk=finished[6].pk)
    assert (runner_up.status, runner_up.finish_place) == (Entry.Status.BUSTED, 2) and payouts_selectors.play_over(tournament)
    assert AuditEvent.objects.filter(tournament=tournament).count() == events
    # The cashier voids the payment made in error: the bust is undone, and play goes on.
    payouts_services.void_payment(paid, actor=cashier, reason="The runner-up's bust was a mistake")
    busts.undo_bust(runner_up, actor=floor)
    assert not payouts_selectors.play_over(tournament)


def test_a_payment_keeps_registration_closed_until_it_is_voided(director, cashier, tournament, finished):
    paid = pay(cashier, finished[4])  # fourth place, out in the money
    events = AuditEvent.objects.filter(tournament=tournament).count()
    error = refused("prize_paid", tournament_services.set_registration_closed, tournament, actor=director, closed=False)
    assert f"payout receipt {paid.number}" in str(error)
    assert Tournament.objects.get(pk=tournament.pk).registration_closed
    assert AuditEvent.objects.filter(tournament=tournament).count() == events
    payouts_services.void_payment(paid, actor=cashier, reason="Paid before the places were checked")
    tournament_services.set_registration_closed(tournament, actor=director, closed=False)
    assert registration_problem(Tournament.objects.get(pk=tournament.pk)) is None


def test_the_first_payment_closes_a_registration_over_by_the_level_so_a_clock_set_back_does_not_open_it(
    director, cashier, tournament, finished
):
    Tournament.objects.filter(pk=tournament.pk).update(registration_closed=False, late_reg_until_level=2, current_level=3)
    t = Tournament.objects.get(pk=tournament.pk)
    assert registration_problem(t) == "late_registration_over"
    paid = pay(cashier, finished[4])
    t.refresh_from_db()
    assert t.registration_closed
    closed = AuditEvent.objects.filter(tournament=t, type="registration.closed").latest("seq")
    assert closed.payload == {"receipt": paid.number}
    Tournament.objects.filter(pk=t.pk).update(current_level=1)  # the clock set back to a level of late registration
    assert registration_problem(Tournament.objects.get(pk=t.pk)) == "closed"


def test_a_seat_winner_paid_his_cash_share_keeps_the_satellite_stopped(satellite, director, floor, cashier):
    tickets.set_satellite(satellite, actor=director, data={"leftover": "seat_winners"})
    bust_down_to(floor, satellite, 2)
    tournament_services.set_registration_closed(satellite, actor=director, closed=True)
    winner = Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).order_by("number").first()
    pay(cashier, winner)  # his share of the cash left over, 3,500
    third = Entry.objects.get(tournament=satellite, finish_place=3)
    refused("prize_paid", busts.undo_bust, third, actor=floor)
    assert payouts_selectors.play_over(satellite) and Entry.objects.get(pk=third.pk).status == Entry.Status.BUSTED
    assert sorted(payouts_selectors.seat_winners(satellite)) == sorted(
        Entry.objects.filter(tournament=satellite, status=Entry.Status.ACTIVE).values_list("number", flat=True)
    )


def test_a_paid_place_does_not_move_under_an_undone_bust_or_a_void(director, cashier, floor, tournament, finished):
    paid = pay(cashier, finished[4])  # fourth place: 11,200
    events = AuditEvent.objects.filter(tournament=tournament).count()
    # The fifth's bust undone would make the paid fourth fifth, out of the money.
    error = refused("prize_paid", busts.undo_bust, Entry.objects.get(pk=finished[3].pk), actor=floor)
    assert f"payout receipt {paid.number}" in str(error) and "place 4" in str(error)
    # A player still in, voided, would take his buy-in out of the pool the paid prize came from.
    purchase = Entry.objects.get(pk=finished[7].pk).purchases.get()
    refused("prize_paid", tournament_services.void_purchase, purchase, actor=cashier, reason="Registered twice")
    assert AuditEvent.objects.filter(tournament=tournament).count() == events
    assert Entry.objects.get(pk=finished[4].pk).finish_place == 4
    assert Entry.objects.get(pk=finished[7].pk).status == Entry.Status.ACTIVE
    assert payouts_selectors.prizes_won(tournament)[finished[4].number] == paid.amount
    # Once the payment is voided, the correction goes through.
    payouts_services.void_payment(paid, actor=cashier, reason="The fifth's bust was a mistake")
    busts.undo_bust(Entry.objects.get(pk=finished[3].pk), actor=floor)
    assert Entry.objects.get(pk=finished[4].pk).finish_place == 5


def test_a_player_out_in_a_hand_for_hand_hand_is_paid_once_every_table_has_reported_it(
    bubble,  # noqa: F811
    director,
    dealer,
    floor,  # noqa: F811
    cashier,
):
    t = bubble
    tournament_services.set_registration_closed(t, actor=director, closed=True)
    handforhand.start_hand_for_hand(t, actor=director)
    at = seated(t)
    a1, b1 = min(at[1].values()), min(at[2].values())
    for n in (1, 2):
        hands.start_hand(table(t, n), actor=dealer)
    busts.bust_entry(entry(t, a1), actor=floor, stack=9_000)  # the bubble: 28th, no prize alone
    busts.bust_entry(entry(t, b1), actor=floor, stack=4_000)  # the same hand at table 2: they tie for 27-28
    # The hand is still played at tables 3 and 4: another player out in it would share the place.
    error = refused("hand_not_over", pay, cashier, entry(t, b1))
    assert "hand-for-hand hand 1" in str(error) and not Payment.objects.exists()
    for n in (1, 2):
        handforhand.hand_done(table(t, n), actor=dealer)
    for n in (3, 4):
        handforhand.hand_done(table(t, n), actor=floor)
    paid = pay(cashier, entry(t, b1))
    assert (paid.place, paid.place_low, paid.amount) == (27, 28, payouts_selectors.prizes_won(t)[b1])


def test_a_player_out_in_a_hand_his_table_still_plays_is_paid_once_it_reports_the_hand(
    bubble,  # noqa: F811
    director,
    dealer,
    floor,  # noqa: F811
    cashier,
):
    t = bubble
    tournament_services.set_registration_closed(t, actor=director, closed=True)
    hands.start_hand(table(t, 1), actor=dealer)
    x, y = sorted(seated(t)[1].values())[:2]
    busts.bust_entry(entry(t, x), actor=floor, stack=3_000)  # the bubble: 28th
    busts.bust_entry(entry(t, y), actor=floor, stack=7_000)  # the same hand, more chips: 27th, in the money
    error = refused("hand_not_over", pay, cashier, entry(t, y))
    assert "table 1 is still playing" in str(error) and not Payment.objects.exists()
    handforhand.hand_done(table(t, 1), actor=dealer)
    paid = pay(cashier, entry(t, y))
    assert (paid.place, paid.place_low) == (27, 27)
