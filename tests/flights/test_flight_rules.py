"""The pure rules of an event with flights (flights/rules/flights.py): which bags go on by the stack policy, and when a
flight ends by the share of its field left. Property tests over random bags and fields."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flights.rules import flights as fr

bags = st.lists(st.tuples(st.integers(1, 8), st.integers(0, 3), st.integers(1, 10**9)), max_size=40).map(
    lambda rows: [fr.Bagged(player, order, entry, chips) for entry, (player, order, chips) in enumerate(rows, 1)]
)


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


fields = st.lists(st.tuples(st.integers(0, 5000), st.integers(1, 99)), min_size=1, max_size=8)


@given(fields)
def test_the_share_rules_send_on_the_sum_of_the_thresholds_at_least_one_a_flight_never_more_than_entered(flights):
    sent = fr.players_sent_on(flights)
    assert sent == sum(fr.share_threshold(entries, percent) for entries, percent in flights)
    assert sent >= len(flights)  # a share that rounds to nobody still sends its last player
    assert sent <= sum(max(1, entries) for entries, _percent in flights)


@given(fields, st.data())
def test_a_flight_without_a_share_rule_makes_the_players_sent_on_unknown_and_nothing_is_warned(flights, data):
    i = data.draw(st.integers(0, len(flights) - 1))
    unknown = [*flights[:i], (flights[i][0], data.draw(st.sampled_from([None, 0]))), *flights[i + 1 :]]
    assert fr.players_sent_on(unknown) is None
    assert not fr.pays_beyond_sent_on(data.draw(st.integers(0, 10**6)), fr.players_sent_on(unknown))
    assert fr.players_sent_on([]) is None


@given(fields, st.integers(0, 20_000))
def test_the_warning_is_exactly_places_paid_beyond_the_players_sent_on(flights, places):
    sent = fr.players_sent_on(flights)
    assert fr.pays_beyond_sent_on(places, sent) is (places > sent)
    assert not fr.pays_beyond_sent_on(None, sent)


@given(fields, st.data())
def test_raising_a_share_never_raises_the_warning_and_enough_share_clears_it(flights, data):
    i = data.draw(st.integers(0, len(flights) - 1))
    entries, percent = flights[i]
    raised = [*flights[:i], (entries, data.draw(st.integers(percent, 99))), *flights[i + 1 :]]
    assert fr.players_sent_on(raised) >= fr.players_sent_on(flights)
    places = data.draw(st.integers(0, fr.players_sent_on([(e, 99) for e, _p in flights])))
    if not fr.pays_beyond_sent_on(places, fr.players_sent_on(flights)):
        assert not fr.pays_beyond_sent_on(places, fr.players_sent_on(raised))
    assert not fr.pays_beyond_sent_on(places, fr.players_sent_on([(e, 99) for e, _p in flights]))


def test_three_flights_of_100_ending_at_5_percent_send_15_so_30_places_paid_leave_15_unpaid():
    flights = [(100, 5)] * 3
    assert fr.players_sent_on(flights) == 15
    assert fr.pays_beyond_sent_on(30, 15) and fr.pays_beyond_sent_on(16, 15) and not fr.pays_beyond_sent_on(15, 15)
    assert fr.players_sent_on([(100, 10)] * 3) == 30 and not fr.pays_beyond_sent_on(30, 30)
    assert fr.players_sent_on([(100, 5), (100, 5), (100, None)]) is None
