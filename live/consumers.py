"""WebSocket consumers: they check the role, join groups, send snapshots and relay pushes.

They never change state. A client that sees a gap in sequence numbers sends
{"action": "snapshot"} and gets a fresh snapshot.
"""
from __future__ import annotations

from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from tournament import roles
from tournament.models import DisplayToken, Tournament

from . import groups
from .snapshots import floor_snapshot, lobby_snapshot


class PushConsumer(AsyncJsonWebsocketConsumer):
    joined: list[str]

    async def join(self, *names: str) -> None:
        self.joined = list(names)
        for name in names:
            await self.channel_layer.group_add(name, self.channel_name)

    async def disconnect(self, code):
        for name in getattr(self, "joined", []):
            await self.channel_layer.group_discard(name, self.channel_name)

    async def push(self, message):
        await self.send_json(message["data"])

    async def close_socket(self, message):
        await self.close(code=4003)

    async def receive_json(self, content, **kwargs):
        if content.get("action") == "snapshot":
            await self.send_json(await self.snapshot())
        elif content.get("action") == "ping":
            await self.send_json({"kind": "pong", "id": content.get("id")})



class FloorConsumer(PushConsumer):
    """Staff screens of one tournament: director, floor, cashier."""

    async def connect(self):
        user = self.scope.get("user")
        tid = self.scope["url_route"]["kwargs"]["tournament_id"]
        self.tournament = await database_sync_to_async(Tournament.objects.filter(pk=tid).first)()
        allowed = await database_sync_to_async(roles.has_role)(user, roles.FLOOR_VIEW) if user else False
        if self.tournament is None or not allowed:
            await self.close(code=4003)
            return
        await self.accept()
        await self.join(groups.floor(tid), groups.user(user.pk))
        await self.send_json(await self.snapshot())

    async def snapshot(self) -> dict:
        return await database_sync_to_async(floor_snapshot)(self.tournament)


class LobbyConsumer(PushConsumer):
    """A lobby screen, authorised by its display token: read-only, revocable."""

    async def connect(self):
        token = self.scope["url_route"]["kwargs"]["token"]
        display = await database_sync_to_async(
            DisplayToken.objects.select_related("tournament").filter(token=token, revoked_at__isnull=True).first
        )()
        if display is None:
            await self.close(code=4003)
            return
        self.tournament = display.tournament
        await self.accept()
        await self.join(groups.lobby(display.tournament_id), groups.display(display.pk))
        await self.send_json(await self.snapshot())

    async def snapshot(self) -> dict:
        return await database_sync_to_async(lobby_snapshot)(self.tournament)
