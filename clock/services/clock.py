"""Clock use cases: start, pause, resume, add or remove time, next/previous level, jump to a
level, the announcement line, the end of a day (after a set level) and the next day's start (at a
set time, level and time left), and what falls due (level changes, one-minute warnings, breaks,
the day's end, the scheduled restart). Each runs in one transaction, locks the tournament row, writes an audit
event and publishes after commit. The clock row fully determines the countdown, so a restart
of any process loses no time.
"""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clock.models import ClockState
from clock.rules import timeline as tl
from clock.selectors.clock import anchor_of, as_datetime, as_timestamp, clock_snapshot, due_tournaments, rows_of, venue_time
from core import roles
from core.actor import Actor
from core.errors import ServiceError, require
from tournament.models import Tournament
from tournament.services.audit import lock_tournament, record_event

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


def _level_index(rows: list[tl.Row], level: int | None) -> int | None:
    return next((i for i, row in enumerate(rows) if row.number == level), None) if level is not None else None


def _announce_due(tournament: Tournament, clock: ClockState, rows: list[tl.Row], now: datetime) -> int:
    """Announce the boundaries crossed since the last announcement, up to now (none past a day's end).
    Returns how many."""
    anchor = anchor_of(clock)
    if anchor is None or anchor.paused:
        return 0
    after = as_timestamp(clock.announced_until) or anchor.started_at
    made = 0
    for boundary in tl.boundaries(rows, anchor, after, now.timestamp(), _level_index(rows, clock.stop_after_level)):
        if boundary.kind == "one_minute" and now.timestamp() - boundary.at > STALE_WARNING_SECONDS:
            continue
        _record_boundary(tournament, clock, rows, boundary, now)
        made += 1
    if clock.announced_until is None or clock.announced_until < now:  # never move back (a tick with an older `now`)
        clock.announced_until = now
    return made


def _record_boundary(tournament: Tournament, clock: ClockState, rows: list[tl.Row], boundary: tl.Boundary, now: datetime) -> None:
    row = rows[boundary.index]
    record_event(
        tournament,
        actor="clock",
        type_=f"clock.{boundary.kind}",
        payload={
            "index": boundary.index,
            "level": row.number,
            "kind": row.kind,
            "at": boundary.at,
            "late_by": round(now.timestamp() - boundary.at, 3),
            "clock": clock_snapshot(tournament, clock, rows, now, with_rows=False),
        },
        seats=False,
    )


def _place(clock: ClockState, anchor: tl.Anchor) -> None:
    clock.index, clock.started_at, clock.paused_at = anchor.index, as_datetime(anchor.started_at), as_datetime(anchor.paused_at)
    clock.status = ClockState.Status.PAUSED if anchor.paused else ClockState.Status.RUNNING


def _save(tournament: Tournament, clock: ClockState, rows: list[tl.Row], anchor: tl.Anchor | None, now: datetime) -> None:
    if anchor is not None:
        anchor = tl.normalise(rows, anchor, now.timestamp()) if not anchor.paused else anchor
        _place(clock, anchor)
        index = tl.position_at(rows, anchor, now.timestamp()).index
        stop = _level_index(rows, clock.stop_after_level)
        if stop is not None and stop < index:  # the director moved the clock past it (next, jump): no day end there
            clock.stop_after_level, stop = None, None
        if not anchor.paused:  # play goes on: the day's end is over, and a restart scheduled is moot
            clock.day_ended_level, clock.resume_at = None, None
        due = clock.resume_at if anchor.paused and clock.resume_at is not None else None
        clock.next_due_at = due or as_datetime(tl.next_due(rows, anchor, now.timestamp(), stop))
        level = _level_number(rows, index)
        if tournament.current_level != level:
            tournament.current_level = level
            Tournament.objects.filter(pk=tournament.pk).update(current_level=level)
    if clock.announced_until is None or clock.announced_until < now:
        clock.announced_until = now
    clock.version += 1
    clock.save()


def _catch_up(tournament: Tournament, clock: ClockState, rows: list[tl.Row], now: datetime) -> int:
    """What fell due up to now: the announcements, then the day's end once its last level ran out (the
    clock stops at that level's end, however late this runs). Returns how many were made."""
    made = _announce_due(tournament, clock, rows, now)
    stop, anchor = _level_index(rows, clock.stop_after_level), anchor_of(clock)
    stopped = None if stop is None or anchor is None else tl.day_end(rows, anchor, now.timestamp(), stop)
    if stopped is not None:
        _mark_day_end(clock, rows, stopped)
        _save(tournament, clock, rows, stopped, now)
        _record_day_end(tournament, clock, rows, stopped, now)
        made += 1
    return made


def _mark_day_end(clock: ClockState, rows: list[tl.Row], stopped: tl.Anchor) -> None:
    clock.stop_after_level, clock.day_ended_level = None, rows[stopped.index].number


def _record_day_end(tournament: Tournament, clock: ClockState, rows: list[tl.Row], stopped: tl.Anchor, now: datetime) -> None:
    record_event(
        tournament,
        actor="clock",
        type_="clock.day_ended",
        payload={
            "level": rows[stopped.index].number,
            "at": stopped.paused_at,
            "late_by": round(now.timestamp() - stopped.paused_at, 3),
            "clock": clock_snapshot(tournament, clock, rows, now, with_rows=False),
        },
        seats=False,
    )


def _act(
    tournament: Tournament,
    *,
    actor: Actor,
    type_: str,
    change,
    extra: dict | None = None,
    announce_row_end: bool = False,
    allowed: tuple[str, ...] | None = roles.SETUP,
    prepare=None,
) -> ClockState:
    """One director's action on the clock. `change(rows, anchor, now)` gives the new anchor; `prepare(clock,
    rows, anchor, now)`, if given, checks and sets the clock's other fields first and returns payload to add."""
    if allowed is not None:
        require(actor, allowed)
    t, clock, rows = _lock_clock(tournament.pk)
    now = timezone.now()
    _catch_up(t, clock, rows, now)
    before = anchor_of(clock)
    extra = {**(extra or {}), **(prepare(clock, rows, before, now.timestamp()) if prepare else {})}
    anchor = change(rows, before, now.timestamp())
    stop, ends_day = _level_index(rows, clock.stop_after_level), False
    if announce_row_end and stop is not None and before is not None and anchor is not None:
        # Time removed up to the end of the day's last level: the day ends now, the next row does not start.
        if tl.position_at(rows, before, now.timestamp()).index <= stop < tl.position_at(rows, anchor, now.timestamp()).index:
            anchor, ends_day = tl.stop_at(rows, stop, now.timestamp()), True
            _mark_day_end(clock, rows, anchor)
    _save(t, clock, rows, anchor, now)
    record_event(t, actor=actor, type_=type_, payload={**extra, "clock": clock_snapshot(t, clock, rows, now, with_rows=False)}, seats=False)
    if ends_day:
        _record_day_end(t, clock, rows, anchor, now)
    elif announce_row_end and before is not None and anchor is not None:
        # Time removed up to the end of the row (or a clock stopped there for the day resumed): the next row
        # starts now and is announced like any row whose time ran out (the tick will not, as it is not "due" later).
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

    return _act(tournament, actor=actor, type_="clock.started", change=change, announce_row_end=True)


def start_clock_at_the_draw(tournament: Tournament, *, actor: Actor) -> ClockState:
    """A sit & go's clock, started by the registration that filled it, right after its start draw (no director's press:
    the director set the sit & go up)."""
    return _act(
        tournament,
        actor=actor,
        type_="clock.started",
        change=lambda rows, anchor, now: tl.start(rows, now, 0),
        announce_row_end=True,
        allowed=None,
    )


def _has_run(tournament: Tournament) -> bool:
    return Tournament.objects.filter(pk=tournament.pk).exclude(status=Tournament.Status.SETUP).exists()


def _started(anchor):
    if anchor is None:
        raise ServiceError(_("Start the clock first."), code="clock_not_started", status=409)
    return anchor


@transaction.atomic
def pause_clock(tournament: Tournament, *, actor: Actor) -> ClockState:
    """Pause the clock. A paused clock with a restart scheduled stays paused, and the restart is called off."""
    cancelled = []

    def prepare(clock, rows, anchor, now):
        if anchor is not None and anchor.paused and clock.resume_at is not None:
            cancelled.append(clock.resume_at)
            clock.resume_at = None
            return {"restart_cancelled": True}
        return {}

    def change(rows, anchor, now):
        if _started(anchor).paused:
            if cancelled:
                return anchor
            raise ServiceError(_("The clock is already paused."), code="clock_paused", status=409)
        return tl.pause(rows, anchor, now)

    return _act(tournament, actor=actor, type_="clock.paused", change=change, prepare=prepare)


def stop_at_play_over(tournament: Tournament, *, actor: Actor) -> bool:
    """Play is over (its winner known, a satellite at its seats): a running clock stops where it stands. It follows
    the floor's change that ended play (a reaction, in its transaction), so no role is asked of whoever entered it.
    Returns whether it ran; a clock that did not stays as it is. Play going on again does not start it: the director
    does."""
    if ClockState.objects.filter(tournament_id=tournament.pk, status=ClockState.Status.RUNNING).first() is None:
        return False
    _act(
        tournament,
        actor=actor,
        type_="clock.paused",
        change=lambda rows, anchor, now: tl.pause(rows, anchor, now),
        extra={"play_over": True},
        allowed=None,
    )
    return True


@transaction.atomic
def resume_clock(tournament: Tournament, *, actor: Actor) -> ClockState:
    """Resume where the clock stands (a restart scheduled is then moot). A clock stopped at the end of a level
    for the day goes on to the next row, which starts now with its full time and is announced."""

    def change(rows, anchor, now):
        if not _started(anchor).paused:
            raise ServiceError(_("The clock is already running."), code="clock_running", status=409)
        return tl.resume(rows, anchor, now)

    return _act(tournament, actor=actor, type_="clock.resumed", change=change, announce_row_end=True)


MAX_ADJUST_SECONDS = 6 * 3600


@transaction.atomic
def adjust_clock(tournament: Tournament, *, actor: Actor, seconds: int) -> ClockState:
    """Add (positive) or remove (negative) time from the current level or break."""
    if not isinstance(seconds, int) or seconds == 0 or abs(seconds) > MAX_ADJUST_SECONDS:
        raise ServiceError(_("Give a number of seconds to add or remove (not zero, at most six hours)."), code="adjust_range")
    return _act(
        tournament,
        actor=actor,
        type_="clock.adjusted",
        change=lambda rows, anchor, now: tl.adjust(rows, _started(anchor), now, seconds),
        extra={"seconds": seconds},
        announce_row_end=True,
    )


def take_time(tournament: Tournament, *, actor: Actor, seconds: int, extra: dict) -> ClockState:
    """Time the software takes off the current level on the house's account (a hand-for-hand
    hand, TDA24 RP-8): the caller has checked who may do what and holds the tournament lock."""
    return _act(
        tournament,
        actor=actor,
        type_="clock.adjusted",
        change=lambda rows, anchor, now: tl.adjust(rows, _started(anchor), now, -seconds),
        extra={"seconds": -seconds, **extra},
        announce_row_end=True,
        allowed=None,
    )


@transaction.atomic
def end_level_now(tournament: Tournament, *, actor: Actor) -> ClockState:
    """End the level (or break) in play now: the time it had left is removed, the next row starts at once with its
    full time and is announced as a level whose time ran out is (a day that ends after this level ends now). One press
    of the director's, not fifteen of "-1 min"; the event says how much time was taken."""

    def prepare(clock, rows, anchor, now):
        position = tl.position_at(rows, _started(anchor), now)
        if position.index == len(rows) - 1:
            raise ServiceError(_("This is the last level of the structure: nothing follows it."), code="level_range", status=409)
        if tl.at_row_end(rows, anchor):
            raise ServiceError(_("This level is already over: the clock stopped at its end for the day."), code="level_over", status=409)
        return {"row": position.index, "level": rows[position.index].number, "removed": round(position.remaining)}

    def change(rows, anchor, now):
        left = tl.position_at(rows, anchor, now).remaining
        return tl.adjust(rows, _started(anchor), now, -(left + 1))  # all that is left and more: the row ends now

    return _act(tournament, actor=actor, type_="clock.level_ended", change=change, prepare=prepare, announce_row_end=True)


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
        index = _level_row(rows, level)
        if anchor is None:
            return tl.Anchor(index, now, now)
        return tl.jump(rows, anchor, now, index)

    return _act(tournament, actor=actor, type_="clock.jumped", change=change, extra={"level": level})


def _level_row(rows: list[tl.Row], level: int) -> int:
    index = _level_index(rows, level)
    if index is None:
        count = sum(1 for row in rows if row.kind == tl.LEVEL)
        raise ServiceError(
            _("Level %(level)s does not exist; the structure has levels 1 to %(count)s.") % {"level": level, "count": count},
            code="level_range",
        )
    return index


@transaction.atomic
def set_day_end(tournament: Tournament, *, actor: Actor, level: int | None) -> ClockState:
    """End the day after level N (None: no day end): the clock stops by itself at that level's end, with
    nothing left in it; the tables finish the hand in play at that level, and no new level is announced."""
    return _day_end(tournament, actor=actor, level=level, rule=None)


@transaction.atomic
def set_day_end_by_rule(tournament: Tournament, *, actor: Actor, level: int, rule: str) -> ClockState:
    """The day end set by a standing rule the director laid down (a flight's end at a share of its field left:
    flights.reactions), as part of an action already allowed (the bust that reached the share): no role of its own.
    `actor` is whoever made that action; the event names the rule."""
    return _day_end(tournament, actor=actor, level=level, rule=rule)


def _day_end(tournament: Tournament, *, actor: Actor, level: int | None, rule: str | None) -> ClockState:
    def prepare(clock, rows, anchor, now):
        if level is not None:
            index = _level_row(rows, level)
            if anchor is not None:
                pos = tl.position_at(rows, anchor, now)
                if pos.finished:
                    raise ServiceError(
                        _("The clock has finished: there is no level left to end the day after."), code="clock_finished", status=409
                    )
                if index < pos.index or (index == pos.index and tl.at_row_end(rows, anchor)):
                    raise ServiceError(
                        _("Level %(level)s is already over; the level in play is %(current)s.")
                        % {"level": level, "current": _level_number(rows, pos.index)},
                        code="level_over",
                        status=409,
                    )
        clock.stop_after_level = level
        return {"level": level, **({"rule": rule} if rule else {})}

    return _act(
        tournament,
        actor=actor,
        type_="clock.day_end_set",
        change=lambda rows, anchor, now: anchor,
        prepare=prepare,
        allowed=None if rule else roles.SETUP,
    )


@transaction.atomic
def schedule_restart(tournament: Tournament, *, actor: Actor, start_at: datetime, level: int, seconds_left: int) -> ClockState:
    """The next day starts at `start_at` at level `level` (a level number as the screens show it) with
    `seconds_left` in it: the clock is set paused there now and the ticker resumes it at `start_at` (a manual
    resume or pause before then calls it off)."""
    if start_at is None or timezone.is_naive(start_at):
        raise ServiceError(_("Give the start time with its time zone."), code="start_at_zone")
    if start_at <= timezone.now():
        raise ServiceError(_("The next day must start in the future."), code="start_at_past")
    if not isinstance(seconds_left, int) or isinstance(seconds_left, bool) or seconds_left < 1:
        raise ServiceError(_("Give the time left in the level: at least one second."), code="seconds_left")

    def prepare(clock, rows, anchor, now):
        index = _level_row(rows, level)
        if seconds_left > rows[index].seconds:
            raise ServiceError(
                _("Level %(level)s lasts %(minutes)s minutes: give at most that much time left.")
                % {"level": level, "minutes": rows[index].seconds // 60},
                code="seconds_left",
            )
        clock.resume_at = start_at
        return {"level": level, "seconds_left": seconds_left, "start_at": venue_time(tournament, start_at)}

    def change(rows, anchor, now):
        return tl.restart(rows, _level_row(rows, level), seconds_left, start_at.timestamp())

    return _act(tournament, actor=actor, type_="clock.restart_scheduled", change=change, prepare=prepare)


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
    record_event(
        t,
        actor=actor,
        type_="clock.announcement",
        payload={"text": text, "clock": clock_snapshot(t, clock, rows, with_rows=False)},
        seats=False,
    )
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
        if clock is None or clock.next_due_at is None or clock.next_due_at > now:
            return 0
        rows = rows_of(t)
        if not rows:
            return 0
        if clock.status == ClockState.Status.PAUSED:
            return _resume_by_schedule(t, clock, rows, now) if clock.resume_at is not None and clock.resume_at <= now else 0
        if clock.status != ClockState.Status.RUNNING:
            return 0
        made = _catch_up(t, clock, rows, now)
        _save(t, clock, rows, anchor_of(clock), now)
        return made


def _resume_by_schedule(tournament: Tournament, clock: ClockState, rows: list[tl.Row], now: datetime) -> int:
    """The next day starts: the clock runs from its scheduled start (not from this tick, however late), with
    the level and time left set; what fell due since is then made as by any late tick."""
    start = clock.resume_at
    anchor = tl.resume(rows, anchor_of(clock), start.timestamp())
    clock.resume_at, clock.day_ended_level = None, None
    _place(clock, anchor)
    clock.version += 1
    record_event(
        tournament,
        actor="clock",
        type_="clock.resumed",
        payload={
            "by_schedule": True,
            "scheduled_at": venue_time(tournament, start),
            "late_by": round((now - start).total_seconds(), 3),
            "clock": clock_snapshot(tournament, clock, rows, now, with_rows=False),
        },
        seats=False,
    )
    clock.announced_until = start
    made = 1 + _catch_up(tournament, clock, rows, now)
    _save(tournament, clock, rows, anchor_of(clock), now)
    if clock.status == ClockState.Status.RUNNING:
        Tournament.objects.filter(pk=tournament.pk, status=Tournament.Status.SETUP).update(status=Tournament.Status.RUNNING)
    return made


def tick(now: datetime | None = None) -> int:
    """Claim and process every clock that has something due. Called every second."""
    return sum(process_due(tid, now) for tid in due_tournaments(now))
