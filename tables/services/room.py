"""The room as balancing sees it, and the move slips written on it: read in a constant number of
queries, one row per table in play with its players, positions and pending moves (tables/services/moves.py
decides on it, tables/services/breaks.py breaks and redraws on it)."""

from __future__ import annotations

from dataclasses import dataclass

from django.db import connection
from django.utils import timezone

from core.actor import Actor
from core.errors import next_number
from tables.models import Draw, Move, Seat, Table
from tables.rules import balancing as bal
from tables.rules import positions as pos
from tables.selectors.state import slip
from tournament.models import Tournament
from tournament.services.audit import actor_user, record_event


@dataclass
class TableRow:
    pk: int
    number: int
    seats: int
    break_order: int
    button_seat: int | None
    small_blind_seat: int | None
    big_blind_seat: int | None
    positions_next: bool
    hand_in_progress: bool
    occupied: dict[int, int]  # seat -> entry id
    leaving: dict[int, int]  # seat -> move number (pending moves out)
    reserved: dict[int, int]  # seat -> move number (pending moves in)

    def last_positions(self) -> pos.Positions | None:
        """The positions the rules start from (None: the software does not know this table's button)."""
        if self.big_blind_seat is not None and not self.positions_next:
            return pos.Positions(self.button_seat, self.small_blind_seat, self.big_blind_seat)
        if self.positions_next and self.button_seat is not None:
            live = sorted((set(self.occupied) - set(self.leaving)) | set(self.reserved))
            if len(live) < 2:
                return None
            button = self.button_seat if self.button_seat in live else pos.next_live(self.seats, live, self.button_seat)
            return pos.before_first(self.seats, live, button)
        return None

    def state(self, positions: bool = True) -> bal.TableState:
        """The table as the rules see it; without its positions when only the counts matter (the
        positions of a thousand tables cost a bust 20 ms; a move needs those of two)."""
        return bal.TableState(
            number=self.number,
            seats=self.seats,
            occupied=frozenset(self.occupied),
            break_order=self.break_order,
            last=self.last_positions() if positions else None,
            reserved=frozenset(self.reserved),
            leaving=frozenset(self.leaving),
        )

    @property
    def players(self) -> int:
        return len(set(self.occupied) - set(self.leaving)) + len(self.reserved)


ROOM_TABLE_FIELDS = (
    "id",
    "number",
    "seats",
    "break_order",
    "button_seat",
    "small_blind_seat",
    "big_blind_seat",
    "positions_next",
    "hand_in_progress",
)


def read_room(t: Tournament) -> dict[int, TableRow]:
    """Every table in play, with its players, positions and pending moves: three plain queries (every
    bust reads the whole room: at 10,000 seats the ORM's rows cost 45 ms where the plain rows cost 12)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(ROOM_TABLE_FIELDS)} FROM {Table._meta.db_table} WHERE tournament_id = %s AND in_play", [t.pk])
        rows = {r[0]: TableRow(*r, occupied={}, leaving={}, reserved={}) for r in cursor.fetchall()}
        cursor.execute(f"SELECT table_id, seat, entry_id FROM {Seat._meta.db_table} WHERE tournament_id = %s AND ended_at IS NULL", [t.pk])
        for table_id, seat, entry_id in cursor.fetchall():
            row = rows.get(table_id)
            if row is not None:
                row.occupied[seat] = entry_id
    for number, from_id, from_seat, to_id, to_seat in Move.objects.filter(tournament=t, status=Move.Status.PENDING).values_list(
        "number", "from_table_id", "from_seat", "to_table_id", "to_seat"
    ):
        if from_id in rows:
            rows[from_id].leaving[from_seat] = number
        if to_id in rows:
            rows[to_id].reserved[to_seat] = number
    return {row.number: row for row in rows.values()}


def balancing_tables(tables: dict[int, TableRow]) -> list[TableRow]:
    """The tables that take part: those with players (an empty table opened for late entries does
    not draw players away from the others)."""
    return [row for row in tables.values() if row.players > 0]


def next_move_number(t: Tournament) -> int:
    return next_number(Move.objects.filter(tournament=t))


def create_slip(
    t: Tournament,
    *,
    actor: Actor,
    kind: str,
    entry_id: int,
    src: TableRow,
    from_seat: int,
    dst: TableRow,
    to_seat: int,
    position: str,
    draw: Draw | None = None,
    number: int | None = None,
    save: bool = True,
) -> Move:
    """A move slip (saved, or for the caller's bulk_create), and the room as the rules see it next."""
    move = Move(
        tournament=t,
        number=number or next_move_number(t),
        entry_id=entry_id,
        kind=kind,
        from_table_id=src.pk,
        from_seat=from_seat,
        to_table_id=dst.pk,
        to_seat=to_seat,
        position=position,
        draw=draw,
        created_at=timezone.now(),
        created_by=actor_user(actor),
    )
    if save:
        move.save(force_insert=True)
    src.leaving[from_seat] = move.number
    dst.reserved[to_seat] = move.number
    return move


def announce(t: Tournament, *, actor: Actor, moves: list[Move], kind: str, **extra) -> None:
    if not moves:
        return
    moves = list(
        Move.objects.filter(pk__in=[m.pk for m in moves]).select_related("entry__player", "from_table", "to_table").order_by("number")
    )  # one query for the slips' names and tables
    movers = [m.entry.number for m in moves]
    record_event(
        t,
        actor=actor,
        type_="move.created",
        payload={
            "kind": kind,
            "moves": [slip(m) for m in moves],
            "entries": movers,
            "tables": sorted({m.from_table.number for m in moves} | {m.to_table.number for m in moves}),
            **extra,
        },
        stats=False,
        seats=movers,
    )


def close_slip(move: Move, *, actor: Actor, reason: str, now=None) -> None:
    """A pending slip is cancelled: its reserved seat is free again, the player stays."""
    move.status, move.closed_at, move.cancel_reason = Move.Status.CANCELLED, now or timezone.now(), reason[:200]
    move.closed_by = actor_user(actor)
    move.save(update_fields=["status", "closed_at", "closed_by", "cancel_reason"])


def cancel_slip(t: Tournament, *, actor: Actor, move: Move, reason: str, now=None, note: str | None = None) -> None:
    """A pending slip is cancelled (its reserved seat is free again), with the event the floor sees;
    `note`: the reason as the event shows it, when not the stored one. `move` comes with its entry and tables."""
    close_slip(move, actor=actor, reason=reason, now=now)
    record_event(
        t,
        actor=actor,
        type_="move.cancelled",
        payload={
            "move": slip(move),
            "reason": reason if note is None else note,
            "entries": [move.entry.number],
            "tables": [move.from_table.number, move.to_table.number],
        },
        stats=False,
    )
