"""A login's socket re-checks itself periodically: a role taken away by a management command (in
another process, whose re-check reaches no socket of the server through the embedded in-memory channel layer) or a
session that expired or was ended elsewhere closes the socket (4003) within SOCKET_RECHECK_SECONDS. Here the change
is written to the database as such a command writes it, without the signals this process would hear
(live/rechecks.py), so only the periodic re-check can see it."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.models import Session
from django.utils import timezone

from live.routing import websocket_urlpatterns
from tables.models import DealerLink, Table
from tables.services import dealer_links
from tables.services import setup as table_setup
from tests.live.test_role_changes import CLOSED, closed_within, open_socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def roles_taken_elsewhere(user) -> None:
    """As `manage.py shell` or a command in another process: the user's groups gone, no m2m signal heard here."""
    get_user_model().groups.through.objects.filter(user_id=user.pk).delete()


def sessions_expired() -> None:
    Session.objects.update(expire_date=timezone.now() - timedelta(seconds=1))


def sessions_ended() -> None:
    Session.objects.all().delete()  # a logout elsewhere, `clearsessions`, a flush of the store


@pytest.mark.parametrize("change", [roles_taken_elsewhere, sessions_expired, sessions_ended])
async def test_a_floor_socket_closes_at_its_next_recheck(settings, floor, tournament, change):
    settings.SOCKET_RECHECK_SECONDS = 0.3
    socket = await open_socket(f"/ws/t/{tournament.pk}/floor/", floor)
    await database_sync_to_async(change)(*([floor] if change is roles_taken_elsewhere else []))
    assert await closed_within(socket, 2) == CLOSED
    await socket.disconnect()


async def test_a_table_socket_closes_too_and_one_still_allowed_stays_open(settings, director, floor, tournament):
    settings.SOCKET_RECHECK_SECONDS = 0.2
    await database_sync_to_async(table_setup.open_table)(tournament, actor=director, number=1, seats=9)
    kept = await open_socket(f"/ws/t/{tournament.pk}/floor/", director)
    table = await open_socket(f"/ws/t/{tournament.pk}/tables/1/", floor)
    await database_sync_to_async(roles_taken_elsewhere)(floor)
    assert await closed_within(table, 2) == CLOSED
    await asyncio.sleep(0.7)  # several rounds: the director's socket is still allowed, and nothing closes it
    assert await kept.receive_nothing(timeout=0.3)
    await kept.disconnect()
    await table.disconnect()


async def test_without_the_periodic_recheck_a_change_made_elsewhere_is_never_seen(settings, floor, tournament):
    """What the backstop is for: with it off, the socket outlives the role a command took away."""
    settings.SOCKET_RECHECK_SECONDS = 0
    socket = await open_socket(f"/ws/t/{tournament.pk}/floor/", floor)
    await database_sync_to_async(roles_taken_elsewhere)(floor)
    assert await socket.receive_nothing(timeout=1)
    await socket.disconnect()


async def test_a_dealer_links_socket_closes_at_its_next_recheck_after_a_revocation_made_elsewhere(settings, director, floor, tournament):
    """A dealer link revoked by another process (its close never reaches this one on the in-memory layer): the tablet's
    socket closes at its next re-check; a link still valid stays open."""
    settings.SOCKET_RECHECK_SECONDS = 0.2

    def seed():
        for n in (1, 2):
            table_setup.open_table(tournament, actor=director, number=n, seats=9)
        return [dealer_links.create_dealer_link(Table.objects.get(tournament=tournament, number=n), actor=floor) for n in (1, 2)]

    (gone, gone_secret), (_kept, kept_secret) = await database_sync_to_async(seed)()
    sockets = []
    for secret in (gone_secret, kept_secret):
        tablet = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/dealer/{secret}/")
        tablet.scope["user"] = AnonymousUser()
        assert (await tablet.connect())[0]
        assert (await tablet.receive_json_from(timeout=3))["kind"] == "snapshot"
        sockets.append(tablet)
    # As a command in another process writes it: the link revoked, no close sent through this process's layer.
    await database_sync_to_async(DealerLink.objects.filter(pk=gone.pk).update)(revoked_at=timezone.now())
    assert await closed_within(sockets[0], 2) == CLOSED
    await asyncio.sleep(0.7)
    assert await sockets[1].receive_nothing(timeout=0.3)
    for tablet in sockets:
        await tablet.disconnect()
