"""Setting up the venue: its tables added, changed, removed or read from a room file, the order of its areas; and
the floor's states of a table that no tournament holds (out of service, cash games, open again) and reservations.

A table a tournament holds is never closed, removed or shrunk below the seats its tournament plays: the answer
says which tournament holds it only to staff who work that tournament (the others read "another tournament").
Every change is one transaction and one audit event: the venue's own (no tournament) for its tables, the
tournament's for a reservation made or cancelled for it.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, require
from tournament.models import Tournament
from tournament.services.audit import lock_tournament, record_event
from venues.models import Venue, VenueTable
from venues.rules import room as rules


def default_venue() -> Venue:
    """The deployment's first venue; made (as "The room") the first time anyone needs one."""
    venue = Venue.objects.order_by("id").first()
    if venue is None:
        venue, _made = Venue.objects.get_or_create(name=_("The room"))
    return venue


def venue_of(t: Tournament) -> Venue:
    """The venue whose tables a tournament takes: its own, or the default one (a tournament made before venues)."""
    return t.room if t.room_id else default_venue()


def venue_event(venue: Venue, *, actor: Actor, type_: str, payload: dict) -> None:
    record_event(None, actor=actor, type_=type_, payload={"venue": venue.pk, **payload}, seats=False)


def holder_name(vt: VenueTable, *, actor: Actor) -> str:
    """Who holds or reserved a table, as this actor may read it: the tournament's name for staff who work it."""
    t = vt.table.tournament if vt.table_id else vt.reserved_for
    if t is None:
        return ""
    return t.name if roles.works_in(actor, t.pk) else _("another tournament")


def refuse_held(vt: VenueTable, *, actor: Actor, what: str) -> None:
    if vt.table_id is not None:
        raise ServiceError(
            _("Table %(number)s is in play (%(holder)s): %(what)s once it breaks.")
            % {"number": vt.number, "holder": holder_name(vt, actor=actor), "what": what},
            code="table_in_play",
            status=409,
        )


def locked(venue: Venue, number) -> VenueTable:
    try:
        number = int(number)
    except (TypeError, ValueError):
        number = 0
    vt = (
        VenueTable.objects.select_for_update(of=("self",))
        .select_related("table__tournament", "reserved_for")
        .filter(venue=venue, number=number)
        .first()
    )
    if vt is None:
        raise ServiceError(_("The venue has no table %(number)s.") % {"number": number}, code="no_table", status=404)
    return vt


def _checked(number, seats, area: str) -> tuple[int, int, str]:
    try:
        number, seats = int(number), int(seats)
    except (TypeError, ValueError):
        raise ServiceError(_("Give the table's number and its seats as whole numbers."), code="bad_table") from None
    if not 1 <= number <= rules.MAX_NUMBER:
        raise ServiceError(_("Table numbers run from 1 to 999."), code="table_number")
    if not rules.MIN_SEATS <= seats <= rules.MAX_SEATS:
        raise ServiceError(_("A venue table has 6 to 10 seats."), code="table_seats")
    area = (area or "").strip()
    if len(area) > 60:
        raise ServiceError(_("An area's name is at most 60 characters."), code="area")
    return number, seats, area


@transaction.atomic
def create_venue(*, actor: Actor, name: str) -> Venue:
    require(actor, roles.VENUE)
    name = (name or "").strip()
    if not name or len(name) > 160:
        raise ServiceError(_("Name the venue (at most 160 characters)."), code="venue_name")
    if Venue.objects.filter(name=name).exists():
        raise ServiceError(_("There is a venue of that name already."), code="venue_exists", status=409)
    venue = Venue.objects.create(name=name, fixed_tables=True)
    venue_event(venue, actor=actor, type_="venue.created", payload={"name": name})
    return venue


@transaction.atomic
def set_room(venue: Venue, *, actor: Actor, tournament: Tournament) -> Tournament:
    """The venue a tournament takes its tables from, chosen before it opens any (a deployment with several rooms)."""
    require(actor, roles.VENUE)
    t = lock_tournament(tournament.pk)
    if t.tables.exists():
        raise ServiceError(
            _("This tournament has opened tables already: it stays in the venue it took them from."), code="tables_opened", status=409
        )
    if t.room_id == venue.pk:
        return t
    t.room = venue
    t.save(update_fields=["room"])
    record_event(t, actor=actor, type_="venue.room_set", payload={"venue": venue.pk, "name": venue.name}, stats=False, seats=False)
    return t


@transaction.atomic
def set_areas(venue: Venue, *, actor: Actor, areas: list[str], fixed_tables: bool | None = None) -> Venue:
    """The house's order of its areas (draws take free tables area by area in it), and whether the set of tables is
    fixed (otherwise a table opened by a number the venue lacks is added)."""
    require(actor, roles.VENUE)
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    if not isinstance(areas, list) or not all(isinstance(a, str) and a.strip() and len(a) <= 60 for a in areas):
        raise ServiceError(_("List the areas by name, first to fill first."), code="areas")
    areas = [a.strip() for a in areas]
    if len(set(areas)) != len(areas):
        raise ServiceError(_("Name each area once."), code="areas")
    venue.area_order = areas
    if fixed_tables is not None:
        venue.fixed_tables = bool(fixed_tables)
    venue.save(update_fields=["area_order", "fixed_tables"])
    venue_event(venue, actor=actor, type_="venue.areas", payload={"areas": areas, "fixed_tables": venue.fixed_tables})
    return venue


@transaction.atomic
def add_table(venue: Venue, *, actor: Actor, number, seats, area: str = "") -> VenueTable:
    require(actor, roles.VENUE)
    number, seats, area = _checked(number, seats, area)
    if VenueTable.objects.filter(venue=venue, number=number).exists():
        raise ServiceError(_("The venue has a table %(number)s already.") % {"number": number}, code="table_exists", status=409)
    try:
        with transaction.atomic():
            vt = VenueTable.objects.create(venue=venue, number=number, seats=seats, area=area)
    except IntegrityError:  # the same number added at the same moment
        raise ServiceError(_("The venue has a table %(number)s already.") % {"number": number}, code="table_exists", status=409) from None
    venue_event(venue, actor=actor, type_="venue.table_added", payload={"table": number, "seats": seats, "area": area})
    return vt


@transaction.atomic
def change_table(venue: Venue, *, actor: Actor, number, seats=None, area: str | None = None) -> VenueTable:
    """A table's seats or area. A table in play keeps at least the seats its tournament plays at it."""
    require(actor, roles.VENUE)
    vt = locked(venue, number)
    _n, seats, area = _checked(vt.number, vt.seats if seats is None else seats, vt.area if area is None else area)
    if vt.table_id is not None and seats < vt.table.seats:
        raise ServiceError(
            _("Table %(number)s is in play with %(seats)s seats: it cannot have fewer while it is.")
            % {"number": vt.number, "seats": vt.table.seats},
            code="table_in_play",
            status=409,
        )
    vt.seats, vt.area = seats, area
    vt.save(update_fields=["seats", "area"])
    venue_event(venue, actor=actor, type_="venue.table_changed", payload={"table": vt.number, "seats": seats, "area": area})
    return vt


@transaction.atomic
def remove_table(venue: Venue, *, actor: Actor, number) -> None:
    require(actor, roles.VENUE)
    vt = locked(venue, number)
    refuse_held(vt, actor=actor, what=_("remove it"))
    if vt.reserved_for_id is not None:
        raise ServiceError(
            _("Table %(number)s is reserved for %(holder)s: cancel the reservation first.")
            % {"number": vt.number, "holder": holder_name(vt, actor=actor)},
            code="table_reserved",
            status=409,
        )
    vt.delete()
    venue_event(venue, actor=actor, type_="venue.table_removed", payload={"table": vt.number})


@transaction.atomic
def import_room(venue: Venue, *, actor: Actor, text: str) -> dict:
    """A room file (venues/rules/room.py, read_room): each line adds a table or changes one. Nothing changes when one
    line is wrong, or a line would close or shrink a table in play. The venue's set of tables is then fixed."""
    require(actor, roles.VENUE)
    venue = Venue.objects.select_for_update().get(pk=venue.pk)
    try:
        rows = rules.read_room(text or "")
    except rules.RoomFileError as exc:
        raise ServiceError(
            _("The room file was not read; nothing changed. %(problems)s")
            % {"problems": " ".join(_problem(line, code, d) for line, code, d in exc.problems[:20])},
            code="bad_room_file",
            details=[{"line": line, "problem": code, **d} for line, code, d in exc.problems],
        ) from None
    existing = {
        vt.number: vt for vt in VenueTable.objects.select_for_update(of=("self",)).select_related("table__tournament").filter(venue=venue)
    }
    for row in rows:
        vt = existing.get(row.number)
        if vt is not None and vt.table_id is not None and (row.status != "open" or row.seats < vt.table.seats):
            raise ServiceError(
                _("The room file was not read; nothing changed. Table %(number)s is in play: it stays open with at least %(seats)s seats.")
                % {"number": row.number, "seats": vt.table.seats},
                code="table_in_play",
                status=409,
            )
    added = changed = 0
    new = []
    for row in rows:
        vt = existing.get(row.number)
        if vt is None:
            new.append(VenueTable(venue=venue, number=row.number, area=row.area, seats=row.seats, status=row.status))
            added += 1
        elif (vt.area, vt.seats, vt.status) != (row.area, row.seats, row.status):
            vt.area, vt.seats, vt.status = row.area, row.seats, row.status
            if row.status != "open":
                vt.reserved_for, vt.reserved_from = None, None
            vt.save(update_fields=["area", "seats", "status", "reserved_for", "reserved_from"])
            changed += 1
    VenueTable.objects.bulk_create(new, batch_size=500)
    if not venue.fixed_tables:
        Venue.objects.filter(pk=venue.pk).update(fixed_tables=True)
    result = {"tables": len(rows), "added": added, "changed": changed}
    venue_event(venue, actor=actor, type_="venue.imported", payload=result)
    return result


def _problem(line: int, code: str, d: dict) -> str:
    words = {
        "header": _("the first line names the columns number, area and seats (state optional)"),
        "not_a_number": _("number and seats are whole numbers"),
        "number": _("table numbers run from 1 to 999"),
        "seats": _("a venue table has 6 to 10 seats"),
        "state": _("the state is open, out_of_service or cash"),
        "twice": _("table %(number)s is on line %(first)s too") % {"number": d.get("number"), "first": d.get("first")},
        "empty": _("the file lists no table"),
    }
    return _("Line %(line)s: %(problem)s.") % {"line": line, "problem": words[code]}


@transaction.atomic
def set_state(venue: Venue, *, actor: Actor, number, status: str, reason: str = "") -> VenueTable:
    """Close a table (out of service), give it to cash games, or open it again. A table in play is not closed; a
    closed table's reservation ends (its tournament is told)."""
    require(actor, roles.ROOM)
    if status not in VenueTable.Status.values:
        raise ServiceError(_("A table is open, out of service or given to cash games."), code="bad_state")
    reason = (reason or "").strip()
    if status != VenueTable.Status.OPEN and not reason:
        raise ServiceError(_("Give the reason the table closes."), code="reason_required")
    vt = locked(venue, number)
    if status != VenueTable.Status.OPEN:
        refuse_held(vt, actor=actor, what=_("close it"))
    if vt.status == status:
        return vt
    ended = vt.reserved_for if status != VenueTable.Status.OPEN else None
    vt.status, vt.note = status, reason[:200]
    if ended is not None:
        vt.reserved_for, vt.reserved_from = None, None
    vt.save(update_fields=["status", "note", "reserved_for", "reserved_from"])
    venue_event(venue, actor=actor, type_="venue.table_state", payload={"table": vt.number, "state": status, "reason": vt.note})
    if ended is not None:
        record_event(
            lock_tournament(ended.pk),
            actor=actor,
            type_="venue.reservation_ended",
            payload={"table": vt.number, "reason": vt.note},
            stats=False,
            seats=False,
        )
    return vt


@transaction.atomic
def reserve(venue: Venue, *, actor: Actor, number, tournament: Tournament | None, at=None, reason: str = "") -> VenueTable:
    """Reserve a table for a tournament (from a time, shown on the room map): no other tournament takes it while the
    reservation stands; a table in play is reserved for when it breaks. `tournament` None cancels the reservation."""
    require(actor, roles.ROOM)
    if tournament is not None and not roles.has_role(actor, roles.ROOM, tournament.pk):
        raise ServiceError(_("Your role does not allow this action."), code="forbidden", status=403)
    vt = locked(venue, number)
    before = vt.reserved_for
    if tournament is None:
        if before is None:
            return vt
        if not roles.has_role(actor, roles.ROOM, before.pk):
            raise ServiceError(_("Your role does not allow this action."), code="forbidden", status=403)
        vt.reserved_for, vt.reserved_from, vt.note = None, None, ""
        vt.save(update_fields=["reserved_for", "reserved_from", "note"])
        record_event(
            lock_tournament(before.pk),
            actor=actor,
            type_="venue.reservation_cancelled",
            payload={"table": vt.number},
            stats=False,
            seats=False,
        )
        return vt
    if venue_of(tournament).pk != venue.pk:
        raise ServiceError(_("That tournament plays in another venue."), code="other_venue", status=409)
    if tournament.status == Tournament.Status.FINISHED:
        raise ServiceError(_("That tournament is over."), code="finished", status=409)
    if vt.status != VenueTable.Status.OPEN:
        raise ServiceError(
            _("Table %(number)s is closed (%(reason)s): open it first.") % {"number": vt.number, "reason": vt.note},
            code="table_closed",
            status=409,
        )
    if vt.table_id is not None and vt.table.tournament_id == tournament.pk:
        raise ServiceError(_("Table %(number)s is that tournament's already.") % {"number": vt.number}, code="held_already", status=409)
    if before is not None and before.pk != tournament.pk:
        raise ServiceError(
            _("Table %(number)s is reserved for %(holder)s: cancel that reservation first.")
            % {"number": vt.number, "holder": holder_name(vt, actor=actor)},
            code="table_reserved",
            status=409,
        )
    vt.reserved_for, vt.reserved_from, vt.note = tournament, at or timezone.now(), (reason or "").strip()[:200]
    vt.save(update_fields=["reserved_for", "reserved_from", "note"])
    record_event(
        lock_tournament(tournament.pk),
        actor=actor,
        type_="venue.reserved",
        payload={"table": vt.number, "from": vt.reserved_from.isoformat(), "reason": vt.note},
        stats=False,
        seats=False,
    )
    return vt
