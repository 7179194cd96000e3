"""A league's points for a finishing place. Pure: no Django.

Points are counted in hundredths (an integer, as money is in minor units), so a formula with a square root
still adds up exactly. The formulas are the common house choices:
- a points table by place (25, 18, 13, ...: places past the table get none);
- linear: the field size minus the place plus one (5th of 30 gets 26);
- square root: 10 × √field ÷ √place (the winner of 30 gets 54.77, the 5th 24.49);
- each of them optionally times the tournament's buy-in ÷ the league's base buy-in (an event costing twice the
  base counts double), and plus participation points for every player who played;
- in a bounty event, optionally points for every knockout (a pot split between k winners is 1/k knockout each).
The field is the tournament's entries (re-entries count, as they fill the pool). Players who share a place range
(busted in one hand with equal stacks) share its points: the mean of the points of their places.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

TABLE, LINEAR, SQUARE_ROOT = "table", "linear", "square_root"
KINDS = (TABLE, LINEAR, SQUARE_ROOT)
HUNDREDTHS = 100
MAX_POINTS = 10**6  # a place's points, in whole points: a sanity bound for the house's table
MAX_TABLE = 500  # places a points table may name


class FormulaError(ValueError):
    """A formula the house cannot use: `code` says which rule it breaks (the services word it for people), `place`
    the place of the table at fault, where there is one."""

    def __init__(self, code: str, message: str, place: int | None = None) -> None:
        super().__init__(message)
        self.code, self.place = code, place


@dataclass(frozen=True)
class Formula:
    kind: str
    table: tuple[int, ...] = ()  # TABLE: whole points of places 1, 2, ...; non-increasing
    participation: int = 0  # whole points for everyone who played
    base_buy_in: int | None = None  # minor units; set: points × buy-in ÷ base_buy_in
    knockout: int = 0  # whole points for each knockout (bounty events)

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise FormulaError("kind", f"unknown formula {self.kind!r}: one of {', '.join(KINDS)}")
        if self.kind == TABLE:
            if not self.table:
                raise FormulaError("table_empty", "a points table names the points of at least the first place")
            if len(self.table) > MAX_TABLE:
                raise FormulaError("table_long", f"a points table names at most {MAX_TABLE} places")
            bad = next((i for i, p in enumerate(self.table) if not _whole(p)), None)
            if bad is not None:
                raise FormulaError("table_value", f"a place's points are whole numbers from 0 to {MAX_POINTS}", bad + 1)
            worse = next((i for i in range(1, len(self.table)) if self.table[i] > self.table[i - 1]), None)
            if worse is not None:
                raise FormulaError(
                    "table_rises", f"place {worse + 1} would get more points than place {worse}: a worse place never gets more", worse + 1
                )
        elif self.table:
            raise FormulaError("table_not_for_kind", "only a points table names points by place")
        if not _whole(self.knockout):
            raise FormulaError("knockout", f"knockout points are a whole number from 0 to {MAX_POINTS}")
        if not _whole(self.participation):
            raise FormulaError("participation", f"participation points are a whole number from 0 to {MAX_POINTS}")
        if self.base_buy_in is not None and (
            isinstance(self.base_buy_in, bool) or not isinstance(self.base_buy_in, int) or self.base_buy_in <= 0
        ):
            raise FormulaError("base_buy_in", "the base buy-in is an amount above zero")


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_POINTS


def _round(value: Fraction) -> int:
    """Half up, to the hundredth."""
    return math.floor(value + Fraction(1, 2))


def _place_points(formula: Formula, field: int, place: int) -> Fraction:
    """A place's points in hundredths, before the buy-in factor and the participation points."""
    if formula.kind == TABLE:
        return Fraction(formula.table[place - 1] * HUNDREDTHS) if place <= len(formula.table) else Fraction(0)
    if formula.kind == LINEAR:
        return Fraction((field - place + 1) * HUNDREDTHS)
    # 10 × √(field ÷ place), to the hundredth: the integer square root keeps it exact and monotonic in the place.
    return Fraction(math.isqrt(field * 10**8 // place) * 10, 100)


def points(
    formula: Formula, *, field: int, place: int, place_low: int | None = None, buy_in: int = 0, knockouts: Fraction | int = 0
) -> int:
    """The points (hundredths) of a player who finished `place` (to `place_low`, when tied) of `field` entries
    in a tournament of `buy_in` (minor units), with `knockouts` (a split pot's share counted as a fraction)."""
    low = place if place_low is None else place_low
    if field < 1 or not 1 <= place <= low <= field:
        raise ValueError(f"a place range within the field: {place}-{low} of {field}")
    shared = sum((_place_points(formula, field, p) for p in range(place, low + 1)), Fraction(0)) / (low - place + 1)
    if formula.base_buy_in is not None:
        shared = shared * buy_in / formula.base_buy_in
    return _round(shared) + _round(Fraction(knockouts) * formula.knockout * HUNDREDTHS) + formula.participation * HUNDREDTHS


def table_for(formula: Formula, *, field: int, buy_in: int = 0, places: int | None = None) -> list[int]:
    """The points (hundredths) of places 1..places (all the field by default), as the house sees the formula."""
    return [points(formula, field=field, place=p, buy_in=buy_in) for p in range(1, min(places or field, field) + 1)]


def shown(hundredths: int) -> str:
    """Points as the standings show them: whole when whole, else to the hundredth (54.77)."""
    whole, part = divmod(hundredths, HUNDREDTHS)
    return f"{whole}" if not part else f"{whole}.{part:02d}"


def parse_table(text: str | Sequence[int]) -> tuple[int, ...]:
    """A points table as the house types it ("25, 18, 13") or as a list."""
    if isinstance(text, str):
        parts = [p for p in text.replace(";", ",").replace(" ", ",").split(",") if p]
        try:
            return tuple(int(p) for p in parts)
        except ValueError as exc:
            raise FormulaError("table_text", "a points table is whole numbers separated by commas (25, 18, 13)") from exc
    return tuple(text)
