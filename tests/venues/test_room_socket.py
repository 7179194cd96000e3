"""The room socket (live/consumers.RoomConsumer): a note for every change in the venue's room, from every tournament
in it and from the venue's own changes, with no names; the staff only, the venue's own room only."""

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from live.consumers import CLOSE_RECONNECT, RoomConsumer
from live.routing import websocket_urlpatterns
from tables.models import Table
from tables.services import dealer_links, hands
from tables.services import setup as table_setup
from tests.conftest import tournament_data
from tests.helpers import open_tables, register
from tournament.services import setup
from venues.services import setup as venue_setup

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def room_communicator(venue_id: int, user):
    communicator = WebsocketCommunicator(RoomConsumer.as_asgi(), f"/ws/venues/{venue_id}/room/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"venue_id": venue_id}}
    return communicator


async def heard_all(communicator) -> list[dict]:
    notes = [await communicator.receive_json_from(timeout=3)]
    while not await communicator.receive_nothing(timeout=0.3):
        notes.append(await communicator.receive_json_from())
    return notes


async def test_the_room_hears_every_tournament_and_the_venue_without_names(tournament, director, cashier, dealer):
    venue = await database_sync_to_async(venue_setup.default_venue)()
    side = await database_sync_to_async(setup.create_tournament)(
        tournament_data(name="Side Event"), actor=director, template=tournament.structure
    )
    communicator = room_communicator(venue.pk, dealer)  # every role reads the room
    connected, _ = await communicator.connect()
    assert connected
    assert await communicator.receive_json_from() == {"kind": "snapshot", "seq": 0}
    await database_sync_to_async(open_tables)(director, tournament, [1])  # a tournament made before venues: the default venue
    heard = [await communicator.receive_json_from(timeout=3) for _ in range(3)]
    assert [h["type"] for h in heard] == ["venue.table_added", "venue.tables_taken", "table.opened"]  # a club's room adds it
    assert [h["tournament"] for h in heard] == [None, tournament.pk, tournament.pk]
    assert heard[0]["seq"] < heard[1]["seq"] < heard[2]["seq"]
    await database_sync_to_async(register)(cashier, side, 1)
    notes = await heard_all(communicator)
    registered = next(n for n in notes if n["type"] == "entry.registered")
    assert registered["tournament"] == side.pk and all(set(n) == {"kind", "seq", "type", "tournament"} for n in notes)  # no names
    await database_sync_to_async(venue_setup.add_table)(venue, actor=director, number=20, seats=9)
    added = await communicator.receive_json_from(timeout=3)
    assert (added["type"], added["tournament"]) == ("venue.table_added", None)
    other = await database_sync_to_async(venue_setup.create_venue)(actor=director, name="Second room")
    await database_sync_to_async(venue_setup.add_table)(other, actor=director, number=1, seats=9)
    assert await communicator.receive_nothing(timeout=0.3)  # another venue's change is not this room's
    await communicator.disconnect()


@pytest.mark.parametrize("who", ["anonymous", "nowhere"])
async def test_the_room_socket_refuses_the_public_and_a_venue_that_is_not(who, director):
    venue = await database_sync_to_async(venue_setup.default_venue)()
    venue_id = venue.pk if who == "anonymous" else venue.pk + 100
    communicator = room_communicator(venue_id, AnonymousUser() if who == "anonymous" else director)
    connected, code = await communicator.connect()
    assert not connected and code == 4003


async def test_a_dealer_tablet_whose_table_another_tournament_takes_reconnects_into_it(tournament, director, floor):
    side = await database_sync_to_async(setup.create_tournament)(
        tournament_data(name="Side Event"), actor=director, template=tournament.structure
    )

    def seed():
        table, _token = table_setup.open_table(tournament, actor=director, number=7, seats=9)
        return dealer_links.create_dealer_link(table, actor=floor, label="tablet 7")

    link, secret = await database_sync_to_async(seed)()
    communicator = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/dealer/{secret}/")
    communicator.scope["user"] = AnonymousUser()
    connected, _ = await communicator.connect()
    assert connected and (await communicator.receive_json_from(timeout=3))["kind"] == "snapshot"

    def move():
        table_setup.set_table_in_play(Table.objects.get(tournament=tournament, number=7), actor=director, in_play=False)
        table_setup.open_table(side, actor=director, number=7)

    await database_sync_to_async(move)()
    closed = None
    while closed is None:
        message = await communicator.receive_output(timeout=3)
        if message["type"] == "websocket.close":
            closed = message["code"]
    assert closed == CLOSE_RECONNECT  # static/js/live.js connects again (only 4003 is for good)
    again = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/dealer/{secret}/")
    again.scope["user"] = AnonymousUser()
    connected, _ = await again.connect()
    assert connected and (await again.receive_json_from(timeout=3))["kind"] == "snapshot"
    await database_sync_to_async(hands.start_hand)(await database_sync_to_async(Table.objects.get)(tournament=side, number=7), actor=floor)
    note = await again.receive_json_from(timeout=3)
    assert (note["type"], note["table"]) == ("table.hand_started", 7)  # the side event's table is heard now
    await again.disconnect()
