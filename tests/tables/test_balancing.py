"""Balancing and breaking (tables/balancing.py) as TDA scenarios."""
from tables.balancing import (
    DONOR_BREAK_ORDER,
    Move,
    NeedButton,
    Settings,
    TableState,
    balance_move,
    halted,
    table_to_break,
)
from tables.positions import Positions


def table(number, occupied, last=None, seats=9, break_order=None, **kw):
    return TableState(number, seats, frozenset(occupied), -number if break_order is None else break_order, last, **kw)


def test_balanced_tables_need_no_move():
    tables = [table(1, range(1, 9), Positions(1, 2, 3)), table(2, range(1, 8), Positions(1, 2, 3))]
    assert balance_move(tables) is None


def test_the_donors_next_big_blind_moves_to_the_seat_due_the_big_blind():
    donor = table(1, range(1, 10), Positions(4, 5, 6))  # next hand's big blind: seat 7
    short = table(2, [1, 2, 3, 5, 6, 7, 9], Positions(1, 2, 3))  # seat 4 open right after the big blind
    assert balance_move([donor, short]) == Move(1, 7, 2, 4, "big_blind")


def test_the_mover_never_takes_the_small_blind():
    donor = table(1, range(1, 10), Positions(1, 2, 3))
    # Seat 3 had the big blind and busted: it is the next small blind. Seat 8 is the only other open seat.
    short = table(2, [1, 2, 4, 5, 6, 7, 9], Positions(1, 2, 3))
    move = balance_move([donor, short])
    assert (move.to_seat, move.position) == (8, "in_play")


def test_only_a_seat_between_button_and_small_blind_open_the_mover_waits_for_the_button():
    donor = table(1, range(1, 10), Positions(1, 2, 3))
    # Next hand at table 2: button 2, small blind 4, big blind 5; seat 3 (between them) is the only
    # open seat, seat 8 is held for a player already on the way.
    short = table(2, [1, 2, 4, 5, 6, 7, 9], Positions(1, 2, 4), reserved=frozenset({8}))
    move = balance_move([donor, short], Settings(threshold=1))
    assert (move.to_table, move.to_seat, move.position) == (2, 3, "wait_for_button")


def test_unknown_positions_ask_the_floor_for_the_button():
    assert balance_move([table(1, range(1, 10)), table(2, range(1, 7), Positions(1, 2, 3))]) == NeedButton(1)
    assert balance_move([table(1, range(1, 10), Positions(1, 2, 3)), table(2, range(1, 7))]) == NeedButton(2)


def test_donor_by_break_order_and_the_house_procedure():
    a = table(1, range(1, 10), Positions(1, 2, 3), break_order=2)
    b = table(2, range(1, 10), Positions(1, 2, 3), break_order=1)
    short = table(3, range(1, 8), Positions(1, 2, 3), break_order=3)
    assert balance_move([a, b, short]).from_table == 2  # default: ties go to the table that breaks first
    assert balance_move([a, b, short], Settings(donor=DONOR_BREAK_ORDER)).from_table == 1


def test_halt_three_short_of_the_fullest():
    tables = [table(1, range(1, 10)), table(2, range(1, 7)), table(3, range(1, 8))]
    assert halted(tables) == [2]
    assert halted(tables, Settings(halt_short_by=2)) == [2, 3]


def test_a_table_breaks_when_everyone_fits_at_one_table_fewer():
    tables = [table(1, range(1, 9), break_order=1), table(2, range(1, 9), break_order=2), table(3, range(1, 3), break_order=3)]
    assert table_to_break(tables) == 1  # 18 players fit at two tables of nine: the first in break order breaks
    tables[2] = table(3, range(1, 4), break_order=3)
    assert table_to_break(tables) is None  # 19 players do not
