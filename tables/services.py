"""Table use cases: open a table, its shuffler token, and the "first shuffle" signal that sets the
level a table plays (club 26, TDA 20: a new level applies from each table's next hand)."""
from __future__ import annotations

import gc
import secrets
from contextlib import contextmanager

from django.db import connection, transaction
from django.db.models import Case, CharField, Max, Min, Q, Value, When
from django.db.models.functions import Concat
from django.utils import timezone
from django.utils.translation import gettext as _

from clock import timeline as tl
from clock.models import ClockState
from clock.services import anchor_of, rows_of
from tournament import roles
from tournament.audit import actor_user, lock_tournament, record_event
from tournament.models import Entry, Player, Tournament
from tournament.services import ServiceError, require

from . import handforhand, positions, seating
from .models import Draw, HandStart, Seat, SeatRequest, Table, hash_token

DEALING = (roles.DEALER, roles.FLOOR)


def clock_level_index(tournament: Tournament, rows: list[tl.Row] | None = None, at=None) -> int:
    """The row of the level announced by now: the level a hand that starts now is played at."""
    rows = rows if rows is not None else rows_of(tournament)
    clock = ClockState.objects.filter(tournament=tournament).first()
    anchor = anchor_of(clock) if clock is not None else None
    if anchor is None:
        first = next((i for i, row in enumerate(rows) if row.number == tournament.current_level), None)
        return first if first is not None else tl.level_in_force(rows, 0)
    at = at or timezone.now()
    return tl.level_in_force(rows, tl.position_at(rows, anchor, at.timestamp()).index)


def level_in_play(table: Table, clock_index: int) -> int:
    """A table that reports its hands plays the level of its last first shuffle; one that does not
    (or has not yet) follows the clock."""
    if table.sends_hand_signals and table.hand_level_index is not None:
        return table.hand_level_index
    return clock_index


def tables_overview(tournament: Tournament) -> list[dict]:
    rows = rows_of(tournament)
    clock_index = clock_level_index(tournament, rows)
    result = []
    for table in Table.objects.filter(tournament=tournament, in_play=True).order_by("number"):
        index = level_in_play(table, clock_index)
        result.append({
            "table": table.number, "id": table.pk, "seats": table.seats, "sends_hand_signals": table.sends_hand_signals,
            "hand": table.hand_number, "hand_started_at": table.hand_started_at.isoformat() if table.hand_started_at else None,
            "level_index": index, "level": rows[index].number if rows else None,
            "on_old_level": index != clock_index,
        })
    return result


@transaction.atomic
def open_table(actor, tournament: Tournament, number: int, seats: int | None = None,
               sends_hand_signals: bool = True, accessible: bool = False) -> tuple[Table, str]:
    """Open a table; returns it and its shuffler token (shown once, stored hashed). Before the start
    draw the highest numbers break first; a table opened after it breaks before every other."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    seats = seats or t.seats_per_table
    if not 1 <= number <= 999:
        raise ServiceError(_("Table numbers run from 1 to 999."), code="table_number")
    if not 2 <= seats <= 10:
        raise ServiceError(_("A table has 2 to 10 seats."), code="table_seats")
    if Table.objects.filter(tournament=t, number=number).exists():
        raise ServiceError(_("Table %(number)s is already open.") % {"number": number}, code="table_exists", status=409)
    order = _late_break_order(t) if start_drawn(t) else -number
    table = Table(tournament=t, number=number, seats=seats, sends_hand_signals=sends_hand_signals, accessible=accessible,
                  break_order=order)
    token = table.new_shuffler_token()
    table.save()
    record_event(t, "table.opened", {"table": number, "seats": seats, "sends_hand_signals": sends_hand_signals,
                                     "accessible": accessible}, actor, stats=False)
    _pending_draw(t)
    return table, token


@transaction.atomic
def renew_shuffler_token(actor, table: Table) -> str:
    require(actor, roles.SETUP)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    token = table.new_shuffler_token()
    table.save(update_fields=["shuffler_token_hash"])
    record_event(t, "table.token_renewed", {"table": table.number}, actor, stats=False)
    return token


def table_for_token(token: str) -> Table | None:
    if not token:
        return None
    return Table.objects.select_related("tournament").filter(shuffler_token_hash=hash_token(token), in_play=True).first()


def _hand_started(actor, table: Table, source: str) -> HandStart:
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if not table.in_play:
        raise ServiceError(_("Table %(number)s is not in play.") % {"number": table.number}, code="table_closed", status=409)
    handforhand.check_hand_start(t, table)
    rows = rows_of(t)
    now = timezone.now()
    level_index = clock_level_index(t, rows, now)
    number = (HandStart.objects.filter(table=table).aggregate(n=Max("number"))["n"] or 0) + 1
    hand = HandStart.objects.create(
        table=table, number=number, at=now, level_index=level_index, previous_level_index=table.hand_level_index,
        previous_started_at=table.hand_started_at, source=source, actor=actor_user(actor),
    )
    changed = table.hand_level_index is not None and table.hand_level_index != level_index
    previous = [*_positions_of(table), table.hand_in_progress]
    nxt = positions.following(table.seats, _dealt_in(t, table), _last_positions(table),
                              table.button_seat if table.positions_next else None)
    hand.previous_positions = previous
    if nxt is not None:
        hand.button, hand.small_blind, hand.big_blind = nxt.button, nxt.small_blind, nxt.big_blind
        table.button_seat, table.small_blind_seat, table.big_blind_seat = nxt.button, nxt.small_blind, nxt.big_blind
        table.positions_next = table.needs_button = False
    hand.save(update_fields=["previous_positions", "button", "small_blind", "big_blind"])
    table.hand_number, table.hand_started_at, table.hand_level_index = number, now, level_index
    table.hand_in_progress = True
    table.save(update_fields=["hand_number", "hand_started_at", "hand_level_index", "hand_in_progress", *POSITION_FIELDS])
    record_event(t, "table.hand_started", {
        "table": table.number, "hand": number, "level": rows[level_index].number, "level_index": level_index,
        "level_changed": changed, "source": source, "positions": nxt.as_dict() if nxt else None,
    }, actor, stats=False)
    return hand


POSITION_FIELDS = ["button_seat", "small_blind_seat", "big_blind_seat", "positions_next", "needs_button"]


def _positions_of(table: Table) -> list:
    return [table.button_seat, table.small_blind_seat, table.big_blind_seat, table.positions_next]


def _last_positions(table: Table) -> positions.Positions | None:
    """The positions of the hand in play or last played, if the software knows them."""
    if table.big_blind_seat is None or table.positions_next:
        return None
    return positions.Positions(table.button_seat, table.small_blind_seat, table.big_blind_seat)


def _dealt_in(t: Tournament, table: Table) -> list[int]:
    """The seats that count for the next hand's positions: the players seated, less those with a
    move slip out (they leave before this hand), plus the seats reserved for players on their way."""
    from .models import Move

    seated = set(live_seats(t).filter(table=table).values_list("seat", flat=True))
    pending = Move.objects.filter(tournament=t, status=Move.Status.PENDING)
    leaving = set(pending.filter(from_table=table).exclude(to_table=table).values_list("from_seat", flat=True))
    arriving = set(pending.filter(to_table=table).values_list("to_seat", flat=True))
    return sorted((seated - leaving) | arriving)


@transaction.atomic
def start_hand(actor, table: Table) -> HandStart:
    """The dealer's "Shuffle / new hand" button."""
    require(actor, DEALING)
    source = HandStart.Source.TABLET if roles.DEALER in roles.user_roles(actor) else HandStart.Source.FLOOR
    return _hand_started(actor, table, source)


@transaction.atomic
def start_hand_by_shuffler(token: str) -> HandStart:
    """An automatic shuffler's green button, authenticated by the table's token."""
    table = table_for_token(token)
    if table is None:
        raise ServiceError(_("Unknown or revoked shuffler token."), code="bad_token", status=403)
    return _hand_started(f"shuffler:table {table.number}", table, HandStart.Source.SHUFFLER)


@transaction.atomic
def undo_hand_start(actor, table: Table) -> HandStart:
    """Undo a mistaken press: the table returns to the hand and level it had before."""
    require(actor, DEALING)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    hand = HandStart.objects.select_for_update().filter(table=table, undone_at__isnull=True).order_by("-number").first()
    if hand is None or hand.number != table.hand_number:
        raise ServiceError(_("There is no hand start to undo at this table."), code="nothing_to_undo", status=409)
    hand.undone_at = timezone.now()
    hand.save(update_fields=["undone_at"])
    handforhand.hand_start_undone(t, table)
    earlier = HandStart.objects.filter(table=table, undone_at__isnull=True, number__lt=hand.number).order_by("-number").first()
    table.hand_number = earlier.number if earlier else 0
    table.hand_started_at, table.hand_level_index = hand.previous_started_at, hand.previous_level_index
    table.hand_in_progress = earlier is not None
    if hand.previous_positions is not None:
        table.button_seat, table.small_blind_seat, table.big_blind_seat, table.positions_next = hand.previous_positions[:4]
        if len(hand.previous_positions) > 4:  # whether the hand before was still in play (not reported done)
            table.hand_in_progress = bool(hand.previous_positions[4])
    table.save(update_fields=["hand_number", "hand_started_at", "hand_level_index", "hand_in_progress", *POSITION_FIELDS])
    record_event(t, "table.hand_start_undone", {"table": table.number, "hand": hand.number}, actor, stats=False)
    return hand


# --- seating: verifiable draws, late entries, corrections, bust-outs (TDA 5, 6) ----------------

SEATING = (roles.FLOOR,)


def live_seats(tournament: Tournament):
    return Seat.objects.filter(tournament=tournament, ended_at__isnull=True)


def _pending_draw(t: Tournament) -> Draw:
    """The commitment for the next draw; created (and announced) when there is none."""
    draw = Draw.objects.select_for_update().filter(tournament=t, drawn_at__isnull=True).first()
    if draw is not None:
        return draw
    seed = secrets.token_bytes(seating.SEED_BYTES)
    number = (Draw.objects.filter(tournament=t).aggregate(n=Max("number"))["n"] or 0) + 1
    draw = Draw.objects.create(tournament=t, number=number, commitment=seating.commitment(seed), seed=seed.hex(),
                               committed_at=timezone.now())
    record_event(t, "draw.committed", {"draw": number, "commitment": draw.commitment}, None, stats=False)
    return draw


@transaction.atomic
def commit_next_draw(actor, tournament: Tournament) -> Draw:
    """Make sure the room can see the commitment of the next draw before anything is drawn."""
    require(actor, SEATING)
    t = lock_tournament(tournament.pk)
    return _pending_draw(t)


def pending_commitment(tournament: Tournament) -> dict | None:
    draw = Draw.objects.filter(tournament=tournament, drawn_at__isnull=True).first()
    return None if draw is None else {"draw": draw.number, "commitment": draw.commitment}


def _reveal(t: Tournament, draw: Draw, kind: str, inputs: dict, result, actor) -> Draw:
    draw.kind, draw.inputs, draw.result, draw.drawn_at = kind, inputs, result, timezone.now()
    draw.actor = actor_user(actor)
    draw.save(update_fields=["kind", "inputs", "result", "drawn_at", "actor"])
    return draw


def _room_of(t: Tournament, tables: list[Table]) -> tuple[seating.Room, dict[int, Table]]:
    """Open seats and player counts of the given tables, in one query."""
    by_id = {table.pk: table for table in tables}
    taken: dict[int, set[int]] = {table.pk: set() for table in tables}
    for table_id, seat in live_seats(t).filter(table_id__in=list(by_id)).values_list("table_id", "seat"):
        taken[table_id].add(seat)
    for table_id, seat in reserved_seats(t, list(by_id)):
        taken[table_id].add(seat)
    open_seats = {table.number: [s for s in range(1, table.seats + 1) if s not in taken[table.pk]] for table in tables}
    players = {table.number: len(taken[table.pk]) for table in tables}
    room = seating.Room.of(open_seats, players, accessible=[table.number for table in tables if table.accessible])
    return room, {table.number: table for table in tables}


def reserved_seats(t: Tournament, table_ids: list[int]) -> list[tuple[int, int]]:
    """Seats held for players on their way: the destinations of pending move slips."""
    from .models import Move

    return list(Move.objects.filter(tournament=t, status=Move.Status.PENDING, to_table_id__in=table_ids)
                .values_list("to_table_id", "to_seat"))


def _needs_of(t: Tournament, entries) -> dict[int, seating.Need]:
    """The special needs of the given entries (anything with `number` and `player_id`), by entry number.
    One query for the tournament's live requests (a handful), not an IN list of every entry's player."""
    requests = {player: seating.Need(table=table, seat=seat, accessible=accessible)
                for player, table, seat, accessible in SeatRequest.objects.filter(tournament=t, cancelled_at__isnull=True)
                .values_list("player_id", "table_number", "seat", "accessible")}
    if not requests:
        return {}
    return {entry.number: requests[entry.player_id] for entry in entries if entry.player_id in requests}


def _draw_error(exc: seating.DrawError) -> ServiceError:
    d = exc.details
    messages = {
        "no_open_seat": _("There are not enough open seats: open another table first."),
        "fixed_seat_taken": _("Entry #%(entry)s is to have table %(table)s seat %(seat)s, but that seat is not open."),
        "need_unmet": _("Entry #%(entry)s needs a table that has no open seat (a fixed table or an accessible one): "
                        "open one or change the request."),
        "duplicate_entry": _("An entry is listed twice."),
    }
    message = messages.get(exc.code, _("The draw is not possible with these tables."))
    try:
        message = message % d
    except (KeyError, TypeError):
        pass
    return ServiceError(message, code=exc.code, status=409, details={k: v for k, v in d.items() if v is not None})


def _need_json(needs: dict[int, seating.Need]) -> dict[str, dict]:
    return {str(n): {"table": need.table, "seat": need.seat, "accessible": need.accessible} for n, need in sorted(needs.items())}


def _room_json(room: seating.Room) -> dict:
    return {"open_seats": {str(t): list(s) for t, s in room.open_seats.items()},
            "players": {str(t): n for t, n in room.players.items()},
            "accessible": sorted(room.accessible)}


def start_drawn(tournament: Tournament) -> bool:
    return Draw.objects.filter(tournament=tournament, kind=Draw.Kind.START).exists()


def _choose_tables(t: Tournament, count: int, needs: dict[int, seating.Need]) -> list:
    """The fewest tables that seat `count` entries evenly: tables that special needs require, then
    the tables that break last (TDA 5: as few tables as needed). Returns rows with `pk`, `number`,
    `seats` and `accessible` (what _room_of and _write_seats read), in ascending table number."""
    tables = list(Table.objects.filter(tournament=t, in_play=True).order_by("-break_order", "number")
                  .values_list("pk", "number", "seats", "accessible", named=True))
    if not tables:
        raise ServiceError(_("Open the tables first: no table is in play."), code="no_tables", status=409)
    required = {need.table for need in needs.values() if need.table is not None}
    chosen = [table for table in tables if table.number in required]
    if any(need.accessible for need in needs.values()) and not any(table.accessible for table in chosen):
        chosen += [table for table in tables if table.accessible][:1]
    taken = {table.pk for table in chosen}
    rest = [table for table in tables if table.pk not in taken]
    # Running totals (capacity and the smallest table) instead of re-summing: the same tables as adding
    # one at a time and re-checking, in linear time.
    capacity = sum(table.seats for table in chosen)
    smallest = min((table.seats for table in chosen), default=0)
    for table in rest:
        if chosen and capacity >= count and -(-count // len(chosen)) <= smallest:
            break
        chosen.append(table)
        capacity += table.seats
        smallest = table.seats if len(chosen) == 1 else min(smallest, table.seats)
    if capacity < count:
        raise ServiceError(_("%(entries)s entries need more seats than the %(seats)s seats at the open tables: open more tables.")
                           % {"entries": count, "seats": sum(table.seats for table in tables)}, code="no_open_seat", status=409)
    return sorted(chosen, key=lambda table: table.number)


def _write_seats(t: Tournament, draw: Draw, result: dict[int, tuple[int, int]], entries: dict[int, Entry],
                 tables: dict[int, Table], now) -> int:
    """One set-based INSERT on PostgreSQL (DESIGN.md pitfalls: 10,000 seats through bulk_create spent
    most of a start draw building model instances); bulk_create elsewhere. Returns the seats written."""
    entry_ids = [entries[number].pk for number in result]
    table_ids = [tables[table].pk for table, _seat in result.values()]
    seats = [seat for _table, seat in result.values()]
    if connection.vendor == "postgresql":
        # The arrays travel as array literals ('{1,2,3}'): adapting 3 x 10,000 Python ints one by one
        # took ~40 ms of the draw, the literal ~5 ms. int() keeps anything but digits out.
        entry_ids, table_ids, seats = ("{" + ",".join(str(int(v)) for v in values) + "}"
                                       for values in (entry_ids, table_ids, seats))
        f = {name: Seat._meta.get_field(name).column for name in ("tournament", "entry", "table", "seat", "draw",
                                                                 "seated_at", "end_reason")}
        sql = (f'INSERT INTO "{Seat._meta.db_table}" ("{f["tournament"]}", "{f["entry"]}", "{f["table"]}", "{f["seat"]}", '
               f'"{f["draw"]}", "{f["seated_at"]}", "{f["end_reason"]}") '
               "SELECT %s, e, tb, s, %s, %s, '' FROM unnest(%s::bigint[], %s::bigint[], %s::smallint[]) AS u(e, tb, s)")
        with connection.cursor() as cursor:
            cursor.execute(sql, [t.pk, draw.pk, now, entry_ids, table_ids, seats])
            return cursor.rowcount
    rows = [Seat(tournament_id=t.pk, entry_id=e, table_id=tb, seat=s, draw_id=draw.pk, seated_at=now)
            for e, tb, s in zip(entry_ids, table_ids, seats, strict=True)]
    return len(Seat.objects.bulk_create(rows, batch_size=2000))


@contextmanager
def _gc_paused():
    """No cyclic garbage collection while a read or a draw builds tens of thousands of rows, tuples,
    dicts and lists (none of them in reference cycles: reference counting frees them). Every ~700 such
    allocations start a collection, and in a process of 100,000+ objects every so many a full one:
    50-70 ms here, of a 500 ms budget for the draw and a 100 ms one for the floor map. Process-wide
    while it lasts (the allocations made meanwhile are counted, and collected after as usual);
    collection resumes at the end if it was on."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _fast_toast_compression() -> None:
    """For the rest of the transaction, compress large values with lz4 where the server has it: the
    start draw's row (inputs and result, ~270 KB of JSON) took ~35 ms to write with pglz, ~12 ms with
    lz4. The same values are stored and read back; only their compression on disk differs."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT set_config('default_toast_compression', 'lz4', true) FROM pg_settings "
                       "WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)")


def _start_room(t: Tournament, tables: list) -> tuple[seating.Room, dict]:
    """_room_of for the start draw, which offers every chosen table: the same room, with the live seats
    read by tournament (an indexed query, usually of no rows) rather than through an IN list of every
    table id (~13 ms at 1,112 tables)."""
    by_id = {table.pk: table for table in tables}
    taken: dict[int, set[int]] = {table.pk: set() for table in tables}
    for table_id, seat in live_seats(t).values_list("table_id", "seat"):
        if table_id in taken:
            taken[table_id].add(seat)
    for table_id, seat in reserved_seats(t, list(by_id)):
        taken[table_id].add(seat)
    open_seats = {table.number: [s for s in range(1, table.seats + 1) if s not in taken[table.pk]] for table in tables}
    players = {table.number: len(taken[table.pk]) for table in tables}
    room = seating.Room.of(open_seats, players, accessible=[table.number for table in tables if table.accessible])
    return room, {table.number: table for table in tables}


def _unseated_entries(t: Tournament) -> list:
    """The live entries without a seat, by number: rows of `pk`, `number` and `player_id` only (full
    model instances of 10,000 entries took ~280 ms of the start draw)."""
    return list(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
                .exclude(pk__in=live_seats(t).values("entry_id")).order_by("number")
                .values_list("pk", "number", "player_id", named=True))


@transaction.atomic
def draw_start(actor, tournament: Tournament) -> Draw:
    """The start draw (TDA 5): every registered entry to a random seat, tables filled evenly, the
    fewest tables needed; driven by the seed committed beforehand, which is revealed with the result."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    if start_drawn(t):
        raise ServiceError(_("The start draw is done already; new entries are seated as they register."),
                           code="already_drawn", status=409)
    draw = _pending_draw(t)
    with _gc_paused():
        entries = _unseated_entries(t)
        if not entries:
            raise ServiceError(_("There is nobody to seat: register entries first."), code="no_entries", status=409)
        needs = _needs_of(t, entries)
        tables = _choose_tables(t, len(entries), needs)
        room, by_number = _start_room(t, tables)
        inputs = {"entries": [e.number for e in entries], **_room_json(room), "needs": _need_json(needs)}
        try:
            result = seating.draw_start(bytes.fromhex(draw.seed), inputs["entries"], room, needs)
        except seating.DrawError as exc:
            raise _draw_error(exc) from exc
        now = timezone.now()
        _write_seats(t, draw, result, {e.number: e for e in entries}, by_number, now)
        _fast_toast_compression()
        _reveal(t, draw, Draw.Kind.START, inputs, _result_json(result), actor)
    if t.status == Tournament.Status.SETUP:
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    record_event(t, "seating.drawn", {
        "draw": draw.number, "kind": draw.kind, "commitment": draw.commitment, "seed": draw.seed,
        "seated": len(result), "tables": sorted(by_number),
    }, actor, stats=False)
    _pending_draw(t)
    return draw


def _result_json(result: dict[int, tuple[int, int]]) -> list[list[int]]:
    return [[entry, table, seat] for entry, (table, seat) in sorted(result.items())]


def seat_late_entries(actor, t: Tournament, entries: list[Entry], kind: str = Draw.Kind.LATE) -> Draw:
    """Late entries and re-entries (TDA 5): each to a random open seat at a table with the fewest
    players. The caller holds the tournament lock and checked the role."""
    draw = _pending_draw(t)
    tables = list(Table.objects.filter(tournament=t, in_play=True).order_by("number"))
    room, by_number = _room_of(t, tables)
    needs = _needs_of(t, entries)
    inputs = {"entries": sorted(e.number for e in entries), **_room_json(room), "needs": _need_json(needs)}
    try:
        result = seating.draw_late(bytes.fromhex(draw.seed), inputs["entries"], room, needs)
    except seating.DrawError as exc:
        raise _draw_error(exc) from exc
    _write_seats(t, draw, result, {e.number: e for e in entries}, by_number, timezone.now())
    _reveal(t, draw, kind, inputs, _result_json(result), actor)
    record_event(t, "seating.drawn", {
        "draw": draw.number, "kind": kind, "commitment": draw.commitment, "seed": draw.seed, "seated": len(result),
        "entries": sorted(result), "seats": [{"entry": n, "table": tb, "seat": s} for n, (tb, s) in sorted(result.items())],
    }, actor, stats=False)
    _pending_draw(t)
    return draw


@transaction.atomic
def seat_waiting_entries(actor, tournament: Tournament) -> Draw:
    """Seat every live entry that has no seat yet (after the start draw), by the late-entry rule."""
    require(actor, SEATING)
    t = lock_tournament(tournament.pk)
    if not start_drawn(t):
        raise ServiceError(_("Make the start draw first."), code="not_drawn", status=409)
    entries = list(Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
                   .exclude(pk__in=live_seats(t).values("entry_id")).order_by("number"))
    if not entries:
        raise ServiceError(_("Every live entry has a seat."), code="nobody_waiting", status=409)
    return seat_late_entries(actor, t, entries)


def seat_new_entry(actor, t: Tournament, entry: Entry) -> Seat | None:
    """Called by registration (tournament lock held): after the start draw, a new entry is seated at once."""
    if not start_drawn(t):
        return None
    seat_late_entries(actor, t, [entry])
    return live_seats(t).select_related("table").get(entry=entry)


def seat_of(entry: Entry) -> Seat | None:
    return Seat.objects.select_related("table").filter(entry=entry, ended_at__isnull=True).first()


def _seat_payload(entry: Entry, seat: Seat | None) -> dict:
    return {"entry": entry.number, "name": entry.player.display_name,
            "table": seat.table.number if seat else None, "seat": seat.seat if seat else None}


def _end_seat(seat: Seat | None, reason: str, now) -> None:
    if seat is not None:
        seat.ended_at, seat.end_reason = now, reason
        seat.save(update_fields=["ended_at", "end_reason"])


def _locked_entry(t: Tournament, entry: Entry) -> Entry:
    return Entry.objects.select_for_update().select_related("player").get(pk=entry.pk, tournament=t)


def _open_table(t: Tournament, number) -> Table:
    table = Table.objects.select_for_update().filter(tournament=t, number=number).first()
    if table is None:
        raise ServiceError(_("There is no table %(number)s.") % {"number": number}, code="no_table", status=404)
    if not table.in_play:
        raise ServiceError(_("Table %(number)s is not in play.") % {"number": table.number}, code="table_closed", status=409)
    return table


def _check_seat_open(t: Tournament, table: Table, seat) -> int:
    try:
        seat = int(seat)
    except (TypeError, ValueError):
        seat = 0
    if not 1 <= seat <= table.seats:
        raise ServiceError(_("Table %(table)s has seats 1 to %(seats)s.") % {"table": table.number, "seats": table.seats},
                           code="bad_seat")
    taken = live_seats(t).filter(table=table, seat=seat).select_related("entry").first()
    if taken is not None or (table.pk, seat) in set(reserved_seats(t, [table.pk])):
        raise ServiceError(_("Table %(table)s seat %(seat)s is not free.") % {"table": table.number, "seat": seat},
                           code="seat_taken", status=409)
    return seat


@transaction.atomic
def correct_seat(actor, entry: Entry, table_number: int, seat_number: int) -> Seat:
    """A player found in the wrong seat goes to the right one and keeps the stack (TDA 5)."""
    require(actor, SEATING)
    t = lock_tournament(entry.tournament_id)
    e = _locked_entry(t, entry)
    if e.status != Entry.Status.ACTIVE:
        raise ServiceError(_("Entry #%(number)s is not playing.") % {"number": e.number}, code="entry_not_active", status=409)
    if not start_drawn(t):  # the first seats come from the random draw, never by hand
        raise ServiceError(_("Make the start draw first."), code="not_drawn", status=409)
    table = _open_table(t, table_number)
    seat_number = _check_seat_open(t, table, seat_number)
    old = live_seats(t).select_for_update().select_related("table").filter(entry=e).first()
    now = timezone.now()
    _end_seat(old, Seat.End.CORRECTION, now)
    new = Seat.objects.create(tournament=t, entry=e, table=table, seat=seat_number, seated_at=now)
    record_event(t, "seat.corrected", {
        "entry": e.number, "name": e.player.display_name, "entries": [e.number],
        "from": {"table": old.table.number, "seat": old.seat} if old else None,
        "to": {"table": table.number, "seat": seat_number},
    }, actor, stats=False)
    return new


def free_seat(t: Tournament, entry: Entry, reason: str) -> Seat | None:
    """End the entry's seat (bust, void); the caller holds the tournament lock. Returns the seat."""
    seat = live_seats(t).select_for_update().select_related("table").filter(entry=entry).first()
    _end_seat(seat, reason, timezone.now())
    return seat


def reseat_after_undo(actor, t: Tournament, entry: Entry) -> Seat | None:
    """A bust undone: back to the entry's last seat if it is still free, otherwise by the late-entry rule."""
    last = Seat.objects.select_related("table").filter(entry=entry, end_reason=Seat.End.BUST).order_by("-ended_at").first()
    if last is not None and last.table.in_play:
        free = not live_seats(t).filter(table=last.table, seat=last.seat).exists() and \
            (last.table_id, last.seat) not in set(reserved_seats(t, [last.table_id]))
        if free:
            return Seat.objects.create(tournament=t, entry=entry, table=last.table, seat=last.seat, seated_at=timezone.now())
    if start_drawn(t):
        seat_late_entries(actor, t, [entry])
        return seat_of(entry)
    return None


# --- tables: break order, in play, the button ---------------------------------------------------


@transaction.atomic
def set_break_order(actor, tournament: Tournament, numbers: list[int]) -> list[int]:
    """The director's break order: the tables in play, each once, first to break first."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    tables = {table.number: table for table in Table.objects.select_for_update().filter(tournament=t, in_play=True)}
    try:
        numbers = [int(n) for n in numbers]
    except (TypeError, ValueError):
        raise ServiceError(_("List the table numbers in the order they break."), code="bad_order") from None
    if sorted(numbers) != sorted(tables) or len(set(numbers)) != len(numbers):
        raise ServiceError(_("List every table in play exactly once (tables in play: %(tables)s).")
                           % {"tables": ", ".join(str(n) for n in sorted(tables))}, code="bad_order")
    for position, number in enumerate(numbers, start=1):
        Table.objects.filter(pk=tables[number].pk).update(break_order=position)
    record_event(t, "tables.break_order", {"order": numbers}, actor, stats=False)
    return numbers


def break_order(tournament: Tournament) -> list[int]:
    return list(Table.objects.filter(tournament=tournament, in_play=True).order_by("break_order", "number")
                .values_list("number", flat=True))


@transaction.atomic
def set_table_in_play(actor, table: Table, in_play: bool) -> Table:
    require(actor, roles.SETUP)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.in_play == in_play:
        return table
    if not in_play and live_seats(t).filter(table=table).exists():
        raise ServiceError(_("Table %(number)s still has players: move them or break the table first.")
                           % {"number": table.number}, code="table_has_players", status=409)
    table.in_play = in_play
    if in_play and start_drawn(t):
        table.break_order = _late_break_order(t)
    table.save(update_fields=["in_play", "break_order"])
    record_event(t, "table.in_play" if in_play else "table.out_of_play", {"table": table.number}, actor, stats=False)
    return table


def _late_break_order(t: Tournament) -> int:
    """A table added after the start draw breaks first (before every table already in play)."""
    first = Table.objects.filter(tournament=t, in_play=True).aggregate(n=Min("break_order"))["n"]
    return (first if first is not None else 1) - 1


@transaction.atomic
def draw_button(actor, table: Table, cards: dict | None = None, seat: int | None = None) -> dict:
    """The button draw (TDA 2 and house rules): high card, suits spades > hearts > diamonds > clubs.
    With no input the software deals one card per occupied seat from a committed, shuffled deck;
    `cards` ({seat: "As"}) records the dealt result; `seat` sets the button where the floor says."""
    require(actor, SEATING)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    occupied = sorted(live_seats(t).filter(table=table).values_list("seat", flat=True))
    if not occupied:
        raise ServiceError(_("Table %(number)s has nobody seated.") % {"number": table.number}, code="table_empty", status=409)
    if seat is not None:
        try:
            winner = int(seat)
        except (TypeError, ValueError):
            winner = 0
        if winner not in occupied:
            raise ServiceError(_("The button goes to an occupied seat (%(seats)s).") % {"seats": ", ".join(map(str, occupied))},
                               code="bad_seat")
        dealt = {}
    elif cards:
        try:
            dealt = {int(k): seating.normal_card(str(v)) for k, v in cards.items()}
            if sorted(dealt) != occupied:
                raise ServiceError(_("Enter one card for each occupied seat (%(seats)s).") % {"seats": ", ".join(map(str, occupied))},
                                   code="bad_cards")
            winner = seating.high_card_winner(dealt)
        except (ValueError, seating.DrawError) as exc:
            if isinstance(exc, ServiceError):
                raise
            raise ServiceError(_("Write each card as rank and suit, for example As, Td, 9c, each card once."),
                               code="bad_cards") from exc
    else:
        return software_button(t, table, actor)
    return _set_button(t, table, actor, winner, dealt, None)


def software_button(t: Tournament, table: Table, actor) -> dict:
    """The software's high-card draw for the button, from the committed seed (lock held)."""
    occupied = sorted(live_seats(t).filter(table=table).values_list("seat", flat=True))
    draw = _pending_draw(t)
    dealt = seating.deal_high_card(bytes.fromhex(draw.seed), occupied)
    winner = seating.high_card_winner(dealt)
    _reveal(t, draw, Draw.Kind.BUTTON, {"table": table.number, "seats": occupied},
            {"cards": {str(k): v for k, v in dealt.items()}, "button": winner}, actor)
    result = _set_button(t, table, actor, winner, dealt, draw.number)
    _pending_draw(t)
    return result


def _set_button(t: Tournament, table: Table, actor, winner: int, dealt: dict, draw_number: int | None) -> dict:
    """A button draw gives the button of the table's next hand; the blinds follow from it."""
    table.button_seat, table.small_blind_seat, table.big_blind_seat, table.positions_next = winner, None, None, True
    table.needs_button = False
    table.save(update_fields=POSITION_FIELDS)
    record_event(t, "table.button", {"table": table.number, "seat": winner, "cards": {str(k): v for k, v in dealt.items()},
                                     "draw": draw_number}, actor, stats=False)
    return {"table": table.number, "button": winner, "cards": dealt, "draw": draw_number}


@transaction.atomic
def enter_button(actor, table: Table, seat) -> dict:
    """The floor tells where the button is in the hand being played (or just played) at a table
    whose positions the software does not know (no hand signals, or no button draw); a move that
    waited for it is then decided."""
    from . import moves

    require(actor, SEATING)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    occupied = sorted(live_seats(t).filter(table=table).values_list("seat", flat=True))
    try:
        button = int(seat)
    except (TypeError, ValueError):
        button = 0
    if button not in occupied or len(occupied) < 2:
        raise ServiceError(_("The button goes to an occupied seat (%(seats)s).") % {"seats": ", ".join(map(str, occupied))},
                           code="bad_seat")
    now = positions.first_hand(table.seats, occupied, button)
    table.button_seat, table.small_blind_seat, table.big_blind_seat = now.button, now.small_blind, now.big_blind
    table.positions_next = table.needs_button = False
    table.save(update_fields=POSITION_FIELDS)
    record_event(t, "table.positions", {"table": table.number, "positions": now.as_dict(), "source": "floor"},
                 actor, stats=False)
    moves.decide(t, actor)
    return {"table": table.number, "positions": now.as_dict()}


# --- special needs (TDA 6) -----------------------------------------------------------------------


@transaction.atomic
def set_seat_request(actor, tournament: Tournament, player: Player, *, table_number: int | None = None,
                     seat: int | None = None, accessible: bool = False, note: str = "") -> SeatRequest:
    """A fixed table (and seat) or an accessible table for a player; every later draw honours it."""
    require(actor, SEATING)
    t = lock_tournament(tournament.pk)
    if seat is not None and table_number is None:
        raise ServiceError(_("A fixed seat needs its table."), code="seat_without_table")
    if table_number is None and not accessible:
        raise ServiceError(_("Choose a fixed table (and seat) or an accessible table."), code="empty_request")
    if table_number is not None:
        table = Table.objects.filter(tournament=t, number=table_number).first()
        if table is None:
            raise ServiceError(_("There is no table %(number)s.") % {"number": table_number}, code="no_table", status=404)
        if seat is not None and not 1 <= int(seat) <= table.seats:
            raise ServiceError(_("Table %(table)s has seats 1 to %(seats)s.") % {"table": table.number, "seats": table.seats},
                               code="bad_seat")
    if len(note or "") > 200:
        raise ServiceError(_("The note is too long: at most 200 characters."), code="note_too_long")
    now = timezone.now()
    SeatRequest.objects.filter(tournament=t, player=player, cancelled_at__isnull=True).update(cancelled_at=now)
    request = SeatRequest.objects.create(tournament=t, player=player, table_number=table_number, seat=seat,
                                         accessible=accessible, note=note or "", created_at=now, created_by=actor)
    record_event(t, "seat_request.set", {"player": player.pk, "name": player.display_name, "table": table_number,
                                         "seat": seat, "accessible": accessible}, actor, stats=False)
    return request


@transaction.atomic
def cancel_seat_request(actor, tournament: Tournament, player: Player) -> int:
    require(actor, SEATING)
    t = lock_tournament(tournament.pk)
    n = SeatRequest.objects.filter(tournament=t, player=player, cancelled_at__isnull=True).update(cancelled_at=timezone.now())
    if not n:
        raise ServiceError(_("%(name)s has no seat request.") % {"name": player.display_name}, code="no_request", status=404)
    record_event(t, "seat_request.cancelled", {"player": player.pk, "name": player.display_name}, actor, stats=False)
    return n


# --- read models: the floor's table map, a player's seat, a draw's verification ------------------


def floor_map(tournament: Tournament) -> dict:
    """Every table in play with its seats and players, in a constant number of queries (four): rows of
    values rather than model instances, the names put together by the database, and the break order,
    start_drawn() and pending_commitment() taken from rows read here. At festival scale it builds
    ~25,000 small objects; with the collector paused no call pays for a full collection (one call in
    ten otherwise took 35-70 ms longer)."""
    with _gc_paused():
        return _floor_map(tournament)


def _floor_map(tournament: Tournament) -> dict:
    tables = list(Table.objects.filter(tournament=tournament).order_by("number").values_list(
        "pk", "number", "seats", "in_play", "accessible", "button_seat", "broken_at", "break_order", named=True))
    player = "entry__player__"  # the name as Player.display_name writes it: "First Last (Nickname)"
    name = Concat(f"{player}first_name", Value(" "), f"{player}last_name",
                  Case(When(**{f"{player}nickname": ""}, then=Value("")),
                       default=Concat(Value(" ("), f"{player}nickname", Value(")"))), output_field=CharField())
    seated: dict[int, dict[int, dict]] = {table.pk: {} for table in tables}
    for table_id, seat, number, display_name in live_seats(tournament).order_by().values_list(
            "table_id", "seat", "entry__number", name):
        seated[table_id][seat] = {"seat": seat, "entry": number, "name": display_name}
    in_play = [table for table in tables if table.in_play]
    counts = [len(seated[table.pk]) for table in in_play]
    most = max(counts, default=0)
    waiting = Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).exclude(
        pk__in=live_seats(tournament).values("entry_id")).count()
    order = {table.number: i for i, table in enumerate(sorted(in_play, key=lambda table: (table.break_order, table.number)),
                                                       start=1)}
    drawn, next_draw = False, None
    for kind, drawn_at, number, commitment in (Draw.objects.filter(tournament=tournament)
                                               .filter(Q(kind=Draw.Kind.START) | Q(drawn_at__isnull=True))
                                               .order_by("number").values_list("kind", "drawn_at", "number", "commitment")):
        drawn = drawn or kind == Draw.Kind.START
        if drawn_at is None and next_draw is None:
            next_draw = {"draw": number, "commitment": commitment}
    result = []
    for table in tables:
        players = seated[table.pk]
        if not table.in_play:
            status = "broken" if table.broken_at else "closed"
        elif len(players) == table.seats:
            status = "full"
        elif most - len(players) >= 2:
            status = "short"
        else:
            status = "open"
        result.append({
            "table": table.number, "seats": table.seats, "in_play": table.in_play, "accessible": table.accessible,
            "button": table.button_seat, "break_position": order.get(table.number), "players": len(players),
            "status": status,
            "seat_list": [players.get(s) or {"seat": s, "entry": None, "name": None} for s in range(1, table.seats + 1)],
        })
    return {"tables": result, "players_seated": sum(counts), "waiting": waiting,
            "start_drawn": drawn, "next_draw": next_draw}


def public_seat(tournament: Tournament, entry_number: int) -> dict | None:
    """What the player's seat page shows: name, table and seat (nothing personal)."""
    entry = Entry.objects.select_related("player").filter(tournament=tournament, number=entry_number).first()
    if entry is None or entry.status == Entry.Status.VOIDED:
        return None
    from .models import Move
    from .moves import after_hand

    seat = seat_of(entry)
    move = Move.objects.filter(entry=entry, status=Move.Status.PENDING).select_related("from_table", "to_table").first()
    return {"entry": entry.number, "name": entry.player.display_name, "status": entry.status,
            "table": seat.table.number if seat else None, "seat": seat.seat if seat else None,
            "seated_at": seat.seated_at.isoformat() if seat else None, "place": entry.finish_place,
            "place_low": entry.finish_place_low or entry.finish_place,
            # A pending move slip: where the player goes, with the position waiting there.
            "move": {"table": move.to_table.number, "seat": move.to_seat, "position": move.position,
                     "after_hand": after_hand(move)}
            if move else None}


def find_entries(tournament: Tournament, query: str, limit: int = 20) -> list[dict]:
    """Public lookup by entry number or name (names only)."""
    query = (query or "").strip()
    entries = Entry.objects.filter(tournament=tournament).exclude(status=Entry.Status.VOIDED).select_related("player")
    if query.lstrip("#").isdigit():
        entries = entries.filter(number=int(query.lstrip("#")))
    elif len(query) >= 2:
        from django.db.models import Q

        for word in query.split():
            entries = entries.filter(Q(player__first_name__icontains=word) | Q(player__last_name__icontains=word)
                                     | Q(player__nickname__icontains=word))
    else:
        return []
    return [{"entry": e.number, "name": e.player.display_name, "status": e.status} for e in entries.order_by("number")[:limit]]


def verify_draw(draw: Draw) -> dict:
    """Recompute a revealed draw from its seed and inputs and compare it with what was recorded
    (and with the seats written for it)."""
    if draw.drawn_at is None:
        return {"draw": draw.number, "revealed": False, "commitment": draw.commitment}
    seed = bytes.fromhex(draw.seed)
    data = draw.inputs or {}
    commitment_ok = seating.commitment(seed) == draw.commitment
    if draw.kind == Draw.Kind.BUTTON:
        dealt = seating.deal_high_card(seed, data["seats"])
        recomputed = {"cards": {str(k): v for k, v in dealt.items()}, "button": seating.high_card_winner(dealt)}
        written = None
    else:
        room = seating.Room.of({int(t): s for t, s in data["open_seats"].items()},
                               {int(t): n for t, n in data["players"].items()}, data.get("accessible", []))
        needs = {int(n): seating.Need(**need) for n, need in data.get("needs", {}).items()}
        fn = seating.draw_start if draw.kind in (Draw.Kind.START, Draw.Kind.REDRAW) else seating.draw_late
        recomputed = _result_json(fn(seed, data["entries"], room, needs))
        if draw.kind == Draw.Kind.BREAK:  # the players of a broken table: the slips hold the draw's seats
            written = sorted([m.entry.number, m.to_table.number, m.to_seat] for m in draw.moves.select_related("entry", "to_table"))
        else:
            written = sorted([s.entry.number, s.table.number, s.seat] for s in draw.seats.select_related("entry", "table"))
    return {"draw": draw.number, "kind": draw.kind, "revealed": True, "commitment": draw.commitment, "seed": draw.seed,
            "commitment_matches": commitment_ok, "inputs": data, "result": draw.result, "recomputed": recomputed,
            "matches": commitment_ok and recomputed == draw.result and (written is None or written == draw.result),
            "written": written}
