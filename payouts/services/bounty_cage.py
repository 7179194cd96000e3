"""The cage pays a bounty event's bounties (docs/bounties.md): against the second ID check and the player's signature,
with a bounty receipt, as the house sets (each as it is won, or collected once the player is out or play is over); a
payment made in error is voided with a reason, and its bounties are owed again."""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core import roles
from core.actor import Actor
from core.errors import ServiceError, clean_reason, next_number, require
from payouts.models import BountyAward, BountyPayment
from payouts.selectors import bounties as sel
from payouts.services.structure import record_voided, signature_png
from tournament.models import Entry
from tournament.services import registration as tournament_services
from tournament.services.audit import actor_user, lock_tournament, record_event
from tournament.services.registration import IdDocument


@transaction.atomic
def pay_bounties(entry: Entry, *, actor: Actor, document: IdDocument | None, signature) -> BountyPayment:
    """The cage pays an entry the bounties it is owed, in one payment, against the document typed again (it must match
    the registration's) and the player's signature, with a receipt. As the house sets: at the bust (any time), or
    collected once the player is out or play is over."""
    require(actor, roles.PAY)
    t = lock_tournament(entry.tournament_id)
    e = Entry.objects.select_for_update().select_related("player", "id_check").get(pk=entry.pk)
    due = sel.bounty_due(t, e)  # the same check the pay page shows before the ID is typed
    if due.refusal is not None:
        raise due.refusal
    owed, amount = due.owed, due.amount
    png = signature_png(signature)
    check = tournament_services.check_id_again(e, actor=actor, document=document)
    payment = BountyPayment.objects.create(
        tournament=t,
        entry=e,
        number=next_number(BountyPayment.objects.filter(tournament=t)),
        amount=amount,
        awards=[a.number for a in owed],
        id_check=check,
        signature=png,
        paid_at=timezone.now(),
        paid_by=actor_user(actor),
    )
    BountyAward.objects.filter(pk__in=[a.pk for a in owed]).update(payment=payment)
    record_event(
        t,
        actor=actor,
        type_="bounty.paid",
        payload={
            "receipt": payment.number,
            "entry": e.number,
            "name": e.player.display_name,
            "amount": amount,
            "awards": payment.awards,
            "id": f"{check.get_document_type_display()} …{check.number_last4}",
            "entries": [e.number],  # his seat page reads itself again: what is left to collect
        },
        stats=False,
        seats=[e.number],
    )
    return payment


@transaction.atomic
def void_bounty_payment(payment: BountyPayment, *, actor: Actor, reason: str) -> BountyPayment:
    """A bounty payment made in error is voided with a reason (never deleted): its awards are owed again."""
    require(actor, roles.PAY)
    reason = clean_reason(reason, BountyPayment, "void_reason", _("Give a reason for voiding."))
    t = lock_tournament(payment.tournament_id)
    p = BountyPayment.objects.select_for_update().select_related("entry__player").get(pk=payment.pk)
    if p.status == BountyPayment.Status.VOIDED:
        raise ServiceError(_("Bounty receipt %(number)s is already void.") % {"number": p.number}, code="already_void", status=409)
    BountyAward.objects.filter(payment=p).update(payment=None)
    p.status, p.voided_at, p.voided_by, p.void_reason = BountyPayment.Status.VOIDED, timezone.now(), actor_user(actor), reason
    p.save(update_fields=["status", "voided_at", "voided_by", "void_reason"])
    record_voided(t, actor=actor, type_="bounty.payment_voided", payment=p)
    return p
