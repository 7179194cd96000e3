"""The seating of a day after the first: once the day before is closed (days/services/bags.py) and
before play resumes, the director redraws the room. Every player still in stands up and gets a new random seat
over the day's tables by a verifiable draw (docs/architecture.md, "Randomness": the seed committed before, revealed after,
recomputed in public by tables/selectors/draw_check.py as any redraw), special needs kept (TDA 6); each player sits down with
his bag of the day before, or with his last count when the day closed without his bag (the draw's inputs record
which, so the draw page shows who was seated with what). Then the tables' buttons are drawn, by one draw for them all.
The reads are days/selectors/seating.py."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, require
from days.models import Day
from days.selectors import bags
from days.selectors.seating import FROM_BAG, Held, redraw_of, stacks_at_start
from tables.models import Draw, Move, Seat, Table
from tables.rules import seating
from tables.selectors.state import live_seats, needs_of
from tables.services import venue
from tables.services.draws import button_draws, choose_tables, needs_inputs, pending_draw, room_json, seat_draw
from tournament.models import Entry, Tournament
from tournament.services.audit import lock_tournament, record_event

REDRAWN = "day redraw"  # why the slips still pending at the end of the day before are cancelled


def _refusals(t: Tournament, day: int) -> None:
    """Refused (409): the day before not closed, a flight (its players go on to the event's Day 2), the day's seating
    drawn already, the day under way."""
    before = bags.day_row(t, day - 1) if day > 1 else None
    if before is None or before.status != Day.Status.CLOSED:
        raise ServiceError(
            _("Day %(day)s is not closed: the next day's seating is drawn once it is.") % {"day": max(day - 1, 1)},
            code="day_not_closed",
            status=409,
        )
    elsewhere = bags.next_day_elsewhere(t)
    if elsewhere is not None:
        raise ServiceError(
            _("Flight %(flight)s goes on to Day 2 of %(event)s: its players are carried there from the event's page, not redrawn here.")
            % elsewhere,
            code="flight",
            status=409,
        )
    drawn = redraw_of(t, day)
    if drawn is not None:
        raise ServiceError(
            _("The seating of day %(day)s is drawn already (draw %(draw)s).") % {"day": day, "draw": drawn.number},
            code="already_redrawn",
            status=409,
        )
    if bags.day_under_way(t, day):
        raise ServiceError(
            _("Day %(day)s has begun: its seats are no longer drawn again (balance or break tables instead).") % {"day": day},
            code="day_under_way",
            status=409,
        )


def _given_tables(t: Tournament, numbers, players: int) -> list:
    """The director's tables, each once (taken from the venue before: every one in play), with seats for every player."""
    try:
        wanted = [int(n) for n in numbers]
    except (TypeError, ValueError):
        wanted = []
    if not wanted or len(set(wanted)) != len(wanted) or any(isinstance(n, bool) for n in numbers):
        raise ServiceError(_("List the tables to seat the day at, each table number once."), code="bad_tables")
    rows = {
        row.number: row
        for row in Table.objects.filter(tournament=t, in_play=True, number__in=wanted).values_list(
            "pk", "number", "seats", "accessible", named=True
        )
    }
    seats = sum(row.seats for row in rows.values())
    if seats < players:
        raise ServiceError(
            _("%(players)s players need more than the %(seats)s seats at these tables: give more tables.")
            % {"players": players, "seats": seats},
            code="no_open_seat",
            status=409,
        )
    return sorted(rows.values(), key=lambda row: row.number)


def _stand_everyone_up(t: Tournament, *, now) -> None:
    """The room of the day before is cleared: the slips still pending are cancelled and every seat ends (the
    players stand up at once, as in a redraw)."""
    Move.objects.filter(tournament=t, status=Move.Status.PENDING).update(status=Move.Status.CANCELLED, closed_at=now, cancel_reason=REDRAWN)
    live_seats(t).update(ended_at=now, end_reason=Seat.End.MOVE)


def _set_the_tables(t: Tournament, *, keep: list[int]) -> list[int]:
    """The day's tables start afresh (no button, no hand, nothing halted); the other tables in play go out of play
    (the director opens them again when needed). Returns the numbers of the tables taken out of play."""
    playing = Table.objects.filter(tournament=t, in_play=True)
    gone = sorted(playing.exclude(number__in=keep).values_list("number", flat=True))
    playing.update(
        button_seat=None,
        small_blind_seat=None,
        big_blind_seat=None,
        positions_next=False,
        needs_button=False,
        hand_in_progress=False,
        halted=False,
    )
    playing.filter(number__in=gone).update(in_play=False)
    return gone


@transaction.atomic
def redraw_day(tournament: Tournament, *, actor: Actor, tables: list[int] | None = None) -> Draw:
    """The director redraws the seating of the day that comes after a closed one, before play resumes: every
    player still in (bagged or not, seated or not) to a random seat over `tables` (table numbers, each open and in
    play), or by default the fewest tables in play that seat everyone evenly, those that break last first (the
    start draw's rule); the other tables go out of play. One draw (kind redraw) whose inputs hold the day and each
    entry's stack; then one button draw for every table (tables/services/draws.button_draws). Refused (409): the day before
    not closed, the day's
    play begun, its seating drawn already, nobody still in, not seats enough or a special need unmet; (400) a
    table list that is not one."""
    require(actor, roles.CLOSE_DAY)
    t = lock_tournament(tournament.pk)
    day = bags.current_day(t)
    _refusals(t, day)
    entries = list(
        Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
        .order_by("number")
        .values_list("pk", "number", "player_id", named=True)
    )
    if not entries:
        raise ServiceError(_("Nobody is still in: there is no one to seat."), code="nobody", status=409)
    needs = needs_of(t, entries)
    venue.take_back_or_leave(t, actor=actor)
    if tables is not None:
        venue.take_listed(t, actor=actor, numbers=venue.numbers_of(tables if isinstance(tables, list) else []))
    chosen = choose_tables(t, actor=actor, count=len(entries), needs=needs) if tables is None else _given_tables(t, tables, len(entries))
    plan = seating.Room.of(
        {row.number: range(1, row.seats + 1) for row in chosen},
        {row.number: 0 for row in chosen},
        accessible=[row.number for row in chosen if row.accessible],
    )
    stacks = stacks_at_start(t, day=day, entries=[Held(e.pk, e.number) for e in entries])
    # The stacks are not the draw's inputs (the seats never depend on them) and stay off the public draw page (a house
    # may keep counts private); the audit event keeps them for the staff.
    inputs = {"day": day, "entries": [e.number for e in entries], **room_json(plan), **needs_inputs(needs)}
    draw, result = seat_draw(t, actor=actor, kind=Draw.Kind.REDRAW, fn=seating.draw_start, room=plan, needs=needs, inputs=inputs)
    now = timezone.now()
    _stand_everyone_up(t, now=now)
    keep = [row.number for row in chosen]
    gone = _set_the_tables(t, keep=keep)
    venue.give_back(t, actor=actor, tables=list(Table.objects.filter(tournament=t, number__in=gone)))
    table_of = {row.number: row.pk for row in chosen}
    pk_of = {e.number: e.pk for e in entries}
    Seat.objects.bulk_create(
        [
            Seat(tournament_id=t.pk, entry_id=pk_of[number], table_id=table_of[table], seat=seat, draw_id=draw.pk, seated_at=now)
            for number, (table, seat) in result.items()
        ],
        batch_size=2000,
    )
    record_event(
        t,
        actor=actor,
        type_="seating.redrawn",
        stats=False,
        payload={
            "draw": draw.number,
            "kind": Draw.Kind.REDRAW,
            "commitment": draw.commitment,
            "seed": draw.seed,
            "day": day,
            "seated": len(result),
            "tables": keep,
            "out_of_play": gone,
            "entries": sorted(result),
            "unbagged": [number for number, stack in stacks.items() if stack["source"] != FROM_BAG],
            "stacks": {str(number): stack for number, stack in stacks.items()},
        },
    )
    pending_draw(t)
    button_draws(t, actor=actor, tables=list(Table.objects.filter(tournament=t, number__in=keep)))
    return draw
