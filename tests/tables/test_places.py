"""Places of players busted in the same hand (tables/rules/places.py, pure)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tables.rules.places import STACK, TIE, Bust, rank


def test_at_one_table_the_larger_starting_stack_finishes_higher():
    # Two players out in one hand with 12 players left: places 11 and 12.
    got = rank([Bust(1, 5, 8_000), Bust(2, 5, 20_000)], best_place=11)
    assert got == {2: (11, 11), 1: (12, 12)}


def test_at_one_table_equal_stacks_tie():
    got = rank([Bust(1, 5, 10_000), Bust(2, 5, 10_000), Bust(3, 5, 30_000)], best_place=8)
    assert got[3] == (8, 8)
    assert got[1] == got[2] == (9, 10)


def test_hand_for_hand_players_at_different_tables_tie():
    got = rank([Bust(1, 3, 50_000), Bust(2, 7, 4_000)], best_place=19, across_tables=TIE)
    assert got == {1: (19, 20), 2: (19, 20)}


def test_hand_for_hand_by_starting_stack_as_a_house_setting():
    got = rank([Bust(1, 3, 50_000), Bust(2, 7, 4_000), Bust(3, 9, 4_000)], best_place=18, across_tables=STACK)
    assert got == {1: (18, 18), 2: (19, 20), 3: (19, 20)}


def test_hand_for_hand_mixed_tables_tie_by_depth_within_each_table():
    # Table 1: A 5,000 and B 3,000 bust; table 2: C 40,000 busts. B and C are each the smallest
    # stack out at their table: they tie for the two lowest places; A, above B at its table, is next.
    got = rank([Bust("A", 1, 5_000), Bust("B", 1, 3_000), Bust("C", 2, 40_000)], best_place=8)
    assert got == {"B": (9, 10), "C": (9, 10), "A": (8, 8)}


def test_bad_input_is_refused():
    with pytest.raises(ValueError):
        rank([Bust(1, 1, 5), Bust(1, 2, 6)], 3)
    with pytest.raises(ValueError):
        rank([Bust(1, 1, -5)], 3)
    with pytest.raises(ValueError):
        rank([Bust(1, 1, 5)], 3, across_tables="coin")


busts = st.lists(st.tuples(st.integers(1, 4), st.integers(0, 6)), min_size=1, max_size=12)


@given(busts, st.integers(1, 500), st.sampled_from([TIE, STACK]))
def test_places_cover_the_block_and_respect_the_stacks(items, best, rule):
    group = [Bust(i, table, stack * 1000) for i, (table, stack) in enumerate(items)]
    got = rank(group, best, rule)
    # Every place of the block is taken exactly once, counting each tie over its range.
    counts: dict[tuple[int, int], int] = {}
    for span in got.values():
        counts[span] = counts.get(span, 0) + 1
    assert all(high + counts[(high, low)] - 1 == low for high, low in counts)
    assert sorted(p for high, low in counts for p in range(high, low + 1)) == list(range(best, best + len(group)))
    for a in group:
        for b in group:
            comparable = a.table == b.table or rule == STACK
            if comparable and a.stack > b.stack:
                assert got[a.key][1] < got[b.key][0], "a larger stack finishes higher"
            if comparable and a.stack == b.stack:
                assert got[a.key] == got[b.key], "equal stacks tie"
