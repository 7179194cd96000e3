"""The venue: the room's physical tables, shared by every tournament running in it.

A venue table is held by one tournament at most: its `table` is the tournament's table row that holds it
(a single column, so never two), set when a tournament takes it and cleared when the table breaks, leaves
play or the tournament ends (tables/services/venue.py). A table out of service or given to cash games is
held by nobody (a database constraint). A reservation names the tournament it waits for; only that one may
take it while it stands.
"""

from __future__ import annotations

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import ScreenLink, Tournament


class Paper(models.TextChoices):
    """What the desk prints on: A4 sheets, or an 80 mm or 58 mm thermal receipt roll."""

    A4 = "a4", _("A4")
    ROLL_80 = "80", _("80 mm roll")
    ROLL_58 = "58", _("58 mm roll")


class Venue(models.Model):
    name = models.CharField(_("name"), max_length=160, unique=True)
    # The house's order of its areas: draws take free tables area by area in this order, then by number.
    area_order = models.JSONField(_("order of the areas"), default=list, blank=True)
    # A room never set up (the default venue of a small club): a table the director opens by a number the venue
    # does not have is added to it. A room set up on the venue page has a fixed set of tables.
    fixed_tables = models.BooleanField(_("fixed set of tables"), default=False)
    # The desk's paper (docs/printing.md): the print layouts of receipts, seat tickets and bag slips are sized for it,
    # and the roll printer, where the room has one, at `printer` ("host:port", ESC/POS over TCP, port 9100 by default).
    paper = models.CharField(_("paper"), max_length=3, choices=Paper.choices, default=Paper.ROLL_80)
    printer = models.CharField(_("roll printer"), max_length=255, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.CheckConstraint(condition=Q(paper__in=["a4", "80", "58"]), name="venue_paper_known")]

    def __str__(self) -> str:
        return self.name

    @property
    def is_default(self) -> bool:
        """The deployment's first venue: a tournament with no venue of its own takes its tables from it."""
        return not Venue.objects.filter(pk__lt=self.pk).exists()

    def all_tournaments(self) -> models.QuerySet:
        """The tournaments that play in this venue (for the first venue, those with none of their own too)."""
        mine = Q(room=self) | Q(room__isnull=True) if self.is_default else Q(room=self)
        return Tournament.objects.filter(mine)


class VenueTable(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        OUT_OF_SERVICE = "out_of_service", _("Out of service")
        CASH = "cash", _("Cash games")

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table number"), validators=[MinValueValidator(1), MaxValueValidator(999)])
    area = models.CharField(_("area"), max_length=60, blank=True)
    seats = models.PositiveSmallIntegerField(_("seats"), validators=[MinValueValidator(6), MaxValueValidator(10)])
    status = models.CharField(_("state"), max_length=16, choices=Status.choices, default=Status.OPEN)
    note = models.CharField(_("reason"), max_length=200, blank=True)  # why it is closed or reserved
    table = models.OneToOneField("tables.Table", on_delete=models.PROTECT, null=True, blank=True, related_name="venue_table")
    reserved_for = models.ForeignKey(
        "tournament.Tournament", on_delete=models.PROTECT, null=True, blank=True, related_name="reserved_tables"
    )
    reserved_from = models.DateTimeField(_("reserved from"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["venue", "number"]
        constraints = [
            models.UniqueConstraint(fields=["venue", "number"], name="venue_table_unique_number"),
            models.CheckConstraint(condition=Q(seats__gte=6, seats__lte=10), name="venue_table_seats_6_10"),
            models.CheckConstraint(condition=Q(table__isnull=True) | Q(status="open"), name="venue_table_held_open"),
            models.CheckConstraint(condition=Q(reserved_for__isnull=True) | Q(status="open"), name="venue_table_reserved_open"),
        ]

    def __str__(self) -> str:
        return f"{self.venue} table {self.number}"


class SitAndGo(models.Model):
    """A tournament that starts when its seats are filled (venues/services/sit_and_go.py): the registration that fills
    them seats its players at a free table of the venue by the verifiable draw and starts its clock
    (tables/reactions.py); with `opens_next` the next of its series opens then, a copy of it."""

    tournament = models.OneToOneField("tournament.Tournament", on_delete=models.PROTECT, related_name="sit_and_go")
    players = models.PositiveSmallIntegerField(_("players"), validators=[MinValueValidator(2), MaxValueValidator(10)])
    opens_next = models.BooleanField(_("a new one opens when this one fills"), default=False)
    series = models.CharField(_("series"), max_length=160)
    number = models.PositiveIntegerField(default=1)  # the n-th of its series
    started_at = models.DateTimeField(null=True, blank=True)
    next = models.OneToOneField("self", on_delete=models.PROTECT, null=True, blank=True, related_name="previous")

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(players__gte=2, players__lte=10), name="sit_and_go_players_2_10")]

    def __str__(self) -> str:
        return f"{self.series} #{self.number}"


class VenueDisplay(ScreenLink):
    """A room TV's link (web/venues/room_tv.py): every tournament running in the venue, today's schedule. Read-only,
    revocable; the secret kept hashed as a lobby TV's is."""

    venue = models.ForeignKey(Venue, on_delete=models.PROTECT, related_name="displays")

    class Meta:
        constraints = [models.CheckConstraint(condition=~Q(token_hash=""), name="venue_display_hashed")]

    def __str__(self) -> str:
        return f"{self.venue}: {self.label}"
