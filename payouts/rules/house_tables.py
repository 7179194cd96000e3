"""House payout tables (docs/rules.md, "Payout rounding"): many clubs pay a fixed percentage table by field
size instead of a generated structure. Pure: no Django.

A house table is a list of bands (min_entries, max_entries, percentages in basis points, first place
first, summing to 10,000, never rising); the bands cover every field size from HOUSE_TABLE_MIN_FIELD
entries up, without gap or overlap (`validate_house_table`). `house_table_payouts` pays a pool by the
band of the field: each prize is rounded down to the unit, the remainder goes to first place, the total
equals the pool exactly, and prizes never rise down the list; the answer is the same PayoutStructure as
the generator's (payouts/rules/payout_structure.py). Tables are exported and imported as plain JSON.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from payouts.rules.payout_structure import (
    BASIS_POINTS,
    METHOD_HOUSE_TABLE,
    REASON_EMPTY_POOL,
    REASON_TABLE_ROUNDING,
    PayoutBand,
    PayoutStructure,
    merge_bands,
    require_int,
)

HOUSE_TABLE_FORMAT = "payout-house-table"
HOUSE_TABLE_VERSION = 1
HOUSE_TABLE_MIN_FIELD = 2  # a house table must cover every field from this many entries up


@dataclass(frozen=True)
class HouseBand:
    """Fields of min_entries..max_entries entries pay these percentages (basis points, first place first)."""

    min_entries: int
    max_entries: int
    percentages_bp: tuple[int, ...]


HouseTableInput = Iterable[HouseBand | tuple[int, int, Sequence[int]] | list[Any]]


def validate_house_table(table: HouseTableInput) -> tuple[HouseBand, ...]:
    """Check a house table and return it as HouseBands sorted by field size; ValueError says what is wrong.

    Each band: whole numbers, 1 <= min_entries <= max_entries; percentages in basis points, each at least
    1, summing to 10,000 (100%), never rising down the list, and no more places than min_entries. The
    bands together cover every field from HOUSE_TABLE_MIN_FIELD entries up to the largest band's maximum,
    without gaps or overlaps.
    """
    if isinstance(table, str | bytes | dict) or not isinstance(table, Iterable):
        raise ValueError("a house table must be a list of bands (min_entries, max_entries, percentages)")
    bands: list[HouseBand] = []
    for number, row in enumerate(table, start=1):
        bands.append(_house_band(number, row))
    if not bands:
        raise ValueError("the house table has no bands")
    bands.sort(key=lambda band: (band.min_entries, band.max_entries))
    if bands[0].min_entries > HOUSE_TABLE_MIN_FIELD:
        raise ValueError(
            f"the house table starts at {bands[0].min_entries} entries: fields of {HOUSE_TABLE_MIN_FIELD}-"
            f"{bands[0].min_entries - 1} entries have no percentages"
        )
    for previous, band in zip(bands, bands[1:], strict=False):
        if band.min_entries <= previous.max_entries:
            raise ValueError(
                f"bands {_span(previous)} and {_span(band)} entries overlap: a field of {band.min_entries} entries would be in both"
            )
        if band.min_entries > previous.max_entries + 1:
            raise ValueError(
                f"gap between bands {_span(previous)} and {_span(band)} entries: fields of "
                f"{previous.max_entries + 1}-{band.min_entries - 1} entries have no percentages"
            )
    return tuple(bands)


def _span(band: HouseBand) -> str:
    return f"{band.min_entries}-{band.max_entries}"


def _house_band(number: int, row: Any) -> HouseBand:
    if isinstance(row, HouseBand):
        low, high, percentages = row.min_entries, row.max_entries, row.percentages_bp
    elif isinstance(row, list | tuple) and len(row) == 3:
        low, high, percentages = row
    else:
        raise ValueError(f"band {number}: expected (min_entries, max_entries, percentages), got {row!r}")
    for name, value in (("min_entries", low), ("max_entries", high)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"band {number}: {name} must be a whole number, got {value!r}")
    if low < 1:
        raise ValueError(f"band {number}: min_entries is {low}, must be at least 1")
    if high < low:
        raise ValueError(f"band {number}: max_entries {high} is below min_entries {low}")
    if isinstance(percentages, str | bytes) or not isinstance(percentages, Sequence):
        raise ValueError(f"band {number} ({low}-{high} entries): percentages must be a list of basis points, got {percentages!r}")
    if not percentages:
        raise ValueError(f"band {number} ({low}-{high} entries): no percentages: at least one place must be paid")
    for place, value in enumerate(percentages, start=1):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ValueError(f"band {number} ({low}-{high} entries): place {place}'s percentage must be whole basis points, got {value!r}")
        if value < 1:
            raise ValueError(f"band {number} ({low}-{high} entries): place {place} pays {value} basis points, must be at least 1")
    total = sum(percentages)
    if total != BASIS_POINTS:
        raise ValueError(
            f"band {number} ({low}-{high} entries): percentages sum to {total} basis points ({Fraction(total, 100)}%), must be 10000 (100%)"
        )
    for place in range(1, len(percentages)):
        if percentages[place] > percentages[place - 1]:
            raise ValueError(
                f"band {number} ({low}-{high} entries): place {place + 1} pays {percentages[place]} basis points, more than place "
                f"{place} ({percentages[place - 1]}): prizes must not rise down the list"
            )
    if len(percentages) > low:
        raise ValueError(f"band {number} ({low}-{high} entries): pays {len(percentages)} places but a field may have only {low} entries")
    return HouseBand(low, high, tuple(percentages))


def house_table_band(table: HouseTableInput, entries: int) -> HouseBand:
    """The band of a (validated) house table that covers a field of `entries` entries."""
    bands = validate_house_table(table)
    require_int("entries", entries, 1, "a tournament needs at least one entry")
    for band in bands:
        if band.min_entries <= entries <= band.max_entries:
            return band
    raise ValueError(f"the house table covers {bands[0].min_entries}-{bands[-1].max_entries} entries, not {entries}")


def house_table_payouts(pool: int, entries: int, table: HouseTableInput, unit: int) -> PayoutStructure:
    """Prizes by a house percentage table (docs/rules.md "Payout rounding").

    Each prize is its percentage of the pool rounded down to the unit; the remainder goes to first place;
    the total equals the pool; prizes never rise down the list. Places whose prize rounds down to nothing
    are not paid (reason REASON_TABLE_ROUNDING); an empty pool pays nobody (REASON_EMPTY_POOL).
    """
    require_int("pool", pool, 0, "the prize pool must not be negative")
    require_int("unit", unit, 1, "the rounding unit must be at least 1 minor unit")
    band = house_table_band(table, entries)
    wanted = len(band.percentages_bp)
    rounded = [pool * share // (BASIS_POINTS * unit) * unit for share in band.percentages_bp]
    paid = 1 + sum(1 for prize in rounded[1:] if prize > 0) if pool > 0 else 0
    reason = REASON_EMPTY_POOL if pool == 0 else (REASON_TABLE_ROUNDING if paid < wanted else None)
    if paid == 0:
        bands: list[PayoutBand] = []
        remainder = 0
    else:
        others = rounded[1:paid]
        first = pool - sum(others)
        remainder = first - rounded[0]
        bands = merge_bands((place, place, prize) for place, prize in enumerate([first, *others], start=1))
    curve = Fraction(pool * band.percentages_bp[0], BASIS_POINTS) if paid else Fraction(0)
    return PayoutStructure(pool, entries, unit, 0, wanted, paid, reason, METHOD_HOUSE_TABLE, tuple(bands), remainder, curve)


def house_table_to_data(table: HouseTableInput) -> dict[str, Any]:
    """A house table as plain dicts and lists (validated first), for json or any other store."""
    return {
        "format": HOUSE_TABLE_FORMAT,
        "version": HOUSE_TABLE_VERSION,
        "bands": [
            {"min_entries": band.min_entries, "max_entries": band.max_entries, "percentages_bp": list(band.percentages_bp)}
            for band in validate_house_table(table)
        ],
    }


def house_table_from_data(data: Any) -> tuple[HouseBand, ...]:
    """A house table from the plain structure `house_table_to_data` gives; ValueError if it is not one."""
    if not isinstance(data, dict):
        raise ValueError(f"a house table export must be an object with format, version and bands, got {type(data).__name__}")
    if data.get("format") != HOUSE_TABLE_FORMAT:
        raise ValueError(f"not a house payout table: format is {data.get('format')!r}, expected {HOUSE_TABLE_FORMAT!r}")
    if data.get("version") != HOUSE_TABLE_VERSION:
        raise ValueError(f"house payout table version {data.get('version')!r} is not supported (expected {HOUSE_TABLE_VERSION})")
    rows = data.get("bands")
    if not isinstance(rows, list):
        raise ValueError("the house table export has no list of bands")
    table = []
    for number, row in enumerate(rows, start=1):
        keys = {"min_entries", "max_entries", "percentages_bp"}
        if not isinstance(row, dict) or set(row) != keys:
            raise ValueError(f"band {number}: expected an object with exactly {sorted(keys)}, got {row!r}")
        table.append((row["min_entries"], row["max_entries"], row["percentages_bp"]))
    return validate_house_table(table)


def house_table_to_json(table: HouseTableInput) -> str:
    """A house table as JSON text (see house_table_to_data)."""
    return json.dumps(house_table_to_data(table), indent=2)


def house_table_from_json(text: str | bytes) -> tuple[HouseBand, ...]:
    """A house table from JSON text made by house_table_to_json; ValueError if it is not one."""
    try:
        data = json.loads(text)
    except (TypeError, json.JSONDecodeError) as error:
        raise ValueError(f"the house table is not valid JSON: {error}")
    return house_table_from_data(data)
