"""The night machine's undo invariant (tests/night_undo.py): an undo is possible, or its refusal names the
one press that makes it possible; checked in a savepoint that changes nothing."""

from __future__ import annotations

import random
from datetime import date
from types import SimpleNamespace
from unittest import mock

import pytest

from core.errors import ServiceError
from tables.models import Move, Seat, Table
from tables.services import busts
from tables.services import setup as table_setup
from tests import night_undo
from tests.helpers import id_doc
from tests.tables.test_hand_for_hand import confirm_all
from tests.tables.test_moves import seated, start
from tournament.models import AuditEvent, Entry
from tournament.services import registration


@pytest.fixture
def full_room(director, cashier, floor, tournament):
    """Two full tables of nine; a bust at table 1, whose seat a late entry then takes: no seat is open, and no
    table breaks. Returns the busted entry."""
    start(director, cashier, tournament, 18, table_numbers=(1, 2))
    number = min(seated(tournament)[1].values())
    busts.bust_entry(Entry.objects.get(tournament=tournament, number=number), actor=floor)
    player = registration.create_player(actor=cashier, first_name="Late", last_name="Comer", date_of_birth=date(1990, 1, 1))
    registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("LATE0039"))
    assert sorted(len(s) for s in seated(tournament).values()) == [9, 9]
    return Entry.objects.get(tournament=tournament, number=number)


def test_an_undo_with_no_seat_and_no_break_to_give_back_names_the_press(director, floor, tournament, full_room):
    with pytest.raises(ServiceError) as exc:
        busts.undo_bust(full_room, actor=floor)
    assert exc.value.code == "venue_full" and exc.value.details["press"] == "open_table"  # the venue has no free table either
    assert "open another table" in exc.value.message
    table_setup.open_table(tournament, actor=director, number=3, seats=9)  # the press it names
    busts.undo_bust(full_room, actor=floor)
    confirm_all(floor, tournament)
    assert sum(len(s) for s in seated(tournament).values()) == 19 and len(seated(tournament)) == 3


def test_the_undo_invariant_tries_every_undo_and_its_press_and_changes_nothing(director, cashier, floor, tournament, full_room):
    night = SimpleNamespace(t=tournament, staff={"director": director, "cashier": cashier, "floor": floor}, seeds=random.Random(39))
    events, seats = AuditEvent.objects.filter(tournament=tournament).count(), seated(tournament)
    drawn = night.seeds.getstate()
    with mock.patch.object(night_undo, "_press", wraps=night_undo._press) as pressed:
        night_undo.undo_possible_or_its_press_named(night)
    assert [{k: c.args[2][k] for k in ("entry", "press")} for c in pressed.call_args_list] == [
        {"entry": full_room.number, "press": "open_table"}
    ]
    assert AuditEvent.objects.filter(tournament=tournament).count() == events and seated(tournament) == seats
    assert not Table.objects.filter(tournament=tournament, number=3).exists() and night.seeds.getstate() == drawn
    assert not Move.objects.filter(tournament=tournament).exists() and Seat.objects.filter(entry=full_room).count() == 1


def test_the_undo_invariant_fails_on_a_refusal_that_names_no_press(director, cashier, floor, tournament, full_room):
    night = SimpleNamespace(t=tournament, staff={"director": director, "cashier": cashier, "floor": floor}, seeds=None)
    refusal = ServiceError("There are not enough open seats: open another table first.", code="no_open_seat")
    with mock.patch.object(busts, "undo_bust", side_effect=refusal), pytest.raises(AssertionError, match="names no press"):
        night_undo.undo_possible_or_its_press_named(night)
