"""Penalties (TDA 51, club 1): the floor gives a warning or a missed-hand penalty to a seated player and
cancels one given in error. The hands to miss come from tables/rules/missed_hands.py, counted at the moment the
penalty is given; the player's table tablet shows the hands he still sits out (tables/selectors/screens.py)."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, next_number, require
from tables.models import Penalty, Seat
from tables.rules import missed_hands as mh
from tables.selectors.state import live_seats, seated_entry
from tournament.models import Entry, Tournament
from tournament.services.audit import actor_user, lock_tournament, record_event

MAX_REASON = Penalty._meta.get_field("reason").max_length
NOT_SEATED = gettext_lazy("Entry #%(number)s has no seat in play: only a seated player gets a penalty.")
REASON_MISSING = gettext_lazy("Say why: the reason is written on the penalty.")


def clean_penalty_reason(reason) -> str:
    return clean_reason(reason, Penalty, "reason", REASON_MISSING)


def offender(t: Tournament, entry_number: int | None, table: int | None, seat: int | None) -> tuple[Entry, Seat]:
    """The entry and the seat it holds, named by its entry number or by the table and the seat where the
    player sits (one or the other, never both: a penalty never goes to a guess)."""
    by_seat = table is not None or seat is not None
    if (entry_number is not None) == by_seat or (by_seat and (table is None or seat is None)):
        raise ServiceError(_("Say who gets the penalty: the entry number, or the table and the seat (not both)."), code="invalid")
    if by_seat:
        held = live_seats(t).select_related("table", "entry__player").filter(table__number=table, seat=seat).first()
        if held is None:
            raise ServiceError(
                _("Nobody sits at table %(table)s seat %(seat)s.") % {"table": table, "seat": seat}, code="empty_seat", status=409
            )
        return held.entry, held
    return seated_entry(t, entry_number, NOT_SEATED)


@transaction.atomic
def give_penalty(
    t: Tournament,
    *,
    actor: Actor,
    entry_number: int | None,
    kind: str,
    rounds: int | None,
    reason: str,
    table: int | None = None,
    seat: int | None = None,
) -> Penalty:
    """A warning, one missed hand, or one to four rounds (a hand for every player at the table now, the
    offender included, per round) to the player of an entry in play, at the seat he holds. The player is
    named by his entry number, or by his table and seat (then `entry_number` is None)."""
    require(actor, roles.PENALTIES)
    t = lock_tournament(t.pk)
    text = clean_penalty_reason(reason)
    entry, held = offender(t, entry_number, table, seat)
    players = live_seats(t).filter(table=held.table).count()
    try:
        hands = mh.hands_to_miss(kind, players, rounds)
    except mh.PenaltyError as exc:
        message = {
            "bad_players": _("A table has one to ten players."),
            "rounds_not_taken": _("Only a penalty of rounds takes a number of rounds: leave it out for a warning or one hand."),
        }.get(exc.code, _("A penalty is a warning, one hand, or one to four rounds."))
        raise ServiceError(message, code="invalid") from None
    number = next_number(Penalty.objects.filter(tournament=t))
    penalty = Penalty.objects.create(
        tournament=t,
        number=number,
        entry=entry,
        kind=kind,
        rounds=rounds if kind == mh.ROUNDS else None,
        players_at_table=players,
        hands=hands,
        table_number=held.table.number,
        seat=held.seat,
        reason=text,
        given_at=timezone.now(),
        given_by=actor_user(actor),
    )
    record_event(
        t,
        actor=actor,
        type_="penalty.given",
        payload={
            "penalty": number,
            "entry": entry.number,
            "name": entry.player.display_name,
            "table": held.table.number,
            "seat": held.seat,
            "kind": kind,
            "rounds": penalty.rounds,
            "players": players,
            "hands": hands,
            "reason": text,
        },
        stats=False,
        seats=False,
    )
    return penalty


@transaction.atomic
def cancel_penalty(t: Tournament, *, actor: Actor, number: int, reason: str) -> Penalty:
    """A penalty given in error ends now (what was served stays served); it stays on the record, cancelled."""
    require(actor, roles.PENALTIES)
    t = lock_tournament(t.pk)
    text = clean_penalty_reason(reason)
    penalty = Penalty.objects.select_for_update().filter(tournament=t, number=number).first()
    if penalty is None:
        raise ServiceError(_("There is no penalty #%(number)s.") % {"number": number}, code="not_found", status=404)
    if penalty.cancelled_at is not None:
        raise ServiceError(_("Penalty #%(number)s is already cancelled.") % {"number": number}, code="already_cancelled", status=409)
    if penalty.kind == Penalty.Kind.DISQUALIFIED:  # tables/services/busts.reinstate brings the player and his chips back
        raise ServiceError(
            _("Penalty #%(number)s is a disqualification: cancelling it reinstates the player.") % {"number": number},
            code="disqualification",
            status=409,
        )
    penalty.cancelled_at, penalty.cancelled_by, penalty.cancel_reason = timezone.now(), actor_user(actor), text
    penalty.save(update_fields=["cancelled_at", "cancelled_by", "cancel_reason"])
    seat = live_seats(t).select_related("table").filter(entry_id=penalty.entry_id).first()
    record_event(
        t,
        actor=actor,
        type_="penalty.cancelled",
        payload={
            "penalty": number,
            "entry": penalty.entry.number,
            "table": seat.table.number if seat else penalty.table_number,
            "reason": text,
        },
        stats=False,
        seats=False,
    )
    return penalty
