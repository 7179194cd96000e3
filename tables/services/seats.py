"""Seats one at a time (TDA 5, 6): a new entry seated at registration, a seat corrected, a seat freed
by a bust or a void, a bust undone back to its seat, the button the floor enters, and the special
needs every draw honours."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, require
from tables.models import Move, Seat, SeatRequest, Table
from tables.rules import positions
from tables.rules.positions import POSITION_FIELDS
from tables.selectors.state import breaking_tables, live_seats, reserved_seats, seat_of, start_drawn
from tables.services import breaks, draws, moves
from tables.services.draws import seat_late_entries
from tournament.models import Entry, Player, Tournament
from tournament.services.audit import lock_tournament, record_event


def seat_new_entry(t: Tournament, *, actor: Actor, entry: Entry) -> Seat | None:
    """Called by registration (tournament lock held): after the start draw, a new entry is seated at once."""
    if not start_drawn(t):
        return None
    seat_late_entries(t, actor=actor, entries=[entry])
    return live_seats(t).select_related("table").get(entry=entry)


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
        raise ServiceError(_("Table %(table)s has seats 1 to %(seats)s.") % {"table": table.number, "seats": table.seats}, code="bad_seat")
    taken = live_seats(t).filter(table=table, seat=seat).select_related("entry").first()
    if taken is not None or (table.pk, seat) in set(reserved_seats(t, [table.pk])):
        raise ServiceError(
            _("Table %(table)s seat %(seat)s is not free.") % {"table": table.number, "seat": seat}, code="seat_taken", status=409
        )
    return seat


@transaction.atomic
def correct_seat(entry: Entry, *, actor: Actor, table_number: int, seat_number: int) -> Seat:
    """A player found in the wrong seat goes to the right one and keeps the stack (TDA 5)."""
    require(actor, roles.SEATING)
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
    record_event(
        t,
        actor=actor,
        type_="seat.corrected",
        payload={
            "entry": e.number,
            "name": e.player.display_name,
            "entries": [e.number],
            "from": {"table": old.table.number, "seat": old.seat} if old else None,
            "to": {"table": table.number, "seat": seat_number},
        },
        stats=False,
        seats=[e.number],
    )
    return new


def free_seat(t: Tournament, entry: Entry, reason: str) -> Seat | None:
    """End the entry's seat (bust, void); the caller holds the tournament lock. Returns the seat."""
    seat = live_seats(t).select_for_update().select_related("table").filter(entry=entry).first()
    _end_seat(seat, reason, timezone.now())
    return seat


def _seat_free(t: Tournament, table: Table, seat: int) -> bool:
    return not live_seats(t).filter(table=table, seat=seat).exists() and (table.pk, seat) not in set(reserved_seats(t, [table.pk]))


def reseat_after_undo(t: Tournament, *, actor: Actor, entry: Entry) -> Seat | None:
    """A bust undone (TDA: as if the bust never happened, in the room as it stands now): back to the
    entry's last seat if its table still plays and the seat is free; otherwise a seat by the late-entry
    draw at a table that plays (never at a breaking or a broken table). When no seat is open because a
    break holds them (this bust, or one after it, broke a table whose slips are still pending), the break
    is given back: with one more player that table no longer breaks, its pending slips are cancelled and
    its players stay where they sit (his own table's break first, else the break decided last).
    With no break to give back, the refusal names the one press that makes the undo possible: open
    another table (details "press"). The caller balances the room."""
    last = Seat.objects.select_related("table").filter(entry=entry, end_reason=Seat.End.BUST).order_by("-ended_at", "-pk").first()
    now = timezone.now()
    while True:
        if last is not None and last.table.in_play and last.table_id not in breaking_tables(t) and _seat_free(t, last.table, last.seat):
            return Seat.objects.create(tournament=t, entry=entry, table=last.table, seat=last.seat, seated_at=now)
        if not start_drawn(t):
            return None
        try:
            with transaction.atomic():
                seat_late_entries(t, actor=actor, entries=[entry], take_tables=False)
            return seat_of(entry)
        except ServiceError as exc:
            table = _break_to_give_back(t, last) if exc.code == "no_open_seat" else None
            if table is None:
                if exc.code != "no_open_seat":
                    raise
                try:  # no break to give back: a table from the venue
                    seat_late_entries(t, actor=actor, entries=[entry])
                except ServiceError as short:
                    short.details = {**(short.details or {}), "entry": entry.number, "press": "open_table"}
                    raise
                return seat_of(entry)
        breaks.cancel_break(t, actor=actor, table=table, reason="bust undone: the table no longer breaks")
        if last is not None and table.pk == last.table_id:  # his own table plays on: he sits there again
            free = [s for s in ([last.seat] + list(range(1, table.seats + 1))) if _seat_free(t, table, s)]
            if free:
                return Seat.objects.create(tournament=t, entry=entry, table=table, seat=free[0], seated_at=now)


def _break_to_give_back(t: Tournament, last: Seat | None) -> Table | None:
    """The breaking table an undone bust gives back when no seat is open: his own, else the one whose break was
    decided last (the last bust's); None when no table is breaking."""
    breaking = breaking_tables(t)
    if last is not None and last.table_id in breaking:
        return last.table
    move = (
        Move.objects.select_related("from_table")
        .filter(tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BREAK)
        .order_by("-number")
        .first()
    )
    return move.from_table if move is not None else None


@transaction.atomic
def enter_button(table: Table, *, actor: Actor, seat) -> dict:
    """The floor tells where the button is in the hand being played (or just played) at a table
    whose positions the software does not know (no hand signals, or no button draw); a move that
    waited for it is then decided."""

    require(actor, roles.SEATING)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    occupied = sorted(live_seats(t).filter(table=table).values_list("seat", flat=True))
    try:
        button = int(seat)
    except (TypeError, ValueError):
        button = 0
    if button not in occupied or len(occupied) < 2:
        raise ServiceError(
            _("The button goes to an occupied seat (%(seats)s).") % {"seats": ", ".join(map(str, occupied))}, code="bad_seat"
        )
    now = positions.first_hand(table.seats, occupied, button)
    table.button_seat, table.small_blind_seat, table.big_blind_seat = now.button, now.small_blind, now.big_blind
    table.positions_next = table.needs_button = False
    table.save(update_fields=POSITION_FIELDS)
    record_event(
        t, actor=actor, type_="table.positions", payload={"table": table.number, "positions": now.as_dict(), "source": "floor"}, stats=False
    )
    moves.decide(t, actor=actor)
    return {"table": table.number, "positions": now.as_dict()}


@transaction.atomic
def draw_button(table: Table, *, actor: Actor, cards: dict | None = None, seat: int | None = None) -> dict:
    """A button draw at a table (tables/services/draws.py); a move that waited for this table's button is then decided."""
    answer = draws.draw_button(table, actor=actor, cards=cards, seat=seat)
    moves.rebalance(lock_tournament(table.tournament_id), actor=actor)
    return answer


@transaction.atomic
def seat_waiting_entries(tournament: Tournament, *, actor: Actor):
    """Seat every live entry that has no seat yet by the late-entry draw (tables/services/draws.py); a spare table that
    takes one of them gets players moved to it (nobody waits alone)."""
    draw = draws.seat_waiting_entries(tournament, actor=actor)
    moves.rebalance(lock_tournament(tournament.pk), actor=actor)
    return draw


@transaction.atomic
def set_seat_request(
    tournament: Tournament,
    *,
    actor: Actor,
    player: Player,
    table_number: int | None = None,
    seat: int | None = None,
    accessible: bool = False,
    note: str = "",
) -> SeatRequest:
    """A fixed table (and seat) or an accessible table for a player; every later draw honours it."""
    require(actor, roles.SEATING)
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
            raise ServiceError(
                _("Table %(table)s has seats 1 to %(seats)s.") % {"table": table.number, "seats": table.seats}, code="bad_seat"
            )
    note = clean_reason(note, SeatRequest, "note", too_long=_("The note is too long: at most %(max)s characters."))
    now = timezone.now()
    SeatRequest.objects.filter(tournament=t, player=player, cancelled_at__isnull=True).update(cancelled_at=now)
    request = SeatRequest.objects.create(
        tournament=t,
        player=player,
        table_number=table_number,
        seat=seat,
        accessible=accessible,
        note=note or "",
        created_at=now,
        created_by=actor,
    )
    record_event(
        t,
        actor=actor,
        type_="seat_request.set",
        payload={"player": player.pk, "name": player.display_name, "table": table_number, "seat": seat, "accessible": accessible},
        stats=False,
    )
    return request


@transaction.atomic
def cancel_seat_request(tournament: Tournament, *, actor: Actor, player: Player) -> int:
    require(actor, roles.SEATING)
    t = lock_tournament(tournament.pk)
    n = SeatRequest.objects.filter(tournament=t, player=player, cancelled_at__isnull=True).update(cancelled_at=timezone.now())
    if not n:
        raise ServiceError(_("%(name)s has no seat request.") % {"name": player.display_name}, code="no_request", status=404)
    record_event(t, actor=actor, type_="seat_request.cancelled", payload={"player": player.pk, "name": player.display_name}, stats=False)
    return n
