"""The clock called on a player (tables/services/clock_calls.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import NeverDeleteModel, Tournament


class ClockCall(NeverDeleteModel):
    """The clock called on a player (club 11, TDA 25: tables/services/clock_calls.py): he has `seconds` to act, the last ten
    counted down; when time is up his hand is dead. Open until ended: he acted, it was called in error, the hand
    was declared dead, or the table's next hand began."""

    class Outcome(models.TextChoices):
        ACTED = "acted", _("He acted in time")
        DEAD = "dead", _("Time was up: the hand is dead")
        CANCELLED = "cancelled", _("Cancelled")
        NEW_HAND = "new_hand", _("The next hand began")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="clock_calls")
    number = models.PositiveIntegerField()
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="clock_calls")
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="clock_calls")
    seconds = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    ends_at = models.DateTimeField()
    started_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    ended_at = models.DateTimeField(null=True, blank=True)
    outcome = models.CharField(max_length=9, choices=Outcome.choices, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="clock_call_unique_number"),
            models.UniqueConstraint(fields=["table"], condition=Q(ended_at__isnull=True), name="clock_call_one_open_per_table"),
        ]
