"""A flight's lobby snapshot is kept at a version made of its event's sequences (live/snapshots.lobby_version); the
floor's snapshot of the same flight, kept apart, must not make the lobby forget its other tournaments (a TV and a
fresh load then stayed on the snapshot from before the clock started, the festival bench found)."""

from datetime import date

import pytest

from clock.services import clock as clock_services
from core import memory
from live.snapshots import floor_answer, lobby_answer
from tests.flights.test_flights import event_with, register
from tournament.models import Tournament
from tournament.services import registration


@pytest.mark.django_db
def test_a_flights_lobby_snapshot_follows_its_clock_after_the_floor_read_its_own(director, cashier, template):
    memory.forget_all()
    event, (a, b) = event_with(director, template)
    people = [
        registration.create_player(actor=cashier, first_name=f"F{i}", last_name="Flight", date_of_birth=date(1990, 1, 1)) for i in range(12)
    ]
    register(cashier, a, people[:6])
    register(cashier, b, people[6:12])
    fresh = lambda t: Tournament.objects.get(pk=t.pk)  # noqa: E731  as a request reads it
    lobby_answer(fresh(a))
    lobby_answer(fresh(a))  # kept at the event's version now: its own sequence and the others'
    assert floor_answer(fresh(a))["kind"] == "snapshot"  # the floor's tablets read the flight too
    clock_services.start_clock(fresh(a), actor=director)
    assert lobby_answer(fresh(a))["clock"]["status"] == "running"
