"""Payout structures: the prize for each place of a tournament, for any field (2 to 20,000 entries and more).

Pure rule module: plain Python on plain values, no Django, no I/O, deterministic. Money is always an
integer number of minor units (haléře, cents). Bad input raises ValueError with a message the service
layer can show (as a 4xx).

Rules enforced (docs/rules.md "Deals and payouts" and "Payout rounding", with the product's own requirements):

1. The prizes add up to the prize pool exactly, in integer minor units.
2. No prize is higher than the one above it (non-increasing by place).
3. Every prize is a whole number of house units (`PayoutRules.unit`), except first place: the pool's
   remainder below one unit can only go there (docs/rules.md: "the remainder goes to first place"), so first
   place is the only prize allowed off the unit grid, and it is always congruent to the pool modulo the
   unit. A card room deals in chips and notes of the unit; requiring the pool itself to be a multiple
   of the unit would refuse real pools (add-ons, odd buy-ins), so the remainder is kept, on first.
4. Every prize is at least the minimum cash: `min_cash_multiple` x the buy-in's prize part, rounded UP
   to the unit (and never less than one unit). When the pool cannot pay the wanted number of places at
   that minimum, fewer places are paid (as many as the pool pays at the minimum) and the result says
   so: `places_wanted`, `places_paid` and `reason` (REASON_MIN_CASH). A pool below one minimum cash
   pays one place, the whole pool (REASON_POOL_BELOW_MIN_CASH); an empty pool pays nobody
   (REASON_EMPTY_POOL).
5. Rounding is fitted, not dumped: the curve is fitted to the rounded total and whole units are
   apportioned, so first place sits less than one unit above its value on the fitted curve
   (`first_place_curve`), plus `remainder`, the money only first place can hold. `remainder` is the
   pool's part below one unit (< one unit) whenever the buy-in's prize part is a multiple of the unit;
   otherwise it also holds the sub-unit parts of the entries made since the number of places paid last
   changed (see rule 6 for why that is unavoidable).
6. With the number of places paid unchanged, one more entry (the pool grows by one buy-in's prize part)
   never lowers any prize.
7. Deterministic: the same input gives the same structure.

Places paid: round-half-up of `share_paid` x entries (at least 1, at most the entries), then cut by
the minimum cash (rule 4). They are paid the way big series do it: the final table (places 1-9) one by
one, then groups the size of a table (10-18, 19-27, ...; the last group may be shorter) with equal
prizes. The result lists bands (first_place, last_place, prize), adjacent groups that come out equal
being merged, so the bands' prizes fall strictly; `prize_for_place(n)` answers for one place.

Method (`payout_structure`):

- Up to STANDARD_TABLE_MAX_PLACES places paid: the standard percentage table STANDARD_TABLE (1 paid:
  100; 2: 65/35; 3: 50/30/20; 4: 40/27/19/14; 5: 35/25/18/13/9; 6: 32/23/16/12/9.5/7.5, the common
  published home-game / small-MTT style). Where a percentage would pay less than the minimum cash, that
  place gets the minimum cash and the places above give up the difference in proportion to their
  share above the minimum.
- More places: a power-law curve over the excess above the minimum cash, as big series use:
  prize(place) = min_cash + C / place^alpha. First place's target share of the pool is
  FIRST_SHARE_SCALE x places^-FIRST_SHARE_EXPONENT (about 30% for 7 paid, 27% for 15, 19% for 150,
  13% for 1,500, 12% for 3,000 paid, in line with published series structures); alpha is found by
  bisection (ALPHA_STEPS halvings of [0, ALPHA_MAX]) so that the curve, with C scaled to the pool,
  gives first place that share (clamped to what the pool allows: from equal excess, alpha = 0, to
  everything above the minimum on first). The sum over a group of places is the integral of the curve
  over the group (midpoint rule, closed form), so the work is per group, not per place: 20,000 entries
  (3,000 paid, 342 bands) take well under 5 ms.
- Rounding, fitted to the rounded total: each group is rounded down to the unit, then the money lost to
  that rounding is handed back one unit per place to the groups with the largest rounded-off fractions
  (largest remainder), as far as whole groups fit and the order holds, so the groups stay within one
  unit of the curve. What is left, with the final table's own share, is the final table's money: its
  places are apportioned in whole units above the top group's prize (or the minimum cash) by Adams'
  divisor method on the curve's excess, which is house-monotone and never gives a place a unit above
  its exact share (upper quota). First place takes the rest of the pool, which is its apportioned units
  plus the remainder below one unit.
- Monotonic in the pool (rule 6): ten places of a group of nine can only rise together, by nine units,
  so when one entry adds less than nine units to the pool, re-fitting the whole curve for each entry
  would sometimes have to lower a prize to raise a group. So the structure is fitted once per run of
  entries that pays the same number of places: the groups (places 10 and below) keep the values fitted
  at the run's first entry (`entries_since_change` = 0), and each later entry of the run adds its
  buy-in's whole units (buy_in // unit) to the final table through the same house-monotone
  apportionment, its part below one unit to first place. Along the run nothing ever falls. (When the
  buy-in's prize part is smaller than the unit, no prize but first can grow by one entry at all without
  another falling, so that money goes to first: the reason rule 5's `remainder` may exceed a unit
  then.) The run is found from the pool and the entries alone: entries with the same
  pool - entries x buy_in that pay the same number of places.

House tables: payouts/rules/house_tables.py.
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

BASIS_POINTS = 10_000
FINAL_TABLE_PLACES = 9  # paid one by one
GROUP_SIZE = 9  # the size of a table: places 10-18, 19-27, ... share one prize

# The standard table for small fields: places paid -> percentages in basis points, first place first.
STANDARD_TABLE: dict[int, tuple[int, ...]] = {
    1: (10_000,),
    2: (6_500, 3_500),
    3: (5_000, 3_000, 2_000),
    4: (4_000, 2_700, 1_900, 1_400),
    5: (3_500, 2_500, 1_800, 1_300, 900),
    6: (3_200, 2_300, 1_600, 1_200, 950, 750),
}
STANDARD_TABLE_MAX_PLACES = max(STANDARD_TABLE)

# The curve: first place's target share of the pool is FIRST_SHARE_SCALE * places ** -FIRST_SHARE_EXPONENT.
FIRST_SHARE_SCALE = 0.415
FIRST_SHARE_EXPONENT = 0.159
ALPHA_MAX = 20.0
ALPHA_STEPS = 40
_WEIGHT_SCALE = 1 << 48  # the final table's curve weights as integers, so the apportionment is exact

REASON_MIN_CASH = "min_cash"  # fewer places than wanted: the pool cannot pay more at the minimum cash
REASON_POOL_BELOW_MIN_CASH = "pool_below_min_cash"  # one place paid, the whole pool, below the minimum cash
REASON_EMPTY_POOL = "empty_pool"  # nothing to pay
REASON_TABLE_ROUNDING = "table_rounding"  # house table: some places round down to nothing and are not paid

METHOD_STANDARD_TABLE = "standard_table"
METHOD_CURVE = "curve"
METHOD_HOUSE_TABLE = "house_table"


# ---------------------------------------------------------------------------------------------------
# Input checks


def require_int(name: str, value: Any, minimum: int, meaning: str) -> None:
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name} must be a whole number, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} is {value}: {meaning}")


def _as_fraction(name: str, value: Any) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | Fraction):
        raise ValueError(f"{name} must be a Fraction or a whole number (floats are not exact), got {value!r}")
    return Fraction(value)


def _check_money(pool: int, entries: int, buy_in: int) -> None:
    require_int("pool", pool, 0, "the prize pool must not be negative")
    require_int("entries", entries, 1, "a tournament needs at least one entry")
    require_int("buy_in", buy_in, 0, "the buy-in's prize part must not be negative")


# ---------------------------------------------------------------------------------------------------
# Values


@dataclass(frozen=True)
class PayoutRules:
    """House settings for payout structures.

    share_paid: share of the field paid (0 < share <= 1), default 15%.
    min_cash_multiple: the minimum cash as a multiple of the buy-in's prize part (>= 0), default 1.5x.
    unit: the rounding unit in minor units (e.g. 100 CZK = 10000), default 100 (one crown).
    Fractions (or ints) only: floats are not exact.
    """

    share_paid: Fraction = Fraction(15, 100)
    min_cash_multiple: Fraction = Fraction(3, 2)
    unit: int = 100

    def __post_init__(self) -> None:
        share = _as_fraction("share_paid", self.share_paid)
        if not 0 < share <= 1:
            raise ValueError(f"share_paid must be more than 0 and at most 1 (100%), got {share}")
        multiple = _as_fraction("min_cash_multiple", self.min_cash_multiple)
        if multiple < 0:
            raise ValueError(f"min_cash_multiple must not be negative, got {multiple}")
        require_int("unit", self.unit, 1, "the rounding unit must be at least 1 minor unit")
        object.__setattr__(self, "share_paid", share)
        object.__setattr__(self, "min_cash_multiple", multiple)

    @classmethod
    def from_basis_points(cls, share_paid_bp: int = 1_500, min_cash_multiple_bp: int = 15_000, unit: int = 100) -> PayoutRules:
        """The same settings given in basis points (1500 = 15%; 15000 = 1.5x)."""
        require_int("share_paid_bp", share_paid_bp, 1, "the share paid must be at least 1 basis point")
        require_int("min_cash_multiple_bp", min_cash_multiple_bp, 0, "the minimum cash multiple must not be negative")
        return cls(Fraction(share_paid_bp, BASIS_POINTS), Fraction(min_cash_multiple_bp, BASIS_POINTS), unit)


DEFAULT_RULES = PayoutRules()


@dataclass(frozen=True)
class PayoutBand:
    """Places first_place..last_place (inclusive) each win `prize` minor units."""

    first_place: int
    last_place: int
    prize: int

    @property
    def places(self) -> int:
        return self.last_place - self.first_place + 1


@dataclass(frozen=True)
class PayoutStructure:
    """A payout structure: the prize for each paid place, as bands of equal prizes.

    bands: contiguous from place 1 to places_paid, prizes strictly falling from band to band.
    reason: None when places_paid == places_wanted, else one of the REASON_* codes (for the screen).
    remainder: money on first place that the fitted curve does not give it in whole units (see the
      module docstring, rule 5); first place's prize minus `remainder` is a whole number of units.
    first_place_curve: first place's value on the curve fitted to the rounded total, before rounding.
    entries_since_change: entries since the number of places paid last changed (rule 6).
    min_cash: the minimum cash applied (0 for house tables, which set their own percentages).
    """

    pool: int
    entries: int
    unit: int
    min_cash: int
    places_wanted: int
    places_paid: int
    reason: str | None
    method: str
    bands: tuple[PayoutBand, ...]
    remainder: int
    first_place_curve: Fraction
    entries_since_change: int = 0
    alpha: float | None = None

    @property
    def first_prize(self) -> int:
        return self.bands[0].prize if self.bands else 0

    @property
    def total(self) -> int:
        return sum(band.places * band.prize for band in self.bands)

    def prize_for_place(self, place: int) -> int:
        """The prize for one finishing place (1 = winner); 0 for a place outside the money."""
        require_int("place", place, 1, "places are numbered from 1 (the winner)")
        index = bisect_left(self.bands, place, key=lambda band: band.last_place)
        return self.bands[index].prize if index < len(self.bands) else 0

    def prizes(self) -> tuple[int, ...]:
        """Every paid place's prize, place 1 first."""
        return tuple(band.prize for band in self.bands for _ in range(band.places))


# ---------------------------------------------------------------------------------------------------
# Places paid and the minimum cash


def places_wanted(entries: int, share_paid: Fraction) -> int:
    """Places the house wants to pay: share_paid x entries, rounded half up, at least 1, at most entries."""
    require_int("entries", entries, 1, "a tournament needs at least one entry")
    share = _as_fraction("share_paid", share_paid)
    if not 0 < share <= 1:
        raise ValueError(f"share_paid must be more than 0 and at most 1 (100%), got {share}")
    rounded = (2 * entries * share.numerator + share.denominator) // (2 * share.denominator)
    return max(1, min(entries, rounded))


def min_cash(buy_in: int, rules: PayoutRules = DEFAULT_RULES) -> int:
    """The minimum cash: min_cash_multiple x the buy-in's prize part, rounded UP to the unit, at least one unit."""
    require_int("buy_in", buy_in, 0, "the buy-in's prize part must not be negative")
    multiple = rules.min_cash_multiple
    units = -((-multiple.numerator * buy_in) // (multiple.denominator * rules.unit))
    return max(1, units) * rules.unit


def _places(entries: int, pool: int, minimum: int, share: Fraction) -> tuple[int, int, str | None]:
    """(places wanted, places paid, reason) - rule 4."""
    wanted = places_wanted(entries, share)
    if pool == 0:
        return wanted, 0, REASON_EMPTY_POOL
    affordable = pool // minimum
    if affordable == 0:
        return wanted, 1, REASON_POOL_BELOW_MIN_CASH
    if affordable < wanted:
        return wanted, affordable, REASON_MIN_CASH
    return wanted, wanted, None


def _run_start(entries: int, pool: int, buy_in: int, minimum: int, share: Fraction, paid: int) -> int:
    """The first entry count of the run that pays `paid` places (rule 6).

    The run is the entries n <= `entries` whose pool is pool - (entries - n) x buy_in and which pay the
    same number of places. Places paid never fall along it (both the wanted places and what the pool
    affords at the minimum cash grow with n), so the run's start is the smallest n paying `paid`.
    """
    low, high = 1, entries
    while low < high:  # the smallest n that wants at least `paid` places
        middle = (low + high) // 2
        if places_wanted(middle, share) >= paid:
            high = middle
        else:
            low = middle + 1
    start = low
    if buy_in > 0:  # and whose pool affords `paid` places at the minimum cash
        start = max(start, entries - (pool - paid * minimum) // buy_in)
    return start


# ---------------------------------------------------------------------------------------------------
# The reference structure of a run: groups fixed, the final table's apportionment weights


@dataclass
class _Reference:
    groups: list[tuple[int, int, int]]  # (first place, last place, prize in units), places 10 and below
    singles: int  # places paid one by one (the final table)
    base_units: int  # the final table's floor in units: the top group's prize, or the minimum cash
    weights: list[int]  # the final table's apportionment weights (curve excess over the floor), non-increasing
    alpha: float | None
    method: str


def _group_layout(paid: int) -> tuple[int, list[tuple[int, int]]]:
    singles = min(paid, FINAL_TABLE_PLACES)
    groups = [(first, min(first + GROUP_SIZE - 1, paid)) for first in range(singles + 1, paid + 1, GROUP_SIZE)]
    return singles, groups


def _table_reference(pool: int, paid: int, min_units: int, unit: int) -> _Reference:
    """Standard table: the final table's weights are each percentage's excess over the minimum cash."""
    minimum = min_units * unit
    weights = [max(0, pool * share - minimum * BASIS_POINTS) for share in STANDARD_TABLE[paid]]
    return _Reference([], paid, min_units, weights, None, METHOD_STANDARD_TABLE)


def _first_share(paid: int) -> float:
    return min(0.5, FIRST_SHARE_SCALE * paid**-FIRST_SHARE_EXPONENT)


def _power_integral(low: float, high: float, alpha: float) -> float:
    """The integral of x^-alpha from low to high (0 < low < high), stable near alpha = 1."""
    c = 1.0 - alpha
    log_ratio = math.log(high / low)
    if c == 0.0:
        return log_ratio
    return low**c * math.expm1(c * log_ratio) / c


def _curve_weight_total(alpha: float, singles: int, paid: int) -> float:
    total = math.fsum(place**-alpha for place in range(1, singles + 1))
    if paid > singles:
        total += _power_integral(singles + 0.5, paid + 0.5, alpha)
    return total


def _fit_alpha(excess: int, first_excess: float, singles: int, paid: int) -> float:
    """alpha such that first place's excess, excess / W(alpha), is `first_excess` (bisection)."""
    if first_excess <= 0 or excess / first_excess >= paid:  # the target is below equal shares
        return 0.0
    ratio = excess / first_excess
    if ratio <= 1.0:  # the target is at least everything above the minimum cash
        return ALPHA_MAX
    low, high = 0.0, ALPHA_MAX
    for _ in range(ALPHA_STEPS):  # W(alpha) falls from `paid` (alpha = 0) towards 1
        middle = (low + high) / 2
        if _curve_weight_total(middle, singles, paid) > ratio:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def _curve_reference(pool: int, paid: int, min_units: int, unit: int) -> _Reference:
    """Power-law curve above the minimum cash; groups rounded and fitted; final table weights."""
    minimum = min_units * unit
    singles, layout = _group_layout(paid)
    excess = pool - paid * minimum
    alpha = _fit_alpha(excess, _first_share(paid) * pool - minimum, singles, paid)
    single_weights = [place**-alpha for place in range(1, singles + 1)]
    group_weights = [_power_integral(first - 0.5, last + 0.5, alpha) for first, last in layout]
    total_weight = math.fsum(single_weights) + math.fsum(group_weights)
    single_excess = [excess * weight / total_weight for weight in single_weights]  # per place
    group_excess = [
        excess * weight / ((last - first + 1) * total_weight) for weight, (first, last) in zip(group_weights, layout, strict=True)
    ]

    # Groups: round down to the unit, then hand back the rounded-off money one unit per place to the
    # groups with the largest fractions, while it lasts and the order holds (largest remainder).
    units: list[int] = []
    fractions: list[float] = []
    for value in group_excess:
        whole = math.floor(value / unit)
        units.append(min_units + whole if not units else min(units[-1], min_units + whole))
        fractions.append(value / unit - whole)
    sizes = [last - first + 1 for first, last in layout]
    if units:
        slack = math.floor(math.fsum(size * value for size, value in zip(sizes, group_excess, strict=True)) / unit)
        slack -= sum(size * (value - min_units) for size, value in zip(sizes, units, strict=True))
        top_cap = min_units + math.floor(single_excess[-1] / unit)  # the top group stays at or below place 9's curve value
        for index in sorted(range(len(units)), key=lambda i: (-fractions[i], i)):
            if sizes[index] > slack:
                continue
            cap = top_cap if index == 0 else units[index - 1]
            if units[index] + 1 <= cap:
                units[index] += 1
                slack -= sizes[index]

        # The final table must afford its floor (the top group's prize) at every place; float rounding
        # aside this already holds, and lowering the top groups restores it (they are above the minimum
        # cash whenever it fails, as the pool affords every place at the minimum).
        def final_table_units() -> int:
            return (pool - unit * sum(size * value for size, value in zip(sizes, units, strict=True))) // unit

        while final_table_units() < singles * units[0]:
            top = units[0]
            units = [value - 1 if value == top else value for value in units]

    base_units = units[0] if units else min_units
    floor_excess = (base_units - min_units) * unit
    curve_excess = [max(0.0, value - floor_excess) for value in single_excess]
    weights: list[int] = []
    if curve_excess[0] > 0:
        for value in curve_excess:
            weight = int(value / curve_excess[0] * _WEIGHT_SCALE)
            weights.append(weight if not weights else min(weights[-1], weight))
    else:
        weights = [0] * singles
    groups = [(first, last, value) for (first, last), value in zip(layout, units, strict=True)]
    return _Reference(groups, singles, base_units, weights, alpha, METHOD_CURVE)


# ---------------------------------------------------------------------------------------------------
# Apportionment


def _adams(weights: Sequence[int], house: int) -> list[int]:
    """Adams' divisor method: `house` whole units shared by integer weights, ties to the lower index.

    Units go one at a time to the party with the highest priority weight / units held (infinite for a
    party with none); parties of weight 0 get nothing (all-zero weights share equally). The result for
    house h + 1 contains the one for h (house monotone), a party never holds a unit above its exact share
    (upper quota: units < house x weight / total + 1), and heavier parties never hold fewer units.
    """
    count = len(weights)
    if not any(weights):
        weights = [1] * count
    active = [index for index in range(count) if weights[index] > 0]
    units = [0] * count
    if house <= len(active):
        for index in active[:house]:
            units[index] = 1
        return units
    total = sum(weights)
    # A lower bound of every party's units (each holds more than its exact share minus the number of
    # parties), so adding units greedily by priority from here reproduces the one-at-a-time result.
    for index in active:
        units[index] = max(1, house * weights[index] // total - len(active) - 1)
    for _ in range(house - sum(units)):
        best = active[0]
        for index in active[1:]:
            if weights[index] * units[best] > weights[best] * units[index]:
                best = index
        units[best] += 1
    return units


# ---------------------------------------------------------------------------------------------------
# The structure


def payout_structure(pool: int, entries: int, buy_in: int, rules: PayoutRules = DEFAULT_RULES) -> PayoutStructure:
    """The payout structure for a tournament (rules 1-7 of the module docstring).

    pool: the prize pool in minor units; entries: entries made (re-entries count); buy_in: the buy-in's
    prize part in minor units (the pool grows by it with each entry; it sets the minimum cash).
    """
    _check_money(pool, entries, buy_in)
    if not isinstance(rules, PayoutRules):
        raise ValueError(f"rules must be PayoutRules, got {rules!r}")
    unit = rules.unit
    minimum = min_cash(buy_in, rules)
    min_units = minimum // unit
    wanted, paid, reason = _places(entries, pool, minimum, rules.share_paid)

    def result(
        bands: list[PayoutBand],
        remainder: int,
        curve: Fraction,
        since: int = 0,
        method: str = METHOD_STANDARD_TABLE,
        alpha: float | None = None,
    ) -> PayoutStructure:
        return PayoutStructure(pool, entries, unit, minimum, wanted, paid, reason, method, tuple(bands), remainder, curve, since, alpha)

    if paid == 0:
        return result([], 0, Fraction(0))
    if paid == 1:
        return result([PayoutBand(1, 1, pool)], pool % unit, Fraction(pool - pool % unit))

    start = _run_start(entries, pool, buy_in, minimum, rules.share_paid, paid)
    since = entries - start
    reference_pool = pool - since * buy_in
    if paid <= STANDARD_TABLE_MAX_PLACES:
        reference = _table_reference(reference_pool, paid, min_units, unit)
    else:
        reference = _curve_reference(reference_pool, paid, min_units, unit)

    groups_total = unit * sum((last - first + 1) * value for first, last, value in reference.groups)
    singles, floor_units = reference.singles, reference.base_units
    # The final table's units above its floor: those of the run's first entry, plus each later entry's
    # whole units; its money below one unit, and each later entry's, stays with first place.
    house = (reference_pool - groups_total) // unit - singles * floor_units + since * (buy_in // unit)
    apportioned = _adams(reference.weights, house)
    final_table = pool - groups_total
    others = [unit * (floor_units + units) for units in apportioned[1:]]
    first = final_table - sum(others)
    remainder = final_table - unit * (singles * floor_units + house)

    weights = reference.weights if any(reference.weights) else [1] * singles
    curve = Fraction(unit * floor_units) + Fraction(unit * house * weights[0], sum(weights))
    per_place = [(place, place, prize) for place, prize in enumerate([first, *others], start=1)]
    per_place += [(first_place, last_place, unit * value) for first_place, last_place, value in reference.groups]
    return result(merge_bands(per_place), remainder, curve, since, reference.method, reference.alpha)


def merge_bands(rows: Iterable[tuple[int, int, int]]) -> list[PayoutBand]:
    """Bands from consecutive (first, last, prize) rows, adjacent equal prizes merged into one band."""
    bands: list[PayoutBand] = []
    for first, last, prize in rows:
        if bands and bands[-1].prize == prize:
            bands[-1] = PayoutBand(bands[-1].first_place, last, prize)
        else:
            bands.append(PayoutBand(first, last, prize))
    return bands
