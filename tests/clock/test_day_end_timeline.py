"""Property tests of the pure timeline's end of a day: the clock stops at the end of level N
whatever the tick times, never starts the row after it (a break included), resumes by hand into the next
row without a jump, and a next day's clock set at a level with the time left runs on from exactly there."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from clock.rules import timeline as tl
from tests.clock.test_timeline import BASIC, T0, started, structures, total


def level_rows(rows: list[tl.Row]) -> list[int]:
    return [i for i, row in enumerate(rows) if row.kind == tl.LEVEL]


def end_of(rows: list[tl.Row], index: int) -> int:
    return T0 + sum(row.seconds for row in rows[: index + 1])


def run_ticks(rows, stop: int, ticks: list[int]):
    """A ticker that runs at these times (seconds after the start, any order of lateness): what it announces
    and where the clock stands after each tick."""
    anchor, after, said, seen = started(rows), T0, [], []
    for offset in ticks:
        t = T0 + offset
        if t <= after:
            continue
        said += tl.boundaries(rows, anchor, after, t, stop)
        stopped = tl.day_end(rows, anchor, t, stop)
        if stopped is not None:
            anchor = stopped
        seen.append((t, tl.position_at(rows, anchor, t)))
        after = t
    return anchor, said, seen


@st.composite
def with_stop(draw):
    rows = draw(structures())
    stop = draw(st.sampled_from(level_rows(rows)))
    return rows, stop


@settings(max_examples=300)
@given(with_stop(), st.lists(st.integers(1, 8 * 3600), min_size=1, max_size=30))
def test_a_stop_at_the_end_of_level_n_never_skips_past_it(case, ticks):
    rows, stop = case
    ticks = sorted(ticks)
    anchor, said, seen = run_ticks(rows, stop, ticks)
    end = end_of(rows, stop)
    assert all(b.index <= stop for b in said), "nothing after level N is announced"
    starts = [b.index for b in said if b.kind != "one_minute"]
    assert starts == sorted(set(starts)), "each row start once, in order"
    assert set(starts) == {i for i in range(1, stop + 1) if end_of(rows, i - 1) <= T0 + ticks[-1]}
    for t, pos in seen:
        assert pos.index <= stop
        if t >= end:
            assert (pos.index, pos.remaining, pos.ends_at) == (stop, 0.0, None)
    if T0 + ticks[-1] >= end:
        assert anchor == tl.Anchor(stop, end - rows[stop].seconds, end)  # stopped at the very end, not at the tick
        assert tl.at_row_end(rows, anchor)
        for later in (end, end + 1, end + 86400):  # it stands there: the rows after it never start
            assert tl.position_at(rows, anchor, later).index == stop
        assert tl.next_due(rows, anchor, T0 + ticks[-1]) is None
    else:
        assert not anchor.paused


@given(with_stop(), st.integers(0, 8 * 3600))
def test_the_ticker_is_called_by_the_stop_at_the_latest(case, offset):
    """While the clock runs towards the stop, the next thing due is never after the end of level N."""
    rows, stop = case
    end = end_of(rows, stop)
    t = T0 + offset
    if t >= end:
        return
    due = tl.next_due(rows, started(rows), t, stop)
    assert due is not None and t < due <= end


def test_a_break_right_after_level_n_is_not_started():
    stop = 1  # level 2; the break follows it
    anchor = started(BASIC)
    said = tl.boundaries(BASIC, anchor, T0, T0 + 5000, stop)
    assert [(b.kind, b.index) for b in said] == [("one_minute", 0), ("level_started", 1), ("one_minute", 1)]
    stopped = tl.day_end(BASIC, anchor, T0 + 2400, stop)
    assert stopped == tl.Anchor(1, T0 + 1200, T0 + 2400)
    assert tl.day_end(BASIC, anchor, T0 + 2399.999, stop) is None
    for late in (2400, 2500, 3000, 9000):  # a late tick stops it at the same place
        assert tl.day_end(BASIC, anchor, T0 + late, stop) == stopped
        pos = tl.position_at(BASIC, stopped, T0 + late)
        assert (pos.index, pos.remaining, tl.level_in_force(BASIC, pos.index)) == (1, 0.0, 1)


def test_the_last_level_as_the_day_end_is_due_and_stops():
    last = len(BASIC) - 1
    anchor = started(BASIC)
    end = T0 + total(BASIC)
    assert tl.next_due(BASIC, anchor, end - 30) is None  # without a stop, the last row runs on
    assert tl.next_due(BASIC, anchor, end - 30, last) == end
    stopped = tl.day_end(BASIC, anchor, end + 5, last)
    assert stopped == tl.Anchor(last, end - BASIC[last].seconds, end)
    assert tl.position_at(BASIC, stopped, end + 99).finished


@given(with_stop(), st.integers(0, 3 * 86400))
def test_resuming_after_the_day_ended_goes_on_to_the_next_row_with_its_full_time(case, wait):
    rows, stop = case
    end = end_of(rows, stop)
    stopped = tl.day_end(rows, started(rows), end, stop)
    t = end + wait
    resumed = tl.resume(rows, stopped, t)
    assert not resumed.paused
    pos = tl.position_at(rows, resumed, t)
    if stop < len(rows) - 1:
        assert (pos.index, pos.remaining, pos.started_at) == (stop + 1, rows[stop + 1].seconds, t)
        # No jump: the next row is announced as starting at the resume, nothing later is skipped.
        later = tl.boundaries(rows, resumed, t, t + total(rows))
        assert all(b.index > stop + 1 or b.kind == "one_minute" for b in later)
    else:
        assert (pos.index, pos.remaining, pos.finished) == (stop, 0.0, True)


def test_a_stop_survives_the_database_microseconds():
    """Stored as datetimes (microseconds), the stopped clock still stands at its level's end and resumes into the next row."""
    stop = 1
    stopped = tl.day_end(BASIC, started(BASIC), T0 + 2400.123456789, stop)
    stored = tl.Anchor(stopped.index, *(datetime.fromtimestamp(x, tz=UTC).timestamp() for x in (stopped.started_at, stopped.paused_at)))
    assert tl.at_row_end(BASIC, stored)
    assert tl.position_at(BASIC, stored, T0 + 9999).index == stop
    assert tl.position_at(BASIC, tl.resume(BASIC, stored, T0 + 9999), T0 + 9999).index == stop + 1
    assert not tl.at_row_end(BASIC, tl.pause(BASIC, started(BASIC), T0 + 100))  # an ordinary pause is not a day end


@given(structures(), st.data(), st.integers(1, 3 * 86400), st.integers(0, 6 * 3600))
def test_a_restart_runs_on_from_the_level_and_time_left_exactly(rows, data, start_in, later):
    index = data.draw(st.sampled_from(level_rows(rows)))
    left = data.draw(st.integers(1, rows[index].seconds))
    start_at = T0 + start_in
    anchor = tl.restart(rows, index, left, start_at)
    assert anchor.paused
    for t in (T0, start_at - 1, start_at + 5):  # before it runs, it shows the level with that time left
        pos = tl.position_at(rows, anchor, t)
        assert (pos.index, pos.remaining) == (index, left)
    running = tl.resume(rows, anchor, start_at)
    began = start_at + left - rows[index].seconds
    assert tl.position_at(rows, running, start_at) == tl.Position(index, left, start_at + left, began, False)
    # From there it is the clock that started its level (row `index`) `rows[index].seconds - left` seconds before start_at.
    fresh = tl.start(rows, start_at - (rows[index].seconds - left), index)
    assert tl.position_at(rows, running, start_at + later) == tl.position_at(rows, fresh, start_at + later)


def test_a_restart_refuses_an_impossible_time_left():
    for left in (0, -1, BASIC[0].seconds + 1):
        try:
            tl.restart(BASIC, 0, left, T0)
        except ValueError:
            continue
        raise AssertionError(f"{left} seconds left accepted")
