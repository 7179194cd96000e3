"""Publishing to Channels groups after commit. Services call this through record_event only."""
from __future__ import annotations

import asyncio
import logging
import threading

from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from . import groups

log = logging.getLogger(__name__)


def serialize_event(event) -> dict:
    return {
        "seq": event.seq,
        "type": event.type,
        "at": event.at.isoformat(),
        "actor": event.actor_label,
        "payload": event.payload,
    }


def _group_send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        async_to_sync(layer.group_send)(group, message)
        return
    # Called from a thread that runs an event loop (only a test driver does this): send from a helper thread.
    worker = threading.Thread(target=async_to_sync(layer.group_send), args=(group, message))
    worker.start()
    worker.join()


def send(group: str, data: dict) -> None:
    try:
        _group_send(group, {"type": "push", "data": data})
    except Exception:  # a lost message is repaired by the client's snapshot; never fail the request
        log.exception("broadcast to %s failed", group)


ROOM_WIDE = ("h4h.", "colorup.")  # events every dealer tablet must hear at once
TABLE_NOTES_MAX = 12  # one channel-layer send per table named: a draw naming hundreds of tables sends none


def publish_event(event, stats: dict | None) -> None:
    tid = event.tournament_id
    send(groups.floor(tid), {"kind": "event", "seq": event.seq, "event": serialize_event(event), "stats": stats})
    # The lobby sees no names or personal data: the sequence number, the type, the figures and the clock.
    lobby = {"kind": "event", "seq": event.seq, "type": event.type, "stats": stats}
    if "clock" in event.payload:
        lobby["clock"] = event.payload["clock"]
    if "entries" in event.payload:  # entry numbers whose seat changed: players' seat pages refetch
        lobby["entries"] = event.payload["entries"]
    if "h4h" in event.payload:  # hand-for-hand on or off, and the hand being played
        lobby["h4h"] = event.payload["h4h"]
    if "commitment" in event.payload:  # a draw committed or revealed: the room sees the hash (and then the seed)
        lobby["draw"] = {k: event.payload[k] for k in ("draw", "kind", "commitment", "seed") if k in event.payload}
    send(groups.lobby(tid), lobby)
    # Dealer tablets of the tables the event names: a short note; the tablet fetches its state.
    if event.type.startswith(ROOM_WIDE):  # every table at once: one send to the room's tablets
        send(groups.tables(tid), {"kind": "event", "seq": event.seq, "type": event.type})
        return
    named = set(event.payload.get("tables") or [])
    if isinstance(event.payload.get("table"), int):
        named.add(event.payload["table"])
    if len(named) > TABLE_NOTES_MAX:  # a start draw or a redraw: tablets pick it up on their next fetch
        return
    for number in sorted(named):
        send(groups.table(tid, number), {"kind": "event", "seq": event.seq, "type": event.type, "table": number})


def recheck_sockets(user_id: int, reason: str) -> None:
    """A user's credentials changed (roles, active, password, deleted, a tournament's staff): every socket
    opened with that login checks again whether it may stay, and closes (4003) when it may not
    (live/consumers.py). Through the channel layer, so sockets held by every server process hear it."""
    try:
        _group_send(groups.user(user_id), {"type": "recheck.socket", "reason": reason})
    except Exception:
        log.exception("recheck of user %s's sockets failed", user_id)


def close_sockets(group: str, reason: str) -> None:
    try:
        # The group rides along: one lobby listener per process serves many display groups (live/fanout.py).
        _group_send(group, {"type": "close.socket", "reason": reason, "group": group})
    except Exception:
        log.exception("close to %s failed", group)
