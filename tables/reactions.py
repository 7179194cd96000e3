"""The tables' reactions to registration (core.reactions; registered in TablesConfig.ready()): a new
entry gets a seat at once after the start draw, and a voided entry's seat is freed and the room
balanced again. The tournament app announces the changes without knowing that tables exist; its
receipts ask the same way where an entry sits."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext as _

from clock.services import clock as clock_services
from core.actor import Actor
from core.errors import ServiceError
from tables.models import Elimination, Penalty, Seat, Table
from tables.rules import positions
from tables.selectors.state import redraw_waiting, seat_of, start_drawn
from tables.services import draws, house_rules, venue
from tables.services.moves import after_seat_freed, rebalance
from tables.services.seats import free_seat, seat_new_entry
from tournament.models import Entry, Tournament
from tournament.services.audit import record_event
from venues.services import sit_and_go


def seat_registered_entry(*, actor: Actor, tournament: Tournament, entry: Entry) -> dict:
    """Reaction to tournament.services.registration.ENTRY_REGISTERED: after the start draw a new entry is seated at once. A
    player disqualified in this tournament does not enter it again (the whole registration is refused)."""
    dq = Penalty.objects.filter(
        tournament=tournament, entry__player_id=entry.player_id, kind=Penalty.Kind.DISQUALIFIED, cancelled_at__isnull=True
    ).first()
    if dq is not None:
        raise ServiceError(
            _("%(name)s was disqualified from this tournament (penalty #%(penalty)s): he cannot enter it again.")
            % {"name": entry.player.display_name, "penalty": dq.number},
            code="disqualified",
            status=409,
        )
    seat = seat_new_entry(tournament, actor=actor, entry=entry)
    if seat is None:
        return {}
    others = sorted(Seat.objects.filter(table=seat.table, ended_at__isnull=True).exclude(pk=seat.pk).values_list("seat", flat=True))
    if not others:
        rebalance(tournament, actor=actor, entry=entry)  # the first player at a table opened for late entries: others join
    return {"table": seat.table.number, "seat": seat.seat, "position": arrival_position(seat.table, others, seat.seat)}


def arrival_position(table: Table, others: list[int], seat: int) -> str:
    """Where a player sitting down at `seat` plays the next hand (TDA 7, club blinds rule 6): "wait_for_button" between
    the small blind and the button, or his blind, the button, "in_play"; "unknown" when the table's positions are not
    known yet."""
    if not others:
        return "in_play"
    if table.big_blind_seat is None or table.positions_next:
        return "unknown"
    last = positions.Positions(table.button_seat, table.small_blind_seat, table.big_blind_seat)
    return positions.arrival(table.seats, others, last, seat).role


def seats_to_fill(*, tournament: Tournament) -> dict:
    """Answer to tournament.selectors.waiting_list.SEATS: the seats the tournament may fill, in a room whose set of
    tables is fixed, and those its pending slips hold for a while. A sit & go has its own number of seats
    (venues/services/sit_and_go.py): it waits for a free table."""
    seats = venue.seats_to_fill(tournament)  # None (one query) in a room that adds its tables
    if seats is None or sit_and_go.sit_and_go_of(tournament) is not None:
        return {}
    return {"seats": seats, "held": venue.seats_held_twice(tournament)}


def start_full_sit_and_go(*, actor: Actor, tournament: Tournament, entry: Entry) -> dict:
    """Reaction to ENTRY_REGISTERED: the registration that fills a sit & go starts it (venues/services/sit_and_go.py):
    its players to a free table of the venue by the verifiable start draw, its clock started, the next of its series
    opened. When the venue has no free table, the entry stands and the sit & go waits: the floor frees a table and the
    director makes the start draw."""
    sng = sit_and_go.sit_and_go_of(tournament)
    if sng is None or sng.started_at is not None or start_drawn(tournament):
        return {}
    if Entry.objects.filter(tournament=tournament, status=Entry.Status.ACTIVE).count() < sng.players:
        return {}
    try:
        with transaction.atomic():
            draws.start_draw_now(tournament, actor=actor)
    except ServiceError as exc:
        if exc.code not in ("venue_full", "no_tables"):
            raise
        record_event(tournament, actor=actor, type_="sit_and_go.waiting", payload={"reason": exc.message}, stats=False, seats=False)
        return {}
    clock_services.start_clock_at_the_draw(tournament, actor=actor)  # the draw marked it started (tables/services/draws.py)
    seat = seat_of(entry)
    return {"table": seat.table.number, "seat": seat.seat} if seat is not None else {}


def copy_house_rules(*, actor: Actor, tournament: Tournament, previous: Tournament) -> None:
    """Reaction to venues.services.sit_and_go.SIT_AND_GO_OPENED: the next of a series plays by the house rules of the one
    before."""
    house_rules.copy_house_rules(previous, to=tournament)


def free_voided_entry(*, actor: Actor, tournament: Tournament, entry: Entry) -> None:
    """Reaction to tournament.services.registration.ENTRY_VOIDED: the entry never played; its seat is freed and the
    room balanced again. An entry that knocked a player out played (its eliminations stand on it): it is not voided."""
    for row in Elimination.objects.filter(tournament=tournament, status=Elimination.Status.STANDING).select_related("busted"):
        if entry.number in row.winners:
            raise ServiceError(
                _("Entry #%(entry)s knocked out #%(busted)s: it played, and is not voided.")
                % {"entry": entry.number, "busted": row.busted.number},
                code="eliminator_not_voided",
                status=409,
            )
    free_seat(tournament, entry, Seat.End.VOID)
    after_seat_freed(tournament, actor=actor, entry=entry)


def entry_seat(*, tournament: Tournament, entry: Entry) -> dict:
    """Answer to tournament.selectors.receipts.ENTRY_SEAT: the table and seat the entry holds now; an entry still
    playing without one waits for the start draw, or (after it) for the floor to seat it."""
    seat = seat_of(entry)
    if seat is not None:
        return {"table": seat.table.number, "seat": seat.seat}
    if entry.status != Entry.Status.ACTIVE:
        return {}
    return {"waiting": "seat" if start_drawn(tournament) else "start_draw"}


def redraw_once_the_hands_are_done(*, actor: Actor, tournament: Tournament) -> None:
    """Reaction to tables.handforhand.BETWEEN_HANDS: a redraw (the final table, or at three or two tables) that
    waited for the hands in play is made once the last of them is reported done (moves.redraw_waits)."""
    if redraw_waiting(tournament) is not None:
        rebalance(tournament, actor=actor)
