"""Payout structures (payouts.rules.payout_structure): each guarantee as a property over fields of 2 to 20,000
entries with varied pools, buy-ins, units and house settings; worked examples; bad input; house tables
(validation, rounding per docs/rules.md "Payout rounding", JSON round trip)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from payouts.rules import house_tables as ht
from payouts.rules import payout_structure as ps
from payouts.rules.house_tables import (
    HouseBand,
    house_table_from_data,
    house_table_from_json,
    house_table_payouts,
    house_table_to_data,
    house_table_to_json,
    validate_house_table,
)
from payouts.rules.payout_structure import (
    DEFAULT_RULES,
    REASON_EMPTY_POOL,
    REASON_MIN_CASH,
    REASON_POOL_BELOW_MIN_CASH,
    REASON_TABLE_ROUNDING,
    PayoutRules,
    PayoutStructure,
    min_cash,
    payout_structure,
    places_wanted,
)

CZK = 100  # minor units (haléře) per crown
UNITS = (1, 100, 500, 1_000, 10_000, 50_000)
PROPERTY = settings(max_examples=300, deadline=None)


@dataclass(frozen=True)
class Case:
    pool: int
    entries: int
    buy_in: int
    rules: PayoutRules

    def structure(self) -> PayoutStructure:
        return payout_structure(self.pool, self.entries, self.buy_in, self.rules)


@st.composite
def cases(draw, buy_in_on_grid: bool = False, realistic_pool: bool = False) -> Case:
    """A tournament: 2..20,000 entries, any unit, a buy-in on or off the unit grid, a pool that is the
    entries' buy-ins (the usual case), those plus an overlay or add-ons, or anything at all."""
    entries = draw(st.integers(2, 20_000))
    unit = draw(st.one_of(st.sampled_from(UNITS), st.integers(1, 100_000)))
    if buy_in_on_grid:
        buy_in = unit * draw(st.integers(0, 300))
    else:
        buy_in = draw(st.one_of(st.integers(0, 300).map(lambda n: n * unit), st.integers(0, 3_000_000), st.integers(0, unit)))
    pools = [st.just(entries * buy_in), st.integers(0, 20 * entries * max(buy_in, 1)).map(lambda extra: entries * buy_in + extra)]
    if not realistic_pool:
        pools.append(st.integers(0, 10**11))
    pool = draw(st.one_of(*pools))
    share = Fraction(draw(st.integers(1, 10_000)), 10_000)
    multiple = Fraction(draw(st.integers(0, 40)), 8)
    return Case(pool, entries, buy_in, PayoutRules(share, multiple, unit))


def paid_prizes(structure: PayoutStructure) -> list[int]:
    prizes = list(structure.prizes())
    assert len(prizes) == structure.places_paid
    return prizes


# ---------------------------------------------------------------------------------------------------
# The guarantees, one property each


@PROPERTY
@given(cases())
def test_prizes_add_up_to_the_pool_exactly(case):
    structure = case.structure()
    prizes = paid_prizes(structure)
    assert all(isinstance(prize, int) for prize in prizes)
    assert sum(prizes) == case.pool == structure.total
    # The bands cover places 1..places_paid without gaps, and prize_for_place agrees with them.
    if structure.bands:
        assert structure.bands[0].first_place == 1 and structure.bands[-1].last_place == structure.places_paid
    for above, below in zip(structure.bands, structure.bands[1:], strict=False):
        assert below.first_place == above.last_place + 1
    for place in {1, 2, structure.places_paid, structure.places_paid + 1, (structure.places_paid + 1) // 2}:
        if place >= 1:
            assert structure.prize_for_place(place) == (prizes[place - 1] if place <= len(prizes) else 0)


@PROPERTY
@given(cases())
def test_no_prize_is_higher_than_the_one_above(case):
    structure = case.structure()
    prizes = paid_prizes(structure)
    assert all(above >= below for above, below in zip(prizes, prizes[1:], strict=False))
    # Bands list runs of equal prizes, so from band to band the prize falls strictly.
    assert all(above.prize > below.prize for above, below in zip(structure.bands, structure.bands[1:], strict=False))
    assert all(prize > 0 for prize in prizes)


@PROPERTY
@given(cases())
def test_every_prize_but_first_is_on_the_unit_grid_and_first_carries_the_pools_remainder(case):
    structure = case.structure()
    prizes = paid_prizes(structure)
    unit = case.rules.unit
    assert all(prize % unit == 0 for prize in prizes[1:])
    if prizes:
        assert prizes[0] % unit == case.pool % unit
        assert (prizes[0] - structure.remainder) % unit == 0


@PROPERTY
@given(cases())
def test_every_prize_is_at_least_the_min_cash_or_fewer_places_are_paid_and_the_result_says_so(case):
    structure = case.structure()
    prizes = paid_prizes(structure)
    unit, multiple = case.rules.unit, case.rules.min_cash_multiple
    minimum = structure.min_cash
    assert minimum % unit == 0 and minimum >= unit and minimum >= multiple * case.buy_in
    assert minimum == unit or minimum - unit < multiple * case.buy_in  # rounded UP to the unit, no further
    assert structure.places_wanted == places_wanted(case.entries, case.rules.share_paid)
    assert structure.places_paid <= structure.places_wanted
    if structure.reason is None:
        assert structure.places_paid == structure.places_wanted
        assert all(prize >= minimum for prize in prizes)
    elif structure.reason == REASON_MIN_CASH:
        assert all(prize >= minimum for prize in prizes)
        assert structure.places_paid < structure.places_wanted
        assert (structure.places_paid + 1) * minimum > case.pool  # one more place could not get the minimum
    elif structure.reason == REASON_POOL_BELOW_MIN_CASH:
        assert 0 < case.pool < minimum and prizes == [case.pool]
    else:
        assert structure.reason == REASON_EMPTY_POOL and case.pool == 0 and prizes == []


@PROPERTY
@given(cases(buy_in_on_grid=True))
def test_the_rounding_remainder_on_first_is_at_most_one_unit_when_the_buy_in_is_on_the_grid(case):
    structure = case.structure()
    if not structure.bands:
        return
    first, unit = structure.first_prize, case.rules.unit
    assert structure.remainder == case.pool % unit
    assert 0 <= structure.remainder <= max(unit, first * Fraction(5, 1000))
    # First place is its value on the curve fitted to the rounded total, to within one unit (the rounding
    # is apportioned over the places, not dumped on first), plus the remainder.
    assert first - structure.remainder - structure.first_place_curve < unit


@PROPERTY
@given(cases())
def test_the_remainder_on_first_for_any_buy_in(case):
    """Off the grid, each entry of the run brings its part below one unit to first place (rule 6)."""
    structure = case.structure()
    if not structure.bands:
        return
    unit = case.rules.unit
    assert 0 <= structure.remainder < unit + structure.entries_since_change * (case.buy_in % unit)
    assert structure.remainder % unit == case.pool % unit
    assert structure.first_prize - structure.remainder - structure.first_place_curve < unit


@settings(max_examples=100, deadline=None)
@given(st.integers(60, 20_000), st.sampled_from([100, 1_000, 10_000]), st.integers(10, 100))
def test_the_rounding_is_fitted_so_first_place_keeps_its_curve_share(entries, unit, buy_in_units):
    """At the start of a run, first place is within 0.5% (or, in small pools, ten units) of the curve's
    target share of the pool: the groups' rounding is handed back to the groups (largest remainder), not
    piled on the final table (which would put a big field's first place about 3% above its share)."""
    buy_in = buy_in_units * unit
    structure = payout_structure(entries * buy_in, entries, buy_in, PayoutRules(unit=unit))
    entries -= structure.entries_since_change  # the first entry of this run
    structure = payout_structure(entries * buy_in, entries, buy_in, PayoutRules(unit=unit))
    assert structure.entries_since_change == 0 and structure.method == ps.METHOD_CURVE
    target = ps.FIRST_SHARE_SCALE * structure.places_paid**-ps.FIRST_SHARE_EXPONENT * structure.pool
    assert abs(structure.first_prize - target) <= max(structure.first_prize * 0.005, 10 * unit)


@PROPERTY
@given(cases(), st.integers(1, 6))
def test_more_entries_with_the_same_places_paid_never_lower_any_prize(case, more):
    before = case.structure()
    after = payout_structure(case.pool + more * case.buy_in, case.entries + more, case.buy_in, case.rules)
    if after.places_paid == before.places_paid:
        assert all(new >= old for old, new in zip(before.prizes(), after.prizes(), strict=True))


@pytest.mark.parametrize(
    ("buy_in", "unit", "overlay"),
    [
        (100_000, 10_000, 0),  # 1,000 CZK, rounded to 100 CZK
        (50_000, 10_000, 0),  # 500 CZK: an entry adds 5 units, less than a group of nine needs
        (15_000, 10_000, 0),  # 150 CZK: off the grid
        (5_000, 10_000, 3_000_000),  # below one unit, with an overlay
        (0, 100, 5_000_000),  # a freeroll with a sponsored pool
    ],
)
def test_entry_by_entry_no_prize_falls_while_the_places_paid_stay(buy_in, unit, overlay):
    rules = PayoutRules(unit=unit)
    compared = 0
    for start, stop in ((2, 400), (4_990, 5_030), (19_960, 20_000)):
        previous = payout_structure(start * buy_in + overlay, start, buy_in, rules)
        for entries in range(start + 1, stop + 1):
            current = payout_structure(entries * buy_in + overlay, entries, buy_in, rules)
            if current.places_paid == previous.places_paid:
                compared += 1
                assert all(new >= old for old, new in zip(previous.prizes(), current.prizes(), strict=True)), entries
            previous = current
    assert compared > 300  # the property was exercised, not skipped


@PROPERTY
@given(cases())
def test_the_output_is_deterministic(case):
    first = case.structure()
    payout_structure(case.pool + 1, case.entries + 1, case.buy_in, case.rules)  # no state carried between calls
    second = case.structure()
    assert first == second
    assert first.prizes() == second.prizes()


@PROPERTY
@given(cases())
def test_final_table_one_by_one_then_groups_of_nine_with_equal_prizes(case):
    structure = case.structure()
    prizes = paid_prizes(structure)
    for first in range(10, len(prizes) + 1, 9):
        group = prizes[first - 1 : first + 8]
        assert len(set(group)) == 1, (first, group)
    for band in structure.bands:
        assert band.first_place <= 10 or (band.first_place - 10) % 9 == 0
        assert band.last_place <= 9 or (band.last_place - 9) % 9 == 0 or band.last_place == structure.places_paid


@settings(max_examples=80, deadline=None)
@given(st.integers(50, 20_000), st.sampled_from([10_000, 50_000, 100_000, 500_000]))
def test_first_place_gets_a_sensible_share_with_the_house_defaults(entries, buy_in):
    structure = payout_structure(entries * buy_in, entries, buy_in, PayoutRules(unit=min(buy_in // 10, 10_000)))
    share = Fraction(structure.first_prize, structure.pool)
    assert Fraction(10, 100) <= share <= Fraction(35, 100)
    assert structure.first_prize > structure.prize_for_place(2)  # the money allows strictly more for the winner


# ---------------------------------------------------------------------------------------------------
# Worked examples


def test_100_entries_of_1000_czk():
    rules = PayoutRules(unit=100 * CZK)  # round to 100 CZK; 15% paid; minimum cash 1.5 buy-ins
    structure = payout_structure(100 * 1_000 * CZK, 100, 1_000 * CZK, rules)
    prizes = paid_prizes(structure)
    assert structure.places_wanted == structure.places_paid == 15 and structure.reason is None
    assert structure.min_cash == 1_500 * CZK
    assert sum(prizes) == 100_000 * CZK
    assert min(prizes) >= 1_500 * CZK
    assert all(prize % (100 * CZK) == 0 for prize in prizes)
    assert structure.method == ps.METHOD_CURVE
    assert 0.2 < structure.first_prize / structure.pool < 0.35  # 27,400 CZK: 27.4%
    # The final table one by one, places 10-15 one group.
    assert [(band.first_place, band.last_place) for band in structure.bands] == [(n, n) for n in range(1, 10)] + [(10, 15)]
    assert structure.prize_for_place(16) == 0
    assert structure.remainder == 0


def test_20000_entries_of_1000_czk():
    """The largest field (its time is bench/payouts.py's figure, target < 5 ms)."""
    rules = PayoutRules(unit=100 * CZK)
    structure = payout_structure(20_000 * 1_000 * CZK, 20_000, 1_000 * CZK, rules)
    prizes = paid_prizes(structure)
    assert structure.places_paid == 3_000 and sum(prizes) == structure.pool
    assert prizes[-1] >= 1_500 * CZK
    assert 0.10 < structure.first_prize / structure.pool < 0.14
    assert [(band.first_place, band.last_place) for band in structure.bands[9:12]] == [(10, 18), (19, 27), (28, 36)]


def test_small_fields_use_the_standard_table():
    rules = PayoutRules(unit=CZK)
    assert payout_structure(2 * 500 * CZK, 2, 500 * CZK, rules).prizes() == (1_000 * CZK,)  # winner takes all
    assert payout_structure(9 * 500 * CZK, 9, 500 * CZK, rules).prizes() == (4_500 * CZK,)
    # 10 entries: 2 paid, 65/35 exactly; 17 entries: 3 paid, 50/30/20 exactly (the first entries of their runs).
    assert payout_structure(10 * 1_000 * CZK, 10, 1_000 * CZK, rules).prizes() == (6_500 * CZK, 3_500 * CZK)
    assert payout_structure(17 * 1_000 * CZK, 17, 1_000 * CZK, rules).prizes() == (8_500 * CZK, 5_100 * CZK, 3_400 * CZK)
    # 4 paid: 40/27/19/14.
    four = payout_structure(21 * 1_000 * CZK, 21, 1_000 * CZK, PayoutRules(share_paid=Fraction(1, 6), unit=CZK))
    assert four.prizes() == (8_400 * CZK, 5_670 * CZK, 3_990 * CZK, 2_940 * CZK)
    assert four.method == ps.METHOD_STANDARD_TABLE


def test_the_standard_table_lifts_places_below_the_min_cash():
    # 5 paid at a minimum cash of 5 buy-ins: 9% of 30 buy-ins is 2.7 buy-ins, so fifth gets the minimum.
    rules = PayoutRules(share_paid=Fraction(1, 6), min_cash_multiple=Fraction(5), unit=CZK)
    structure = payout_structure(30 * 100 * CZK, 30, 100 * CZK, rules)
    prizes = paid_prizes(structure)
    assert structure.places_paid == 5 and structure.reason is None
    assert prizes[-1] == 500 * CZK and sum(prizes) == 3_000 * CZK
    assert prizes[0] < 35 * 30 * CZK  # the places above gave up part of their share


def test_the_pool_limits_the_places_paid_at_the_min_cash():
    # A sponsored pool of 9,000 CZK for 100 entries of 1,000 CZK: 15 places wanted, 6 affordable at 1,500 CZK.
    structure = payout_structure(9_000 * CZK, 100, 1_000 * CZK, PayoutRules(unit=100 * CZK))
    assert (structure.places_wanted, structure.places_paid, structure.reason) == (15, 6, REASON_MIN_CASH)
    assert structure.prizes() == (1_500 * CZK,) * 6


def test_a_pool_below_one_min_cash_pays_one_place_and_an_empty_pool_nobody():
    below = payout_structure(1_000 * CZK, 10, 1_000 * CZK, DEFAULT_RULES)
    assert (below.places_paid, below.reason, below.prizes()) == (1, REASON_POOL_BELOW_MIN_CASH, (1_000 * CZK,))
    empty = payout_structure(0, 10, 1_000 * CZK, DEFAULT_RULES)
    assert (empty.places_paid, empty.reason, empty.bands, empty.total) == (0, REASON_EMPTY_POOL, (), 0)
    assert empty.prize_for_place(1) == 0


def test_a_pool_off_the_grid_puts_its_remainder_on_first_only():
    rules = PayoutRules(unit=100 * CZK)
    structure = payout_structure(100 * 1_000 * CZK + 4_321, 100, 1_000 * CZK, rules)
    prizes = paid_prizes(structure)
    assert structure.remainder == 4_321
    assert prizes[0] % (100 * CZK) == 4_321 and all(prize % (100 * CZK) == 0 for prize in prizes[1:])
    assert sum(prizes) == structure.pool


def test_places_wanted_and_min_cash():
    assert places_wanted(100, Fraction(15, 100)) == 15
    assert places_wanted(10, Fraction(15, 100)) == 2  # 1.5 rounds half up
    assert places_wanted(9, Fraction(15, 100)) == 1
    assert places_wanted(2, Fraction(15, 100)) == 1
    assert places_wanted(20_000, Fraction(15, 100)) == 3_000
    assert places_wanted(7, Fraction(1)) == 7
    assert min_cash(1_000 * CZK, PayoutRules(unit=100 * CZK)) == 1_500 * CZK
    assert min_cash(1_050 * CZK, PayoutRules(unit=100 * CZK)) == 1_600 * CZK  # 1,575 rounds UP
    assert min_cash(0, PayoutRules(unit=100 * CZK)) == 100 * CZK  # never below one unit
    assert PayoutRules.from_basis_points(2_000, 20_000, 500) == PayoutRules(Fraction(1, 5), Fraction(2), 500)


# ---------------------------------------------------------------------------------------------------
# Bad input


@pytest.mark.parametrize(
    ("call", "message"),
    [
        (lambda: payout_structure(-1, 10, 100), "prize pool must not be negative"),
        (lambda: payout_structure(1_000, 0, 100), "at least one entry"),
        (lambda: payout_structure(1_000, 10, -5), "must not be negative"),
        (lambda: payout_structure(1_000.0, 10, 100), "pool must be a whole number"),
        (lambda: payout_structure(True, 10, 100), "pool must be a whole number"),
        (lambda: payout_structure(1_000, "10", 100), "entries must be a whole number"),
        (lambda: payout_structure(1_000, 10, 100, rules="default"), "rules must be PayoutRules"),
        (lambda: PayoutRules(unit=0), "rounding unit must be at least 1"),
        (lambda: PayoutRules(unit=-100), "rounding unit must be at least 1"),
        (lambda: PayoutRules(share_paid=Fraction(0)), "share_paid must be more than 0"),
        (lambda: PayoutRules(share_paid=Fraction(3, 2)), "at most 1"),
        (lambda: PayoutRules(share_paid=0.15), "floats are not exact"),
        (lambda: PayoutRules(min_cash_multiple=Fraction(-1, 2)), "min_cash_multiple must not be negative"),
        (lambda: PayoutRules.from_basis_points(0), "at least 1 basis point"),
        (lambda: places_wanted(0, Fraction(15, 100)), "at least one entry"),
        (lambda: payout_structure(1_000, 10, 100).prize_for_place(0), "numbered from 1"),
    ],
)
def test_bad_input_raises_a_clear_value_error(call, message):
    with pytest.raises(ValueError, match=message):
        call()


# ---------------------------------------------------------------------------------------------------
# House tables

CLUB_TABLE = [
    (2, 7, [10_000]),
    (8, 15, [6_500, 3_500]),
    (16, 30, [5_000, 3_000, 2_000]),
    (31, 60, [4_000, 2_700, 1_900, 1_400]),
    (61, 200, [3_500, 2_500, 1_800, 1_300, 900]),
]


def test_house_table_pays_its_band_exactly():
    structure = house_table_payouts(40 * 1_000 * CZK, 40, CLUB_TABLE, 100 * CZK)
    assert structure.prizes() == (16_000 * CZK, 10_800 * CZK, 7_600 * CZK, 5_600 * CZK)
    assert (structure.places_wanted, structure.places_paid, structure.reason, structure.method) == (4, 4, None, ps.METHOD_HOUSE_TABLE)
    assert structure.remainder == 0


@PROPERTY
@given(st.integers(2, 200), st.integers(0, 10**10), st.one_of(st.sampled_from(UNITS), st.integers(1, 100_000)))
def test_house_table_rounds_each_prize_down_and_gives_the_remainder_to_first(entries, pool, unit):
    structure = house_table_payouts(pool, entries, CLUB_TABLE, unit)
    percentages = ht.house_table_band(CLUB_TABLE, entries).percentages_bp
    prizes = paid_prizes(structure)
    assert sum(prizes) == pool
    assert all(above >= below for above, below in zip(prizes, prizes[1:], strict=False))
    for place, prize in enumerate(prizes[1:], start=2):  # docs/rules.md: each prize rounded down to the unit
        assert prize == pool * percentages[place - 1] // (10_000 * unit) * unit > 0
    if prizes:
        rounded_first = pool * percentages[0] // (10_000 * unit) * unit
        assert prizes[0] == rounded_first + structure.remainder  # ... and the remainder goes to first place
        assert structure.remainder == pool - sum(pool * share // (10_000 * unit) * unit for share in percentages[: len(prizes)])
    if len(prizes) < len(percentages):
        assert structure.reason in (REASON_TABLE_ROUNDING, REASON_EMPTY_POOL)
        assert all(pool * share // (10_000 * unit) == 0 for share in percentages[len(prizes) :])


def test_house_table_drops_places_that_round_to_nothing():
    structure = house_table_payouts(15_000, 40, CLUB_TABLE, 10_000)  # 150 CZK pool, 100 CZK unit
    assert structure.prizes() == (15_000,) and structure.reason == REASON_TABLE_ROUNDING
    assert house_table_payouts(0, 40, CLUB_TABLE, 100).reason == REASON_EMPTY_POOL


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ([], "has no bands"),
        ("2-7: 100", "must be a list of bands"),
        ([(2, 7)], r"band 1: expected \(min_entries, max_entries, percentages\)"),
        ([(2, 7, [10_000]), (7, 15, [6_500, 3_500])], r"bands 2-7 and 7-15 entries overlap: a field of 7 entries would be in both"),
        ([(2, 7, [10_000]), (9, 15, [6_500, 3_500])], r"gap between bands 2-7 and 9-15 entries: fields of 8-8 entries"),
        ([(3, 7, [10_000])], r"starts at 3 entries: fields of 2-2 entries have no percentages"),
        ([(2, 7, [6_000, 3_000])], r"band 1 \(2-7 entries\): percentages sum to 9000 basis points \(90%\), must be 10000"),
        ([(2, 7, [3_000, 7_000])], r"place 2 pays 7000 basis points, more than place 1 \(3000\)"),
        ([(2, 7, [])], "no percentages"),
        ([(2, 7, [10_000, 0])], "place 2 pays 0 basis points, must be at least 1"),
        ([(2, 7, [9_999.5, 0.5])], "whole basis points"),
        ([(2, 1, [10_000])], "max_entries 1 is below min_entries 2"),
        ([(0, 7, [10_000])], "min_entries is 0"),
        ([("2", 7, [10_000])], "min_entries must be a whole number"),
        ([(2, 7, [5_000, 3_000, 2_000])], r"pays 3 places but a field may have only 2 entries"),
        ([(2, 7, "10000")], "percentages must be a list"),
    ],
)
def test_house_table_validation_says_what_is_wrong(table, message):
    with pytest.raises(ValueError, match=message):
        validate_house_table(table)


def test_house_table_validation_sorts_bands_and_a_field_outside_the_table_is_refused():
    shuffled = [CLUB_TABLE[3], CLUB_TABLE[0], CLUB_TABLE[4], CLUB_TABLE[2], CLUB_TABLE[1]]
    bands = validate_house_table(shuffled)
    assert [band.min_entries for band in bands] == [2, 8, 16, 31, 61]
    assert bands[1] == HouseBand(8, 15, (6_500, 3_500))
    with pytest.raises(ValueError, match="covers 2-200 entries, not 201"):
        house_table_payouts(1_000_000, 201, CLUB_TABLE, 100)


def test_house_table_json_round_trip():
    text = house_table_to_json(CLUB_TABLE)
    data = json.loads(text)  # plain JSON: dicts, lists, ints
    assert data["format"] == ht.HOUSE_TABLE_FORMAT and data["version"] == ht.HOUSE_TABLE_VERSION
    assert data["bands"][1] == {"min_entries": 8, "max_entries": 15, "percentages_bp": [6_500, 3_500]}
    assert house_table_from_json(text) == validate_house_table(CLUB_TABLE)
    assert house_table_from_data(house_table_to_data(CLUB_TABLE)) == validate_house_table(CLUB_TABLE)
    assert house_table_to_json(house_table_from_json(text)) == text
    imported = house_table_from_json(text)
    assert house_table_payouts(123_456_789, 77, imported, 100) == house_table_payouts(123_456_789, 77, CLUB_TABLE, 100)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be an object with format, version and bands"),
        ('{"format": "blinds", "version": 1, "bands": []}', "not a house payout table"),
        ('{"format": "payout-house-table", "version": 9, "bands": []}', "version 9 is not supported"),
        ('{"format": "payout-house-table", "version": 1, "bands": {}}', "no list of bands"),
        ('{"format": "payout-house-table", "version": 1, "bands": [{"min_entries": 2}]}', "band 1: expected an object with exactly"),
        (
            '{"format": "payout-house-table", "version": 1, "bands": [{"min_entries": 2, "max_entries": 9, "percentages_bp": [9000]}]}',
            "sum to 9000 basis points",
        ),
    ],
)
def test_house_table_import_refuses_what_is_not_a_table(text, message):
    with pytest.raises(ValueError, match=message):
        house_table_from_json(text)
