"""Who knocked a player out: the winners of the pot a bust was in (tables.models.Elimination).

The floor names them on the map, the dealer on his tablet: one tap on the seat that busted and one on each seat that
won the pot (several for a split pot), among the players at that table. A bounty event's bust needs them; the bounties
made of them are the payouts app's (payouts/services/bounties.py, reacting to ENTRY_BUSTED, BUST_UNDONE and
ELIMINATION_CORRECTED). The floor corrects the winners later with a reason; an undone bust ends its elimination."""

from __future__ import annotations

from django.db import transaction
from django.db.models import Max, Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core import reactions, roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, next_number, require
from tables.models import Elimination, Seat, Table
from tables.selectors.state import live_seats
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_user, lock_tournament, record_event

# Changes the apps above react to (core.reactions): each handler gets actor, tournament (locked) and entry (the busted).
ELIMINATION_CORRECTED = "elimination_corrected"  # after the elimination.corrected event

MAX_WINNERS = 9  # a pot is split among the players of one table at most


def bounty_event(t: Tournament) -> bool:
    return t.bounty_format != Tournament.BountyFormat.NONE


def _numbers(value, what: str) -> list[int]:
    if value is None:
        return []
    if not isinstance(value, list | tuple) or any(not isinstance(n, int) or isinstance(n, bool) or n < 1 for n in value):
        raise ServiceError(_("Give the %(what)s as a list of numbers.") % {"what": what}, code="bad_eliminators")
    if len(value) > MAX_WINNERS:
        raise ServiceError(_("A pot is split among at most %(max)s players.") % {"max": MAX_WINNERS}, code="bad_eliminators")
    if len(set(value)) != len(value):
        raise ServiceError(_("A winner is named once."), code="bad_eliminators")
    return list(value)


def winners_at_table(t: Tournament, busted: Entry, seat: Seat | None, *, entries=None, seats=None) -> list[tuple[int, int]]:
    """The winners named for a bust at `seat` (the busted player's seat, its table read with it), by entry number
    (`entries`) or by seat at his table (`seats`): [(entry number, seat)] in the order named. Each is a player in play at
    that table now, not the busted one. Refused with a message naming the first that is not; none named: []."""
    entries, seats = _numbers(entries, _("eliminators' entry numbers")), _numbers(seats, _("eliminators' seats"))
    if entries and seats:
        raise ServiceError(_("Name the eliminators by entry number or by seat, not both."), code="bad_eliminators")
    if not entries and not seats:
        return []
    if seat is None:
        raise ServiceError(
            _("Entry #%(number)s has no seat: the eliminators are named among the players of his table.") % {"number": busted.number},
            code="no_seat",
            status=409,
        )
    at_table = {s.seat: s.entry for s in live_seats(t).filter(table_id=seat.table_id).select_related("entry")}
    found = []
    if seats:
        for n in seats:
            if n == seat.seat:
                raise ServiceError(
                    _("Seat %(seat)s is the player who busted: name the seat that won the pot.") % {"seat": n}, code="eliminator_is_busted"
                )
            entry = at_table.get(n)
            if entry is None:
                raise ServiceError(
                    _("Nobody plays in seat %(seat)s of table %(table)s.") % {"seat": n, "table": seat.table.number},
                    code="eliminator_not_at_table",
                )
            found.append((entry.number, n))
        return found
    seat_of_entry = {e.number: s for s, e in at_table.items()}
    for n in entries:
        if n == busted.number:
            raise ServiceError(_("Entry #%(number)s cannot knock himself out.") % {"number": n}, code="eliminator_is_busted")
        if n not in seat_of_entry:
            other = Entry.objects.filter(tournament=t, number=n).first()
            if other is None:
                message = _("There is no entry #%(number)s in this tournament.")
            elif other.status != Entry.Status.ACTIVE:
                message = _("Entry #%(number)s is out: he cannot have won the pot.")
            else:
                message = _("Entry #%(number)s does not play at table %(table)s, where the bust was.")
            raise ServiceError(message % {"number": n, "table": seat.table.number}, code="eliminator_not_at_table")
        found.append((n, seat_of_entry[n]))
    return found


def record(t: Tournament, *, actor: Actor, busted: Entry, winners: list[tuple[int, int]], table: Table | None, kind: str) -> Elimination:
    """The elimination of a bust (or a disqualification: no winner), last in the night's order. The caller holds the
    tournament lock."""
    top = Elimination.objects.filter(tournament=t).aggregate(number=Max("number"), order=Max("order"))  # one query for both
    return Elimination.objects.create(
        tournament=t,
        number=(top["number"] or 0) + 1,
        order=(top["order"] or 0) + 1,
        kind=kind,
        busted=busted,
        winners=[n for n, _s in winners],
        winner_seats=[s for _n, s in winners],
        table_number=table.number if table else None,
        button_seat=table.button_seat if table else None,
        created_at=timezone.now(),
        created_by=actor_user(actor),
    )


def end_standing(t: Tournament, entry: Entry, status: str) -> Elimination | None:
    """The entry's standing elimination ends (an undone bust, a reinstated player): returned, or None."""
    row = Elimination.objects.select_for_update().filter(tournament=t, busted=entry, status=Elimination.Status.STANDING).first()
    if row is not None:
        row.status, row.ended_at = status, timezone.now()
        row.save(update_fields=["status", "ended_at"])
    return row


def _at_the_bust(t: Tournament, row: Elimination, numbers: list[int]) -> list[tuple[int, int]]:
    """Winners named in a correction: players who sat at the bust's table when it happened (by the seats' history)."""
    busted_at = row.busted.busted_at or row.created_at
    found = []
    for n in numbers:
        if n == row.busted.number:
            raise ServiceError(_("Entry #%(number)s cannot knock himself out.") % {"number": n}, code="eliminator_is_busted")
        seat = (
            Seat.objects.filter(tournament=t, entry__number=n, table__number=row.table_number, seated_at__lte=busted_at)
            .filter(Q(ended_at__isnull=True) | Q(ended_at__gte=busted_at))
            .order_by("-seated_at")
            .first()
        )
        if seat is None:
            raise ServiceError(
                _("Entry #%(number)s did not play at table %(table)s when #%(busted)s busted.")
                % {"number": n, "table": row.table_number, "busted": row.busted.number},
                code="eliminator_not_at_table",
            )
        found.append((n, seat.seat))
    return found


@transaction.atomic
def correct_eliminators(t: Tournament, *, actor: Actor, entry_number: int, eliminators, reason: str) -> Elimination:
    """The floor names other winners for a bust (a mistake at the table), with a reason: the old elimination is ended
    ("corrected") and a new one takes its place in the night's order, so everything made of it follows (the bounties:
    payouts' reaction, refused while a bounty it changes is paid)."""
    require(actor, roles.BUST)
    text = clean_reason(reason, Elimination, "reason", _("Give a reason for the correction."))
    numbers = _numbers(eliminators, _("eliminators' entry numbers"))
    if not numbers:
        raise ServiceError(_("Name at least one player who won the pot."), code="no_eliminator")
    t = lock_tournament(t.pk)
    row = (
        Elimination.objects.select_for_update()
        .select_related("busted__player")
        .filter(tournament=t, busted__number=entry_number, status=Elimination.Status.STANDING)
        .first()
    )
    if row is None:
        raise ServiceError(
            _("Entry #%(number)s has no standing elimination to correct (not busted, or busted without one).") % {"number": entry_number},
            code="no_elimination",
            status=404,
        )
    if row.kind == Elimination.Kind.DQ:
        raise ServiceError(_("A disqualification has no eliminator."), code="disqualified", status=409)
    winners = _at_the_bust(t, row, numbers)
    if [n for n, _s in winners] == row.winners:
        raise ServiceError(_("These are the winners already recorded."), code="unchanged", status=409)
    row.status, row.ended_at, row.reason = Elimination.Status.CORRECTED, timezone.now(), text
    row.save(update_fields=["status", "ended_at", "reason"])
    new = Elimination.objects.create(
        tournament=t,
        number=next_number(Elimination.objects.filter(tournament=t)),
        order=row.order,
        kind=row.kind,
        busted=row.busted,
        winners=[n for n, _s in winners],
        winner_seats=[s for _n, s in winners],
        table_number=row.table_number,
        button_seat=row.button_seat,
        reason=text,
        created_at=timezone.now(),
        created_by=actor_user(actor),
    )
    record_event(
        t,
        actor=actor,
        type_="elimination.corrected",
        payload={
            "entry": row.busted.number,
            "name": row.busted.player.display_name,
            "before": row.winners,
            "after": new.winners,
            "reason": text,
            "entries": sorted({row.busted.number, *row.winners, *new.winners}),
        },
    )
    reactions.react(ELIMINATION_CORRECTED, actor=actor, tournament=t, entry=row.busted)
    return new
