"""The audit log: every state change writes one event, then publishes it after commit."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import connection, transaction
from django.utils import timezone

from core import memory, reactions
from core.actor import Actor
from core.broadcast import publish_event, publish_room
from tournament.models import AuditEvent, Tournament
from tournament.selectors.stats import tournament_stats

# Every event recorded, after its row is written (core.reactions): an upper app that follows the audit log as a whole (the
# players' notifications, notify/) reacts to it, in the same transaction, with `tournament` and `event`.
EVENT_RECORDED = "audit.event_recorded"
log = logging.getLogger(__name__)


def each_tournament(tournament_ids, step: Callable[[int], int], what: str) -> int:
    """A sweep over tournaments (Celery beat, the embedded ticker): `step` for each, in its own transaction; one
    tournament's trouble is logged and does not stop the others' (the next sweep tries again). The sum of the steps."""
    done = 0
    for tournament_id in sorted(set(tournament_ids)):
        try:
            done += step(tournament_id)
        except Exception:
            log.exception("%s failed for tournament %s", what, tournament_id)
    return done


def lock_tournament(tournament_id: int) -> Tournament:
    """Lock the tournament row: serialises its state changes and its event sequence."""
    return Tournament.objects.select_for_update().get(pk=tournament_id)


def actor_user(actor):
    """The user row behind an actor; None for the system or a device (a shuffler: a string)."""
    return None if isinstance(actor, str) else actor


def actor_label(actor) -> str:
    if actor is None:
        return "system"
    if isinstance(actor, str):
        return str(actor)  # a plain str: a device actor (core.roles.DeviceActor) is a subclass carrying its table,
        # and the label goes into every push of the event, which the in-memory layer deep-copies (docs/architecture.md)
    return actor.get_username()


def next_sequence(tournament_id: int, seats: bool = True) -> int:
    """Take the tournament's next event sequence number in one statement (UPDATE ... RETURNING), so
    it never depends on how fresh a caller's Tournament instance is. The row lock it takes is the one
    every service holds already (lock_tournament); sequence numbers are gap-free and in commit order.
    `seats`: the event may change what the public seat answers show; the seats' version (seats_seq)
    becomes this number too."""
    table, column = Tournament._meta.db_table, Tournament._meta.get_field("event_seq").column
    seats_column = Tournament._meta.get_field("seats_seq").column
    with connection.cursor() as cursor:
        cursor.execute(
            f'UPDATE "{table}" SET "{column}" = "{column}" + 1, '
            f'"{seats_column}" = CASE WHEN %s THEN "{column}" + 1 ELSE "{seats_column}" END '
            f'WHERE "id" = %s RETURNING "{column}"',
            [bool(seats), tournament_id],
        )
        return cursor.fetchone()[0]


def record_event(
    tournament: Tournament | None, *, actor: Actor = None, type_: str, payload: dict, stats: bool = True, seats: bool | list[int] = True
) -> AuditEvent:
    """Write an audit event in the current transaction and publish it once that commits.

    `seats=False` only for an event that cannot change a public seat answer (a clock's, a hand's at a
    table with no balance move out): the phones' answers keep their version (web/caching.py). A list of
    entry numbers: only these entries' answers can change (a bust, a move), so each worker reads those
    entries again instead of the whole room; it must name every entry whose answer the event changes.

    For a tournament event, the caller must hold the tournament row lock (lock_tournament), so that
    events are published in the order of their sequence numbers.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("record_event must run inside transaction.atomic()")
    seq = None
    named = None if seats is True else sorted(set(seats or ()))  # None: any answer may change
    if tournament is not None:
        seq = next_sequence(tournament.pk, named is None or bool(named))
        tournament.event_seq = seq
        # This worker's memory of the versions (core/memory.py): forgotten now for the reads of this
        # transaction, and again once the change is visible to everyone.
        memory.forget_version(tournament.pk)
        pk = tournament.pk
        transaction.on_commit(lambda: memory.forget_version(pk))
    event = AuditEvent.objects.create(
        tournament=tournament,
        seq=seq,
        at=timezone.now(),
        actor=actor if actor is not None and not isinstance(actor, str) else None,
        actor_label=actor_label(actor),
        type=type_,
        payload=payload,
        seat_entries=named,
    )
    reactions.react(EVENT_RECORDED, tournament=tournament, event=event)
    if tournament is not None:
        figures = tournament_stats(tournament) if stats else None
        room = tournament.room_id or 0  # 0: the default venue (core/groups.room)
        transaction.on_commit(lambda: (publish_event(event, figures), publish_room(room, event)))
    elif isinstance(payload.get("venue"), int):  # the venue's own change (venues/services)
        venue = payload["venue"]
        transaction.on_commit(lambda: publish_room(venue, event))
    return event
