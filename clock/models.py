"""The clock of a tournament: an anchor in the database that fully determines the countdown."""

from django.db import models
from django.utils.translation import gettext_lazy as _

from tournament.models import Tournament


class ClockState(models.Model):
    class Status(models.TextChoices):
        NOT_STARTED = "not_started", _("Not started")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")

    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="clock")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.NOT_STARTED)
    index = models.PositiveSmallIntegerField(default=0)  # 0-based row of the structure (levels and breaks)
    started_at = models.DateTimeField(null=True, blank=True)  # when that row's time began (shifted by pauses, adjustments)
    paused_at = models.DateTimeField(null=True, blank=True)
    version = models.PositiveIntegerField(default=0)
    announced_until = models.DateTimeField(null=True, blank=True)  # boundaries up to here are announced
    next_due_at = models.DateTimeField(null=True, blank=True, db_index=True)
    announcement = models.CharField(_("announcement"), max_length=200, blank=True)
    # The end of a day: the level after which the clock stops by itself (a level number as the
    # screens show it); the level it stopped after, until the clock runs again; and when a clock set for
    # the next day (paused at a level with the time left in it) resumes by itself.
    stop_after_level = models.PositiveSmallIntegerField(_("end the day after level"), null=True, blank=True)
    day_ended_level = models.PositiveSmallIntegerField(null=True, blank=True)
    resume_at = models.DateTimeField(_("play resumes at"), null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.tournament} clock ({self.status})"
