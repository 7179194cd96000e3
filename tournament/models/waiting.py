"""The waiting list of a sold-out tournament (tournament/rules/waiting_list.py holds its rules): one row per place, never
deleted; a place changes state (waiting, offered a seat, seated, passed over, cancelled) with an audit event."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import Entry, IdCheck, NeverDeleteModel, Player, Tournament


class WaitingPlace(NeverDeleteModel):
    """A player waiting for a seat, in the order of `number`. His ID was checked when he joined (the check becomes his
    entry's when he is offered a seat). `paid`: the buy-in taken when he joined (the house's rule; 0 when it is taken
    at his seat). Offered a seat, he has an entry (`entry`), seated by the late-entry draw; his money is then the
    entry's receipt. A cancelled place's money is given back (`refund`)."""

    class State(models.TextChoices):  # tournament/rules/waiting_list.py: the same names
        WAITING = "waiting", _("Waiting")
        OFFERED = "offered", _("Offered a seat")
        SEATED = "seated", _("Seated")
        PASSED = "passed", _("Passed over (did not sit down in time)")
        CANCELLED = "cancelled", _("Cancelled")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="waiting_places")
    number = models.PositiveIntegerField(_("alternate number"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="waiting_places")
    reentry = models.BooleanField(default=False)
    state = models.CharField(max_length=10, choices=State.choices, default=State.WAITING)
    id_check = models.OneToOneField(IdCheck, on_delete=models.PROTECT, related_name="waiting_place")
    id_hmac = models.CharField(max_length=64)
    paid = models.PositiveIntegerField(default=0)  # buy-in, bounty and fee taken when he joined
    refund = models.PositiveIntegerField(null=True, blank=True)  # given back when the place was cancelled
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="waiting_place")
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    offered_at = models.DateTimeField(null=True, blank=True)
    # Where the seat offered plays the next hand (tables.rules.positions: "wait_for_button" between the small blind and
    # the button, TDA 7), as the slip says it; "" before the start draw or while no offer.
    position = models.CharField(max_length=16, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)  # seated, passed over or cancelled
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    close_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="waiting_unique_number"),
            models.UniqueConstraint(
                fields=["tournament", "player"], condition=Q(state__in=["waiting", "offered"]), name="waiting_one_place_per_player"
            ),
            models.CheckConstraint(
                condition=Q(state="waiting") | Q(state="cancelled") | Q(entry__isnull=False), name="waiting_offer_has_entry"
            ),
        ]
        # The list's head (the next to offer a seat) and its counts, read at every bust of a sold-out event: an index,
        # not a scan of thousands of places.
        indexes = [models.Index(fields=["tournament", "state", "number"], name="waiting_state_order")]

    def __str__(self) -> str:
        return f"Alternate {self.number}: {self.player.display_name}"
