"""An event with Day 1 flights into one Day 2. Each flight is a tournament of its own (own clock,
tables, registration); the Day 2 is one more tournament, where the bags that go on are carried as entries. Rows are
never deleted."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from flights.rules import flights as fr
from tournament.models import NeverDeleteModel, Tournament


class Event(NeverDeleteModel):
    class Policy(models.TextChoices):
        BEST = fr.BEST, _("Best stack forward: only a player's largest bag goes on")
        FIRST = fr.FIRST, _("First stack forward: a qualified player cannot play another flight")

    name = models.CharField(_("name"), max_length=160)
    policy = models.CharField(_("stack policy"), max_length=5, choices=Policy.choices, default=Policy.BEST)
    day2 = models.OneToOneField(
        Tournament, on_delete=models.PROTECT, null=True, blank=True, related_name="day2_of", verbose_name=_("Day 2")
    )
    day2_late_registration = models.BooleanField(_("Day 2 late registration"), default=False)
    day2_late_stack = models.PositiveIntegerField(
        _("Day 2 late registration stack"), null=True, blank=True, validators=[MinValueValidator(1)]
    )
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(day2_late_registration=False) | Q(day2_late_stack__gte=1), name="event_late_registration_has_stack"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Flight(NeverDeleteModel):
    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="flights")
    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="flight")
    label = models.CharField(_("label"), max_length=16)
    end_after_level = models.PositiveSmallIntegerField(_("ends after level"), null=True, blank=True, validators=[MinValueValidator(1)])
    end_share_percent = models.PositiveSmallIntegerField(
        _("ends when this share of its field is left (%)"),
        null=True,
        blank=True,
        validators=[MinValueValidator(fr.MIN_PERCENT), MaxValueValidator(fr.MAX_PERCENT)],
    )
    # Set once, when the share rule fired: the level the flight ends after, the players left then.
    ending_level = models.PositiveSmallIntegerField(null=True, blank=True)
    ending_players = models.PositiveIntegerField(null=True, blank=True)
    carried_at = models.DateTimeField(null=True, blank=True)  # when its bags went on to Day 2
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["event", "tournament__start_at", "label", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "label"], name="flight_unique_label"),
            models.CheckConstraint(
                condition=Q(end_share_percent__isnull=True) | Q(end_share_percent__gte=1, end_share_percent__lte=99),
                name="flight_share_1_99",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.label}"


class CarriedBag(NeverDeleteModel):
    """One flight bag at the carry to Day 2: it went on (day2_entry: the Day 2 entry made of it) or was forfeited by
    the stack policy (day2_entry empty; its chips are not in Day 2)."""

    event = models.ForeignKey(Event, on_delete=models.PROTECT, related_name="carried_bags")
    flight = models.ForeignKey(Flight, on_delete=models.PROTECT, related_name="carried_bags")
    bag = models.OneToOneField("days.Bag", on_delete=models.PROTECT, related_name="carried")
    entry = models.OneToOneField("tournament.Entry", on_delete=models.PROTECT, related_name="carried_from")
    player = models.ForeignKey("tournament.Player", on_delete=models.PROTECT, related_name="+")
    chips = models.PositiveBigIntegerField()
    day2_entry = models.OneToOneField("tournament.Entry", on_delete=models.PROTECT, null=True, blank=True, related_name="carried_into")
    forfeited = models.BooleanField(default=False)
    carried_at = models.DateTimeField()

    class Meta:
        ordering = ["flight", "entry"]
        constraints = [
            models.CheckConstraint(
                condition=Q(forfeited=True, day2_entry__isnull=True) | Q(forfeited=False, day2_entry__isnull=False),
                name="carried_bag_goes_on_or_not",
            ),
        ]
