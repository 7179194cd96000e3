"""WebSocket consumers: role checks, snapshots, pushes after commit, revocation and logout close sockets."""
import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from live.consumers import FloorConsumer, LobbyConsumer
from tests.conftest import id_doc
from tournament import services

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def floor_communicator(tournament, user):
    communicator = WebsocketCommunicator(FloorConsumer.as_asgi(), f"/ws/t/{tournament.pk}/floor/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"tournament_id": tournament.pk}}
    return communicator


def lobby_communicator(token):
    communicator = WebsocketCommunicator(LobbyConsumer.as_asgi(), f"/ws/display/{token}/")
    communicator.scope["url_route"] = {"kwargs": {"token": token}}
    return communicator


@pytest.mark.parametrize("who", ["dealer", "anonymous"])
async def test_floor_socket_refuses_dealer_and_anonymous(who, tournament, dealer):
    user = dealer if who == "dealer" else AnonymousUser()
    communicator = floor_communicator(tournament, user)
    connected, code = await communicator.connect()
    assert not connected and code == 4003


@pytest.mark.parametrize("role", ["floor", "cashier", "director"])
async def test_floor_socket_snapshot_then_events_in_sequence(role, tournament, player, cashier, floor, director):
    user = {"floor": floor, "cashier": cashier, "director": director}[role]
    communicator = floor_communicator(tournament, user)
    connected, _ = await communicator.connect()
    assert connected
    snapshot = await communicator.receive_json_from()
    assert snapshot["kind"] == "snapshot" and snapshot["seq"] == tournament.event_seq
    entry = await database_sync_to_async(services.register_entry)(cashier, tournament, player, id_doc())
    message = await communicator.receive_json_from(timeout=3)
    assert message["kind"] == "event" and message["seq"] == snapshot["seq"] + 1
    assert message["event"]["type"] == "entry.registered" and message["event"]["payload"]["entry"] == entry.number
    assert message["stats"]["entries"] == 1
    await communicator.send_json_to({"action": "snapshot"})
    again = await communicator.receive_json_from()
    assert again["kind"] == "snapshot" and again["seq"] == message["seq"]
    await communicator.disconnect()


async def test_lobby_socket_shows_no_names_and_revocation_closes_it(tournament, director, cashier, player):
    display = await database_sync_to_async(services.create_display_token)(director, tournament, "TV 1")
    communicator = lobby_communicator(display.token)
    connected, _ = await communicator.connect()
    assert connected
    snapshot = await communicator.receive_json_from()
    assert snapshot["kind"] == "snapshot" and "events" not in snapshot
    await database_sync_to_async(services.register_entry)(cashier, tournament, player, id_doc())
    message = await communicator.receive_json_from(timeout=3)
    assert message["type"] == "entry.registered" and "event" not in message
    assert player.last_name not in str(message)
    await database_sync_to_async(services.revoke_display_token)(director, display)
    await communicator.receive_json_from(timeout=3)  # the display.revoked event itself
    closed = await communicator.receive_output(timeout=3)
    assert closed["type"] == "websocket.close" and closed["code"] == 4003
    refused = lobby_communicator(display.token)
    connected, code = await refused.connect()
    assert not connected


async def test_unknown_display_token_refused(db):
    connected, code = await lobby_communicator("not-a-token").connect()
    assert not connected and code == 4003


async def test_logout_closes_the_users_sockets(tournament, floor):
    from django.test import Client

    web = Client()
    await sync_to_async(web.force_login)(floor)
    communicator = floor_communicator(tournament, floor)
    connected, _ = await communicator.connect()
    assert connected
    await communicator.receive_json_from()
    response = await sync_to_async(web.post)("/accounts/logout/")
    assert response.status_code == 302
    closed = await communicator.receive_output(timeout=3)
    assert closed["type"] == "websocket.close"
