"""Staff per tournament: a Floor or Cashier may be given one tournament only (their staff profile
lists it), so that a festival's side-event staff do not read the main event's floor. Nobody listed: every
tournament, as before; a director works every tournament. The walk of every route with such visitors is in
tests/web/test_roles_walk.py; here the lists, the desk's work, the admin and an open socket."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.conftest import make_user, tournament_data
from tests.helpers import logged_in
from tests.live.test_role_changes import CLOSED, closed_within, open_socket
from tournament.models import Entry, StaffProfile
from tournament.services import setup


def works_only(user, tournament) -> None:
    StaffProfile.objects.get_or_create(user=user)[0].tournaments.add(tournament)


def test_a_side_event_floor_reads_its_own_floor_only(floor, tournament, side):
    works_only(floor, side)
    client = logged_in(floor)
    assert client.get(f"/t/{side.pk}/map/").status_code == 200
    assert client.get(f"/t/{tournament.pk}/map/").status_code == 403
    assert client.get(f"/api/tournaments/{side.pk}/moves/").status_code == 200
    assert client.get(f"/api/tournaments/{tournament.pk}/moves/").status_code == 403
    assert client.get(f"/api/tournaments/{tournament.pk}/events/").status_code == 403  # the event log, names
    assert [t["id"] for t in client.get("/api/tournaments/").json()] == [side.pk]
    home = client.get("/").content.decode()
    assert "Side event" in home and "Sunday Deepstack" not in home


def test_a_side_event_cashier_registers_there_only(cashier, tournament, side, player):
    works_only(cashier, side)
    client = logged_in(cashier)
    body = {"player": player.pk, "document_type": "id_card", "document_number": "EA1234567", "seen": True}
    assert client.post(f"/api/tournaments/{tournament.pk}/entries/", body, content_type="application/json").status_code == 403
    assert not Entry.objects.filter(tournament=tournament).exists()
    assert client.post(f"/api/tournaments/{side.pk}/entries/", body, content_type="application/json").status_code == 201


def test_by_default_staff_work_every_tournament_and_the_director_always(floor, director, tournament, side):
    for user in (floor, director):
        client = logged_in(user)
        assert client.get(f"/t/{tournament.pk}/map/").status_code == 200 and client.get(f"/t/{side.pk}/map/").status_code == 200
    works_only(director, side)  # a director's list changes nothing
    assert logged_in(director).get(f"/t/{tournament.pk}/map/").status_code == 200


def test_the_admin_sets_the_tournaments_a_member_works(floor, tournament, side, django_user_model):
    admin = logged_in(django_user_model.objects.create_superuser("root", password="x-Root-2026"))
    StaffProfile.objects.create(user=floor)
    profile = StaffProfile.objects.get(user=floor)
    page = admin.get(f"/admin/tournament/staffprofile/{profile.pk}/change/")
    assert page.status_code == 200 and "works only these tournaments" in page.content.decode()
    answer = admin.post(
        f"/admin/tournament/staffprofile/{profile.pk}/change/", {"user": floor.pk, "language": "", "tournaments": [side.pk]}
    )
    assert answer.status_code == 302, answer.content.decode()[:2000]
    assert list(profile.tournaments.values_list("pk", flat=True)) == [side.pk]
    assert logged_in(floor).get(f"/t/{tournament.pk}/map/").status_code == 403


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_an_open_floor_socket_closes_when_its_member_is_given_another_tournament(director, floor, template):
    main, side = await database_sync_to_async(
        lambda: (
            setup.create_tournament(tournament_data(), actor=director, template=template),
            setup.create_tournament(tournament_data(name="Side event"), actor=director, template=template),
        )
    )()
    socket = await open_socket(f"/ws/t/{main.pk}/floor/", floor)
    await database_sync_to_async(works_only)(floor, side)
    assert await closed_within(socket) == CLOSED
    mine = await open_socket(f"/ws/t/{side.pk}/floor/", floor)  # its own event's socket opens
    await mine.disconnect()


def test_a_member_of_two_events_works_both(cashier, tournament, side):
    works_only(cashier, side)
    works_only(cashier, tournament)
    client = logged_in(cashier)
    assert client.get(f"/t/{tournament.pk}/entries/").status_code == 200 and client.get(f"/t/{side.pk}/entries/").status_code == 200
    plain = make_user("plain", "Cashier")
    StaffProfile.objects.create(user=plain, language="cs")  # a profile with no list: every tournament
    assert logged_in(plain).get(f"/t/{tournament.pk}/entries/").status_code == 200


def test_an_event_is_read_by_the_staff_of_its_flights_and_day2_only(director, floor, template, side):
    from tests.flights.test_flights import event_with

    event, (a, _b) = event_with(director, template)
    day2 = event.day2
    works_only(floor, side)  # a side event's floor: not this event's names, bags or pool
    client = logged_in(floor)
    for path in (f"/events/{event.pk}/", f"/api/events/{event.pk}/", f"/api/events/{event.pk}/forfeited/"):
        assert client.get(path).status_code == 403, path
    assert client.get("/api/events/").json() == [] and "Festival Main Event" not in client.get("/events/").content.decode()
    for worked in (a, day2):  # a flight's floor, and Day 2's, read the event
        StaffProfile.objects.get(user=floor).tournaments.set([worked])
        client = logged_in(floor)
        assert client.get(f"/events/{event.pk}/").status_code == 200
        assert client.get(f"/api/events/{event.pk}/").status_code == 200
        assert [e["id"] for e in client.get("/api/events/").json()] == [event.pk]
    StaffProfile.objects.get(user=floor).tournaments.clear()  # no list: every event, as before
    assert [e["id"] for e in logged_in(floor).get("/api/events/").json()] == [event.pk]
