"""Finishing places to prizes (payouts/rules/prizes.py): ties split their places' prizes, odd units by the
tie's order, the next pay jump."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from payouts.rules.prizes import Finisher, next_pay_jump, prize_of_places, split

PRIZES = [5000, 3000, 2001, 1000, 1000, 1000]


def test_each_place_gets_its_prize_and_places_outside_the_money_nothing():
    won = split(PRIZES, [Finisher(11, 1, 1), Finisher(12, 2, 2), Finisher(13, 7, 7)])
    assert won == {11: 5000, 12: 3000, 13: 0}


def test_tied_players_split_the_prizes_of_their_places_and_the_odd_unit_goes_by_the_tie_s_order():
    tie = [Finisher(21, 2, 3), Finisher(22, 2, 3)]
    assert prize_of_places(PRIZES, 2, 3) == 5001
    assert split(PRIZES, tie) == {21: 2501, 22: 2500}  # no order drawn: by entry number
    assert split(PRIZES, tie, {(2, 3): [22, 21]}) == {22: 2501, 21: 2500}
    assert split(PRIZES, tie, {(2, 3): [22, 99]}) == {21: 2501, 22: 2500}  # an order naming others is no order


def test_a_tie_across_the_bubble_shares_what_the_paid_places_pay():
    assert split(PRIZES, [Finisher(1, 6, 7), Finisher(2, 6, 7)]) == {1: 500, 2: 500}


def test_a_place_range_must_run_downwards():
    with pytest.raises(ValueError):
        prize_of_places(PRIZES, 3, 2)


@given(
    st.lists(st.integers(1, 10_000), min_size=1, max_size=30).map(lambda xs: sorted(xs, reverse=True)),
    st.integers(1, 30),
    st.integers(1, 6),
    st.randoms(),
)
def test_a_tie_pays_exactly_its_places_and_nobody_in_it_more_than_one_unit_above_another(prizes, place, size, rng):
    low = place + size - 1
    entries = list(range(100, 100 + size))
    order = entries[:]
    rng.shuffle(order)
    won = split(prizes, [Finisher(e, place, low) for e in entries], {(place, low): order})
    assert sum(won.values()) == prize_of_places(prizes, place, low)
    assert max(won.values()) - min(won.values()) <= 1
    assert [won[e] for e in order] == sorted(won.values(), reverse=True)  # the odd units to the first drawn


def test_the_next_pay_jump_is_the_bubble_then_each_step_up():
    prizes = [5000, 3000, 2000, 1000, 1000, 1000]
    assert next_pay_jump(prizes, 9) == (6, 1000)  # the bubble: six paid
    assert next_pay_jump(prizes, 7) == (6, 1000)
    assert next_pay_jump(prizes, 6) == (3, 2000)  # in the money: 4-6 pay the same
    assert next_pay_jump(prizes, 3) == (2, 3000)
    assert next_pay_jump(prizes, 1) is None
    assert next_pay_jump([], 5) is None
