"""Clock use cases: start, pause, resume, add or remove time, next/previous level, jump to a
level, the announcement line, and the announcements that fall due (level changes, one-minute
warnings, breaks). Each runs in one transaction, locks the tournament row, writes an audit
event and publishes after commit. The clock row fully determines the countdown, so a restart
of any process loses no time.
"""
from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, require
from tournament.audit import lock_tournament, record_event
from tournament.models import Tournament

from . import timeline as tl
from .models import ClockState
from .selectors import anchor_of, as_datetime, as_timestamp, clock_snapshot, due_tournaments, rows_of

STALE_WARNING_SECONDS = 30  # a one-minute warning found later than this is not announced


def _lock_clock(tournament_id: int) -> tuple[Tournament, ClockState, list[tl.Row]]:
    tournament = lock_tournament(tournament_id)
    clock, _created = ClockState.objects.get_or_create(tournament=tournament)
    clock = ClockState.objects.select_for_update().get(pk=clock.pk)
    rows = rows_of(tournament)
    if not rows:
        raise ServiceError(_("The structure has no levels."), code="no_levels")
    return tournament, clock, rows


def _level_number(rows: list[tl.Row], index: int) -> int:
    return rows[tl.level_in_force(rows, index)].number


def _announce_due(tournament: Tournament, clock: ClockState, rows: list[tl.Row], now: datetime) -> int:
    """Announce the boundaries crossed since the last announcement, up to now. Returns how many."""
    anchor = anchor_of(clock)
    if anchor is None or anchor.paused:
        return 0
    after = as_timestamp(clock.announced_until) or anchor.started_at
    made = 0
    for boundary in tl.boundaries(rows, anchor, after, now.timestamp()):
        if boundary.kind == "one_minute" and now.timestamp() - boundary.at > STALE_WARNING_SECONDS:
            continue
        _record_boundary(tournament, clock, rows, boundary, now)
        made += 1
    if clock.announced_until is None or clock.announced_until < now:  # never move back (a tick with an older `now`)
        clock.announced_until = now
    return made


def _record_boundary(tournament: Tournament, clock: ClockState, rows: list[tl.Row], boundary: tl.Boundary, now: datetime) -> None:
    row = rows[boundary.index]
    record_event(tournament, actor="clock", type_=f"clock.{boundary.kind}", payload={
        "index": boundary.index, "level": row.number, "kind": row.kind, "at": boundary.at,
        "late_by": round(now.timestamp() - boundary.at, 3),
        "clock": clock_snapshot(tournament, clock, rows, now, with_rows=False),
    }, seats=False)


def _save(tournament: Tournament, clock: ClockState, rows: list[tl.Row], anchor: tl.Anchor | None, now: datetime) -> None:
    if anchor is not None:
        anchor = tl.normalise(rows, anchor, now.timestamp()) if not anchor.paused else anchor
        clock.index, clock.started_at, clock.paused_at = anchor.index, as_datetime(anchor.started_at), as_datetime(anchor.paused_at)
        clock.status = ClockState.Status.PAUSED if anchor.paused else ClockState.Status.RUNNING
        clock.next_due_at = as_datetime(tl.next_due(rows, anchor, now.timestamp()))
        level = _level_number(rows, tl.position_at(rows, anchor, now.timestamp()).index)
        if tournament.current_level != level:
            tournament.current_level = level
            Tournament.objects.filter(pk=tournament.pk).update(current_level=level)
    if clock.announced_until is None or clock.announced_until < now:
        clock.announced_until = now
    clock.version += 1
    clock.save()


def _act(tournament: Tournament, *, actor: Actor, type_: str, change, extra: dict | None = None,
         announce_row_end: bool = False, allowed: tuple[str, ...] | None = roles.SETUP) -> ClockState:
    if allowed is not None:
        require(actor, allowed)
    t, clock, rows = _lock_clock(tournament.pk)
    now = timezone.now()
    _announce_due(t, clock, rows, now)
    before = anchor_of(clock)
    anchor = change(rows, before, now.timestamp())
    _save(t, clock, rows, anchor, now)
    record_event(t, actor=actor, type_=type_, payload={**(extra or {}), "clock": clock_snapshot(t, clock, rows, now, with_rows=False)},
                 seats=False)
    if announce_row_end and before is not None and anchor is not None:
        # Time removed up to the end of the row: the next row starts now and is announced
        # like any row whose time ran out (the tick will not, as it is not "due" later).
        old = tl.position_at(rows, before, now.timestamp()).index
        new = tl.position_at(rows, anchor, now.timestamp()).index
        if new == old + 1:
            _record_boundary(t, clock, rows, tl.Boundary(tl.boundary_kind(rows, new), new, now.timestamp()), now)
    if clock.status == ClockState.Status.RUNNING:
        Tournament.objects.filter(pk=t.pk, status=Tournament.Status.SETUP).update(status=Tournament.Status.RUNNING)
    return clock


@transaction.atomic
def start_clock(tournament: Tournament, *, actor: Actor) -> ClockState:
    """Start the clock at the first level; or, if the director set a level before the start
    (jump_to_level leaves it paused there), start it from there."""

    def change(rows, anchor, now):
        if anchor is None:
            return tl.start(rows, now, 0)
        if anchor.paused and not _has_run(tournament):
            return tl.resume(rows, anchor, now)
        raise ServiceError(_("The clock has already started."), code="clock_started", status=409)

    return _act(tournament, actor=actor, type_="clock.started", change=change)


def _has_run(tournament: Tournament) -> bool:
    return Tournament.objects.filter(pk=tournament.pk).exclude(status=Tournament.Status.SETUP).exists()


def _started(anchor):
    if anchor is None:
        raise ServiceError(_("Start the clock first."), code="clock_not_started", status=409)
    return anchor


@transaction.atomic
def pause_clock(tournament: Tournament, *, actor: Actor) -> ClockState:
    def change(rows, anchor, now):
        if _started(anchor).paused:
            raise ServiceError(_("The clock is already paused."), code="clock_paused", status=409)
        return tl.pause(rows, anchor, now)

    return _act(tournament, actor=actor, type_="clock.paused", change=change)


@transaction.atomic
def resume_clock(tournament: Tournament, *, actor: Actor) -> ClockState:
    def change(rows, anchor, now):
        if not _started(anchor).paused:
            raise ServiceError(_("The clock is already running."), code="clock_running", status=409)
        return tl.resume(rows, anchor, now)

    return _act(tournament, actor=actor, type_="clock.resumed", change=change)


MAX_ADJUST_SECONDS = 6 * 3600


@transaction.atomic
def adjust_clock(tournament: Tournament, *, actor: Actor, seconds: int) -> ClockState:
    """Add (positive) or remove (negative) time from the current level or break."""
    if not isinstance(seconds, int) or seconds == 0 or abs(seconds) > MAX_ADJUST_SECONDS:
        raise ServiceError(_("Give a number of seconds to add or remove (not zero, at most six hours)."), code="adjust_range")
    return _act(tournament, actor=actor, type_="clock.adjusted",
                change=lambda rows, anchor, now: tl.adjust(rows, _started(anchor), now, seconds),
                extra={"seconds": seconds}, announce_row_end=True)


def take_time(tournament: Tournament, *, actor: Actor, seconds: int, extra: dict) -> ClockState:
    """Time the software takes off the current level on the house's account (a hand-for-hand
    hand, TDA24 RP-8): the caller has checked who may do what and holds the tournament lock."""
    return _act(tournament, actor=actor, type_="clock.adjusted",
                change=lambda rows, anchor, now: tl.adjust(rows, _started(anchor), now, -seconds),
                extra={"seconds": -seconds, **extra}, announce_row_end=True, allowed=None)


@transaction.atomic
def step_level(tournament: Tournament, *, actor: Actor, step: int) -> ClockState:
    """Next (+1) or previous (-1) row: level or break, with its full time."""

    def change(rows, anchor, now):
        current = tl.position_at(rows, _started(anchor), now).index
        target = current + step
        if not 0 <= target < len(rows):
            raise ServiceError(_("There is no level before the first or after the last."), code="level_range", status=409)
        return tl.jump(rows, anchor, now, target)

    return _act(tournament, actor=actor, type_="clock.next" if step > 0 else "clock.previous", change=change)


@transaction.atomic
def jump_to_level(tournament: Tournament, *, actor: Actor, level: int) -> ClockState:
    """Go to level N (its full time). Before the clock starts, it starts paused there."""

    def change(rows, anchor, now):
        index = next((i for i, row in enumerate(rows) if row.number == level), None)
        if index is None:
            count = sum(1 for row in rows if row.kind == tl.LEVEL)
            raise ServiceError(_("Level %(level)s does not exist; the structure has levels 1 to %(count)s.")
                               % {"level": level, "count": count}, code="level_range")
        if anchor is None:
            return tl.Anchor(index, now, now)
        return tl.jump(rows, anchor, now, index)

    return _act(tournament, actor=actor, type_="clock.jumped", change=change, extra={"level": level})


@transaction.atomic
def set_announcement(tournament: Tournament, *, actor: Actor, text: str) -> ClockState:
    text = (text or "").strip()
    if len(text) > 200:
        raise ServiceError(_("Keep the announcement under 200 characters."), code="too_long")
    require(actor, roles.SETUP)
    t, clock, rows = _lock_clock(tournament.pk)
    clock.announcement = text
    clock.version += 1
    clock.save(update_fields=["announcement", "version"])
    record_event(t, actor=actor, type_="clock.announcement",
                 payload={"text": text, "clock": clock_snapshot(t, clock, rows, with_rows=False)},
                 seats=False)
    return clock


def process_due(tournament_id: int, now: datetime | None = None) -> int:
    """Make the announcements that are due. Idempotent: late, twice, or after a pause it does
    the right thing or nothing. Returns the number of announcements made."""
    with transaction.atomic():
        # Lock order as in every service: the tournament row, then the clock. It waits for a
        # service that holds the row (they are short): skipping it would let a busy room (hands
        # starting at a thousand tables) starve the announcement. A second tick that waited
        # finds nothing due any more and does nothing.
        t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
        if t is None:
            return 0
        clock = ClockState.objects.select_for_update().filter(tournament=t).first()
        now = now or timezone.now()
        if clock is None or clock.status != ClockState.Status.RUNNING or clock.next_due_at is None or clock.next_due_at > now:
            return 0
        rows = rows_of(t)
        made = _announce_due(t, clock, rows, now)
        _save(t, clock, rows, anchor_of(clock), now)
        return made


def tick(now: datetime | None = None) -> int:
    """Claim and process every clock that has something due. Called every second."""
    return sum(process_due(tid, now) for tid in due_tournaments(now))


