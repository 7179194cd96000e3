"""Tables and the hands they start: each table knows the level it plays."""
import hashlib
import secrets

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import NeverDeleteModel, Tournament


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class Table(NeverDeleteModel):
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table number"), validators=[MinValueValidator(1)])
    seats = models.PositiveSmallIntegerField(_("seats"), validators=[MinValueValidator(2), MaxValueValidator(10)])
    in_play = models.BooleanField(_("in play"), default=True)
    sends_hand_signals = models.BooleanField(
        _("sends hand signals"), default=True,
        help_text=_("The dealer tablet or shuffler reports each first shuffle. Otherwise the table follows the clock."),
    )
    shuffler_token_hash = models.CharField(max_length=64, blank=True)
    hand_number = models.PositiveIntegerField(default=0)
    hand_started_at = models.DateTimeField(null=True, blank=True)
    hand_level_index = models.PositiveSmallIntegerField(null=True, blank=True)  # row of the level in play
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="table_unique_number"),
            models.CheckConstraint(condition=Q(seats__gte=2, seats__lte=10), name="table_seats_2_10"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} table {self.number}"

    def new_shuffler_token(self) -> str:
        token = secrets.token_urlsafe(24)
        self.shuffler_token_hash = hash_token(token)
        return token


class HandStart(NeverDeleteModel):
    """One "first shuffle": the moment a hand began at a table, and the level it plays."""

    class Source(models.TextChoices):
        TABLET = "tablet", _("Dealer tablet")
        SHUFFLER = "shuffler", _("Automatic shuffler")
        FLOOR = "floor", _("Floor")

    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="hands")
    number = models.PositiveIntegerField()
    at = models.DateTimeField()
    level_index = models.PositiveSmallIntegerField()
    previous_level_index = models.PositiveSmallIntegerField(null=True, blank=True)
    previous_started_at = models.DateTimeField(null=True, blank=True)
    source = models.CharField(max_length=10, choices=Source.choices)
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [models.UniqueConstraint(fields=["table", "number"], name="hand_unique_number")]
