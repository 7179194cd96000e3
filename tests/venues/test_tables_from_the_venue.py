"""A tournament takes its tables from the venue (tables/services/venue.py): one tournament at most holds a table,
draws short of seats take free tables in the house's order, a table that breaks or a tournament that ends gives them
back, and the venue's own changes (venues/services/setup.py) never touch a table in play."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.test import Client

from archive.selectors.export import export_tournament, file_text
from archive.services.transfer import import_tournament, read_file
from tables.models import Move, Table
from tables.selectors.state import live_seats
from tables.services import busts, dealer_links, draws, moves
from tables.services import setup as table_setup
from tests.concurrency import at_once
from tests.conftest import make_user, tournament_data
from tests.helpers import open_tables, refused, register
from tournament.models import AuditEvent, Entry, StaffProfile, Tournament
from tournament.services import setup
from venues.models import VenueTable
from venues.services import setup as venue_setup


def held(t) -> list[int]:
    return sorted(VenueTable.objects.filter(table__tournament=t).values_list("number", flat=True))


def room(director, numbers, *, seats=9, areas=None):
    """A room set up with its tables: `numbers` (area by the number's hundred when `areas` maps them)."""
    venue = venue_setup.default_venue()
    for n in numbers:
        venue_setup.add_table(venue, actor=director, number=n, seats=seats, area=(areas or {}).get(n, ""))
    return venue_setup.set_areas(venue, actor=director, areas=sorted(set((areas or {}).values())), fixed_tables=True)


@pytest.fixture
def side(director, template):
    return setup.create_tournament(tournament_data(name="Side Event"), actor=director, template=template)


def test_two_tournaments_never_hold_one_table_and_a_scoped_floor_does_not_read_the_others_name(director, tournament, side):
    open_tables(director, tournament, [1, 2])
    error = refused("table_held", table_setup.open_table, side, actor=director, number=2)
    assert error.status == 409 and "Table 2 is held by Sunday Deepstack" in error.message
    scoped = make_user("floor-side", "Floor")
    StaffProfile.objects.create(user=scoped).tournaments.add(side)
    scoped = User.objects.get(pk=scoped.pk)
    assert venue_setup.holder_name(VenueTable.objects.get(number=2), actor=scoped) == "another tournament"
    open_tables(director, side, [3])
    assert (held(tournament), held(side)) == ([1, 2], [3])
    with pytest.raises(IntegrityError), transaction.atomic():  # the database holds it too: one column, one holder
        VenueTable.objects.filter(number=3).update(table=Table.objects.get(tournament=tournament, number=1))


def test_a_table_in_play_is_never_closed_and_a_closed_one_is_never_taken(director, floor, tournament, side):
    venue = room(director, [1, 2, 3])
    open_tables(director, tournament, [1])
    refused("table_in_play", venue_setup.set_state, venue, actor=floor, number=1, status="out_of_service", reason="Broken leg")
    refused("table_in_play", venue_setup.remove_table, venue, actor=director, number=1)
    refused("reason_required", venue_setup.set_state, venue, actor=floor, number=2, status="cash")
    venue_setup.set_state(venue, actor=floor, number=2, status="cash", reason="Cash game 2/5")
    error = refused("table_closed", table_setup.open_table, side, actor=director, number=2)
    assert "given to cash games (Cash game 2/5)" in error.message
    refused("no_venue_table", table_setup.open_table, side, actor=director, number=4)  # a room set up has its tables only
    with pytest.raises(IntegrityError), transaction.atomic():
        VenueTable.objects.filter(number=1).update(status="out_of_service")
    assert held(tournament) == [1] and held(side) == []


def test_a_table_cannot_be_played_with_more_seats_than_it_has(director, tournament):
    room(director, [1], seats=8)
    error = refused("table_seats", table_setup.open_table, tournament, actor=director, number=1, seats=9)
    assert "Table 1 has 8 seats: it cannot be played 9-handed." in error.message
    open_tables(director, tournament, [1], seats=8)


def test_the_start_draw_takes_free_tables_in_the_house_order_skipping_held_reserved_and_closed(director, floor, cashier, tournament, side):
    areas = {n: "Main hall" for n in range(1, 6)} | {n: "Side room" for n in range(11, 14)}
    venue = room(director, [*range(1, 6), *range(11, 14)], areas=areas)
    venue_setup.set_areas(venue, actor=director, areas=["Side room", "Main hall"])
    open_tables(director, side, [11])
    venue_setup.reserve(venue, actor=floor, number=12, tournament=side, reason="Side event's late registration")
    venue_setup.set_state(venue, actor=floor, number=1, status="out_of_service", reason="Felt torn")
    register(cashier, tournament, 30)
    draws.draw_start(tournament, actor=director)
    # 30 players need 4 tables of 9: 13 (Side room, free), then 2, 3, 4 (Main hall; 11 held, 12 reserved, 1 closed).
    assert held(tournament) == [2, 3, 4, 13]
    assert sorted(set(live_seats(tournament).values_list("table__number", flat=True))) == [2, 3, 4, 13]
    taken = AuditEvent.objects.get(tournament=tournament, type="venue.tables_taken")
    assert taken.payload == {"tables": [13, 2, 3, 4]}


def test_a_draw_the_venue_cannot_seat_says_what_is_missing_and_changes_nothing(director, floor, cashier, tournament, side):
    register(cashier, tournament, 25)  # before the room was set up: now its seats would send the last ones to the waiting list
    venue = room(director, [1, 2, 3])
    venue_setup.reserve(venue, actor=floor, number=3, tournament=side)
    before = AuditEvent.objects.filter(tournament=tournament).count()
    error = refused("venue_full", draws.draw_start, tournament, actor=director)
    assert error.details == {"missing_seats": 7, "missing_tables": 1, "free_tables": 2, "reserved": [3]}
    assert "Seating 25 entries needs 25 more seats" in error.message and "Reserved for other tournaments: 3." in error.message
    assert held(tournament) == [] and not Table.objects.filter(tournament=tournament).exists()
    assert AuditEvent.objects.filter(tournament=tournament).count() == before


def test_the_directors_list_is_taken_first(director, cashier, tournament):
    room(director, [1, 2, 3, 4, 5])
    register(cashier, tournament, 12)
    refused("bad_tables", draws.draw_start, tournament, actor=director, tables=[5, 5])
    refused("bad_tables", draws.draw_start, tournament, actor=director, tables=[5, "x"])
    draws.draw_start(tournament, actor=director, tables=[5, 4])
    assert held(tournament) == [4, 5]


def test_a_late_entry_with_every_seat_taken_gets_a_table_from_the_venue(director, cashier, tournament):
    room(director, [1, 2, 3])
    open_tables(director, tournament, [1])
    register(cashier, tournament, 9)
    draws.draw_start(tournament, actor=director)
    (late,) = register(cashier, tournament, 1, start=9)
    assert held(tournament) == [1, 2]
    assert live_seats(tournament).get(entry=late).table.number == 2


def _confirm_every_slip(t, floor):
    while pending := list(Move.objects.filter(tournament=t, status=Move.Status.PENDING).order_by("number")):
        for move in pending:
            moves.confirm_move(t, actor=floor, number=move.number)


def test_a_table_that_breaks_goes_back_at_once_to_the_tournament_that_reserved_it(director, floor, cashier, tournament, side):
    venue = room(director, [1, 2, 3, 4])
    open_tables(director, tournament, [1, 2, 3])
    register(cashier, tournament, 27)
    draws.draw_start(tournament, actor=director)
    venue_setup.reserve(venue, actor=floor, number=3, tournament=side, reason="Side event at 20:00")
    at = {n: [s.entry for s in live_seats(tournament).filter(table__number=n).select_related("entry")] for n in (1, 3)}
    for entry in at[3][:5] + at[1][:4]:
        busts.bust_entry(Entry.objects.get(pk=entry.pk), actor=floor)
        _confirm_every_slip(tournament, floor)
    assert held(tournament) == [1, 2]  # table 3 broke: 18 players at two tables
    vt = VenueTable.objects.get(number=3)
    assert vt.table_id is None and vt.reserved_for == side
    given = AuditEvent.objects.filter(tournament=tournament, type="venue.tables_given_back").get()
    assert given.payload == {"tables": [3]}
    refused(
        "table_reserved",
        table_setup.open_table,
        setup.create_tournament(tournament_data(name="Third"), actor=director, template=side.structure),
        actor=director,
        number=3,
    )
    table_setup.open_table(side, actor=director, number=3)
    assert held(side) == [3] and VenueTable.objects.get(number=3).reserved_for is None  # the reservation is used


def test_a_room_file_of_200_tables_sets_the_venue_up_and_a_wrong_line_changes_nothing(director, tournament):
    venue = venue_setup.default_venue()
    lines = ["number,area,seats,state"] + [
        f"{n},{'Main hall' if n <= 150 else 'Side room'},{9 if n % 10 else 10},open" for n in range(1, 201)
    ]
    assert venue_setup.import_room(venue, actor=director, text="\n".join(lines)) == {"tables": 200, "added": 200, "changed": 0}
    assert VenueTable.objects.filter(venue=venue).count() == 200 and VenueTable.objects.filter(seats=10).count() == 20
    open_tables(director, tournament, [7])
    error = refused("table_in_play", venue_setup.import_room, venue, actor=director, text="number,area,seats,state\n7,Main hall,9,cash\n")
    assert "nothing changed" in error.message
    error = refused("bad_room_file", venue_setup.import_room, venue, actor=director, text="number,area,seats\n8,Bar,12\n9,Bar,9\n9,Bar,9\n")
    assert error.details == [
        {"line": 2, "problem": "seats", "number": 8, "seats": 12},
        {"line": 4, "problem": "twice", "number": 9, "first": 3},
    ]
    assert VenueTable.objects.get(number=8).area == "Main hall"
    changed = venue_setup.import_room(venue, actor=director, text="number,area,seats,state\n8,Bar,8,out_of_service\n201,Bar,6,open\n")
    assert changed == {"tables": 2, "added": 1, "changed": 1}
    assert AuditEvent.objects.filter(tournament=None, type="venue.imported").count() == 2


def test_two_tables_with_one_number_are_refused(director):
    venue = venue_setup.default_venue()
    venue_setup.add_table(venue, actor=director, number=5, seats=9)
    twice = refused("table_exists", venue_setup.add_table, venue, actor=director, number=5, seats=8)
    assert twice.status == 409 and twice.message == "The venue has a table 5 already."
    too_many = refused("table_seats", venue_setup.add_table, venue, actor=director, number=6, seats=12)
    assert too_many.message == "A venue table has 6 to 10 seats."
    assert list(VenueTable.objects.filter(venue=venue).values_list("number", "seats")) == [(5, 9)]  # nothing changed


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="SQLite runs one writer at a time: nothing to race")
def test_two_draws_at_the_same_moment_never_share_a_table(director, cashier, template):
    room(director, range(1, 21))
    events = [setup.create_tournament(tournament_data(name=f"Event {i}"), actor=director, template=template) for i in range(4)]
    for i, t in enumerate(events):
        register(cashier, t, 40, start=40 * i)  # 5 tables each: 20 in all, the whole room
    outcomes = at_once([lambda t=t: draws.draw_start(t, actor=director) for t in events])
    assert not [o for o in outcomes if isinstance(o, Exception)], [held(t) for t in events]
    tables = [held(t) for t in events]
    assert sorted(n for numbers in tables for n in numbers) == list(range(1, 21)) and all(len(numbers) == 5 for numbers in tables)


def test_a_dealer_link_follows_its_physical_table_into_the_tournament_that_takes_it(director, floor, tournament, side):
    open_tables(director, tournament, [5])
    link, secret = dealer_links.create_dealer_link(Table.objects.get(tournament=tournament, number=5), actor=floor, label="tablet 5")
    table_setup.set_table_in_play(Table.objects.get(tournament=tournament, number=5), actor=director, in_play=False)  # given back
    assert dealer_links.link_for_token(secret).table.tournament == tournament  # nobody took it yet: the link stays
    table_setup.open_table(side, actor=director, number=5)
    moved = dealer_links.link_for_token(secret)
    assert moved.pk == link.pk and moved.table == Table.objects.get(tournament=side, number=5)
    followed = AuditEvent.objects.get(tournament=side, type="table.dealer_links_followed")
    assert followed.payload == {"tables": [5], "count": 1}
    state = Client().get(f"/api/dealer/{secret}/state/")  # the tablet now reads the side event's table
    assert state.status_code == 200 and state.json()["table"]["number"] == 5
    assert state.json()["table"]["in_play"] is True  # the side event's row (the Main Event's is out of play)


def test_an_imported_tournament_takes_its_free_tables_and_says_which_it_cannot(director, cashier, template, side):
    with transaction.atomic():  # a tournament played elsewhere: its file, and nothing of it left here
        elsewhere = setup.create_tournament(tournament_data(name="Imported"), actor=director, template=template)
        open_tables(director, elsewhere, [1, 2])
        register(cashier, elsewhere, 12)
        draws.draw_start(elsewhere, actor=director)
        document = export_tournament(Tournament.objects.get(pk=elsewhere.pk))
        transaction.set_rollback(True)
    open_tables(director, side, [2])  # here the side event holds table 2
    t = import_tournament(read_file(file_text(document).encode()), actor=director)
    assert held(t) == [1] and held(side) == [2]
    assert t.import_report["tables_not_held"] == [{"table": 2, "reason": "Table 2 is held by Side Event."}]


def test_a_club_room_never_set_up_adds_the_table_the_director_opens_and_says_so_in_its_own_log(director, tournament):
    table_setup.open_table(tournament, actor=director, number=17, seats=8)
    vt = VenueTable.objects.get(number=17)
    assert (vt.seats, vt.table.tournament, vt.venue.fixed_tables) == (8, tournament, False)
    added = AuditEvent.objects.get(tournament=None, type="venue.table_added")
    assert added.payload == {"venue": vt.venue_id, "table": 17, "seats": 8, "area": "", "opened_by": tournament.pk}
    assert added.actor == director
    table_setup.open_table(tournament, actor=director, number=18, seats=9)
    assert AuditEvent.objects.filter(tournament=None, type="venue.table_added").count() == 2  # once per table added


def test_a_tournament_over_keeps_no_table_reserved_for_it(director, floor, cashier, tournament, side):
    venue = room(director, [1, 2])
    register(cashier, tournament, 2)
    draws.draw_start(tournament, actor=director)  # table 1
    venue_setup.reserve(venue, actor=floor, number=2, tournament=tournament, reason="for the final table")
    busts.bust_entry(live_seats(tournament).first().entry, actor=floor)  # play is over: a winner
    done = AuditEvent.objects.get(tournament=tournament, type="tournament.finished")
    assert done.payload["tables_given_back"] == [1] and done.payload["reservations_ended"] == [2]
    assert not VenueTable.objects.filter(reserved_for=tournament).exists()
    register(cashier, side, 12, start=10)
    draws.draw_start(side, actor=director)  # twelve players: both tables, the one that was reserved too
    assert held(side) == [1, 2]
