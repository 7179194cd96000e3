"""Chip counts: the check of a table's counts entered at once, the chip leaders, and how the counts add up
against the chips in play. Plain Python on plain values, no Django: the services (tables/services/counting.py)
and the reads (tables/selectors/counts.py) call these.

A count is what a player's stack was when it was counted. A table's chips change only when players come or go
with their stacks (a move, a break), by a purchase (rebuy, add-on) or a color-up's race, so nothing but a count
says what a table holds: the room's check is exact (every player in play counted: the counts add up to the
chips in play, or the difference is shown), and a table is flagged while a player seated there has no count
taken since he sat down. When only one table is not fully counted, what it must hold is known exactly (the
chips in play less every other table's counts): that table shows it, and the difference of its counts so far.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

MAX_CHIPS = 10**15  # far above any stack a chip set can make; a typo of a dozen digits is refused

# The problems of a table's counts, by code: each names a seat.
EMPTY_SEAT = "empty_seat"  # a count for a seat nobody holds
NEGATIVE = "negative"  # a count below zero
TOO_MANY = "too_many"  # a count beyond MAX_CHIPS
MISSING = "missing"  # a seated player with no count: a table's counts are taken at once


def table_count_problems(seated: Mapping[int, int], counts: Mapping[int, int], *, whole: bool = True) -> list[tuple[str, int]]:
    """What is wrong with counts entered for a table (`seated`: seat -> the entry seated there; `counts`: seat ->
    chips), in seat order; empty when they can be recorded. With `whole`, every seated player must be counted."""
    problems = []
    for seat in sorted(set(seated) | set(counts)):
        if seat not in seated:
            problems.append((EMPTY_SEAT, seat))
        elif seat not in counts:
            if whole:
                problems.append((MISSING, seat))
        elif counts[seat] < 0:
            problems.append((NEGATIVE, seat))
        elif counts[seat] > MAX_CHIPS:
            problems.append((TOO_MANY, seat))
    return problems


def ranked(stacks: Iterable[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """(rank, key, chips) for each (key, chips), the largest stack first. Equal stacks share a rank and the next
    rank skips (1, 2, 2, 4); among them the lower key (the entry number) is listed first."""
    rows = sorted(stacks, key=lambda kc: (-kc[1], kc[0]))
    out: list[tuple[int, int, int]] = []
    for i, (key, chips) in enumerate(rows):
        rank = out[-1][0] if out and out[-1][2] == chips else i + 1
        out.append((rank, key, chips))
    return out


def big_blinds(chips: int, big_blind: int) -> float | None:
    """A stack in big blinds, to one decimal (rounded down: 9.99 big blinds are not 10), for display; None
    without a big blind."""
    if big_blind <= 0:
        return None
    return (chips * 10 // big_blind) / 10


def average(total: int, players: int) -> int:
    return total // players if players else 0


@dataclass(frozen=True)
class TableCheck:
    table: int
    players: int  # seated now
    counted: int  # of them, counted since they sat down
    total: int  # their counts added
    missing: tuple[int, ...]  # the seats of those not counted
    expected: int | None  # what the table must hold: known when every player elsewhere is counted
    difference: int | None  # total - expected (negative: chips not yet counted, or missing)

    @property
    def flagged(self) -> bool:
        return bool(self.missing) or bool(self.difference)


@dataclass(frozen=True)
class RoomCheck:
    tables: tuple[TableCheck, ...]
    chips_in_play: int
    counted_total: int  # the counts of the players seated in play
    players: int
    not_counted: int  # players in play with no count since they sat down, or with no seat
    difference: int | None  # counted_total - chips_in_play, once every player is counted (else None)

    @property
    def flagged(self) -> tuple[int, ...]:
        return tuple(check.table for check in self.tables if check.flagged)


def room_check(seats: Iterable[tuple[int, int, int | None]], *, chips_in_play: int, players: int) -> RoomCheck:
    """How the counts add up. `seats`: (table, seat, chips counted since the player sat there, or None) for every
    seated player in play; `players`: every player in play (one with no seat counts as not counted).

    A table's expected chips are known only when everyone else in play is counted: then it holds the chips in
    play less the others' counts. With every player counted that is the room's own check, so each table's
    difference is the room's: it is shown once, for the room, and the tables are not flagged for it."""
    by_table: dict[int, list[tuple[int, int | None]]] = {}
    for table, seat, chips in seats:
        by_table.setdefault(table, []).append((seat, chips))
    sums = {table: sum(chips for _seat, chips in rows if chips is not None) for table, rows in by_table.items()}
    missing = {table: tuple(sorted(seat for seat, chips in rows if chips is None)) for table, rows in by_table.items()}
    counted_total = sum(sums.values())
    not_counted = players - sum(len(rows) - len(missing[table]) for table, rows in by_table.items())
    checks = []
    for table in sorted(by_table):
        expected = difference = None
        if missing[table] and not_counted == len(missing[table]):  # the one table left to count
            expected = chips_in_play - (counted_total - sums[table])
            difference = sums[table] - expected
        checks.append(
            TableCheck(
                table=table,
                players=len(by_table[table]),
                counted=len(by_table[table]) - len(missing[table]),
                total=sums[table],
                missing=missing[table],
                expected=expected,
                difference=difference,
            )
        )
    return RoomCheck(
        tables=tuple(checks),
        chips_in_play=chips_in_play,
        counted_total=counted_total,
        players=players,
        not_counted=not_counted,
        difference=None if not_counted else counted_total - chips_in_play,
    )
