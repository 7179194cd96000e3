"""Balancing, breaking and redraws on the real database: move slips after busts (TDA 7, 8A)."""

import pytest
from django.db import connection

from core.errors import ServiceError
from tables.models import Draw, Move, Seat, Table
from tables.rules import positions as pos
from tables.selectors import draw_check, screens, state
from tables.services import busts, draws, handforhand, hands, moves, seats
from tests.concurrency import at_once
from tests.helpers import open_tables, register
from tournament.models import AuditEvent, Entry
from tournament.services import setup


def seated(tournament) -> dict[int, dict[int, int]]:
    """table number -> {seat: entry number} of the live seats."""
    out: dict[int, dict[int, int]] = {}
    for s in Seat.objects.filter(tournament=tournament, ended_at__isnull=True).select_related("table", "entry"):
        out.setdefault(s.table.number, {})[s.seat] = s.entry.number
    return out


def entry(tournament, number) -> Entry:
    return Entry.objects.get(tournament=tournament, number=number)


def start(director, cashier, tournament, players: int, table_numbers=(1, 2, 3, 4)):
    open_tables(director, tournament, table_numbers)
    register(cashier, tournament, players)
    draws.draw_start(tournament, actor=director)
    for number in seated(tournament):
        draws.draw_button(Table.objects.get(tournament=tournament, number=number), actor=director)


def check_invariants(tournament):
    live = Seat.objects.filter(tournament=tournament, ended_at__isnull=True)
    pending = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING)
    seats = list(live.values_list("table_id", "seat"))
    reserved = list(pending.values_list("to_table_id", "to_seat"))
    assert len(set(seats)) == len(seats)
    assert not set(seats) & set(reserved), "a reserved seat is occupied"
    assert len(set(reserved)) == len(reserved)
    movers = list(pending.values_list("entry_id", flat=True))
    assert len(set(movers)) == len(movers)
    assert set(movers) <= set(live.values_list("entry_id", flat=True))


def bust_at(floor, tournament, table_number, count=1):
    """Bust `count` players of a table (the lowest seats), returning their entry numbers."""
    out = []
    for _ in range(count):
        seats = seated(tournament)[table_number]
        movers = set(Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).values_list("entry__number", flat=True))
        number = next(n for s, n in sorted(seats.items()) if n not in movers)
        busts.bust_entry(entry(tournament, number), actor=floor)
        out.append(number)
    return out


def test_a_bust_that_unbalances_moves_the_donors_next_big_blind_to_the_worst_seat(director, cashier, floor, tournament):
    start(director, cashier, tournament, 20)  # three tables: 7, 7, 6
    counts = {t: len(s) for t, s in seated(tournament).items()}
    short = min(counts, key=lambda t: (counts[t], t))
    before = seated(tournament)
    bust_at(floor, tournament, short)  # now 7, 7, 5: out of balance by 2
    (move,) = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING)
    assert move.kind == Move.Kind.BALANCE and move.to_table.number == short
    # The donor: the fullest table, ties by the break order (the table that breaks first gives).
    full = [t for t, c in counts.items() if c == 7]
    donor = min(Table.objects.filter(tournament=tournament, number__in=full), key=lambda t: (t.break_order, t.number))
    assert move.from_table == donor
    # The mover is the player who will be big blind next at the donor table.
    donor.refresh_from_db()
    room = moves.read_room(tournament)
    nxt = pos.next_hand(donor.seats, sorted(before[donor.number]), room[donor.number].last_positions())
    assert move.from_seat == nxt.big_blind and move.entry.number == before[donor.number][nxt.big_blind]
    # The destination is the worst position at the short table: never the small blind.
    assert move.position in ("big_blind", "in_play", "button", "wait_for_button")
    assert (move.to_table_id, move.to_seat) in set(state.reserved_seats(tournament, [move.to_table_id]))
    event = AuditEvent.objects.filter(tournament=tournament, type="move.created").last()
    assert event.payload["moves"][0]["entry"] == move.entry.number and event.payload["entries"] == [move.entry.number]
    check_invariants(tournament)
    # Confirmed: the player sits at the reserved seat; the tables are balanced.
    moves.confirm_move(tournament, actor=floor, number=move.number)
    after = seated(tournament)
    assert after[short][move.to_seat] == move.entry.number and move.from_seat not in after[donor.number]
    assert sorted(len(s) for s in after.values()) == [6, 6, 7]
    assert not Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()
    with pytest.raises(ServiceError) as err:
        moves.confirm_move(tournament, actor=floor, number=move.number)
    assert err.value.code == "move_closed"


def test_no_move_while_balanced_and_a_busted_mover_loses_the_slip(director, cashier, floor, tournament):
    start(director, cashier, tournament, 24)  # 8, 8, 8
    table = sorted(seated(tournament))[0]
    bust_at(floor, tournament, table)  # 7, 8, 8: within one
    assert not Move.objects.filter(tournament=tournament).exists()
    bust_at(floor, tournament, table)  # 6, 8, 8: a difference of 2
    move = Move.objects.get(tournament=tournament, status=Move.Status.PENDING)
    assert move.to_table.number == table
    busts.bust_entry(move.entry, actor=floor)  # the mover busts before moving
    move.refresh_from_db()
    assert move.status == Move.Status.CANCELLED and move.cancel_reason == "busted"
    check_invariants(tournament)


def test_cancel_frees_the_reserved_seat_and_balance_now_decides_again(director, cashier, floor, tournament):
    start(director, cashier, tournament, 20)
    counts = {t: len(s) for t, s in seated(tournament).items()}
    short = min(counts, key=lambda t: (counts[t], t))
    bust_at(floor, tournament, short)
    move = Move.objects.get(tournament=tournament, status=Move.Status.PENDING)
    moves.cancel_move(tournament, actor=floor, number=move.number, reason="player in the restroom")
    assert state.reserved_seats(tournament, [move.to_table_id]) == []
    (again,) = moves.balance_now(tournament, actor=floor)
    assert again.entry == move.entry and again.number == move.number + 1
    with pytest.raises(ServiceError) as err:
        moves.cancel_move(tournament, actor=floor, number=999)
    assert err.value.status == 404


def test_roles_refused(director, cashier, dealer, floor, tournament):
    start(director, cashier, tournament, 20)
    for user in (cashier, dealer):
        with pytest.raises(ServiceError) as err:
            moves.balance_now(tournament, actor=user)
        assert err.value.status == 403


def test_a_table_breaks_when_everyone_fits_at_one_table_fewer(director, cashier, floor, tournament):
    start(director, cashier, tournament, 27)  # three full tables of 9
    playing = set(seated(tournament))
    order = [n for n in state.break_order(tournament) if n in playing]  # an empty table takes no part
    first = order[0]
    # Bust at the other tables until 18 players are left: they fit at two tables.
    for number in order[1:] * 5:
        if Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() == 18:
            break
        if Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists():
            for m in Move.objects.filter(tournament=tournament, status=Move.Status.PENDING):
                moves.confirm_move(tournament, actor=floor, number=m.number)
        bust_at(floor, tournament, number)
    pending = list(Move.objects.filter(tournament=tournament, status=Move.Status.PENDING))
    breaking = [m for m in pending if m.kind == Move.Kind.BREAK]
    assert breaking and {m.from_table.number for m in breaking} == {first}
    assert AuditEvent.objects.filter(tournament=tournament, type="table.breaking", payload__table=first).exists()
    # Every slip says where the blinds are (or that the player waits for the button).
    assert all(m.position in ("big_blind", "small_blind", "button", "wait_for_button", "in_play") for m in breaking)
    draw = breaking[0].draw
    assert draw.kind == Draw.Kind.BREAK and draw_check.verify_draw(draw)["matches"] is True
    check_invariants(tournament)
    for m in pending:
        moves.confirm_move(tournament, actor=floor, number=m.number)
    broken = Table.objects.get(tournament=tournament, number=first)
    assert broken.broken_at is not None and not broken.in_play
    counts = sorted(len(s) for s in seated(tournament).values())
    assert sum(counts) == 18 and counts[-1] - counts[0] <= 1
    assert draw_check.verify_draw(draw)["matches"] is True


def test_the_final_table_is_redrawn_with_a_button_draw(director, cashier, floor, tournament):
    start(director, cashier, tournament, 12, table_numbers=(1, 2))  # two tables of 6
    while Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() > 9:
        for m in Move.objects.filter(tournament=tournament, status=Move.Status.PENDING):
            moves.confirm_move(tournament, actor=floor, number=m.number)
        counts = {t: len(s) for t, s in seated(tournament).items()}
        bust_at(floor, tournament, max(counts, key=lambda t: (counts[t], t)))
    now = seated(tournament)
    assert len(now) == 1
    (final,) = now
    assert len(now[final]) == 9
    redraw = Draw.objects.filter(tournament=tournament, kind=Draw.Kind.REDRAW).get()
    assert draw_check.verify_draw(redraw)["matches"] is True
    table = Table.objects.get(tournament=tournament, number=final)
    assert table.button_seat in now[final] and table.positions_next
    assert Draw.objects.filter(tournament=tournament, kind=Draw.Kind.BUTTON, drawn_at__gt=redraw.drawn_at).exists()
    other = Table.objects.exclude(pk=table.pk).get(tournament=tournament)
    assert other.broken_at is not None
    assert Move.objects.filter(tournament=tournament, kind=Move.Kind.REDRAW, status=Move.Status.DONE).count() == 9


def ten_at_two_tables(director, cashier, floor, tournament):
    """Two tables of five, every slip confirmed: the next bust makes the final table (nine)."""
    start(director, cashier, tournament, 12, table_numbers=(1, 2))
    while Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() > 10:
        for m in Move.objects.filter(tournament=tournament, status=Move.Status.PENDING):
            moves.confirm_move(tournament, actor=floor, number=m.number)
        counts = {t: len(s) for t, s in seated(tournament).items()}
        bust_at(floor, tournament, max(counts, key=lambda t: (counts[t], t)))
    for m in Move.objects.filter(tournament=tournament, status=Move.Status.PENDING):
        moves.confirm_move(tournament, actor=floor, number=m.number)


def test_the_final_table_waits_for_the_hands_in_play_and_no_new_hand_is_dealt_meanwhile(director, cashier, floor, dealer, tournament):
    """A redraw stands everyone up at once: a table still playing its hand finishes it and reports it done first (found
    playing a night through: the other table broke mid-hand and could not report its hand)."""
    ten_at_two_tables(director, cashier, floor, tournament)
    one, two = (Table.objects.get(tournament=tournament, number=n) for n in (1, 2))
    hands.start_hand(one, actor=dealer)
    hands.start_hand(two, actor=dealer)
    bust_at(floor, tournament, 1)  # nine left: the final table is due, but both tables are in a hand
    assert not Draw.objects.filter(tournament=tournament, kind=Draw.Kind.REDRAW).exists()
    notice = state.balancing_notice(tournament)
    assert notice["reason"] == "redraw_waits" and notice["tables"] == [1, 2]
    assert "once tables 1, 2 have finished the hands in play" in notice["message"]
    handforhand.hand_done(one, actor=dealer)
    notice = state.balancing_notice(tournament)  # the notice names the table still waited for
    assert notice["tables"] == [2] and not Draw.objects.filter(tournament=tournament, kind=Draw.Kind.REDRAW).exists()
    with pytest.raises(ServiceError) as refused:  # table 1 between hands: no new hand until the redraw
        hands.start_hand(one, actor=dealer)
    assert refused.value.code == "redraw_waits"
    handforhand.hand_done(two, actor=dealer)  # the last hand in play reported: everyone is redrawn
    assert Draw.objects.filter(tournament=tournament, kind=Draw.Kind.REDRAW).count() == 1
    assert len(seated(tournament)) == 1 and state.balancing_notice(tournament) is None
    (final,) = seated(tournament)
    assert Table.objects.get(tournament=tournament, number=final).hand_in_progress is False
    check_invariants(tournament)


def test_a_hand_for_hand_hand_whose_last_report_makes_the_final_table_completes_once(director, cashier, floor, dealer, tournament):
    """The bubble at the final table's redraw: the hand-for-hand hand's last report makes the redraw, which completes
    that hand and calls the next at the final table; the report itself must not complete it a second time."""
    ten_at_two_tables(director, cashier, floor, tournament)
    handforhand.start_hand_for_hand(tournament, actor=director)  # hand 1 called at both tables
    one, two = (Table.objects.get(tournament=tournament, number=n) for n in (1, 2))
    hands.start_hand(one, actor=dealer)
    hands.start_hand(two, actor=dealer)
    out = sorted(seated(tournament)[1].values())[0]
    busts.bust_entry(entry(tournament, out), actor=floor, stack=5_000)  # nine left, both tables in the hand
    handforhand.hand_done(one, actor=dealer)
    handforhand.hand_done(two, actor=dealer)
    assert Draw.objects.filter(tournament=tournament, kind=Draw.Kind.REDRAW).count() == 1
    complete = AuditEvent.objects.filter(tournament=tournament, type="h4h.hand_complete")
    assert [(e.payload["hand"], e.payload["entries"]) for e in complete] == [(1, [out])]
    assert AuditEvent.objects.filter(tournament=tournament, type="clock.adjusted").count() <= 1
    status = screens.hand_for_hand_status(tournament)
    (final,) = seated(tournament)
    assert (status["hand"], status["called"], status["tables"]) == (2, True, [final])


def test_a_redraw_waiting_for_a_hand_whose_start_is_undone_is_made_at_once(director, cashier, floor, dealer, tournament):
    ten_at_two_tables(director, cashier, floor, tournament)
    two = Table.objects.get(tournament=tournament, number=2)
    hands.start_hand(two, actor=dealer)
    bust_at(floor, tournament, 1)
    assert state.balancing_notice(tournament)["tables"] == [2]
    hands.undo_hand_start(two, actor=dealer)  # pressed by mistake: no hand is in play after all
    assert Draw.objects.filter(tournament=tournament, kind=Draw.Kind.REDRAW).count() == 1 and len(seated(tournament)) == 1


def test_a_table_with_no_known_button_asks_the_floor(director, cashier, floor, tournament):
    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 20)
    draws.draw_start(tournament, actor=director)  # no button draws: the software knows no positions
    counts = {t: len(s) for t, s in seated(tournament).items()}
    short = min(counts, key=lambda t: (counts[t], t))
    bust_at(floor, tournament, short)
    assert not Move.objects.filter(tournament=tournament).exists()
    need = AuditEvent.objects.filter(tournament=tournament, type="table.button_needed").last()
    assert need is not None
    status = screens.balancing_status(tournament)
    assert need.payload["table"] in status["need_button"]  # with the receiver's: every button the move needs, at once
    # The floor enters the button of the hand in play at each table the rule needs; the move follows.
    asked = []
    while screens.balancing_status(tournament)["need_button"]:
        number = screens.balancing_status(tournament)["need_button"][0]
        assert number not in asked
        asked.append(number)
        table = Table.objects.get(tournament=tournament, number=number)
        with pytest.raises(ServiceError):
            seats.enter_button(table, actor=floor, seat=99)
        seats.enter_button(table, actor=floor, seat=min(seated(tournament)[number]))
    assert 1 <= len(asked) <= 2  # the donor's button, then the short table's
    (move,) = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING)
    assert move.to_table.number == short
    donor = Table.objects.get(pk=move.from_table_id)
    last = pos.Positions(donor.button_seat, donor.small_blind_seat, donor.big_blind_seat)
    assert move.from_seat == pos.next_hand(donor.seats, sorted(seated(tournament)[donor.number]), last).big_blind


def test_hand_starts_advance_the_positions_and_an_undo_restores_them(director, cashier, dealer, tournament):
    start(director, cashier, tournament, 9, table_numbers=(1,))
    table = Table.objects.get(tournament=tournament, number=1)
    button = table.button_seat
    occupied = sorted(seated(tournament)[1])
    hands.start_hand(table, actor=dealer)
    table.refresh_from_db()
    first = pos.first_hand(9, occupied, button)
    assert (table.button_seat, table.small_blind_seat, table.big_blind_seat) == (first.button, first.small_blind, first.big_blind)
    assert not table.positions_next and table.hand_in_progress
    hands.start_hand(table, actor=dealer)
    table.refresh_from_db()
    second = pos.next_hand(9, occupied, first)
    assert table.big_blind_seat == second.big_blind
    hands.undo_hand_start(table, actor=dealer)
    table.refresh_from_db()
    assert table.big_blind_seat == first.big_blind
    hands.undo_hand_start(table, actor=dealer)
    table.refresh_from_db()
    assert table.button_seat == button and table.positions_next and table.big_blind_seat is None


@pytest.mark.django_db(transaction=True)
def test_concurrent_busts_never_make_two_moves_for_one_seat_or_player(director, cashier, floor, template):
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("needs a database that threads share with locking (PostgreSQL)")
    from tests.conftest import tournament_data

    tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
    start(director, cashier, tournament, 40, table_numbers=(1, 2, 3, 4, 5))
    for _round in range(4):
        rows = seated(tournament)
        movers = set(Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).values_list("entry__number", flat=True))
        victims = []
        for number in sorted(rows)[:3]:
            victims += [n for n in rows[number].values() if n not in movers][:1]
        errors = [
            o
            for o in at_once([lambda n=n: busts.bust_entry(entry(tournament, n), actor=floor) for n in victims])
            if isinstance(o, Exception)
        ]
        assert errors == []
        check_invariants(tournament)


def redraw_waiting_while_busts_come(director, cashier, floor, dealer, tournament, *, left: int) -> Table:
    """Four tables, a redraw at three tables due while table 1 plays its hand (found by the night machine: a satellite's
    other tables kept busting players meanwhile), then busts elsewhere down to `left` players."""
    from tables.services import house_rules

    house_rules.set_house_rules(tournament, actor=director, data={"redraw_at_three": True, "balance_threshold": 1})
    start(director, cashier, tournament, 30)  # 8, 8, 7, 7 at tables of nine
    one = Table.objects.get(tournament=tournament, number=1)
    hands.start_hand(one, actor=dealer)
    while not state.redraw_waiting(tournament):
        counts = {t: len(s) for t, s in seated(tournament).items() if t != 1}
        bust_at(floor, tournament, max(counts, key=lambda t: (counts[t], t)))
    while Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() > left:
        counts = {t: len(s) for t, s in seated(tournament).items() if t != 1}
        bust_at(floor, tournament, max(counts, key=lambda t: (counts[t], t)))
    assert not Draw.objects.filter(tournament=tournament, kind=Draw.Kind.REDRAW).exists()
    return one


def test_a_redraw_that_waited_while_the_field_shrank_goes_straight_to_the_tables_left(director, cashier, floor, dealer, tournament):
    """The redraw at three tables waited for table 1's hand while the field shrank to two tables' worth: it draws onto
    the two tables everyone fits at, not onto three tables that would break again at once (each player moved twice)."""
    one = redraw_waiting_while_busts_come(director, cashier, floor, dealer, tournament, left=15)
    handforhand.hand_done(one, actor=dealer)
    (draw,) = Draw.objects.filter(tournament=tournament, kind=Draw.Kind.REDRAW)
    room = seated(tournament)
    assert len(room) == 2 and sorted(map(len, room.values())) in ([7, 8],)
    assert not moves.balance_due(tournament, moves.read_room(tournament))
    assert not Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).exists()
    assert state.balancing_notice(tournament) is None
    check_invariants(tournament)


def test_a_redraw_that_waited_until_everyone_fits_at_the_final_table_draws_the_final_table(director, cashier, floor, dealer, tournament):
    one = redraw_waiting_while_busts_come(director, cashier, floor, dealer, tournament, left=9)  # tables of nine
    assert state.redraw_waiting(tournament)["message"].startswith("The final table is drawn")
    handforhand.hand_done(one, actor=dealer)
    event = AuditEvent.objects.filter(tournament=tournament, type="seating.redrawn").get()
    assert event.payload["final"] is True and len(seated(tournament)) == 1
    assert not moves.balance_due(tournament, moves.read_room(tournament))
