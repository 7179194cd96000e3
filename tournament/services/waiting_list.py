"""Use cases of the waiting list of a sold-out tournament (its rules: tournament/rules/waiting_list.py).

- `join`: a player past the maximum or the seats joins the list, his ID checked as at registration; the buy-in is taken
  now or at his seat (the house's rule).
- `offer_seats`: as seats open (a bust, a table opened, an entry voided) the first places on the list are offered a seat,
  in its order: each gets an entry, seated by the same verifiable late-entry draw as a late registration (the tables'
  reaction to ENTRY_REGISTERED), and the entry.registered event names the alternate. The floor may offer by hand.
- `seat`: the alternate sat down (and paid, when the house takes the buy-in at the seat).
- `pass_over_due`: an alternate who has not sat down within the house's minutes loses his turn: his entry is voided (its
  seat freed, his money given back or kept as the house sets) and the seat goes to the next.
- `cancel`: a place taken off the list, its money given back.

Each runs in one transaction with the tournament locked, and writes an audit event.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, require
from tournament.models import Entry, Player, Purchase, Tournament, WaitingPlace
from tournament.rules import waiting_list as wl
from tournament.selectors import waiting_list as sel
from tournament.services.audit import actor_user, each_tournament, lock_tournament, record_event
from tournament.services.registration import (
    IdDocument,
    checked_entrant,
    create_player,
    entry_kind,
    record_id_check,
    take_entry,
    void_receipt,
)

State = WaitingPlace.State


def _price(t: Tournament) -> int:
    return t.buy_in + t.bounty + t.fee


@transaction.atomic
def join(tournament: Tournament, *, actor: Actor, player: Player, document: IdDocument | None, facts: dict | None = None) -> WaitingPlace:
    """The player joins the end of the list, his ID checked (the check his entry will carry). Refused while the tournament
    has seats (register him), while he holds a place already, or for anything registration refuses. `facts`: added to
    the waiting.joined event (the reservation from a phone he joined by)."""
    require(actor, roles.REGISTER)
    t = lock_tournament(tournament.pk)
    player = Player.objects.select_for_update().get(pk=player.pk)
    hmac_value, kind = checked_entrant(t, player=player, document=document)
    mine = WaitingPlace.objects.filter(tournament=t, player=player, state__in=sel.OPEN).first()
    if mine is not None:
        raise ServiceError(
            _("%(name)s is on the waiting list already (alternate %(number)s).") % {"name": player.display_name, "number": mine.number},
            code="already_waiting",
            status=409,
        )
    if WaitingPlace.objects.filter(tournament=t, id_hmac=hmac_value, state__in=sel.OPEN).exists():
        raise ServiceError(_("This ID document is already on the waiting list."), code="already_waiting", status=409)
    if not sel.sold_out(t):
        raise ServiceError(_("The tournament has seats: register the player."), code="not_sold_out", status=409)
    rules = sel.rules_of(t)
    paid = _price(t) if rules.payment == wl.PAY_ON_JOINING else 0
    last = WaitingPlace.objects.filter(tournament=t).order_by("-number").values_list("number", flat=True).first() or 0
    place = wl.join([wl.Place(number=last, player=0, state=wl.CANCELLED)], player=player.pk, reentry=kind == Entry.Kind.REENTRY, paid=paid)
    check = record_id_check(player, actor=actor, document=document, hmac_value=hmac_value)
    row = WaitingPlace.objects.create(
        tournament=t,
        number=place.number,
        player=player,
        reentry=place.reentry,
        id_check=check,
        id_hmac=hmac_value,
        paid=paid,
        created_at=timezone.now(),
        created_by=actor,
    )
    record_event(
        t,
        actor=actor,
        type_="waiting.joined",
        payload={
            "alternate": row.number,
            "player": player.pk,
            "name": player.display_name,
            "reentry": row.reentry,
            "paid": paid,
            "position": sel.position_of(row),
            "id_check": {"document_type": check.document_type, "last4": check.number_last4, "checked_by": actor.get_username()},
            **(facts or {}),
        },
        seats=False,
    )
    return row


@transaction.atomic
def join_new_player(tournament: Tournament, *, actor: Actor, document: IdDocument | None, **player) -> WaitingPlace:
    """A player seen for the first time joins the list in one step: his record is kept only with his place."""
    return join(tournament, actor=actor, player=create_player(actor=actor, **player), document=document)


def _locked_place(t: Tournament, place: WaitingPlace) -> WaitingPlace:
    return WaitingPlace.objects.select_for_update(of=("self",)).select_related("player", "entry").get(pk=place.pk, tournament=t)


@transaction.atomic
def cancel(place: WaitingPlace, *, actor: Actor, reason: str) -> WaitingPlace:
    """The place leaves the list (the player goes, or the floor takes him off): what he paid is given back. An alternate
    offered a seat who declines it: his entry is voided, his buy-in given back, and the seat goes to the next."""
    require(actor, roles.REGISTER)
    reason = clean_reason(reason, WaitingPlace, "close_reason", _("Give a reason for taking the place off the list."))
    t = lock_tournament(place.tournament_id)
    place = _locked_place(t, place)
    if place.state not in sel.OPEN:
        raise ServiceError(
            _("Alternate %(number)s is not on the list any more.") % {"number": place.number}, code="not_on_the_list", status=409
        )
    refund = place.paid if place.state == State.WAITING else 0
    if place.state == State.OFFERED:
        refund = _void_offer(place, actor=actor, t=t, reason=reason, keep=False)
    _close(place, actor=actor, state=State.CANCELLED, reason=reason, refund=refund)
    record_event(
        t,
        actor=actor,
        type_="waiting.cancelled",
        payload={
            "alternate": place.number,
            "name": place.player.display_name,
            "reason": reason,
            "refund": refund,
            "entries": _entries(place),
        },
        seats=_entries(place),
    )
    offer_seats(t, actor=actor)
    return place


def _entries(place: WaitingPlace) -> list[int]:
    return [place.entry.number] if place.entry_id else []


def _close(place: WaitingPlace, *, actor: Actor, state: str, reason: str = "", refund: int | None = None) -> None:
    place.state, place.closed_at, place.closed_by, place.close_reason = state, timezone.now(), actor_user(actor), reason
    place.refund = refund
    place.save(update_fields=["state", "closed_at", "closed_by", "close_reason", "refund"])


def _void_offer(place: WaitingPlace, *, actor: Actor, t: Tournament, reason: str, keep: bool) -> int:
    """The offered alternate's entry voided (its seat freed by the tables' reaction): the cash refunded, unless the house
    keeps a no-show's. Returns the refund."""
    buy_in = place.entry.purchases.exclude(status=Purchase.Status.VOIDED).filter(kind__in=[Purchase.Kind.BUY_IN, Purchase.Kind.REENTRY])
    receipt = buy_in.first()
    if receipt is None:  # pragma: no cover - an offer always has its buy-in (take_entry)
        return 0
    voided = void_receipt(receipt, actor=actor, tournament=t, reason=reason, refund_amount=0 if keep else None)
    return voided.refund_amount or 0


def offer_seats(t: Tournament, *, actor: Actor, limit: int | None = None) -> list[WaitingPlace]:
    """Offer the open seats to the first places on the list, in its order (tournament lock held). Returns the places
    offered; none when nobody waits, no seat is open or the maximum is reached."""
    if not WaitingPlace.objects.filter(tournament=t, state=State.WAITING).exists():
        return []
    figures = sel.counts(t)
    open_ = sel.seats_open(t, figures)
    room = figures["waiting"] if open_ is None else min(open_, figures["waiting"])
    if limit is not None:
        room = min(room, limit)
    # Only the first places can be offered: the list's head, not the thousands behind it, is read.
    rows = list(sel.places(t).filter(state=State.WAITING).order_by("number")[: max(room, 0)])
    chosen = wl.to_offer([sel.as_rule(p) for p in rows], sel.rules_of(t), seats_open=room, entries=figures["entries"] + figures["reserved"])
    by_number = {p.number: p for p in rows}
    offered = []
    for rule_place in chosen:
        place = _locked_place(t, by_number[rule_place.number])
        try:
            with transaction.atomic():
                if _offer(place, actor=actor, t=t):
                    offered.append(place)
        except ServiceError as exc:
            if exc.code in ("venue_full", "no_tables"):  # another tournament of the room took the free table first
                break
            raise
    return offered


def _offer(place: WaitingPlace, *, actor: Actor, t: Tournament) -> bool:
    """One place offered a seat: his entry, seated by the late-entry draw. A player who came back into play meanwhile (or
    used his re-entries) leaves the list, his money given back."""
    player = Player.objects.select_for_update().get(pk=place.player_id)
    try:
        if Entry.objects.filter(tournament=t, player=player, status=Entry.Status.ACTIVE).exists():
            raise ServiceError(_("%(name)s is playing.") % {"name": player.display_name}, code="live_entry_exists")
        kind = entry_kind(t, player=player)
    except ServiceError as exc:
        _close(place, actor=actor, state=State.CANCELLED, reason=exc.message, refund=place.paid)
        record_event(
            t,
            actor=actor,
            type_="waiting.cancelled",
            payload={"alternate": place.number, "name": player.display_name, "reason": exc.message, "refund": place.paid, "entries": []},
            seats=False,
        )
        return False
    now = timezone.now()
    rules = sel.rules_of(t)
    sit_by = now + timedelta(minutes=rules.sit_minutes)
    entry = take_entry(
        t,
        actor=actor if actor_user(actor) is not None else place.created_by,
        player=player,
        check=place.id_check,
        kind=kind,
        paid=rules.payment == wl.PAY_ON_JOINING,
        facts={"alternate": place.number, "sit_by": sit_by.isoformat()},
    )
    place.state, place.offered_at, place.entry = State.OFFERED, now, entry
    place.position = entry.seat_facts.get("position") or ""
    place.save(update_fields=["state", "offered_at", "entry", "position"])
    return True


@transaction.atomic
def offer_next(tournament: Tournament, *, actor: Actor, count: int = 1) -> list[WaitingPlace]:
    """The floor seats the next alternates by hand (a table opened, or not to wait for the sweep). Refused with the reason
    when nobody waits, no seat is open or the maximum is reached."""
    require(actor, roles.SEATING)
    t = lock_tournament(tournament.pk)
    if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 100:
        raise ServiceError(_("Seat from 1 to 100 alternates at a time."), code="bad_count")
    figures = sel.counts(t)
    if not figures["waiting"]:
        raise ServiceError(_("Nobody is waiting."), code="nobody_waiting", status=409)
    if t.max_entries is not None and figures["entries"] + figures["reserved"] >= t.max_entries:
        raise ServiceError(
            _(
                "The tournament has its %(max)s entries (the places reserved from phones counted): an alternate is seated only when "
                "an entry is voided or a reservation expires."
            )
            % {"max": t.max_entries},
            code="max_entries",
            status=409,
        )
    if sel.seats_open(t, figures) == 0:
        raise ServiceError(
            _("Every seat is taken: an alternate is seated when a player busts or a table opens."), code="room_full", status=409
        )
    offered = offer_seats(t, actor=actor, limit=count)
    if not offered:
        raise ServiceError(_("No seat could be offered: the room has no free table."), code="room_full", status=409)
    return offered


def _offered(place: WaitingPlace, *, actor: Actor, allowed: tuple[str, ...]) -> tuple[Tournament, WaitingPlace]:
    """The tournament locked and the place, which must be an alternate called to a seat (the role checked first)."""
    require(actor, allowed)
    t = lock_tournament(place.tournament_id)
    place = _locked_place(t, place)
    if place.state != State.OFFERED:
        raise ServiceError(
            _("Alternate %(number)s has not been offered a seat.") % {"number": place.number}, code="not_offered", status=409
        )
    return t, place


@transaction.atomic
def seat(place: WaitingPlace, *, actor: Actor) -> WaitingPlace:
    """The alternate sat down: his turn is done. Where the house takes the buy-in at the seat, it is taken now."""
    t, place = _offered(place, actor=actor, allowed=roles.REGISTER)
    receipt = place.entry.purchases.select_for_update().filter(status=Purchase.Status.ANNOUNCED).first()
    taken = 0
    if receipt is not None:
        receipt.status, receipt.paid_at, receipt.paid_by = Purchase.Status.PAID, timezone.now(), actor_user(actor)
        receipt.save(update_fields=["status", "paid_at", "paid_by"])
        taken = receipt.total
    _close(place, actor=actor, state=State.SEATED)
    record_event(
        t,
        actor=actor,
        type_="waiting.seated",
        payload={
            "alternate": place.number,
            "entry": place.entry.number,
            "name": place.player.display_name,
            "paid": taken,
            "receipt": receipt.number if receipt is not None else None,
            "entries": [place.entry.number],
        },
        seats=[place.entry.number],
    )
    return place


def entry_out(entry: Entry, *, actor: Actor, t: Tournament) -> None:
    """An alternate called to a seat whose entry busts (lock held: tables/services/busts.py) sat down and played, whether
    or not the desk pressed "Sat down": his place is done (a buy-in the house takes at the seat is still owed: its
    receipt stays announced for the cage)."""
    place = WaitingPlace.objects.select_for_update().filter(tournament=t, entry=entry, state=State.OFFERED).first()
    if place is None:
        return
    _close(place, actor=actor, state=State.SEATED, reason=_("He played: his entry is out."))
    record_event(
        t,
        actor=actor,
        type_="waiting.seated",
        payload={
            "alternate": place.number,
            "entry": entry.number,
            "name": entry.player.display_name,
            "paid": 0,
            "played": True,
            "entries": [entry.number],
        },
        seats=[entry.number],
    )


def pass_over(place: WaitingPlace, *, actor: Actor, t: Tournament) -> WaitingPlace:
    """A no-show (lock held): his entry voided and its seat freed, his buy-in given back or kept as the house sets."""
    rules = sel.rules_of(t)
    reason = ngettext(
        "Alternate %(number)s did not sit down within %(minutes)s minute.",
        "Alternate %(number)s did not sit down within %(minutes)s minutes.",
        rules.sit_minutes,
    ) % {"number": place.number, "minutes": rules.sit_minutes}
    refund = _void_offer(place, actor=actor, t=t, reason=reason, keep=rules.no_show == wl.NO_SHOW_KEPT)
    _close(place, actor=actor, state=State.PASSED, reason=reason, refund=refund)
    record_event(
        t,
        actor=actor,
        type_="waiting.passed",
        payload={
            "alternate": place.number,
            "name": place.player.display_name,
            "entries": _entries(place),
            "refund": refund,
            "reason": reason,
        },
        seats=_entries(place),
    )
    return place


@transaction.atomic
def pass_over_now(place: WaitingPlace, *, actor: Actor) -> WaitingPlace:
    """The floor passes over an alternate who did not come (before the minutes run out, he was called and is gone)."""
    t, place = _offered(place, actor=actor, allowed=roles.SEATING)
    pass_over(place, actor=actor, t=t)
    offer_seats(t, actor=actor)
    return place


def pass_over_due(now: datetime | None = None) -> int:
    """The sweep (Celery beat; the embedded ticker): every offer whose minutes ran out is passed over and its seat offered
    to the next; then every tournament with places waiting offers the seats open (a table opened, an entry voided).
    Idempotent: safe to run twice. Returns the places passed over and offered."""
    now = now or timezone.now()
    tournaments = (
        WaitingPlace.objects.filter(Q(state=State.WAITING) | Q(state=State.OFFERED, offered_at__lte=now - timedelta(minutes=1)))
        .values_list("tournament_id", flat=True)
        .distinct()
    )
    return each_tournament(tournaments, lambda pk: _sweep(pk, now), "the waiting list's sweep")


@transaction.atomic
def _sweep(tournament_id: int, now: datetime) -> int:
    t = lock_tournament(tournament_id)
    if t.status == Tournament.Status.FINISHED:
        return 0
    rows = list(sel.places(t).filter(state=State.OFFERED).order_by("number"))
    due = {p.number for p in wl.expired([sel.as_rule(p) for p in rows], sel.rules_of(t), now)}
    done = 0
    for place in rows:
        if place.number in due:
            pass_over(_locked_place(t, place), actor=None, t=t)
            done += 1
    return done + len(offer_seats(t, actor=None))
