"""Balancing and breaking tables (TDA 7, 8A), move slips, redraws and the house rules that steer them:
the services on top of the pure rules in tables/balancing.py and tables/positions.py.

After every bust (and on demand) the room is read in a constant number of queries, the rules decide
nothing, one move, a table break or a redraw, and each move is written as a pending move slip with
its destination seat reserved. The floor confirms a slip when the player sits (the player's seat
moves, chips travel with the player) or cancels it. Every caller holds the tournament lock, so two
busts at once are decided one after the other; the database's partial unique constraints refuse a
second pending move of one entry or to one seat even so.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.errors import ServiceError, require
from tournament.audit import actor_user, lock_tournament, record_event
from tournament.models import Entry, Tournament

from . import balancing as bal
from . import positions as pos
from . import seating
from .draws import draw_error, needs_inputs, pending_draw, reveal, room_json, software_button
from .handforhand import call_next
from .models import Draw, Move, Seat, Table
from .selectors import balancing_notice, house_rules, needs_of, rule_settings, slip

logger = logging.getLogger(__name__)

MAX_STEPS = 50  # moves decided after one event; a bust needs one, a break one per player


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
        return bal.TableState(number=self.number, seats=self.seats, occupied=frozenset(self.occupied),
                              break_order=self.break_order, last=self.last_positions() if positions else None,
                              reserved=frozenset(self.reserved), leaving=frozenset(self.leaving))

    @property
    def players(self) -> int:
        return len(set(self.occupied) - set(self.leaving)) + len(self.reserved)


ROOM_TABLE_FIELDS = ("id", "number", "seats", "break_order", "button_seat", "small_blind_seat", "big_blind_seat",
                     "positions_next", "hand_in_progress")


def read_room(t: Tournament) -> dict[int, TableRow]:
    """Every table in play, with its players, positions and pending moves: three plain queries (every
    bust reads the whole room: at 10,000 seats the ORM's rows cost 45 ms where the plain rows cost 12)."""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {', '.join(ROOM_TABLE_FIELDS)} FROM {Table._meta.db_table} "
                       "WHERE tournament_id = %s AND in_play", [t.pk])
        rows = {r[0]: TableRow(*r, occupied={}, leaving={}, reserved={}) for r in cursor.fetchall()}
        cursor.execute(f"SELECT table_id, seat, entry_id FROM {Seat._meta.db_table} "
                       "WHERE tournament_id = %s AND ended_at IS NULL", [t.pk])
        for table_id, seat, entry_id in cursor.fetchall():
            row = rows.get(table_id)
            if row is not None:
                row.occupied[seat] = entry_id
    for number, from_id, from_seat, to_id, to_seat in Move.objects.filter(tournament=t, status=Move.Status.PENDING).values_list(
            "number", "from_table_id", "from_seat", "to_table_id", "to_seat"):
        if from_id in rows:
            rows[from_id].leaving[from_seat] = number
        if to_id in rows:
            rows[to_id].reserved[to_seat] = number
    return {row.number: row for row in rows.values()}


def balancing_tables(tables: dict[int, TableRow]) -> list[TableRow]:
    """The tables that take part: those with players (an empty table opened for late entries does
    not draw players away from the others)."""
    return [row for row in tables.values() if row.players > 0]


def flag_halts(t: Tournament, actor, tables: dict[int, TableRow] | None = None) -> list[int]:
    """Store which tables must halt (TDA24 R11-D), tell the tables whose flag changed. `tables`: the room as read by the caller."""
    rules, room = house_rules(t), tables or read_room(t)
    # A button is asked only where two play: at a table left with one (busts, moves out) there is none to enter.
    Table.objects.filter(tournament=t, needs_button=True, number__in=[r.number for r in room.values() if len(r.occupied) < 2]
                         ).update(needs_button=False)
    # Counted as they sit: a table waiting for a player on the way is short until the player sits.
    states = [bal.TableState(number=row.number, seats=row.seats, occupied=frozenset(row.occupied),
                             break_order=row.break_order) for row in balancing_tables(room)]
    now_halted = set(bal.halted(states, rule_settings(rules)))
    was = set(Table.objects.filter(tournament=t, halted=True).values_list("number", flat=True))
    if now_halted != was:
        Table.objects.filter(tournament=t, number__in=now_halted - was).update(halted=True)
        Table.objects.filter(tournament=t, number__in=was - now_halted).update(halted=False)
        record_event(t, "tables.halted", {"halted": sorted(now_halted), "tables": sorted(now_halted ^ was)},
                     actor, stats=False)
    return sorted(now_halted)


def _next_number(t: Tournament) -> int:
    return (Move.objects.filter(tournament=t).order_by("-number").values_list("number", flat=True).first() or 0) + 1


def _create(t: Tournament, actor, kind: str, entry_id: int, src: TableRow, from_seat: int, dst: TableRow,
            to_seat: int, position: str, draw: Draw | None = None, number: int | None = None, save: bool = True) -> Move:
    """A move slip (saved, or for the caller's bulk_create), and the room as the rules see it next."""
    move = Move(
        tournament=t, number=number or _next_number(t), entry_id=entry_id, kind=kind, from_table_id=src.pk,
        from_seat=from_seat, to_table_id=dst.pk, to_seat=to_seat, position=position, draw=draw,
        created_at=timezone.now(), created_by=actor_user(actor))
    if save:
        move.save(force_insert=True)
    src.leaving[from_seat] = move.number
    dst.reserved[to_seat] = move.number
    return move


def _announce(t: Tournament, actor, moves: list[Move], kind: str, **extra) -> None:
    if not moves:
        return
    moves = list(Move.objects.filter(pk__in=[m.pk for m in moves]).select_related(
        "entry__player", "from_table", "to_table").order_by("number"))  # one query for the slips' names and tables
    record_event(t, "move.created", {"kind": kind, "moves": [slip(m) for m in moves],
                                     "entries": [m.entry.number for m in moves],
                                     "tables": sorted({m.from_table.number for m in moves} | {m.to_table.number for m in moves}),
                                     **extra}, actor, stats=False)


def decide(t: Tournament, actor) -> list[Move]:
    """Balance the room by the rules (the caller holds the tournament lock): a break when everyone
    fits at one table fewer, otherwise one move while the tables are out of balance. Returns the
    moves created. When the tables are out of balance and no move is legal, nothing moves and the
    floor gets a notice (the event log, and the map's balancing status)."""
    rules = house_rules(t)
    settings = rule_settings(rules)
    tables = read_room(t)
    created: list[Move] = []
    redrawn = False
    blocked: dict | None = None
    for _step in range(MAX_STEPS):
        playing = balancing_tables(tables)
        if len(playing) < 2:
            break
        states = [row.state(positions=False) for row in playing]
        total = sum(row.players for row in playing)
        if len(playing) == 2:
            # The final table forms when everyone fits at it, at the tournament's final-table size.
            last = max(playing, key=lambda row: (row.break_order, row.number))
            if total <= min(t.final_table_size, last.seats):
                created += redraw(t, actor, [last.number])
                redrawn = True
                break
            breaking = None
        else:
            breaking = bal.table_to_break(states)
        if breaking is not None:
            remaining = len(playing) - 1
            if remaining == 3 and rules.redraw_at_three or remaining == 2 and rules.redraw_at_two:
                created += redraw(t, actor, [row.number for row in playing if row.number != breaking])
                redrawn = True
                break
            if _cancel_moves_into(t, actor, tables, tables[breaking]):
                continue  # those players stay where they sit: decide again
            if not bal.break_fits(states, breaking):
                blocked = {"reason": "break_waits", "tables": [breaking], "message": _(
                    "Table %(table)s breaks as soon as the pending move slips free enough seats at the other tables: "
                    "confirm them, then press Balance now.") % {"table": breaking}}
                break
            created += _break(t, actor, tables, tables[breaking])
            continue
        chosen = bal.pair(states, settings)  # the donor and the receiver: only their positions matter
        if isinstance(chosen, tuple):
            pair_numbers = (chosen[0].number, chosen[1].number)
            states = [tables[state.number].state() if state.number in pair_numbers else state for state in states]
        decision = bal.balance_move(states, settings)
        if decision is None:
            break
        if isinstance(decision, bal.NoMove):
            blocked = no_move_notice(decision)
            break
        if isinstance(decision, bal.NeedButton):
            # Every button the coming moves need, asked at once (and once: the flag stays until the table's
            # positions are known).
            full = [tables[row.number].state() for row in playing]
            for number in [decision.table] + [n for n in bal.buttons_needed(full, settings) if n != decision.table]:
                if Table.objects.filter(tournament=t, number=number, needs_button=False).update(needs_button=True):
                    record_event(t, "table.button_needed", {"table": number}, actor, stats=False)
            break
        move = _create(t, actor, Move.Kind.BALANCE, tables[decision.from_table].occupied[decision.from_seat],
                       tables[decision.from_table], decision.from_seat, tables[decision.to_table], decision.to_seat,
                       decision.position)
        _announce(t, actor, [move], Move.Kind.BALANCE)
        created.append(move)
    flag_halts(t, actor, None if redrawn else tables)
    notify(t, actor, "balance.no_move" if blocked else None, blocked)
    call_next(t, actor)  # a break or a redraw may have ended the hand hand-for-hand waited for
    return created


def no_move_notice(decision: bal.NoMove) -> dict:
    """Why the rules move nobody although the tables are out of balance, for the floor."""
    names = {"donor": decision.donor, "receiver": decision.receiver}
    if decision.reason == bal.NO_MOVER:
        message = _("Table %(donor)s is the fullest, but all its players are already moving out: nobody moves until "
                    "the pending slips are confirmed.") % names
    else:
        message = _("Tables %(donor)s and %(receiver)s are out of balance, but no table short enough to take a player "
                    "has an open seat: nobody moves until a seat is free (confirm or cancel the pending slips).") % names
    return {"reason": decision.reason, "tables": [decision.donor, decision.receiver], "message": message}


def notify(t: Tournament, actor, type_: str | None, payload: dict | None = None) -> None:
    """Tell the floor, once, that balancing is stuck and why (balance.no_move, balance.blocked,
    balance.failed), or that it no longer is (balance.clear). The latest of these events is the
    notice the map's balancing status shows."""
    standing = balancing_notice(t)
    if type_ is None:
        if standing is not None:
            record_event(t, "balance.clear", {}, actor, stats=False)
        return
    if standing is not None and standing["type"] == type_ and all(
            standing.get(k) == v for k, v in (payload or {}).items() if k != "message"):
        return  # the same notice stands: not again after every bust
    record_event(t, type_, payload or {}, actor, stats=False)


def _cancel_moves_into(t: Tournament, actor, tables: dict[int, TableRow], breaking: TableRow) -> bool:
    """A table that breaks takes nobody in: the pending slips to it are cancelled (those players stay)."""
    by_pk = {row.pk: row for row in tables.values()}
    now = timezone.now()
    moves = list(Move.objects.select_for_update().select_related("entry__player", "from_table", "to_table").filter(
        tournament=t, status=Move.Status.PENDING, to_table_id=breaking.pk))
    for move in moves:
        _cancel(t, move, actor, "table breaks", now)
        breaking.reserved.pop(move.to_seat, None)
        if move.from_table_id in by_pk:
            by_pk[move.from_table_id].leaving.pop(move.from_seat, None)
        record_event(t, "move.cancelled", {"move": slip(move), "reason": "table breaks", "entries": [move.entry.number],
                                           "tables": [move.from_table.number, move.to_table.number]}, actor, stats=False)
    return bool(moves)


def _break(t: Tournament, actor, tables: dict[int, TableRow], breaking: TableRow) -> list[Move]:
    """TDA 7: the players of the breaking table get open seats by a random, committed draw over the
    other tables (the late-entry rule keeps them balanced); each slip shows the seat's position."""
    others = [row for row in balancing_tables(tables) if row.number != breaking.number]
    ids = [pk for seat, pk in breaking.occupied.items() if seat not in breaking.leaving]
    entries = list(Entry.objects.filter(tournament=t, pk__in=ids).order_by("number"))
    movers = [e.number for e in entries]
    id_of = {e.number: e.pk for e in entries}
    open_seats = {row.number: [s for s in range(1, row.seats + 1) if s not in row.occupied and s not in row.reserved]
                  for row in others}
    players = {row.number: row.players for row in others}
    accessible = set(Table.objects.filter(tournament=t, in_play=True, accessible=True)
                     .values_list("number", flat=True)) & set(open_seats)  # (an IN list of 1,000 tables costs 50 ms)
    plan = seating.Room.of(open_seats, players, accessible=sorted(accessible))
    needs = needs_of(t, entries)
    inputs = {"table": breaking.number, "entries": movers, **room_json(plan), **needs_inputs(needs)}
    draw = pending_draw(t)
    try:
        result = seating.draw_late(bytes.fromhex(draw.seed), movers, plan, needs)
    except seating.DrawError as exc:
        raise draw_error(exc) from exc
    reveal(t, draw, Draw.Kind.BREAK, inputs, seating.result_rows(result), actor)
    seat_of = {pk: seat for seat, pk in breaking.occupied.items()}
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
    number = _next_number(t)
    for entry_number, (table, seat) in sorted(result.items()):
        moves.append(_create(t, actor, Move.Kind.BREAK, id_of[entry_number], breaking, seat_of[id_of[entry_number]], tables[table], seat,
                             positions[(table, seat)], draw=draw, number=number, save=False))
        number += 1
    Move.objects.bulk_create(moves)  # one statement for the table's slips
    record_event(t, "table.breaking", {"table": breaking.number, "draw": draw.number, "commitment": draw.commitment,
                                       "seed": draw.seed, "entries": movers}, actor, stats=False)
    _announce(t, actor, moves, Move.Kind.BREAK, table=breaking.number, draw=draw.number)
    pending_draw(t)
    return moves


def redraw(t: Tournament, actor, keep: list[int]) -> list[Move]:
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
    plan = seating.Room.of(open_seats, dict.fromkeys(open_seats, 0),
                           accessible=[n for n in keep if tables[n].accessible])
    needs = needs_of(t, [s.entry for s in seats])
    inputs = {"keep": sorted(keep), "entries": entries, **room_json(plan), **needs_inputs(needs)}
    draw = pending_draw(t)
    try:
        result = seating.draw_start(bytes.fromhex(draw.seed), entries, plan, needs)
    except seating.DrawError as exc:
        raise draw_error(exc) from exc
    reveal(t, draw, Draw.Kind.REDRAW, inputs, seating.result_rows(result), actor)
    by_entry = {s.entry.number: s for s in seats}
    for s in seats:
        s.ended_at, s.end_reason = now, Seat.End.MOVE
    Seat.objects.bulk_update(seats, ["ended_at", "end_reason"])
    number = _next_number(t)
    moves = []
    for entry_number, (table, seat) in sorted(result.items()):
        old = by_entry[entry_number]
        Seat.objects.create(tournament=t, entry=old.entry, table=tables[table], seat=seat, draw=draw, seated_at=now)
        moves.append(Move.objects.create(
            tournament=t, number=number, entry=old.entry, kind=Move.Kind.REDRAW, from_table=old.table,
            from_seat=old.seat, to_table=tables[table], to_seat=seat, position="unknown", draw=draw,
            status=Move.Status.DONE, created_at=now, closed_at=now, created_by=actor_user(actor)))
        number += 1
    for n, table in tables.items():
        table.button_seat = table.small_blind_seat = table.big_blind_seat = None
        table.positions_next = table.needs_button = False
        fields = ["button_seat", "small_blind_seat", "big_blind_seat", "positions_next", "needs_button"]
        if n not in keep:
            table.in_play, table.broken_at = False, now
            fields += ["in_play", "broken_at"]
        table.save(update_fields=fields)
    record_event(t, "seating.redrawn", {
        "draw": draw.number, "kind": Draw.Kind.REDRAW, "commitment": draw.commitment, "seed": draw.seed,
        "tables": sorted(keep), "final": len(keep) == 1, "entries": entries,
        "moves": [slip(m) for m in moves],
    }, actor, stats=False)
    pending_draw(t)
    for n in sorted(keep):
        if Seat.objects.filter(table=tables[n], ended_at__isnull=True).count() >= 2:
            software_button(t, tables[n], actor)
    return moves


def _locked_move(t: Tournament, number) -> Move:
    try:
        number = int(number)
    except (TypeError, ValueError):
        number = 0
    move = Move.objects.select_for_update().select_related("entry__player", "from_table", "to_table").filter(
        tournament=t, number=number).first()
    if move is None:
        raise ServiceError(_("There is no move slip %(number)s.") % {"number": number}, code="no_move", status=404)
    if move.status != Move.Status.PENDING:
        raise ServiceError(_("Move slip %(number)s is closed already.") % {"number": number}, code="move_closed", status=409)
    return move


def _finish_break(t: Tournament, table: Table, now) -> bool:
    """A breaking table whose last player has moved is broken."""
    if not Move.objects.filter(from_table=table, kind=Move.Kind.BREAK).exists():
        return False
    if Seat.objects.filter(table=table, ended_at__isnull=True).exists():
        return False
    table.in_play, table.broken_at = False, now
    table.button_seat = table.small_blind_seat = table.big_blind_seat = None
    table.save(update_fields=["in_play", "broken_at", "button_seat", "small_blind_seat", "big_blind_seat"])
    return True


@transaction.atomic
def confirm_move(actor, tournament: Tournament, number) -> Move:
    """The player sat down at the new seat: the old seat ends, the new one begins (chips travel)."""
    require(actor, roles.MOVING)
    t = lock_tournament(tournament.pk)
    move = _locked_move(t, number)
    now = timezone.now()
    seat = Seat.objects.select_for_update().filter(entry=move.entry, ended_at__isnull=True).first()
    if seat is None or (seat.table_id, seat.seat) != (move.from_table_id, move.from_seat):
        raise ServiceError(_("Entry #%(number)s is no longer at table %(table)s seat %(seat)s: cancel this slip.")
                           % {"number": move.entry.number, "table": move.from_table.number, "seat": move.from_seat},
                           code="mover_gone", status=409)
    seat.ended_at, seat.end_reason = now, Seat.End.MOVE
    seat.save(update_fields=["ended_at", "end_reason"])
    move.status, move.closed_at, move.closed_by = Move.Status.DONE, now, actor_user(actor)
    move.save(update_fields=["status", "closed_at", "closed_by"])
    Seat.objects.create(tournament=t, entry=move.entry, table=move.to_table, seat=move.to_seat, draw=move.draw, seated_at=now)
    broken = _finish_break(t, Table.objects.select_for_update().get(pk=move.from_table_id), now)
    record_event(t, "move.done", {"move": slip(move), "entries": [move.entry.number],
                                  "tables": [move.from_table.number, move.to_table.number],
                                  "broken": move.from_table.number if broken else None}, actor, stats=False)
    if broken or not Move.objects.filter(tournament=t, status=Move.Status.PENDING).exists():
        rebalance(t, actor)  # the room as the slips left it: what waited for them (a break, a move) is decided now
    else:
        flag_halts(t, actor)
    call_next(t, actor)
    return move


def _cancel(t: Tournament, move: Move, actor, reason: str, now) -> None:
    move.status, move.closed_at, move.cancel_reason = Move.Status.CANCELLED, now, reason[:200]
    move.closed_by = actor_user(actor)
    move.save(update_fields=["status", "closed_at", "closed_by", "cancel_reason"])


@transaction.atomic
def cancel_move(actor, tournament: Tournament, number, reason: str = "") -> Move:
    """The floor cancels a slip (the reserved seat is free again). The room is not balanced again
    by itself: the floor asks for it ("Balance now") when the cause is fixed."""
    require(actor, roles.MOVING)
    t = lock_tournament(tournament.pk)
    move = _locked_move(t, number)
    if len(reason or "") > 200:
        raise ServiceError(_("The note is too long: at most 200 characters."), code="note_too_long")
    _cancel(t, move, actor, reason or "cancelled", timezone.now())
    record_event(t, "move.cancelled", {"move": slip(move), "reason": reason, "entries": [move.entry.number],
                                       "tables": [move.from_table.number, move.to_table.number]}, actor, stats=False)
    tables = read_room(t)
    flag_halts(t, actor, tables)
    due = balance_due(t, tables)
    if due:  # not balanced again by itself (the floor fixes the cause first), but never out of balance unsaid
        notify(t, actor, "balance.no_move", {"reason": "slip_cancelled", "tables": due, "message": _(
            "Slip %(move)s is cancelled and tables %(tables)s are out of balance: press Balance now when the floor "
            "is ready.") % {"move": move.number, "tables": ", ".join(map(str, due))}})
    call_next(t, actor)
    return move


def balance_due(t: Tournament, tables: dict[int, TableRow]) -> list[int]:
    """The tables a redraw, a break or a move is due between now, by the counts (empty: balanced)."""
    states = [row.state(positions=False) for row in balancing_tables(tables)]
    return bal.due(states, rule_settings(house_rules(t)), t.final_table_size)


@transaction.atomic
def balance_now(actor, tournament: Tournament) -> list[Move]:
    """On demand: decide the moves the rules call for now."""
    require(actor, roles.MOVING)
    t = lock_tournament(tournament.pk)
    return decide(t, actor)


def after_seat_freed(t: Tournament, actor, entry: Entry) -> list[Move]:
    """Called by a bust or a void (tournament lock held): a pending slip of that entry is void, and
    the room is balanced again. Balancing never makes the bust or the void fail: a refusal of the
    rules (a draw that cannot be made) and even a software error in them roll back only the
    balancing (a savepoint), and the floor gets a notice to check the tables and balance by hand."""
    now = timezone.now()
    for move in Move.objects.select_for_update().select_related("entry", "from_table", "to_table").filter(
            entry=entry, status=Move.Status.PENDING):
        _cancel(t, move, actor, "busted", now)
    return rebalance(t, actor, entry)


def rebalance(t: Tournament, actor, entry: Entry | None = None) -> list[Move]:
    """Balance the room after `entry` left or came back, or the rules changed (tournament lock held). Balancing never makes that
    action fail: a refusal of the rules (a draw that cannot be made) and even a software error in them roll
    back only the balancing (a savepoint), and the floor gets a notice to check the tables and balance by hand."""
    if not Seat.objects.filter(tournament=t, ended_at__isnull=True).exists():
        return []
    try:
        with transaction.atomic():
            return decide(t, actor)
    except ServiceError as exc:
        notify(t, actor, "balance.blocked", {"message": str(exc.message), "code": exc.code})
    except Exception as exc:  # a defect in balancing must not undo the bust: logged, and the floor is told
        logger.exception("balancing failed after a change (entry #%s) in tournament %s", entry and entry.number, t.pk)
        notify(t, actor, "balance.failed", {"error": type(exc).__name__, "message": _(
            "Balancing failed with a software error (it is logged); nobody was moved. Check the tables and press "
            "Balance now.")})
    flag_halts(t, actor)
    return []


def cancel_break(t: Tournament, actor, table: Table, reason: str) -> list[Move]:
    """A breaking table stops breaking (an undone bust brought back one player too many for the other
    tables): its pending break slips are cancelled, and its players stay where they sit."""
    now = timezone.now()
    moves = list(Move.objects.select_for_update().select_related("entry__player", "from_table", "to_table").filter(
        tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BREAK, from_table=table))
    for move in moves:
        _cancel(t, move, actor, reason, now)
        record_event(t, "move.cancelled", {"move": slip(move), "reason": reason, "entries": [move.entry.number],
                                           "tables": [move.from_table.number, move.to_table.number]}, actor, stats=False)
    return moves
