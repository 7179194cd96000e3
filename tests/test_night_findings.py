"""Holes between the parts, found by playing whole nights (tests/test_whole_night.py finds this
kind): each fails on the code before its fix."""

from __future__ import annotations

from datetime import date

import pytest

from payouts.models import Deal
from payouts.selectors import structure as pay_selectors
from payouts.services import structure as payouts
from tables.models import Move, Table
from tables.selectors import screens
from tables.selectors import state as tables_selectors
from tables.services import busts, draws, handforhand, hands, house_rules, moves, seats
from tables.services import setup as table_setup
from tests.helpers import id_doc, open_tables, refused, register
from tests.payouts.test_payments import finish, signature
from tests.tables.test_hand_for_hand import confirm_all
from tests.tables.test_moves import bust_at, seated, start
from tournament.models import Entry, Purchase
from tournament.services import registration


def places(tournament) -> dict[int, tuple[int, int]]:
    return {
        n: (p, low or p)
        for n, p, low in Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED).values_list(
            "number", "finish_place", "finish_place_low"
        )
    }


def test_a_late_entry_after_a_tie_moves_both_ends_of_the_tied_places(director, cashier, floor, tournament):
    start(director, cashier, tournament, 12, table_numbers=(1, 2))
    table = Table.objects.get(tournament=tournament, number=1)
    hands.start_hand(table, actor=floor)
    a, b = sorted(seated(tournament)[1].values())[:2]
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=a), actor=floor, stack=5_000)
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=b), actor=floor, stack=5_000)
    assert places(tournament) == {a: (11, 12), b: (11, 12)}
    player = registration.create_player(actor=cashier, first_name="Late", last_name="Comer", date_of_birth=date(1990, 1, 1))
    registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("LATE0009"))
    assert places(tournament) == {a: (12, 13), b: (12, 13)}  # the tie spanned 12-12 before the fix


@pytest.fixture
def dealt(director, cashier, floor, tournament):
    """Eight entries, four paid, three left who make an ICM deal and play on."""
    entries = finish(director, cashier, floor, tournament)
    left = entries[5:]
    deal = payouts.propose_deal(
        tournament,
        actor=floor,
        data={"kind": "icm", "stacks": {str(e.number): c for e, c in zip(left, (50_000, 30_000, 20_000), strict=True)}},
    )
    payouts.approve_deal(deal, actor=director)
    return entries


def test_a_deal_stands_only_on_the_players_who_made_it(director, cashier, floor, tournament, dealt):
    before = pay_selectors.payout_state(tournament)["prizes"]
    refused("deal_stands", busts.undo_bust, dealt[4], actor=floor)  # out before the deal: that bust stands
    registration.set_registration_closed(tournament, actor=director, closed=False)
    player = registration.create_player(actor=cashier, first_name="Late", last_name="Comer", date_of_birth=date(1990, 1, 1))
    refused("deal_stands", registration.register_entry, tournament, actor=cashier, player=player, document=id_doc("LATE0010"))
    buy_in = dealt[6].purchases.get(kind=Purchase.Kind.BUY_IN)
    refused("deal_stands", registration.void_purchase, buy_in, actor=director, reason="wrong player")
    assert pay_selectors.payout_state(tournament)["prizes"] == before
    busts.bust_entry(dealt[5], actor=floor)
    busts.undo_bust(dealt[5], actor=floor)  # a player of the deal busted by mistake comes back


def test_a_deal_that_stopped_play_fixes_the_places_whatever_order_the_floor_clears_the_map(director, floor, cashier, tournament):
    entries = finish(director, cashier, floor, tournament)
    left = entries[5:]
    deal = payouts.propose_deal(
        tournament,
        actor=floor,
        data={
            "kind": "chip_chop",
            "mode": "stop",
            "stacks": {str(left[0].number): 20_000, str(left[1].number): 50_000, str(left[2].number): 30_000},
        },
    )
    payouts.approve_deal(deal, actor=director)
    fixed = {entry: (place, low) for entry, place, low, _amount in Deal.objects.get(pk=deal.pk).finishes}
    for entry in (left[1], left[0], left[2]):  # the chip leader cleared first
        busts.bust_entry(Entry.objects.get(pk=entry.pk), actor=floor)
    assert {n: pl for n, pl in places(tournament).items() if n in fixed} == fixed
    busts.undo_bust(Entry.objects.get(pk=left[0].pk), actor=floor)
    assert {n: pl for n, pl in places(tournament).items() if n in fixed} == {n: fixed[n] for n in fixed if n != left[0].number}


def test_a_cancelled_slip_that_leaves_the_tables_out_of_balance_tells_the_floor(director, cashier, floor, tournament):
    start(director, cashier, tournament, 20, table_numbers=(1, 2, 3))  # 7/7/6
    short = min(seated(tournament), key=lambda n: (len(seated(tournament)[n]), n))
    bust_at(floor, tournament, short)
    (move,) = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING)
    moves.cancel_move(tournament, actor=floor, number=move.number, reason="player in the bathroom")
    notice = screens.balancing_status(tournament)["notice"]
    assert notice is not None and f"Slip {move.number} is cancelled" in notice["message"]
    moves.balance_now(tournament, actor=floor)
    confirm_all(floor, tournament)
    assert screens.balancing_status(tournament)["notice"] is None


def test_a_tighter_threshold_balances_the_room_at_once(director, cashier, floor, tournament):
    start(director, cashier, tournament, 22, table_numbers=(1, 2, 3))  # 8/7/7
    house_rules.set_house_rules(tournament, actor=director, data={"balance_threshold": 3, "halt_short_by": 4})
    bust_at(floor, tournament, min(seated(tournament), key=lambda n: (len(seated(tournament)[n]), n)))
    assert not Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()  # 8/7/6: two apart, within 3
    house_rules.set_house_rules(tournament, actor=director, data={"balance_threshold": 2, "halt_short_by": 3})
    assert Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()


def test_busts_of_one_hand_entered_with_others_between_still_go_by_their_stacks(director, cashier, floor, tournament):
    """Two players out in one hand at table 1, the floor entering a bust at table 2 between them: the one who
    started the hand with more chips finishes above the other, and the bust at table 2 (after that hand)
    finishes above both."""
    start(director, cashier, tournament, 18, table_numbers=(1, 2))
    hands.start_hand(Table.objects.get(tournament=tournament, number=1), actor=floor)
    big, small = sorted(seated(tournament)[1].values())[:2]
    other = min(seated(tournament)[2].values())
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=big), actor=floor, stack=30_000)
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=other), actor=floor, stack=1_000)
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=small), actor=floor, stack=2_000)
    assert places(tournament) == {small: (18, 18), big: (17, 17), other: (16, 16)}
    busts.undo_bust(Entry.objects.get(tournament=tournament, number=big), actor=floor)
    assert places(tournament) == {small: (18, 18), other: (17, 17)}


def test_undoing_the_start_hand_for_hand_waited_for_calls_the_next_hand(director, cashier, dealer, floor, tournament):
    start(director, cashier, tournament, 18, table_numbers=(1, 2))
    table = Table.objects.get(tournament=tournament, number=1)
    hands.start_hand(table, actor=dealer)  # a mistaken press just before hand-for-hand is announced
    handforhand.start_hand_for_hand(tournament, actor=director)
    assert not screens.hand_for_hand_status(tournament)["called"]
    hands.undo_hand_start(table, actor=dealer)
    status = screens.hand_for_hand_status(tournament)
    assert status["called"] and status["tables"] == [1, 2]


def test_a_paid_prize_keeps_its_player_out_until_the_payment_is_voided(director, cashier, floor, tournament):
    entries = finish(director, cashier, floor, tournament)
    fourth = Entry.objects.get(pk=entries[4].pk)
    payment = payouts.pay_prize(fourth, actor=cashier, document=id_doc("EA0000004"), signature=signature())
    refused("prize_paid", busts.undo_bust, fourth, actor=floor)
    payouts.void_payment(payment, actor=cashier, reason="paid in error")
    busts.undo_bust(fourth, actor=floor)
    fourth.refresh_from_db()
    assert fourth.status == Entry.Status.ACTIVE


def test_a_bust_after_a_deal_never_shares_a_hand_with_a_player_out_before_it(director, cashier, floor, tournament):
    """No hand signal between the last bust before the deal and the first after it: still, the players of the
    deal finish in the deal's places, never below one who was out before it."""
    entries = finish(director, cashier, floor, tournament)
    left = [Entry.objects.get(pk=e.pk) for e in entries[5:]]
    hands.start_hand(Table.objects.get(tournament=tournament, number=1), actor=floor)
    busts.undo_bust(entries[4], actor=floor)
    busts.bust_entry(Entry.objects.get(pk=entries[4].pk), actor=floor, stack=90_000)  # 4th, with a stack, no hand signal
    deal = payouts.propose_deal(
        tournament,
        actor=floor,
        data={"kind": "icm", "stacks": {str(e.number): c for e, c in zip(left, (50_000, 30_000, 20_000), strict=True)}},
    )
    payouts.approve_deal(deal, actor=director)
    busts.bust_entry(left[0], actor=floor, stack=1_000)
    assert places(tournament)[left[0].number] == (3, 3) and places(tournament)[entries[4].number] == (4, 4)


def test_a_button_drawn_where_a_move_waited_for_it_makes_the_move(director, cashier, floor, tournament):
    """Three tables whose buttons nobody drew: busts call for a move, which waits for the buttons of the two
    tables it is between; once they are drawn (not only entered by hand), the move follows."""
    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 21)
    draws.draw_start(tournament, actor=director)  # 7/7/7, no button drawn
    for number in sorted(seated(tournament)[1].values())[:2]:
        busts.bust_entry(Entry.objects.get(tournament=tournament, number=number), actor=floor)
    needed = screens.balancing_status(tournament)["need_button"]
    assert 1 in needed and len(needed) == 2
    assert not Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()
    for number in needed:
        seats.draw_button(Table.objects.get(tournament=tournament, number=number), actor=director)
    assert Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()
    confirm_all(floor, tournament)
    counts = sorted(len(s) for s in seated(tournament).values())
    assert counts[-1] - counts[0] <= 1, counts


def test_a_waiting_entry_seated_at_a_spare_table_gets_players_moved_to_it(director, cashier, floor, tournament):
    from django.utils import timezone

    from tables.models import Seat

    start(director, cashier, tournament, 18, table_numbers=(1, 2))  # 9/9: full
    table_setup.open_table(tournament, actor=director, number=3, seats=9)
    waiting = Entry.objects.get(tournament=tournament, number=min(seated(tournament)[1].values()))
    Seat.objects.filter(entry=waiting, ended_at__isnull=True).update(ended_at=timezone.now(), end_reason=Seat.End.CORRECTION)
    player = registration.create_player(actor=cashier, first_name="Late", last_name="Comer", date_of_birth=date(1990, 1, 1))
    registration.register_entry(
        tournament, actor=cashier, player=player, document=id_doc("LATE0030")
    )  # takes the seat left open at table 1
    seats.seat_waiting_entries(tournament, actor=floor)  # the only open seats are at table 3
    assert seated(tournament)[3] == {next(iter(seated(tournament)[3])): waiting.number}
    assert Move.objects.filter(tournament=tournament, status=Move.Status.PENDING, to_table__number=3).exists()


def test_a_redraw_that_breaks_the_table_hand_for_hand_waited_for_calls_the_next_hand(director, cashier, dealer, floor, tournament):
    start(director, cashier, tournament, 11, table_numbers=(1, 2))  # 6/5 at nine-seat tables
    hands.start_hand(Table.objects.get(tournament=tournament, number=2), actor=dealer)  # in play when hand-for-hand starts
    handforhand.start_hand_for_hand(tournament, actor=director)
    assert not screens.hand_for_hand_status(tournament)["called"]
    for number in sorted(seated(tournament)[1].values())[:2]:
        busts.bust_entry(Entry.objects.get(tournament=tournament, number=number), actor=floor, stack=1_000 * number)
    # Nine left: the final table is due, but table 2 is still playing its hand: the redraw waits for it.
    assert len(seated(tournament)) == 2 and tables_selectors.balancing_notice(tournament)["reason"] == "redraw_waits"
    handforhand.hand_done(Table.objects.get(tournament=tournament, number=2), actor=dealer)
    assert len(seated(tournament)) == 1  # redrawn: table 2 is gone, and hand-for-hand calls its first hand there
    status = screens.hand_for_hand_status(tournament)
    assert status["called"] and len(status["tables"]) == 1 and status["hand"] == 1


def test_the_payout_structure_stays_as_a_deal_made_it(director, cashier, floor, tournament):
    """Found by an explore run of the night machine: after a deal that stopped play at two players, a plan
    paying one more place gave third place a prize on top of the deal's, which had shared the whole pool:
    the prizes came to 108,000 of a 90,000 pool."""
    entries = finish(director, cashier, floor, tournament)
    left = entries[5:]
    deal = payouts.propose_deal(
        tournament,
        actor=floor,
        data={
            "kind": "chip_chop",
            "mode": "stop",
            "stacks": {str(left[0].number): 20_000, str(left[1].number): 50_000, str(left[2].number): 30_000},
        },
    )
    payouts.approve_deal(deal, actor=director)
    state = pay_selectors.payout_state(tournament)
    refused("structure_fixed_by_deal", payouts.set_payout_plan, tournament, actor=director, data={"share_paid_bp": 7500})
    refused("structure_fixed_by_deal", payouts.edit_structure, tournament, actor=director, rows=[[1, 1, state["pool"]]])
    after = pay_selectors.payout_state(tournament)
    assert after["prizes"] == state["prizes"] and sum(after["prizes"]) == after["pool"]


def test_the_payout_structure_stays_while_a_prize_paid_from_it_stands(director, cashier, floor, tournament):
    entries = finish(director, cashier, floor, tournament)
    payment = payouts.pay_prize(Entry.objects.get(pk=entries[4].pk), actor=cashier, document=id_doc("EA0000004"), signature=signature())
    refused("structure_fixed_by_payment", payouts.set_payout_plan, tournament, actor=director, data={"share_paid_bp": 2500})
    payouts.void_payment(payment, actor=cashier, reason="paid in error")
    plan = payouts.set_payout_plan(tournament, actor=director, data={"share_paid_bp": 2500})  # nothing paid: the director may again
    assert plan.share_paid_bp == 2500


def test_a_late_entry_counts_the_players_on_their_way_and_those_leaving(director, cashier, floor, tournament):
    """Found by an explore run of the night machine: at 5/4 with a slip bringing a player from table 1 to
    table 2, a late entry drew table 2 (both counted 5, the leaving player still at table 1); the slip then
    left 4/6, out of balance with no slip and no notice. The draw counts players as balancing does."""
    open_tables(director, tournament, [1, 2, 3, 4], seats=6)
    register(cashier, tournament, 22)
    draws.draw_start(tournament, actor=director)  # 6/6/5/5
    for number in range(1, 5):
        draws.draw_button(Table.objects.get(tournament=tournament, number=number), actor=director)
    house_rules.set_house_rules(tournament, actor=director, data={"balance_threshold": 1})
    full = [n for n, s in seated(tournament).items() if len(s) == 6]
    short = next(n for n, s in seated(tournament).items() if len(s) == 5)
    bust_at(floor, tournament, short, count=2)  # 6/6/5/3: two players are to move to the short table
    pending = list(Move.objects.filter(tournament=tournament, status=Move.Status.PENDING))
    assert len(pending) == 2 and {m.to_table.number for m in pending} == {short}
    room, _tables = draws.room_of(tournament, list(Table.objects.filter(tournament=tournament, in_play=True)))
    assert room.players == {n: 5 for n in range(1, 5)}  # seated less leaving, plus arriving: 5 everywhere
    donor = pending[0].from_table.number
    stays = next(n for n in seated(tournament)[donor].values() if n not in {m.entry.number for m in pending})
    registration.void_purchase(
        Entry.objects.get(tournament=tournament, number=stays).purchases.get(kind=Purchase.Kind.BUY_IN),
        actor=director,
        reason="wrong player",
    )  # the donor really keeps 4
    player = registration.create_player(actor=cashier, first_name="Late", last_name="Comer", date_of_birth=date(1990, 1, 1))
    late = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("LATE0030"))
    assert late.number in seated(tournament)[donor].values()  # the table that really has the fewest
    confirm_all(floor, tournament)
    counts = sorted(len(s) for s in seated(tournament).values())
    assert counts[-1] - counts[0] <= 1 and full, counts


def test_a_table_left_with_one_player_is_not_asked_for_its_button(director, cashier, floor, tournament):
    """Found by an explore run of the night machine: a spare table filled by late entries was asked for its
    button, then busts left one player there, and the map still asked for a button nobody can enter."""
    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 21)
    draws.draw_start(tournament, actor=director)  # 7/7/7, no button drawn
    first = sorted(seated(tournament)[1].values())
    for number in first[:2]:
        busts.bust_entry(Entry.objects.get(tournament=tournament, number=number), actor=floor)
    assert 1 in screens.balancing_status(tournament)["need_button"]
    for number in first[2:6]:  # table 1 down to one player, its button never entered
        busts.bust_entry(Entry.objects.get(tournament=tournament, number=number), actor=floor)
        status = screens.balancing_status(tournament)
        for table, players in seated(tournament).items():
            assert table not in status["need_button"] or len(players) >= 2, (table, players, status["need_button"])


def test_a_table_that_breaks_while_players_are_on_their_way_to_it_sends_them_on(director, cashier, floor, tournament):
    """Found by an explore run of the night machine: with table 5 breaking, busts made table 4 break too while
    players of table 5 were on their way to it. Their slips were cancelled, so table 5 played again and broke
    again, into table 4, which broke again: Balance went back and forth until its step limit and left a
    player alone at a table with no slip. The players on their way are drawn again with the breaking table's
    own, from where they sit, and a breaking table stays breaking."""
    open_tables(director, tournament, [1, 2, 3, 4, 5], seats=6)
    register(cashier, tournament, 27)
    draws.draw_start(tournament, actor=director)  # 6/6/5/5/5
    for number in range(1, 6):
        draws.draw_button(Table.objects.get(tournament=tournament, number=number), actor=director)
    house_rules.set_house_rules(tournament, actor=director, data={"balance_threshold": 5, "halt_short_by": 5})  # breaks only
    first, second = Table.objects.filter(tournament=tournament).order_by("break_order", "number")[:2]
    playing = [n for n in range(1, 6) if n not in (first.number, second.number)]
    for _ in range(3):  # 24 left: the first table breaks, its players drawn first to the second, left with 3
        bust_at(floor, tournament, second.number if len(seated(tournament)[second.number]) > 3 else first.number)
    pending = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING)
    assert pending.filter(kind=Move.Kind.BREAK, from_table=first, to_table=second).exists()
    for number in playing * 2:
        bust_at(floor, tournament, number)  # 18 left: the second breaks while they are on their way to it
        breaking = set(pending.filter(kind=Move.Kind.BREAK).values_list("from_table__number", flat=True))
        assert not pending.filter(to_table__number__in=breaking).exists(), "a breaking table takes nobody in"
        assert pending.count() <= 12, "one slip per player on the move, not slips made back and forth"
        movers = set(pending.values_list("entry__number", flat=True))
        room = seated(tournament)
        assert all(set(room.get(n, {}).values()) <= movers for n in breaking), "everyone at a breaking table moves"
    assert breaking == {first.number, second.number}
    confirm_all(floor, tournament)
    assert sorted(len(s) for s in seated(tournament).values()) == [6, 6, 6]
    assert not Table.objects.filter(pk__in=(first.pk, second.pk), in_play=True).exists()


def test_an_undone_bust_that_broke_a_table_gives_the_break_back(director, cashier, floor, tournament):
    """a bust at table 1 breaks table 3, whose players' slips hold every open seat, the undone player's
    among them. Its undo was refused ("There are not enough open seats: open another table first") with table 3
    still there and its players still in their seats. The undo gives the break back: the slips are cancelled, table
    3 plays on as it sat, and the player is back in his seat."""
    start(director, cashier, tournament, 19, table_numbers=(1, 2, 3))  # 7/6/6 at nine-seat tables
    before = seated(tournament)
    breaking = Table.objects.filter(tournament=tournament).order_by("break_order", "number").first().number
    other = next(n for n in before if n != breaking)
    seat, number = min(before[other].items())
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=number), actor=floor)
    slips = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING, kind=Move.Kind.BREAK)
    assert set(slips.values_list("from_table__number", flat=True)) == {breaking} and slips.count() == len(before[breaking])
    assert seat in slips.filter(to_table__number=other).values_list("to_seat", flat=True)  # his seat is held for a mover
    busts.undo_bust(Entry.objects.get(tournament=tournament, number=number), actor=floor)
    assert not Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()
    assert seated(tournament) == before  # table 3 as it sat, and the player back in his seat
    assert Table.objects.get(tournament=tournament, number=breaking).in_play


def test_an_undone_bust_busted_again_after_the_final_table_redraw_goes_by_his_stack(director, cashier, floor, tournament):
    """a player busted at table 2 and undone, busted again at the final table in one hand with a
    bigger stack: they shared the places (his first bust's table was read as his table, as if the two had been
    out at different tables), where the bigger stack finishes higher."""
    start(director, cashier, tournament, 12, table_numbers=(1, 2))  # 6/6 at nine-seat tables
    kept = Table.objects.filter(tournament=tournament).order_by("-break_order", "-number").first().number
    gone = next(n for n in seated(tournament) if n != kept)
    undone = min(seated(tournament)[gone].values())
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=undone), actor=floor, stack=1_000)
    busts.undo_bust(Entry.objects.get(tournament=tournament, number=undone), actor=floor)
    for number in sorted(n for n in seated(tournament)[kept].values())[:3]:  # nine left: the final table is redrawn
        busts.bust_entry(Entry.objects.get(tournament=tournament, number=number), actor=floor)
    assert list(seated(tournament)) == [kept] and undone in seated(tournament)[kept].values()
    hands.start_hand(Table.objects.get(tournament=tournament, number=kept), actor=floor)
    bigger = next(n for n in sorted(seated(tournament)[kept].values()) if n != undone)
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=undone), actor=floor, stack=1_000)
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=bigger), actor=floor, stack=5_000)
    assert places(tournament)[bigger] == (8, 8) and places(tournament)[undone] == (9, 9)
