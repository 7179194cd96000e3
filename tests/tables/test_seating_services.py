"""Seating services on the real database: start draw, late entries, corrections, busts and their undo."""

from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from core import errors
from tables.models import Draw, Seat, Table
from tables.rules import seating
from tables.selectors import draw_check, screens, state
from tables.services import busts, draws, seats
from tables.services import setup as table_setup
from tests.concurrency import at_once
from tests.conftest import make_user, tournament_data
from tests.helpers import current_seat, id_doc, open_tables, refused, register
from tournament.models import AuditEvent, Entry
from tournament.services import registration, setup


@pytest.fixture
def drawn(director, cashier, tournament):
    open_tables(director, tournament, [1, 2, 3, 4])
    entries = register(cashier, tournament, 20)
    draw = draws.draw_start(tournament, actor=director)
    return draw, entries


def test_start_draw_uses_the_fewest_tables_evenly_and_reveals_a_seed_that_recomputes(drawn, tournament):
    draw, entries = drawn
    counts = {}
    for seat in Seat.objects.filter(ended_at__isnull=True):
        counts[seat.table.number] = counts.get(seat.table.number, 0) + 1
    assert len(counts) == 3 and sum(counts.values()) == 20 and max(counts.values()) - min(counts.values()) <= 1
    draw.refresh_from_db()
    assert draw.kind == Draw.Kind.START and seating.commitment(bytes.fromhex(draw.seed)) == draw.commitment
    check = draw_check.verify_draw(draw)
    assert check["matches"] is True
    # A new commitment waits for the next draw.
    assert Draw.objects.filter(tournament=tournament, drawn_at__isnull=True).count() == 1


@pytest.fixture
def drawn26(director, cashier, tournament):
    """26 entries at three tables (9, 9, 8): eight busts before a table breaks."""
    open_tables(director, tournament, [1, 2, 3, 4])
    entries = register(cashier, tournament, 26)
    draw = draws.draw_start(tournament, actor=director)
    return draw, entries


def test_a_late_entry_is_seated_at_registration_at_a_shortest_table(drawn, cashier, tournament):
    _draw, _entries = drawn
    before = {t["table"]: t["players"] for t in screens.floor_map(tournament)["tables"] if t["in_play"]}
    (late,) = register(cashier, tournament, 1, start=100)
    seat = state.seat_of(late)
    assert seat is not None and seat.table.number in before
    playing = {n: c for n, c in before.items() if c}  # table 4 was not needed: it stays empty
    assert before[seat.table.number] == min(playing.values())


# --- helpers for the tests below ---------------------------------------------------------------


def places(entries) -> dict[int, int | None]:
    return {e.number: Entry.objects.get(pk=e.pk).finish_place for e in entries}


# --- verifying a draw ----------------------------------------------------------------------------


def test_a_recorded_draw_recomputes_from_its_revealed_seed_and_tampering_is_detected(drawn):
    draw, _entries = drawn
    draw.refresh_from_db()
    check = draw_check.verify_draw(draw)
    assert check["matches"] and check["commitment_matches"] and check["recomputed"] == draw.result == check["written"]
    # A recorded result with two players swapped.
    tampered = Draw.objects.get(pk=draw.pk)
    (e1, t1, s1), (e2, t2, s2) = tampered.result[0], tampered.result[-1]
    assert (t1, s1) != (t2, s2)
    tampered.result[0], tampered.result[-1] = [e1, t2, s2], [e2, t1, s1]
    check = draw_check.verify_draw(tampered)
    assert check["matches"] is False and check["commitment_matches"] is True
    # Another seed: it no longer matches the commitment shown before the draw.
    tampered = Draw.objects.get(pk=draw.pk)
    tampered.seed = ("0" if tampered.seed[0] != "0" else "1") + tampered.seed[1:]
    check = draw_check.verify_draw(tampered)
    assert check["matches"] is False and check["commitment_matches"] is False
    # Another seed with a commitment made to fit: the recomputed seats differ from the recorded ones.
    tampered.commitment = seating.commitment(bytes.fromhex(tampered.seed))
    check = draw_check.verify_draw(tampered)
    assert check["commitment_matches"] is True and check["recomputed"] != draw.result and check["matches"] is False
    # Seats written that differ from the recorded result.
    seat = Seat.objects.filter(draw=draw).order_by("pk").first()
    free = next(s for s in range(1, 10) if not Seat.objects.filter(table=seat.table, seat=s, ended_at__isnull=True).exists())
    Seat.objects.filter(pk=seat.pk).update(seat=free)
    check = draw_check.verify_draw(Draw.objects.get(pk=draw.pk))
    assert check["recomputed"] == draw.result and check["written"] != draw.result and check["matches"] is False


def test_an_unrevealed_draw_shows_only_its_commitment(tournament, director):
    pending = draws.commit_next_draw(tournament, actor=director)
    check = draw_check.verify_draw(pending)
    assert check == {"draw": pending.number, "revealed": False, "commitment": pending.commitment}
    assert state.pending_commitment(tournament) == {"draw": pending.number, "commitment": pending.commitment}


# --- the start draw: refusals and special needs -------------------------------------------------


def test_the_start_draw_is_refused_twice_and_without_tables_or_entries(director, cashier, tournament):
    exc = refused("no_entries", draws.draw_start, tournament, actor=director)
    assert "register entries first" in exc.message
    register(cashier, tournament, 12)
    exc = refused("no_tables", draws.draw_start, tournament, actor=director)
    assert "Open the tables first" in exc.message
    open_tables(director, tournament, [1])
    exc = refused("venue_full", draws.draw_start, tournament, actor=director)  # 12 entries, 9 seats, the venue has no other table
    assert "Seating 12 entries needs 3 more seats" in exc.message and exc.details["missing_tables"] == 1
    assert not Draw.objects.filter(tournament=tournament, drawn_at__isnull=False).exists()
    assert not Seat.objects.exists()
    open_tables(director, tournament, [2])
    draws.draw_start(tournament, actor=director)
    exc = refused("already_drawn", draws.draw_start, tournament, actor=director)
    assert "start draw is done already" in exc.message
    assert Draw.objects.filter(tournament=tournament, kind=Draw.Kind.START).count() == 1
    assert Seat.objects.filter(ended_at__isnull=True).count() == 12


def test_only_the_director_makes_the_start_draw(floor, cashier, director, tournament):
    open_tables(director, tournament, [1])
    register(cashier, tournament, 3)
    assert refused("forbidden", draws.draw_start, tournament, actor=floor).status == 403
    assert not Draw.objects.filter(tournament=tournament, kind=Draw.Kind.START).exists()
    assert not Seat.objects.filter(ended_at__isnull=True).exists()  # refused: nobody seated


def test_special_needs_are_honoured_in_the_start_draw(director, floor, cashier, tournament):
    open_tables(director, tournament, [1, 2, 3, 4, 5])
    table_setup.open_table(tournament, actor=director, number=6, seats=9, accessible=True)
    entries = register(cashier, tournament, 20)
    fixed_seat, accessible, fixed_table = entries[3], entries[7], entries[11]
    seats.set_seat_request(tournament, actor=floor, player=fixed_seat.player, table_number=2, seat=5)
    seats.set_seat_request(tournament, actor=floor, player=accessible.player, accessible=True)
    seats.set_seat_request(tournament, actor=floor, player=fixed_table.player, table_number=5)
    draw = draws.draw_start(tournament, actor=director)
    s = current_seat(fixed_seat)
    assert (s.table.number, s.seat) == (2, 5)
    assert current_seat(accessible).table.number == 6 and current_seat(accessible).table.accessible
    assert current_seat(fixed_table).table.number == 5
    draw.refresh_from_db()
    assert draw.inputs["needs"][str(fixed_seat.number)] == {"table": 2, "seat": 5, "accessible": False}
    assert draw_check.verify_draw(draw)["matches"]
    # 20 entries: the needed tables (2, 5, 6) and the fewest others, filled evenly.
    counts = {t["table"]: t["players"] for t in screens.floor_map(tournament)["tables"] if t["players"]}
    assert {2, 5, 6} <= set(counts) and len(counts) == 3 and max(counts.values()) - min(counts.values()) <= 1


def test_a_late_entry_with_a_special_need_is_seated_as_requested(drawn, director, floor, cashier, tournament):
    table_setup.open_table(tournament, actor=director, number=7, seats=9, accessible=True)
    wants_seat = registration.create_player(actor=cashier, first_name="Fixed", last_name="Seat", date_of_birth=date(1980, 1, 1))
    wants_access = registration.create_player(actor=cashier, first_name="Wheel", last_name="Chair", date_of_birth=date(1980, 1, 1))
    free = next(s for s in range(1, 10) if not Seat.objects.filter(table__number=4, seat=s, ended_at__isnull=True).exists())
    seats.set_seat_request(tournament, actor=floor, player=wants_seat, table_number=4, seat=free)
    seats.set_seat_request(tournament, actor=floor, player=wants_access, accessible=True)
    e1 = registration.register_entry(tournament, actor=cashier, player=wants_seat, document=id_doc("FX0000001"))
    e2 = registration.register_entry(tournament, actor=cashier, player=wants_access, document=id_doc("FX0000002"))
    assert (current_seat(e1).table.number, current_seat(e1).seat) == (4, free)
    assert current_seat(e2).table.number == 7
    for draw in Draw.objects.filter(tournament=tournament, kind=Draw.Kind.LATE):
        assert draw_check.verify_draw(draw)["matches"]
    # A fixed seat that is taken is refused with a clear message, and the registration with it.
    taken = Seat.objects.filter(table__number=1, ended_at__isnull=True).first()
    third = registration.create_player(actor=cashier, first_name="Taken", last_name="Seat", date_of_birth=date(1980, 1, 1))
    seats.set_seat_request(tournament, actor=floor, player=third, table_number=1, seat=taken.seat)
    exc = refused("fixed_seat_taken", registration.register_entry, tournament, actor=cashier, player=third, document=id_doc("FX0000003"))
    assert f"table 1 seat {taken.seat}" in exc.message
    assert not Entry.objects.filter(player=third).exists()


def test_a_seat_request_needs_a_real_table_and_seat(floor, director, tournament, player):
    open_tables(director, tournament, [1])
    refused("seat_without_table", seats.set_seat_request, tournament, actor=floor, player=player, seat=3)
    refused("empty_request", seats.set_seat_request, tournament, actor=floor, player=player)
    refused("no_table", seats.set_seat_request, tournament, actor=floor, player=player, table_number=2)
    refused("bad_seat", seats.set_seat_request, tournament, actor=floor, player=player, table_number=1, seat=10)
    seats.set_seat_request(tournament, actor=floor, player=player, table_number=1, seat=9)
    assert seats.cancel_seat_request(tournament, actor=floor, player=player) == 1
    refused("no_request", seats.cancel_seat_request, tournament, actor=floor, player=player)


# --- corrections ---------------------------------------------------------------------------------


def test_correct_seat_moves_the_player_and_refuses_a_taken_or_wrong_seat(drawn, floor, tournament):
    _draw, entries = drawn
    entry = entries[0]
    old = current_seat(entry)
    target_table = 4  # empty: every seat free
    new = seats.correct_seat(entry, actor=floor, table_number=target_table, seat_number=6)
    old.refresh_from_db()
    assert old.ended_at is not None and old.end_reason == Seat.End.CORRECTION
    assert (current_seat(entry).pk, current_seat(entry).table.number, current_seat(entry).seat) == (new.pk, 4, 6)
    assert Seat.objects.filter(entry=entry, ended_at__isnull=True).count() == 1
    other = current_seat(entries[1])
    exc = refused("seat_taken", seats.correct_seat, entry, actor=floor, table_number=other.table.number, seat_number=other.seat)
    assert "is not free" in exc.message
    refused("bad_seat", seats.correct_seat, entry, actor=floor, table_number=4, seat_number=10)
    refused("bad_seat", seats.correct_seat, entry, actor=floor, table_number=4, seat_number=0)
    refused("bad_seat", seats.correct_seat, entry, actor=floor, table_number=4, seat_number="x")
    refused("no_table", seats.correct_seat, entry, actor=floor, table_number=42, seat_number=1)
    assert (current_seat(entry).table.number, current_seat(entry).seat) == (4, 6)


# --- busts, their undo, re-entries, voids ---------------------------------------------------------


def test_a_bust_frees_the_seat_and_the_place_is_players_left_plus_one(drawn, floor, tournament):
    _draw, entries = drawn
    seat = current_seat(entries[5])
    busts.bust_entry(entries[5], actor=floor)
    seat.refresh_from_db()
    assert seat.ended_at is not None and seat.end_reason == Seat.End.BUST and current_seat(entries[5]) is None
    left = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count()
    assert left == 19 and places([entries[5]]) == {entries[5].number: left + 1}
    # The freed seat is open again: a correction may use it.
    seats.correct_seat(entries[0], actor=floor, table_number=seat.table.number, seat_number=seat.seat)
    busts.bust_entry(entries[6], actor=floor)
    assert places(entries[5:7]) == {entries[5].number: 20, entries[6].number: 19}
    refused("entry_not_active", busts.bust_entry, entries[5], actor=floor)


def test_undoing_a_bust_restores_the_seat_and_the_places_of_players_busted_later(drawn26, floor, tournament):
    _draw, entries = drawn26
    a, b, c = entries[2], entries[9], entries[14]
    seat_a = current_seat(a)
    for e in (a, b, c):
        busts.bust_entry(e, actor=floor)
    assert places([a, b, c]) == {a.number: 26, b.number: 25, c.number: 24}
    busts.undo_bust(a, actor=floor)
    assert (current_seat(a).table_id, current_seat(a).seat) == (seat_a.table_id, seat_a.seat)
    assert places([a, b, c]) == {a.number: None, b.number: 26, c.number: 25}
    # Undo of a bust in the middle: only those busted after it move.
    busts.undo_bust(c, actor=floor)
    assert places([b, c]) == {b.number: 26, c.number: None}
    refused("not_busted", busts.undo_bust, c, actor=floor)


def test_undoing_a_bust_whose_seat_was_taken_seats_the_player_by_the_late_draw(drawn, floor, tournament):
    _draw, entries = drawn
    a = entries[0]
    seat_a = current_seat(a)
    busts.bust_entry(a, actor=floor)
    seats.correct_seat(entries[1], actor=floor, table_number=seat_a.table.number, seat_number=seat_a.seat)
    busts.undo_bust(a, actor=floor)
    now = current_seat(a)
    assert now is not None and (now.table_id, now.seat) != (seat_a.table_id, seat_a.seat)
    assert now.draw is not None and now.draw.kind == Draw.Kind.LATE and draw_check.verify_draw(now.draw)["matches"]


def test_a_reentry_after_a_bust_gets_a_new_seat_and_places_stay_distinct(drawn, floor, cashier, tournament):
    _draw, entries = drawn
    first = entries[4]
    busts.bust_entry(first, actor=floor)
    assert places([first]) == {first.number: 20}
    again = registration.register_entry(tournament, actor=cashier, player=first.player, document=id_doc("EA0000004"))
    assert again.kind == Entry.Kind.REENTRY and current_seat(again) is not None and current_seat(first) is None
    # 21 entries now: the first bust finishes 21st.
    assert places([first]) == {first.number: 21}
    busts.bust_entry(entries[8], actor=floor)
    busts.bust_entry(again, actor=floor)
    got = places([first, entries[8], again])
    assert got == {first.number: 21, entries[8].number: 20, again.number: 19}
    busted = list(Entry.objects.filter(tournament=tournament, status=Entry.Status.BUSTED).values_list("finish_place", flat=True))
    assert len(busted) == len(set(busted)) == 3
    # The bust of the first entry cannot be undone while the player plays on (the re-entry is busted now, so it can).
    busts.undo_bust(again, actor=floor)
    refused("reentered", busts.undo_bust, first, actor=floor)


def test_voiding_a_seated_entry_frees_its_seat(drawn26, floor, cashier, tournament):
    _draw, entries = drawn26
    busts.bust_entry(entries[0], actor=floor)
    assert places([entries[0]]) == {entries[0].number: 26}
    victim = entries[3]
    seat = current_seat(victim)
    purchase = victim.purchases.get()
    registration.void_purchase(purchase, actor=cashier, reason="wrong player")
    seat.refresh_from_db()
    assert seat.ended_at is not None and seat.end_reason == Seat.End.VOID and current_seat(victim) is None
    assert places([entries[0]]) == {entries[0].number: 25}
    seats.correct_seat(entries[1], actor=floor, table_number=seat.table.number, seat_number=seat.seat)  # the seat is free again


# --- the button draw ------------------------------------------------------------------------------


def test_the_software_draws_the_button_verifiably(drawn, floor, tournament):
    _draw, _entries = drawn
    table = Table.objects.get(tournament=tournament, number=1)
    out = draws.draw_button(table, actor=floor)
    table.refresh_from_db()
    assert table.button_seat == out["button"]
    draw = Draw.objects.get(tournament=tournament, number=out["draw"])
    assert draw.kind == Draw.Kind.BUTTON and draw.result["button"] == out["button"]
    occupied = sorted(state.live_seats(tournament).filter(table=table).values_list("seat", flat=True))
    assert draw.inputs == {"table": 1, "seats": occupied} and sorted(out["cards"]) == occupied
    assert draw_check.verify_draw(draw)["matches"]
    assert seating.high_card_winner(out["cards"]) == out["button"]
    # The next draw has its own commitment already.
    assert Draw.objects.filter(tournament=tournament, drawn_at__isnull=True).count() == 1


def test_the_button_by_entered_cards_goes_by_suit(drawn, floor, tournament):
    table = Table.objects.get(tournament=tournament, number=2)
    occupied = sorted(state.live_seats(tournament).filter(table=table).values_list("seat", flat=True))
    low = iter(["2c", "2d", "2h", "2s", "3c", "3d", "3h", "3s", "4c"])
    cards = {seat: next(low) for seat in occupied}
    cards[occupied[0]], cards[occupied[1]], cards[occupied[2]] = "Ac", "ah", "Ad"
    out = draws.draw_button(table, actor=floor, cards={str(k): v for k, v in cards.items()})
    assert out["button"] == occupied[1] and out["draw"] is None and out["cards"][occupied[1]] == "Ah"
    table.refresh_from_db()
    assert table.button_seat == occupied[1]
    cards[occupied[1]], cards[occupied[2]] = "Ks", "Kh"
    assert draws.draw_button(table, actor=floor, cards=cards)["button"] == occupied[0]  # Ac beats Ks
    refused("bad_cards", draws.draw_button, table, actor=floor, cards={occupied[0]: "As"})
    refused("bad_cards", draws.draw_button, table, actor=floor, cards={**cards, occupied[0]: "Zz"})
    refused("bad_cards", draws.draw_button, table, actor=floor, cards={**cards, occupied[0]: "4c", occupied[1]: "4c"})


def test_the_button_by_seat_and_refusals(drawn, floor, dealer, tournament):
    table = Table.objects.get(tournament=tournament, number=3)
    occupied = sorted(state.live_seats(tournament).filter(table=table).values_list("seat", flat=True))
    out = draws.draw_button(table, actor=floor, seat=occupied[-1])
    table.refresh_from_db()
    assert out["button"] == table.button_seat == occupied[-1] and out["draw"] is None
    empty_seat = next(s for s in range(1, 10) if s not in occupied)
    exc = refused("bad_seat", draws.draw_button, table, actor=floor, seat=empty_seat)
    assert "occupied seat" in exc.message
    refused("forbidden", draws.draw_button, table, actor=dealer)
    empty = Table.objects.get(tournament=tournament, number=4)
    exc = refused("table_empty", draws.draw_button, empty, actor=floor)
    assert "nobody seated" in exc.message
    assert not Draw.objects.filter(tournament=tournament, kind=Draw.Kind.BUTTON).exists()


# --- break order ----------------------------------------------------------------------------------


def test_set_break_order_lists_every_table_in_play_once(director, tournament):
    open_tables(director, tournament, [1, 2, 3])
    assert state.break_order(tournament) == [3, 2, 1]  # before the start draw: highest first
    assert table_setup.set_break_order(tournament, actor=director, numbers=[2, "1", 3]) == [2, 1, 3]
    assert state.break_order(tournament) == [2, 1, 3]
    for bad in ([1, 2], [1, 2, 3, 4], [1, 1, 2, 3], [1, 2, 2], ["x", 1, 2], None):
        exc = refused("bad_order", table_setup.set_break_order, tournament, actor=director, numbers=bad)
        assert exc.message
    assert state.break_order(tournament) == [2, 1, 3]


def test_tables_opened_after_the_start_draw_break_first(drawn, director, tournament):
    before = state.break_order(tournament)
    table_setup.open_table(tournament, actor=director, number=5)
    assert state.break_order(tournament) == [5, *before]
    table_setup.open_table(tournament, actor=director, number=6)
    assert state.break_order(tournament) == [6, 5, *before]
    # A table taken out of play and back after the draw also breaks first.
    t4 = Table.objects.get(tournament=tournament, number=4)
    table_setup.set_table_in_play(t4, actor=director, in_play=False)
    table_setup.set_table_in_play(t4, actor=director, in_play=True)
    assert state.break_order(tournament)[0] == 4
    busy = Table.objects.get(tournament=tournament, number=1)
    refused("table_has_players", table_setup.set_table_in_play, busy, actor=director, in_play=False)


# --- concurrency and the floor map ------------------------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_two_tablets_bust_the_same_seated_entry_at_once(director, template):
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL: threads racing on row locks")
    cashier = make_user("cash2", "Cashier")
    floors = [make_user(f"floor{i}", "Floor") for i in range(2)]
    tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
    open_tables(director, tournament, [1])
    entries = register(cashier, tournament, 3)
    draws.draw_start(tournament, actor=director)
    seat = current_seat(entries[0])
    outcomes = at_once([lambda user=user: busts.bust_entry(entries[0], actor=user).finish_place for user in floors])
    results = [o.code if isinstance(o, errors.ServiceError) else o for o in outcomes]
    assert sorted(results, key=str) == [3, "entry_not_active"]
    assert AuditEvent.objects.filter(tournament=tournament, type="entry.busted").count() == 1
    assert Seat.objects.filter(entry=entries[0], end_reason=Seat.End.BUST).count() == 1
    assert Seat.objects.get(pk=seat.pk).ended_at is not None and current_seat(entries[0]) is None


def floor_map_queries(director, cashier, tournament, n_tables: int, start: int) -> int:
    first = 1 + start // 10  # the two tournaments share the venue: their tables are its tables 1 and up, 101 and up
    open_tables(director, tournament, range(first, first + n_tables))
    register(cashier, tournament, n_tables * 2, start=start)
    draws.draw_start(tournament, actor=director)
    with CaptureQueriesContext(connection) as ctx:
        result = screens.floor_map(tournament)
    assert len(result["tables"]) == n_tables and result["players_seated"] == n_tables * 2
    return len(ctx.captured_queries)


def test_the_floor_map_takes_the_same_number_of_queries_for_2_and_20_tables(director, cashier, template):
    small = setup.create_tournament(tournament_data(name="Small"), actor=director, template=template)
    big = setup.create_tournament(tournament_data(name="Big"), actor=director, template=template)
    few = floor_map_queries(director, cashier, small, 2, start=0)
    many = floor_map_queries(director, cashier, big, 20, start=1000)
    assert few == many
    assert many <= 8


def test_the_floor_map_shows_names_seats_and_statuses(drawn, floor, tournament):
    _draw, entries = drawn
    fm = screens.floor_map(tournament)
    assert fm["start_drawn"] is True and fm["waiting"] == 0 and fm["players_seated"] == 20
    seat = current_seat(entries[0])
    row = next(t for t in fm["tables"] if t["table"] == seat.table.number)
    assert row["seat_list"][seat.seat - 1] == {"seat": seat.seat, "entry": entries[0].number, "name": "P0 Test"}
    assert next(t for t in fm["tables"] if t["table"] == 4)["status"] == "empty"  # in play, nobody: not "short"


def test_no_seat_by_hand_before_the_start_draw(director, cashier, floor, tournament):
    open_tables(director, tournament, [1])
    (e,) = register(cashier, tournament, 1)
    refused("not_drawn", seats.correct_seat, e, actor=floor, table_number=1, seat_number=1)
    assert not Seat.objects.filter(entry=e).exists()
