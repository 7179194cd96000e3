"""Publishing to Channels groups after commit. Services call this through record_event only."""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import time

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


_loop: asyncio.AbstractEventLoop | None = None
_loop_pid = 0
_loop_lock = threading.Lock()
SEND_TIMEOUT = 10  # seconds: a channel layer that does not answer fails the send (logged), never the request


def _sender_loop() -> asyncio.AbstractEventLoop:
    """One event loop per process, in a thread of its own, that sends every push in the order given.
    async_to_sync made a thread and an event loop for each send (about 2 ms each, three or four sends per
    event), and the Redis layer a connection for each new loop; this loop keeps both. A forked process (a
    Celery worker) starts its own."""
    global _loop, _loop_pid
    with _loop_lock:
        if _loop is None or _loop_pid != os.getpid() or _loop.is_closed():
            _loop, _loop_pid = asyncio.new_event_loop(), os.getpid()
            threading.Thread(target=_loop.run_forever, name="broadcast", daemon=True).start()
        return _loop


def _group_send(group: str, message: dict) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _sender_loop()).result(SEND_TIMEOUT)


def send(group: str, data: dict) -> None:
    try:
        _group_send(group, {"type": "push", "data": data})
    except Exception:  # a lost message is repaired by the client's snapshot; never fail the request
        log.exception("broadcast to %s failed", group)


ROOM_WIDE = ("h4h.", "colorup.", "clock.day_end", "clock.restart", "day.")  # events every dealer tablet must hear at once
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


def publish_room(venue_key: int, event) -> None:
    """A note to the room's screens (core/groups.room): the event's type and tournament, no names; they read the room
    again (debounced)."""
    # Its sequence: the time it was sent (the room's events come from many tournaments, each counting its own); a note
    # behind the last one heard is dropped by the page (static/js/live.js, thin), which reads the room every minute too.
    send(groups.room(venue_key), {"kind": "event", "seq": time.time_ns(), "type": event.type, "tournament": event.tournament_id})


def recheck_sockets(user_id: int, reason: str) -> None:
    """A user's credentials changed (roles, active, password, deleted, a tournament's staff): every socket
    opened with that login checks again whether it may stay, and closes (4003) when it may not
    (live/consumers.py). Through the channel layer, so sockets held by every server process hear it."""
    try:
        _group_send(groups.user(user_id), {"type": "recheck.socket", "reason": reason})
    except Exception:
        log.exception("recheck of user %s's sockets failed", user_id)


def reconnect_sockets(group: str, reason: str) -> None:
    """The sockets of the group close with a code the pages reconnect on (live/consumers.py, CLOSE_RECONNECT): a dealer
    link that follows its physical table into another tournament joins that tournament's groups on its next connect."""
    try:
        _group_send(group, {"type": "reconnect.socket", "reason": reason})
    except Exception:
        log.exception("reconnect of %s failed", group)


def close_sockets(group: str, reason: str) -> None:
    try:
        # The group rides along: one lobby listener per process serves many display groups (live/fanout.py).
        _group_send(group, {"type": "close.socket", "reason": reason, "group": group})
    except Exception:
        log.exception("close to %s failed", group)
