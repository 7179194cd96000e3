"""Balancing and breaking tables (TDA 7, 8A): pure.

Given each table's seated players, its last hand's positions and the break order, decide what the
floor does after a bust: nothing, move one player (who, from where, to which seat and with which
position), or break a table (its players go to open seats by a random draw, keeping tables
balanced). Also which tables must halt.

House settings (Settings): when to balance (the fullest table has `threshold` more than the
shortest; default 2), when a short table halts (`halt_short_by`, default 3), and the donor procedure
(default: the fullest table, ties by the break order: the table that breaks first gives).

A move is only ever made between tables at least two players apart: moving a player between tables
one apart only swaps which of them is short, so a threshold of 1 balances exactly as 2 does. A move
needs a seated player at the donor who is not already moving out and an open seat (neither taken
nor held for a player on the way) at the receiver; when the tables are out of balance and no such
pair exists the answer is NoMove, with the reason for the floor, never an exception.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace

from tables.rules import positions as pos

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


NO_OPEN_SEAT = "no_open_seat"  # every table short enough to receive has all its seats taken or held
NO_MOVER = "no_mover"  # every player at the tables full enough to give is already moving out


@dataclass(frozen=True)
class NoMove:
    """Out of balance, but no legal move: nothing moves and the floor is told why."""

    reason: str  # NO_OPEN_SEAT or NO_MOVER
    donor: int  # the fullest table
    receiver: int  # the shortest table


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


def left_after_breaks(tables: Sequence[TableState]) -> list[int]:
    """The tables still playing once every break due now is made, one after the other in break order (TDA 7),
    down to the last two (the final table forms from those by its own rule). Usually one table fewer at
    most; several fewer when busts came while the breaks waited (a redraw waiting for a hand in play)."""
    left = list(tables)
    while len(left) > 2:
        breaking = table_to_break(left)
        if breaking is None:
            break
        left = [t for t in left if t.number != breaking]
    return sorted(t.number for t in left)


def final_table_due(tables: Sequence[TableState], final_table_size: int) -> int | None:
    """The table the final table is drawn at when everyone fits there (the last in break order of the tables
    left after the breaks due), or None."""
    if len(tables) < 2:
        return None
    playing = set(left_after_breaks(tables))
    left = [t for t in tables if t.number in playing]
    if len(left) != 2:
        return None
    last = max(left, key=lambda t: (t.break_order, t.number))
    return last.number if sum(t.players for t in tables) <= min(final_table_size, last.seats) else None


def break_fits(tables: Sequence[TableState], number: int) -> bool:
    """Whether the players of the breaking table (seated there, and on their way to it from a table that
    broke before) find open seats at the other tables now: a seat still taken by a player with a slip out
    is not open until that slip is confirmed."""
    breaking = next(t for t in tables if t.number == number)
    return breaking.players <= sum(len(t.open_seats) for t in tables if t.number != number)


def gap(settings: Settings) -> int:
    """How many players apart two tables must be for a move between them (see the module's notes)."""
    return max(settings.threshold, 2)


def unbalanced(tables: Sequence[TableState], settings: Settings = Settings()) -> bool:
    if len(tables) < 2:
        return False
    players = [t.players for t in tables]
    return max(players) - min(players) >= gap(settings)


def _donor_key(settings: Settings):
    """Fullest first; among equals, by the house's donor procedure."""
    if settings.donor == DONOR_BREAK_ORDER:
        return lambda t: (-t.players, -t.break_order, -t.number)
    return lambda t: (-t.players, t.break_order, t.number)


def _receiver_key(t: TableState):
    """Shortest first; ties go to the table that breaks last (its players move least)."""
    return (t.players, -t.break_order, t.number)


def donor_table(tables: Sequence[TableState], settings: Settings = Settings()) -> TableState:
    return min(tables, key=_donor_key(settings))


def receiving_table(tables: Sequence[TableState]) -> TableState:
    """The shortest table; ties go to the table that breaks last (its players move least)."""
    return min(tables, key=_receiver_key)


def positions_of(table: TableState) -> pos.Positions | None:
    return table.last


def movable(table: TableState) -> list[int]:
    """The seats of the players who could move out: seated and not already moving."""
    return sorted(table.occupied - table.leaving)


def next_big_blind(table: TableState) -> int:
    """The seat of the player who will be big blind in the donor table's next hand (the only
    player left to move, when one is)."""
    live = movable(table)
    if len(live) == 1:
        return live[0]
    return pos.next_hand(table.seats, live, table.last).big_blind


def pair(tables: Sequence[TableState], settings: Settings = Settings()) -> tuple[TableState, TableState] | NoMove | None:
    """The donor and the receiving table of the next move: the fullest table that has a player to
    move (by the donor procedure) and the shortest table with an open seat at least `gap` players
    short of it. None when balanced; NoMove when out of balance with no such pair."""
    if not unbalanced(tables, settings):
        return None
    need = gap(settings)
    for donor in sorted(tables, key=_donor_key(settings)):
        if not movable(donor):
            continue
        receivers = [t for t in tables if t.number != donor.number and t.open_seats and donor.players - t.players >= need]
        if receivers:
            return donor, min(receivers, key=_receiver_key)
    donor, receiver = donor_table(tables, settings), receiving_table(tables)
    return NoMove(NO_MOVER if not movable(donor) else NO_OPEN_SEAT, donor.number, receiver.number)


def balance_move(tables: Sequence[TableState], settings: Settings = Settings()) -> Move | NeedButton | NoMove | None:
    """One move when the tables are out of balance: the donor's next big blind goes to the worst
    position at the shortest table that can take a player (TDA 8A). None when balanced; NeedButton
    when the rule needs positions the software does not know; NoMove when no move is legal."""
    chosen = pair(tables, settings)
    if chosen is None or isinstance(chosen, NoMove):
        return chosen
    donor, receiver = chosen
    if donor.last is None and len(movable(donor)) > 1:
        return NeedButton(donor.number)
    if receiver.last is None and len(receiver.occupied) > 1:  # players arriving (reserved) are not playing there yet
        return NeedButton(receiver.number)
    mover = next_big_blind(donor)
    live = sorted(receiver.occupied | receiver.reserved)
    if receiver.last is None:  # nobody, or one player (others on their way), at the receiving table: any seat plays at once
        return Move(donor.number, mover, receiver.number, receiver.open_seats[0], "in_play")
    seat = pos.worst_open_seat(receiver.seats, live, receiver.last, receiver.open_seats)
    return Move(donor.number, mover, receiver.number, seat.seat, seat.role)


def due(tables: Sequence[TableState], settings: Settings = Settings(), final_table_size: int = 10) -> list[int]:
    """The tables between which the rules call for something now, by the counts alone (empty: nothing): the
    final table's redraw when everyone fits at the last two tables' last one, a break, or a move (also when
    no move is legal: the floor is told why)."""
    if len(tables) < 2:
        return []
    if final_table_due(tables, final_table_size) is not None:
        return sorted(t.number for t in tables)
    breaking = table_to_break(tables) if len(tables) > 2 else None
    if breaking is not None:
        return [breaking]
    chosen = pair(tables, settings)
    if isinstance(chosen, tuple):
        return sorted({chosen[0].number, chosen[1].number})
    if isinstance(chosen, NoMove):
        return sorted({chosen.donor, chosen.receiver})
    return []


def buttons_needed(tables: Sequence[TableState], settings: Settings = Settings()) -> list[int]:
    """Every table whose button the floor must enter before the moves the counts call for can be made,
    in the order the moves come: the moves are played out on the counts alone (each donor gives one
    player, each receiver takes one), so the floor is asked for all the buttons at once, not one after
    another as each move waits for the next."""
    states = {t.number: t for t in tables}
    needed: list[int] = []
    for _step in range(sum(t.seats for t in tables)):
        chosen = pair(list(states.values()), settings)
        if chosen is None or isinstance(chosen, NoMove):
            break
        donor, receiver = chosen
        if donor.last is None and len(movable(donor)) > 1 and donor.number not in needed:
            needed.append(donor.number)
        if receiver.last is None and len(receiver.occupied) > 1 and receiver.number not in needed:
            needed.append(receiver.number)
        states[donor.number] = replace(donor, leaving=donor.leaving | {movable(donor)[0]})
        states[receiver.number] = replace(receiver, reserved=receiver.reserved | {receiver.open_seats[0]})
    return needed


def arrival_positions(table: TableState, seats: Iterable[int]) -> dict[int, str]:
    """The position each open seat gives a player arriving (for the slips of a broken table)."""
    if table.last is None:
        return dict.fromkeys(seats, "unknown")
    live = sorted(table.occupied | table.reserved)
    return {s: pos.arrival(table.seats, live, table.last, s).role for s in seats}
