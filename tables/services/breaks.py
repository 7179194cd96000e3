"""Tables that break (TDA 7) and redraws: the players of a breaking table get open seats at the other
tables by a random, committed draw; a redraw seats everyone again over the tables kept. On the room
read by tables/services/room.py; tables/services/moves.py decides when."""

from __future__ import annotations

from django.db.models import Q
from django.utils import timezone

from core.actor import Actor
from tables.models import Draw, Move, Seat, Table
from tables.rules import positions as pos
from tables.rules import seating
from tables.selectors.state import breaking_tables, needs_of, slip
from tables.services import venue
from tables.services.draws import button_draws, needs_inputs, pending_draw, room_json, seat_draw
from tables.services.room import TableRow, announce, balancing_tables, cancel_slip, create_slip, next_move_number
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_user, record_event

REDRAWN = "table breaks: seat drawn again"


def take_in_nobody(t: Tournament, *, actor: Actor, tables: dict[int, TableRow], breaking: TableRow) -> bool:
    """A table that breaks takes nobody in: the pending slips of players coming from a playing table are
    cancelled (those players stay where they sit; True: decide again). The players on their way from a
    breaking table stay on the way: `break_table` draws their seats again with this table's players."""
    gone = breaking_tables(t)
    return bool(
        _cancel_slips_to(t, actor=actor, tables=tables, breaking=breaking, reason="table breaks", coming_from=~Q(from_table_id__in=gone))
    )


def _on_the_way(t: Tournament, *, actor: Actor, tables: dict[int, TableRow], breaking: TableRow) -> dict[int, tuple[TableRow, int]]:
    """The players on their way to the breaking table from a table that breaks too: their slips are
    cancelled, and they move from where they sit (entry pk -> table, seat)."""
    cancelled = _cancel_slips_to(
        t,
        actor=actor,
        tables=tables,
        breaking=breaking,
        reason=REDRAWN,
        coming_from=Q(from_table_id__in=[row.pk for row in tables.values()]),
    )
    return {move.entry_id: (source, move.from_seat) for move, source in cancelled}


def _cancel_slips_to(
    t: Tournament, *, actor: Actor, tables: dict[int, TableRow], breaking: TableRow, reason: str, coming_from: Q
) -> list[tuple[Move, TableRow | None]]:
    """Cancel the pending slips to the breaking table from the tables `coming_from` selects: the seat each
    held there is free again, and the seat its player leaves is his again. Each slip with its source row."""
    by_pk = {row.pk: row for row in tables.values()}
    now = timezone.now()
    cancelled = []
    for move in (
        Move.objects.select_for_update()
        .select_related("entry__player", "from_table", "to_table")
        .filter(coming_from, tournament=t, status=Move.Status.PENDING, to_table_id=breaking.pk)
    ):
        cancel_slip(t, actor=actor, move=move, reason=reason, now=now)
        breaking.reserved.pop(move.to_seat, None)
        source = by_pk.get(move.from_table_id)
        if source is not None:
            source.leaving.pop(move.from_seat, None)
        cancelled.append((move, source))
    return cancelled


def break_table(t: Tournament, *, actor: Actor, tables: dict[int, TableRow], breaking: TableRow) -> list[Move]:
    """TDA 7: the players of the breaking table (and those still on their way to it from a table that
    broke before) get open seats by a random, committed draw over the other tables (the late-entry rule
    keeps them balanced); each slip shows the seat's position."""
    others = [row for row in balancing_tables(tables) if row.number != breaking.number]
    from_where = {pk: (breaking, seat) for seat, pk in breaking.occupied.items() if seat not in breaking.leaving}
    from_where.update(_on_the_way(t, actor=actor, tables=tables, breaking=breaking))
    entries = list(Entry.objects.filter(tournament=t, pk__in=list(from_where)).order_by("number"))
    movers = [e.number for e in entries]
    id_of = {e.number: e.pk for e in entries}
    open_seats = {row.number: [s for s in range(1, row.seats + 1) if s not in row.occupied and s not in row.reserved] for row in others}
    players = {row.number: row.players for row in others}
    accessible = set(Table.objects.filter(tournament=t, in_play=True, accessible=True).values_list("number", flat=True)) & set(
        open_seats
    )  # (an IN list of 1,000 tables costs 50 ms)
    plan = seating.Room.of(open_seats, players, accessible=sorted(accessible))
    needs = needs_of(t, entries)
    inputs = {"table": breaking.number, "entries": movers, **room_json(plan), **needs_inputs(needs)}
    draw, result = seat_draw(t, actor=actor, kind=Draw.Kind.BREAK, fn=seating.draw_late, room=plan, needs=needs, inputs=inputs)
    arrivals: dict[int, list[int]] = {}
    for _entry, (table, seat) in result.items():
        arrivals.setdefault(table, []).append(seat)
    positions = {}
    for table, seats in arrivals.items():
        row = tables[table]
        live = sorted((set(row.occupied) - set(row.leaving)) | set(row.reserved))
        last = row.last_positions()
        for seat in seats:
            if last is None:
                positions[(table, seat)] = "unknown"
                continue
            others_arriving = [s for s in seats if s != seat]
            positions[(table, seat)] = pos.arrival(row.seats, sorted(set(live) | set(others_arriving)), last, seat).role
    moves = []
    number = next_move_number(t)
    for entry_number, (table, seat) in sorted(result.items()):
        src, from_seat = from_where[id_of[entry_number]]
        moves.append(
            create_slip(
                t,
                actor=actor,
                kind=Move.Kind.BREAK,
                entry_id=id_of[entry_number],
                src=src,
                from_seat=from_seat,
                dst=tables[table],
                to_seat=seat,
                position=positions[(table, seat)],
                draw=draw,
                number=number,
                save=False,
            )
        )
        number += 1
    Move.objects.bulk_create(moves)  # one statement for the table's slips
    record_event(
        t,
        actor=actor,
        type_="table.breaking",
        payload={"table": breaking.number, "draw": draw.number, "commitment": draw.commitment, "seed": draw.seed, "entries": movers},
        stats=False,
    )
    announce(t, actor=actor, moves=moves, kind=Move.Kind.BREAK, table=breaking.number, draw=draw.number)
    pending_draw(t)
    return moves


def redraw(t: Tournament, *, actor: Actor, keep: list[int]) -> list[Move]:
    """A redraw (the final table, or at three or two tables by house setting): every player gets a
    new random seat over the tables kept, filled evenly; the other tables break. Everyone stands
    up at once, so the new seats are taken immediately and the slips are recorded as done; each
    kept table then gets a software button draw."""
    now = timezone.now()
    for move in Move.objects.select_for_update().filter(tournament=t, status=Move.Status.PENDING):
        move.status, move.closed_at, move.cancel_reason = Move.Status.CANCELLED, now, "redraw"
        move.save(update_fields=["status", "closed_at", "cancel_reason"])
    tables = {row.number: row for row in Table.objects.select_for_update().filter(tournament=t, in_play=True)}
    seats = list(Seat.objects.select_for_update().filter(tournament=t, ended_at__isnull=True).select_related("entry", "table"))
    entries = sorted(s.entry.number for s in seats)
    size = t.final_table_size if len(keep) == 1 else None
    open_seats = {n: list(range(1, min(tables[n].seats, size or tables[n].seats) + 1)) for n in sorted(keep)}
    plan = seating.Room.of(open_seats, dict.fromkeys(open_seats, 0), accessible=[n for n in keep if tables[n].accessible])
    needs = needs_of(t, [s.entry for s in seats])
    inputs = {"keep": sorted(keep), "entries": entries, **room_json(plan), **needs_inputs(needs)}
    draw, result = seat_draw(t, actor=actor, kind=Draw.Kind.REDRAW, fn=seating.draw_start, room=plan, needs=needs, inputs=inputs)
    by_entry = {s.entry.number: s for s in seats}
    for s in seats:
        s.ended_at, s.end_reason = now, Seat.End.MOVE
    Seat.objects.bulk_update(seats, ["ended_at", "end_reason"])
    number = next_move_number(t)
    moves = []
    for entry_number, (table, seat) in sorted(result.items()):
        old = by_entry[entry_number]
        Seat.objects.create(tournament=t, entry=old.entry, table=tables[table], seat=seat, draw=draw, seated_at=now)
        moves.append(
            Move.objects.create(
                tournament=t,
                number=number,
                entry=old.entry,
                kind=Move.Kind.REDRAW,
                from_table=old.table,
                from_seat=old.seat,
                to_table=tables[table],
                to_seat=seat,
                position="unknown",
                draw=draw,
                status=Move.Status.DONE,
                created_at=now,
                closed_at=now,
                created_by=actor_user(actor),
            )
        )
        number += 1
    for n, table in tables.items():
        table.button_seat = table.small_blind_seat = table.big_blind_seat = None
        table.positions_next = table.needs_button = False
        fields = ["button_seat", "small_blind_seat", "big_blind_seat", "positions_next", "needs_button"]
        if n not in keep:
            table.in_play, table.broken_at = False, now
            fields += ["in_play", "broken_at"]
        table.save(update_fields=fields)
    venue.give_back(t, actor=actor, tables=[table for n, table in tables.items() if n not in keep])  # back to the venue at once
    record_event(
        t,
        actor=actor,
        type_="seating.redrawn",
        payload={
            "draw": draw.number,
            "kind": Draw.Kind.REDRAW,
            "commitment": draw.commitment,
            "seed": draw.seed,
            "tables": sorted(keep),
            "final": len(keep) == 1,
            "entries": entries,
            "moves": [slip(m) for m in moves],
        },
        stats=False,
    )
    pending_draw(t)
    button_draws(t, actor=actor, tables=[tables[n] for n in sorted(keep)])
    return moves


def cancel_break(t: Tournament, *, actor: Actor, table: Table, reason: str) -> list[Move]:
    """A breaking table stops breaking (an undone bust brought back one player too many for the other
    tables): its pending break slips are cancelled, and its players stay where they sit."""
    now = timezone.now()
    moves = list(
        Move.objects.select_for_update()
        .select_related("entry__player", "from_table", "to_table")
        .filter(tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BREAK, from_table=table)
    )
    for move in moves:
        cancel_slip(t, actor=actor, move=move, reason=reason, now=now)
    return moves
