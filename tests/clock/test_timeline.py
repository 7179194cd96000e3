"""Property tests of the pure level timeline: pause/resume/adjust algebra, positions, boundaries."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from clock.rules import timeline as tl

T0 = 1_800_000_000  # whole seconds keep float arithmetic exact, so equalities are exact


@st.composite
def structures(draw, min_rows: int = 1) -> list[tl.Row]:
    """Rows of levels and breaks (at least one level), 1 to 40 minutes each."""
    kinds = draw(st.lists(st.sampled_from([tl.LEVEL, tl.LEVEL, tl.LEVEL, tl.BREAK]), min_size=min_rows, max_size=8))
    assume(tl.LEVEL in kinds)
    minutes = draw(st.lists(st.integers(1, 40), min_size=len(kinds), max_size=len(kinds)))
    return tl.numbered(list(zip(kinds, minutes, strict=True)))


offsets = st.integers(0, 6 * 3600)  # seconds after the start
BASIC = tl.numbered([("level", 20), ("level", 20), ("break", 10), ("level", 20), ("level", 20)])


def total(rows: list[tl.Row]) -> int:
    return sum(row.seconds for row in rows)


def started(rows, index: int = 0) -> tl.Anchor:
    return tl.start(rows, T0, index)


# --- numbering and basic position -------------------------------------------------------


def test_numbered_counts_levels_and_not_breaks():
    assert [(r.kind, r.seconds, r.number) for r in BASIC] == [
        ("level", 1200, 1),
        ("level", 1200, 2),
        ("break", 600, None),
        ("level", 1200, 3),
        ("level", 1200, 4),
    ]


def test_position_walks_through_the_structure():
    anchor = started(BASIC)
    assert tl.position_at(BASIC, anchor, T0) == tl.Position(0, 1200, T0 + 1200, T0, False)
    assert tl.position_at(BASIC, anchor, T0 + 1199.5).index == 0
    assert tl.position_at(BASIC, anchor, T0 + 1200) == tl.Position(1, 1200, T0 + 2400, T0 + 1200, False)
    assert tl.position_at(BASIC, anchor, T0 + 2500) == tl.Position(2, 500, T0 + 3000, T0 + 2400, False)
    assert tl.position_at(BASIC, anchor, T0 + 3000).index == 3


def test_the_last_row_runs_on_and_nothing_more_is_due():
    anchor = started(BASIC)
    end = T0 + total(BASIC)
    before = tl.position_at(BASIC, anchor, end - 1)
    assert (before.index, before.remaining, before.finished) == (4, 1, False)
    assert tl.next_due(BASIC, anchor, end - 1) is None  # no warning, no boundary after the last level
    for later in (end, end + 1, end + 86400):
        pos = tl.position_at(BASIC, anchor, later)
        assert (pos.index, pos.remaining, pos.finished) == (4, 0.0, True)
        assert tl.next_due(BASIC, anchor, later) is None
    assert tl.boundaries(BASIC, anchor, end - 1200, end + 86400) == []


@given(structures(), offsets)
def test_finished_only_on_the_last_row_after_all_the_time(rows, offset):
    pos = tl.position_at(rows, started(rows), T0 + offset)
    assert pos.finished == (offset >= total(rows))
    if pos.finished:
        assert pos.index == len(rows) - 1 and pos.remaining == 0
        assert tl.next_due(rows, started(rows), T0 + offset) is None


def test_a_clock_needs_rows_and_real_indexes():
    with pytest.raises(ValueError):
        tl.position_at([], tl.Anchor(0, T0), T0)
    with pytest.raises(IndexError):
        tl.start(BASIC, T0, 5)
    with pytest.raises(IndexError):
        tl.jump(BASIC, started(BASIC), T0, -1)


# --- pause and resume -------------------------------------------------------------------


@given(structures(), offsets, st.integers(0, 3 * 3600), offsets)
def test_pause_then_resume_is_the_same_clock_shifted_by_the_pause(rows, t1, pause_for, later):
    anchor = started(rows)
    paused = tl.pause(rows, anchor, T0 + t1)
    assert paused.paused
    resumed = tl.resume(rows, paused, T0 + t1 + pause_for)
    assert not resumed.paused
    t = T0 + t1 + pause_for + later
    assert tl.position_at(rows, resumed, t) == _shifted(tl.position_at(rows, anchor, t - pause_for), pause_for)
    if pause_for:
        assert tl.position_at(rows, resumed, t) != tl.position_at(rows, anchor, t) or tl.position_at(rows, anchor, t).finished


def _shifted(pos: tl.Position, by: float) -> tl.Position:
    return tl.Position(pos.index, pos.remaining, None if pos.ends_at is None else pos.ends_at + by, pos.started_at + by, pos.finished)


@given(structures(), offsets, st.integers(0, 3 * 3600))
def test_a_paused_clock_stands_still(rows, t1, wait):
    paused = tl.pause(rows, started(rows), T0 + t1)
    frozen = tl.position_at(rows, paused, T0 + t1)
    assert frozen.ends_at is None
    assert tl.position_at(rows, paused, T0 + t1 + wait) == frozen
    assert frozen.remaining == tl.position_at(rows, started(rows), T0 + t1).remaining
    assert tl.next_due(rows, paused, T0 + t1) is None
    assert tl.boundaries(rows, paused, T0 + t1, T0 + t1 + wait) == []


@given(structures(), st.lists(st.tuples(st.integers(0, 1800), st.integers(0, 1800)), max_size=6), offsets)
def test_many_pauses_equal_one_shift_by_their_total(rows, steps, later):
    anchor = started(rows)
    t, paused_total = T0, 0
    for run, pause_for in steps:
        t += run
        anchor = tl.pause(rows, anchor, t)
        assert tl.pause(rows, anchor, t + 5) == anchor  # pausing a paused clock changes nothing
        t += pause_for
        paused_total += pause_for
        anchor = tl.resume(rows, anchor, t)
        assert tl.resume(rows, anchor, t + 5) == anchor  # resuming a running clock changes nothing
    check = t + later
    assert tl.position_at(rows, anchor, check) == _shifted(tl.position_at(rows, started(rows), check - paused_total), paused_total)


# --- adjust -----------------------------------------------------------------------------


@given(structures(), offsets, st.integers(1, 3600), st.booleans())
def test_adjust_plus_then_minus_is_the_identity(rows, offset, d, paused):
    anchor = started(rows)
    t = T0 + offset
    if paused:
        anchor = tl.pause(rows, anchor, t)
    before = tl.position_at(rows, anchor, t)
    assume(not before.finished)
    there_and_back = tl.adjust(rows, tl.adjust(rows, anchor, t, d), t, -d)
    assert tl.position_at(rows, there_and_back, t) == before
    assert there_and_back.paused == paused
    for later in (60, 1200, 5000):
        assert tl.position_at(rows, there_and_back, t + later) == tl.position_at(rows, anchor, t + later)


@given(structures(), offsets, st.integers(-6 * 3600, 6 * 3600).filter(lambda d: d != 0))
def test_adjust_changes_the_time_left_by_exactly_d_or_ends_the_row(rows, offset, d):
    anchor = started(rows)
    t = T0 + offset
    before = tl.position_at(rows, anchor, t)
    after = tl.position_at(rows, tl.adjust(rows, anchor, t, d), t)
    assert after.remaining >= 0
    if before.remaining + d > 0:
        assert (after.index, after.remaining) == (before.index, before.remaining + d)
    elif before.index < len(rows) - 1:
        # all the time removed: the next row starts now, with its full time (never skips a row)
        assert (after.index, after.remaining, after.started_at) == (before.index + 1, rows[before.index + 1].seconds, t)
    else:
        assert (after.index, after.remaining, after.finished) == (before.index, 0, True)


def test_adjust_to_exactly_zero_with_microsecond_times_starts_the_next_row():
    """Times from the database are microsecond floats: removing exactly what is left must end
    the row outright, not leave a sliver of it (or skip over it) through rounding."""
    for start in (1_765_432_100.123457, 1_765_432_100.999999, 1_700_000_000.000001):
        anchor = tl.start(BASIC, start)
        t = start + 17.300003
        left = tl.position_at(BASIC, anchor, t).remaining
        pos = tl.position_at(BASIC, tl.adjust(BASIC, anchor, t, -left), t)
        assert (pos.index, pos.remaining) == (1, 1200)


def test_adjust_a_paused_clock_keeps_it_paused():
    paused = tl.pause(BASIC, started(BASIC), T0 + 100)
    plus = tl.adjust(BASIC, paused, T0 + 500, 60)
    assert plus.paused and tl.position_at(BASIC, plus, T0 + 900).remaining == 1160
    ended = tl.adjust(BASIC, paused, T0 + 500, -5000)
    assert ended.paused
    pos = tl.position_at(BASIC, ended, T0 + 900)
    assert (pos.index, pos.remaining, pos.ends_at) == (1, 1200, None)


# --- positions ----------------------------------------------------------------------------


@given(structures(), st.lists(offsets, min_size=2, max_size=10))
def test_position_is_monotone_on_a_running_clock(rows, times):
    anchor = started(rows)
    positions = [tl.position_at(rows, anchor, T0 + t) for t in sorted(times)]
    for a, b in zip(positions, positions[1:], strict=False):
        assert a.index <= b.index
        if a.index == b.index:
            assert a.remaining >= b.remaining


@given(structures(), offsets)
def test_time_is_preserved_across_rows_the_clock_runs_through_breaks(rows, offset):
    """Elapsed time + time left = the sum of the rows up to the current one: no time lost at a
    break or a level change."""
    pos = tl.position_at(rows, started(rows), T0 + offset)
    through_current = sum(row.seconds for row in rows[: pos.index + 1])
    if pos.finished:
        assert offset >= through_current
    else:
        assert offset + pos.remaining == through_current
        assert pos.started_at == T0 + through_current - rows[pos.index].seconds
        assert pos.ends_at == T0 + through_current


@given(structures(), offsets, offsets)
def test_normalise_does_not_change_the_clock(rows, at, later):
    anchor = started(rows)
    moved = tl.normalise(rows, anchor, T0 + at)
    assert tl.position_at(rows, moved, T0 + at + later) == tl.position_at(rows, anchor, T0 + at + later)


@given(structures(), offsets, st.integers(0, 7), st.booleans())
def test_jump_gives_the_full_row_and_keeps_a_paused_clock_paused(rows, offset, index, paused):
    index = index % len(rows)
    anchor = started(rows)
    t = T0 + offset
    if paused:
        anchor = tl.pause(rows, anchor, t)
    jumped = tl.jump(rows, anchor, t + 30, index)
    assert jumped.paused == paused
    pos = tl.position_at(rows, jumped, t + 30 + 10)
    assert pos.index == index
    assert pos.remaining == rows[index].seconds - (0 if paused else 10)
    assert tl.jump(rows, None, t, index).paused is False


# --- levels in force and breaks -----------------------------------------------------------------


def test_level_in_force_during_a_break_is_the_next_level():
    assert [tl.level_in_force(BASIC, i) for i in range(5)] == [0, 1, 3, 3, 4]
    ends_on_break = tl.numbered([("level", 20), ("break", 10)])
    assert tl.level_in_force(ends_on_break, 1) == 0  # nothing after it: the last level before
    with pytest.raises(ValueError):
        tl.level_in_force(tl.numbered([("break", 10)]), 0)


@given(structures(), st.integers(0, 7))
def test_level_in_force_is_always_a_level(rows, index):
    index = index % len(rows)
    chosen = tl.level_in_force(rows, index)
    assert rows[chosen].kind == tl.LEVEL
    if rows[index].kind == tl.LEVEL:
        assert chosen == index
    elif any(row.kind == tl.LEVEL for row in rows[index:]):
        assert chosen > index and all(row.kind == tl.BREAK for row in rows[index:chosen])


def test_seconds_to_next_break():
    anchor = started(BASIC)
    assert tl.seconds_to_next_break(BASIC, tl.position_at(BASIC, anchor, T0)) == 2400
    assert tl.seconds_to_next_break(BASIC, tl.position_at(BASIC, anchor, T0 + 1500)) == 900
    assert tl.seconds_to_next_break(BASIC, tl.position_at(BASIC, anchor, T0 + 2500)) == 0  # on the break
    assert tl.seconds_to_next_break(BASIC, tl.position_at(BASIC, anchor, T0 + 3100)) is None  # no break left


@given(structures(), offsets)
def test_seconds_to_next_break_is_when_the_break_row_starts(rows, offset):
    anchor = started(rows)
    t = T0 + offset
    pos = tl.position_at(rows, anchor, t)
    left = tl.seconds_to_next_break(rows, pos)
    if rows[pos.index].kind == tl.BREAK:
        assert left == 0
    elif left is None:
        assert all(row.kind == tl.LEVEL for row in rows[pos.index :])
    else:
        assert tl.position_at(rows, anchor, t + left).index > pos.index
        assert rows[tl.position_at(rows, anchor, t + left).index].kind == tl.BREAK
        assert all(rows[i].kind == tl.LEVEL for i in range(pos.index, tl.position_at(rows, anchor, t + left).index))


# --- boundaries (announcements) ------------------------------------------------------------


def test_boundaries_of_the_basic_structure():
    found = tl.boundaries(BASIC, started(BASIC), T0, T0 + 10_000)
    assert [(b.kind, b.index, b.at - T0) for b in found] == [
        ("one_minute", 0, 1140),
        ("level_started", 1, 1200),
        ("one_minute", 1, 2340),
        ("break_started", 2, 2400),
        ("one_minute", 2, 2940),
        ("break_ended", 3, 3000),
        ("one_minute", 3, 4140),
        ("level_started", 4, 4200),
    ]  # and nothing for the last level: it runs on


def test_no_one_minute_warning_for_a_row_of_a_minute_or_less():
    rows = tl.numbered([("level", 1), ("level", 2), ("level", 5)])
    found = tl.boundaries(rows, started(rows), T0, T0 + 3600)
    assert [(b.kind, b.at - T0) for b in found] == [("level_started", 60), ("one_minute", 120), ("level_started", 180)]


@given(structures(), offsets, offsets, offsets)
def test_boundaries_split_at_any_middle_point_are_the_concatenation(rows, a, b, c):
    after, middle, until = (T0 + x for x in sorted((a, b, c)))
    anchor = started(rows)
    whole = tl.boundaries(rows, anchor, after, until)
    assert whole == tl.boundaries(rows, anchor, after, middle) + tl.boundaries(rows, anchor, middle, until)
    assert all(after < x.at <= until for x in whole)
    assert [x.at for x in whole] == sorted(x.at for x in whole)


@given(structures(), offsets, offsets)
def test_boundaries_after_pauses_and_adjusts_split_too(rows, a, b):
    anchor = tl.adjust(rows, tl.resume(rows, tl.pause(rows, started(rows), T0 + 100), T0 + 777), T0 + 800, 95)
    after, middle, until = T0 + 800, T0 + 800 + min(a, b), T0 + 800 + max(a, b)
    assert tl.boundaries(rows, anchor, after, until) == (
        tl.boundaries(rows, anchor, after, middle) + tl.boundaries(rows, anchor, middle, until)
    )


@given(structures(), offsets)
def test_next_due_is_the_first_boundary_after_t(rows, offset):
    anchor = started(rows)
    t = T0 + offset
    due = tl.next_due(rows, anchor, t)
    upcoming = tl.boundaries(rows, anchor, t, T0 + total(rows) + 86400)
    if due is None:
        assert upcoming == []
    else:
        assert due > t
        assert upcoming[0].at == due


@given(structures(min_rows=2), offsets)
def test_every_row_start_is_announced_once_with_its_kind(rows, offset):
    anchor = started(rows)
    found = [b for b in tl.boundaries(rows, anchor, T0 - 1, T0 + total(rows) + 1) if b.kind != "one_minute"]
    assert [b.index for b in found] == list(range(1, len(rows)))
    for b in found:
        assert b.kind == tl.boundary_kind(rows, b.index)
        assert tl.position_at(rows, anchor, b.at).index == b.index
        assert tl.position_at(rows, anchor, b.at - 0.5).index == b.index - 1
    warnings = [b for b in tl.boundaries(rows, anchor, T0 - 1, T0 + total(rows) + 1) if b.kind == "one_minute"]
    assert [b.index for b in warnings] == [i for i, row in enumerate(rows[:-1]) if row.seconds > 60]


def test_boundary_kinds():
    assert [tl.boundary_kind(BASIC, i) for i in range(1, 5)] == ["level_started", "break_started", "break_ended", "level_started"]


@settings(max_examples=50)
@given(structures(), offsets)
def test_boundaries_of_an_empty_or_reversed_span_are_none(rows, offset):
    anchor = started(rows)
    assert tl.boundaries(rows, anchor, T0 + offset, T0 + offset) == []
    assert tl.boundaries(rows, anchor, T0 + offset + 10, T0 + offset) == []
