"""The days of a tournament that plays over several: each day ends with bag-and-tag (every
player still in has his chips counted and sealed in a numbered bag) and is closed by the director; the tournament
goes on the next day. Rows are never deleted: a bag corrected makes the last one history (`current` off)."""

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import NeverDeleteModel, Tournament

BAG_NUMBER_MAX = 16  # days/rules/bags.py checks a bag number against it


class Day(NeverDeleteModel):
    """A day of play. Day 1 needs no row until it closes (days/selectors/bags.py: the current day is the highest number,
    1 when none); closing a day records what was checked and makes the next one."""

    class Status(models.TextChoices):
        PLAYING = "playing", _("Playing")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="days")
    number = models.PositiveSmallIntegerField(_("day"), validators=[MinValueValidator(1)])
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLAYING)
    created_at = models.DateTimeField()
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    closed_by_label = models.CharField(max_length=150, blank=True)
    # Required when bags were missing or the bags did not add up to the chips in play.
    close_reason = models.CharField(_("reason"), max_length=500, blank=True)
    missing = models.JSONField(default=list, blank=True)  # entry numbers still in with no bag at close
    bags = models.PositiveIntegerField(default=0)  # at close: the bags of the players still in
    total = models.PositiveBigIntegerField(default=0)  # at close: their chips
    chips_in_play = models.PositiveBigIntegerField(default=0)  # at close
    difference = models.BigIntegerField(null=True, blank=True)  # at close: total - chips_in_play
    big_blind = models.PositiveBigIntegerField(default=0)  # at close: the report's big blinds

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="day_unique_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="day_number_positive"),
            models.CheckConstraint(condition=Q(status="playing") | Q(closed_at__isnull=False), name="day_closed_has_time"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} day {self.number}"


class Bag(NeverDeleteModel):
    """A player's chips at the end of a day, counted and sealed in a numbered bag. One current bag per entry and
    day; a correction makes the last one history. A bag number is unique among the tournament's current bags
    (checked by days.selectors.bags.bag_numbers_held, the one place; the index below holds it within a day)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="bags")
    day = models.PositiveSmallIntegerField()
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="bags")
    bag_number = models.CharField(max_length=BAG_NUMBER_MAX)
    chips = models.PositiveBigIntegerField()
    table_number = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    current = models.BooleanField(default=True)
    bagged_at = models.DateTimeField()
    bagged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    bagged_by_label = models.CharField(max_length=150, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["entry", "day"], condition=Q(current=True), name="bag_one_current"),
            models.UniqueConstraint(
                fields=["tournament", "day", "bag_number"], condition=Q(current=True), name="bag_number_unique_current"
            ),
            models.CheckConstraint(condition=Q(chips__gte=1), name="bag_chips_positive"),
            models.CheckConstraint(condition=~Q(bag_number=""), name="bag_number_not_empty"),
        ]
        indexes = [models.Index(fields=["tournament", "day", "current"], name="bag_day_idx")]

    def __str__(self) -> str:
        return f"bag {self.bag_number}: entry {self.entry_id}, {self.chips}"
