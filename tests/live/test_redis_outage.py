"""A Redis outage. The channel layer is the production one (channels-redis pub/sub) pointed at a port
where nothing listens, or the in-memory layer with joins failing:

- actions over HTTP still work and are recorded: the pushes after commit fail quietly (logged), and
  screens catch up from their next snapshot;
- a new WebSocket (floor screen, dealer tablet, player's seat page in the fan-out room) is accepted
  and closed at once with 1013, "try again later" (static/js/live.js shows "reconnecting…" and
  retries with backoff): never an HTTP 500 on the handshake, never an exception out of the app;
- once Redis is back the same sockets connect and get their snapshot.
"""

from __future__ import annotations

import logging
import os
from datetime import date

import pytest
from channels.db import database_sync_to_async
from channels.layers import InMemoryChannelLayer
from channels.testing import WebsocketCommunicator
from django.test import Client
from rest_framework.test import APIClient

from live.consumers import CLOSE_UNAVAILABLE, FloorConsumer, SeatConsumer, TableConsumer
from tables.services import draws
from tables.services import setup as table_setup
from tests.helpers import free_port
from tournament.models import AuditEvent, Entry, Tournament
from tournament.services import registration

# The pushes after commit fail here on purpose (logged, never the request): not a failure of these tests.
pytestmark = pytest.mark.broadcast_failures_expected

IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


def redis_layer(url: str) -> dict:
    return {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {"hosts": [{"address": url, "max_connections": 50}]},
        }
    }


@pytest.fixture
def redis_down(settings):
    url = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    settings.REDIS_URL = url
    settings.CHANNEL_LAYERS = redis_layer(url)
    return url


@pytest.fixture
def redis_back(settings):
    """Redis answers again: the run's own Redis where there is one (CI), else the in-memory layer."""

    def back() -> None:
        real = os.environ.get("REDIS_URL")
        settings.REDIS_URL = real or ""
        settings.CHANNEL_LAYERS = redis_layer(real) if real else IN_MEMORY

    return back


@pytest.mark.django_db(transaction=True)  # the pushes run on commit, as in production
def test_registration_and_bust_work_while_redis_is_down(redis_down, director, cashier, floor, tournament, caplog):
    assert Client().get("/healthz").content == b"down: redis"  # the outage is real
    for number in (1, 2):
        table_setup.open_table(tournament, actor=director, number=number, seats=9)
    players = [
        registration.create_player(actor=cashier, first_name=f"P{i}", last_name="Outage", date_of_birth=date(1990, 1, 1)) for i in range(3)
    ]
    cash = APIClient()
    cash.force_authenticate(cashier)
    caplog.set_level(logging.ERROR, logger="core.broadcast")
    for i, player in enumerate(players):
        answer = cash.post(
            f"/api/tournaments/{tournament.pk}/entries/",
            {
                "player": player.pk,
                "document_type": "id_card",
                "document_number": f"EA{i:07d}",
                "seen": True,
            },
            format="json",
        )
        assert answer.status_code == 201, answer.content
    draws.draw_start(tournament, actor=director)
    staff = APIClient()
    staff.force_authenticate(floor)
    answer = staff.post(f"/api/tournaments/{tournament.pk}/entries/1/bust/", {}, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["status"] == Entry.Status.BUSTED
    assert Entry.objects.get(tournament=tournament, number=1).status == Entry.Status.BUSTED
    types = list(AuditEvent.objects.filter(tournament=tournament).values_list("type", flat=True))
    assert types.count("entry.registered") == 3 and "entry.busted" in types
    failed = [r.getMessage() for r in caplog.records if r.name == "core.broadcast"]
    assert f"broadcast to t{tournament.pk}.floor failed" in failed  # the pushes were tried, and failed quietly


def communicators(tournament, director, floor) -> dict[str, WebsocketCommunicator]:
    out = {}
    floor_socket = WebsocketCommunicator(FloorConsumer.as_asgi(), f"/ws/t/{tournament.pk}/floor/")
    floor_socket.scope["user"] = director
    floor_socket.scope["url_route"] = {"kwargs": {"tournament_id": tournament.pk}}
    out["floor"] = floor_socket
    table_socket = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/t/{tournament.pk}/tables/1/")
    table_socket.scope["user"] = floor
    table_socket.scope["url_route"] = {"kwargs": {"tournament_id": tournament.pk, "number": 1}}
    out["table"] = table_socket
    seat_socket = WebsocketCommunicator(SeatConsumer.as_asgi(), f"/ws/s/{tournament.pk}/")
    seat_socket.scope["url_route"] = {"kwargs": {"tournament_id": tournament.pk}}
    out["seat"] = seat_socket
    return out


@pytest.fixture
def joins_fail(settings, monkeypatch):
    """The in-memory layer, whose group joins fail as a lost Redis connection does."""
    settings.CHANNEL_LAYERS = IN_MEMORY

    async def refuse(self, group, channel):
        raise ConnectionError("Error 111 connecting to redis: connection refused")

    monkeypatch.setattr(InMemoryChannelLayer, "group_add", refuse)
    return monkeypatch


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("outage", ["redis unreachable", "joins fail"])
async def test_new_sockets_are_closed_cleanly_and_connect_once_redis_is_back(outage, request, redis_back, director, floor, tournament):
    patched = request.getfixturevalue("joins_fail") if outage == "joins fail" else None
    if patched is None:
        request.getfixturevalue("redis_down")
    await database_sync_to_async(table_setup.open_table)(tournament, actor=director, number=1, seats=9)
    for name, communicator in communicators(tournament, director, floor).items():
        connected, _ = await communicator.connect(timeout=5)
        assert connected, name  # the handshake is answered: accepted, not an HTTP error
        closed = await communicator.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": CLOSE_UNAVAILABLE}, (name, closed)
        await communicator.wait(timeout=5)  # the app ended by itself, without an exception
    if patched is not None:
        patched.undo()
    redis_back()
    seq = await database_sync_to_async(lambda: Tournament.objects.get(pk=tournament.pk).event_seq)()
    for name, communicator in communicators(tournament, director, floor).items():
        connected, _ = await communicator.connect(timeout=5)
        assert connected, name
        snapshot = await communicator.receive_json_from(timeout=5)
        assert snapshot["kind"] == "snapshot" and snapshot["seq"] == seq, (name, snapshot)
        await communicator.disconnect()
