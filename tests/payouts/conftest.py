"""The payouts tests' fixtures: a satellite of twelve for a Main Event."""

from __future__ import annotations

import pytest

from payouts.services import tickets
from tables.models import Table
from tables.services import busts, draws
from tests.conftest import tournament_data
from tests.helpers import open_tables
from tests.payouts.test_payments import finish, register_numbered
from tests.tables.test_hand_for_hand import confirm_all
from tests.tables.test_moves import seated
from tournament.models import Entry
from tournament.services import setup

SEAT = 10_000 + 1_500  # the target's buy-in and fee


@pytest.fixture
def finished(director, cashier, floor, tournament) -> list[Entry]:
    """Eight entries, four paid; places 8 to 4 out, registration closed (tests/payouts/test_payments.py, finish)."""
    return finish(director, cashier, floor, tournament)


@pytest.fixture
def main_event(director, template):
    return make_main_event(director, template)


@pytest.fixture
def satellite(director, cashier, template, main_event):
    return make_satellite(director, cashier, template, main_event)


def make_main_event(director, template):
    return setup.create_tournament(tournament_data(name="Main Event", guaranteed_pool=0), actor=director, template=template)


def make_satellite(director, cashier, template, main_event):
    """A satellite of twelve at 2,500 + 500 for the Main Event: a pool of 30,000 is two seats of 11,500 and 7,000 cash
    for third place."""
    t = setup.create_tournament(
        tournament_data(name="Main Event Satellite", buy_in=2_500, fee=500, guaranteed_pool=0), actor=director, template=template
    )
    tickets.set_satellite(t, actor=director, data={"target": main_event.pk})
    return seat_field(director, cashier, t, 12)


def seat_field(director, cashier, t, players: int):
    """Two tables of six, `players` entries registered, drawn and their buttons drawn."""
    open_tables(director, t, [1, 2], seats=6)
    register_numbered(cashier, t, players)
    draws.draw_start(t, actor=director)
    for number in seated(t):
        draws.draw_button(Table.objects.get(tournament=t, number=number), actor=director)
    return t


def bust_down_to(floor, t, players: int) -> None:
    while Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).count() > players:
        busts.bust_entry(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).order_by("number").first(), actor=floor)
        confirm_all(floor, t)
