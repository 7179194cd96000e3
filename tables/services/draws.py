"""Verifiable draws (docs/architecture.md, "Randomness"): the commitment of the next draw, the start draw, late
entries and re-entries, the seats written for a draw, and the button draw. The shuffles are the pure
rules of tables/rules/seating.py; this module feeds them the room and writes what they decide."""

from __future__ import annotations

import secrets
from collections import Counter
from typing import NamedTuple

from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, next_number, require
from tables.models import Draw, Move, Seat, Table
from tables.rules import seating
from tables.rules.positions import POSITION_FIELDS
from tables.selectors.state import breaking_tables, live_seats, needs_of, reserved_seats, start_drawn, tie_orders
from tables.services import venue
from tables.services.venue import numbers_of
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_user, lock_tournament, record_event
from venues.services import sit_and_go


def pending_draw(t: Tournament) -> Draw:
    """The commitment for the next draw; created (and announced) when there is none."""
    draw = Draw.objects.select_for_update().filter(tournament=t, drawn_at__isnull=True).first()
    if draw is not None:
        return draw
    seed = secrets.token_bytes(seating.SEED_BYTES)
    number = next_number(Draw.objects.filter(tournament=t))
    draw = Draw.objects.create(
        tournament=t, number=number, commitment=seating.commitment(seed), seed=seed.hex(), committed_at=timezone.now()
    )
    record_event(t, actor=None, type_="draw.committed", payload={"draw": number, "commitment": draw.commitment}, stats=False)
    return draw


@transaction.atomic
def commit_next_draw(tournament: Tournament, *, actor: Actor) -> Draw:
    """Make sure the room can see the commitment of the next draw before anything is drawn."""
    require(actor, roles.SEATING)
    t = lock_tournament(tournament.pk)
    return pending_draw(t)


def run_draw(t: Tournament, *, actor: Actor, kind: str, inputs: dict, compute) -> tuple[Draw, object]:
    """Every draw (docs/architecture.md, "Randomness"): the seed committed beforehand runs `compute(seed) -> (result,
    recorded)`, and the draw is revealed with its inputs and what it recorded. Returns the draw and the
    result for the caller to write; the caller commits the next seed (pending_draw) once its events are
    recorded. A draw the rules refuse raises from `compute`, and nothing is revealed."""
    draw = pending_draw(t)
    result, recorded = compute(bytes.fromhex(draw.seed))
    reveal(t, actor=actor, draw=draw, kind=kind, inputs=inputs, result=recorded)
    return draw, result


def seat_draw(
    t: Tournament, *, actor: Actor, kind: str, fn, room: seating.Room, needs: dict, inputs: dict
) -> tuple[Draw, dict[int, tuple[int, int]]]:
    """A seat draw (`fn`: seating.draw_start or draw_late) over the room for `inputs["entries"]`: the draw
    and its seats (entry -> table, seat). A draw the rules refuse is an error the floor can act on."""

    def compute(seed: bytes):
        try:
            result = fn(seed, inputs["entries"], room, needs)
        except seating.DrawError as exc:
            raise draw_error(exc) from exc
        return result, seating.result_rows(result)

    return run_draw(t, actor=actor, kind=kind, inputs=inputs, compute=compute)


def reveal(t: Tournament, *, actor: Actor, draw: Draw, kind: str, inputs: dict, result) -> Draw:
    draw.kind, draw.inputs, draw.result, draw.drawn_at = kind, inputs, result, timezone.now()
    draw.actor = actor_user(actor)
    draw.save(update_fields=["kind", "inputs", "result", "drawn_at", "actor"])
    return draw


def room_of(t: Tournament, tables: list) -> tuple[seating.Room, dict[int, Table]]:
    """Open seats and player counts (seated and arriving, less those with a slip out) of the given tables
    (anything with `pk`, `number`, `seats` and `accessible`). The live seats are read by tournament, an indexed
    query, and sorted out here: the draws offer (nearly) every table in play, and an IN list of a thousand table
    ids costs more."""
    taken: dict[int, set[int]] = {table.pk: set() for table in tables}
    for table_id, seat in live_seats(t).values_list("table_id", "seat"):
        if table_id in taken:
            taken[table_id].add(seat)
    for table_id, seat in reserved_seats(t, None):
        if table_id in taken:
            taken[table_id].add(seat)
    open_seats = {table.number: [s for s in range(1, table.seats + 1) if s not in taken[table.pk]] for table in tables}
    leaving = Counter(Move.objects.filter(tournament=t, status=Move.Status.PENDING).values_list("from_table_id", flat=True))
    # Players counted as balancing counts them: seated and arriving, not those with a slip out (found by the night
    # machine: a late entry sat down where a slip was bringing a player, and the slip then left the room out of balance).
    players = {table.number: len(taken[table.pk]) - leaving.get(table.pk, 0) for table in tables}
    room = seating.Room.of(open_seats, players, accessible=[table.number for table in tables if table.accessible])
    return room, {table.number: table for table in tables}


def draw_error(exc: seating.DrawError) -> ServiceError:
    d = exc.details
    messages = {
        "no_open_seat": _("There are not enough open seats: open another table first."),
        "fixed_seat_taken": _("Entry #%(entry)s is to have table %(table)s seat %(seat)s, but that seat is not open."),
        "need_unmet": _(
            "Entry #%(entry)s needs a table that has no open seat (a fixed table or an accessible one): open one or change the request."
        ),
        "duplicate_entry": _("An entry is listed twice."),
    }
    message = messages.get(exc.code, _("The draw is not possible with these tables."))
    try:
        message = message % d
    except (KeyError, TypeError):
        pass
    return ServiceError(message, code=exc.code, status=409, details={k: v for k, v in d.items() if v is not None})


def need_json(needs: dict[int, seating.Need]) -> dict[str, dict]:
    return {str(n): {"table": need.table, "seat": need.seat, "accessible": need.accessible} for n, need in sorted(needs.items())}


def needs_inputs(needs: dict[int, seating.Need]) -> dict:
    """The special needs as a draw records them (never published: the public check shows the seats they held
    and a salted commitment, tables/selectors/screens.public_draw); drawn with their own stream."""
    if not needs:
        return {"needs": {}}
    return {"needs": need_json(needs), "needs_stream": "separate", "needs_salt": secrets.token_bytes(16).hex()}


def room_json(room: seating.Room) -> dict:
    return {
        "open_seats": {str(t): list(s) for t, s in room.open_seats.items()},
        "players": {str(t): n for t, n in room.players.items()},
        "accessible": sorted(room.accessible),
    }


def _tables_in_play(t: Tournament) -> list:
    return list(
        Table.objects.filter(tournament=t, in_play=True)
        .order_by("-break_order", "number")
        .values_list("pk", "number", "seats", "accessible", named=True)
    )


def choose_tables(t: Tournament, *, actor: Actor = None, count: int, needs: dict[int, seating.Need]) -> list:
    """The fewest tables that seat `count` entries evenly: tables that special needs require, then
    the tables that break last (TDA 5: as few tables as needed). When the tables in play do not seat them all,
    the draw first takes free tables from the venue (tables/services/venue.py). Returns rows with `pk`, `number`,
    `seats` and `accessible` (what room_of and _write_seats read), in ascending table number."""
    tables = _tables_in_play(t)
    short = count - sum(table.seats for table in tables)
    if short > 0:
        venue.take_free(t, actor=actor, seats_needed=short, entries=count)
        tables = _tables_in_play(t)
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
    return sorted(chosen, key=lambda table: table.number)


def _write_seats(
    t: Tournament, draw: Draw, result: dict[int, tuple[int, int]], entries: dict[int, Entry], tables: dict[int, Table], now
) -> int:
    """One set-based INSERT on PostgreSQL (docs/architecture.md pitfalls: 10,000 seats through bulk_create spent
    most of a start draw building model instances); bulk_create elsewhere. Returns the seats written."""
    entry_ids = [entries[number].pk for number in result]
    table_ids = [tables[table].pk for table, _seat in result.values()]
    seats = [seat for _table, seat in result.values()]
    if connection.vendor == "postgresql":
        # The arrays travel as array literals ('{1,2,3}'), one string each rather than 10,000 Python
        # ints adapted one by one (docs/draws.md, "Figures"). int() keeps anything but digits out.
        entry_ids, table_ids, seats = ("{" + ",".join(str(int(v)) for v in values) + "}" for values in (entry_ids, table_ids, seats))
        f = {
            name: Seat._meta.get_field(name).column for name in ("tournament", "entry", "table", "seat", "draw", "seated_at", "end_reason")
        }
        sql = (
            f'INSERT INTO "{Seat._meta.db_table}" ("{f["tournament"]}", "{f["entry"]}", "{f["table"]}", "{f["seat"]}", '
            f'"{f["draw"]}", "{f["seated_at"]}", "{f["end_reason"]}") '
            "SELECT %s, e, tb, s, %s, %s, '' FROM unnest(%s::bigint[], %s::bigint[], %s::smallint[]) AS u(e, tb, s)"
        )
        with connection.cursor() as cursor:
            cursor.execute(sql, [t.pk, draw.pk, now, entry_ids, table_ids, seats])
            return cursor.rowcount
    rows = [
        Seat(tournament_id=t.pk, entry_id=e, table_id=tb, seat=s, draw_id=draw.pk, seated_at=now)
        for e, tb, s in zip(entry_ids, table_ids, seats, strict=True)
    ]
    return len(Seat.objects.bulk_create(rows, batch_size=2000))


def _fast_toast_compression() -> None:
    """For the rest of the transaction, compress large values with lz4 where the server has it: the
    start draw's row (inputs and result, hundreds of KB of JSON) is written about three times faster
    than with pglz (docs/draws.md, "Figures"). The same values are stored and read back; only their
    compression on disk differs."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT set_config('default_toast_compression', 'lz4', true) FROM pg_settings "
            "WHERE name = 'default_toast_compression' AND 'lz4' = ANY(enumvals)"
        )


def _unseated_entries(t: Tournament) -> list:
    """The live entries without a seat, by number: rows of `pk`, `number` and `player_id` only (model
    instances of 10,000 entries would cost most of the start draw's budget)."""
    return list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
        .exclude(pk__in=live_seats(t).values("entry_id"))
        .order_by("number")
        .values_list("pk", "number", "player_id", named=True)
    )


@transaction.atomic
def draw_start(tournament: Tournament, *, actor: Actor, tables: list[int] | None = None) -> Draw:
    """The start draw (TDA 5): every registered entry to a random seat, tables filled evenly, the
    fewest tables needed; driven by the seed committed beforehand, which is revealed with the result. `tables`: the
    director's list of venue tables to take first (the draw takes more, in the house's order, if they are short)."""
    require(actor, roles.SETUP)
    return start_draw_now(tournament, actor=actor, tables=tables)


def start_draw_now(tournament: Tournament, *, actor: Actor, tables: list[int] | None = None) -> Draw:
    """The start draw without the director's press: a sit & go's, made by the registration that fills it (its
    actor recorded; the director set the sit & go up). draw_start is the director's."""
    t = lock_tournament(tournament.pk)
    if start_drawn(t):
        raise ServiceError(_("The start draw is done already; new entries are seated as they register."), code="already_drawn", status=409)
    entries = _unseated_entries(t)
    if not entries:
        raise ServiceError(_("There is nobody to seat: register entries first."), code="no_entries", status=409)
    if tables:
        venue.take_listed(t, actor=actor, numbers=numbers_of(tables))
    needs = needs_of(t, entries)
    tables = choose_tables(t, actor=actor, count=len(entries), needs=needs)
    room, by_number = room_of(t, tables)
    inputs = {"entries": [e.number for e in entries], **room_json(room), **needs_inputs(needs)}
    _fast_toast_compression()
    draw, result = seat_draw(t, actor=actor, kind=Draw.Kind.START, fn=seating.draw_start, room=room, needs=needs, inputs=inputs)
    now = timezone.now()
    _write_seats(t, draw, result, {e.number: e for e in entries}, by_number, now)
    if t.status == Tournament.Status.SETUP:
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
    record_event(
        t,
        actor=actor,
        type_="seating.drawn",
        payload={
            "draw": draw.number,
            "kind": draw.kind,
            "commitment": draw.commitment,
            "seed": draw.seed,
            "seated": len(result),
            "tables": sorted(by_number),
        },
        stats=False,
    )
    sng = sit_and_go.sit_and_go_of(t)
    if sng is not None and sng.started_at is None:  # by itself when it fills, or by the director once a table is free
        sit_and_go.started(sng, actor=actor)
    pending_draw(t)
    return draw


class DrawnTable(NamedTuple):
    """A table as a draw reads it (room_of): its key, number, size and whether it is accessible."""

    pk: int
    number: int
    seats: int
    accessible: bool


def late_room(
    t: Tournament, *, actor: Actor, count: int, needs: dict[int, seating.Need], take_tables: bool = True
) -> tuple[seating.Room, dict[int, Table]]:
    """The tables a late entry, a re-entry or an undone bust may draw a seat at: in play and not breaking
    (nobody new sits at a table whose players are leaving); an empty table only when the tables with
    players have no room for them all, or a special need asks for it (nobody waits alone at a spare table
    while there is a seat at a table that plays)."""
    breaking = breaking_tables(t)
    # Only what the draw reads of a table, as plain values: a festival's thousand model instances cost more than the draw.
    rows = Table.objects.filter(tournament=t, in_play=True).order_by("number").values_list("pk", "number", "seats", "accessible")
    tables = [DrawnTable(*row) for row in rows if row[0] not in breaking]
    room, by_number = room_of(t, tables)
    short = count - sum(len(seats) for seats in room.open_seats.values())
    if short > 0 and take_tables:  # the room is full: the venue gives the tables it needs
        tables += venue.take_free(t, actor=actor, seats_needed=short, entries=count)
        room, by_number = room_of(t, sorted(tables, key=lambda table: table.number))
    with_players = [n for n, players in room.players.items() if players]
    if not needs and with_players and sum(len(room.open_seats[n]) for n in with_players) >= count:
        room = seating.Room.of(
            {n: room.open_seats[n] for n in with_players},
            {n: room.players[n] for n in with_players},
            accessible=sorted(set(room.accessible) & set(with_players)),
        )
    return room, by_number


def seat_late_entries(t: Tournament, *, actor: Actor, entries: list[Entry], kind: str = Draw.Kind.LATE, take_tables: bool = True) -> Draw:
    """Late entries and re-entries (TDA 5): each to a random open seat at a table with the fewest
    players; the venue gives another table when none is open (unless `take_tables` is False). The caller holds the
    tournament lock and checked the role."""
    needs = needs_of(t, entries)
    room, by_number = late_room(t, actor=actor, count=len(entries), needs=needs, take_tables=take_tables)
    inputs = {"entries": sorted(e.number for e in entries), **room_json(room), **needs_inputs(needs)}
    draw, result = seat_draw(t, actor=actor, kind=kind, fn=seating.draw_late, room=room, needs=needs, inputs=inputs)
    _write_seats(t, draw, result, {e.number: e for e in entries}, by_number, timezone.now())
    record_event(
        t,
        actor=actor,
        type_="seating.drawn",
        payload={
            "draw": draw.number,
            "kind": kind,
            "commitment": draw.commitment,
            "seed": draw.seed,
            "seated": len(result),
            "entries": sorted(result),
            "seats": [{"entry": n, "table": tb, "seat": s} for n, (tb, s) in sorted(result.items())],
        },
        stats=False,
    )
    pending_draw(t)
    return draw


@transaction.atomic
def seat_waiting_entries(tournament: Tournament, *, actor: Actor) -> Draw:
    """Seat every live entry that has no seat yet (after the start draw), by the late-entry rule."""
    require(actor, roles.SEATING)
    t = lock_tournament(tournament.pk)
    if not start_drawn(t):
        raise ServiceError(_("Make the start draw first."), code="not_drawn", status=409)
    entries = list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE).exclude(pk__in=live_seats(t).values("entry_id")).order_by("number")
    )
    if not entries:
        raise ServiceError(_("Every live entry has a seat."), code="nobody_waiting", status=409)
    return seat_late_entries(t, actor=actor, entries=entries)


@transaction.atomic
def draw_button(table: Table, *, actor: Actor, cards: dict | None = None, seat: int | None = None) -> dict:
    """The button draw (TDA 2 and house rules): high card, suits spades > hearts > diamonds > clubs.
    With no input the software deals one card per occupied seat from a committed, shuffled deck;
    `cards` ({seat: "As"}) records the dealt result; `seat` sets the button where the floor says."""
    require(actor, roles.SEATING)
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
            raise ServiceError(
                _("The button goes to an occupied seat (%(seats)s).") % {"seats": ", ".join(map(str, occupied))}, code="bad_seat"
            )
        dealt = {}
    elif cards:
        try:
            dealt = {int(k): seating.normal_card(str(v)) for k, v in cards.items()}
            if sorted(dealt) != occupied:
                raise ServiceError(
                    _("Enter one card for each occupied seat (%(seats)s).") % {"seats": ", ".join(map(str, occupied))}, code="bad_cards"
                )
            winner = seating.high_card_winner(dealt)
        except (ValueError, seating.DrawError) as exc:
            if isinstance(exc, ServiceError):
                raise
            raise ServiceError(_("Write each card as rank and suit, for example As, Td, 9c, each card once."), code="bad_cards") from exc
    else:
        return software_button(t, actor=actor, table=table)
    return _set_button(t, actor=actor, table=table, winner=winner, dealt=dealt, draw_number=None)


def software_button(t: Tournament, *, actor: Actor, table: Table) -> dict:
    """The software's high-card draw for the button, from the committed seed (lock held)."""
    occupied = sorted(live_seats(t).filter(table=table).values_list("seat", flat=True))

    def compute(seed: bytes):
        dealt = seating.deal_high_card(seed, occupied)
        return dealt, {"cards": {str(k): v for k, v in dealt.items()}, "button": seating.high_card_winner(dealt)}

    draw, dealt = run_draw(t, actor=actor, kind=Draw.Kind.BUTTON, inputs={"table": table.number, "seats": occupied}, compute=compute)
    winner = draw.result["button"]
    result = _set_button(t, actor=actor, table=table, winner=winner, dealt=dealt, draw_number=draw.number)
    pending_draw(t)
    return result


def button_draws(t: Tournament, *, actor: Actor, tables: list[Table]) -> dict[int, int]:
    """The software's button draw at several tables at once (lock held), after a redraw: one verifiable draw for
    them all (tables/rules/seating.deal_high_cards) at the tables with two players or more, their buttons written in one
    statement, one event. Returns table number -> the button seat. (A draw per table cost ~5 ms and 11 queries
    each: 0.8 s for a Day 2 of 167 tables, bench/day2.py.)"""
    by_id = {table.pk: table for table in tables}
    occupied: dict[int, list[int]] = {}
    for table_id, seat in live_seats(t).values_list("table_id", "seat"):
        if table_id in by_id:
            occupied.setdefault(by_id[table_id].number, []).append(seat)
    playing = {number: sorted(seats) for number, seats in sorted(occupied.items()) if len(seats) >= 2}
    if not playing:
        return {}

    def compute(seed: bytes):
        dealt = seating.deal_high_cards(seed, playing)
        return dealt, {
            "tables": {
                str(n): {"cards": {str(k): v for k, v in cards.items()}, "button": seating.high_card_winner(cards)}
                for n, cards in dealt.items()
            }
        }

    draw, _dealt = run_draw(
        t, actor=actor, kind=Draw.Kind.BUTTON, inputs={"tables": {str(n): s for n, s in playing.items()}}, compute=compute
    )
    buttons = {number: draw.result["tables"][str(number)]["button"] for number in playing}
    changed = [table for table in tables if table.number in buttons]
    for table in changed:
        table.button_seat, table.small_blind_seat, table.big_blind_seat = buttons[table.number], None, None
        table.positions_next, table.needs_button = True, False
    Table.objects.bulk_update(changed, POSITION_FIELDS)
    record_event(
        t,
        actor=actor,
        type_="table.buttons",
        stats=False,
        payload={"draw": draw.number, "tables": sorted(buttons), "buttons": {str(n): seat for n, seat in sorted(buttons.items())}},
    )
    pending_draw(t)
    return buttons


def draw_tie_order(t: Tournament, *, actor: Actor, entries: list[int], place: int, place_low: int) -> Draw | None:
    """Tied players share the prizes of their places; who gets the odd minor units is drawn from the
    committed seed (lock held). One draw per set of tied players: a set already drawn keeps its order
    (its places may shift when an earlier bust is undone); returns the new draw, or None."""
    entries = sorted(entries)
    if tie_orders(t).get(frozenset(entries)) is not None:
        return None
    draw, _order = run_draw(
        t,
        actor=actor,
        kind=Draw.Kind.TIE,
        inputs={"entries": entries, "places": [place, place_low]},
        compute=lambda seed: (None, {"order": seating.tie_order(seed, entries)}),
    )
    record_event(
        t,
        actor=actor,
        type_="draw.tie",
        payload={"draw": draw.number, "entries": entries, "place": place, "place_low": place_low, "order": draw.result["order"]},
        stats=False,
    )
    pending_draw(t)
    return draw


def _set_button(t: Tournament, *, actor: Actor, table: Table, winner: int, dealt: dict, draw_number: int | None) -> dict:
    """A button draw gives the button of the table's next hand; the blinds follow from it."""
    table.button_seat, table.small_blind_seat, table.big_blind_seat, table.positions_next = winner, None, None, True
    table.needs_button = False
    table.save(update_fields=POSITION_FIELDS)
    record_event(
        t,
        actor=actor,
        type_="table.button",
        payload={"table": table.number, "seat": winner, "cards": {str(k): v for k, v in dealt.items()}, "draw": draw_number},
        stats=False,
    )
    return {"table": table.number, "button": winner, "cards": dealt, "draw": draw_number}
