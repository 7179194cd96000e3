"""Use cases of registration: players, entries with their ID check (re-buys and add-ons: purchases.py), receipts
paid and voided, registration open or closed, and the lobby screens' links.

Each public function runs in one transaction, locks what it changes, writes an audit event and
publishes it after commit. Bad input raises ServiceError with a clear, translated message, and
changes nothing. What the apps above do about an entry (a seat for it, its seat freed) they do as
reactions (core.reactions) to ENTRY_REGISTERED and ENTRY_VOIDED.
"""

from __future__ import annotations

import zoneinfo
from dataclasses import dataclass
from datetime import date

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from core import broadcast, groups, reactions, roles
from core.actor import Actor
from core.errors import ServiceError, check_length, clean_reason, full_clean, next_number, require
from tournament.models import DisplayToken, Entry, IdCheck, Player, Purchase, Tournament, WaitingPlace
from tournament.rules.identity import age_on, document_hmac, last_four, normalise_document_number
from tournament.selectors.stats import registration_problem
from tournament.selectors.waiting_list import sold_out
from tournament.services.audit import actor_user, lock_tournament, record_event
from tournament.services.chips import chips_in_play

# Changes the apps above react to (core.reactions): each handler gets actor, tournament (locked) and entry.
ENTRY_REGISTERED = "entry_registered"  # before the entry.registered event; a handler may add "table" and "seat"
ENTRY_VOIDED = "entry_voided"  # after the purchase.voided event of a voided buy-in: the entry never played
REGISTRATION_REOPENED = "registration_reopened"  # before the registration.reopened event: a handler may refuse it

MINIMUM_AGE = 18


@transaction.atomic
def set_registration_closed(tournament: Tournament, *, actor: Actor, closed: bool) -> Tournament:
    require(actor, roles.SETUP)
    t = lock_tournament(tournament.pk)
    if t.registration_closed == closed:
        return t
    if not closed:
        reactions.react(REGISTRATION_REOPENED, actor=actor, tournament=t)  # the money may refuse it (a prize paid)
    t.registration_closed = closed
    t.save(update_fields=["registration_closed"])
    record_event(t, actor=actor, type_="registration.closed" if closed else "registration.reopened", payload={})
    return t


# --- players and registration -----------------------------------------------------------


def _check_age(date_of_birth: date, time_zone: str | None = None) -> None:
    """Age on today's date: the venue's date when the tournament is known (a birthday starts at local midnight)."""
    today = timezone.localdate(timezone=zoneinfo.ZoneInfo(time_zone)) if time_zone else timezone.localdate()
    if date_of_birth > today:
        raise ServiceError(_("The date of birth is in the future."), code="date_of_birth")
    if age_on(date_of_birth, today) < MINIMUM_AGE:
        raise ServiceError(_("The player is under %(age)s and may not play.") % {"age": MINIMUM_AGE}, code="under_age")


@transaction.atomic
def create_player(
    *, actor: Actor, first_name: str, last_name: str, date_of_birth: date, nickname: str = "", email: str = "", phone: str = ""
) -> Player:
    require(actor, roles.REGISTER)
    first_name, last_name = first_name.strip(), last_name.strip()
    if not first_name or not last_name:
        raise ServiceError(_("First and last name are required."), code="name_missing")
    _check_age(date_of_birth)
    player = Player(
        first_name=first_name,
        last_name=last_name,
        nickname=nickname.strip(),
        email=email.strip(),
        phone=phone.strip(),
        date_of_birth=date_of_birth,
        created_by=actor,
    )
    full_clean(player)
    player.save()
    record_event(None, actor=actor, type_="player.created", payload={"player": player.pk, "name": player.display_name})
    return player


@dataclass(frozen=True)
class IdDocument:
    document_type: str
    number: str


def _id_check(player: Player, *, actor: Actor, document: IdDocument | None, purpose: str) -> IdCheck:
    if document is None or not document.document_type or not normalise_document_number(document.number or ""):
        raise ServiceError(
            _("Check the player's ID document and record its type and number: no entry without an ID check."), code="id_check_missing"
        )
    if document.document_type not in IdCheck.DocumentType.values:
        raise ServiceError(_("Unknown document type."), code="id_document_type")
    if len(normalise_document_number(document.number)) < 5:
        raise ServiceError(_("The document number is too short to be real; check it again."), code="id_number_short")
    return IdCheck.objects.create(
        player=player,
        purpose=purpose,
        document_type=document.document_type,
        number_last4=last_four(document.number),
        number_hmac=document_hmac(document.number, settings.ID_HASH_KEY),
        checked_by=actor,
        checked_at=timezone.now(),
    )


def check_id_again(entry: Entry, *, actor: Actor, document: IdDocument | None) -> IdCheck:
    """The second ID check, at payout (club 32): the document number typed again must be the one the entry
    was registered with (its keyed hash); otherwise the payment is refused and nothing is recorded. Runs in
    the caller's transaction; returns the check recorded for the payout."""
    if document is None or not normalise_document_number(document.number or ""):
        raise ServiceError(_("Type the number of the player's ID document again: no prize without an ID check."), code="id_check_missing")
    if document_hmac(document.number, settings.ID_HASH_KEY) != entry.id_hmac:
        raise ServiceError(
            _(
                "This document number does not match the ID entry #%(number)s was registered with (its "
                "number ends in %(last4)s). The prize is paid only against the same document."
            )
            % {"number": entry.number, "last4": entry.id_check.number_last4},
            code="id_mismatch",
        )
    return _id_check(entry.player, actor=actor, document=document, purpose=IdCheck.Purpose.PAYOUT)


def _registration_closed_message(code: str, tournament: Tournament) -> str:
    if code == "finished":
        return _("The tournament has finished.")
    if code == "late_registration_over":
        return _("Late registration ended with level %(level)s.") % {"level": tournament.late_reg_until_level}
    return _("Registration is closed.")


@transaction.atomic
def register_entry(
    tournament: Tournament,
    *,
    actor: Actor,
    player: Player,
    document: IdDocument | None,
    paid_with: str = Purchase.PaidWith.CASH,
    fee_waived: bool = False,
) -> Entry:
    """Register an entry (or a re-entry) with the ID check the house rules demand (club 32). `paid_with` "ticket":
    the buy-in is paid with a satellite's ticket (payouts.services.tickets.register_with_ticket, which holds the ticket):
    in the pool like cash, no money taken. `fee_waived`: the house takes no fee for it (a ticket worth the buy-in
    alone). A sold-out tournament takes no entry: the player joins its waiting list (tournament/services/waiting_list.py)."""
    require(actor, roles.REGISTER)
    t = lock_tournament(tournament.pk)
    player = Player.objects.select_for_update().get(pk=player.pk)
    hmac_value, kind = checked_entrant(t, player=player, document=document)
    if sold_out(t):
        raise ServiceError(
            _("The tournament is sold out: put %(name)s on the waiting list.") % {"name": player.display_name}, code="sold_out", status=409
        )
    check = record_id_check(player, actor=actor, document=document, hmac_value=hmac_value)
    return take_entry(t, actor=actor, player=player, check=check, kind=kind, paid_with=paid_with, fee_waived=fee_waived)


def checked_entrant(t: Tournament, *, player: Player, document: IdDocument | None) -> tuple[str, str]:
    """What registration (and the waiting list) checks before an entry is taken (tournament lock held): registration open,
    the player's age, the ID document given and his own, no live entry of his or of the document, and a re-entry
    allowed. Returns the document's keyed hash and the kind of entry it will be."""
    closed = registration_problem(t)
    if closed:
        raise ServiceError(_registration_closed_message(closed, t), code="registration_closed", status=409)
    _check_age(player.date_of_birth, t.time_zone)
    if document is None or not (document.number or "").strip() or not document.document_type:
        raise ServiceError(
            _("Check the player's ID document and record its type and number: no entry without an ID check."), code="id_check_missing"
        )
    hmac_value = document_hmac(document.number, settings.ID_HASH_KEY)
    # A document belongs to the player record that first showed it, whether it is that
    # player's main document (Player.id_hmac) or a second one seen at an earlier ID check.
    owner = Player.objects.filter(id_hmac=hmac_value).exclude(pk=player.pk).first()
    if owner is None:
        other_check = IdCheck.objects.filter(number_hmac=hmac_value).exclude(player=player).select_related("player").first()
        owner = other_check.player if other_check is not None else None
    if owner is not None:
        raise ServiceError(
            _("This ID document belongs to another player record (%(name)s). Register that player instead.") % {"name": owner.display_name},
            code="id_other_player",
            status=409,
        )
    live = Entry.objects.filter(tournament=t, status=Entry.Status.ACTIVE)
    mine = live.filter(player=player).first()
    if mine is not None:
        raise ServiceError(
            _("%(name)s already has a live entry (#%(number)s).") % {"name": player.display_name, "number": mine.number},
            code="live_entry_exists",
            status=409,
        )
    same_document = live.filter(id_hmac=hmac_value).select_related("player").first()
    if same_document is not None:
        raise ServiceError(
            _("This ID document is already used by live entry #%(number)s.") % {"number": same_document.number},
            code="id_live_entry_exists",
            status=409,
        )
    return hmac_value, entry_kind(t, player=player)


def entry_kind(t: Tournament, *, player: Player) -> str:
    """An entry or a re-entry: a re-entry must be allowed, and within the house's number."""
    earlier = Entry.objects.filter(tournament=t, player=player).exclude(status=Entry.Status.VOIDED)
    if not earlier.exists():
        return Entry.Kind.ENTRY
    if not t.reentry_allowed:
        raise ServiceError(_("Re-entry is not allowed in this tournament."), code="reentry_not_allowed", status=409)
    used = earlier.filter(kind=Entry.Kind.REENTRY).count()
    if t.max_reentries is not None and used >= t.max_reentries:
        raise ServiceError(
            _("%(name)s has used all %(max)s re-entries.") % {"name": player.display_name, "max": t.max_reentries},
            code="reentry_limit",
            status=409,
        )
    return Entry.Kind.REENTRY


def record_id_check(player: Player, *, actor: Actor, document: IdDocument, hmac_value: str) -> IdCheck:
    """The registration's ID check, recorded; a player's first document becomes his."""
    check = _id_check(player, actor=actor, document=document, purpose=IdCheck.Purpose.REGISTRATION)
    if player.id_hmac is None:
        player.id_hmac = hmac_value
        try:
            with transaction.atomic():
                player.save(update_fields=["id_hmac"])
        except IntegrityError as exc:  # another desk gave this document to another player a moment ago
            raise ServiceError(
                _("This ID document belongs to another player record. Register that player instead."), code="id_other_player", status=409
            ) from exc
    return check


def take_entry(
    t: Tournament,
    *,
    actor: Actor,
    player: Player,
    check: IdCheck,
    kind: str,
    paid_with: str = Purchase.PaidWith.CASH,
    fee_waived: bool = False,
    paid: bool = True,
    facts: dict | None = None,
) -> Entry:
    """The entry and its buy-in receipt, once checked (tournament lock held): busted players' places move down, the apps
    above seat it (ENTRY_REGISTERED), and the entry.registered event says it (with `facts` added: an alternate's
    number). `paid` False: the receipt waits for the money (an alternate who pays at his seat). The entry
    returned carries `seat_facts`: the table, seat and position the apps above gave it (None each before the start draw)."""
    now = timezone.now()
    try:
        with transaction.atomic():
            entry = Entry.objects.create(
                tournament=t,
                player=player,
                number=next_number(Entry.objects.filter(tournament=t)),
                kind=kind,
                id_check=check,
                id_hmac=check.number_hmac,
                created_at=now,
                created_by=actor,
            )
    except IntegrityError as exc:
        raise ServiceError(_("This player or document already has a live entry."), code="live_entry_exists", status=409) from exc
    purchase = Purchase.objects.create(
        tournament=t,
        entry=entry,
        number=next_number(Purchase.objects.filter(tournament=t)),
        kind=Purchase.Kind.REENTRY if kind == Entry.Kind.REENTRY else Purchase.Kind.BUY_IN,
        status=Purchase.Status.PAID if paid else Purchase.Status.ANNOUNCED,
        amount=t.buy_in,
        bounty=t.bounty,  # a re-entry buys a new head
        fee=0 if fee_waived else t.fee,
        chips=t.starting_stack,
        created_at=now,
        created_by=actor,
        paid_at=now if paid else None,
        paid_by=actor if paid else None,
        paid_with=paid_with,
    )
    # Everyone busted so far finishes behind this entry: their places move down by one (a tie's last place too).
    busted = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED)
    busted.filter(finish_place_low__isnull=False).update(finish_place_low=F("finish_place_low") + 1)
    busted.update(finish_place=F("finish_place") + 1)
    seat = {"table": None, "seat": None, **reactions.react(ENTRY_REGISTERED, actor=actor, tournament=t, entry=entry)}
    entry.seat_facts = seat
    record_event(
        t,
        actor=actor,
        type_="entry.registered",
        payload={
            "entry": entry.number,
            "entry_id": entry.pk,
            "player": player.pk,
            "name": player.display_name,
            "kind": kind,
            "entries": [entry.number],
            "table": seat["table"],
            "seat": seat["seat"],
            **({"position": seat["position"]} if seat.get("position") else {}),
            "receipt": purchase.number,
            "amount": purchase.amount,
            "bounty": purchase.bounty,
            "fee": purchase.fee,
            "chips": purchase.chips,
            "paid_with": paid_with,
            **({} if paid else {"paid": False}),
            "id_check": {"document_type": check.document_type, "last4": check.number_last4, "checked_by": check.checked_by.get_username()},
            **(facts or {}),
        },
    )
    return entry


@transaction.atomic
def register_new_player(
    tournament: Tournament,
    *,
    actor: Actor,
    document: IdDocument | None,
    first_name: str,
    last_name: str,
    date_of_birth: date,
    nickname: str = "",
    email: str = "",
    phone: str = "",
) -> Entry:
    """A player seen for the first time, registered with the ID check in one step: the player record is kept
    only when the entry is taken. One transaction, so a refusal (under age, a document that belongs to
    another player or is used by a live entry, registration closed) leaves no player behind."""
    player = create_player(
        actor=actor, first_name=first_name, last_name=last_name, date_of_birth=date_of_birth, nickname=nickname, email=email, phone=phone
    )
    return register_entry(tournament, actor=actor, player=player, document=document)


def _cash_paid(p: Purchase) -> int:
    """The cash a receipt took: none for one announced, or paid with a satellite's ticket (a void gives the ticket
    back: payouts' reaction to ENTRY_VOIDED)."""
    return p.total if p.status == Purchase.Status.PAID and p.paid_with == Purchase.PaidWith.CASH else 0


@transaction.atomic
def void_purchase(purchase: Purchase, *, actor: Actor, reason: str, refund_amount: int | None = None) -> Purchase:
    """Void a receipt with a reason; the refund is recorded. Voiding a buy-in voids the entry."""
    require(actor, roles.VOID)
    reason = clean_reason(reason, Purchase, "void_reason", _("Give a reason for voiding."))
    t = lock_tournament(purchase.tournament_id)
    return void_receipt(purchase, actor=actor, tournament=t, reason=reason, refund_amount=refund_amount)


def void_receipt(purchase: Purchase, *, actor: Actor, tournament: Tournament, reason: str, refund_amount: int | None = None) -> Purchase:
    """void_purchase once its role is checked and the tournament locked (the waiting list voids a no-show's entry, as the
    system when the house's minutes run out)."""
    t = tournament
    p = Purchase.objects.select_for_update().select_related("entry__player").get(pk=purchase.pk)
    if p.status == Purchase.Status.VOIDED:
        raise ServiceError(_("Receipt %(number)s is already void.") % {"number": p.number}, code="already_void", status=409)
    entry = Entry.objects.select_for_update().get(pk=p.entry_id)
    if entry.status != Entry.Status.ACTIVE:
        raise ServiceError(
            _("Entry #%(number)s is no longer playing; its receipts cannot be voided.") % {"number": entry.number},
            code="entry_not_active",
            status=409,
        )
    paid_total = _cash_paid(p)
    if refund_amount is None:
        refund_amount = paid_total
    if refund_amount < 0 or refund_amount > paid_total:
        raise ServiceError(_("The refund must be between 0 and %(max)s.") % {"max": paid_total}, code="refund_range")
    whole_entry = p.kind in (Purchase.Kind.BUY_IN, Purchase.Kind.REENTRY)
    taken = sum(entry.purchases.exclude(status=Purchase.Status.VOIDED).values_list("chips", flat=True)) if whole_entry else p.chips
    if chips_in_play(t) < taken:  # chips in play are never negative (tournament/services/chips.py)
        raise ServiceError(
            _("Voiding this takes %(chips)s chips out of play, more than the %(in_play)s in play: count the chips first.")
            % {"chips": taken, "in_play": chips_in_play(t)},
            code="chips_in_play_negative",
            status=409,
        )
    now = timezone.now()
    voided = [p]
    if whole_entry:
        entry.status = Entry.Status.VOIDED
        entry.save(update_fields=["status"])
        # The voided entry never played: everyone busted so far moves one place up.
        busted = Entry.objects.filter(tournament=t, status=Entry.Status.BUSTED)
        busted.update(finish_place=F("finish_place") - 1)
        busted.filter(finish_place_low__isnull=False).update(finish_place_low=F("finish_place_low") - 1)  # ties too
        voided += list(entry.purchases.select_for_update().exclude(pk=p.pk).exclude(status=Purchase.Status.VOIDED))
    refunds = []
    for item in voided:
        item_paid = _cash_paid(item)
        item.refund_amount = refund_amount if item.pk == p.pk else item_paid
        item.status, item.voided_at, item.voided_by, item.void_reason = Purchase.Status.VOIDED, now, actor, reason
        item.save(update_fields=["status", "voided_at", "voided_by", "void_reason", "refund_amount"])
        refunds.append({"receipt": item.number, "kind": item.kind, "refund": item.refund_amount})
    record_event(
        t,
        actor=actor,
        type_="purchase.voided",
        payload={
            "entry": entry.number,
            "name": p.entry.player.display_name,
            "reason": reason,
            "entry_voided": entry.status == Entry.Status.VOIDED,
            "receipts": refunds,
        },
    )
    if entry.status == Entry.Status.VOIDED:
        # An alternate called to a seat whose entry the desk voids leaves the waiting list with it (the waiting list's own
        # voids, of a no-show or a seat declined, then close his place as theirs).
        WaitingPlace.objects.filter(entry=entry, state=WaitingPlace.State.OFFERED).update(
            state=WaitingPlace.State.CANCELLED, closed_at=now, closed_by=actor_user(actor), close_reason=reason, refund=p.refund_amount
        )
        reactions.react(ENTRY_VOIDED, actor=actor, tournament=t, entry=entry)
    p.refresh_from_db()
    return p


# --- display tokens ---------------------------------------------------------------------


def screen_label(label: str, *, missing: str) -> str:
    """A screen link's name (a lobby TV's, a room TV's): given, and not too long."""
    label = (label or "").strip()
    if not label:
        raise ServiceError(missing, code="label_missing")
    check_length(label, DisplayToken, "label", _("The name of the screen is too long: at most %(max)s characters."))
    return label


@transaction.atomic
def create_display_token(tournament: Tournament, *, actor: Actor, label: str) -> DisplayToken:
    require(actor, roles.DISPLAYS)
    label = screen_label(label, missing=_("Name the screen, for example 'Lobby TV 1'."))
    t = lock_tournament(tournament.pk)
    token = DisplayToken(tournament=t, label=label, created_by=actor)
    token.new_secret()  # shown once, in the answer; only its hash is stored
    token.save()
    record_event(t, actor=actor, type_="display.created", payload={"display": token.pk, "label": label}, stats=False)
    return token


@transaction.atomic
def revoke_display_token(token: DisplayToken, *, actor: Actor) -> DisplayToken:
    require(actor, roles.DISPLAYS)
    t = lock_tournament(token.tournament_id)
    token = DisplayToken.objects.select_for_update().get(pk=token.pk)
    if token.revoked_at is not None:
        raise ServiceError(_("This screen's link is already revoked."), code="already_revoked", status=409)
    token.revoked_at = timezone.now()
    token.save(update_fields=["revoked_at"])
    record_event(t, actor=actor, type_="display.revoked", payload={"display": token.pk, "label": token.label}, stats=False)
    transaction.on_commit(lambda: broadcast.close_sockets(groups.display(token.pk), "revoked"))
    return token
