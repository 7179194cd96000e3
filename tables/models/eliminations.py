"""Who knocked a player out: the eliminations of a night (tables/services/eliminations.py)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournament.models import NeverDeleteModel, Tournament


class Elimination(NeverDeleteModel):
    """Who knocked a player out (tables/services/eliminations.py): the winners of the pot he busted in, at his table,
    several for a split pot. `order` is its place in the night: a correction is a new row with the same order (the
    old one "corrected"); an undone bust ends its row ("undone"). One standing row per busted entry."""

    class Kind(models.TextChoices):
        BUST = "bust", _("Bust")
        DQ = "dq", _("Disqualification")

    class Status(models.TextChoices):
        STANDING = "standing", _("Standing")
        CORRECTED = "corrected", _("Corrected")
        UNDONE = "undone", _("Undone with the bust")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="eliminations")
    number = models.PositiveIntegerField()
    order = models.PositiveIntegerField()
    kind = models.CharField(max_length=4, choices=Kind.choices, default=Kind.BUST)
    busted = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="eliminations")
    winners = models.JSONField(default=list)  # entry numbers, in the order named
    winner_seats = models.JSONField(default=list)  # their seats at the bust's table, in the same order
    table_number = models.PositiveIntegerField(null=True, blank=True)
    button_seat = models.PositiveSmallIntegerField(null=True, blank=True)  # the table's button then: the odd units go from its left
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.STANDING)
    reason = models.CharField(max_length=300, blank=True)  # a correction's
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    ended_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "order", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="elimination_unique_number"),
            models.UniqueConstraint(fields=["busted"], condition=Q(status="standing"), name="elimination_one_standing_per_entry"),
            models.CheckConstraint(condition=~Q(kind="bust") | ~Q(winners=[]), name="elimination_bust_has_a_winner"),
        ]


class BustReport(NeverDeleteModel):
    """A bust the dealer reported on his tablet (tables/services/bust_reports.py): the seat that busted and the seats that
    won the pot. By the house rule it applies at once, or waits for the floor to confirm it on the map (one press) or
    reject it with a reason."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Waiting for the floor")
        APPLIED = "applied", _("Applied")
        REJECTED = "rejected", _("Rejected")

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="bust_reports")
    number = models.PositiveIntegerField()
    table = models.ForeignKey("tables.Table", on_delete=models.PROTECT, related_name="bust_reports")
    seat = models.PositiveSmallIntegerField()
    entry = models.ForeignKey("tournament.Entry", on_delete=models.PROTECT, related_name="bust_reports")
    winner_seats = models.JSONField(default=list)
    winners = models.JSONField(default=list)  # their entry numbers when reported
    stack = models.PositiveBigIntegerField(null=True, blank=True)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    reported_at = models.DateTimeField()
    reported_by = models.CharField(max_length=150)  # the tablet (a dealer link) or the login that reported it
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reason = models.CharField(max_length=300, blank=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="bust_report_unique_number"),
            models.UniqueConstraint(fields=["entry"], condition=Q(status="pending"), name="bust_report_one_pending_per_entry"),
        ]
