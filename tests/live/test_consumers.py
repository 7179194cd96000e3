"""WebSocket consumers: role checks, snapshots, pushes after commit, revocation and logout close sockets,
and the players' public seat socket."""

import pytest
from asgiref.sync import sync_to_async
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from clock.services import clock as clock_services
from core.access import DEALER_TABLE
from live.consumers import FloorConsumer, TableConsumer
from tables.models import Seat
from tables.selectors import screens, state
from tables.services import busts, draws, hands, seats
from tables.services import setup as table_setup
from tests.helpers import id_doc, lobby_communicator, open_tables, register
from tournament.services import registration
from tournament.services.audit import lock_tournament, record_event

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]


def floor_communicator(tournament, user):
    communicator = WebsocketCommunicator(FloorConsumer.as_asgi(), f"/ws/t/{tournament.pk}/floor/")
    communicator.scope["user"] = user
    communicator.scope["url_route"] = {"kwargs": {"tournament_id": tournament.pk}}
    return communicator


@pytest.mark.parametrize("who", ["dealer", "cashier", "anonymous"])
async def test_floor_socket_refuses_dealer_cashier_and_anonymous(who, tournament, dealer, cashier):
    """Every event, names included, is the floor's (and the director's): not the desk's, not a dealer's."""
    user = {"dealer": dealer, "cashier": cashier}.get(who, AnonymousUser())
    communicator = floor_communicator(tournament, user)
    connected, code = await communicator.connect()
    assert not connected and code == 4003


@pytest.mark.parametrize("role", ["floor", "director"])
async def test_floor_socket_snapshot_then_events_in_sequence(role, tournament, player, cashier, floor, director):
    user = {"floor": floor, "director": director}[role]
    communicator = floor_communicator(tournament, user)
    connected, _ = await communicator.connect()
    assert connected
    snapshot = await communicator.receive_json_from()
    assert snapshot["kind"] == "snapshot" and snapshot["seq"] == tournament.event_seq
    entry = await database_sync_to_async(registration.register_entry)(tournament, actor=cashier, player=player, document=id_doc())
    message = await communicator.receive_json_from(timeout=3)
    assert message["kind"] == "event" and message["seq"] == snapshot["seq"] + 1
    assert message["event"]["type"] == "entry.registered" and message["event"]["payload"]["entry"] == entry.number
    assert message["stats"]["entries"] == 1
    await communicator.send_json_to({"action": "snapshot"})
    again = await communicator.receive_json_from()
    assert again["kind"] == "snapshot" and again["seq"] == message["seq"]
    await communicator.disconnect()


async def test_lobby_socket_shows_no_names_and_revocation_closes_it(tournament, director, cashier, player):
    display = await database_sync_to_async(registration.create_display_token)(tournament, actor=director, label="TV 1")
    communicator = lobby_communicator(display.token)
    connected, _ = await communicator.connect()
    assert connected
    snapshot = await communicator.receive_json_from()
    assert snapshot["kind"] == "snapshot" and "events" not in snapshot
    await database_sync_to_async(registration.register_entry)(tournament, actor=cashier, player=player, document=id_doc())
    message = await communicator.receive_json_from(timeout=3)
    assert message["type"] == "entry.registered" and "event" not in message
    assert player.last_name not in str(message)
    await database_sync_to_async(registration.revoke_display_token)(display, actor=director)
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


# --- the players' public seat socket (ws/s/<tournament_id>/, live/consumers.py SeatConsumer) -----------


def seat_socket(tournament_id: int) -> WebsocketCommunicator:
    """Through the whole ASGI application (routing, origin check, auth middleware), with no login."""
    from config.asgi import application

    return WebsocketCommunicator(
        application, f"/ws/s/{tournament_id}/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )


def seated_tournament(director, cashier, tournament) -> list:
    open_tables(director, tournament, [1, 2])
    entries = register(cashier, tournament, 4)
    draws.draw_start(tournament, actor=director)
    return entries


def free_seat_away_from(tournament, entry) -> tuple[int, int]:
    """An open seat at another table than the entry's."""
    mine = state.seat_of(entry).table.number
    for table in screens.floor_map(tournament)["tables"]:
        if table["in_play"] and table["table"] != mine:
            for seat in table["seat_list"]:
                if seat["entry"] is None:
                    return table["table"], seat["seat"]
    raise AssertionError("no free seat")


async def seat_json(tournament, number: int) -> dict:
    """What the player's seat page fetches when a push names its entry."""
    from django.test import Client

    return (await sync_to_async(Client().get)(f"/api/public/tournaments/{tournament.pk}/seats/{number}/")).json()


async def test_seat_socket_is_public_and_pushes_each_seat_change(tournament, director, cashier, floor):
    entries = await database_sync_to_async(seated_tournament)(director, cashier, tournament)
    communicator = seat_socket(tournament.pk)
    connected, _ = await communicator.connect()
    assert connected  # anonymous: no login, no token
    snapshot = await communicator.receive_json_from(timeout=3)
    assert snapshot["kind"] == "snapshot" and snapshot["tournament"]["id"] == tournament.pk
    await database_sync_to_async(tournament.refresh_from_db)()
    assert snapshot["seq"] == tournament.event_seq and snapshot["stats"]["players_left"] == 4
    assert "events" not in snapshot  # no audit log, and no names, on the public socket
    assert not any(entry.player.display_name in str(snapshot) for entry in entries)

    # A bust (one table in play: nothing to balance): the push names the entry and carries the new figures; the seat page reads the place.
    busted = entries[1]
    await database_sync_to_async(busts.bust_entry)(busted, actor=floor)
    message = await communicator.receive_json_from(timeout=3)
    assert message["seq"] == snapshot["seq"] + 1
    assert message["type"] == "entry.busted" and message["entries"] == [busted.number]
    assert message["stats"]["players_left"] == 3
    now = await seat_json(tournament, busted.number)
    assert now["status"] == "busted" and now["table"] is None and now["place"] == 4
    assert not await database_sync_to_async(Seat.objects.filter(entry=busted, ended_at__isnull=True).exists)()
    # A seat correction: the push names the entry, and its seat page then reads the new seat.
    moved = entries[0]  # to the other table: a correction does not balance
    table, seat = await database_sync_to_async(free_seat_away_from)(tournament, moved)
    await database_sync_to_async(seats.correct_seat)(moved, actor=floor, table_number=table, seat_number=seat)
    message = await communicator.receive_json_from(timeout=3)
    assert message["kind"] == "event" and message["seq"] == snapshot["seq"] + 2
    assert message["type"] == "seat.corrected" and message["entries"] == [moved.number]
    assert moved.player.display_name not in str(message)
    now = await seat_json(tournament, moved.number)
    assert (now["table"], now["seat"], now["status"]) == (table, seat, "active")

    assert await communicator.receive_nothing(timeout=0.05)  # each change once
    await communicator.disconnect()


async def test_seat_socket_of_an_unknown_tournament_is_refused(db):
    connected, code = await seat_socket(999999).connect()
    assert not connected and code == 4003


async def test_table_socket_notes_a_hand_start_to_the_dealer_and_refuses_a_cashier(tournament, director, cashier, dealer):
    def table_communicator(user, number):
        communicator = WebsocketCommunicator(TableConsumer.as_asgi(), f"/ws/t/{tournament.pk}/tables/{number}/")
        communicator.scope["user"] = user
        communicator.scope["session"] = {DEALER_TABLE: table.pk}  # the dealer's tablet opened table 1
        communicator.scope["url_route"] = {"kwargs": {"tournament_id": tournament.pk, "number": number}}
        return communicator

    table, _token = await database_sync_to_async(table_setup.open_table)(tournament, actor=director, number=1, seats=9)
    await database_sync_to_async(clock_services.start_clock)(tournament, actor=director)
    communicator = table_communicator(dealer, 1)
    connected, _ = await communicator.connect()
    assert connected
    snapshot = await communicator.receive_json_from(timeout=3)
    assert snapshot["kind"] == "snapshot" and isinstance(snapshot["seq"], int)
    await database_sync_to_async(hands.start_hand)(table, actor=dealer)
    message = await communicator.receive_json_from(timeout=3)
    assert message["kind"] == "event" and message["type"] == "table.hand_started" and message["table"] == 1
    assert message["seq"] == snapshot["seq"] + 1
    await communicator.disconnect()

    connected, code = await table_communicator(cashier, 1).connect()
    assert not connected and code == 4003
    # A Dealer login reaches only the table its tablet opened (table 1): not table 2's socket.
    await database_sync_to_async(table_setup.open_table)(tournament, actor=director, number=2, seats=9)
    connected, code = await table_communicator(dealer, 2).connect()
    assert not connected and code == 4003

    # Hand-for-hand events go to every tablet at once, however many tables they name.
    communicator = table_communicator(dealer, 1)
    await communicator.connect()
    await communicator.receive_json_from(timeout=3)

    def room_wide():
        from django.db import transaction

        with transaction.atomic():
            record_event(lock_tournament(tournament.pk), type_="h4h.hand_called", payload={"hand": 3, "tables": list(range(1, 60))})

    await database_sync_to_async(room_wide)()
    message = await communicator.receive_json_from(timeout=3)
    assert message["kind"] == "event" and message["type"] == "h4h.hand_called"
    await communicator.disconnect()
