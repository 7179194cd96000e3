"""A season's standings (leagues/rules/standings.py): the best N results count, ties by countback, then by tournaments
played, then shared."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.rules.standings import Result, standings


def test_the_best_results_count_and_the_rest_do_not():
    results = [Result(1, 10, 1, 5000), Result(1, 11, 9, 100), Result(1, 12, 3, 2000), Result(2, 10, 2, 4000), Result(2, 11, 1, 4500)]
    rows = standings(results, best=2)
    assert [(r.player, r.rank, r.counted, r.total) for r in rows] == [(2, 1, 8500, 8500), (1, 2, 7000, 7100)]
    assert rows[1].counted_tournaments == [10, 12]
    assert [(r.player, r.counted) for r in standings(results)] == [(2, 8500), (1, 7100)]


def test_equal_points_go_by_countback_then_by_tournaments_played_then_share_the_rank():
    results = [
        Result(1, 10, 2, 1000),
        Result(1, 11, 2, 1000),  # two seconds
        Result(2, 10, 1, 1500),
        Result(2, 11, 9, 500),  # a first: ahead of two seconds
        Result(3, 12, 1, 1500),
        Result(3, 13, 9, 300),
        Result(3, 14, 9, 200),  # a first, played three
        Result(4, 12, 2, 1000),
        Result(4, 13, 2, 1000),  # as player 1
    ]
    rows = standings(results)
    assert [(r.player, r.rank) for r in rows] == [(3, 1), (2, 2), (1, 3), (4, 3)]


def test_a_season_counts_at_least_one_result():
    with pytest.raises(ValueError):
        standings([], best=0)


results = st.lists(
    st.builds(Result, player=st.integers(1, 12), tournament=st.integers(1, 8), place=st.integers(1, 30), points=st.integers(0, 5000)),
    max_size=60,
).map(lambda rs: list({(r.player, r.tournament): r for r in rs}.values()))


@given(results, st.one_of(st.none(), st.integers(1, 6)))
def test_ranks_follow_the_counted_points_and_equal_players_share_one(rs, best):
    rows = standings(rs, best=best)
    assert sorted(r.player for r in rows) == sorted({r.player for r in rs})
    for above, below in zip(rows, rows[1:], strict=False):
        assert above.counted >= below.counted
        assert below.rank == (above.rank if above.key() == below.key() else rows.index(below) + 1)
    for row in rows:
        own = sorted((r.points for r in rs if r.player == row.player), reverse=True)
        assert row.counted == sum(own if best is None else own[:best])
        assert row.counted <= row.total == sum(own)
