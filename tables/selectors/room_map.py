"""The room as the floor sees it: every table of a venue, by area, with the tournament that holds it or reserved it,
its players, or why it is closed. A constant number of queries whatever the room's size and the tournaments in it.
Staff who work some tournaments only read the names of those; the others' read "another tournament"."""

from __future__ import annotations

from django.db.models import Count
from django.utils.translation import gettext as _

from core import roles
from tables.models import Seat
from tournament.models import Tournament
from tournament.selectors import waiting_list
from venues.models import SitAndGo, Venue, VenueTable
from venues.rules import room as rules

COLOURS = 8  # the screens' palette of tournaments (static/css/screens/venues-room.css): the name is always written too


def _name(t: Tournament | None, user) -> tuple[int | None, str]:
    if t is None:
        return None, ""
    if user is None or roles.works_in(user, t.pk):
        return t.pk, t.name
    return None, str(_("another tournament"))


def colours(venue: Venue) -> dict[int, int]:
    """Each tournament's colour on the room's screens (the room map and the room TV say the same): the venue's
    tournaments not over, by name, take the palette's colours in turn."""
    rows = venue.all_tournaments().exclude(status=Tournament.Status.FINISHED).order_by("name", "pk").values_list("pk", flat=True)
    return {pk: i % COLOURS for i, pk in enumerate(rows)}


def state_of(vt: VenueTable) -> str:
    """free, held, reserved (held by nobody, waiting for one tournament), out_of_service or cash."""
    if vt.table_id is not None:
        return "held"
    if vt.status != VenueTable.Status.OPEN:
        return vt.status
    return "reserved" if vt.reserved_for_id is not None else "free"


def room_map(venue: Venue, *, user=None, tournament: int | None = None) -> dict:
    """The venue's tables in the house's order of areas, each with its state, holder or reservation and players; with
    `tournament`, only the tables it holds or reserved. Also a count of tables by state and the tournaments in the room."""
    rows = list(VenueTable.objects.filter(venue=venue).select_related("table__tournament", "reserved_for").order_by("number"))
    held = [vt.table_id for vt in rows if vt.table_id is not None]
    players = (
        dict(
            Seat.objects.filter(table_id__in=held, ended_at__isnull=True)
            .values("table_id")
            .annotate(n=Count("id"))
            .values_list("table_id", "n")
        )
        if held
        else {}
    )
    order = {
        vt.number: i for i, vt in enumerate(rules.house_order([rules.Free(vt.number, vt.area, vt.seats) for vt in rows], venue.area_order))
    }
    tables, counts, tournaments = [], {"free": 0, "held": 0, "reserved": 0, "out_of_service": 0, "cash": 0}, {}
    for vt in sorted(rows, key=lambda vt: order[vt.number]):
        holder = vt.table.tournament if vt.table_id is not None else None
        holder_id, holder_name = _name(holder, user)
        reserved_id, reserved_name = _name(vt.reserved_for, user)
        if tournament is not None and tournament not in (holder_id, reserved_id):
            continue
        state = state_of(vt)
        counts[state] += 1
        for pk, name in ((holder_id, holder_name), (reserved_id, reserved_name)):
            if pk is not None:
                tournaments[pk] = name
        tables.append(
            {
                "number": vt.number,
                "area": vt.area,
                "seats": vt.seats,
                "state": state,
                "tournament": holder_id,
                "tournament_name": holder_name,
                "plays_seats": vt.table.seats if vt.table_id is not None else None,
                "players": players.get(vt.table_id, 0) if vt.table_id is not None else 0,
                "reserved_for": reserved_id,
                "reserved_for_name": reserved_name,
                "reserved_from": vt.reserved_from,
                "reason": vt.note,
            }
        )
    listed = sorted(tournaments.items(), key=lambda item: (item[1], item[0]))
    colour = colours(venue)  # the screens' colour of each tournament (and its name)
    for table in tables:
        table["colour"] = colour.get(table["tournament"] if table["tournament"] is not None else table["reserved_for"])
    return {
        "venue": {"id": venue.pk, "name": venue.name, "areas": venue.area_order, "fixed_tables": venue.fixed_tables},
        "tables": tables,
        "counts": counts,
        "tournaments": [{"id": pk, "name": name, "colour": colour.get(pk)} for pk, name in listed],
    }


def registration_state(t: Tournament, stats: dict) -> dict:
    """What the room's screens say of a tournament's registration (its figures from tournament_stats): open, until the
    end of level N while it plays (late registration), closed, or sold out: open, but its maximum entries reached, or
    every seat of its tables taken and no table of its venue free for it in a room with a fixed set of tables (a club's
    room adds the table the director opens), or players waiting on its list (their number). A sit & go: the seats it
    starts with and how many are taken."""
    late = t.late_reg_until_level
    open_now = bool(stats["registration_open"])
    running = t.status == Tournament.Status.RUNNING
    sng = SitAndGo.objects.filter(tournament=t).first()
    seats = None if sng is None else {"players": sng.players, "registered": stats["entries"], "started": sng.started_at is not None}
    return {
        "open": open_now,
        "until_level": late if open_now and running else None,
        # Read now, not from the figures: a table the room gives back is no event of the tournament's (its figures are
        # kept by its own version), and it may end a sell-out (tournament/selectors/waiting_list.py).
        **({"sold_out": False, "waiting": 0} if not open_now else waiting_list.summary(t)),
        "sit_and_go": seats,
    }
