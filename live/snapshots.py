"""Snapshots: what a screen needs to draw itself from nothing, with the sequence number it is at."""
from __future__ import annotations

from clock.selectors import clock_snapshot
from core.broadcast import serialize_event
from tables import selectors
from tables.read_models import tables_overview
from tables.selectors import pending_commitment
from tournament.models import AuditEvent, Tournament
from tournament.stats import tournament_stats


def floor_snapshot(tournament: Tournament, events: int = 50) -> dict:
    tournament.refresh_from_db()
    recent = list(AuditEvent.objects.filter(tournament=tournament).select_related("actor").order_by("-seq")[:events])
    return {
        "kind": "snapshot",
        "seq": tournament.event_seq,
        "tournament": {"id": tournament.id, "name": tournament.name},
        "stats": tournament_stats(tournament),
        "clock": clock_snapshot(tournament),
        "tables": tables_overview(tournament),
        "next_draw": pending_commitment(tournament),
        "events": [serialize_event(e) for e in reversed(recent)],
    }


def lobby_snapshot(tournament: Tournament) -> dict:
    tournament.refresh_from_db()
    return {
        "kind": "snapshot",
        "seq": tournament.event_seq,
        "tournament": {"id": tournament.id, "name": tournament.name, "venue": tournament.venue,
                       "currency": tournament.currency},
        "stats": tournament_stats(tournament),
        "clock": clock_snapshot(tournament),
        "next_draw": pending_commitment(tournament),
        "h4h": selectors.lobby_state(selectors.hand_for_hand(tournament)),
    }
