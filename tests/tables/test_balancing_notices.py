"""Balancing never fails a bust, a void or "Balance now": where no legal move exists
nobody moves and the floor gets a notice (the event log, the map's balancing status); a defect in
balancing is logged and told to the floor, and the bust stands."""

from __future__ import annotations

import logging

import pytest

from core.errors import ServiceError
from tables.models import Move, Seat, Table
from tables.rules import balancing
from tables.selectors import screens
from tables.services import busts, draws, house_rules, moves
from tables.services import setup as table_setup
from tests.helpers import client_for, register, url
from tests.tables.test_moves import entry, seated
from tournament.models import AuditEvent, Entry
from tournament.services import registration


@pytest.fixture
def lopsided(director, cashier, tournament):
    """Table 1 has four seats, table 2 nine: thirteen players fill both (4 and 9)."""
    table_setup.open_table(tournament, actor=director, number=1, seats=4)
    table_setup.open_table(tournament, actor=director, number=2, seats=9)
    register(cashier, tournament, 13)
    draws.draw_start(tournament, actor=director)
    for table in Table.objects.filter(tournament=tournament):
        draws.draw_button(table, actor=director)
    assert {n: len(s) for n, s in seated(tournament).items()} == {1: 4, 2: 9}
    return tournament


def notices(t) -> list[str]:
    return list(AuditEvent.objects.filter(tournament=t, type__startswith="balance.").order_by("seq").values_list("type", flat=True))


def test_no_open_seat_at_the_short_table_is_no_move_and_a_notice_not_an_error(lopsided, director, floor):
    t = lopsided
    house_rules.set_house_rules(t, actor=director, data={"balance_threshold": 1, "halt_short_by": 9})
    busted = entry(t, seated(t)[2][1])
    busts.bust_entry(busted, actor=floor)  # 4 against 8: out of balance, but table 1 has no open seat
    busted.refresh_from_db()
    assert busted.status == Entry.Status.BUSTED and not Seat.objects.filter(entry=busted, ended_at__isnull=True).exists()
    assert not Move.objects.filter(tournament=t, status=Move.Status.PENDING).exists()
    event = AuditEvent.objects.filter(tournament=t, type="balance.no_move").get()
    assert event.payload["reason"] == balancing.NO_OPEN_SEAT and event.payload["tables"] == [2, 1]
    assert "no table short enough to take a player has an open seat" in event.payload["message"]
    status = screens.balancing_status(t)
    assert status["notice"]["type"] == "balance.no_move" and status["notice"]["message"] == event.payload["message"]
    # The same situation after the next bust and "Balance now": the notice stands, not written again.
    busts.bust_entry(entry(t, seated(t)[2][2]), actor=floor)
    moves.balance_now(t, actor=director)
    assert notices(t) == ["balance.no_move"]
    # A bust at the short table frees a seat there: one player moves in (3 against 7, then 4 against
    # 6, still out of balance with table 1 full again: the notice stands).
    busts.bust_entry(entry(t, seated(t)[1][1]), actor=floor)
    (move,) = Move.objects.filter(tournament=t, status=Move.Status.PENDING)
    assert (move.from_table.number, move.to_table.number) == (2, 1)
    assert notices(t) == ["balance.no_move"]
    # One more bust at table 2 (4 against 5): balanced, and the notice ends.
    leaving = move.entry.number
    busts.bust_entry(entry(t, next(n for n in seated(t)[2].values() if n != leaving)), actor=floor)
    assert notices(t) == ["balance.no_move", "balance.clear"]
    assert screens.balancing_status(t)["notice"] is None


def test_the_finding_threshold_one_then_busts_voids_and_balance_now_through_the_api(director, floor, cashier, tournament):
    """Before, with the threshold at 1 every bust, void and "Balance now" answered 500."""
    for number in (1, 2, 3):
        table_setup.open_table(tournament, actor=director, number=number, seats=9)
    register(cashier, tournament, 26)
    draws.draw_start(tournament, actor=director)
    for table in Table.objects.filter(tournament=tournament):
        draws.draw_button(table, actor=director)
    assert (
        client_for(director).patch(url(tournament, "house-rules/"), {"balance_threshold": 1, "halt_short_by": 2}, format="json").status_code
        == 200
    )
    staff = client_for(director)
    for _round in range(6):
        for _table, players in sorted(seated(tournament).items()):
            leaving = set(Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).values_list("entry__number", flat=True))
            number = next((n for s, n in sorted(players.items()) if n not in leaving), None)
            if number is None:
                continue
            answer = staff.post(url(tournament, f"entries/{number}/bust/"), {}, format="json")
            assert answer.status_code in (200, 201), answer.content
        assert staff.post(url(tournament, "moves/balance/"), {}, format="json").status_code in (200, 201)
    victim = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).first()
    registration.void_purchase(victim.purchases.get(), actor=cashier, reason="wrong player")
    assert not Seat.objects.filter(entry=victim, ended_at__isnull=True).exists()
    assert not AuditEvent.objects.filter(tournament=tournament, type="balance.failed").exists()
    counts = [len(s) for s in seated(tournament).values()]
    pending = Move.objects.filter(tournament=tournament, status=Move.Status.PENDING).count()
    assert pending or max(counts) - min(counts) <= 1 or screens.balancing_status(tournament)["notice"]


def test_a_defect_in_balancing_never_undoes_the_bust(lopsided, director, floor, monkeypatch, caplog):
    t = lopsided
    busts.bust_entry(entry(t, seated(t)[1][1]), actor=floor)  # 3 against 9 at table 1 (four seats): a move
    assert Move.objects.filter(tournament=t, status=Move.Status.PENDING).count() == 1
    moves.cancel_move(t, actor=floor, number=Move.objects.get(tournament=t).number)

    def broken(*args, **kwargs):
        raise RuntimeError("a defect in the planner")

    monkeypatch.setattr(balancing, "balance_move", broken)
    events = AuditEvent.objects.filter(tournament=t).count()
    victim = entry(t, seated(t)[2][1])
    with caplog.at_level(logging.ERROR, logger="tables.services.moves"):
        busts.bust_entry(victim, actor=floor)
    victim.refresh_from_db()
    assert victim.status == Entry.Status.BUSTED and victim.finish_place == 12  # the bust stands
    assert not Seat.objects.filter(entry=victim, ended_at__isnull=True).exists()
    assert not Move.objects.filter(tournament=t, status=Move.Status.PENDING).exists()
    assert "balancing failed" in caplog.text and "a defect in the planner" in caplog.text  # with its traceback
    failed = AuditEvent.objects.get(tournament=t, type="balance.failed")
    assert failed.payload["error"] == "RuntimeError" and "Balance now" in failed.payload["message"]
    assert screens.balancing_status(t)["notice"]["type"] == "balance.failed"
    assert AuditEvent.objects.filter(tournament=t).count() > events
    # "Balance now" is the floor's own request: a defect there is an error, not a silent success.
    with pytest.raises(RuntimeError):
        moves.balance_now(t, actor=director)
    monkeypatch.undo()
    moves.balance_now(t, actor=director)  # 3 against 8: one player moves in, then table 1 is full again
    assert Move.objects.filter(tournament=t, status=Move.Status.PENDING).count() == 1
    assert screens.balancing_status(t)["notice"]["type"] == "balance.no_move"  # the failure notice is replaced


def test_a_refused_draw_after_a_bust_is_a_notice_and_the_bust_stands(lopsided, director, floor, monkeypatch):
    t = lopsided

    def decide_with_no_open_seat(*args, **kwargs):
        raise ServiceError("There are not enough open seats: open another table first.", code="no_open_seat", status=409)

    monkeypatch.setattr(moves, "decide", decide_with_no_open_seat)
    victim = entry(t, seated(t)[2][1])
    busts.bust_entry(victim, actor=floor)
    victim.refresh_from_db()
    assert victim.status == Entry.Status.BUSTED
    blocked = AuditEvent.objects.get(tournament=t, type="balance.blocked")
    assert blocked.payload["code"] == "no_open_seat"
    assert screens.balancing_status(t)["notice"]["code"] == "no_open_seat"
