"""Each moment a player is told of reaches his phone and only his (docs/notifications.md, "What a player is told"): his
seat at the draw (tests/notify/test_push.py), a move slip, his table breaking, an alternate's seat, his Day 2 seat,
in the money, his prize ready at the cage. Every message is decrypted by the push service stand-in."""

from __future__ import annotations

import pytest

from days.services import redraw
from payouts.services import structure as payouts_services
from tables.models import Move, Seat
from tables.selectors.state import live_seats
from tables.services import busts, draws
from tests.days.test_day2_seating import bag_and_close
from tests.helpers import open_tables, register
from tests.notify.conftest import opt_in
from tests.tables.test_breaking_table import breaking_soon
from tests.tables.test_moves import bust_at, seated, start
from tests.tournament.test_waiting_list import join
from tournament.models import Entry
from tournament.services import registration

pytestmark = pytest.mark.django_db


def told(service, phones: dict) -> dict[int, list[str]]:
    """Entry number -> the bodies its phone decrypted."""
    return {number: [m["body"] for m in service.received.get(browser.endpoint, [])] for number, browser in phones.items()}


def test_a_move_slip_tells_the_mover_and_no_one_else(
    director, cashier, floor, tournament, push_service, django_capture_on_commit_callbacks
):
    start(director, cashier, tournament, 32)  # eight at each of four tables
    t = tournament
    phones = {n: opt_in(push_service, t, n) for table in (2, 3, 4) for n in seated(t)[table].values()}
    with django_capture_on_commit_callbacks(execute=True):
        bust_at(floor, t, 1, count=2)  # six at table 1, eight at the others: a slip to table 1
    slips = {m.entry.number: m for m in Move.objects.filter(tournament=t, kind=Move.Kind.BALANCE).select_related("entry", "to_table")}
    assert slips and set(slips) < set(phones)
    for number, bodies in told(push_service, phones).items():
        if number in slips:
            assert bodies == [f"Move slip: go to table 1 seat {slips[number].to_seat} with your chips."]
        else:
            assert bodies == []


def test_a_breaking_table_tells_each_of_its_players_his_new_seat(
    director, cashier, floor, tournament, push_service, django_capture_on_commit_callbacks
):
    breaking = breaking_soon(director, cashier, tournament)
    at_breaking = seated(tournament)[breaking.number]
    others = [n for table, seats in seated(tournament).items() if table != breaking.number for n in seats.values()][:3]
    phones = {n: opt_in(push_service, tournament, n) for n in [*at_breaking.values(), *others]}
    with django_capture_on_commit_callbacks(execute=True):
        bust_at(floor, tournament, next(n for n in sorted(seated(tournament)) if n != breaking.number))
    slips = {
        m.entry.number: m for m in Move.objects.filter(tournament=tournament, kind=Move.Kind.BREAK).select_related("entry", "to_table")
    }
    assert set(slips) == set(at_breaking.values())
    said = told(push_service, phones)
    for number, slip in slips.items():
        assert said[number] == [
            f"Your table {breaking.number} is breaking: your new seat is table {slip.to_table.number} seat {slip.to_seat}. Take your chips."
        ]
    assert all(said[n] == [] for n in others if n not in slips)


def test_an_alternate_who_opted_in_for_his_number_is_told_his_seat_and_when_to_sit_down(
    floor, cashier, sold_out_room, push_service, django_capture_on_commit_callbacks
):
    t = sold_out_room
    first, second = join(cashier, t, 1), join(cashier, t, 2)
    phones = {1: opt_in(push_service, t, first.number, waiting=True), 2: opt_in(push_service, t, second.number, waiting=True)}
    out = live_seats(t).select_related("table").first()
    with django_capture_on_commit_callbacks(execute=True):
        busts.bust_entry(out.entry, actor=floor)
    first.refresh_from_db()
    [message] = push_service.received[phones[1].endpoint]
    assert message["body"].startswith(f"Alternate 1: table {out.table.number} seat {out.seat}, sit down by ")
    assert message["url"] == f"/s/{t.pk}/{first.entry.number}/"  # his seat page, now that he has an entry
    assert message["stop"]["url"] == f"/api/public/tournaments/{t.pk}/waiting/1/push/stop/"
    assert push_service.received.get(phones[2].endpoint) is None  # still waiting: nothing to say yet


def test_day_2_tells_each_player_his_new_seat(t, floor, director, push_service, django_capture_on_commit_callbacks):
    bag_and_close(t, floor, director)
    mine = sorted(seated(t)[1].values())[:2]
    phones = {n: opt_in(push_service, t, n) for n in mine}
    with django_capture_on_commit_callbacks(execute=True):
        redraw.redraw_day(t, actor=director)
    for number in mine:
        seat = Seat.objects.select_related("table").get(entry__tournament=t, entry__number=number, ended_at__isnull=True)
        assert told(push_service, phones)[number] == [f"Day 2: your seat is table {seat.table.number} seat {seat.seat}."]


def prize_room(director, cashier, tournament) -> list[Entry]:
    """Eight players at one table, four paid, registration closed."""
    tournament.guaranteed_pool = 0
    tournament.save(update_fields=["guaranteed_pool"])
    open_tables(director, tournament, [1])
    entries = register(cashier, tournament, 8)
    draws.draw_start(tournament, actor=director)
    payouts_services.set_payout_plan(tournament, actor=director, data={"share_paid_bp": 5000, "min_cash_bp": 0})
    registration.set_registration_closed(tournament, actor=director, closed=True)
    return entries


def test_the_bubble_bursting_tells_those_still_in_once_and_a_paid_place_is_told_its_prize(
    director, cashier, floor, tournament, push_service, django_capture_on_commit_callbacks
):
    entries = prize_room(director, cashier, tournament)
    phones = {e.number: opt_in(push_service, tournament, e.number) for e in entries}
    with django_capture_on_commit_callbacks(execute=True):
        for entry in entries[:4]:  # eight to four: the fourth bust bursts the bubble
            busts.bust_entry(entry, actor=floor)
    said = told(push_service, phones)
    assert all(said[e.number] == [] for e in entries[:4])  # out before the money: nothing
    assert all(said[e.number] == ["The bubble has burst: you are in the money."] for e in entries[4:])
    with django_capture_on_commit_callbacks(execute=True):
        busts.bust_entry(entries[4], actor=floor)  # fourth place: his prize is ready
    said = told(push_service, phones)
    prize = said[entries[4].number][-1]
    assert prize.startswith(f"Place 4: your prize of {tournament.currency}\N{NO-BREAK SPACE}") and prize.endswith(
        "is ready at the cashier. Bring the ID you registered with."
    )
    assert all(said[e.number] == ["The bubble has burst: you are in the money."] for e in entries[5:])  # said once; no prize yet
    assert all(said[e.number] == [] for e in entries[:4])
