"""Use cases of the places players reserve from their phones (the rules: tournament/rules/reservations.py).

- `reserve`: a player reserves a place with his name and a contact, no account; he gets a number to show at the desk and
  a link (its secret code) that shows and cancels it. Refused past the house's cap, once the tournament started, for a
  second place under one contact, or past a phone's (an address's) number. Made while the tournament is sold out, it
  holds no place: its claim puts him on the waiting list.
- `claim`: the desk finds the reservation, checks the player's ID and takes his buy-in: his entry, on the place the
  reservation held (registration's own checks and receipt), or his place on the waiting list (the list's own).
- `cancel` (the desk) and `cancel_by_code` (the player, from his link).
- `expire_due`: the sweep (Celery beat; the embedded ticker) expires the unclaimed ones at the house's time, and the
  places they held go to the waiting list.

Each runs in one transaction with the tournament locked and writes an audit event; the contact is never in an event.
"""

from __future__ import annotations

import hmac
import logging
from datetime import datetime
from random import SystemRandom

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, next_number, require
from tournament.models import Entry, Player, Purchase, Reservation, Tournament, WaitingPlace
from tournament.models.reservations import code_hash
from tournament.rules import reservations as rr
from tournament.selectors import reservations as sel
from tournament.selectors.waiting_list import capacity
from tournament.services import waiting_list
from tournament.services.audit import actor_user, each_tournament, lock_tournament, record_event
from tournament.services.registration import IdDocument, checked_entrant, create_player, record_id_check, take_entry
from tournament.services.waiting_list import offer_seats

log = logging.getLogger(__name__)
State = Reservation.State
PHONE = "player's phone"  # the actor of what a player does from his phone (the event log's "who")
_rng = SystemRandom()


def _refused(code: str, t: Tournament) -> ServiceError:
    rules = sel.rules_of(t)
    messages = {
        "reservations_off": (_("This tournament takes no reservations: register at the desk."), 409),
        "reservations_closed": (_("Reservations for this tournament are closed: register at the desk."), 409),
        "reservation_cap": (
            _("All %(cap)s places that may be reserved are taken: register at the desk.") % {"cap": rules.cap},
            409,
        ),
        "device_limit": (
            _("This phone has made %(n)s reservations for this tournament, the most one phone may make.") % {"n": rules.per_device},
            429,
        ),
        "address_limit": (_("Too many reservations from this network: ask at the desk."), 429),
        "name_missing": (_("Give your first and last name."), 400),
        "name_long": (_("The name is too long: at most %(max)s characters.") % {"max": rr.NAME_MAX}, 400),
        "name_bad": (_("The name has characters that are not letters."), 400),
        "contact_missing": (_("Give a phone number or an e-mail address."), 400),
        "contact_long": (_("The contact is too long: at most %(max)s characters.") % {"max": rr.CONTACT_MAX}, 400),
        "contact_bad": (_("This is neither a phone number nor an e-mail address."), 400),
    }
    message, status = messages[code]
    return ServiceError(message, code=code, status=status)


def keyed(value: str) -> str:
    """A phone's cookie or address as stored: keyed, so the table names no device and no address."""
    return hmac.new(settings.SECRET_KEY.encode(), (value or "").encode(), "sha256").hexdigest()


@transaction.atomic
def reserve(tournament: Tournament, *, name: str, contact: str, device: str, address: str) -> tuple[Reservation, str]:
    """A place reserved from a phone. Returns the reservation and its code (shown once: only its hash is kept)."""
    t = lock_tournament(tournament.pk)
    try:
        name = rr.clean_name(name)
        contact, contact_key = rr.clean_contact(contact)
    except rr.ReservationError as exc:
        raise _refused(exc.code, t) from exc
    now = timezone.now()
    device, address = keyed(device), keyed(address)
    counts = sel.counts(t, device=device, address=address)
    refusal = rr.refusal(
        sel.rules_of(t),
        now=now,
        started=t.status != Tournament.Status.SETUP,
        closed=t.registration_closed,
        taken=counts["taken"],
        by_device=counts["by_device"],
        by_address=counts["by_address"],
    )
    if refusal:
        raise _refused(refusal, t)
    if Reservation.objects.filter(tournament=t, contact_key=contact_key, state=State.HELD).exists():
        raise ServiceError(
            _("A place is already reserved for this contact: show its number at the desk."), code="already_reserved", status=409
        )
    code = rr.new_code(_rng)
    try:
        with transaction.atomic():
            reservation = Reservation.objects.create(
                tournament=t,
                number=next_number(Reservation.objects.filter(tournament=t)),
                code_hash=code_hash(code),
                name=name,
                contact=contact,
                contact_key=contact_key,
                device=device,
                address=address,
                holds_place=not capacity(t)["sold_out"],
                created_at=now,
            )
    except IntegrityError as exc:  # the same contact a moment ago, or (once in 10**12) a code taken
        raise ServiceError(_("This place could not be reserved: try again."), code="reserve_again", status=409) from exc
    record_event(
        t,
        actor=PHONE,
        type_="reservation.made",
        payload={
            "reservation": reservation.number,
            "name": name,
            "holds_place": reservation.holds_place,
            "expires_at": rr.expires_at(sel.rules_of(t)).isoformat(),
        },
        seats=False,
    )
    return reservation, code


@transaction.atomic
def claim(
    reservation: Reservation, *, actor: Actor, player: Player, document: IdDocument | None, paid_with: str = Purchase.PaidWith.CASH
) -> Entry | WaitingPlace:
    """The desk claims a reservation: the player's ID checked and his buy-in taken, as at registration (its refusals
    too), on the place the reservation held: a sold-out tournament takes him; the entry.registered event names it. A
    reservation made sold out (holding no place) puts him on the waiting list while the tournament is still sold out
    (the list's rules: his place, his money), or registers him if places opened since."""
    require(actor, roles.REGISTER)
    t = lock_tournament(reservation.tournament_id)
    reservation = Reservation.objects.select_for_update().get(pk=reservation.pk)
    if reservation.state != State.HELD:
        raise ServiceError(
            _("Reservation R-%(number)s is %(state)s: register the player as a walk-in.")
            % {"number": reservation.number, "state": reservation.get_state_display().lower()},
            code="reservation_not_held",
            status=409,
        )
    player = Player.objects.select_for_update().get(pk=player.pk)
    if not reservation.holds_place and capacity(t)["sold_out"]:
        place = waiting_list.join(t, actor=actor, player=player, document=document, facts={"reservation": reservation.number})
        _claimed(reservation, actor=actor, waiting_place=place)
        return place
    hmac_value, kind = checked_entrant(t, player=player, document=document)
    if capacity(t, claiming=reservation.holds_place)["full"]:
        raise ServiceError(
            _("The room has no place left even for a reservation (tables were closed): put %(name)s on the waiting list.")
            % {"name": player.display_name},
            code="sold_out",
            status=409,
        )
    check = record_id_check(player, actor=actor, document=document, hmac_value=hmac_value)
    entry = take_entry(
        t, actor=actor, player=player, check=check, kind=kind, paid_with=paid_with, facts={"reservation": reservation.number}
    )
    _claimed(reservation, actor=actor, entry=entry)
    return entry


def _claimed(reservation: Reservation, *, actor: Actor, entry: Entry | None = None, waiting_place: WaitingPlace | None = None) -> None:
    reservation.state, reservation.closed_at, reservation.closed_by = State.CLAIMED, timezone.now(), actor_user(actor)
    reservation.entry, reservation.waiting_place = entry, waiting_place
    reservation.save(update_fields=["state", "entry", "waiting_place", "closed_at", "closed_by"])


@transaction.atomic
def claim_new_player(reservation: Reservation, *, actor: Actor, document: IdDocument | None, **player) -> Entry | WaitingPlace:
    """A player seen for the first time claims his reservation in one step: his record is kept only with his entry."""
    return claim(reservation, actor=actor, player=create_player(actor=actor, **player), document=document)


def _end_reservation(reservation: Reservation, *, actor: Actor, t: Tournament, state: str, type_: str, reason: str = "") -> Reservation:
    if reservation.state != State.HELD:
        raise ServiceError(
            _("Reservation R-%(number)s is not held any more.") % {"number": reservation.number}, code="reservation_not_held", status=409
        )
    reservation.state, reservation.closed_at, reservation.closed_by = state, timezone.now(), actor_user(actor)
    reservation.close_reason = reason
    reservation.save(update_fields=["state", "closed_at", "closed_by", "close_reason"])
    record_event(
        t,
        actor=actor,
        type_=type_,
        payload={"reservation": reservation.number, "name": reservation.name, **({"reason": reason} if reason else {})},
    )
    transaction.on_commit(lambda: _offer_freed(t.pk))
    return reservation


@transaction.atomic
def cancel(reservation: Reservation, *, actor: Actor, reason: str) -> Reservation:
    """The desk cancels a reservation (the player called, a double): its place is free again."""
    require(actor, roles.REGISTER)
    reason = clean_reason(reason, Reservation, "close_reason", _("Give a reason for cancelling."))
    t = lock_tournament(reservation.tournament_id)
    reservation = Reservation.objects.select_for_update().get(pk=reservation.pk)
    return _end_reservation(reservation, actor=actor, t=t, state=State.CANCELLED, type_="reservation.cancelled", reason=reason)


@transaction.atomic
def cancel_by_code(tournament: Tournament, *, code: str) -> Reservation:
    """The player cancels his own reservation from his link."""
    t = lock_tournament(tournament.pk)
    reservation = Reservation.objects.select_for_update().filter(tournament=t, code_hash=code_hash(code)).first()
    if reservation is None:
        raise ServiceError(_("No such reservation."), code="not_found", status=404)
    return _end_reservation(reservation, actor=PHONE, t=t, state=State.CANCELLED, type_="reservation.cancelled")


def _offer_freed(tournament_id: int) -> None:
    """A place freed after the start (a reservation cancelled or expired) goes to the waiting list's head at once."""
    try:
        with transaction.atomic():
            t = lock_tournament(tournament_id)
            if t.status != Tournament.Status.FINISHED:
                offer_seats(t, actor=None)
    except ServiceError:  # the room has no free table now: the sweep offers it later
        log.info("a freed reservation's place waits for the sweep in tournament %s", tournament_id)


def expire_due(now: datetime | None = None) -> int:
    """The sweep: every held reservation past its tournament's time expires, and the places go to the waiting list.
    Idempotent. Returns the reservations expired."""
    now = now or timezone.now()
    return each_tournament(sel.tournaments_with_held(), lambda pk: _expire(pk, now), "the reservations' sweep")


@transaction.atomic
def _expire(tournament_id: int, now: datetime) -> int:
    t = lock_tournament(tournament_id)
    if not rr.due(sel.rules_of(t), now):
        return 0
    rows = list(Reservation.objects.select_for_update().filter(tournament=t, state=State.HELD).order_by("number"))
    if not rows:
        return 0
    Reservation.objects.filter(pk__in=[r.pk for r in rows]).update(state=State.EXPIRED, closed_at=now)
    record_event(t, actor=None, type_="reservation.expired", payload={"reservations": [r.number for r in rows], "count": len(rows)})
    if t.status != Tournament.Status.FINISHED:
        offer_seats(t, actor=None)
    return len(rows)
