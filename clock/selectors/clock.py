"""Reads of the clock: the level rows of a tournament, the anchor of its countdown, the snapshot a
screen counts down from, and which clocks have something due. Nothing here writes."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

from django.utils import timezone

from clock.models import ClockState
from clock.rules import timeline as tl
from tournament.models import Level, Tournament


def rows_of(tournament: Tournament) -> list[tl.Row]:
    levels = Level.objects.filter(structure_id=tournament.structure_id).order_by("position").values_list("kind", "minutes")
    return tl.numbered(list(levels))


def as_timestamp(value: datetime | None) -> float | None:
    return value.timestamp() if value is not None else None


def as_datetime(value: float | None) -> datetime | None:
    return datetime.fromtimestamp(value, tz=UTC) if value is not None else None


def anchor_of(clock: ClockState) -> tl.Anchor | None:
    if clock.status == ClockState.Status.NOT_STARTED or clock.started_at is None:
        return None
    return tl.Anchor(clock.index, as_timestamp(clock.started_at), as_timestamp(clock.paused_at))


def clock_snapshot(
    tournament: Tournament,
    clock: ClockState | None = None,
    rows: list[tl.Row] | None = None,
    now: datetime | None = None,
    with_rows: bool = True,
) -> dict:
    """What a screen needs to count down by itself: the anchor, the rows, and the derived state now.
    Events carry it without the rows (a screen has them from its snapshot)."""
    clock = clock or ClockState.objects.filter(tournament=tournament).first() or ClockState(tournament=tournament)
    rows = rows if rows is not None else rows_of(tournament)
    now = now or timezone.now()
    anchor = anchor_of(clock)
    data = {
        "status": clock.status,
        "version": clock.version,
        "anchor": None if anchor is None else {"index": anchor.index, "started_at": anchor.started_at, "paused_at": anchor.paused_at},
        "announcement": clock.announcement,
        # The end of a day: the level after which the clock stops, the level it stopped after (until it
        # runs again), and when it resumes by itself (ISO, in the venue's time zone, as the screens say it).
        "day_end_after_level": clock.stop_after_level,
        "day_ended_level": clock.day_ended_level,
        "resume_at": venue_time(tournament, clock.resume_at),
    }
    if with_rows:
        levels = list(Level.objects.filter(structure_id=tournament.structure_id).order_by("position"))
        data["rows"] = [
            {
                "kind": lv.kind,
                "seconds": lv.minutes * 60,
                "number": row.number,
                "small_blind": lv.small_blind,
                "big_blind": lv.big_blind,
                "ante": lv.ante,
                "ante_type": lv.ante_type,
                "color_up": lv.color_up,
            }
            for lv, row in zip(levels, rows, strict=True)
        ]
    data.update(clock_at(rows, anchor, now))
    return data


def venue_time(tournament: Tournament, value: datetime | None) -> str | None:
    return None if value is None else value.astimezone(ZoneInfo(tournament.time_zone)).isoformat()


def clock_at(rows: list[tl.Row], anchor: tl.Anchor | None, now: datetime) -> dict:
    """The part of a clock snapshot that depends on the time: the server's time and where the countdown
    stands. A snapshot kept for a state version (web/caching.py) is brought to the moment with it."""
    data: dict = {"server_time": now.timestamp()}
    if anchor is not None and rows:
        pos = tl.position_at(rows, anchor, now.timestamp())
        data["current"] = {
            "index": pos.index,
            "remaining": pos.remaining,
            "ends_at": pos.ends_at,
            "finished": pos.finished,
            "level_index": tl.level_in_force(rows, pos.index),
            "next_break_in": tl.seconds_to_next_break(rows, pos),
        }
    return data


def clock_statuses(tournament_ids) -> dict[int, ClockState.Status]:
    """Each tournament's clock state (not started / running / paused), for lists of tournaments: the
    tournament's own status says where the event stands (seated = running), not whether its clock ticks."""
    found = dict(ClockState.objects.filter(tournament_id__in=list(tournament_ids)).values_list("tournament_id", "status"))
    return {pk: ClockState.Status(found.get(pk, ClockState.Status.NOT_STARTED)) for pk in tournament_ids}


def due_tournaments(now: datetime | None = None) -> list[int]:
    """Clocks with something due: an announcement or a day's end (running), or a scheduled restart (paused:
    next_due_at is then its resume_at)."""
    now = now or timezone.now()
    return list(ClockState.objects.filter(next_due_at__lte=now).values_list("tournament_id", flat=True))


def seconds_until_next_due(now: datetime | None = None) -> float | None:
    now = now or timezone.now()
    due = ClockState.objects.filter(next_due_at__isnull=False).order_by("next_due_at").first()
    return None if due is None else max(0.0, (due.next_due_at - now).total_seconds())


def day_ended(tournament_id: int) -> int | None:
    """The level after which play stopped for the day (the clock stopped by itself at the end of the day's last
    level), until the clock runs again; None while the day goes on."""
    return ClockState.objects.filter(tournament_id=tournament_id).values_list("day_ended_level", flat=True).first()
