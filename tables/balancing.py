"""Balancing and breaking tables (TDA 7, 8A): pure.

Given each table's seated players, its last hand's positions and the break order, decide what the
floor does after a bust: nothing, move one player (who, from where, to which seat and with which
position), or break a table (its players go to open seats by a random draw, keeping tables
balanced). Also which tables must halt.

House settings (Settings): when to balance (the fullest table has `threshold` more than the
shortest; default 2), when a short table halts (`halt_short_by`, default 3), and the donor procedure
(default: the fullest table, ties by the break order: the table that breaks first gives).
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from . import positions as pos

DONOR_FULLEST = "fullest"  # the fullest table, ties by the break order
DONOR_BREAK_ORDER = "break_order"  # among the fullest tables, the one last in the break order


@dataclass(frozen=True)
class Settings:
    threshold: int = 2
    halt_short_by: int = 3
    donor: str = DONOR_FULLEST


@dataclass(frozen=True)
class TableState:
    number: int
    seats: int
    occupied: frozenset[int]
    break_order: int
    last: pos.Positions | None = None  # the positions of the hand in play (or last played)
    reserved: frozenset[int] = field(default_factory=frozenset)  # seats held for players on their way
    leaving: frozenset[int] = field(default_factory=frozenset)  # seats of players with a move slip out

    @property
    def players(self) -> int:
        """Players counted for balancing: seated and arriving, not those already moving out."""
        return len(self.occupied - self.leaving) + len(self.reserved)

    @property
    def open_seats(self) -> list[int]:
        return [s for s in range(1, self.seats + 1) if s not in self.occupied and s not in self.reserved]


@dataclass(frozen=True)
class NeedButton:
    """The rule needs a table's positions that the software does not know: the floor enters the button."""

    table: int


@dataclass(frozen=True)
class Move:
    from_table: int
    from_seat: int
    to_table: int
    to_seat: int
    position: str  # the seat's position at the new table: big_blind, button, in_play, wait_for_button


@dataclass(frozen=True)
class Break:
    table: int


def counts(tables: Sequence[TableState]) -> dict[int, int]:
    return {t.number: t.players for t in tables}


def halted(tables: Sequence[TableState], settings: Settings = Settings()) -> list[int]:
    """Tables `halt_short_by` or more players short of the fullest (TDA24 R11-D): play halts there."""
    if len(tables) < 2:
        return []
    most = max(t.players for t in tables)
    return sorted(t.number for t in tables if most - t.players >= settings.halt_short_by)


def table_to_break(tables: Sequence[TableState]) -> int | None:
    """TDA 7: as soon as all players fit at one table fewer, the next table in break order breaks."""
    if len(tables) < 2:
        return None
    order = sorted(tables, key=lambda t: (t.break_order, t.number))
    first, rest = order[0], order[1:]
    total = sum(t.players for t in tables)
    capacity = sum(t.seats for t in rest)
    return first.number if total <= capacity else None


def unbalanced(tables: Sequence[TableState], settings: Settings = Settings()) -> bool:
    if len(tables) < 2:
        return False
    players = [t.players for t in tables]
    return max(players) - min(players) >= settings.threshold


def donor_table(tables: Sequence[TableState], settings: Settings = Settings()) -> TableState:
    most = max(t.players for t in tables)
    fullest = [t for t in tables if t.players == most]
    if settings.donor == DONOR_BREAK_ORDER:
        return max(fullest, key=lambda t: (t.break_order, t.number))
    return min(fullest, key=lambda t: (t.break_order, t.number))


def receiving_table(tables: Sequence[TableState]) -> TableState:
    """The shortest table; ties go to the table that breaks last (its players move least)."""
    fewest = min(t.players for t in tables)
    return max((t for t in tables if t.players == fewest), key=lambda t: (t.break_order, -t.number))


def positions_of(table: TableState) -> pos.Positions | None:
    return table.last


def next_big_blind(table: TableState) -> int:
    """The seat of the player who will be big blind in the donor table's next hand."""
    live = sorted(table.occupied - table.leaving)
    return pos.next_hand(table.seats, live, table.last).big_blind


def balance_move(tables: Sequence[TableState], settings: Settings = Settings()) -> Move | NeedButton | None:
    """One move when the tables are out of balance: the donor's next big blind goes to the worst
    position at the shortest table (TDA 8A). None when balanced."""
    if not unbalanced(tables, settings):
        return None
    donor = donor_table(tables, settings)
    receiver = receiving_table(tables)
    if donor.last is None:
        return NeedButton(donor.number)
    if receiver.last is None:
        return NeedButton(receiver.number)
    mover = next_big_blind(donor)
    live = sorted(receiver.occupied | receiver.reserved)
    seat = pos.worst_open_seat(receiver.seats, live, receiver.last, receiver.open_seats)
    return Move(donor.number, mover, receiver.number, seat.seat, seat.role)


def arrival_positions(table: TableState, seats: Iterable[int]) -> dict[int, str]:
    """The position each open seat gives a player arriving (for the slips of a broken table)."""
    if table.last is None:
        return dict.fromkeys(seats, "unknown")
    live = sorted(table.occupied | table.reserved)
    return {s: pos.arrival(table.seats, live, table.last, s).role for s in seats}
