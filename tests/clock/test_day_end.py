"""The end of a day and the next day's start against the database: the director sets the
day to end after level N; the ticker stops the clock at that level's end (on time, late, twice), with nothing
left and no new level announced; a manual resume goes on to the next row; a restart scheduled at a level and
time left resumes by itself at its time; refusals change nothing.

BASIC_SPEC: level 1 (0-1200 s), level 2 (1200-2400), break (2400-3000), level 3 (3000-4200), level 4 (4200-)."""

from __future__ import annotations

from datetime import timedelta
from zoneinfo import ZoneInfo

import pytest

from clock.models import ClockState
from clock.selectors import clock as clock_selectors
from clock.services import clock as clock_services
from core.errors import ServiceError
from tests.clock.fake_time import T0
from tests.clock.test_services import assert_seqs_consecutive, current, events_after, seq_of, types_after
from tests.helpers import clock_of
from tournament.models import AuditEvent, Tournament


def state(t: Tournament) -> tuple:
    """Everything a refusal must leave alone, the day's fields included."""
    fresh = Tournament.objects.get(pk=t.pk)
    clock = ClockState.objects.filter(tournament=t).values().first()
    return (fresh.event_seq, fresh.status, fresh.current_level, clock, AuditEvent.objects.count())


def started(director, tournament, fake_now) -> None:
    clock_services.start_clock(tournament, actor=director)


# --- the day's end --------------------------------------------------------------------------------------


def test_setting_the_day_end_is_recorded_and_makes_the_level_end_due(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.tick(fake_now.at(1200))
    fake_now.at(1300)
    seq = seq_of(tournament)
    clock = clock_services.set_day_end(tournament, actor=director, level=2)
    assert clock.stop_after_level == 2
    [event] = events_after(tournament, seq)
    assert (event.type, event.actor, event.payload["level"]) == ("clock.day_end_set", director, 2)
    assert event.payload["clock"]["day_end_after_level"] == 2
    assert clock_selectors.clock_snapshot(tournament)["day_end_after_level"] == 2
    assert clock.next_due_at == fake_now.offset(2340)  # level 2's last minute, then its end
    clock_services.process_due(tournament.pk, now=fake_now.at(2340))
    assert clock_of(tournament).next_due_at == fake_now.offset(2400)
    clock_services.set_day_end(tournament, actor=director, level=None)
    assert clock_of(tournament).stop_after_level is None
    assert types_after(tournament, seq)[-1] == "clock.day_end_set"


def test_a_day_end_after_the_last_level_is_due_at_its_end(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.jump_to_level(tournament, actor=director, level=4)
    assert clock_of(tournament).next_due_at is None  # the last level runs on
    clock = clock_services.set_day_end(tournament, actor=director, level=4)
    assert clock.next_due_at == fake_now.offset(1200)
    assert clock_services.tick(fake_now.at(1300)) == 1
    clock = clock_of(tournament)
    assert (clock.status, clock.day_ended_level, clock.paused_at) == (ClockState.Status.PAUSED, 4, fake_now.offset(1200))


def assert_stopped_after_level_2(tournament, fake_now) -> None:
    clock = clock_of(tournament)
    assert (clock.status, clock.index, clock.paused_at, clock.started_at) == (
        ClockState.Status.PAUSED,
        1,
        fake_now.offset(2400),
        fake_now.offset(1200),
    )
    assert (clock.stop_after_level, clock.day_ended_level, clock.next_due_at) == (None, 2, None)
    now = current(tournament, fake_now.offset(99999))
    assert (now["index"], now["remaining"], now["level_index"]) == (1, 0.0, 1)  # level 2, nothing left, no break
    assert Tournament.objects.get(pk=tournament.pk).current_level == 2


def test_the_ticker_stops_the_clock_at_the_end_of_level_n_and_no_break_starts(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.set_day_end(tournament, actor=director, level=2)
    seq = seq_of(tournament)
    for at in (1140, 1200, 2340):
        clock_services.tick(fake_now.at(at))
    assert clock_services.tick(fake_now.at(2399)) == 0
    assert clock_services.tick(fake_now.at(2400)) == 1
    assert types_after(tournament, seq) == ["clock.one_minute", "clock.level_started", "clock.one_minute", "clock.day_ended"]
    event = events_after(tournament, seq)[-1]
    assert (event.actor_label, event.payload["level"], event.payload["late_by"]) == ("clock", 2, 0)
    assert event.payload["clock"]["day_ended_level"] == 2 and event.payload["clock"]["status"] == "paused"
    assert event.payload["clock"]["current"]["remaining"] == 0
    assert_stopped_after_level_2(tournament, fake_now)
    # Twice, and later: nothing more (the break after level 2 never starts).
    seq = seq_of(tournament)
    for at in (2400, 2401, 3000, 9000):
        assert clock_services.tick(fake_now.at(at)) == 0
    assert seq_of(tournament) == seq
    assert_seqs_consecutive(tournament)


def test_a_late_ticker_stops_the_clock_at_the_level_end_not_at_the_tick(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.set_day_end(tournament, actor=director, level=2)
    seq = seq_of(tournament)
    assert clock_services.process_due(tournament.pk, now=fake_now.at(5000)) == 2  # down for an hour: level 2 and the day's end
    assert types_after(tournament, seq) == ["clock.level_started", "clock.day_ended"]
    assert events_after(tournament, seq)[-1].payload["late_by"] == 2600
    assert_stopped_after_level_2(tournament, fake_now)
    assert clock_services.process_due(tournament.pk, now=fake_now.at(5000)) == 0


def test_a_director_action_after_a_late_ticker_finds_the_day_ended_first(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.set_day_end(tournament, actor=director, level=1)
    fake_now.at(1500)  # the ticker has not run
    seq = seq_of(tournament)
    clock_services.adjust_clock(tournament, actor=director, seconds=60)
    assert types_after(tournament, seq) == ["clock.day_ended", "clock.adjusted"]
    now = current(tournament)
    assert (now["index"], now["remaining"]) == (0, 60)  # level 1 with the minute added, still paused
    assert clock_of(tournament).status == ClockState.Status.PAUSED


def test_removing_the_time_of_the_day_s_last_level_ends_the_day(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.set_day_end(tournament, actor=director, level=1)
    fake_now.at(1000)
    seq = seq_of(tournament)
    clock_services.adjust_clock(tournament, actor=director, seconds=-600)
    assert types_after(tournament, seq) == ["clock.adjusted", "clock.day_ended"]
    clock = clock_of(tournament)
    assert (clock.status, clock.index, clock.day_ended_level) == (ClockState.Status.PAUSED, 0, 1)
    assert current(tournament)["remaining"] == 0


def test_resuming_by_hand_after_the_day_ended_starts_the_next_row_with_its_full_time(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.set_day_end(tournament, actor=director, level=2)
    clock_services.tick(fake_now.at(2400))
    fake_now.at(2400 + 3600)
    seq = seq_of(tournament)
    clock = clock_services.resume_clock(tournament, actor=director)
    assert types_after(tournament, seq) == ["clock.resumed", "clock.break_started"]
    assert (clock.status, clock.index, clock.started_at, clock.day_ended_level) == (
        ClockState.Status.RUNNING,
        2,
        fake_now.offset(6000),
        None,
    )
    now = current(tournament)
    assert (now["index"], now["remaining"]) == (2, 600)  # the break, all of it: no jump
    assert clock_selectors.clock_snapshot(tournament)["day_ended_level"] is None


def test_moving_past_the_day_end_clears_it(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.set_day_end(tournament, actor=director, level=1)
    clock_services.step_level(tournament, actor=director, step=1)
    assert clock_of(tournament).stop_after_level is None
    seq = seq_of(tournament)
    assert clock_services.tick(fake_now.at(1200)) == 1  # level 2 (from 0) ends: the break starts as usual
    assert types_after(tournament, seq) == ["clock.break_started"]


REFUSALS = {
    "a level that does not exist": (lambda d, t: clock_services.set_day_end(t, actor=d, level=5), "level_range", 400),
    "a level already over": (lambda d, t: clock_services.set_day_end(t, actor=d, level=1), "level_over", 409),
    "a level before the break": (lambda d, t: clock_services.set_day_end(t, actor=d, level=2), "level_over", 409),
}


@pytest.mark.parametrize("case", REFUSALS, ids=list(REFUSALS))
def test_day_end_refusals_change_nothing(director, tournament, fake_now, case):
    started(director, tournament, fake_now)
    clock_services.tick(fake_now.at(2500))  # in the break after level 2
    clock_services.set_day_end(tournament, actor=director, level=4)
    fake_now.at(2940)  # a warning is due and not yet announced: a refusal must not announce it either
    before = state(tournament)
    act, code, status = REFUSALS[case]
    with pytest.raises(ServiceError) as err:
        act(director, tournament)
    assert (err.value.code, err.value.status) == (code, status) and err.value.message
    assert state(tournament) == before


def test_day_end_refused_once_the_clock_finished_or_the_day_ended_at_that_level(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.set_day_end(tournament, actor=director, level=1)
    clock_services.tick(fake_now.at(1200))
    before = state(tournament)
    with pytest.raises(ServiceError) as err:
        clock_services.set_day_end(tournament, actor=director, level=1)
    assert err.value.code == "level_over" and state(tournament) == before
    clock_services.set_day_end(tournament, actor=director, level=2)  # the next level is fine
    clock_services.resume_clock(tournament, actor=director)
    clock_services.jump_to_level(tournament, actor=director, level=4)
    fake_now.advance(1200)
    before = state(tournament)
    with pytest.raises(ServiceError) as err:
        clock_services.set_day_end(tournament, actor=director, level=4)
    assert (err.value.code, err.value.status) == ("clock_finished", 409) and state(tournament) == before


@pytest.mark.parametrize("role", ["floor", "cashier", "dealer"])
def test_only_the_director_sets_the_day(request, director, tournament, fake_now, role):
    started(director, tournament, fake_now)
    user = request.getfixturevalue(role)
    before = state(tournament)
    for act in (
        lambda: clock_services.set_day_end(tournament, actor=user, level=2),
        lambda: clock_services.schedule_restart(tournament, actor=user, start_at=fake_now.offset(3600), level=2, seconds_left=60),
    ):
        with pytest.raises(ServiceError) as err:
            act()
        assert (err.value.code, err.value.status) == ("forbidden", 403)
    assert state(tournament) == before


# --- the next day's start -------------------------------------------------------------------------------


def test_a_restart_scheduled_resumes_by_itself_at_its_time_with_the_level_and_time_left(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.set_day_end(tournament, actor=director, level=2)
    clock_services.tick(fake_now.at(2400))
    fake_now.at(3000)
    start = T0 + timedelta(hours=18)  # the next day, 1 pm in Bratislava
    seq = seq_of(tournament)
    clock = clock_services.schedule_restart(tournament, actor=director, start_at=start, level=3, seconds_left=754)
    [event] = events_after(tournament, seq)
    assert event.type == "clock.restart_scheduled"
    assert event.payload["level"] == 3 and event.payload["seconds_left"] == 754
    venue = start.astimezone(ZoneInfo("Europe/Bratislava")).isoformat()
    assert event.payload["start_at"] == venue == "2026-11-30T13:00:00+01:00"
    assert (clock.status, clock.resume_at, clock.next_due_at, clock.day_ended_level) == (ClockState.Status.PAUSED, start, start, 2)
    snap = clock_selectors.clock_snapshot(tournament)
    assert snap["resume_at"] == venue and (snap["current"]["index"], snap["current"]["remaining"]) == (3, 754)
    assert Tournament.objects.get(pk=tournament.pk).current_level == 3
    # Nothing happens before its time.
    assert clock_services.tick(start - timedelta(seconds=1)) == 0
    assert clock_of(tournament).status == ClockState.Status.PAUSED
    # At its time the ticker resumes it, once.
    seq = seq_of(tournament)
    assert clock_services.tick(start) == 1
    assert clock_services.tick(start) == 0
    [event] = events_after(tournament, seq)
    assert (event.type, event.actor_label, event.payload["by_schedule"], event.payload["late_by"]) == ("clock.resumed", "clock", True, 0)
    clock = clock_of(tournament)
    assert (clock.status, clock.resume_at, clock.day_ended_level) == (ClockState.Status.RUNNING, None, None)
    now = current(tournament, start)
    assert (now["index"], now["remaining"], now["ends_at"]) == (3, 754, (start + timedelta(seconds=754)).timestamp())
    assert clock.next_due_at == start + timedelta(seconds=754 - 60)  # level 3's last minute
    assert_seqs_consecutive(tournament)


def test_a_late_ticker_resumes_from_the_scheduled_time(director, tournament, fake_now):
    started(director, tournament, fake_now)
    start = fake_now.offset(7200)
    clock_services.schedule_restart(tournament, actor=director, start_at=start, level=2, seconds_left=100)
    seq = seq_of(tournament)
    assert clock_services.process_due(tournament.pk, now=start + timedelta(seconds=130)) == 2
    assert types_after(tournament, seq) == ["clock.resumed", "clock.break_started"]  # level 2 ran out 30 s ago
    assert events_after(tournament, seq)[0].payload["late_by"] == 130
    now = current(tournament, start + timedelta(seconds=130))
    assert (now["index"], now["remaining"]) == (2, 570)


def test_a_restart_for_a_clock_not_yet_started_starts_the_tournament(director, tournament, fake_now):
    start = fake_now.offset(600)
    clock_services.schedule_restart(tournament, actor=director, start_at=start, level=3, seconds_left=1200)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.SETUP
    assert clock_services.tick(start) == 1
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    assert (current(tournament, start)["index"], current(tournament, start)["remaining"]) == (3, 1200)


def test_a_manual_pause_or_resume_before_then_calls_the_restart_off(director, tournament, fake_now):
    started(director, tournament, fake_now)
    start = fake_now.offset(7200)
    clock_services.schedule_restart(tournament, actor=director, start_at=start, level=2, seconds_left=300)
    seq = seq_of(tournament)
    clock = clock_services.pause_clock(tournament, actor=director)
    [event] = events_after(tournament, seq)
    assert (event.type, event.payload["restart_cancelled"]) == ("clock.paused", True)
    assert (clock.status, clock.resume_at, clock.next_due_at) == (ClockState.Status.PAUSED, None, None)
    assert clock_selectors.clock_snapshot(tournament)["resume_at"] is None
    assert clock_services.tick(start) == 0 and clock_of(tournament).status == ClockState.Status.PAUSED
    with pytest.raises(ServiceError):  # a second pause: nothing left to call off
        clock_services.pause_clock(tournament, actor=director)

    clock_services.schedule_restart(tournament, actor=director, start_at=start, level=2, seconds_left=300)
    fake_now.at(60)
    clock = clock_services.resume_clock(tournament, actor=director)
    assert (clock.status, clock.resume_at) == (ClockState.Status.RUNNING, None)
    assert current(tournament)["remaining"] == 300  # the level and time set, from the resume
    seq = seq_of(tournament)
    clock_services.tick(start)
    assert "clock.resumed" not in types_after(tournament, seq)


RESTART_REFUSALS = {
    "in the past": (dict(start_at=-1), "start_at_past"),
    "now": (dict(start_at=0), "start_at_past"),
    "no time zone": (dict(start_at="naive"), "start_at_zone"),
    "an unknown level": (dict(level=5), "level_range"),
    "no time left": (dict(seconds_left=0), "seconds_left"),
    "more than the level": (dict(seconds_left=1201), "seconds_left"),
}


@pytest.mark.parametrize("case", RESTART_REFUSALS, ids=list(RESTART_REFUSALS))
def test_restart_refusals_change_nothing(director, tournament, fake_now, case):
    started(director, tournament, fake_now)
    fake_now.at(1150)
    change, code = RESTART_REFUSALS[case]
    args = {"start_at": fake_now.offset(7200), "level": 2, "seconds_left": 600}
    args.update(change)
    if args["start_at"] == "naive":
        args["start_at"] = fake_now.offset(7200).replace(tzinfo=None)
    elif isinstance(args["start_at"], int):
        args["start_at"] = fake_now.value + timedelta(seconds=args["start_at"])
    before = state(tournament)
    with pytest.raises(ServiceError) as err:
        clock_services.schedule_restart(tournament, actor=director, **args)
    assert err.value.code == code and err.value.message
    assert state(tournament) == before


def test_the_ticker_sleeps_until_the_restart(director, tournament, fake_now):
    started(director, tournament, fake_now)
    clock_services.pause_clock(tournament, actor=director)
    assert clock_selectors.seconds_until_next_due(fake_now.value) is None
    clock_services.schedule_restart(tournament, actor=director, start_at=fake_now.offset(500), level=1, seconds_left=60)
    assert clock_selectors.seconds_until_next_due(fake_now.value) == 500
    assert clock_selectors.due_tournaments(fake_now.offset(499)) == []
    assert clock_selectors.due_tournaments(fake_now.offset(500)) == [tournament.pk]
