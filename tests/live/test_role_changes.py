"""A role change reaches open sockets at once: a floor socket (and a table socket) whose login
loses its role, is made inactive, is deleted or gets a new password is closed (4003) within a second, and
nothing more is sent to it. A change that leaves the right in place keeps the socket. Before, the open
floor socket went on receiving events with names until its user logged out. Across server processes:
tests/live/test_processes.py."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group

from tables.services import setup as table_setup
from tests.helpers import id_doc
from tests.live.test_origins import session_of
from tournament.services import registration

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


async def open_socket(path: str, user) -> WebsocketCommunicator:
    from config.asgi import application

    cookie = await database_sync_to_async(session_of)(user)
    communicator = WebsocketCommunicator(
        application, path, headers=[(b"host", b"localhost"), (b"origin", b"http://localhost"), (b"cookie", f"sessionid={cookie}".encode())]
    )
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from(timeout=3))["kind"] == "snapshot"
    return communicator


CLOSED = {"type": "websocket.close", "code": 4003}


async def closed_within(communicator, seconds: float = 1) -> dict:
    """The next thing the socket sends within `seconds` (none fails the test): CLOSED when it was closed."""
    return await communicator.receive_output(timeout=seconds)


def demote(user):
    user.groups.remove(Group.objects.get(name="Floor"))


def remove_from_the_group(user):
    Group.objects.get(name="Floor").user_set.remove(user)


def deactivate(user):
    user.is_active = False
    user.save()


def new_password(user):
    user.set_password("a-new-password-2026")
    user.save()


def delete(user):
    user.delete()


@pytest.mark.parametrize("change", [demote, remove_from_the_group, deactivate, new_password, delete])
async def test_the_floor_socket_closes_when_its_login_loses_the_right(tournament, floor, director, cashier, player, change):
    socket = await open_socket(f"/ws/t/{tournament.pk}/floor/", floor)
    await database_sync_to_async(change)(floor)
    assert await closed_within(socket) == CLOSED
    # the next event, with a name (a registration), reaches nobody on that socket
    await database_sync_to_async(registration.register_entry)(tournament, actor=cashier, player=player, document=id_doc())
    assert await socket.receive_nothing(timeout=0.5)


async def test_a_change_that_keeps_the_right_keeps_the_socket(tournament, floor, cashier, player):
    socket = await open_socket(f"/ws/t/{tournament.pk}/floor/", floor)
    await database_sync_to_async(lambda: floor.groups.add(Group.objects.get(name="Cashier")))()
    await asyncio.sleep(0.3)
    await database_sync_to_async(registration.register_entry)(tournament, actor=cashier, player=player, document=id_doc())
    message = await socket.receive_json_from(timeout=3)
    assert message["kind"] == "event" and message["event"]["type"] == "entry.registered"
    await socket.disconnect()


async def test_a_table_socket_closes_when_its_login_loses_the_right(tournament, director, floor):
    await database_sync_to_async(table_setup.open_table)(tournament, actor=director, number=1, seats=9)
    socket = await open_socket(f"/ws/t/{tournament.pk}/tables/1/", floor)
    await database_sync_to_async(demote)(floor)
    assert await closed_within(socket) == CLOSED
    assert await socket.receive_nothing(timeout=0.3)  # nothing after the close
