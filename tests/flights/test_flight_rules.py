"""The pure rules of an event with flights (flights/flight_rules.py): which bags go on by the stack policy, and when a
flight ends by the share of its field left. Property tests over random bags and fields."""
from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flights import flight_rules as fr

bags = st.lists(st.tuples(st.integers(1, 8), st.integers(0, 3), st.integers(1, 10**9)), max_size=40).map(
    lambda rows: [fr.Bagged(player, order, entry, chips) for entry, (player, order, chips) in enumerate(rows, 1)])


@given(bags, st.sampled_from(fr.POLICIES))
def test_each_player_goes_on_once_and_every_bag_is_carried_or_forfeited(found, policy):
    carried, forfeited = fr.going_on(found, policy)
    assert sorted(b.player for b in carried) == sorted({b.player for b in found})
    assert sorted(map(id, carried + forfeited)) == sorted(map(id, found))
    assert sum(b.chips for b in carried) + sum(b.chips for b in forfeited) == sum(b.chips for b in found)


@given(bags)
def test_best_stack_forward_keeps_the_largest_bag_ties_by_the_earliest_flight(found):
    carried, _forfeited = fr.going_on(found, fr.BEST)
    for bag in carried:
        mine = [b for b in found if b.player == bag.player]
        assert bag.chips == max(b.chips for b in mine)
        assert bag.order == min(b.order for b in mine if b.chips == bag.chips)


@given(bags)
def test_first_stack_forward_keeps_the_earliest_flights_bag(found):
    carried, _forfeited = fr.going_on(found, fr.FIRST)
    for bag in carried:
        assert bag.order == min(b.order for b in found if b.player == bag.player)


def test_a_tie_of_stacks_goes_to_the_earlier_flight_and_an_unknown_policy_is_refused():
    early, late = fr.Bagged(1, 0, 10, 5000), fr.Bagged(1, 1, 4, 5000)
    assert fr.going_on([late, early], fr.BEST) == ([early], [late])
    with pytest.raises(ValueError):
        fr.going_on([early], "most")


@given(st.integers(0, 5000), st.integers(0, 5000), st.integers(1, 99))
def test_the_share_rule_is_exact_in_whole_numbers_and_never_ends_an_empty_flight(entries, left, percent):
    left = min(left, entries)
    threshold = fr.share_threshold(entries, percent)
    assert threshold >= 1 and threshold == max(1, entries * percent // 100)
    reached = fr.share_reached(entries, left, percent)
    assert reached == (left > 0 and (left * 100 <= entries * percent or left == 1))


@pytest.mark.parametrize("entries, percent, threshold", [(1000, 15, 150), (333, 15, 49), (5, 10, 1), (0, 50, 1)])
def test_the_threshold_is_rounded_down_and_at_least_one(entries, percent, threshold):
    assert fr.share_threshold(entries, percent) == threshold


@pytest.mark.parametrize("value, ok", [(1, True), (99, True), (0, False), (100, False), (True, False), ("5", False)])
def test_a_share_is_a_whole_percentage_from_1_to_99(value, ok):
    assert fr.valid_percent(value) is ok
