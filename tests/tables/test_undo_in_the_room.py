"""An undone bust and a late entry in the room as it stands now: never a seat at a
table that breaks or has broken, never alone at a spare table while other tables have seats, and the
room balanced after it."""

from datetime import date

from tables.models import Move, Table
from tables.selectors import screens
from tables.services import busts, draws, moves
from tables.services import setup as table_setup
from tests.helpers import id_doc, open_tables, register
from tests.tables.test_hand_for_hand import confirm_all
from tests.tables.test_moves import bust_at, check_invariants, entry, seated, start
from tournament.models import Entry
from tournament.services import registration


def room_with_a_seat_to_spare(director, cashier, tournament) -> None:
    """28 players at 7/7/7/7, table 1 of ten seats: one bust breaks table 4 and leaves a seat open."""
    open_tables(director, tournament, [1], seats=10)
    open_tables(director, tournament, [2, 3, 4])
    register(cashier, tournament, 28)
    draws.draw_start(tournament, actor=director)
    for number in seated(tournament):
        draws.draw_button(Table.objects.get(tournament=tournament, number=number), actor=director)
    assert sorted(len(s) for s in seated(tournament).values()) == [7, 7, 7, 7]


def breaking_bust(floor, tournament) -> int:
    """Bust a player of table 4 so that table 4 breaks (the highest number breaks first); returns the entry."""
    (number,) = bust_at(floor, tournament, 4)
    assert Move.objects.filter(tournament=tournament, status=Move.Status.PENDING, kind=Move.Kind.BREAK).exists()
    return number


def test_undoing_the_bust_that_broke_a_table_seats_the_player_at_a_playing_table(director, cashier, floor, tournament):
    room_with_a_seat_to_spare(director, cashier, tournament)
    number = breaking_bust(floor, tournament)
    confirm_all(floor, tournament)
    assert not Table.objects.get(tournament=tournament, number=4).in_play
    busts.undo_bust(entry(tournament, number), actor=floor)
    where = {n: t for t, seats in seated(tournament).items() for n in seats.values()}
    assert where[number] in (1, 2, 3) and 4 not in seated(tournament)
    check_invariants(tournament)


def test_undoing_it_while_the_break_slips_are_pending_never_seats_at_the_breaking_table(director, cashier, floor, tournament):
    room_with_a_seat_to_spare(director, cashier, tournament)
    number = breaking_bust(floor, tournament)
    busts.undo_bust(entry(tournament, number), actor=floor)
    at_four = seated(tournament).get(4, {})
    assert number not in at_four.values()  # the breaking table takes nobody in
    confirm_all(floor, tournament)
    assert not Table.objects.get(tournament=tournament, number=4).in_play
    assert sum(len(s) for s in seated(tournament).values()) == 28
    check_invariants(tournament)


def test_undoing_it_when_the_others_are_full_stops_the_break(director, cashier, floor, tournament):
    start(director, cashier, tournament, 28)  # 7/7/7/7: one bust leaves 27, exactly the seats of three tables
    number = breaking_bust(floor, tournament)
    busts.undo_bust(entry(tournament, number), actor=floor)
    assert not Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()
    assert sorted(len(s) for s in seated(tournament).values()) == [7, 7, 7, 7]
    assert number in seated(tournament)[4].values()
    check_invariants(tournament)


def test_a_late_entry_never_sits_alone_at_a_spare_table(director, cashier, floor, tournament):
    start(director, cashier, tournament, 20, table_numbers=(1, 2, 3))  # 7/7/6
    table_setup.open_table(tournament, actor=director, number=4, seats=9)  # a spare table, empty
    player = registration.create_player(actor=cashier, first_name="Late", last_name="Comer", date_of_birth=date(1990, 1, 1))
    late = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("LATE0001"))
    where = {n: t for t, seats in seated(tournament).items() for n in seats.values()}
    assert where[late.number] in (1, 2, 3) and 4 not in seated(tournament)


def test_a_late_entry_that_opens_a_new_table_brings_players_to_it(director, cashier, floor, tournament):
    start(director, cashier, tournament, 18, table_numbers=(1, 2))  # 9/9: full
    table_setup.open_table(tournament, actor=director, number=3, seats=9)
    player = registration.create_player(actor=cashier, first_name="Late", last_name="Comer", date_of_birth=date(1990, 1, 1))
    late = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("LATE0002"))
    assert seated(tournament)[3] == {next(iter(seated(tournament)[3])): late.number}
    slips = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING)
    assert slips.exists() and {m.to_table.number for m in slips} == {3}  # players are on their way to join
    confirm_all(floor, tournament)
    counts = sorted(len(s) for s in seated(tournament).values())
    assert counts[-1] - counts[0] <= 1 or screens.balancing_status(tournament)["need_button"]
    assert Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() == 19
    moves.balance_now(tournament, actor=floor)
    check_invariants(tournament)
