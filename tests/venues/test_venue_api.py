"""The venue's API (web/venues/api.py): the room map for the staff, the set-up for the director, the floor's states,
reservations and tables handed over; bad input refused with a message and nothing changed."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tables.services import draws
from tests.conftest import make_user, tournament_data
from tests.helpers import client_for, open_tables, page_as, register
from tournament.models import AuditEvent, StaffProfile
from tournament.services import setup
from venues.models import VenueTable
from venues.services import setup as venue_setup


@pytest.fixture
def venue(director):
    venue = venue_setup.default_venue()
    text = "number,area,seats\n" + "\n".join(f"{n},{'Main hall' if n <= 6 else 'Side room'},{9 if n < 8 else 10}" for n in range(1, 9))
    answer = client_for(director).post(f"/api/venues/{venue.pk}/import/", {"csv": text}, format="json")
    assert answer.status_code == 200 and answer.json() == {"tables": 8, "added": 8, "changed": 0}
    answer = client_for(director).patch(f"/api/venues/{venue.pk}/", {"areas": ["Side room", "Main hall"]}, format="json")
    assert answer.status_code == 200 and answer.json()["area_order"] == ["Side room", "Main hall"] and answer.json()["fixed_tables"]
    return venue


def test_the_room_map_shows_every_table_by_area_with_its_state_and_tournament(director, floor, cashier, tournament, venue):
    side = setup.create_tournament(tournament_data(name="Side Event"), actor=director, template=tournament.structure)
    open_tables(director, tournament, [1, 2])
    register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    floor_api = client_for(floor)
    assert (
        floor_api.post(
            f"/api/venues/{venue.pk}/tables/3/reservation/", {"tournament": side.pk, "reason": "20:00"}, format="json"
        ).status_code
        == 200
    )
    assert (
        floor_api.post(f"/api/venues/{venue.pk}/tables/4/state/", {"state": "cash", "reason": "Cash 2/5"}, format="json").status_code == 200
    )
    handed = floor_api.post(f"/api/venues/{venue.pk}/tables/8/hand/", {"tournament": side.pk}, format="json")
    assert handed.status_code == 201 and handed.json() == {"tournament": side.pk, "table": 8, "seats": 9}  # 9-handed on 10 seats
    room = client_for(cashier).get(f"/api/venues/{venue.pk}/").json()
    assert [t["number"] for t in room["tables"]] == [7, 8, 1, 2, 3, 4, 5, 6]  # the Side room first, as the house orders
    by_number = {t["number"]: t for t in room["tables"]}
    assert (by_number[1]["state"], by_number[1]["tournament_name"], by_number[1]["players"]) == ("held", "Sunday Deepstack", 6)
    assert (by_number[3]["state"], by_number[3]["reserved_for_name"], by_number[3]["reason"]) == ("reserved", "Side Event", "20:00")
    assert (by_number[4]["state"], by_number[4]["reason"]) == ("cash", "Cash 2/5")
    assert (by_number[8]["state"], by_number[8]["plays_seats"], by_number[8]["seats"]) == ("held", 9, 10)
    assert room["counts"] == {"free": 3, "held": 3, "reserved": 1, "out_of_service": 0, "cash": 1}
    only_side = client_for(cashier).get(f"/api/venues/{venue.pk}/?tournament={side.pk}").json()
    assert [t["number"] for t in only_side["tables"]] == [8, 3]
    types = list(AuditEvent.objects.filter(tournament=side).values_list("type", flat=True))
    assert "venue.reserved" in types and "venue.tables_taken" in types and "table.opened" in types


def test_staff_of_one_tournament_read_only_its_name_and_act_only_for_it(director, floor, tournament, venue):
    side = setup.create_tournament(tournament_data(name="Side Event"), actor=director, template=tournament.structure)
    open_tables(director, tournament, [1])
    scoped = make_user("floor-side", "Floor")
    StaffProfile.objects.create(user=scoped).tournaments.add(side)
    room = client_for(scoped).get(f"/api/venues/{venue.pk}/").json()
    table1 = next(t for t in room["tables"] if t["number"] == 1)
    assert (table1["tournament"], table1["tournament_name"]) == (None, "another tournament")
    assert "Sunday Deepstack" not in str(room)
    refused = client_for(scoped).post(f"/api/venues/{venue.pk}/tables/2/hand/", {"tournament": tournament.pk}, format="json")
    assert refused.status_code == 403
    assert client_for(scoped).post(f"/api/venues/{venue.pk}/tables/2/hand/", {"tournament": side.pk}, format="json").status_code == 201
    held = client_for(scoped).post(f"/api/venues/{venue.pk}/tables/1/hand/", {"tournament": side.pk}, format="json")
    assert held.status_code == 409 and held.json()["detail"] == "Table 1 is held by another tournament."


@pytest.mark.parametrize(
    "method, path, body, status, words",
    [
        ("post", "tables/1/state/", {"state": "out_of_service", "reason": "Felt"}, 409, "Table 1 is in play"),
        ("delete", "tables/1/", None, 409, "Table 1 is in play"),
        ("patch", "tables/1/", {"seats": 6}, 409, "cannot have fewer"),
        ("post", "tables/", {"number": 2, "seats": 9}, 409, "has a table 2 already"),
        ("post", "tables/", {"number": 20, "seats": 12}, 400, ""),
        ("post", "tables/2/state/", {"state": "cash"}, 400, "Give the reason"),
        ("post", "tables/2/state/", {"state": "gone", "reason": "x"}, 400, ""),
        ("post", "import/", {"csv": "number,area,seats\n1,A,9\n1,A,9\n"}, 400, "Line 3: table 1 is on line 2 too"),
        ("post", "import/", {"csv": "number,area,seats,state\n1,A,9,cash\n"}, 409, "Table 1 is in play"),
        ("post", "tables/99/hand/", {"tournament": 0}, 400, ""),
        ("post", "tables/99/state/", {"state": "cash", "reason": "x"}, 404, "no table 99"),
        ("patch", "", {"colour": "red"}, 400, "Not a setting"),
    ],
)
def test_bad_input_is_refused_with_a_message_and_changes_nothing(director, tournament, venue, method, path, body, status, words):
    open_tables(director, tournament, [1])
    before = (list(VenueTable.objects.order_by("number").values()), AuditEvent.objects.count())
    client = client_for(director)
    answer = (
        getattr(client, method)(f"/api/venues/{venue.pk}/{path}", body, format="json")
        if body is not None
        else client.delete(f"/api/venues/{venue.pk}/{path}")
    )
    assert answer.status_code == status, answer.content
    assert words in answer.json()["detail"] or words in str(answer.json())
    assert (list(VenueTable.objects.order_by("number").values()), AuditEvent.objects.count()) == before


def test_the_room_map_reads_in_the_same_number_of_queries_for_one_tournament_and_for_six(director, cashier, template, venue):
    venue_setup.import_room(venue, actor=director, text="number,area,seats\n" + "\n".join(f"{n},Hall,9" for n in range(9, 41)))

    def queries() -> int:
        with CaptureQueriesContext(connection) as ctx:
            # a fresh user each time: its roles and tournaments are read again (the same object keeps them)
            assert client_for(User.objects.get(pk=director.pk)).get(f"/api/venues/{venue.pk}/").status_code == 200
        ctx_log[:] = ctx.captured_queries
        return len(ctx.captured_queries)

    ctx_log: list = []

    events = [setup.create_tournament(tournament_data(name=f"Event {i}"), actor=director, template=template) for i in range(6)]
    register(cashier, events[0], 18)
    draws.draw_start(events[0], actor=director)
    one = queries()
    for i, t in enumerate(events[1:], start=1):
        register(cashier, t, 18, start=18 * i)
        draws.draw_start(t, actor=director)
    assert VenueTable.objects.filter(table__isnull=False).count() == 12
    assert queries() == one, [q["sql"][:120] for q in ctx_log]


def test_the_room_page_shows_the_map_and_each_role_its_forms(director, floor, cashier, tournament, venue):
    open_tables(director, tournament, [1])
    page = page_as(floor, "/room/")
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-number="1"' in html and "Sunday Deepstack" in html and 'id="rm-act"' in html and 'id="rm-import"' not in html
    assert 'id="rm-import"' in page_as(director, f"/venues/{venue.pk}/room/").content.decode()
    desk = page_as(cashier, "/room/").content.decode()
    assert 'data-number="1"' in desk and 'id="rm-act"' not in desk  # the desk reads the room, the floor acts
    assert page_as(cashier, f"/venues/{venue.pk + 100}/room/").status_code == 404


def test_a_second_venue_has_tables_of_its_own_and_a_tournament_chooses_it_before_it_opens_any(director, floor, tournament, venue):
    side = setup.create_tournament(tournament_data(name="Side Event"), actor=director, template=tournament.structure)
    made = client_for(director).post("/api/venues/", {"name": "Casino annex"}, format="json")
    assert made.status_code == 201 and made.json()["fixed_tables"]
    annex = made.json()["id"]
    assert (
        client_for(director).post(f"/api/venues/{annex}/tables/", {"number": 1, "seats": 8, "area": "Annex"}, format="json").status_code
        == 201
    )
    screen = page_as(director, f"/venues/{annex}/room/").content.decode()  # the annex's room screen offers the side event
    assert 'id="rm-move"' in screen and f'<option value="{side.pk}">Side Event</option>' in screen
    chosen = client_for(director).post(f"/api/venues/{annex}/tournaments/", {"tournament": side.pk}, format="json")
    assert chosen.status_code == 200 and client_for(director).get(f"/api/tournaments/{side.pk}/").json()["room"] == annex
    open_tables(director, tournament, [1])  # the first venue's table 1
    open_tables(director, side, [1], seats=8)  # the annex's: another table of the same number
    assert VenueTable.objects.get(venue_id=annex, number=1).table.tournament == side
    assert 'id="rm-move-none"' in page_as(director, f"/venues/{annex}/room/").content.decode()  # both have opened tables
    other = client_for(floor).post(f"/api/venues/{venue.pk}/tables/2/hand/", {"tournament": side.pk}, format="json")
    assert other.status_code == 409 and other.json()["detail"] == "That tournament plays in another venue."
    late = client_for(director).post(f"/api/venues/{venue.pk}/tournaments/", {"tournament": side.pk}, format="json")
    assert late.status_code == 409 and "opened tables already" in late.json()["detail"]
    assert AuditEvent.objects.filter(tournament=side, type="venue.room_set").count() == 1
