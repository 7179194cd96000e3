"""WebSocket consumers: they check the role, join groups, send snapshots and relay pushes.

They never change state. A client that sees a gap in sequence numbers sends
{"action": "snapshot"} and gets a fresh snapshot.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from importlib import import_module
from urllib.parse import parse_qs

from channels.db import database_sync_to_async
from channels.exceptions import StopConsumer
from channels.generic.websocket import AsyncJsonWebsocketConsumer
from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.utils.crypto import constant_time_compare

from core import access, groups
from tables.models import DealerLink, Table
from tables.services import dealer_links
from tournament.models import AuditEvent, DisplayToken, Tournament
from venues.models import Venue, VenueDisplay

from . import fanout
from .snapshots import floor_answer, lobby_answer, read_again, room_tv_answer

log = logging.getLogger(__name__)

# The channel layer (Redis) is down: the socket is accepted and closed at once with "try again later";
# the screen shows that it is reconnecting and retries with backoff (static/js/live.js), then gets a
# fresh snapshot. Never an HTTP 500 on the handshake, never a traceback per attempt.
CLOSE_UNAVAILABLE = 1013
CLOSE_RECONNECT = 4001  # what the socket serves moved: connect again (a dealer link's table taken by another tournament)


async def refuse_unavailable(receive, send) -> None:
    """Answer a WebSocket handshake when the channel layer is down: accept, then close at once."""
    message = await receive()
    if message["type"] == "websocket.connect":
        await send({"type": "websocket.accept"})
        await send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})


class PushConsumer(AsyncJsonWebsocketConsumer):
    joined: list[str]

    async def __call__(self, scope, receive, send):
        try:
            await super().__call__(scope, receive, send)
        except Exception:
            if "channel_name" in self.__dict__:  # it got its channel: not an outage of the layer
                raise
            # Channels asks the layer for this socket's channel before the handshake.
            log.warning("channel layer unavailable: refusing a WebSocket (%s)", CLOSE_UNAVAILABLE, exc_info=True)
            await refuse_unavailable(receive, send)

    async def join(self, *names: str) -> None:
        """Join the groups; when the channel layer fails, leave what was joined, close the socket
        (CLOSE_UNAVAILABLE) and end this consumer (StopConsumer: connect() sends nothing more)."""
        self.joined = []
        try:
            for name in names:
                await self.channel_layer.group_add(name, self.channel_name)
                self.joined.append(name)
        except Exception:
            log.warning("channel layer unavailable: closing a WebSocket (%s)", CLOSE_UNAVAILABLE, exc_info=True)
            await self.disconnect(CLOSE_UNAVAILABLE)
            await self.close(code=CLOSE_UNAVAILABLE)
            raise StopConsumer from None

    recheck_task: asyncio.Task | None = None

    def recheck_every(self) -> None:
        """A login's socket re-checks itself every SOCKET_RECHECK_SECONDS: the backstop for a change the
        server never hears of. A role taken away by a management command runs in another process, whose re-check
        (core/broadcast.py) reaches no socket of the server through the embedded in-memory channel layer; a session
        that expired or was ended elsewhere sends none. 0 turns it off."""
        interval = float(getattr(settings, "SOCKET_RECHECK_SECONDS", 0) or 0)
        if interval > 0:
            self.recheck_task = asyncio.ensure_future(self._recheck_loop(interval))

    async def _recheck_loop(self, interval: float) -> None:
        while not self.closing:
            await asyncio.sleep(interval)
            try:
                await self.recheck_socket({"reason": "periodic"})
            except Exception:  # a database that cannot answer now: the next round asks again
                log.warning("periodic socket re-check failed", exc_info=True)

    async def disconnect(self, code):
        if self.recheck_task is not None:
            self.recheck_task.cancel()
            self.recheck_task = None
        for name in getattr(self, "joined", []):
            try:
                await self.channel_layer.group_discard(name, self.channel_name)
            except Exception:  # the layer is down; its memberships go with it
                log.warning("leaving %s failed", name, exc_info=True)
        self.joined = []

    closing = False

    async def push(self, message):
        if not self.closing:
            await self.send_json(message["data"])

    async def close_socket(self, message):
        self.closing = True
        await self.close(code=4003)

    async def reconnect_socket(self, message):
        """Closed with a code the page reconnects on (static/js/live.js retries any code but 4003): what the socket
        serves moved (a dealer link's table into another tournament), and the next connect joins where it is now."""
        self.closing = True
        await self.close(code=CLOSE_RECONNECT)

    async def recheck_socket(self, message):
        """The login's roles or standing changed (core/broadcast.py recheck_sockets): close at once when it
        may no longer hold this socket. Messages are handled one at a time, so no push queued behind this
        one reaches a socket that lost its right."""
        if not self.closing and not await database_sync_to_async(self.still_allowed)():
            await self.close_socket(message)

    def still_allowed(self) -> bool:
        return True

    async def receive_json(self, content, **kwargs):
        if content.get("action") == "snapshot":
            await self.send_json(await self.snapshot())
        elif content.get("action") == "ping":
            # Time sync: the client sends its send time, we answer with ours (seconds since the epoch).
            await self.send_json({"kind": "pong", "id": content.get("id"), "server_time": time.time()})


def _may(user, socket: str, tournament_id: int) -> bool:
    """The socket's role set, from the table of who reaches what (core/access.py), in this tournament."""
    return user is not None and access.may(user, socket, tournament_id)


def _session_now(scope) -> dict:
    """The socket's session as the store has it now: empty when it expired or ended (a logout, a flush elsewhere)."""
    key = getattr(scope.get("session"), "session_key", None)
    if not key:
        return {}
    return import_module(settings.SESSION_ENGINE).SessionStore(key).load()


def _login_now(scope):
    """The socket's login as the database has it now: None when deleted, made inactive, when its password
    changed since the session began (Django's session hash, as for HTTP), or when its session ended or expired."""
    user = scope.get("user")
    fresh = get_user_model().objects.filter(pk=getattr(user, "pk", None), is_active=True).first()
    session = _session_now(scope)
    stored = session.get(HASH_SESSION_KEY)
    if (
        fresh is None
        or not stored
        or str(session.get(SESSION_KEY)) != str(fresh.pk)
        or not constant_time_compare(stored, fresh.get_session_auth_hash())
    ):
        return None
    return fresh


class FloorConsumer(PushConsumer):
    """The floor's screens of one tournament (and the director's): every event, names included."""

    async def connect(self):
        user = self.scope.get("user")
        tid = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.tournament = await database_sync_to_async(Tournament.objects.filter(pk=tid).first)()
        allowed = await database_sync_to_async(_may)(user, "floor-socket", tid)
        if self.tournament is None or not allowed:
            await self.close(code=4003)
            return
        await self.accept()
        await self.join(groups.floor(tid), groups.user(user.pk))
        await self.send_json(await self.snapshot())
        self.recheck_every()

    async def snapshot(self) -> dict:
        return await database_sync_to_async(lambda: floor_answer(read_again(self.tournament)))()

    def still_allowed(self) -> bool:
        return _may(_login_now(self.scope), "floor-socket", self.scope["url_route"]["kwargs"]["tournament_id"])


def _room_groups(venue_id: int) -> list[str] | None:
    """The groups of a venue's room (None: no such venue): its own, and the default venue's too for the first venue."""
    if not Venue.objects.filter(pk=venue_id).exists():
        return None
    first = Venue.objects.order_by("id").values_list("pk", flat=True).first()
    return [groups.room(venue_id)] + ([groups.room(0)] if first == venue_id else [])


class RoomConsumer(PushConsumer):
    """A venue's room map: a note for every change in the room (the tables taken and given back, a bust, a move, the
    floor's states), no names; the page reads the map again through the API, which names only the staff's own
    tournaments."""

    async def connect(self):
        user = self.scope.get("user")
        venue_id = self.scope["url_route"]["kwargs"]["venue_id"]
        names = await database_sync_to_async(_room_groups)(venue_id)
        allowed = await database_sync_to_async(_may)(user, "room-socket", None)
        if names is None or not allowed:
            await self.close(code=4003)
            return
        await self.accept()
        await self.join(*names, groups.user(user.pk))
        await self.send_json(await self.snapshot())
        self.recheck_every()

    async def snapshot(self) -> dict:
        """No state rides on the socket: its "snapshot" tells the page to read the room map (GET /api/venues/<id>/)."""
        return {"kind": "snapshot", "seq": 0}

    def still_allowed(self) -> bool:
        return _may(_login_now(self.scope), "room-socket", None)


def _room_display(token: str) -> tuple[VenueDisplay | None, list[str] | None]:
    display = VenueDisplay.objects.select_related("venue").for_link(token).first()
    return display, None if display is None else _room_groups(display.venue_id)


class RoomDisplayConsumer(PushConsumer):
    """A room TV (its link's secret in the path; web/venues/room_tv.py): the room's notes, as the room map hears them (a
    change of any tournament in the venue, no names), and on each the TV asks its snapshot again: every running
    tournament's clock and figures and today's schedule (live/snapshots.py room_tv_answer), read once per version
    however many TVs ask. Closed (4003) when the link is unknown or revoked, at once on revocation."""

    display: VenueDisplay | None = None

    async def connect(self):
        display, names = await database_sync_to_async(_room_display)(self.scope["url_route"]["kwargs"]["token"])
        if display is None or names is None:
            await self.close(code=4003)
            return
        self.display = display
        await self.accept()
        await self.join(*names, groups.room_display(display.pk))
        # A revocation whose close went out before this socket joined the link's group is caught here.
        if not await database_sync_to_async(self.still_allowed)():
            await self.close(code=4003)
            return
        await self.send_json(await self.snapshot())

    def still_allowed(self) -> bool:
        return VenueDisplay.objects.filter(pk=self.display.pk, revoked_at__isnull=True).exists()

    async def snapshot(self) -> dict:
        return await database_sync_to_async(room_tv_answer)(self.display.venue)


def _table_pk(tournament_id: int, number: int) -> int | None:
    return Table.objects.filter(tournament_id=tournament_id, number=number).values_list("pk", flat=True).first()


def _may_use_table(user, session, tournament_id: int, table_pk: int | None) -> bool:
    """The floor and the director at any table; a Dealer login only at the table its session is bound to."""
    return table_pk is not None and _may(user, "table-socket", tournament_id) and access.dealer_may_use(user, session, table_pk)


class TableConsumer(PushConsumer):
    """One table's dealer tablet: the floor and the director, and a Dealer login at the table its tablet
    is bound to (web/access.py). Pushes are short notes naming the event; the tablet fetches its
    table's state (positions, slips, halt) over HTTP."""

    async def connect(self):
        user = self.scope.get("user")
        kwargs = self.scope["url_route"]["kwargs"]
        tid, number = kwargs["tournament_id"], kwargs["number"]
        self.tournament = await database_sync_to_async(Tournament.objects.filter(pk=tid).first)()
        table_pk = await database_sync_to_async(_table_pk)(tid, number)
        allowed = await database_sync_to_async(_may_use_table)(user, self.scope.get("session"), tid, table_pk)
        if self.tournament is None or not allowed:
            await self.close(code=4003)
            return
        await self.accept()
        await self.join(groups.table(tid, number), groups.tables(tid), groups.user(user.pk))
        await self.send_json(await self.snapshot())
        self.recheck_every()

    async def snapshot(self) -> dict:
        return {"kind": "snapshot", "seq": await database_sync_to_async(_last_seq)(self.tournament)}

    def still_allowed(self) -> bool:
        kwargs = self.scope["url_route"]["kwargs"]
        table_pk = _table_pk(kwargs["tournament_id"], kwargs["number"])
        return _may_use_table(_login_now(self.scope), self.scope.get("session"), kwargs["tournament_id"], table_pk)


class DealerLinkConsumer(PushConsumer):
    """The tablet of a table's dealer link (tables/services/dealer_links.py): the same notes as TableConsumer, for
    the link's table only; closed (4003) when the link is unknown or revoked, at once on revocation, and at the
    next periodic re-check when the revocation's close never reached this process (made by a management command,
    through the embedded in-memory channel layer)."""

    link_pk: int | None = None

    async def connect(self):
        token = self.scope["url_route"]["kwargs"]["token"]
        link = await database_sync_to_async(dealer_links.link_for_token)(token)
        if link is None:
            await self.close(code=4003)
            return
        self.tournament = link.table.tournament
        await self.accept()
        await self.join(groups.table(self.tournament.pk, link.table.number), groups.tables(self.tournament.pk), groups.dealer_link(link.pk))
        # A revocation whose close went out before this socket joined the link's group is caught here.
        self.link_pk = link.pk
        if not await database_sync_to_async(self.still_allowed)():
            await self.close(code=4003)
            return
        await self.send_json(await self.snapshot())
        self.recheck_every()

    def still_allowed(self) -> bool:
        return DealerLink.objects.filter(pk=self.link_pk, revoked_at__isnull=True).exists()

    async def snapshot(self) -> dict:
        return {"kind": "snapshot", "seq": await database_sync_to_async(_last_seq)(self.tournament)}


def _last_seq(tournament: Tournament) -> int:
    return AuditEvent.objects.filter(tournament=tournament).order_by("-seq").values_list("seq", flat=True).first() or 0


class GroupLobbyConsumer(PushConsumer):
    """A lobby screen as one Channels consumer per socket, each a member of the lobby group.

    The path before the per-process fan-out; kept for comparison (bench/lobby_fanout.py, routed
    with LOBBY_FANOUT=0). Each socket costs a channel, a group membership and one channel-layer
    message per broadcast (docs/architecture.md, known pitfalls; the figures in docs/live-updates.md).
    """

    async def connect(self):
        token = self.scope["url_route"]["kwargs"]["token"]
        display = await database_sync_to_async(_valid_display)(token)
        if display is None:
            await self.close(code=4003)
            return
        self.tournament = display.tournament
        await self.accept()
        await self.join(groups.lobby(display.tournament_id), groups.display(display.pk))
        await self.send_json(await self.snapshot())

    async def snapshot(self) -> dict:
        return await database_sync_to_async(lambda: lobby_answer(read_again(self.tournament)))()


def _valid_display(token: str) -> DisplayToken | None:
    return DisplayToken.objects.select_related("tournament").for_link(token).first()


def _still_valid(display: DisplayToken) -> bool:
    """Checked once the socket is in its room: a revocation whose close went out before the room
    joined the display group is caught here."""
    return DisplayToken.objects.filter(pk=display.pk, revoked_at__isnull=True).exists()


class LobbyConsumer:
    """A lobby screen, authorised by its display token: read-only, revocable.

    A plain ASGI WebSocket app, not a Channels consumer: the socket has no channel and joins
    no group. It registers with its tournament's room in this process (live/fanout.py), whose
    one listener receives each lobby event once and writes the same JSON text to every screen.
    Wire protocol as before: a snapshot on connect, {"kind": "event", "seq", ...} pushes,
    {"action": "snapshot"} and {"action": "ping", "id"} answered, close code 4003 when the
    token is unknown or revoked.
    """

    def __init__(self, scope, receive, send) -> None:
        self.scope = scope
        self.receive = receive
        self.send = send

    @classmethod
    def as_asgi(cls):
        async def app(scope, receive, send):
            await cls(scope, receive, send).run()

        app.consumer_class = cls
        return app

    async def run(self) -> None:
        message = await self.receive()
        if message["type"] != "websocket.connect":
            return
        token = self.scope["url_route"]["kwargs"]["token"]
        display = await database_sync_to_async(_valid_display)(token)
        if display is None:
            await self.send({"type": "websocket.close", "code": fanout.CLOSE_REVOKED})
            return
        self.tournament = display.tournament
        await self.send({"type": "websocket.accept"})
        socket = await self.enter_room(display.tournament_id, display.pk)
        if socket is None:
            return
        try:
            if await database_sync_to_async(_still_valid)(display):
                socket.start(*await socket.snapshot(self.load_snapshot))
            else:
                socket.close(fanout.CLOSE_REVOKED)
            while True:
                message = await self.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if message["type"] == "websocket.receive" and message.get("text"):
                    await self.receive_text(socket, message["text"])
        finally:
            await socket.finish()

    async def enter_room(self, tournament_id: int, display_id: int | None, entry: int | None = None) -> fanout.LobbySocket | None:
        """Join this process's room of the tournament (live/fanout.py); None, with the socket closed
        (CLOSE_UNAVAILABLE, the screen retries), when the channel layer is down."""
        try:
            return await fanout.join(tournament_id, display_id, self.send, entry)
        except Exception:
            log.warning("channel layer unavailable: closing a lobby WebSocket (%s)", CLOSE_UNAVAILABLE, exc_info=True)
            await self.send({"type": "websocket.close", "code": CLOSE_UNAVAILABLE})
            return None

    async def load_snapshot(self) -> dict:
        return await database_sync_to_async(lambda: lobby_answer(read_again(self.tournament)))()

    async def receive_text(self, socket: fanout.LobbySocket, text: str) -> None:
        try:
            content = json.loads(text)
        except ValueError:
            return
        if not isinstance(content, dict):
            return
        if content.get("action") == "snapshot":
            text, _seq = await socket.snapshot(self.load_snapshot)
            socket.send_text(text)
        elif content.get("action") == "ping":
            socket.send_text(json.dumps({"kind": "pong", "id": content.get("id"), "server_time": time.time()}))


def entry_of(scope) -> int | None:
    """?entry=N of a seat page's socket: its socket takes only the pushes for that entry (live/fanout.py)."""
    value = parse_qs(scope.get("query_string", b"").decode("latin-1")).get("entry", [""])[-1]
    return int(value) if value.isdigit() and len(value) < 10 else None


def _exists(tournament_id: int) -> bool:
    return Tournament.objects.filter(pk=tournament_id).exists()


class SeatConsumer(LobbyConsumer):
    """A player's seat page (public, no login): read-only, in the tournament's lobby room.

    The lobby pushes carry no personal data (figures, the clock, entry numbers whose seat changed,
    draw commitments), so the page needs no token; it refetches its own seat when its entry number
    is in a push's `entries`. The socket joins the room with no display token (display id None),
    so no revocation closes it; close code 4003 means the tournament does not exist.
    """

    async def run(self) -> None:
        message = await self.receive()
        if message["type"] != "websocket.connect":
            return
        tid = self.scope["url_route"]["kwargs"]["tournament_id"]
        # A room of this process is there for a tournament that is: the rush's phones skip the query.
        if not fanout.has_room(tid) and not await database_sync_to_async(_exists)(tid):
            await self.send({"type": "websocket.close", "code": fanout.CLOSE_REVOKED})
            return
        self.tournament = Tournament(pk=tid)  # the snapshot reads it (read_again)
        await self.send({"type": "websocket.accept"})
        socket = await self.enter_room(tid, None, entry_of(self.scope))
        if socket is None:
            return
        try:
            try:
                snapshot = await socket.snapshot(self.load_snapshot)
            except Tournament.DoesNotExist:  # deleted since its room was made
                socket.close(fanout.CLOSE_REVOKED)
                return
            socket.start(*snapshot)
            while True:
                message = await self.receive()
                if message["type"] == "websocket.disconnect":
                    return
                if message["type"] == "websocket.receive" and message.get("text"):
                    await self.receive_text(socket, message["text"])
        finally:
            await socket.finish()
