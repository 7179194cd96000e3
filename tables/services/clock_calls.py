"""Calling the clock on a player (club 11, TDA 25): from the dealer tablet or the floor map, for a seated player. He
has the house's time (at most 60 seconds; the last 10 counted down large on the tablet), then his hand is dead. The
call ends when he acts, when it was called in error, when the hand is declared dead, or when the table's next hand
begins (tables/services/hands.py). One open call per table; each start and end is an audit event, pushed to the table's
tablet and the floor."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, next_number, require
from tables.models import ClockCall, Table
from tables.selectors.state import clock_call_running as running
from tables.selectors.state import house_rules, live_seats
from tournament.services.audit import actor_user, lock_tournament, record_event


@transaction.atomic
def call_clock(table: Table, *, actor: Actor, seat: int) -> ClockCall:
    """The clock called on the player in this seat: his time starts now."""
    require(actor, roles.CLOCK_CALLS, table=table)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    held = live_seats(t).select_related("entry").filter(table=table, seat=seat).first()
    if held is None:
        raise ServiceError(
            _("Nobody sits at table %(table)s seat %(seat)s.") % {"table": table.number, "seat": seat}, code="empty_seat", status=409
        )
    open_call = ClockCall.objects.filter(table=table, ended_at__isnull=True).first()
    if open_call is not None:
        raise ServiceError(
            _("The clock is already called at table %(table)s (seat %(seat)s): end that call first.")
            % {"table": table.number, "seat": open_call.seat},
            code="already_called",
            status=409,
        )
    now = timezone.now()
    seconds = house_rules(t).clock_call_seconds
    call = ClockCall.objects.create(
        tournament=t,
        number=next_number(ClockCall.objects.filter(tournament=t)),
        table=table,
        seat=seat,
        entry=held.entry,
        seconds=seconds,
        started_at=now,
        ends_at=now + timedelta(seconds=seconds),
        started_by=actor_user(actor),
    )
    record_event(
        t,
        actor=actor,
        type_="clock_call.started",
        stats=False,
        seats=False,
        payload={
            "table": table.number,
            "seat": seat,
            "entry": held.entry.number,
            "call": call.number,
            "seconds": seconds,
            "ends_at": call.ends_at.isoformat(),
        },
    )
    return call


ENDINGS = (ClockCall.Outcome.ACTED, ClockCall.Outcome.DEAD, ClockCall.Outcome.CANCELLED)


@transaction.atomic
def end_clock_call(table: Table, *, actor: Actor, outcome: str) -> ClockCall:
    """The table's open call ends: he acted in time (refused once time is up: the hand is dead), the hand is declared
    dead (once time is up), or the call is cancelled (called in error, at any time)."""
    require(actor, roles.CLOCK_CALLS, table=table)
    if outcome not in ENDINGS:
        raise ServiceError(_("End a clock call as acted, dead or cancelled."), code="invalid")
    t = lock_tournament(table.tournament_id)
    call = ClockCall.objects.select_for_update().filter(table=table, ended_at__isnull=True).first()
    if call is None:
        raise ServiceError(_("No clock is called at table %(table)s.") % {"table": table.number}, code="no_call", status=409)
    now = timezone.now()
    if outcome == ClockCall.Outcome.ACTED and not running(call, now):
        raise ServiceError(_("Time is up: the hand is dead, he can no longer act."), code="time_up", status=409)
    if outcome == ClockCall.Outcome.DEAD and running(call, now):
        raise ServiceError(_("He still has time: the hand is dead only when time is up."), code="time_left", status=409)
    call.ended_at, call.outcome = now, outcome
    call.save(update_fields=["ended_at", "outcome"])
    record_event(
        t,
        actor=actor,
        type_="clock_call.ended",
        stats=False,
        seats=False,
        payload={"table": table.number, "seat": call.seat, "entry": call.entry.number, "call": call.number, "outcome": outcome},
    )
    return call


def end_at_new_hand(table: Table, now) -> int | None:
    """The table's next hand began: an open call ends with it (its number, for the hand's event), else None.
    The caller holds the table's lock (tables/services/hands.py)."""
    call = ClockCall.objects.filter(table=table, ended_at__isnull=True).first()
    if call is None:
        return None
    call.ended_at, call.outcome = now, ClockCall.Outcome.NEW_HAND
    call.save(update_fields=["ended_at", "outcome"])
    return call.number
