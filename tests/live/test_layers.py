"""Every push reaches its sockets on both channel layers: the in-memory one of the embedded default (scripts/dev,
small rooms), which deep-copies each message, and Redis (festivals), which serialises it. A dealer tablet opened by
its table's link acts as a device actor (core.roles.DeviceActor, a str carrying its table): its presses once made
messages the in-memory layer could not copy, and every push of them was lost (logged "broadcast to tN.floor
failed ... DeviceActor.__new__()")."""

from __future__ import annotations

import copy
import os

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser
from rest_framework.test import APIClient

from core.roles import DeviceActor
from live.consumers import FloorConsumer
from live.routing import websocket_urlpatterns
from tables.models import Table
from tables.services import dealer_links
from tables.services import setup as table_setup

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
LAYERS = ["in-memory"] + (["redis"] if os.environ.get("REDIS_URL") else [])


@pytest.fixture(params=LAYERS)
def layer(request, settings):
    """The layer the test runs on; a fresh one (channels keeps one instance per alias)."""
    if request.param == "in-memory":
        settings.CHANNEL_LAYERS = IN_MEMORY
    channel_layers.backends.clear()
    yield request.param
    channel_layers.backends.clear()


def test_a_device_actor_survives_a_copy():
    """Belt and braces: the actor itself copies (a message must carry plain data only, but a copy never raises)."""
    actor = DeviceActor("dealer link 3 (table 1)", table_id=7, link_id=3)
    again = copy.deepcopy(actor)
    assert (again, again.bound_table_id, again.link_id) == ("dealer link 3 (table 1)", 7, 3)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
async def test_a_dealer_links_presses_reach_the_floor_and_the_tablets(layer, director, floor, tournament):
    """Shuffle, from a tablet opened by its dealer link (no login): the floor's socket hears it,
    with the link as the actor, and so does the table's own tablet socket."""

    def seed():
        for n in (1, 2):
            table_setup.open_table(tournament, actor=director, number=n, seats=9)
        return dealer_links.create_dealer_link(Table.objects.get(tournament=tournament, number=1), actor=floor)

    link, secret = await database_sync_to_async(seed)()
    floor_socket = WebsocketCommunicator(FloorConsumer.as_asgi(), f"/ws/t/{tournament.pk}/floor/")
    floor_socket.scope["user"] = floor
    floor_socket.scope["url_route"] = {"kwargs": {"tournament_id": tournament.pk}}
    assert (await floor_socket.connect())[0]
    snapshot = await floor_socket.receive_json_from(timeout=3)
    tablet = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/dealer/{secret}/")
    tablet.scope["user"] = AnonymousUser()
    assert (await tablet.connect())[0]
    assert (await tablet.receive_json_from(timeout=3))["kind"] == "snapshot"

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"DealerLink {secret}")
    answer = await database_sync_to_async(client.post)(f"/api/tournaments/{tournament.pk}/tables/1/hand/")
    assert answer.status_code == 201, answer.content
    event = await floor_socket.receive_json_from(timeout=3)
    assert event["seq"] == snapshot["seq"] + 1
    assert (event["event"]["type"], event["event"]["actor"]) == ("table.hand_started", f"dealer link {link.pk} (table 1)")
    note = await tablet.receive_json_from(timeout=3)
    assert (note["type"], note["table"]) == ("table.hand_started", 1)
    await floor_socket.disconnect()
    await tablet.disconnect()
