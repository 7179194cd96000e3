"""The pure rules of chip counts (tables/rules/chip_counts.py): a table's counts checked, stacks ranked, big blinds, and
how the counts add up against the chips in play, with property tests."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tables.rules import chip_counts as cc

CHIPS = st.integers(0, 10**9)


def test_a_table_count_names_each_problem_by_seat():
    seated = {1: 11, 3: 13, 5: 15}
    assert cc.table_count_problems(seated, {1: 100, 3: 200, 5: 0}) == []
    assert cc.table_count_problems(seated, {1: 100, 2: 50, 3: -1}) == [(cc.EMPTY_SEAT, 2), (cc.NEGATIVE, 3), (cc.MISSING, 5)]
    assert cc.table_count_problems(seated, {1: cc.MAX_CHIPS + 1, 3: 1, 5: 1}) == [(cc.TOO_MANY, 1)]
    assert cc.table_count_problems(seated, {3: 10}, whole=False) == []


@given(
    st.dictionaries(st.integers(1, 10), st.integers(1, 999), max_size=10),
    st.dictionaries(st.integers(1, 10), st.integers(-10, 10**6), max_size=10),
)
def test_counts_are_taken_only_when_every_seated_player_has_a_count_of_zero_or_more(seated, counts):
    problems = cc.table_count_problems(seated, counts)
    fine = set(counts) == set(seated) and all(0 <= c <= cc.MAX_CHIPS for c in counts.values())
    assert (problems == []) == fine
    assert [seat for _code, seat in problems] == sorted(seat for _code, seat in problems)


def test_equal_stacks_share_a_rank_and_the_next_rank_skips():
    assert cc.ranked([(3, 100), (1, 200), (2, 100), (4, 50)]) == [(1, 1, 200), (2, 2, 100), (2, 3, 100), (4, 4, 50)]


@given(st.lists(st.tuples(st.integers(1, 10_000), CHIPS), unique_by=lambda kc: kc[0], max_size=40))
def test_a_bigger_stack_is_never_ranked_below_a_smaller_one(stacks):
    rows = cc.ranked(stacks)
    assert sorted((k, c) for _r, k, c in rows) == sorted(stacks)
    for (rank_a, _ka, chips_a), (rank_b, _kb, chips_b) in zip(rows, rows[1:], strict=False):
        assert chips_a >= chips_b
        assert (rank_a == rank_b) == (chips_a == chips_b)
        assert rank_a <= rank_b
    for i, (rank, _k, chips) in enumerate(rows):
        assert rank == 1 + sum(1 for _r, _k2, other in rows if other > chips)  # ranks as the field has them
        assert rank <= i + 1


def test_big_blinds_to_one_decimal_rounded_down():
    assert cc.big_blinds(25_000, 1_000) == 25.0
    assert cc.big_blinds(9_990, 1_000) == 9.9
    assert cc.big_blinds(10_000, 0) is None


def test_the_room_adds_up_only_when_everyone_is_counted():
    full = cc.room_check([(1, 1, 100), (1, 2, 200), (2, 4, 300)], chips_in_play=600, players=3)
    assert (full.counted_total, full.not_counted, full.difference, full.flagged) == (600, 0, 0, ())
    short = cc.room_check([(1, 1, 100), (1, 2, 200), (2, 4, 250)], chips_in_play=600, players=3)
    assert short.difference == -50 and short.flagged == ()
    unseated = cc.room_check([(1, 1, 100), (1, 2, 200), (2, 4, 300)], chips_in_play=700, players=4)
    assert unseated.not_counted == 1 and unseated.difference is None


def test_the_one_table_left_to_count_knows_what_it_must_hold():
    room = cc.room_check([(1, 1, 100), (1, 2, 200), (2, 4, 150), (2, 5, None)], chips_in_play=600, players=4)
    one, two = room.tables
    assert (one.expected, one.difference, one.flagged) == (None, None, False)
    assert (two.missing, two.expected, two.difference, two.flagged) == ((5,), 300, -150, True)
    assert room.flagged == (2,) and room.difference is None
    two_open = cc.room_check([(1, 1, None), (2, 4, 150), (2, 5, None)], chips_in_play=600, players=3)
    assert [t.expected for t in two_open.tables] == [None, None]
    assert two_open.flagged == (1, 2)


@given(
    st.lists(st.tuples(st.integers(1, 6), st.integers(1, 10), st.one_of(st.none(), CHIPS)), max_size=30, unique_by=lambda r: (r[0], r[1])),
    st.integers(0, 5),
    CHIPS,
)
def test_the_counts_add_up_in_one_way(seats, unseated, chips_in_play):
    players = len(seats) + unseated
    room = cc.room_check(seats, chips_in_play=chips_in_play, players=players)
    counted = [c for _t, _s, c in seats if c is not None]
    assert room.counted_total == sum(counted)
    assert room.not_counted == players - len(counted)
    assert (room.difference is None) == (room.not_counted > 0)
    if room.difference is not None:
        assert room.difference == sum(counted) - chips_in_play
    assert sum(t.total for t in room.tables) == room.counted_total
    for check in room.tables:
        assert check.counted + len(check.missing) == check.players
        assert check.flagged == (bool(check.missing) or bool(check.difference))
        if check.expected is not None:  # the one table left: the rest of the room counted
            assert room.not_counted == len(check.missing) > 0
            assert check.expected + (room.counted_total - check.total) == chips_in_play
