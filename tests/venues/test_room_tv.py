"""The room TV (web/venues/room_tv.py, live/snapshots.py room_tv_answer, live/consumers.RoomDisplayConsumer): one screen
for the whole room, every tournament running in the venue (its clock, blinds, players left, average stack and the state
of its registration: open until a level, closed, sold out, a sit & go filling) and today's schedule; its link made and
revoked by the director; live over its socket; no player's name on it."""

from __future__ import annotations

import json
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client
from django.utils import timezone

from clock.services import clock
from live.consumers import RoomDisplayConsumer
from live.snapshots import room_tv_answer
from tables.selectors.state import live_seats
from tables.services import busts, draws
from tests.conftest import tournament_data
from tests.helpers import client_for, register
from tournament.models import AuditEvent, Tournament
from tournament.services import registration, setup
from venues.models import VenueDisplay
from venues.services import displays, sit_and_go
from venues.services import setup as venue_setup

ZONE = ZoneInfo("Europe/Bratislava")  # the events' time zone (tournament_data)


def at(hour: int, days: int = 0) -> datetime:
    """A time of today where the events are played (after midnight in Bratislava it is already another day)."""
    return datetime.combine(timezone.now().astimezone(ZONE).date() + timedelta(days=days), time(hour), tzinfo=ZONE)


@pytest.fixture
def room(director):
    venue = venue_setup.default_venue()
    rows = [f"{n},Main hall,9" for n in range(1, 5)] + [f"{n},Side room,6" for n in (11, 12)]
    venue_setup.import_room(venue, actor=director, text="number,area,seats\n" + "\n".join(rows))
    return venue


def event(director, template, name: str, hour: int, **data) -> Tournament:
    return setup.create_tournament(tournament_data(name=name, start_at=at(hour), **data), actor=director, template=template)


def link(director, venue) -> str:
    answer = client_for(director).post(f"/api/venues/{venue.pk}/displays/", {"label": "Room TV 1"}, format="json")
    assert answer.status_code == 201, answer.content
    body = answer.json()
    assert body["url"].endswith(f"/display/room/{body['token']}/") and body["active"]
    return body["token"]


def test_the_room_tv_shows_every_running_tournament_and_todays_schedule(director, cashier, floor, template, room):
    main = event(director, template, "Main Event", 10, late_reg_until_level=6)
    side = event(director, template, "Side Event", 12, seats_per_table=6)
    later = event(director, template, "Evening Turbo", 20)
    setup.create_tournament(tournament_data(name="Last Week", start_at=at(10, days=-7)), actor=director, template=template)
    register(cashier, main, 14)
    draws.draw_start(main, actor=director)
    clock.start_clock(main, actor=director)
    register(cashier, side, 6, start=20)
    draws.draw_start(side, actor=director)
    registration.set_registration_closed(side, actor=director, closed=True)
    busts.bust_entry(live_seats(side).order_by("entry__number").first().entry, actor=floor)
    token = link(director, room)

    answer = Client().get(f"/api/public/display/room/{token}/snapshot/")  # no login: the link is the credential
    assert answer.status_code == 200
    tv = answer.json()
    assert tv["venue"] == {"id": room.pk, "name": room.name}
    cards = {card["name"]: card for card in tv["tournaments"]}
    assert list(cards) == ["Main Event", "Side Event"]  # the running ones, by start
    m, s = cards["Main Event"], cards["Side Event"]
    assert m["stats"] == {"players_left": 14, "entries": 14, "average_stack": 20000, "prize_pool": main.guaranteed_pool}
    assert m["registration"] == {"open": True, "until_level": 6, "sold_out": False, "waiting": 0, "sit_and_go": None}
    assert m["clock"]["status"] == "running" and m["clock"]["current"]["index"] == 0 and m["clock"]["rows"]
    assert 0 < m["clock"]["current"]["remaining"] <= m["clock"]["rows"][0]["seconds"]
    assert (s["stats"]["players_left"], s["stats"]["entries"], s["stats"]["average_stack"]) == (5, 6, 24000)
    assert s["registration"]["open"] is False and s["clock"]["anchor"] is None  # closed; its clock not started
    assert m["colour"] != s["colour"] and not m["h4h"] and not m["over"]
    schedule = [(row["name"], row["start"], row["status"]) for row in tv["schedule"]]
    assert schedule == [("Main Event", "10:00", "running"), ("Side Event", "12:00", "running"), ("Evening Turbo", "20:00", "setup")]
    assert tv["schedule"][2]["registration"]["open"] is True and later.pk == tv["schedule"][2]["id"]
    assert "Test" not in json.dumps(tv)  # no player's name (the players are "P<n> Test")

    page = Client().get(f"/display/room/{token}/")
    assert page.status_code == 200 and page["Cache-Control"].startswith("max-age=0")
    html = page.content.decode()
    assert room.name in html and f"/ws/display/room/{token}/" in html and "/today/" in html and "Test" not in html


def test_sold_out_when_every_seat_is_taken_and_the_room_has_no_table_for_it(director, cashier, template, room):
    for number in (1, 2, 3, 4, 12):
        venue_setup.set_state(room, actor=director, number=number, status="cash", reason="cash games tonight")
    side = event(director, template, "Side Event", 12, seats_per_table=6)
    register(cashier, side, 6)
    draws.draw_start(side, actor=director)  # table 11: six seats, all taken
    (card,) = room_tv_answer(room)["tournaments"]
    assert card["registration"]["sold_out"] is True and card["registration"]["open"] is True
    venue_setup.set_state(room, actor=director, number=12, status="open")  # the floor gives a table back to tournaments
    (card,) = room_tv_answer(room)["tournaments"]  # the venue's own change is a new version of the TV
    assert card["registration"]["sold_out"] is False


def test_a_sit_and_go_filling_up_shows_its_seats_taken(director, cashier, template, room):
    sng = event(director, template, "Turbo SNG", 15, seats_per_table=6)
    sit_and_go.set_sit_and_go(sng, actor=director, players=6, opens_next=True)
    register(cashier, sng, 4)
    (row,) = room_tv_answer(room)["schedule"]
    assert row["registration"]["sit_and_go"] == {"players": 6, "registered": 4, "started": False}
    register(cashier, sng, 2, start=4)  # the sixth starts it at a free table; the next of the series opens
    tv = room_tv_answer(room)
    assert [card["name"] for card in tv["tournaments"]] == ["Turbo SNG"]
    assert tv["tournaments"][0]["registration"]["sit_and_go"]["started"] is True
    assert [row["name"] for row in tv["schedule"]] == ["Turbo SNG", "Turbo SNG #2"]


def test_the_links_are_the_directors_and_bad_input_changes_nothing(director, floor, room):
    client = client_for(director)
    before = (VenueDisplay.objects.count(), AuditEvent.objects.count())
    blank = client.post(f"/api/venues/{room.pk}/displays/", {"label": " "}, format="json")
    assert blank.status_code == 400 and "Name the screen" in str(blank.json())
    assert client_for(floor).post(f"/api/venues/{room.pk}/displays/", {"label": "TV"}, format="json").status_code == 403
    assert client.post(f"/api/venues/{room.pk + 99}/displays/", {"label": "TV"}, format="json").status_code == 404
    assert (VenueDisplay.objects.count(), AuditEvent.objects.count()) == before
    token = link(director, room)
    (listed,) = client.get(f"/api/venues/{room.pk}/displays/").json()
    assert listed["token"] is None and listed["url"] is None and token.startswith(listed["prefix"])
    assert AuditEvent.objects.filter(type="venue.display_created", payload__label="Room TV 1").exists()
    revoked = client.post(f"/api/venues/{room.pk}/displays/{listed['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["active"] is False
    assert client.post(f"/api/venues/{room.pk}/displays/{listed['id']}/revoke/").status_code == 409
    assert Client().get(f"/display/room/{token}/").status_code == 404  # the screen's link no longer opens it
    assert Client().get(f"/api/public/display/room/{token}/snapshot/").status_code == 403
    assert Client().get("/display/room/not-a-link/").status_code == 404


def communicator_for(token: str) -> WebsocketCommunicator:
    communicator = WebsocketCommunicator(RoomDisplayConsumer.as_asgi(), f"/ws/display/room/{token}/")
    communicator.scope["url_route"] = {"kwargs": {"token": token}}
    return communicator


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_the_room_tv_socket_hears_every_tournament_and_closes_when_its_link_is_revoked(director, cashier, floor, template):
    def seed():
        venue = venue_setup.default_venue()
        venue_setup.import_room(venue, actor=director, text="number,area,seats\n1,Hall,9\n2,Hall,9\n3,Hall,9")
        main, side = event(director, template, "Main Event", 10), event(director, template, "Side Event", 12)
        for t, start in ((main, 0), (side, 20)):
            register(cashier, t, 6, start=start)
            draws.draw_start(t, actor=director)
        return venue, side, displays.create_display(venue, actor=director, label="Room TV")

    venue, side, display = await database_sync_to_async(seed)()
    assert await communicator_for("not-a-link").connect() == (False, 4003)
    communicator = communicator_for(display.token)
    connected, _ = await communicator.connect()
    assert connected
    first = await communicator.receive_json_from()
    assert first["kind"] == "snapshot" and first["seq"] == 0 and [c["name"] for c in first["tournaments"]] == ["Main Event", "Side Event"]
    entry = await database_sync_to_async(lambda: live_seats(side).order_by("entry__number").first().entry)()
    await database_sync_to_async(busts.bust_entry)(entry, actor=floor)
    note = await communicator.receive_json_from(timeout=3)
    assert note["kind"] == "event" and note["tournament"] == side.pk and set(note) == {"kind", "seq", "type", "tournament"}
    while not await communicator.receive_nothing(timeout=0.3):
        await communicator.receive_json_from()
    await communicator.send_json_to({"action": "snapshot"})
    again = await communicator.receive_json_from(timeout=3)
    assert {c["name"]: c["stats"]["players_left"] for c in again["tournaments"]} == {"Main Event": 6, "Side Event": 5}
    await database_sync_to_async(displays.revoke_display)(display, actor=director)
    said = [await communicator.receive_output(timeout=3) for _ in range(2)]  # the room's note of it, then the close
    assert json.loads(said[0]["text"])["type"] == "venue.display_revoked" and said[1] == {"type": "websocket.close", "code": 4003}
    assert await communicator_for(display.token).connect() == (False, 4003)
