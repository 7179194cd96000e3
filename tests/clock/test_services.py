"""Clock services against the database: the director's actions with their audit events, the
refusals that change nothing, and the announcements the tick makes (on time, late, twice, after
a pause). Time is driven by a fake `timezone.now` (see fake_time.py) or by passing `now`."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import connection
from django.utils import timezone

from clock import tasks, ticker
from clock.models import ClockState
from clock.selectors import clock as clock_selectors
from clock.services import clock as clock_services
from core.errors import ServiceError
from tables.services import hands
from tables.services import setup as table_setup
from tests.clock.fake_time import T0
from tests.concurrency import at_once
from tests.conftest import tournament_data
from tests.helpers import clock_of, id_doc
from tournament.models import AuditEvent, Tournament
from tournament.services import registration as tservices
from tournament.services import setup

# BASIC_SPEC: level 1 (0-1200 s), level 2 (1200-2400), break (2400-3000), level 3 (3000-4200), level 4 (4200-)
SCHEDULE = [
    (1140, "clock.one_minute", 0, 1),
    (1200, "clock.level_started", 1, 2),
    (2340, "clock.one_minute", 1, 2),
    (2400, "clock.break_started", 2, None),
    (2940, "clock.one_minute", 2, None),
    (3000, "clock.break_ended", 3, 3),
    (4140, "clock.one_minute", 3, 3),
    (4200, "clock.level_started", 4, 4),
]


def current(t: Tournament, at=None) -> dict:
    return clock_selectors.clock_snapshot(t, now=at)["current"]


def seq_of(t: Tournament) -> int:
    return Tournament.objects.get(pk=t.pk).event_seq


def events_after(t: Tournament, seq: int) -> list[AuditEvent]:
    return list(AuditEvent.objects.filter(tournament=t, seq__gt=seq).order_by("seq"))


def types_after(t: Tournament, seq: int) -> list[str]:
    return [e.type for e in events_after(t, seq)]


def state(t: Tournament) -> tuple:
    """Everything a refusal must leave alone."""
    fresh = Tournament.objects.get(pk=t.pk)
    clock = (
        ClockState.objects.filter(tournament=t)
        .values("status", "index", "started_at", "paused_at", "version", "announced_until", "next_due_at", "announcement")
        .first()
    )
    return (fresh.event_seq, fresh.status, fresh.current_level, clock, AuditEvent.objects.count())


def assert_seqs_consecutive(t: Tournament) -> None:
    seqs = list(AuditEvent.objects.filter(tournament=t).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1))
    assert seqs[-1] == seq_of(t)


# --- the director's actions ---------------------------------------------------------------------


def test_start_runs_the_clock_from_level_one(director, tournament, fake_now):
    seq = seq_of(tournament)
    clock = clock_services.start_clock(tournament, actor=director)
    assert (clock.status, clock.index, clock.started_at, clock.paused_at) == (ClockState.Status.RUNNING, 0, T0, None)
    assert clock.next_due_at == fake_now.offset(1140)  # the one-minute warning of level 1
    assert clock.version == 1
    [event] = events_after(tournament, seq)
    assert (event.type, event.actor, event.at) == ("clock.started", director, T0)
    assert event.payload["clock"]["current"]["index"] == 0 and event.payload["clock"]["current"]["remaining"] == 1200
    fresh = Tournament.objects.get(pk=tournament.pk)
    assert (fresh.status, fresh.current_level) == (Tournament.Status.RUNNING, 1)
    assert current(tournament, fake_now.offset(300))["remaining"] == 900


def test_pause_freezes_and_resume_shifts_by_the_pause(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(300)
    seq = seq_of(tournament)
    clock = clock_services.pause_clock(tournament, actor=director)
    assert (clock.status, clock.paused_at, clock.next_due_at) == (ClockState.Status.PAUSED, fake_now.offset(300), None)
    assert types_after(tournament, seq) == ["clock.paused"]
    now = current(tournament, fake_now.offset(1000))
    assert (now["remaining"], now["ends_at"]) == (900, None)

    fake_now.at(1000)
    clock = clock_services.resume_clock(tournament, actor=director)
    assert (clock.status, clock.paused_at, clock.started_at) == (ClockState.Status.RUNNING, None, fake_now.offset(700))
    assert clock.next_due_at == fake_now.offset(700 + 1140)
    assert current(tournament, fake_now.offset(1000))["remaining"] == 900
    assert current(tournament, fake_now.offset(1900))["index"] == 1  # level 1 ends at 700 + 1200
    assert types_after(tournament, seq) == ["clock.paused", "clock.resumed"]


def test_adjust_adds_and_removes_time(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(100)
    seq = seq_of(tournament)
    clock = clock_services.adjust_clock(tournament, actor=director, seconds=60)
    assert current(tournament)["remaining"] == 1160
    assert clock.next_due_at == fake_now.offset(1200)
    clock = clock_services.adjust_clock(tournament, actor=director, seconds=-60)
    assert current(tournament)["remaining"] == 1100
    assert clock.next_due_at == fake_now.offset(1140)
    events = events_after(tournament, seq)
    assert [(e.type, e.payload["seconds"], e.actor) for e in events] == [
        ("clock.adjusted", 60, director),
        ("clock.adjusted", -60, director),
    ]
    assert [e.payload["clock"]["version"] for e in events] == [2, 3]


def test_removing_all_the_time_left_starts_the_next_level_and_announces_it(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(99.876543)
    seq = seq_of(tournament)
    clock_services.adjust_clock(tournament, actor=director, seconds=-1100)  # a sliver (0.123457 s) of level 1 would be left: not quite all
    assert current(tournament)["index"] == 0
    clock_services.adjust_clock(tournament, actor=director, seconds=-1)
    now = current(tournament)
    assert (now["index"], now["remaining"]) == (1, 1200)
    events = events_after(tournament, seq)
    assert [e.type for e in events] == ["clock.adjusted", "clock.adjusted", "clock.level_started"]
    assert (events[-1].payload["index"], events[-1].payload["level"], events[-1].actor_label) == (1, 2, "clock")
    assert Tournament.objects.get(pk=tournament.pk).current_level == 2
    # the tick has nothing left to say about it
    assert clock_services.tick(fake_now.advance(0.5)) == 0
    # removing more than is left of level 2 starts the break, with its full time
    clock_services.adjust_clock(tournament, actor=director, seconds=-5000)
    now = current(tournament)
    assert (now["index"], now["remaining"]) == (2, 600)
    assert types_after(tournament, seq)[-2:] == ["clock.adjusted", "clock.break_started"]
    assert_seqs_consecutive(tournament)


def test_adding_time_to_a_last_level_that_ran_out_gives_that_time(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(5400 + 3600)  # an hour after level 4 ran out
    assert current(tournament)["finished"]
    clock_services.adjust_clock(tournament, actor=director, seconds=300)
    now = current(tournament)
    assert (now["index"], now["remaining"], now["finished"]) == (4, 300, False)


def test_next_previous_and_jump(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(100)
    seq = seq_of(tournament)
    clock_services.step_level(tournament, actor=director, step=1)
    assert (current(tournament)["index"], current(tournament)["remaining"]) == (1, 1200)
    assert Tournament.objects.get(pk=tournament.pk).current_level == 2
    fake_now.at(200)
    clock_services.step_level(tournament, actor=director, step=1)
    assert (current(tournament)["index"], current(tournament)["level_index"]) == (2, 3)  # the break: level 3 in force
    assert Tournament.objects.get(pk=tournament.pk).current_level == 3
    clock_services.step_level(tournament, actor=director, step=-1)
    assert (current(tournament)["index"], current(tournament)["remaining"]) == (1, 1200)
    clock_services.jump_to_level(tournament, actor=director, level=4)
    assert (current(tournament)["index"], current(tournament)["remaining"]) == (4, 1200)
    assert Tournament.objects.get(pk=tournament.pk).current_level == 4
    clock_services.jump_to_level(tournament, actor=director, level=1)
    assert current(tournament)["index"] == 0
    events = events_after(tournament, seq)
    assert [e.type for e in events] == ["clock.next", "clock.next", "clock.previous", "clock.jumped", "clock.jumped"]
    assert [e.payload.get("level") for e in events[-2:]] == [4, 1]
    assert all(e.actor == director for e in events)
    assert clock_of(tournament).status == ClockState.Status.RUNNING


def test_jump_and_step_keep_a_paused_clock_paused(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(100)
    clock_services.pause_clock(tournament, actor=director)
    fake_now.at(200)
    clock_services.jump_to_level(tournament, actor=director, level=3)
    fake_now.at(900)
    assert clock_of(tournament).status == ClockState.Status.PAUSED
    assert (current(tournament)["index"], current(tournament)["remaining"]) == (3, 1200)
    clock_services.step_level(tournament, actor=director, step=1)
    assert clock_of(tournament).status == ClockState.Status.PAUSED
    assert clock_services.tick(fake_now.advance(3000)) == 0


def test_a_level_set_before_the_start_is_where_the_clock_starts(director, tournament, fake_now):
    clock_services.jump_to_level(tournament, actor=director, level=3)
    clock = clock_of(tournament)
    assert (clock.status, clock.index) == (ClockState.Status.PAUSED, 3)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.SETUP
    fake_now.at(600)
    clock_services.start_clock(tournament, actor=director)
    clock = clock_of(tournament)
    assert (clock.status, clock.index) == (ClockState.Status.RUNNING, 3)
    assert (current(tournament)["index"], current(tournament)["remaining"]) == (3, 1200)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING
    fake_now.at(700)
    clock_services.pause_clock(tournament, actor=director)
    with pytest.raises(ServiceError) as err:
        clock_services.start_clock(tournament, actor=director)
    assert err.value.code == "clock_started"


def test_resume_of_a_clock_set_before_the_start_marks_the_tournament_running(director, tournament, fake_now):
    clock_services.jump_to_level(tournament, actor=director, level=2)
    clock_services.resume_clock(tournament, actor=director)
    assert Tournament.objects.get(pk=tournament.pk).status == Tournament.Status.RUNNING


def test_announcement_line(director, tournament, fake_now):
    seq = seq_of(tournament)
    clock = clock_services.set_announcement(tournament, actor=director, text="  Dinner break after level 6  ")
    assert clock.announcement == "Dinner break after level 6"
    [event] = events_after(tournament, seq)
    assert (event.type, event.payload["text"], event.actor) == ("clock.announcement", "Dinner break after level 6", director)
    assert clock_selectors.clock_snapshot(tournament)["announcement"] == "Dinner break after level 6"
    clock_services.set_announcement(tournament, actor=director, text="")
    assert clock_of(tournament).announcement == ""
    assert clock_of(tournament).version == 2


# --- refusals change nothing -----------------------------------------------------------------------


def _start(d, t):
    clock_services.start_clock(t, actor=d)


def _start_pause(d, t):
    clock_services.start_clock(t, actor=d)
    clock_services.pause_clock(t, actor=d)


REFUSALS = {
    "start twice": (_start, lambda d, t: clock_services.start_clock(t, actor=d), "clock_started"),
    "pause when paused": (_start_pause, lambda d, t: clock_services.pause_clock(t, actor=d), "clock_paused"),
    "pause before the start": (None, lambda d, t: clock_services.pause_clock(t, actor=d), "clock_not_started"),
    "resume when running": (_start, lambda d, t: clock_services.resume_clock(t, actor=d), "clock_running"),
    "adjust 0": (_start, lambda d, t: clock_services.adjust_clock(t, actor=d, seconds=0), "adjust_range"),
    "adjust over six hours": (_start, lambda d, t: clock_services.adjust_clock(t, actor=d, seconds=6 * 3600 + 1), "adjust_range"),
    "adjust by text": (_start, lambda d, t: clock_services.adjust_clock(t, actor=d, seconds="60"), "adjust_range"),
    "adjust before the start": (None, lambda d, t: clock_services.adjust_clock(t, actor=d, seconds=60), "clock_not_started"),
    "next before the start": (None, lambda d, t: clock_services.step_level(t, actor=d, step=1), "clock_not_started"),
    "previous from the first level": (_start, lambda d, t: clock_services.step_level(t, actor=d, step=-1), "level_range"),
    "jump to level 5 of 4": (_start, lambda d, t: clock_services.jump_to_level(t, actor=d, level=5), "level_range"),
    "jump to level 0": (_start, lambda d, t: clock_services.jump_to_level(t, actor=d, level=0), "level_range"),
    "announcement too long": (_start, lambda d, t: clock_services.set_announcement(t, actor=d, text="x" * 201), "too_long"),
}


@pytest.mark.parametrize("case", REFUSALS, ids=list(REFUSALS))
def test_refusals_change_nothing(director, tournament, fake_now, case):
    prepare, act, code = REFUSALS[case]
    if prepare:
        prepare(director, tournament)
    fake_now.at(1150)  # the one-minute warning is due and not yet announced: a refusal must not announce it either
    before = state(tournament)
    with pytest.raises(ServiceError) as err:
        act(director, tournament)
    assert err.value.code == code
    assert err.value.message
    assert state(tournament) == before


def test_next_after_the_last_level_is_refused(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    clock_services.jump_to_level(tournament, actor=director, level=4)
    before = state(tournament)
    with pytest.raises(ServiceError) as err:
        clock_services.step_level(tournament, actor=director, step=1)
    assert err.value.code == "level_range" and err.value.status == 409
    assert state(tournament) == before


ACTIONS = {
    "start": lambda u, t: clock_services.start_clock(t, actor=u),
    "pause": lambda u, t: clock_services.pause_clock(t, actor=u),
    "resume": lambda u, t: clock_services.resume_clock(t, actor=u),
    "adjust": lambda u, t: clock_services.adjust_clock(t, actor=u, seconds=60),
    "next": lambda u, t: clock_services.step_level(t, actor=u, step=1),
    "previous": lambda u, t: clock_services.step_level(t, actor=u, step=-1),
    "jump": lambda u, t: clock_services.jump_to_level(t, actor=u, level=2),
    "announcement": lambda u, t: clock_services.set_announcement(t, actor=u, text="hello"),
}


@pytest.mark.parametrize("role", ["floor", "cashier", "dealer"])
@pytest.mark.parametrize("action", ACTIONS, ids=list(ACTIONS))
def test_only_the_director_runs_the_clock(request, director, tournament, fake_now, role, action):
    clock_services.start_clock(tournament, actor=director)
    if action == "resume":
        clock_services.pause_clock(tournament, actor=director)
    if action == "previous":
        clock_services.step_level(tournament, actor=director, step=1)
    user = request.getfixturevalue(role)
    before = state(tournament)
    with pytest.raises(ServiceError) as err:
        ACTIONS[action](user, tournament)
    assert (err.value.code, err.value.status) == ("forbidden", 403)
    assert state(tournament) == before


# --- announcements: the tick ------------------------------------------------------------------------


def test_the_tick_announces_each_boundary_at_its_time(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    levels = []
    for at, type_, index, level in SCHEDULE:
        assert clock_of(tournament).next_due_at == fake_now.offset(at)
        seq = seq_of(tournament)
        assert clock_services.tick(fake_now.at(at - 1)) == 0
        assert clock_services.tick(fake_now.at(at)) == 1
        [event] = events_after(tournament, seq)
        assert (event.type, event.payload["index"], event.payload["level"], event.actor_label) == (type_, index, level, "clock")
        assert event.payload["at"] == fake_now.offset(at).timestamp() and event.payload["late_by"] == 0
        assert event.payload["clock"]["current"]["index"] == index  # the snapshot shows the row the event is about
        levels.append(Tournament.objects.get(pk=tournament.pk).current_level)
    assert levels == [1, 2, 2, 3, 3, 3, 3, 4]
    # the last level runs on: nothing more is due
    assert clock_of(tournament).next_due_at is None
    seq = seq_of(tournament)
    assert clock_services.tick(fake_now.at(5400)) == 0 and clock_services.tick(fake_now.at(20000)) == 0
    assert seq_of(tournament) == seq
    assert_seqs_consecutive(tournament)


def test_the_celery_task_and_process_due_make_the_announcements(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    seq = seq_of(tournament)
    fake_now.at(1140)
    assert tasks.tick.apply().get() == 1
    assert clock_services.process_due(tournament.pk, now=fake_now.offset(1200)) == 1
    assert types_after(tournament, seq) == ["clock.one_minute", "clock.level_started"]
    assert clock_services.process_due(tournament.pk, now=fake_now.offset(1200)) == 0


def test_a_tick_twice_at_the_same_time_announces_once(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    seq = seq_of(tournament)
    fake_now.at(1200)
    assert clock_services.tick() == 1  # the warning at 1140 is a minute stale: only the level change
    assert clock_services.tick() == 0
    assert clock_services.process_due(tournament.pk) == 0
    assert clock_services.tick(fake_now.advance(0.5)) == 0
    assert types_after(tournament, seq) == ["clock.level_started"]


def test_a_tick_with_an_older_time_after_a_newer_one_announces_nothing_again(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    seq = seq_of(tournament)
    assert clock_services.tick(fake_now.offset(1210)) == 1
    # a worker that read the time before the other one committed
    assert clock_services.process_due(tournament.pk, now=fake_now.offset(1205)) == 0
    assert clock_services.tick(fake_now.offset(1215)) == 0
    assert types_after(tournament, seq) == ["clock.level_started"]


def test_a_late_tick_announces_each_missed_boundary_once_and_no_stale_warning(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    seq = seq_of(tournament)
    fake_now.at(4205)  # three level changes (and a break) late
    assert clock_services.tick() == 4
    events = events_after(tournament, seq)
    assert [(e.type, e.payload["index"]) for e in events] == [
        ("clock.level_started", 1),
        ("clock.break_started", 2),
        ("clock.break_ended", 3),
        ("clock.level_started", 4),
    ]
    assert [e.payload["late_by"] for e in events] == [3005, 1805, 1205, 5]
    assert Tournament.objects.get(pk=tournament.pk).current_level == 4
    assert clock_services.tick() == 0
    assert clock_services.tick(fake_now.advance(60)) == 0
    assert len(events_after(tournament, seq)) == 4


def test_a_slightly_late_warning_is_announced_a_stale_one_is_not(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    seq = seq_of(tournament)
    assert clock_services.tick(fake_now.at(1140 + clock_services.STALE_WARNING_SECONDS)) == 1
    assert types_after(tournament, seq) == ["clock.one_minute"]
    assert clock_services.tick(fake_now.at(2340 + clock_services.STALE_WARNING_SECONDS + 1)) == 1  # only level 2's start
    assert types_after(tournament, seq) == ["clock.one_minute", "clock.level_started"]


def test_a_tick_after_a_pause_announces_nothing(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(1100)
    clock_services.pause_clock(tournament, actor=director)
    seq = seq_of(tournament)
    for at in (1140, 1200, 1300, 5000):
        assert clock_services.tick(fake_now.at(at)) == 0
        assert clock_services.process_due(tournament.pk, now=fake_now.offset(at)) == 0
    assert clock_selectors.due_tournaments(fake_now.offset(9000)) == []
    assert seq_of(tournament) == seq
    assert Tournament.objects.get(pk=tournament.pk).current_level == 1
    # resumed with 100 s left: the warning at 40 s in, the level change at 100 s
    clock_services.resume_clock(tournament, actor=director)
    seq = seq_of(tournament)
    assert clock_services.tick(fake_now.at(5039)) == 0
    assert clock_services.tick(fake_now.at(5040)) == 1
    assert clock_services.tick(fake_now.at(5100)) == 1
    assert types_after(tournament, seq) == ["clock.one_minute", "clock.level_started"]


def test_a_warning_already_given_is_not_given_again_after_a_pause(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    assert clock_services.tick(fake_now.at(1140)) == 1
    fake_now.at(1150)
    clock_services.pause_clock(tournament, actor=director)
    fake_now.at(2000)
    clock_services.resume_clock(tournament, actor=director)
    seq = seq_of(tournament)
    assert clock_services.tick(fake_now.at(2001)) == 0
    assert clock_services.tick(fake_now.at(2050)) == 1
    assert types_after(tournament, seq) == ["clock.level_started"]


def test_a_director_action_announces_what_fell_due_first(director, tournament, fake_now):
    """No tick ran at the level change (worker down): the next action announces it before its own event."""
    clock_services.start_clock(tournament, actor=director)
    seq = seq_of(tournament)
    fake_now.at(1200.4)
    clock_services.pause_clock(tournament, actor=director)
    assert types_after(tournament, seq) == ["clock.level_started", "clock.paused"]
    assert Tournament.objects.get(pk=tournament.pk).current_level == 2


def test_a_clock_started_twenty_minutes_ago_in_real_time(director, tournament):
    """No fake time: the anchor set back in the database, as after a process restart."""
    clock_services.start_clock(tournament, actor=director)
    back = timedelta(seconds=1201)
    clock = clock_of(tournament)
    ClockState.objects.filter(pk=clock.pk).update(
        started_at=clock.started_at - back, announced_until=clock.announced_until - back, next_due_at=clock.next_due_at - back
    )
    seq = seq_of(tournament)
    assert clock_services.tick() == 1
    [event] = events_after(tournament, seq)
    assert (event.type, event.payload["index"]) == ("clock.level_started", 1)
    assert 1 <= event.payload["late_by"] < 5
    now = current(tournament)
    assert now["index"] == 1 and 1195 < now["remaining"] <= 1199
    assert clock_services.tick() == 0
    assert timezone.now() - clock_of(tournament).announced_until < timedelta(seconds=5)


def test_current_level_follows_the_clock_and_closes_late_registration(director, template, cashier, fake_now):
    tournament = setup.create_tournament(tournament_data(late_reg_until_level=1), actor=director, template=template)
    first = tservices.create_player(actor=cashier, first_name="Jana", last_name="Nováková", date_of_birth=date(1990, 5, 17))
    late = tservices.create_player(actor=cashier, first_name="Petr", last_name="Svoboda", date_of_birth=date(1985, 1, 2))
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(1199)
    tservices.register_entry(tournament, actor=cashier, player=first, document=id_doc("EA1111111"))
    clock_services.tick(fake_now.at(1200))
    assert Tournament.objects.get(pk=tournament.pk).current_level == 2
    with pytest.raises(ServiceError) as err:
        tservices.register_entry(tournament, actor=cashier, player=late, document=id_doc("EA2222222"))
    assert err.value.code == "registration_closed"
    # the director takes the clock back a level: registration opens again
    clock_services.step_level(tournament, actor=director, step=-1)
    assert Tournament.objects.get(pk=tournament.pk).current_level == 1
    tservices.register_entry(tournament, actor=cashier, player=late, document=id_doc("EA2222222"))


def test_sequence_numbers_stay_consecutive(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    clock_services.tick(fake_now.at(1140))
    clock_services.adjust_clock(tournament, actor=director, seconds=30)
    clock_services.tick(fake_now.at(1300))
    clock_services.pause_clock(tournament, actor=director)
    clock_services.set_announcement(tournament, actor=director, text="Chip race at the break")
    clock_services.tick(fake_now.at(4000))
    clock_services.resume_clock(tournament, actor=director)
    clock_services.tick(fake_now.at(9000))
    clock_services.jump_to_level(tournament, actor=director, level=2)
    assert_seqs_consecutive(tournament)
    assert [e.type for e in AuditEvent.objects.filter(tournament=tournament, type__startswith="clock.").order_by("seq")] == [
        "clock.started",
        "clock.one_minute",
        "clock.adjusted",
        "clock.level_started",  # the warning at 1170 went stale
        "clock.paused",
        "clock.announcement",
        "clock.resumed",
        "clock.break_started",
        "clock.break_ended",
        "clock.level_started",
        "clock.jumped",
    ]


# --- the in-process ticker -----------------------------------------------------------------------


def test_the_ticker_sleeps_until_the_next_due_time(director, tournament, fake_now, monkeypatch):
    monkeypatch.setattr(ticker, "close_old_connections", lambda: None)
    monkeypatch.setattr("django.db.connection.close", lambda: None)  # keep the test transaction open
    assert ticker.tick_once() == 1.0  # nothing running
    clock_services.start_clock(tournament, actor=director)
    assert ticker.tick_once() == 1.0  # the warning is 19 minutes away
    fake_now.at(1139.6)
    assert ticker.tick_once() == pytest.approx(0.4)
    fake_now.at(1140)
    seq = seq_of(tournament)
    assert ticker.tick_once() == 1.0  # announced; the level change is a minute away
    assert types_after(tournament, seq) == ["clock.one_minute"]


# --- concurrency: two workers (or beat firing twice) and the tablets at the same moment --------------------


@pytest.mark.django_db(transaction=True)
def test_ticks_at_once_announce_once_and_keep_the_sequence(director, dealer, template, fake_now):
    if connection.vendor == "sqlite" and connection.is_in_memory_db():
        pytest.skip("needs a database that threads share with locking (the project's file SQLite or PostgreSQL)")
    tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
    table_list = [table_setup.open_table(tournament, actor=director, number=n)[0] for n in (1, 2)]
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(1200)
    jobs = [clock_services.tick, clock_services.tick] + [lambda table=table: hands.start_hand(table, actor=dealer) for table in table_list]
    errors = [o for o in at_once(jobs) if isinstance(o, Exception)]
    assert errors == []
    assert AuditEvent.objects.filter(tournament=tournament, type="clock.level_started").count() == 1
    assert [e.payload["level"] for e in AuditEvent.objects.filter(tournament=tournament, type="table.hand_started")] == [2, 2]
    assert clock_services.tick() == 0
    assert_seqs_consecutive(tournament)
