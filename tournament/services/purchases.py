"""Use cases of re-buys and add-ons (TDA 24): chips bought by a live entry, and an announced re-buy paid.

Each runs in one transaction, locks what it changes and writes an audit event. Bad input raises ServiceError with a clear,
translated message, and changes nothing."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, next_number, require
from tournament.models import Entry, Purchase, Tournament
from tournament.services.audit import lock_tournament, record_event


def _level_allows(until_level: int | None, tournament: Tournament) -> bool:
    return until_level is None or tournament.current_level <= until_level


@transaction.atomic
def add_chips(entry: Entry, *, actor: Actor, kind: str, paid: bool = True) -> Purchase:
    """A re-buy or an add-on for a live entry.

    A re-buy announced before a hand (TDA 24) may be recorded unpaid: the player plays the
    chips behind and must complete it (pay_purchase).
    """
    require(actor, roles.REGISTER)
    entry = Entry.objects.select_related("player").get(pk=entry.pk)
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.select_for_update().select_related("player").get(pk=entry.pk)
    if entry.status != Entry.Status.ACTIVE:
        raise ServiceError(_("Entry #%(number)s is not playing.") % {"number": entry.number}, code="entry_not_active", status=409)
    if kind == Purchase.Kind.REBUY:
        allowed, until, limit = t.rebuy_allowed, t.rebuy_until_level, t.max_rebuys
        price, fee, chips = t.rebuy_price, t.rebuy_fee, t.rebuy_chips
        labels = (
            _("Re-buys are not allowed in this tournament."),
            _("Re-buys ended with level %(level)s."),
            _("Entry #%(number)s has used all %(max)s re-buys."),
        )
    elif kind == Purchase.Kind.ADDON:
        allowed, until, limit = t.addon_allowed, t.addon_until_level, t.max_addons
        price, fee, chips = t.addon_price, t.addon_fee, t.addon_chips
        labels = (
            _("Add-ons are not allowed in this tournament."),
            _("Add-ons ended with level %(level)s."),
            _("Entry #%(number)s has used all %(max)s add-ons."),
        )
        paid = True
    else:
        raise ServiceError(_("Unknown purchase kind."), code="kind")
    if not allowed:
        raise ServiceError(labels[0], code=f"{kind}_not_allowed", status=409)
    if not _level_allows(until, t):
        raise ServiceError(labels[1] % {"level": until}, code=f"{kind}_over", status=409)
    used = entry.purchases.filter(kind=kind).exclude(status=Purchase.Status.VOIDED).count()
    if limit is not None and used >= limit:
        raise ServiceError(labels[2] % {"number": entry.number, "max": limit}, code=f"{kind}_limit", status=409)
    now = timezone.now()
    purchase = Purchase.objects.create(
        tournament=t,
        entry=entry,
        number=next_number(Purchase.objects.filter(tournament=t)),
        kind=kind,
        status=Purchase.Status.PAID if paid else Purchase.Status.ANNOUNCED,
        amount=price,
        fee=fee,
        chips=chips,
        created_at=now,
        created_by=actor,
        paid_at=now if paid else None,
        paid_by=actor if paid else None,
    )
    record_event(
        t,
        actor=actor,
        type_=f"{kind}.{'paid' if paid else 'announced'}",
        payload={
            "entry": entry.number,
            "name": entry.player.display_name,
            "receipt": purchase.number,
            "amount": price,
            "fee": fee,
            "chips": chips,
        },
    )
    return purchase


@transaction.atomic
def pay_purchase(purchase: Purchase, *, actor: Actor) -> Purchase:
    """Complete an announced re-buy: the cashier takes the money."""
    require(actor, roles.CASH)
    t = lock_tournament(purchase.tournament_id)
    p = Purchase.objects.select_for_update().select_related("entry__player").get(pk=purchase.pk)
    if p.status != Purchase.Status.ANNOUNCED:
        raise ServiceError(_("Receipt %(number)s is not waiting for payment.") % {"number": p.number}, code="not_announced", status=409)
    p.status, p.paid_at, p.paid_by = Purchase.Status.PAID, timezone.now(), actor
    p.save(update_fields=["status", "paid_at", "paid_by"])
    record_event(
        t,
        actor=actor,
        type_=f"{p.kind}.paid",
        payload={
            "entry": p.entry.number,
            "name": p.entry.player.display_name,
            "receipt": p.number,
            "amount": p.amount,
            "fee": p.fee,
            "chips": p.chips,
            "completed": True,
        },
    )
    return p
