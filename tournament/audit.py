"""The audit log: every state change writes one event, then publishes it after commit."""
from __future__ import annotations

from django.db import transaction
from django.utils import timezone

from .models import AuditEvent, Tournament


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
        return actor
    return actor.get_username()


def record_event(tournament: Tournament | None, type_: str, payload: dict, actor=None, *, stats: bool = True) -> AuditEvent:
    """Write an audit event in the current transaction and publish it once that commits.

    For a tournament event, the caller must hold the tournament row lock (lock_tournament),
    so that sequence numbers are gap-free and in commit order.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("record_event must run inside transaction.atomic()")
    seq = None
    if tournament is not None:
        seq = tournament.event_seq + 1
        Tournament.objects.filter(pk=tournament.pk).update(event_seq=seq)
        tournament.event_seq = seq
    event = AuditEvent.objects.create(
        tournament=tournament,
        seq=seq,
        at=timezone.now(),
        actor=actor if actor is not None and not isinstance(actor, str) else None,
        actor_label=actor_label(actor),
        type=type_,
        payload=payload,
    )
    if tournament is not None:
        from live.broadcast import publish_event  # late import: live depends on tournament

        figures = None
        if stats:
            from .stats import tournament_stats

            figures = tournament_stats(tournament)
        transaction.on_commit(lambda: publish_event(event, figures))
    return event
