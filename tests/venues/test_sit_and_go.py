"""Sit & gos (venues/services/sit_and_go.py, tables/reactions.start_full_sit_and_go): the registration that fills one
seats its players at a free table of the venue by the verifiable draw, starts its clock and opens the next of its
series; a satellite sit & go's next is a satellite of the same target; a full venue leaves it waiting."""

from __future__ import annotations

import pytest

from clock.models import ClockState
from payouts.models import Satellite
from payouts.services import tickets
from tables.models import Draw, HouseRules
from tables.selectors import draw_check
from tables.selectors.state import live_seats
from tables.services import draws, house_rules
from tests.conftest import tournament_data
from tests.helpers import client_for, page_as, refused, register
from tournament.models import AuditEvent, Tournament
from tournament.services import setup
from venues.models import SitAndGo, VenueTable
from venues.services import setup as venue_setup
from venues.services import sit_and_go


@pytest.fixture
def room(director):
    venue = venue_setup.default_venue()
    venue_setup.import_room(venue, actor=director, text="number,area,seats\n" + "\n".join(f"{n},Hall,9" for n in range(30, 34)))
    return venue


def test_the_registration_that_fills_it_starts_it_at_a_free_table_and_opens_the_next(director, cashier, template, room):
    sng = setup.create_tournament(tournament_data(name="Turbo SNG", seats_per_table=6), actor=director, template=template)
    answer = client_for(director).post(f"/api/tournaments/{sng.pk}/sit-and-go/", {"players": 6, "opens_next": True}, format="json")
    assert answer.status_code == 200 and answer.json() == {"players": 6, "opens_next": True}
    register(cashier, sng, 5)
    assert (
        not Draw.objects.filter(tournament=sng, kind=Draw.Kind.START).exists()
        and not VenueTable.objects.filter(table__tournament=sng).exists()
    )
    (sixth,) = register(cashier, sng, 1, start=5)
    sng.refresh_from_db()
    assert sng.status == Tournament.Status.RUNNING
    assert [vt.number for vt in VenueTable.objects.filter(table__tournament=sng)] == [30]  # the first free table
    assert live_seats(sng).count() == 6 and live_seats(sng).get(entry=sixth).table.number == 30
    registered = AuditEvent.objects.get(tournament=sng, type="entry.registered", payload__entry=sixth.number)
    assert registered.payload["table"] == 30  # the receipt of the entry that filled it shows his seat
    assert ClockState.objects.get(tournament=sng).status == ClockState.Status.RUNNING
    start = Draw.objects.get(tournament=sng, kind=Draw.Kind.START)
    check = draw_check.verify_draw(start)  # the verifiable draw, as any start draw
    assert check["commitment_matches"] and check["matches"]
    following = SitAndGo.objects.get(tournament=sng).next
    assert (following.number, following.players, following.opens_next, following.tournament.name) == (2, 6, True, "Turbo SNG #2")
    assert following.tournament.status == Tournament.Status.SETUP and following.tournament.seats_per_table == 6
    assert sng.registration_closed and not following.tournament.registration_closed  # it plays at its one table
    assert AuditEvent.objects.filter(tournament=sng, type="registration.closed", payload={"sit_and_go": True}).exists()
    assert refused("registration_closed", register, cashier, sng, 1, start=6).status == 409  # the next goes to the next one
    assert AuditEvent.objects.filter(tournament=following.tournament, type="sit_and_go.opened").exists()


def test_a_satellite_sit_and_go_opens_a_satellite_of_the_same_target(director, cashier, template, room):
    main = setup.create_tournament(tournament_data(name="Main Event", buy_in=50000), actor=director, template=template)
    sng = setup.create_tournament(tournament_data(name="Satellite SNG", seats_per_table=6, buy_in=10000), actor=director, template=template)
    tickets.set_satellite(sng, actor=director, data={"target": main.pk, "leftover": "next_place"})
    sit_and_go.set_sit_and_go(sng, actor=director, players=6, opens_next=True)
    register(cashier, sng, 6)
    following = SitAndGo.objects.get(tournament=sng).next.tournament
    copied = Satellite.objects.get(tournament=following)
    assert (copied.target, copied.leftover) == (main, "next_place")


def test_a_full_venue_leaves_it_waiting_and_bad_settings_are_refused(director, floor, cashier, template, room):
    for n in range(30, 34):
        venue_setup.set_state(room, actor=floor, number=n, status="cash", reason="Cash night")
    sng = setup.create_tournament(tournament_data(name="SNG", seats_per_table=6), actor=director, template=template)
    refused("sit_and_go_players", sit_and_go.set_sit_and_go, sng, actor=director, players=7)
    refused("sit_and_go_players", sit_and_go.set_sit_and_go, sng, actor=director, players=1)
    refused("forbidden", sit_and_go.set_sit_and_go, sng, actor=floor, players=6)
    sit_and_go.set_sit_and_go(sng, actor=director, players=2, opens_next=True)
    register(cashier, sng, 2)  # the entries stand; the sit & go waits for a table
    assert not Draw.objects.filter(tournament=sng, kind=Draw.Kind.START).exists()
    waiting = AuditEvent.objects.get(tournament=sng, type="sit_and_go.waiting")
    assert "Seating 2 entries needs 2 more seats" in waiting.payload["reason"]
    assert SitAndGo.objects.get(tournament=sng).next is None
    refused("sit_and_go_late", sit_and_go.set_sit_and_go, sng, actor=director, players=3)
    # The floor frees a table and the director makes the start draw: it starts as if it had found one, the next opens.
    house_rules.set_house_rules(sng, actor=director, data={"balance_threshold": 2})
    venue_setup.set_state(room, actor=floor, number=31, status="open")
    draws.draw_start(sng, actor=director)
    sng.refresh_from_db()
    started = SitAndGo.objects.get(tournament=sng)
    assert started.started_at is not None and sng.registration_closed and started.next is not None
    assert [vt.number for vt in VenueTable.objects.filter(table__tournament=sng)] == [31]
    assert HouseRules.objects.get(tournament=started.next.tournament).balance_threshold == 2  # the series' house rules
    refused("registration_closed", register, cashier, sng, 1, start=2)  # no seventh alone at another table


def test_the_setup_page_offers_the_sit_and_go_until_the_tournament_starts(director, floor, template):
    sng = setup.create_tournament(tournament_data(name="SNG", seats_per_table=6), actor=director, template=template)
    page = page_as(director, f"/setup/tournaments/{sng.pk}/").content.decode()
    assert f'data-api="tournaments/{sng.pk}/sit-and-go/"' in page and 'max="6"' in page and "Make it a sit & go" in page
    sit_and_go.set_sit_and_go(sng, actor=director, players=4, opens_next=True)
    page = page_as(director, f"/setup/tournaments/{sng.pk}/").content.decode()
    assert 'value="4"' in page and "Save the sit & go" in page
