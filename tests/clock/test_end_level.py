""" "End this level now": the director ends the level (or break) in play with one confirmed press
instead of fifteen of "-1 min": the next row starts at once with its full time and is announced, the event says how
much time was taken, a day that ends after this level ends now, and every refusal changes nothing."""

from __future__ import annotations

import pytest
from django.test import Client

from clock.services import clock as clock_services
from core.errors import ServiceError
from tests.clock.test_services import assert_seqs_consecutive, current, events_after, seq_of, state
from tournament.models import Tournament
from web.event_words import event_line


def test_ending_the_level_now_starts_the_next_with_its_full_time_and_announces_it(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(203.4)  # 996.6 s of level 1 left
    seq = seq_of(tournament)
    clock_services.end_level_now(tournament, actor=director)
    now = current(tournament)
    assert (now["index"], now["remaining"]) == (1, 1200)
    events = events_after(tournament, seq)
    assert [e.type for e in events] == ["clock.level_ended", "clock.level_started"]
    ended = events[0]
    assert (ended.actor, ended.payload["row"], ended.payload["level"], ended.payload["removed"]) == (director, 0, 1, 997)
    assert ended.payload["clock"]["current"]["index"] == 1
    assert event_line(ended.type, ended.payload, {}) == "Level 1 ended now (16:37 left removed)"
    assert Tournament.objects.get(pk=tournament.pk).current_level == 2
    assert clock_services.tick(fake_now.advance(0.5)) == 0  # nothing left for the tick to announce
    # A break ends the same way: level 2 ended at once, then the break, level 3 starts with its full time.
    clock_services.end_level_now(tournament, actor=director)
    assert current(tournament)["index"] == 2
    clock_services.end_level_now(tournament, actor=director)
    now = current(tournament)
    assert (now["index"], now["remaining"]) == (3, 1200)
    kinds = [e.type for e in events_after(tournament, seq)][2:]
    assert kinds == ["clock.level_ended", "clock.break_started", "clock.level_ended", "clock.break_ended"]
    assert event_line("clock.level_ended", events_after(tournament, seq)[-2].payload, {}).startswith("The break ended now")
    assert_seqs_consecutive(tournament)


def test_a_paused_clock_moves_on_paused(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(500)
    clock_services.pause_clock(tournament, actor=director)
    clock_services.end_level_now(tournament, actor=director)
    now = current(tournament)
    assert (now["index"], now["remaining"]) == (1, 1200)
    fake_now.at(900)
    assert current(tournament)["remaining"] == 1200  # still paused: no time runs


def test_the_day_that_ends_after_this_level_ends_now(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    clock_services.set_day_end(tournament, actor=director, level=1)
    fake_now.at(300)
    seq = seq_of(tournament)
    clock_services.end_level_now(tournament, actor=director)
    assert [e.type for e in events_after(tournament, seq)] == ["clock.level_ended", "clock.day_ended"]
    assert (current(tournament)["index"], current(tournament)["remaining"]) == (0, 0)
    before = state(tournament)
    with pytest.raises(ServiceError) as refused:  # stopped at its end for the day: nothing more to end
        clock_services.end_level_now(tournament, actor=director)
    assert refused.value.code == "level_over" and state(tournament) == before


@pytest.mark.parametrize("case", ["not started", "last level", "floor"])
def test_refusals_change_nothing(director, floor, tournament, fake_now, case):
    if case != "not started":
        clock_services.start_clock(tournament, actor=director)
    if case == "last level":
        clock_services.jump_to_level(tournament, actor=director, level=4)
    before = state(tournament)
    with pytest.raises(ServiceError) as refused:
        clock_services.end_level_now(tournament, actor=floor if case == "floor" else director)
    assert (refused.value.code, refused.value.status) == {
        "not started": ("clock_not_started", 409),
        "last level": ("level_range", 409),
        "floor": ("forbidden", 403),
    }[case]
    assert state(tournament) == before


def test_the_api_ends_the_level(director, tournament, fake_now):
    clock_services.start_clock(tournament, actor=director)
    fake_now.at(60)
    client = Client()
    client.force_login(director)
    answer = client.post(f"/api/tournaments/{tournament.pk}/clock/", {"action": "end_level"}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    assert (answer.json()["current"]["index"], answer.json()["current"]["remaining"]) == (1, 1200)
    clock_services.jump_to_level(tournament, actor=director, level=4)
    refused = client.post(f"/api/tournaments/{tournament.pk}/clock/", {"action": "end_level"}, content_type="application/json")
    assert refused.status_code == 409 and refused.json()["error"] == "level_range" and refused.json()["detail"]
