"""Per-process fan-out for lobby screens (docs/architecture.md, known pitfalls: fan out once per process).

A lobby event is published once: `broadcast.publish_event` sends one `group_send` to
`groups.lobby(tid)`. In each ASGI process, the only member of that group is one *room
listener* per tournament, on one channel of its own. It receives the message once, serializes
it to JSON once, and hands the same text to every lobby socket of that tournament in this
process. So a broadcast costs one channel-layer message per process (not one per socket), one
`json.dumps`, and then one ASGI `websocket.send` per socket, called straight from the listener.

A send to a writable socket completes without suspending (uvicorn writes the frame to the
transport at once), so the listener steps each socket's send by hand and needs no task per
socket and message. A send that does suspend (the transport is paused behind a slow screen)
finishes in a task of that socket, and what comes for it meanwhile waits in its bounded
backlog: a slow or dead screen delays nobody else. A screen that falls `SEND_QUEUE` messages
behind is closed (code 1013); its browser reconnects and gets a fresh snapshot. Everything a
socket sends (snapshot, pongs, pushes) takes this one path, so it stays in order. The listener
yields to the event loop every `FAN_OUT_SLICE` sockets, so pongs and requests are not held up
behind a very large room.
Pushes that arrive before a socket's first snapshot is sent are held and released after it
(only those newer than the snapshot), so a screen always starts from a snapshot. Screens of a
room that ask for a snapshot together (a reconnect storm after a restart) share one, taken
after they asked (Room.snapshot): a few database reads instead of one per screen.

Revocation: the room listener also joins `groups.display(token_id)` for each display token that
has a socket in the room here, so `broadcast.close_sockets(groups.display(id), ...)` reaches it
once per process and it closes exactly that token's sockets (code 4003).

Group membership does not silently expire:
- `RedisPubSubChannelLayer` (REDIS_URL, our production layer) keeps no membership in Redis at
  all: a group is a Redis pub/sub channel this process subscribes to for as long as the room
  exists, so there is no expiry; redis-py's pub/sub re-subscribes when it reconnects (what was
  published meanwhile is lost, which the next event's sequence gap and a snapshot repair).
- The in-memory layer (embedded default) and channels-redis's core layer drop a group member
  `group_expiry` (24 h) after it *joined*. A room therefore re-joins its groups every
  `REJOIN_SECONDS` (one hour), which renews the membership on those layers and is a no-op on
  the pub/sub layer. A lobby screen of a multi-day event stays live.

Rooms live per event loop (as channel layers do): one in production, one per test in tests.
A room is created by its first socket and torn down (groups left, listener stopped) when its
last socket leaves. Joins and tear-downs run under one lock per process, so a room that closes
while another opens for the same tournament never unsubscribes the new one.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import types
from collections.abc import Awaitable, Callable
from typing import Any

from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from core import groups
from tournament.models import DisplayToken

log = logging.getLogger(__name__)

FAN_OUT_SLICE = 500  # sockets written before the listener lets the event loop run other work
SEND_QUEUE = 64  # outbound messages one socket may have waiting before it is closed as too slow
REJOIN_SECONDS = 3600.0  # renew group membership well inside the 24 h expiry of the in-memory and core layers
CLOSE_TOO_SLOW = 1013  # "try again later": the browser reconnects and gets a snapshot
CLOSE_REVOKED = 4003  # the lobby's "refused for good" code (static/js/live.js stops reconnecting)

Send = Callable[[dict], Awaitable[None]]


@types.coroutine
def _resume(coro, yielded):
    """Go on awaiting a coroutine that was started by hand and suspended, yielding `yielded`.

    LobbySocket steps its ASGI send() once by hand: on a writable socket it finishes without ever
    suspending, which spares a task per socket and message. When it does suspend (the transport
    is paused behind a slow client), the rest of it runs in a task through this generator, which
    hands the future it was waiting on to the task and relays results and exceptions, as
    `yield from` / `await` would have done from the start.
    """
    while True:
        try:
            value = yield yielded
        except BaseException as exc:
            try:
                yielded = coro.throw(exc)
            except StopIteration as stop:
                return stop.value
        else:
            try:
                yielded = coro.send(value)
            except StopIteration as stop:
                return stop.value


class LobbySocket:
    """One connected lobby screen. Sends go straight to the ASGI server while it takes them
    without waiting; a send that has to wait finishes in a task of this socket, and what comes
    meanwhile waits in a bounded backlog (SEND_QUEUE), so a slow screen delays nobody else."""

    __slots__ = ("tournament_id", "display_id", "entry", "closed", "_send", "_backlog", "_task", "_held", "_room", "_left")

    def __init__(self, tournament_id: int, display_id: int, send: Send, entry: int | None = None) -> None:
        self.tournament_id = tournament_id
        self.display_id = display_id
        self.entry = entry  # a seat page's entry: only the pushes for it (Room.fan_out)
        self.closed = False  # closed or closing: sends nothing more
        self._send = send
        self._backlog: collections.deque[dict] = collections.deque()
        self._task: asyncio.Task | None = None  # finishing a send that had to wait, then the backlog
        self._held: list[tuple[int | None, str]] | None = []  # pushes before the first snapshot
        self._room: Room | None = None
        self._left = False

    # Called by the room listener, for every socket of the room, without awaiting anything.
    def push(self, seq: int | None, text: str) -> None:
        if self._held is not None:
            self._held.append((seq, text))
        else:
            self.send_text(text)

    def start(self, snapshot_text: str, seq: int | None) -> None:
        """Send the first snapshot, then the pushes held meanwhile that it does not cover."""
        held, self._held = self._held, None
        self.send_text(snapshot_text)
        for event_seq, text in held or ():
            if seq is None or event_seq is None or event_seq > seq:
                self.send_text(text)

    def send_text(self, text: str) -> None:
        if not self.closed:
            self._deliver({"type": "websocket.send", "text": text})

    def close(self, code: int) -> None:
        """Send what is waiting, then close with `code` (too slow: drop the backlog and close now)."""
        if self.closed:
            return
        self.closed = True
        if self._room is not None:
            self._room.discard(self)
        if code == CLOSE_TOO_SLOW:
            self._backlog.clear()
        self._deliver({"type": "websocket.close", "code": code})

    def _deliver(self, message: dict) -> None:
        if self._task is not None:  # a send is waiting: keep the order, bound the backlog
            if len(self._backlog) >= SEND_QUEUE and message["type"] == "websocket.send":
                log.info("lobby socket of display %s is %d messages behind: closing it", self.display_id, SEND_QUEUE)
                self.close(CLOSE_TOO_SLOW)
            else:
                self._backlog.append(message)
            return
        coro = self._send(message)
        try:
            yielded = coro.send(None)
        except StopIteration:  # sent without waiting: the common case
            if message["type"] == "websocket.close":
                self._gone()
            return
        except Exception:  # the client is gone (ClientDisconnected, closed transport...)
            self._gone()
            return
        self._task = asyncio.get_running_loop().create_task(self._finish(message, coro, yielded))

    async def _finish(self, message: dict, coro, yielded) -> None:
        try:
            await _resume(coro, yielded)
            while message["type"] != "websocket.close" and self._backlog:
                message = self._backlog.popleft()
                await self._send(message)
        except asyncio.CancelledError:
            coro.close()
            raise
        except Exception:
            self._gone()
            return
        self._task = None  # nothing waiting: back to sending straight away
        if message["type"] == "websocket.close":
            self._gone()

    def _gone(self) -> None:
        """Nothing more goes out: leave the room now rather than when the server reports the
        disconnect (in a task of its own, which finish() does not cancel)."""
        self.closed = True
        if self._room is not None:
            self._room.discard(self)
        if not self._left:
            self._left = True
            asyncio.get_running_loop().create_task(current_hub().leave(self))

    async def snapshot(self, load: Callable[[], Awaitable[dict]]) -> tuple[str, int | None]:
        """A snapshot taken after this call, as JSON text and its seq: shared with the other
        sockets of the room that ask meanwhile (a reconnect storm costs a few, not one per screen)."""
        if self._room is None:
            data = await load()
            return json.dumps(data), data.get("seq")
        return await self._room.snapshot(load)

    async def finish(self) -> None:
        """The connection is over: stop sending and leave the room."""
        self.closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
        self._left = True
        await current_hub().leave(self)


class Room:
    """The lobby sockets of one tournament in this process, and their one listener."""

    def __init__(self, hub: Hub, tournament_id: int) -> None:
        self.hub = hub
        self.tournament_id = tournament_id
        self.sockets: set[LobbySocket] = set()
        self.by_display: dict[int, set[LobbySocket]] = {}
        self.broad: set[LobbySocket] = set()  # every push: the TVs, and seat sockets that name no entry
        self.by_entry: dict[int, set[LobbySocket]] = {}  # a seat page's socket: the pushes for its entry only
        self.last_seq: int | None = None  # of the last push heard: a jump is a push lost on the way (resync)
        self.channel: str | None = None
        self.joined: dict[str, int | None] = {}  # group name -> display token id (None for the lobby group)
        self.stopped = False
        self._listener: asyncio.Task | None = None
        self._keepalive: asyncio.Task | None = None
        self._snapshot_running: asyncio.Future | None = None  # the snapshot being taken
        self._snapshot_next: asyncio.Future | None = None  # the one to take after it, for whoever asks meanwhile

    async def snapshot(self, load: Callable[[], Awaitable[dict]]) -> tuple[str, int | None]:
        """Join the next snapshot not yet begun (begin one if none is waiting). One that is
        already being taken may miss an event this socket will not get (it joined later), so
        it is never shared with a later caller; at most one is taken and one waits."""
        if self._snapshot_next is None:
            self._snapshot_next = asyncio.get_running_loop().create_future()
            asyncio.get_running_loop().create_task(self._take_snapshot(self._snapshot_next, load))
        return await asyncio.shield(self._snapshot_next)

    async def _take_snapshot(self, result: asyncio.Future, load) -> None:
        if self._snapshot_running is not None:
            await asyncio.wait({self._snapshot_running})
        self._snapshot_next = None
        self._snapshot_running = result
        try:
            data = await load()
        except asyncio.CancelledError:
            result.cancel()
            raise
        except Exception as exc:
            result.set_exception(exc)  # every waiter gets it
            result.exception()  # ...and none need be left: no "exception never retrieved" log
        else:
            result.set_result((json.dumps(data), data.get("seq")))
        finally:
            self._snapshot_running = None

    # Membership of sockets: synchronous, so a push never interleaves with a half-done change.
    def add(self, socket: LobbySocket) -> None:
        socket._room = self
        self.sockets.add(socket)
        self.by_display.setdefault(socket.display_id, set()).add(socket)
        if socket.entry is None:
            self.broad.add(socket)
        else:
            self.by_entry.setdefault(socket.entry, set()).add(socket)

    def discard(self, socket: LobbySocket) -> None:
        self.sockets.discard(socket)
        self.broad.discard(socket)
        mine = self.by_entry.get(socket.entry)
        if mine is not None:
            mine.discard(socket)
            if not mine:
                del self.by_entry[socket.entry]
        same = self.by_display.get(socket.display_id)
        if same is not None:
            same.discard(socket)
            if not same:
                del self.by_display[socket.display_id]

    # Channel-layer side: called under the hub's lock.
    async def start(self) -> None:
        layer = get_channel_layer()
        self.channel = await layer.new_channel("lobby.")
        await self._join(groups.lobby(self.tournament_id), None)
        loop = asyncio.get_running_loop()
        self._listener = loop.create_task(self._listen())
        self._keepalive = loop.create_task(self._rejoin_periodically())

    async def sync_displays(self) -> None:
        """Join the display group of every token with a socket here; leave the others."""
        layer = get_channel_layer()
        # Sockets with no display token (players' seat pages) join no display group.
        wanted = {groups.display(display_id): display_id for display_id in self.by_display if display_id is not None}
        for name, display_id in wanted.items():
            if name not in self.joined:
                await self._join(name, display_id)
        for name, display_id in list(self.joined.items()):
            if display_id is not None and name not in wanted:
                del self.joined[name]
                await layer.group_discard(name, self.channel)

    async def _join(self, name: str, display_id: int | None) -> None:
        await get_channel_layer().group_add(name, self.channel)
        self.joined[name] = display_id

    async def stop(self) -> None:
        self.stopped = True
        for task in (self._listener, self._keepalive):
            if task is not None:
                task.cancel()
        layer = get_channel_layer()
        for name in list(self.joined):
            try:
                await layer.group_discard(name, self.channel)
            except Exception:
                log.exception("leaving %s failed", name)
        self.joined.clear()

    async def _rejoin_periodically(self) -> None:
        layer = get_channel_layer()
        while True:
            await asyncio.sleep(REJOIN_SECONDS)
            async with self.hub.lock:
                for name in list(self.joined):
                    try:
                        await layer.group_add(name, self.channel)
                    except Exception:
                        log.exception("re-joining %s failed", name)

    async def _listen(self) -> None:
        layer = get_channel_layer()
        while True:
            try:
                message = await layer.receive(self.channel)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("lobby listener of tournament %s: receive failed", self.tournament_id)
                await asyncio.sleep(1)
                continue
            try:
                await self.dispatch(message)
            except Exception:
                log.exception("lobby listener of tournament %s: a message failed", self.tournament_id)

    async def dispatch(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        if kind == "push":
            data = message["data"]
            seq = data.get("seq")
            lost = isinstance(seq, int) and self.last_seq is not None and seq > self.last_seq + 1
            if isinstance(seq, int):
                self.last_seq = max(seq, self.last_seq or 0)
            await self.fan_out(seq, json.dumps(data), for_entries(data))
            if lost:  # the seat sockets cannot see a gap in what they are sent: they are told to read a snapshot
                await self.fan_out(None, RESYNC, None, broad=False)
        elif kind == "close.socket":
            display_id = self.joined.get(message.get("group", ""))
            if display_id is not None:
                self.close_display(display_id)
            elif "group" not in message:
                await self._close_revoked()

    async def fan_out(self, seq: int | None, text: str, entries: list[int] | None = None, broad: bool = True) -> None:
        """The one serialized text to the room's sockets that take it: the broad ones (`broad`), and the seat
        sockets of `entries` (None: all of them)."""
        if entries is None:
            sockets = tuple(self.sockets) if broad else tuple(self.sockets - self.broad)
        else:
            sockets = (*(self.broad if broad else ()), *(socket for number in set(entries) for socket in self.by_entry.get(number, ())))
        for start in range(0, len(sockets), FAN_OUT_SLICE):
            if start:
                await asyncio.sleep(0)
            for socket in sockets[start : start + FAN_OUT_SLICE]:
                socket.push(seq, text)

    def close_display(self, display_id: int) -> None:
        for socket in tuple(self.by_display.get(display_id, ())):
            socket.close(CLOSE_REVOKED)

    async def _close_revoked(self) -> None:
        """A close message that does not say its group: close the sockets whose token is revoked now."""
        ids = [display_id for display_id in self.by_display if display_id is not None]
        revoked = await database_sync_to_async(
            lambda: list(DisplayToken.objects.filter(pk__in=ids, revoked_at__isnull=False).values_list("pk", flat=True))
        )()
        for display_id in revoked:
            self.close_display(display_id)


RESYNC = json.dumps({"kind": "resync"})  # a seat socket's cue to read a snapshot (static/js/live.js, thin)
# Pushes every seat page takes, whatever entries they name: an undone bust (places move), and what moves the prizes
# the pages of the entries with a place show (the finish gives the winner his, a deal or a new plan changes them all,
# a voided purchase shrinks the pool, a satellite's seats).
EVERY_SEAT_PAGE = (
    "entry.bust_undone",
    "tournament.finished",
    "tournament.resumed",
    "deal.approved",
    "payouts.",
    "purchase.voided",
    "satellite.",
)


def for_entries(data: dict) -> list[int] | None:
    """The entries whose seat sockets take a push (static/js/seat-page.js reads its seat again on each one it gets):
    those it names; None for all of them (a draw, and the types of EVERY_SEAT_PAGE)."""
    if data.get("kind") != "event" or "draw" in data or str(data.get("type", "")).startswith(EVERY_SEAT_PAGE):
        return None
    entries = data.get("entries")
    return [number for number in entries if isinstance(number, int)] if isinstance(entries, list) else []


class Hub:
    """This process's (this event loop's) lobby rooms, by tournament."""

    def __init__(self) -> None:
        self.rooms: dict[int, Room] = {}
        self.lock = asyncio.Lock()

    async def join(self, tournament_id: int, display_id: int, send: Send, entry: int | None = None) -> LobbySocket:
        socket = LobbySocket(tournament_id, display_id, send, entry)
        room = self.rooms.get(tournament_id)
        if room is None:
            room = self.rooms[tournament_id] = Room(self, tournament_id)
        room.add(socket)  # from here on it gets pushes (held until its first snapshot)
        try:
            async with self.lock:
                if room.channel is None:
                    await room.start()
                if socket.display_id not in room.joined.values():
                    await room.sync_displays()
        except BaseException:
            await socket.finish()
            raise
        return socket

    async def leave(self, socket: LobbySocket) -> None:
        room = socket._room
        if room is None:
            return
        room.discard(socket)
        if room.stopped or (room.sockets and socket.display_id in room.by_display):
            return
        async with self.lock:
            if room.stopped:
                return
            if not room.sockets:
                if self.rooms.get(room.tournament_id) is room:
                    del self.rooms[room.tournament_id]
                await room.stop()
            else:
                await room.sync_displays()

    def sockets(self, tournament_id: int) -> int:
        room = self.rooms.get(tournament_id)
        return len(room.sockets) if room is not None else 0


_hubs: dict[asyncio.AbstractEventLoop, Hub] = {}


def current_hub() -> Hub:
    loop = asyncio.get_running_loop()
    hub = _hubs.get(loop)
    if hub is None:
        for old in [other for other in _hubs if other.is_closed()]:
            del _hubs[old]
        hub = _hubs[loop] = Hub()
    return hub


def has_room(tournament_id: int) -> bool:
    """This process has the tournament's room (made by a socket of a tournament that exists)."""
    return tournament_id in current_hub().rooms


async def join(tournament_id: int, display_id: int | None, send: Send, entry: int | None = None) -> LobbySocket:
    """Register a lobby socket (already accepted) of this tournament and display token (None: a
    public socket that no revocation closes, e.g. a player's seat page; `entry`: the seat page's entry, whose
    socket takes only the pushes for it)."""
    return await current_hub().join(tournament_id, display_id, send, entry)
