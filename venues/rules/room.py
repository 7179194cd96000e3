"""The house's order of the venue's tables, how many a draw takes, and a room read from a CSV file.

Plain Python: venues/services and tables/services/venue.py give these rules rows and write what they decide.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

MIN_SEATS, MAX_SEATS = 6, 10
MAX_NUMBER = 999
STATES = ("open", "out_of_service", "cash")


@dataclass(frozen=True)
class Free:
    """A table a tournament may take: its number, area and physical seats; `mine` when it is reserved for it."""

    number: int
    area: str
    seats: int
    mine: bool = False


def house_order(tables: list[Free], area_order: list[str]) -> list[Free]:
    """Tables reserved for the tournament first, then area by area in the house's order (areas it does not list after
    those it does, by name), then by number."""
    rank = {area: i for i, area in enumerate(area_order)}
    return sorted(tables, key=lambda t: (not t.mine, rank.get(t.area, len(rank)), t.area if t.area not in rank else "", t.number))


def to_take(tables: list[Free], area_order: list[str], seats_needed: int, seats_per_table: int) -> list[Free] | None:
    """The fewest tables, in the house's order, whose seats (each capped by the tournament's seats per table) seat
    `seats_needed` more players; None when all of them do not."""
    chosen, capacity = [], 0
    for table in house_order(tables, area_order):
        if capacity >= seats_needed:
            break
        chosen.append(table)
        capacity += min(table.seats, seats_per_table)
    return chosen if capacity >= seats_needed else None


@dataclass(frozen=True)
class Row:
    number: int
    area: str
    seats: int
    status: str = "open"


class RoomFileError(ValueError):
    """A room file that cannot be read: every problem found, each with its line."""

    def __init__(self, problems: list[tuple[int, str, dict]]):
        super().__init__("; ".join(f"line {line}: {code}" for line, code, _ in problems))
        self.problems = problems


def read_room(text: str) -> list[Row]:
    """The rows of a room file: a header naming `number`, `area` and `seats` (and `state`, optional: open,
    out_of_service or cash), one table per line. Every problem is reported, with its line; a number twice is one."""
    reader = csv.DictReader(io.StringIO(text.lstrip("\ufeff")))
    fields = {(name or "").strip().lower() for name in reader.fieldnames or []}
    missing = [name for name in ("number", "area", "seats") if name not in fields]
    if missing:
        raise RoomFileError([(1, "header", {"missing": missing})])
    rows, problems, seen = [], [], {}
    for line, raw in enumerate(reader, start=2):
        row = {(k or "").strip().lower(): (v or "").strip() for k, v in raw.items() if k is not None}
        if not any(row.values()):
            continue
        try:
            number, seats = int(row["number"]), int(row["seats"])
        except ValueError:
            problems.append((line, "not_a_number", {"number": row["number"], "seats": row["seats"]}))
            continue
        status = (row.get("state") or "open").lower()
        if not 1 <= number <= MAX_NUMBER:
            problems.append((line, "number", {"number": number}))
        elif not MIN_SEATS <= seats <= MAX_SEATS:
            problems.append((line, "seats", {"number": number, "seats": seats}))
        elif status not in STATES:
            problems.append((line, "state", {"number": number, "state": status}))
        elif number in seen:
            problems.append((line, "twice", {"number": number, "first": seen[number]}))
        else:
            seen[number] = line
            rows.append(Row(number, row["area"][:60], seats, status))
    if problems:
        raise RoomFileError(problems)
    if not rows:
        raise RoomFileError([(1, "empty", {})])
    return rows
