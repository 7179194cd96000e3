"""A tournament's tables taken from its venue and given back (venues/models.py).

A table row of the tournament holds the venue table of its number while it is in play and the tournament is not
over: opening a table takes it, a draw short of seats takes free ones in the house's order (or the director's
list), a table that breaks or leaves play gives it back at once, and so does the end of play (payouts' reaction,
which takes them again if a correction lets play go on). Taking is a conditional update of the venue table's one
`table` column under the venue table's row lock, so two draws at the same moment never share a table (each skips the
tables the other has locked, on PostgreSQL). The caller holds the tournament's lock.
"""

from __future__ import annotations

from django.db import IntegrityError, connection, transaction
from django.db.models import Min, Q, Sum, Value
from django.db.models.functions import Least
from django.utils.translation import gettext as _

from core import broadcast, groups
from core.actor import Actor
from core.errors import ServiceError
from tables.models import DealerLink, Move, Table
from tables.selectors.state import start_drawn
from tournament.models import Tournament
from tournament.services.audit import record_event
from venues.models import Venue, VenueTable
from venues.rules import room as rules
from venues.services.setup import default_venue, holder_name, venue_event, venue_of


def late_break_order(t: Tournament) -> int:
    """A table added after the start draw breaks first (before every table already in play)."""
    first = Table.objects.filter(tournament=t, in_play=True).aggregate(n=Min("break_order"))["n"]
    return (first if first is not None else 1) - 1


def _refusal(vt: VenueTable, *, actor: Actor, t: Tournament, seats: int) -> ServiceError | None:
    if vt.status == VenueTable.Status.OUT_OF_SERVICE:
        return ServiceError(
            _("Table %(number)s is out of service (%(reason)s).") % {"number": vt.number, "reason": vt.note},
            code="table_closed",
            status=409,
        )
    if vt.status == VenueTable.Status.CASH:
        return ServiceError(
            _("Table %(number)s is given to cash games (%(reason)s).") % {"number": vt.number, "reason": vt.note},
            code="table_closed",
            status=409,
        )
    if vt.table_id is not None and vt.table.tournament_id != t.pk:
        return ServiceError(
            _("Table %(number)s is held by %(holder)s.") % {"number": vt.number, "holder": holder_name(vt, actor=actor)},
            code="table_held",
            status=409,
        )
    if vt.reserved_for_id not in (None, t.pk):
        return ServiceError(
            _("Table %(number)s is reserved for %(holder)s.") % {"number": vt.number, "holder": holder_name(vt, actor=actor)},
            code="table_reserved",
            status=409,
        )
    if seats > vt.seats:
        return ServiceError(
            _("Table %(number)s has %(physical)s seats: it cannot be played %(seats)s-handed.")
            % {"number": vt.number, "physical": vt.seats, "seats": seats},
            code="table_seats",
            status=409,
        )
    return None


def venue_table(t: Tournament, *, actor: Actor, number: int, seats: int) -> VenueTable:
    """The venue table of this number, locked; added to a venue whose set of tables is not fixed (the venue's own event
    says so, as a table the director adds on the room screen)."""
    venue = venue_of(t)
    vt = (
        VenueTable.objects.select_for_update(of=("self",))
        .select_related("table__tournament", "reserved_for")
        .filter(venue=venue, number=number)
        .first()
    )
    if vt is not None:
        return vt
    if venue.fixed_tables:
        raise ServiceError(
            _("Table %(number)s is not in the venue: add it on the venue page first.") % {"number": number},
            code="no_venue_table",
            status=409,
        )
    try:
        with transaction.atomic():
            added = VenueTable.objects.create(venue=venue, number=number, seats=max(seats, rules.MIN_SEATS))
    except IntegrityError:  # added at the same moment by another tournament's opening
        pass
    else:
        payload = {"table": number, "seats": added.seats, "area": "", "opened_by": t.pk}
        venue_event(venue, actor=actor, type_="venue.table_added", payload=payload)
    return (
        VenueTable.objects.select_for_update(of=("self",))
        .select_related("table__tournament", "reserved_for")
        .get(venue=venue, number=number)
    )


def hold(t: Tournament, *, actor: Actor, table: Table, vt: VenueTable | None = None, event: bool = True) -> None:
    """The venue table of `table`'s number becomes held by it, or the answer says why it cannot."""
    vt = vt or venue_table(t, actor=actor, number=table.number, seats=table.seats)
    if vt.table_id == table.pk:
        return
    refusal = _refusal(vt, actor=actor, t=t, seats=table.seats)
    if refusal is not None:
        raise refusal
    changes = {"table": table}
    if vt.reserved_for_id == t.pk:
        changes.update(reserved_for=None, reserved_from=None, note="")
    if VenueTable.objects.filter(pk=vt.pk, table__isnull=True).update(**changes) != 1:
        raise ServiceError(
            _("Table %(number)s was just taken by another tournament.") % {"number": vt.number}, code="table_held", status=409
        )
    _links_follow(t, actor=actor, venue=venue_of(t), rows={table.number: table})
    if event:
        record_event(t, actor=actor, type_="venue.tables_taken", payload={"tables": [table.number]}, stats=False, seats=False)


def give_back(t: Tournament, *, actor: Actor, tables: list[Table]) -> list[int]:
    """The venue tables these table rows hold become free again (or wait for the tournament that reserved them)."""
    held = list(VenueTable.objects.select_for_update().filter(table__in=[table.pk for table in tables]).order_by("number"))
    if not held:
        return []
    VenueTable.objects.filter(pk__in=[vt.pk for vt in held]).update(table=None)
    numbers = [vt.number for vt in held]
    record_event(t, actor=actor, type_="venue.tables_given_back", payload={"tables": numbers}, stats=False, seats=False)
    return numbers


def hold_all(t: Tournament, *, actor: Actor) -> list[int]:
    """Every table the tournament has in play holds its venue table again (play goes on after it was over)."""
    tables = list(Table.objects.filter(tournament=t, in_play=True).exclude(venue_table__isnull=False).order_by("number"))
    for table in tables:
        hold(t, actor=actor, table=table, event=False)
    if tables:
        record_event(
            t, actor=actor, type_="venue.tables_taken", payload={"tables": [table.number for table in tables]}, stats=False, seats=False
        )
    return [table.number for table in tables]


def take_back_or_leave(t: Tournament, *, actor: Actor) -> list[int]:
    """A new day (its tables given back when the day before closed): each table still in play takes its venue table
    again, or goes out of play when another event holds it now, the floor closed it or reserved it for another."""
    taken, left = [], []
    for table in Table.objects.filter(tournament=t, in_play=True).exclude(venue_table__isnull=False).order_by("number"):
        vt = venue_table(t, actor=actor, number=table.number, seats=table.seats)
        if _refusal(vt, actor=actor, t=t, seats=table.seats) is None:
            hold(t, actor=actor, table=table, vt=vt, event=False)
            taken.append(table.number)
        else:
            Table.objects.filter(pk=table.pk).update(in_play=False)
            left.append(table.number)
    if taken or left:
        record_event(t, actor=actor, type_="venue.tables_taken", payload={"tables": taken, "out_of_play": left}, stats=False, seats=False)
    return left


def hold_what_is_free(t: Tournament, *, actor: Actor) -> tuple[list[int], list[dict]]:
    """An imported tournament still playing (archive/services/transfer.py): each of its tables in play takes the venue
    table of its number where it can; the others are listed with the reason (held by another tournament, closed,
    reserved, not in the venue), for the import to say so. Nothing else changes: the floor frees those tables, or moves
    their players, and opens them again. Returns the tables taken and those refused (the import's own event says both)."""
    taken, refused = [], []
    for table in Table.objects.filter(tournament=t, in_play=True).exclude(venue_table__isnull=False).order_by("number"):
        try:
            with transaction.atomic():
                hold(t, actor=actor, table=table, event=False)
            taken.append(table.number)
        except ServiceError as exc:
            refused.append({"table": table.number, "reason": exc.message})
    return taken, refused


def give_back_all(t: Tournament, *, actor: Actor) -> list[int]:
    return give_back(t, actor=actor, tables=list(Table.objects.filter(tournament=t, venue_table__isnull=False)))


def end_reservations(t: Tournament, *, actor: Actor) -> list[int]:
    """A tournament over keeps no table waiting for it: its reservations end (the tables free for the next events). The
    numbers, for the event that says play is over."""
    numbers = sorted(VenueTable.objects.filter(reserved_for=t).values_list("number", flat=True))
    if numbers:
        VenueTable.objects.filter(reserved_for=t).update(reserved_for=None, reserved_from=None, note="")
    return numbers


def open_row(
    t: Tournament, number: int, *, seats: int, sends_hand_signals: bool = True, accessible: bool = False
) -> tuple[Table, str | None, bool]:
    """The tournament's table row of this number in play: a new one (with its shuffler token, returned once) or
    one that was in play before (broken, or out of play) back in it. Returns the row, the new token and whether
    the row is new."""
    order = late_break_order(t) if start_drawn(t) else -number
    table = Table.objects.select_for_update().filter(tournament=t, number=number).first()
    if table is None:
        table = Table(
            tournament=t, number=number, seats=seats, sends_hand_signals=sends_hand_signals, accessible=accessible, break_order=order
        )
        token = table.new_shuffler_token()
        table.save()
        return table, token, True
    table.in_play, table.broken_at, table.seats, table.break_order = True, None, seats, order
    table.save(update_fields=["in_play", "broken_at", "seats", "break_order"])
    return table, None, False


def _candidates(t: Tournament, venue: Venue):
    """The venue's tables this tournament may take: open, held by nobody, reserved for nobody else."""
    return VenueTable.objects.filter(venue=venue, status=VenueTable.Status.OPEN, table__isnull=True).filter(
        Q(reserved_for__isnull=True) | Q(reserved_for=t)
    )


def seats_to_fill(t: Tournament) -> int | None:
    """The seats the tournament may fill now, when its room's set of tables is fixed: its tables in play (not breaking)
    and the room's free tables it may take, each at most its table size. None when the room adds tables as the director
    opens them (the seats set no limit there; tournament/selectors/waiting_list.py asks)."""
    venue = venue_of(t)
    if not venue.fixed_tables:
        return None
    breaking = Move.objects.filter(tournament=t, status=Move.Status.PENDING, kind=Move.Kind.BREAK).values("from_table_id")
    own = Table.objects.filter(tournament=t, in_play=True).exclude(pk__in=breaking).aggregate(n=Sum("seats"))["n"] or 0
    free = _candidates(t, venue).aggregate(n=Sum(Least("seats", Value(t.seats_per_table))))["n"] or 0
    return own + free


def seats_held_twice(t: Tournament) -> int:
    """Seats a pending slip holds twice for one player (his seat, and the one reserved at the table he goes to), free again
    once the slip is confirmed: a break's slips leave a table not counted among the seats, a balancing or redraw slip
    does not."""
    return Move.objects.filter(tournament=t, status=Move.Status.PENDING).exclude(kind=Move.Kind.BREAK).count()


def _lock_free(t: Tournament, venue: Venue, seats_needed: int) -> tuple[list[VenueTable], list[VenueTable]]:
    """The tables to take, locked, and the free tables seen (none chosen when they do not seat everyone). The choice is
    made on the tables free now, then only those are locked; on PostgreSQL a table another draw has locked meanwhile is
    skipped (that draw is taking it) and the choice is made again without it, so draws of several tournaments at the
    same moment each take tables of their own without waiting for one another. (Only the venue table's own row is
    locked: its default order joins the venue, whose row a lock would take too, and every other draw would skip all.)"""
    skip = connection.features.has_select_for_update_skip_locked
    chosen: list[VenueTable] = []
    lost: set[int] = set()
    while True:
        mine = {vt.pk for vt in chosen}
        free = [vt for vt in _candidates(t, venue).order_by("number") if vt.pk not in lost]
        short = seats_needed - sum(min(vt.seats, t.seats_per_table) for vt in chosen)
        if short <= 0:
            return chosen, free
        rest = [vt for vt in free if vt.pk not in mine]
        picks = rules.to_take(
            [rules.Free(vt.number, vt.area, vt.seats, vt.reserved_for_id == t.pk) for vt in rest],
            venue.area_order,
            short,
            t.seats_per_table,
        )
        if picks is None:
            return [], free
        numbers = {pick.number for pick in picks}
        wanted = [vt.pk for vt in rest if vt.number in numbers]
        rows = _candidates(t, venue).filter(pk__in=wanted).order_by("pk")
        got = list(rows.select_for_update(skip_locked=True, of=("self",)) if skip else rows.select_for_update(of=("self",)))
        chosen += got
        lost |= set(wanted) - {vt.pk for vt in got}


def _links_follow(t: Tournament, *, actor: Actor, venue: Venue, rows: dict[int, Table]) -> None:
    """The dealer links of these physical tables follow them into this tournament (a link belongs to the table the
    tablet stands on): the live links of the venue's other table rows of the same numbers point at these rows now, and
    their tablets reconnect (core/broadcast.reconnect_sockets) into this tournament's tables."""
    same_venue = Q(table__tournament__room=venue) | (
        Q(table__tournament__room__isnull=True) if venue.pk == default_venue().pk else Q(pk__in=[])
    )
    links = list(
        DealerLink.objects.filter(same_venue, table__number__in=list(rows), revoked_at__isnull=True)
        .exclude(table__tournament=t)
        .select_related("table")
    )
    for link in links:
        DealerLink.objects.filter(pk=link.pk).update(table=rows[link.table.number])
        group = groups.dealer_link(link.pk)
        transaction.on_commit(lambda group=group: broadcast.reconnect_sockets(group, "table taken by another tournament"))
    if links:
        record_event(
            t,
            actor=actor,
            type_="table.dealer_links_followed",
            payload={"tables": sorted({link.table.number for link in links}), "count": len(links)},
            stats=False,
            seats=False,
        )


def _open_rows(t: Tournament, *, actor: Actor, tables: list[VenueTable]) -> list[Table]:
    """The tournament's rows of these venue tables (locked by the caller, free) in play and holding them, in a constant
    number of statements (a start draw of 10,000 entries takes a thousand tables): new rows, each with its shuffler
    token, and rows in play before (broken, or out of play) back in it."""
    existing = {
        table.number: table for table in Table.objects.select_for_update().filter(tournament=t, number__in=[vt.number for vt in tables])
    }
    late = late_break_order(t) if start_drawn(t) else None
    new, back = [], []
    for i, vt in enumerate(tables):
        seats, order = min(vt.seats, t.seats_per_table), (late - i if late is not None else -vt.number)
        table = existing.get(vt.number)
        if table is None:
            table = Table(tournament=t, number=vt.number, seats=seats, break_order=order)
            table.new_shuffler_token()
            new.append(table)
        else:
            table.in_play, table.broken_at, table.seats, table.break_order = True, None, seats, order
            back.append(table)
    Table.objects.bulk_create(new, batch_size=500)
    Table.objects.bulk_update(back, ["in_play", "broken_at", "seats", "break_order"], batch_size=500)
    rows = {table.number: table for table in (*new, *back)}
    for vt in tables:
        vt.table = rows[vt.number]
        if vt.reserved_for_id == t.pk:
            vt.reserved_for, vt.reserved_from, vt.note = None, None, ""
    VenueTable.objects.bulk_update(tables, ["table", "reserved_for", "reserved_from", "note"], batch_size=500)
    _links_follow(t, actor=actor, venue=venue_of(t), rows=rows)
    return [rows[vt.number] for vt in tables]


def rules_order(tables: list[VenueTable], venue: Venue) -> list[VenueTable]:
    """Tables in the house's order (the order the audit event lists them in)."""
    by_number = {vt.number: vt for vt in tables}
    return [
        by_number[pick.number] for pick in rules.house_order([rules.Free(vt.number, vt.area, vt.seats) for vt in tables], venue.area_order)
    ]


def take_free(t: Tournament, *, actor: Actor, seats_needed: int, entries: int) -> list[Table]:
    """Take the fewest free tables, in the house's order, that seat `seats_needed` more players; refused with what is
    missing (and which tables are reserved for other tournaments) when the venue has not enough."""
    venue = venue_of(t)
    chosen, free = _lock_free(t, venue, seats_needed)
    if not chosen and not free and not VenueTable.objects.filter(venue=venue).exists():
        raise ServiceError(_("Open the tables first: no table is in play."), code="no_tables", status=409)
    if not chosen:
        capacity = sum(min(vt.seats, t.seats_per_table) for vt in free)
        missing = seats_needed - capacity
        reserved = sorted(
            VenueTable.objects.filter(venue=venue, table__isnull=True, reserved_for__isnull=False)
            .exclude(reserved_for=t)
            .values_list("number", flat=True)
        )
        raise ServiceError(
            _(
                "Seating %(entries)s entries needs %(needed)s more seats: the venue's free tables give %(capacity)s, %(missing)s "
                "short (about %(tables)s more tables of %(seats)s). Reserved for other tournaments: %(reserved)s. Free a table on "
                "the room map, or open another table."
            )
            % {
                "entries": entries,
                "needed": seats_needed,
                "capacity": capacity,
                "missing": missing,
                "tables": -(-missing // t.seats_per_table),
                "seats": t.seats_per_table,
                "reserved": ", ".join(str(n) for n in reserved) or _("none"),
            },
            code="venue_full",
            status=409,
            details={
                "missing_seats": missing,
                "missing_tables": -(-missing // t.seats_per_table),
                "free_tables": len(free),
                "reserved": reserved,
            },
        )
    taken = _open_rows(t, actor=actor, tables=rules_order(chosen, venue))
    record_event(
        t, actor=actor, type_="venue.tables_taken", payload={"tables": [table.number for table in taken]}, stats=False, seats=False
    )
    return taken


def numbers_of(values) -> list[int]:
    """The director's list of table numbers, each once; refused (400) when it is not one."""
    try:
        numbers = [int(n) for n in values if not isinstance(n, bool)]
    except (TypeError, ValueError):
        numbers = []
    if (
        not numbers
        or len(numbers) != len(list(values))
        or len(set(numbers)) != len(numbers)
        or not all(1 <= n <= rules.MAX_NUMBER for n in numbers)
    ):
        raise ServiceError(_("List the tables by number, each table once."), code="bad_tables")
    return numbers


def take_listed(t: Tournament, *, actor: Actor, numbers: list[int]) -> list[Table]:
    """The director's list: these venue tables, each taken (or refused with the reason) unless the tournament holds it."""
    taken = []
    for number in sorted(set(numbers)):
        vt = venue_table(t, actor=actor, number=number, seats=t.seats_per_table)
        if vt.table_id is not None and vt.table.tournament_id == t.pk:
            continue
        refusal = _refusal(vt, actor=actor, t=t, seats=min(vt.seats, t.seats_per_table))
        if refusal is not None:
            raise refusal
        table, _token, _new = open_row(t, number, seats=min(vt.seats, t.seats_per_table))
        hold(t, actor=actor, table=table, vt=vt, event=False)
        taken.append(table)
    if taken:
        record_event(
            t, actor=actor, type_="venue.tables_taken", payload={"tables": [table.number for table in taken]}, stats=False, seats=False
        )
    return taken
