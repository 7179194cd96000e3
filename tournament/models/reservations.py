"""Places reserved from the players' phones before an event (tournament/rules/reservations.py holds the rules): one row
per reservation, never deleted. A reservation holds a place until the desk claims it (the player's ID checked and his
buy-in taken: his entry, or his place on the waiting list when it was made sold out), it expires unclaimed at the house's
time, or it is cancelled."""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from tournament.models import Entry, NeverDeleteModel, Tournament


def code_hash(code: str) -> str:
    """The stored form of a reservation's code: the player's link carries the code, the database only its hash."""
    return hashlib.sha256(code.strip().upper().replace("-", "").encode()).hexdigest()


class Reservation(NeverDeleteModel):
    """`number`: what the player shows at the desk (R-17); `code_hash`: the hash of the secret code in his link, which
    shows and cancels it (the number alone shows nobody's name). `device` and `address`: keyed hashes of the phone's
    cookie and address, which limit how many one phone makes. Claimed, it names the entry the desk registered."""

    class State(models.TextChoices):  # tournament/rules/reservations.py: the same names
        HELD = "held", _("Held")
        CLAIMED = "claimed", _("Claimed at the desk")
        EXPIRED = "expired", _("Expired unclaimed")
        CANCELLED = "cancelled", pgettext_lazy("a reservation", "Cancelled")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="reservations")
    number = models.PositiveIntegerField(_("reservation number"))
    code_hash = models.CharField(max_length=64, unique=True)
    name = models.CharField(_("name"), max_length=120)
    contact = models.CharField(_("phone or e-mail"), max_length=120)
    contact_key = models.CharField(max_length=120)  # the contact folded: one held reservation per contact
    state = models.CharField(max_length=10, choices=State.choices, default=State.HELD)
    device = models.CharField(max_length=64)
    address = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    # Made while a place was free, it holds one (counted like an entry); made while the tournament was sold out, it holds
    # none: claimed, it puts the player on the waiting list (`waiting_place`), in the order the desk confirms it.
    holds_place = models.BooleanField(default=True)
    entry = models.OneToOneField(Entry, on_delete=models.PROTECT, null=True, blank=True, related_name="reservation")
    waiting_place = models.OneToOneField(
        "tournament.WaitingPlace", on_delete=models.PROTECT, null=True, blank=True, related_name="reservation"
    )
    closed_at = models.DateTimeField(null=True, blank=True)  # claimed, expired or cancelled
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    close_reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="reservation_unique_number"),
            models.UniqueConstraint(fields=["tournament", "contact_key"], condition=Q(state="held"), name="reservation_one_per_contact"),
            models.CheckConstraint(
                condition=~Q(state="claimed") | Q(entry__isnull=False) | Q(waiting_place__isnull=False), name="reservation_claim_has_entry"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "state"], name="reservation_state")]

    def __str__(self) -> str:
        return f"Reservation R-{self.number}: {self.name}"
