"""Hand-for-hand (TDA24 RP-8) and the "hand done" report, through the registration."""

import pytest

from clock.models import ClockState
from clock.selectors import clock as clock_selectors
from clock.services import clock
from tables.models import HandForHand, HouseRules, Move
from tables.selectors import screens
from tables.services import busts, handforhand, hands, house_rules, moves
from tests.conftest import pay_places
from tests.helpers import refused, table
from tests.tables.test_moves import check_invariants, entry, seated, start
from tournament.models import AuditEvent, Entry


def confirm_all(floor, tournament):
    for number in Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).values_list("number", flat=True):
        moves.confirm_move(tournament, actor=floor, number=number)


def remaining(tournament) -> float:
    return clock_selectors.clock_snapshot(tournament)["current"]["remaining"]


def play(dealer, tournament, numbers):
    for n in numbers:
        hands.start_hand(table(tournament, n), actor=dealer)
        handforhand.hand_done(table(tournament, n), actor=dealer)


@pytest.fixture
def bubble(director, cashier, floor, tournament):
    """28 players on four tables, 27 paid, the clock running (at_the_bubble)."""
    return at_the_bubble(director, cashier, floor, tournament)


def at_the_bubble(director, cashier, floor, tournament):
    """28 players on four tables (7 each), 27 paid: the next bust is the bubble."""
    start(director, cashier, tournament, 30)
    for n in (1, 2):
        busts.bust_entry(entry(tournament, min(seated(tournament)[n].values())), actor=floor)
        confirm_all(floor, tournament)
    pay_places(director, tournament, 27)
    clock.start_clock(tournament, actor=director)
    return tournament


def test_the_software_suggests_hand_for_hand_at_the_bubble(bubble, director):
    s = screens.hand_for_hand_status(bubble)
    assert s["players"] == 28 and s["suggested"] and not s["on"]
    handforhand.start_hand_for_hand(bubble, actor=director)
    assert not screens.hand_for_hand_status(bubble)["suggested"]


def test_a_hand_for_hand_hand_waits_for_every_table_and_takes_time_off_the_clock(bubble, director, dealer, floor):
    t = bubble
    hands.start_hand(table(t, 3), actor=dealer)  # a hand in play when hand-for-hand is announced
    handforhand.start_hand_for_hand(t, actor=director)
    assert ClockState.objects.get(tournament=t).status == ClockState.Status.PAUSED
    s = screens.hand_for_hand_status(t)
    assert s["on"] and not s["called"] and s["busy"] == [3]
    refused("h4h_wait", hands.start_hand, table(t, 1), actor=dealer)  # wait: table 3 is finishing its hand
    handforhand.hand_done(table(t, 3), actor=dealer)
    s = screens.hand_for_hand_status(t)
    assert s["called"] and s["hand"] == 1 and s["tables"] == [1, 2, 3, 4]
    before = remaining(t)

    hands.start_hand(table(t, 2), actor=dealer)
    hands.undo_hand_start(table(t, 2), actor=dealer)  # a mistaken press: table 2 may shuffle again
    hands.start_hand(table(t, 1), actor=dealer)
    refused("h4h_wait", hands.start_hand, table(t, 1), actor=dealer)  # one hand per table
    refused("h4h_not_started", handforhand.hand_done, table(t, 2), actor=dealer)  # a tablet reports a hand it started
    handforhand.hand_done(table(t, 1), actor=dealer)
    refused("h4h_wait", hands.start_hand, table(t, 1), actor=dealer)  # done: it waits for the others
    refused("h4h_reported", hands.undo_hand_start, table(t, 1), actor=dealer)
    play(dealer, t, [2, 3])
    assert screens.hand_for_hand_status(t)["waiting_for"] == [4]
    assert remaining(t) == pytest.approx(before, abs=0.01)  # the clock stands still meanwhile
    play(dealer, t, [4])
    s = screens.hand_for_hand_status(t)
    assert s["hand"] == 2 and s["called"] and s["seconds_taken"] == 120
    assert remaining(t) == pytest.approx(before - 120, abs=0.01)
    assert AuditEvent.objects.filter(tournament=t, type="h4h.hand_complete").count() == 1

    handforhand.stop_hand_for_hand(t, actor=director)
    assert ClockState.objects.get(tournament=t).status == ClockState.Status.RUNNING
    assert not HandForHand.objects.filter(tournament=t, ended_at__isnull=True).exists()
    hands.start_hand(table(t, 1), actor=dealer)  # normal play again
    hands.start_hand(table(t, 1), actor=dealer)


def test_busts_in_one_hand_for_hand_hand_tie_across_tables_and_go_by_stack_at_one_table(bubble, director, dealer, floor):
    t = bubble
    handforhand.start_hand_for_hand(t, actor=director)
    at = seated(t)
    a1, a2 = sorted(at[1].values())[:2]
    b1 = min(at[2].values())
    for n in (1, 2):
        hands.start_hand(table(t, n), actor=dealer)
    refused("stack_required", busts.bust_entry, entry(t, a1), actor=floor)
    refused("bad_stack", busts.bust_entry, entry(t, a1), actor=floor, stack="lots")
    busts.bust_entry(entry(t, a1), actor=floor, stack=9_000)
    busts.bust_entry(entry(t, b1), actor=floor, stack=50_000)
    busts.bust_entry(entry(t, a2), actor=floor, stack=4_000)
    # Three out with 28 left: places 26-28. a2 had fewer chips than a1 at table 1; b1, alone at
    # table 2, ties with a2 (each the smallest stack out at its table); a1 is next.
    places = {n: (entry(t, n).finish_place, entry(t, n).finish_place_low) for n in (a1, a2, b1)}
    assert places == {a2: (27, 28), b1: (27, 28), a1: (26, None)}
    assert Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count() == 25
    # 25 fit at three tables: a table breaks; the next hand waits for the slips.
    handforhand.hand_done(table(t, 1), actor=dealer)
    handforhand.hand_done(table(t, 2), actor=dealer)
    handforhand.hand_done(table(t, 3), actor=floor)  # the floor reports for a table
    handforhand.hand_done(table(t, 4), actor=floor)
    s = screens.hand_for_hand_status(t)
    assert not s["called"] and s["moves_pending"] > 0
    confirm_all(floor, t)
    check_invariants(t)
    s = screens.hand_for_hand_status(t)
    assert s["called"] and s["hand"] == 2 and len(s["tables"]) == 3
    # An undo of one of the tied busts: the others take the places that are left, by their stacks.
    busts.undo_bust(entry(t, b1), actor=floor)
    assert (entry(t, a2).finish_place, entry(t, a2).finish_place_low) == (28, None)
    assert (entry(t, a1).finish_place, entry(t, a1).finish_place_low) == (27, None)


def test_the_house_can_order_hand_for_hand_busts_by_stack(bubble, director, dealer, floor):
    t = bubble
    house_rules.set_house_rules(t, actor=director, data={"hand_for_hand_ties": HouseRules.Ties.STACK, "hand_for_hand_seconds": 0})
    handforhand.start_hand_for_hand(t, actor=director)
    before = remaining(t)
    a, b = min(seated(t)[1].values()), min(seated(t)[2].values())
    busts.bust_entry(entry(t, a), actor=floor, stack=9_000)
    busts.bust_entry(entry(t, b), actor=floor, stack=50_000)
    assert (entry(t, b).finish_place, entry(t, a).finish_place) == (27, 28)
    handforhand.hand_done(table(t, 1), actor=floor)
    handforhand.hand_done(table(t, 2), actor=floor)
    # 26 players fit in three tables: table 4 breaks before its hand (no new hand there), its players move on.
    refused("table_breaking", hands.start_hand, table(t, 4), actor=dealer)
    confirm_all(floor, t)
    play(dealer, t, [3])
    assert remaining(t) == pytest.approx(before, abs=0.01)  # 0 seconds: the clock only stands still


def test_same_hand_busts_at_one_table_outside_hand_for_hand(director, cashier, dealer, floor, tournament):
    start(director, cashier, tournament, 30)
    hands.start_hand(table(tournament, 1), actor=dealer)
    x, y, z = sorted(seated(tournament)[1].values())[:3]
    busts.bust_entry(entry(tournament, x), actor=floor, stack=3_000)
    busts.bust_entry(entry(tournament, y), actor=floor, stack=3_000)
    busts.bust_entry(entry(tournament, z), actor=floor, stack=7_000)
    assert (entry(tournament, z).finish_place, entry(tournament, z).finish_place_low) == (28, None)
    assert {(entry(tournament, n).finish_place, entry(tournament, n).finish_place_low) for n in (x, y)} == {(29, 30)}
    # A bust without a stack is placed by the order of the busts, as before.
    other = min(seated(tournament)[2].values())
    busts.bust_entry(entry(tournament, other), actor=floor)
    assert (entry(tournament, other).finish_place, entry(tournament, other).finish_place_low) == (27, None)


def test_hand_done_outside_hand_for_hand_and_who_may_do_what(director, cashier, dealer, floor, tournament):
    start(director, cashier, tournament, 20)
    refused("no_hand", handforhand.hand_done, table(tournament, 1), actor=dealer)
    hands.start_hand(table(tournament, 1), actor=dealer)
    assert table(tournament, 1).hand_in_progress
    refused("forbidden", handforhand.hand_done, table(tournament, 1), actor=cashier)
    handforhand.hand_done(table(tournament, 1), actor=dealer)
    assert not table(tournament, 1).hand_in_progress
    refused("forbidden", handforhand.start_hand_for_hand, tournament, actor=floor)
    refused("h4h_off", handforhand.stop_hand_for_hand, tournament, actor=director)
    handforhand.start_hand_for_hand(tournament, actor=director)  # the clock has not started: nothing to pause
    refused("h4h_on", handforhand.start_hand_for_hand, tournament, actor=director)
    assert ClockState.objects.filter(tournament=tournament, status=ClockState.Status.PAUSED).count() == 0
    handforhand.stop_hand_for_hand(tournament, actor=director)


def test_hand_for_hand_needs_tables_in_play(director, tournament):
    error = refused("h4h_no_tables", handforhand.start_hand_for_hand, tournament, actor=director)
    assert error.message  # the director is told why
    assert not HandForHand.objects.filter(tournament=tournament).exists()
    assert not AuditEvent.objects.filter(tournament=tournament, type__startswith="h4h.").exists()


def test_a_table_that_breaks_during_a_hand_for_hand_hand_is_not_waited_for(bubble, director, dealer, floor):
    t = bubble
    handforhand.start_hand_for_hand(t, actor=director)
    victim = min(seated(t)[1].values())
    busts.bust_entry(entry(t, victim), actor=floor, stack=2_000)  # 27 left: they fit at three tables
    breaking = Move.objects.filter(tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BREAK).first().from_table.number
    others = [n for n in (1, 2, 3, 4) if n != breaking]
    for n in others:
        handforhand.hand_done(table(t, n), actor=floor)
    assert screens.hand_for_hand_status(t)["waiting_for"] == [breaking]
    confirm_all(floor, t)  # the floor moves the players before the breaking table reported
    s = screens.hand_for_hand_status(t)
    assert s["hand"] == 2 and s["called"] and s["tables"] == others
    check_invariants(t)


def test_without_hand_signals_busts_are_placed_in_their_order(director, cashier, floor, tournament):
    start(director, cashier, tournament, 30)
    x, y = sorted(seated(tournament)[1].values())[:2]  # no hand was signalled at table 1
    busts.bust_entry(entry(tournament, x), actor=floor, stack=9_000)
    busts.bust_entry(entry(tournament, y), actor=floor, stack=3_000)
    assert (entry(tournament, x).finish_place, entry(tournament, y).finish_place) == (30, 29)
    assert entry(tournament, y).finish_place_low is None


def test_an_undone_hand_start_restores_whether_the_hand_before_was_done(director, cashier, dealer, tournament):
    start(director, cashier, tournament, 20)
    t1 = table(tournament, 1)
    hands.start_hand(t1, actor=dealer)
    handforhand.hand_done(table(tournament, 1), actor=dealer)
    hands.start_hand(table(tournament, 1), actor=dealer)  # a mistaken press
    hands.undo_hand_start(table(tournament, 1), actor=dealer)
    assert not table(tournament, 1).hand_in_progress  # the hand before was reported done
    hands.start_hand(table(tournament, 1), actor=dealer)
    hands.start_hand(table(tournament, 1), actor=dealer)
    hands.undo_hand_start(table(tournament, 1), actor=dealer)
    assert table(tournament, 1).hand_in_progress  # the hand before was never reported done


def test_a_void_moves_a_tie_up_one_place_whole(director, cashier, dealer, floor, tournament):
    from tournament.services import registration

    start(director, cashier, tournament, 30)
    hands.start_hand(table(tournament, 1), actor=dealer)
    x, y = sorted(seated(tournament)[1].values())[:2]
    busts.bust_entry(entry(tournament, x), actor=floor, stack=3_000)
    busts.bust_entry(entry(tournament, y), actor=floor, stack=3_000)
    assert {(entry(tournament, n).finish_place, entry(tournament, n).finish_place_low) for n in (x, y)} == {(29, 30)}
    playing = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    registration.void_purchase(playing.purchases.get(), actor=cashier, reason="registered twice")
    assert {(entry(tournament, n).finish_place, entry(tournament, n).finish_place_low) for n in (x, y)} == {(28, 29)}


def test_hand_for_hand_at_one_final_table_calls_every_hand_for_it(director, cashier, dealer, floor, tournament):
    """Six left at one table, five paid. Hand-for-hand used to wait for two tables
    that never came (tables: [], called: false), so no hand could be played."""
    start(director, cashier, tournament, 6, table_numbers=(1,))
    pay_places(director, tournament, 5)
    clock.start_clock(tournament, actor=director)
    s = screens.hand_for_hand_status(tournament)
    assert s["suggested"] and s["places_paid"] == 5 and s["players"] == 6
    handforhand.start_hand_for_hand(tournament, actor=director)
    s = screens.hand_for_hand_status(tournament)
    assert s["on"] and s["called"] and s["tables"] == [1] and s["hand"] == 1
    hands.start_hand(table(tournament, 1), actor=dealer)
    handforhand.hand_done(table(tournament, 1), actor=dealer)
    s = screens.hand_for_hand_status(tournament)
    assert s["called"] and s["hand"] == 2 and s["seconds_taken"] == 120
    hands.start_hand(table(tournament, 1), actor=dealer)
    low, high = sorted(seated(tournament)[1].values())[:2]
    busts.bust_entry(entry(tournament, low), actor=floor, stack=1_000)
    busts.bust_entry(entry(tournament, high), actor=floor, stack=5_000)
    assert (entry(tournament, high).finish_place, entry(tournament, low).finish_place) == (5, 6)
    handforhand.hand_done(table(tournament, 1), actor=dealer)
    s = screens.hand_for_hand_status(tournament)
    assert s["in_the_money"] and s["called"] and s["hand"] == 3  # the bubble burst: the director ends it
    handforhand.stop_hand_for_hand(tournament, actor=director)
    assert ClockState.objects.get(tournament=tournament).status == ClockState.Status.RUNNING
