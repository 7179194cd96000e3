"""Opting in and out of notifications (docs/notifications.md): a phone's push subscription stored for an entry, or for
an alternate's place on the waiting list (told as his entry once his seat is offered), and taken away again by the
player (his seat page, or "Stop" on a notification) or because the push service says it is gone. Each in one
transaction with the tournament locked and an audit event that names the entry or the place and a short hash of the
endpoint, never the endpoint (notify/rules/keys.short_hash)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from core.actor import Actor
from core.errors import ServiceError
from notify.models import PushSubscription
from notify.rules.keys import Subscription, short_hash
from tournament.models import Entry, Tournament, WaitingPlace
from tournament.services.audit import lock_tournament, record_event

OPEN_PLACES = (WaitingPlace.State.WAITING, WaitingPlace.State.OFFERED)


def _store(t: Tournament, *, target: dict, subscription: Subscription, language: str) -> tuple[PushSubscription, bool]:
    """The row for this phone and this entry (or place): its keys and language renewed when it is there already; refused
    past WEBPUSH_MAX_PER_ENTRY phones."""
    mine = PushSubscription.objects.select_for_update().filter(**target, endpoint=subscription.endpoint).first()
    if mine is None and PushSubscription.objects.filter(**target).count() >= settings.WEBPUSH_MAX_PER_ENTRY:
        raise ServiceError(
            _("%(count)s phones are told of this already: stop one of them first.") % {"count": settings.WEBPUSH_MAX_PER_ENTRY},
            code="too_many_phones",
            status=409,
        )
    if mine is None:
        mine = PushSubscription(tournament=t, **target, endpoint=subscription.endpoint, created_at=timezone.now())
    mine.p256dh, mine.auth, mine.language, mine.failures = subscription.p256dh, subscription.auth, language, 0
    created = mine.pk is None
    mine.save()
    return mine, created


@transaction.atomic
def subscribe(entry: Entry, *, actor: Actor, subscription: Subscription, language: str) -> PushSubscription:
    """The player's phone is told of his entry from now on. Refused for a voided entry."""
    t = lock_tournament(entry.tournament_id)
    entry = Entry.objects.get(pk=entry.pk)
    if entry.status == Entry.Status.VOIDED:
        raise ServiceError(_("Entry #%(number)s no longer plays in this tournament.") % {"number": entry.number}, code="entry_voided")
    row, created = _store(t, target={"entry": entry}, subscription=subscription, language=language)
    record_event(
        t,
        actor=actor,
        type_="notify.subscribed",
        payload={"entry": entry.number, "endpoint": short_hash(row.endpoint), "renewed": not created, "language": language},
        stats=False,
        seats=False,
    )
    return row


@transaction.atomic
def subscribe_place(place: WaitingPlace, *, actor: Actor, subscription: Subscription, language: str) -> PushSubscription:
    """An alternate's phone is told when his seat is offered (and then of his entry, like any player's). Refused once his
    place is off the list (seated, passed over, cancelled)."""
    t = lock_tournament(place.tournament_id)
    place = WaitingPlace.objects.get(pk=place.pk)
    if place.state not in OPEN_PLACES:
        raise ServiceError(
            _("Alternate %(number)s is not on the waiting list any more.") % {"number": place.number}, code="not_on_the_list", status=409
        )
    row, created = _store(t, target={"place": place}, subscription=subscription, language=language)
    record_event(
        t,
        actor=actor,
        type_="notify.subscribed",
        payload={"alternate": place.number, "endpoint": short_hash(row.endpoint), "renewed": not created, "language": language},
        stats=False,
        seats=False,
    )
    return row


def _forget(t: Tournament, *, actor: Actor, rows, facts: dict, via: str) -> int:
    found = list(rows.select_for_update(of=("self",)))  # only the rows: an alternate's place is an outer join
    for row in found:
        row.delete()
    if found:
        record_event(
            t,
            actor=actor,
            type_="notify.unsubscribed",
            payload={**facts, "endpoint": short_hash(found[0].endpoint), "via": via},
            stats=False,
            seats=False,
        )
    return len(found)


@transaction.atomic
def unsubscribe(entry: Entry, *, actor: Actor, endpoint: str, via: str = "page") -> int:
    """The phone of this endpoint is told of the entry no more (from the seat page, or "Stop" on a notification: `via`),
    nor of the waiting-list place the entry was offered for. Returns how many subscriptions went (0: none was there,
    which is no error: the answer is the same whoever asks)."""
    t = lock_tournament(entry.tournament_id)
    rows = PushSubscription.objects.filter(Q(entry=entry) | Q(place__entry=entry), tournament=t, endpoint=endpoint)
    return _forget(t, actor=actor, rows=rows, facts={"entry": entry.number}, via=via)


@transaction.atomic
def unsubscribe_place(place: WaitingPlace, *, actor: Actor, endpoint: str, via: str = "page") -> int:
    """The phone of this endpoint is told of the alternate's place no more (nor of the entry it was offered)."""
    t = lock_tournament(place.tournament_id)
    rows = PushSubscription.objects.filter(tournament=t, endpoint=endpoint).filter(
        Q(place=place) | Q(entry__isnull=False, entry_id=place.entry_id)
    )
    return _forget(t, actor=actor, rows=rows, facts={"alternate": place.number}, via=via)


@transaction.atomic
def drop(subscription: PushSubscription, *, actor: Actor, status: int) -> bool:
    """The push service answered that the subscription is gone (404 or 410: the player unsubscribed in the browser, or
    it expired): the row goes, with its event. False when it was gone already."""
    t = lock_tournament(subscription.tournament_id)
    row = PushSubscription.objects.select_for_update(of=("self",)).select_related("entry", "place").filter(pk=subscription.pk).first()
    if row is None:
        return False
    facts = {"entry": row.entry.number} if row.entry_id else {"alternate": row.place.number}
    _forget(t, actor=actor, rows=PushSubscription.objects.filter(pk=row.pk), facts={**facts, "status": status}, via="push_service")
    return True


def sent_many(subscription_ids: list[int], *, actor: Actor) -> None:
    """The messages of a batch that went: their rows' last time and failures in a row cleared, in one statement (not a
    commit per message: a draw's thousands would weigh on the database the floor uses)."""
    if subscription_ids:
        PushSubscription.objects.filter(pk__in=subscription_ids).update(failures=0, last_sent_at=timezone.now())


def sent(subscription: PushSubscription, *, actor: Actor, ok: bool) -> None:
    """A push's outcome on its row: when it last went, how many failed in a row (logged, not audited: one a message)."""
    if ok:
        PushSubscription.objects.filter(pk=subscription.pk).update(failures=0, last_sent_at=timezone.now())
    else:
        PushSubscription.objects.filter(pk=subscription.pk).update(failures=subscription.failures + 1)
