"""The phones to tell (docs/notifications.md): a browser's push subscription for one entry, or for an alternate's place
on the waiting list until his seat is offered (he is then told as his entry: the place's `entry`). Deleted when the
player stops it or the push service says the subscription is gone; nothing else about him is kept here."""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from tournament.models import Entry, Tournament, WaitingPlace


class PushSubscription(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    place = models.ForeignKey(WaitingPlace, on_delete=models.CASCADE, null=True, blank=True, related_name="+")
    endpoint = models.CharField(max_length=1024)  # the push service's address for this browser: a secret, never logged
    p256dh = models.CharField(max_length=100)
    auth = models.CharField(max_length=40)
    language = models.CharField(max_length=16)  # the page's language when he opted in: his messages' language
    created_at = models.DateTimeField()
    failures = models.PositiveIntegerField(default=0)  # push attempts failed in a row (a 404 or 410 deletes the row)
    last_sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(entry__isnull=False, place__isnull=True) | Q(entry__isnull=True, place__isnull=False),
                name="push_entry_or_place",
            ),
            models.UniqueConstraint(fields=["entry", "endpoint"], condition=Q(entry__isnull=False), name="push_one_per_entry_and_phone"),
            models.UniqueConstraint(fields=["place", "endpoint"], condition=Q(place__isnull=False), name="push_one_per_place_and_phone"),
        ]
        indexes = [models.Index(fields=["tournament"], name="push_tournament")]


class Told(models.Model):
    """A message said once per entry (in the money, prize ready): written before it is sent, so a task run twice, a bust
    undone and made again, or the next hand's check does not say it again."""

    entry = models.ForeignKey(Entry, on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=20)
    at = models.DateTimeField()

    class Meta:
        constraints = [models.UniqueConstraint(fields=["entry", "kind"], name="told_once")]
