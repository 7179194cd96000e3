"""The per-process lobby fan-out (live/fanout.py): one channel-layer member per tournament and
process, one publish reaches every lobby socket of that tournament and no other, revocation
closes exactly the revoked token's sockets, and a dead or stuck socket delays nobody.

Every test runs on both layers: the in-memory layer (embedded default) and the Redis pub/sub
layer (production), the latter skipped when no Redis answers at REDIS_URL or 127.0.0.1:6379.
"""

import asyncio
import json
import os
import time
import uuid

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from core import groups
from live import consumers, fanout
from live.snapshots import lobby_answer
from tests.conftest import tournament_data
from tests.helpers import id_doc, lobby_communicator
from tournament.services import registration, setup

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.asyncio]

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"


def redis_answers() -> bool:
    try:
        import redis

        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=0.5).ping())
    except Exception:
        return False


@pytest.fixture(params=["memory", "redis"])
def layer(request, settings):
    if request.param == "memory":
        settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
    else:
        if not redis_answers():
            pytest.skip("no Redis")
        # Pub/sub channels are server-wide (not per database): a prefix of our own keeps
        # concurrent test runs on the same Redis from hearing each other.
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                "CONFIG": {"hosts": [{"address": REDIS_URL, "max_connections": 50}], "prefix": f"t{uuid.uuid4().hex[:12]}"},
            }
        }
    return request.param


def members(group: str) -> set[str]:
    """The channels that are members of a group in this process, whatever the layer."""
    layer = get_channel_layer()
    if hasattr(layer, "_get_layer"):  # pub/sub: per event loop, groups keyed by their Redis channel
        loop_layer = layer._get_layer()
        return set(loop_layer.groups.get(loop_layer._get_group_channel_name(group), ()))
    return set(layer.groups.get(group, {}))


async def open_screens(token: str, n: int) -> tuple[list[WebsocketCommunicator], int]:
    screens = [lobby_communicator(token) for _ in range(n)]
    results = await asyncio.gather(*(s.connect() for s in screens))
    assert all(connected for connected, _ in results)
    snapshots = await asyncio.gather(*(s.receive_json_from(timeout=5) for s in screens))
    assert {s["kind"] for s in snapshots} == {"snapshot"}
    seqs = {s["seq"] for s in snapshots}
    assert len(seqs) == 1
    return screens, seqs.pop()


async def close_all(screens) -> None:
    await asyncio.gather(*(s.disconnect() for s in screens))


async def wait_until(predicate, timeout: float = 3.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.01)


def display_token(director, tournament, label):
    return database_sync_to_async(registration.create_display_token)(tournament, actor=director, label=label)


async def test_one_publish_reaches_every_screen_of_the_tournament_and_no_other(
    layer, monkeypatch, tournament, template, director, cashier, player
):
    monkeypatch.setattr(fanout, "FAN_OUT_SLICE", 7)  # the listener yields to the loop between slices
    snapshots_taken = []
    monkeypatch.setattr(consumers, "lobby_answer", lambda t: snapshots_taken.append(t) or lobby_answer(t))
    other = await database_sync_to_async(setup.create_tournament)(tournament_data(name="Other"), actor=director, template=template)
    tokens = [await display_token(director, tournament, f"TV {i}") for i in range(5)]
    other_token = await display_token(director, other, "Other TV")
    screens = []
    for token in tokens:  # 5 tokens x 10 screens
        opened, seq = await open_screens(token.token, 10)
        screens += opened
    others, _ = await open_screens(other_token.token, 3)

    # One member of the lobby group in this process, whatever the number of screens.
    assert len(members(groups.lobby(tournament.pk))) == 1
    assert len(members(groups.lobby(other.pk))) == 1
    assert members(groups.lobby(tournament.pk)) != members(groups.lobby(other.pk))
    assert len(members(groups.display(tokens[0].pk))) == 1
    assert fanout.current_hub().sockets(tournament.pk) == 50
    assert len(snapshots_taken) < 50  # screens connecting together share snapshots

    await database_sync_to_async(registration.register_entry)(tournament, actor=cashier, player=player, document=id_doc())
    messages = await asyncio.gather(*(s.receive_json_from(timeout=5) for s in screens))
    assert len(messages) == 50
    for message in messages:
        assert message["kind"] == "event" and message["seq"] == seq + 1
        assert message["type"] == "entry.registered" and message["stats"]["entries"] == 1
    assert all([await s.receive_nothing(timeout=0.05) for s in others])
    assert all([await s.receive_nothing(timeout=0.01) for s in screens])  # once, not twice

    await close_all(screens + others)
    await wait_until(lambda: not fanout.current_hub().rooms)
    assert not members(groups.lobby(tournament.pk)) and not members(groups.display(tokens[0].pk))


async def test_revocation_closes_only_the_revoked_tokens_screens(layer, tournament, director, cashier, player):
    revoked = await display_token(director, tournament, "TV 1")
    kept = await display_token(director, tournament, "TV 2")
    doomed, seq = await open_screens(revoked.token, 3)
    staying, _ = await open_screens(kept.token, 2)

    await database_sync_to_async(registration.revoke_display_token)(revoked, actor=director)
    for s in doomed:
        event = await s.receive_json_from(timeout=5)  # the display.revoked event itself, then the close
        assert event["type"] == "display.revoked" and event["seq"] == seq + 1
        closed = await s.receive_output(timeout=5)
        assert closed == {"type": "websocket.close", "code": 4003}
    for s in staying:
        event = await s.receive_json_from(timeout=5)
        assert event["type"] == "display.revoked"
        assert await s.receive_nothing(timeout=0.1)
    await wait_until(lambda: not members(groups.display(revoked.pk)))
    assert members(groups.display(kept.pk))

    await database_sync_to_async(registration.register_entry)(tournament, actor=cashier, player=player, document=id_doc())
    for s in staying:
        event = await s.receive_json_from(timeout=5)
        assert event["type"] == "entry.registered" and event["seq"] == seq + 2
    connected, code = await lobby_communicator(revoked.token).connect()
    assert not connected and code == 4003
    await close_all(staying + doomed)


async def test_closed_stuck_and_broken_screens_do_not_stop_delivery(layer, monkeypatch, tournament, director, cashier, player):
    monkeypatch.setattr(fanout, "SEND_QUEUE", 3)
    token = await display_token(director, tournament, "TV")
    screens, seq = await open_screens(token.token, 10)
    await close_all(screens[:3])  # three screens went away
    await wait_until(lambda: fanout.current_hub().sockets(tournament.pk) == 7)

    stuck_forever = asyncio.Event()
    sent_to_stuck = []

    async def stuck_send(message):  # a screen whose transport is paused and never drains
        sent_to_stuck.append(message)
        await stuck_forever.wait()

    async def broken_send(message):  # a screen whose connection broke under us
        raise ConnectionResetError

    stuck = await fanout.join(tournament.pk, token.pk, stuck_send)
    stuck.start('{"kind": "snapshot"}', seq)
    broken = await fanout.join(tournament.pk, token.pk, broken_send)
    broken.start('{"kind": "snapshot"}', seq)
    await wait_until(lambda: broken.closed)

    for n in range(1, 6):
        started = time.monotonic()
        await database_sync_to_async(registration.create_display_token)(tournament, actor=director, label=f"spare {n}")
        for s in screens[3:]:
            event = await s.receive_json_from(timeout=5)
            assert event["seq"] == seq + n and event["type"] == "display.created"
        assert time.monotonic() - started < 2
    # The stuck screen fell SEND_QUEUE messages behind: closed and out of the room; the others never waited.
    assert stuck.closed and len(sent_to_stuck) == 1
    assert fanout.current_hub().sockets(tournament.pk) == 7
    await close_all(screens)
    await asyncio.gather(stuck.finish(), broken.finish())
    await wait_until(lambda: not fanout.current_hub().rooms)


async def test_a_slow_screen_catches_up_in_order_then_is_written_directly_again(layer):
    release = asyncio.Event()
    sent = []

    async def slow_send(message):  # the first send waits for the transport to drain
        await release.wait()
        sent.append(message["text"])

    socket = await fanout.join(998, 1, slow_send)
    socket.start("snapshot", 0)
    for seq in (1, 2, 3):
        socket.push(seq, f"e{seq}")
    await asyncio.sleep(0.01)
    assert sent == [] and not socket.closed
    release.set()
    await wait_until(lambda: len(sent) == 4)
    assert sent == ["snapshot", "e1", "e2", "e3"]
    await wait_until(lambda: socket._task is None)
    socket.push(4, "e4")
    assert sent[-1] == "e4"  # written straight from the listener again, no task in between
    await socket.finish()


async def test_snapshots_asked_together_are_shared_but_never_begun_before_the_ask(layer):
    gates = []

    async def load():  # the n-th snapshot taken has seq n, and is taken when its gate opens
        gates.append(asyncio.Event())
        n = len(gates)
        await gates[-1].wait()
        return {"kind": "snapshot", "seq": n}

    async def send(message):
        pass

    sockets = [await fanout.join(997, 1, send) for _ in range(3)]
    first = asyncio.ensure_future(sockets[0].snapshot(load))
    await wait_until(lambda: len(gates) == 1)  # snapshot 1 is being taken
    later = [asyncio.ensure_future(s.snapshot(load)) for s in sockets]  # asked meanwhile: may miss what 1 saw
    await asyncio.sleep(0.02)
    assert len(gates) == 1  # the next one waits for the one being taken
    gates[0].set()
    assert (await first)[1] == 1
    await wait_until(lambda: len(gates) == 2)
    gates[1].set()
    assert [seq for _text, seq in await asyncio.gather(*later)] == [2, 2, 2]  # one snapshot for the three
    assert len(gates) == 2
    await asyncio.gather(*(s.finish() for s in sockets))


async def test_screen_starts_from_its_snapshot_and_answers_ping_and_snapshot(layer, tournament, director, cashier, player):
    token = await display_token(director, tournament, "TV")
    (s,), seq = await open_screens(token.token, 1)
    await s.send_json_to({"action": "ping", "id": 7})
    pong = await s.receive_json_from(timeout=5)
    assert pong["kind"] == "pong" and pong["id"] == 7 and abs(pong["server_time"] - time.time()) < 5
    await database_sync_to_async(registration.register_entry)(tournament, actor=cashier, player=player, document=id_doc())
    assert (await s.receive_json_from(timeout=5))["seq"] == seq + 1
    await s.send_json_to({"action": "snapshot"})
    again = await s.receive_json_from(timeout=5)
    assert again["kind"] == "snapshot" and again["seq"] == seq + 1 and again["stats"]["entries"] == 1
    await s.send_to(text_data="not json")  # ignored, the screen stays connected
    await s.send_json_to({"action": "ping", "id": 8})
    assert (await s.receive_json_from(timeout=5))["id"] == 8
    await s.disconnect()


async def test_pushes_before_the_first_snapshot_are_held_and_filtered(layer):
    sent = []

    async def send(message):
        sent.append(message["text"])

    socket = await fanout.join(999, 1, send)
    socket.push(5, "old")  # already in the snapshot taken at seq 6
    socket.push(6, "same")
    socket.push(7, "new")
    await asyncio.sleep(0.01)
    assert sent == []  # nothing before the snapshot
    socket.start("snapshot@6", 6)
    socket.push(8, "newer")
    await wait_until(lambda: len(sent) == 3)
    assert sent == ["snapshot@6", "new", "newer"]
    await socket.finish()
    assert not fanout.current_hub().rooms


async def test_group_membership_is_renewed_before_it_expires(layer, monkeypatch, tournament, director, cashier, player):
    """The in-memory and core Redis layers drop a member 24 h after it joined; the room re-joins."""
    monkeypatch.setattr(fanout, "REJOIN_SECONDS", 0.05)
    token = await display_token(director, tournament, "TV")
    (s,), seq = await open_screens(token.token, 1)
    (channel,) = members(groups.lobby(tournament.pk))
    if layer == "memory":
        mem = get_channel_layer()
        mem.groups[groups.lobby(tournament.pk)][channel] = time.time() - 2 * mem.group_expiry  # joined two days ago
        await wait_until(lambda: mem.groups[groups.lobby(tournament.pk)][channel] > time.time() - 60)
    else:
        await asyncio.sleep(0.2)  # several re-joins: harmless no-ops on the pub/sub layer
    await database_sync_to_async(registration.register_entry)(tournament, actor=cashier, player=player, document=id_doc())
    assert (await s.receive_json_from(timeout=5))["seq"] == seq + 1
    assert members(groups.lobby(tournament.pk)) == {channel}
    await s.disconnect()


async def test_the_lobby_url_of_the_asgi_application_is_served_by_the_fan_out(layer, tournament, director):
    from config.asgi import application

    token = await display_token(director, tournament, "TV")
    communicator = WebsocketCommunicator(
        application, f"/ws/display/{token.token}/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    connected, _ = await communicator.connect()
    assert connected
    assert (await communicator.receive_json_from(timeout=5))["kind"] == "snapshot"
    assert fanout.current_hub().sockets(tournament.pk) == 1
    await communicator.disconnect()
    refused = WebsocketCommunicator(
        application, "/ws/display/not-a-token/", headers=[(b"origin", b"http://localhost"), (b"host", b"localhost")]
    )
    connected, code = await refused.connect()
    assert not connected and code == 4003


async def test_a_seat_pages_socket_takes_only_the_pushes_for_its_entry_and_a_resync_after_a_lost_one(layer):
    """A seat page's socket names its entry (?entry=N): it takes the pushes naming that entry, every draw and every
    undone bust, nothing else (5,000 phones in a room: a bust is written to its few sockets, not to all). The TVs and
    an entry-less socket take everything. A push lost on the way (a jump in the sequence the room hears) is told to
    the seat sockets, which cannot see it themselves: they read a snapshot again."""
    sent: dict[str, list] = {"tv": [], "seat 7": [], "seat 8": [], "no entry": []}

    def sender(name):
        async def send(message):
            sent[name].append(message.get("text"))

        return send

    sockets = [
        await fanout.join(997, 1, sender("tv")),
        await fanout.join(997, None, sender("seat 7"), entry=7),
        await fanout.join(997, None, sender("seat 8"), entry=8),
        await fanout.join(997, None, sender("no entry")),
    ]
    for socket in sockets:
        socket.start("snapshot", 10)
    room = fanout.current_hub().rooms[997]
    pushes = [
        {"kind": "event", "seq": 11, "type": "entry.busted", "entries": [7]},
        {"kind": "event", "seq": 12, "type": "table.hand_started"},
        {"kind": "event", "seq": 13, "type": "draw.committed", "draw": {"draw": 2, "commitment": "ab"}},
        {"kind": "event", "seq": 14, "type": "entry.bust_undone", "entries": [7]},
        {"kind": "event", "seq": 16, "type": "move.created", "entries": [8]},  # 15 lost on the way
    ]
    for data in pushes:
        await room.dispatch({"type": "push", "data": data})
    await wait_until(lambda: len(sent["tv"]) == 6)
    seqs = {name: [json.loads(text).get("seq", json.loads(text)["kind"]) for text in texts[1:]] for name, texts in sent.items()}
    assert seqs["tv"] == seqs["no entry"] == [11, 12, 13, 14, 16]
    assert seqs["seat 7"] == [11, 13, 14, "resync"]
    assert seqs["seat 8"] == [13, 14, 16, "resync"]
    for socket in sockets:
        await socket.finish()
    assert not fanout.current_hub().rooms


async def test_the_seat_socket_takes_its_entry_from_the_address():
    assert consumers.entry_of({"query_string": b"entry=12"}) == 12
    for bad in (b"", b"entry=", b"entry=-1", b"entry=abc", b"entry=99999999999", b"x=1"):
        assert consumers.entry_of({"query_string": bad}) is None
