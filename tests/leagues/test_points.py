"""A league's points formulas (leagues/rules/points.py): the house's choices as they read, and points that never rise
for a worse place."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leagues.rules.points import LINEAR, SQUARE_ROOT, TABLE, Formula, FormulaError, parse_table, points, shown, table_for


def test_a_points_table_gives_its_places_their_points_and_the_places_past_it_only_participation():
    formula = Formula(TABLE, table=(25, 18, 13, 9, 6, 4, 3, 2, 1), participation=2)
    assert table_for(formula, field=12) == [2700, 2000, 1500, 1100, 800, 600, 500, 400, 300, 200, 200, 200]


def test_linear_gives_the_field_minus_the_place_plus_one():
    assert points(Formula(LINEAR), field=30, place=5) == 2600  # 5th of 30: 26 points
    assert points(Formula(LINEAR), field=30, place=30) == 100


def test_square_root_gives_ten_times_the_root_of_the_field_over_the_place_to_the_hundredth():
    assert points(Formula(SQUARE_ROOT), field=30, place=1) == 5477  # 10 × √30 = 54.772...
    assert points(Formula(SQUARE_ROOT), field=30, place=5) == 2449  # 10 × √6 = 24.494...
    assert shown(5477) == "54.77" and shown(2600) == "26" and shown(2405) == "24.05"


def test_the_buy_in_factor_scales_the_places_points_but_not_participation():
    formula = Formula(LINEAR, participation=1, base_buy_in=100_000)
    assert points(formula, field=10, place=1, buy_in=200_000) == 2100  # 10 × 2 + 1
    assert points(formula, field=10, place=1, buy_in=50_000) == 600  # 10 ÷ 2 + 1
    assert points(formula, field=10, place=1, buy_in=0) == 100  # a freeroll: participation only


def test_players_sharing_a_place_range_share_the_mean_of_its_points():
    formula = Formula(TABLE, table=(10, 7, 4))
    assert points(formula, field=9, place=2, place_low=3) == 550  # (7 + 4) / 2
    assert points(formula, field=9, place=3, place_low=4) == 200  # (4 + 0) / 2


@pytest.mark.parametrize(
    "bad",
    [
        {"kind": "fibonacci"},
        {"kind": TABLE},
        {"kind": TABLE, "table": (10, 12)},
        {"kind": TABLE, "table": (10, -1)},
        {"kind": LINEAR, "table": (10,)},
        {"kind": LINEAR, "participation": -1},
        {"kind": LINEAR, "base_buy_in": 0},
    ],
)
def test_a_formula_the_house_cannot_use_is_refused_with_its_reason(bad):
    with pytest.raises(FormulaError):
        Formula(**bad)


def test_a_table_is_read_as_the_house_types_it():
    assert parse_table("25, 18;13 9") == (25, 18, 13, 9)
    with pytest.raises(FormulaError):
        parse_table("25, ten")


def test_a_place_outside_the_field_is_no_place():
    with pytest.raises(ValueError):
        points(Formula(LINEAR), field=5, place=6)
    with pytest.raises(ValueError):
        points(Formula(LINEAR), field=5, place=3, place_low=2)


formulas = st.one_of(
    st.builds(
        Formula,
        kind=st.just(TABLE),
        table=st.lists(st.integers(0, 1000), min_size=1, max_size=40).map(lambda xs: tuple(sorted(xs, reverse=True))),
        participation=st.integers(0, 50),
        base_buy_in=st.one_of(st.none(), st.integers(1, 10**6)),
    ),
    st.builds(
        Formula,
        kind=st.sampled_from([LINEAR, SQUARE_ROOT]),
        participation=st.integers(0, 50),
        base_buy_in=st.one_of(st.none(), st.integers(1, 10**6)),
    ),
)


@given(formulas, st.integers(1, 3000), st.integers(0, 10**7), st.data())
def test_points_never_rise_for_a_worse_place(formula, field, buy_in, data):
    place = data.draw(st.integers(1, field))
    worse = data.draw(st.integers(place, field))
    assert points(formula, field=field, place=worse, buy_in=buy_in) <= points(formula, field=field, place=place, buy_in=buy_in)
    assert points(formula, field=field, place=worse, buy_in=buy_in) >= formula.participation * 100


@given(formulas, st.integers(2, 500), st.integers(0, 10**6), st.data())
def test_a_shared_range_gets_between_its_best_and_its_worst_places_points(formula, field, buy_in, data):
    place = data.draw(st.integers(1, field - 1))
    low = data.draw(st.integers(place + 1, field))
    shared = points(formula, field=field, place=place, place_low=low, buy_in=buy_in)
    assert points(formula, field=field, place=low, buy_in=buy_in) <= shared <= points(formula, field=field, place=place, buy_in=buy_in)
