"""Exact ICM (payouts/rules/icm.py): the guarantees as properties, checked against references written
independently here in exact arithmetic, and a published worked example."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payouts.rules.icm import MAX_PLAYERS, MAX_PRIZE_TOTAL, icm_amounts, icm_equities, largest_remainder

# ---------------------------------------------------------------- references (exact, Fractions)


def harville_order_probability(stacks: list[int], order: tuple[int, ...]) -> Fraction:
    """Malmuth-Harville: the chance of a finishing order (first place first): each next place goes
    to a player with probability their stack / the chips of those not yet placed."""
    probability = Fraction(1)
    left = sum(stacks)
    for player in order:
        probability *= Fraction(stacks[player], left)
        left -= stacks[player]
    return probability


def brute_force_equities(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """Over all finishing orders, by Malmuth-Harville as harville_order_probability above, placed one
    place at a time: the orders that share their first places share that product, and the places below
    the last prize add nothing, so the walk stops there (the same sum as over all n! orders, term by term)."""
    n = len(stacks)
    equities = [Fraction(0)] * n

    def place_next(placed: list[int], probability: Fraction, left: int) -> None:
        place = len(placed)
        if place == len(prizes):
            return
        for player in range(n):
            if player in placed:
                continue
            chance = probability * Fraction(stacks[player], left)  # these places so far, this player next
            equities[player] += chance * prizes[place]
            placed.append(player)
            place_next(placed, chance, left - stacks[player])
            placed.pop()

    place_next([], Fraction(1), sum(stacks))
    return equities


def recursive_equities(stacks: list[int], prizes: list[int]) -> list[Fraction]:
    """The textbook top-down recursion, memoised on the set of players not yet placed: exact and
    fast enough for 8 to 11 players, where n! orders are too many. Each set's equities are those of
    its own players (the others are placed already), and nothing once the prizes are all placed."""
    n = len(stacks)

    @cache
    def from_here(left: frozenset[int]) -> dict[int, Fraction]:
        place = n - len(left)
        result = dict.fromkeys(left, Fraction(0))
        if place == len(prizes):
            return result
        chips = sum(stacks[j] for j in left)
        for j in left:
            chance = Fraction(stacks[j], chips)
            result[j] += chance * prizes[place]
            for i, value in from_here(left - {j}).items():
                result[i] += chance * value
        return result

    equities = from_here(frozenset(range(n)))
    return [equities[i] for i in range(n)]


# ---------------------------------------------------------------- strategies


everyday_stack = st.integers(1, 10**7)


@st.composite
def tables(draw, min_players: int = 1, max_players: int = 10, stack=everyday_stack):
    """(stacks, prizes): a stack per player, 1..players prizes that never rise down the list."""
    players = draw(st.integers(min_players, max_players))
    stacks = draw(st.lists(stack, min_size=players, max_size=players))
    count = draw(st.integers(1, players))
    prizes = sorted(draw(st.lists(st.integers(0, 10**7), min_size=count, max_size=count)), reverse=True)
    return stacks, prizes


# Small, everyday and very uneven stacks (1 chip next to 10^15 pushes the computation to its
# safe path): every guarantee must hold for all of them.
any_stack = st.one_of(st.integers(1, 50), st.integers(1, 10**7), st.integers(10**12, 10**15))


def tolerance(prizes: list[int]) -> float:
    return 1e-9 * max(1, prizes[0])


def lowest_prize(prizes: list[int], players: int) -> int:
    return prizes[-1] if len(prizes) == players else 0


# ---------------------------------------------------------------- properties


@settings(max_examples=150, deadline=None)
@given(tables(max_players=12, stack=any_stack))
def test_equities_add_up_to_the_prizes_left(table):
    stacks, prizes = table
    equities = icm_equities(stacks, prizes)
    assert len(equities) == len(stacks)
    assert math.isclose(sum(equities), sum(prizes), rel_tol=1e-9, abs_tol=1e-9)


@settings(max_examples=150, deadline=None)
@given(tables(max_players=12, stack=any_stack))
def test_a_larger_stack_never_gets_less(table):
    stacks, prizes = table
    equities = icm_equities(stacks, prizes)
    for i in range(len(stacks)):
        for j in range(len(stacks)):
            if stacks[i] > stacks[j]:
                assert equities[i] >= equities[j] - tolerance(prizes)
            elif stacks[i] == stacks[j]:
                assert math.isclose(equities[i], equities[j], rel_tol=1e-9, abs_tol=tolerance(prizes))


@settings(max_examples=150, deadline=None)
@given(tables(max_players=12, stack=any_stack))
def test_every_equity_lies_between_the_lowest_and_the_highest_prize_left(table):
    stacks, prizes = table
    lowest = lowest_prize(prizes, len(stacks))  # fewer prizes than players: the last places pay 0
    for equity in icm_equities(stacks, prizes):
        assert lowest - tolerance(prizes) <= equity <= prizes[0] + tolerance(prizes)


@settings(max_examples=200, deadline=None)
@given(tables(max_players=7, stack=any_stack))
def test_equities_match_all_finishing_orders_up_to_seven_players(table):
    stacks, prizes = table
    expected = brute_force_equities(stacks, prizes)
    for equity, exact in zip(icm_equities(stacks, prizes), expected, strict=True):
        assert math.isclose(equity, exact, rel_tol=1e-9, abs_tol=tolerance(prizes))


@settings(max_examples=12, deadline=None)
@given(tables(min_players=8, max_players=11))
def test_equities_match_the_exact_recursion_for_eight_to_eleven_players(table):
    stacks, prizes = table
    expected = recursive_equities(stacks, prizes)
    for equity, exact in zip(icm_equities(stacks, prizes), expected, strict=True):
        assert math.isclose(equity, exact, rel_tol=1e-9, abs_tol=tolerance(prizes))


@settings(max_examples=100, deadline=None)
@given(tables(max_players=10), st.randoms(use_true_random=False))
def test_equities_follow_the_players_not_their_seats(table, random):
    stacks, prizes = table
    order = list(range(len(stacks)))
    random.shuffle(order)
    equities = icm_equities(stacks, prizes)
    shuffled = icm_equities([stacks[i] for i in order], prizes)
    for position, player in enumerate(order):
        assert math.isclose(shuffled[position], equities[player], rel_tol=1e-9, abs_tol=tolerance(prizes))


@settings(max_examples=150, deadline=None)
@given(tables(max_players=12, stack=any_stack))
def test_amounts_are_whole_units_adding_up_exactly_and_follow_the_stacks(table):
    stacks, prizes = table
    amounts = icm_amounts(stacks, prizes)
    equities = icm_equities(stacks, prizes)
    assert all(type(a) is int for a in amounts)
    assert sum(amounts) == sum(prizes)
    for amount, equity in zip(amounts, equities, strict=True):
        assert abs(amount - equity) < 1 + tolerance(prizes)  # rounded down or up, never further
    for i in range(len(stacks)):
        for j in range(len(stacks)):
            if stacks[i] > stacks[j]:
                assert amounts[i] >= amounts[j]
            elif stacks[i] == stacks[j]:
                assert abs(amounts[i] - amounts[j]) <= 1


# ---------------------------------------------------------------- worked examples


def test_published_example_wikipedia_independent_chip_model():
    """Wikipedia, "Independent Chip Model", section on the original (Malmuth-Harville) model:
    players A, B, C hold 50%, 30% and 20% of the chips; first pays 70 and second 30. It lists the
    order probabilities P[A,B,C] = 0.3, P[A,C,B] = 0.2, P[B,A,C] ~ 0.21, P[B,C,A] ~ 0.09,
    P[C,A,B] ~ 0.13, P[C,B,A] ~ 0.08 and ICM(A) ~ 45, ICM(B) ~ 32, ICM(C) ~ 22 (truncated).
    Exactly: A = 35 + 30 * (3/14 + 1/8) = 1265/28 = 45.18, B = 21 + 30 * (3/10 + 3/40) = 32.25,
    C = 14 + 30 * (1/5 + 3/35) = 158/7 = 22.57; they add up to 100."""
    stacks = [5000, 3000, 2000]
    a, b, c = 0, 1, 2
    published_orders = {(a, b, c): 0.3, (a, c, b): 0.2, (b, a, c): 0.21, (b, c, a): 0.09, (c, a, b): 0.13, (c, b, a): 0.08}
    for order, published in published_orders.items():  # the reference model is the published one
        assert abs(harville_order_probability(stacks, order) - Fraction(str(published))) <= Fraction(5, 1000)  # to 2 places
    equities = icm_equities(stacks, [70, 30])
    assert [int(e) for e in equities] == [45, 32, 22]
    assert equities == pytest.approx([Fraction(1265, 28), 32.25, Fraction(158, 7)], rel=1e-12)
    assert icm_amounts(stacks, [7000, 3000]) == [4518, 3225, 2257]  # in cents: 45.178.., 32.25, 22.571..


def test_worked_example_three_players_fifty_thirty_twenty():
    """The same stacks (5000 / 3000 / 2000) for prizes 50 / 30 / 20, by hand from the order
    probabilities above: A finishes first 1/2, second 3/14 + 1/8 = 19/56, third 9/56, so
    A = 25 + 30 * 19/56 + 20 * 9/56 = 38.392857; B: first 3/10, second 3/10 + 3/40 = 3/8, third 13/40,
    B = 15 + 11.25 + 6.5 = 32.75; C = 100 - A - B = 28.857143. (Figures like 38.49 / 32.67 / 28.84
    sometimes quoted for this table do not follow from the model.)"""
    equities = icm_equities([5000, 3000, 2000], [50, 30, 20])
    assert equities == pytest.approx([Fraction(2150, 56), 32.75, Fraction(202, 7)], rel=1e-12)
    assert [round(e, 2) for e in equities] == [38.39, 32.75, 28.86]


def test_seven_players_with_one_stack_of_ten_to_the_sixtieth():
    """So uneven that the fast scaled recursion would leave the float range: the safe path is
    taken, and still agrees with all finishing orders."""
    stacks = [10**60, 1, 2, 3, 1, 5, 1]
    prizes = [700, 500, 300, 200, 100, 50, 10]
    expected = brute_force_equities(stacks, prizes)
    equities = icm_equities(stacks, prizes)
    assert all(math.isfinite(e) for e in equities)
    for equity, exact in zip(equities, expected, strict=True):
        assert math.isclose(equity, exact, rel_tol=1e-9, abs_tol=1e-9)


@pytest.mark.parametrize("prize_count", [3, 20])
def test_twenty_equal_stacks_share_equally(prize_count):
    prizes = [10_000 - 400 * k for k in range(prize_count)]
    equities = icm_equities([1500] * MAX_PLAYERS, prizes)
    for equity in equities:
        assert equity == pytest.approx(sum(prizes) / MAX_PLAYERS, rel=1e-9)
    amounts = icm_amounts([1500] * MAX_PLAYERS, prizes)
    assert amounts == sorted(amounts, reverse=True)


def test_one_player_takes_the_prize_and_fewer_prizes_pay_the_rest_nothing():
    assert icm_equities([1234], [500]) == [500.0]
    # Two players, one prize: each wins it in proportion to their chips.
    assert icm_equities([3000, 1000], [1000]) == pytest.approx([750.0, 250.0])


# ---------------------------------------------------------------- rounding to minor units


def test_largest_remainder_rounds_down_and_gives_the_units_left_to_the_largest_fractions():
    assert largest_remainder([Fraction(2000, 3), Fraction(1000, 3), Fraction(500)], 1500) == [667, 333, 500]
    assert largest_remainder([10.25, 20.5, 30.75, 0.5], 62) == [10, 21, 31, 0]  # .75 first, then .5 (lower index)
    # Equal fractions: the higher priority first, then the lower index.
    assert largest_remainder([Fraction(1, 2)] * 2 + [Fraction(1)], 2, priority=[5, 9, 0]) == [0, 1, 1]
    assert largest_remainder([Fraction(1, 3)] * 3, 1) == [1, 0, 0]
    assert largest_remainder([0.5, 0.5], 1, priority=[1, 2]) == [0, 1]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 10**9), min_size=1, max_size=20), st.integers(1, 10**6))
def test_largest_remainder_adds_up_exactly_and_moves_nothing_by_a_unit_or_more(weights, total):
    if sum(weights) == 0:
        weights = [1] * len(weights)
    shares = [Fraction(total * w, sum(weights)) for w in weights]
    amounts = largest_remainder(shares, total)
    assert sum(amounts) == total
    for amount, share in zip(amounts, shares, strict=True):
        assert amount in (math.floor(share), math.floor(share) + 1)
        assert abs(amount - share) < 1


# ---------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("stacks", "prizes", "message"),
    [
        ([100] * (MAX_PLAYERS + 1), [10], "at most 20 players"),
        ([], [10], "no players"),
        ([100, 0, 50], [10], "must be positive"),
        ([100, -5, 50], [10], "must be positive"),
        ([100, 50.0], [10], "whole number of chips"),
        ([100, True], [10], "whole number of chips"),
        ([100, 50, 25], [10, 20], "never rise down the list"),
        ([100, 50, 25], [30, 20, 10, 5], "more prizes than players"),
        ([100, 50, 25], [], "no prizes left"),
        ([100, 50, 25], [30, -1], "negative"),
        ([100, 50, 25], [30, 2.5], "whole number of minor units"),
        ([100, 50], [MAX_PRIZE_TOTAL, 1], "more than the supported"),
    ],
)
def test_bad_input_is_refused_with_a_clear_message(stacks, prizes, message):
    with pytest.raises(ValueError, match=message):
        icm_equities(stacks, prizes)
    with pytest.raises(ValueError, match=message):
        icm_amounts(stacks, prizes)


@pytest.mark.parametrize(
    ("values", "total", "message"),
    [
        ([1.0, 2.0], 5, "not to the total"),
        ([-1.0, 2.0], 1, "finite non-negative"),
        ([math.nan, 1.0], 1, "finite non-negative"),
        ([1.0, 1.0], 2.0, "non-negative whole number"),
        ([1.0], -1, "non-negative whole number"),
    ],
)
def test_largest_remainder_refuses_shares_that_do_not_fit(values, total, message):
    with pytest.raises(ValueError, match=message):
        largest_remainder(values, total)
