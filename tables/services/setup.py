"""Setting up the tables: open one (its shuffler token shown once), renew a token, the break order,
and a table in or out of play."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, require
from tables.models import Table
from tables.selectors.state import live_seats, start_drawn
from tables.services import venue
from tables.services.draws import pending_draw
from tournament.models import Tournament
from tournament.services.audit import lock_tournament, record_event
from venues.models import Venue
from venues.services.setup import venue_of


@transaction.atomic
def open_table(
    tournament: Tournament,
    *,
    actor: Actor,
    number: int,
    seats: int | None = None,
    sends_hand_signals: bool = True,
    accessible: bool = False,
) -> tuple[Table, str]:
    """Open a table: the venue's table of that number, taken (tables/services/venue.py); returns it and its shuffler
    token (shown once, stored hashed). Before the start draw the highest numbers break first; a table opened after it
    breaks before every other."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    seats = seats or t.seats_per_table
    if not 1 <= number <= 999:
        raise ServiceError(_("Table numbers run from 1 to 999."), code="table_number")
    if not 2 <= seats <= 10:
        raise ServiceError(_("A table has 2 to 10 seats."), code="table_seats")
    if Table.objects.filter(tournament=t, number=number).exists():
        raise ServiceError(_("Table %(number)s is already open.") % {"number": number}, code="table_exists", status=409)
    table, token, _new = venue.open_row(t, number, seats=seats, sends_hand_signals=sends_hand_signals, accessible=accessible)
    venue.hold(t, actor=actor, table=table)
    record_event(
        t,
        actor=actor,
        type_="table.opened",
        payload={"table": number, "seats": seats, "sends_hand_signals": sends_hand_signals, "accessible": accessible},
        stats=False,
    )
    pending_draw(t)
    return table, token


@transaction.atomic
def hand_table(tournament: Tournament, *, actor: Actor, number, room: Venue | None = None) -> Table:
    """The floor hands a free table of the venue to a tournament (from the room map): it plays at the tournament's
    seats per table, or fewer when the table has fewer seats; its shuffler token is made anew by the director when a
    shuffler reports from it. Refused when another tournament holds it, it is closed or reserved for another."""
    if not roles.has_role(actor, roles.ROOM, tournament.pk):
        raise ServiceError(_("Your role does not allow this action."), code="forbidden", status=403)
    t = lock_tournament(tournament.pk)
    if room is not None and venue_of(t).pk != room.pk:
        raise ServiceError(_("That tournament plays in another venue."), code="other_venue", status=409)
    if t.status == Tournament.Status.FINISHED:
        raise ServiceError(_("That tournament is over."), code="finished", status=409)
    try:
        number = int(number)
    except (TypeError, ValueError):
        raise ServiceError(_("Table numbers run from 1 to 999."), code="table_number") from None
    if Table.objects.filter(tournament=t, number=number, in_play=True).exists():
        raise ServiceError(_("Table %(number)s is already open.") % {"number": number}, code="table_exists", status=409)
    vt = venue.venue_table(t, actor=actor, number=number, seats=t.seats_per_table)
    table, _token, new = venue.open_row(t, number, seats=min(vt.seats, t.seats_per_table))
    venue.hold(t, actor=actor, table=table, vt=vt)
    record_event(
        t, actor=actor, type_="table.opened" if new else "table.in_play", payload={"table": number, "seats": table.seats}, stats=False
    )
    pending_draw(t)
    return table


@transaction.atomic
def renew_shuffler_token(table: Table, *, actor: Actor) -> str:
    require(actor, roles.SETUP)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    token = table.new_shuffler_token()
    table.save(update_fields=["shuffler_token_hash"])
    record_event(t, actor=actor, type_="table.token_renewed", payload={"table": table.number}, stats=False)
    return token


@transaction.atomic
def set_break_order(tournament: Tournament, *, actor: Actor, numbers: list[int]) -> list[int]:
    """The director's break order: the tables in play, each once, first to break first."""
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    tables = {table.number: table for table in Table.objects.select_for_update().filter(tournament=t, in_play=True)}
    try:
        numbers = [int(n) for n in numbers]
    except (TypeError, ValueError):
        raise ServiceError(_("List the table numbers in the order they break."), code="bad_order") from None
    if sorted(numbers) != sorted(tables) or len(set(numbers)) != len(numbers):
        raise ServiceError(
            _("List every table in play exactly once (tables in play: %(tables)s).")
            % {"tables": ", ".join(str(n) for n in sorted(tables))},
            code="bad_order",
        )
    for position, number in enumerate(numbers, start=1):
        Table.objects.filter(pk=tables[number].pk).update(break_order=position)
    record_event(t, actor=actor, type_="tables.break_order", payload={"order": numbers}, stats=False)
    return numbers


@transaction.atomic
def set_table_in_play(table: Table, *, actor: Actor, in_play: bool) -> Table:
    require(actor, roles.SETUP)
    t = lock_tournament(table.tournament_id)
    table = Table.objects.select_for_update().get(pk=table.pk)
    if table.in_play == in_play:
        return table
    if not in_play and live_seats(t).filter(table=table).exists():
        raise ServiceError(
            _("Table %(number)s still has players: move them or break the table first.") % {"number": table.number},
            code="table_has_players",
            status=409,
        )
    table.in_play = in_play
    if in_play and start_drawn(t):
        table.break_order = venue.late_break_order(t)
    table.save(update_fields=["in_play", "break_order"])
    if in_play:
        venue.hold(t, actor=actor, table=table)
    else:
        venue.give_back(t, actor=actor, tables=[table])
    record_event(t, actor=actor, type_="table.in_play" if in_play else "table.out_of_play", payload={"table": table.number}, stats=False)
    return table
