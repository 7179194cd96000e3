"""Leagues: a season that groups tournaments, its points formula (leagues/rules/points.py) and the points each
player got in each of its finished tournaments. The points are written when a tournament's play is over and written
again whenever a place changes (leagues/services/leagues.py); the standings are computed from them (leagues/rules/standings.py)."""

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from leagues.rules import points as pts
from tournament.models import NeverDeleteModel, Player, Tournament


class League(NeverDeleteModel):
    class Formula(models.TextChoices):
        TABLE = pts.TABLE, _("A points table by place")
        LINEAR = pts.LINEAR, _("Linear: the field size minus the place plus one")
        SQUARE_ROOT = pts.SQUARE_ROOT, _("Square root: 10 × √field ÷ √place")

    name = models.CharField(_("name"), max_length=160)
    formula = models.CharField(_("points formula"), max_length=12, choices=Formula.choices, default=Formula.TABLE)
    points_table = models.JSONField(_("points by place"), default=list, blank=True)  # whole points, place 1 first
    participation = models.PositiveIntegerField(_("participation points"), default=0, validators=[MaxValueValidator(pts.MAX_POINTS)])
    base_buy_in = models.PositiveIntegerField(_("base buy-in (minor units)"), null=True, blank=True, validators=[MinValueValidator(1)])
    knockout_points = models.PositiveIntegerField(_("points per knockout"), default=0, validators=[MaxValueValidator(pts.MAX_POINTS)])
    currency = models.CharField(
        _("currency"),
        max_length=3,
        default="EUR",
        validators=[RegexValidator(r"^[A-Z]{3}$", _("Use a three-letter ISO code such as EUR or CZK."))],
    )
    best_results = models.PositiveSmallIntegerField(
        _("best results counted"), null=True, blank=True, validators=[MinValueValidator(1)], help_text=_("Empty: every result counts.")
    )
    lobby_standings = models.BooleanField(_("standings on the lobby screen during breaks"), default=True)
    # One more at every change of its points or settings: the standings are computed once per version in each worker
    # (leagues/selectors/leagues.standings_kept), whatever the number of TVs and phones asking.
    version = models.PositiveBigIntegerField(default=0, editable=False)
    created_at = models.DateTimeField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(best_results__isnull=True) | Q(best_results__gte=1), name="league_best_1"),
            models.CheckConstraint(condition=Q(base_buy_in__isnull=True) | Q(base_buy_in__gte=1), name="league_base_buy_in"),
        ]

    def __str__(self) -> str:
        return self.name

    def rules(self) -> pts.Formula:
        """The formula as the pure rules take it (a league saved through the services always makes one)."""
        return pts.Formula(
            self.formula,
            table=tuple(self.points_table or ()),
            participation=self.participation,
            base_buy_in=self.base_buy_in,
            knockout=self.knockout_points,
        )


class LeagueTournament(models.Model):
    """A tournament of a league (one league at most). Taken out of the league, the row goes (audited)."""

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="members")
    tournament = models.OneToOneField(Tournament, on_delete=models.PROTECT, related_name="league_member")
    added_at = models.DateTimeField()
    added_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, related_name="+")

    class Meta:
        ordering = ["league", "tournament__start_at", "tournament_id"]


class LeagueResult(models.Model):
    """A player's result in a finished tournament of a league: his best place (a re-entry's), the field and the
    points. Written when play is over; written again (or taken away) when a place changes, play goes on again (an
    undone last bust) or the league's formula changes: always what the places say now."""

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="results")
    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="league_results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="league_results")
    place = models.PositiveIntegerField()
    place_low = models.PositiveIntegerField()
    field = models.PositiveIntegerField()  # the tournament's entries (re-entries count)
    points = models.PositiveBigIntegerField()  # hundredths
    given_at = models.DateTimeField()

    class Meta:
        ordering = ["league", "tournament", "place", "player"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="league_result_one_per_player"),
            models.CheckConstraint(condition=Q(place__gte=1) & Q(place_low__gte=models.F("place")), name="league_result_place_range"),
        ]
        indexes = [models.Index(fields=["league", "player"], name="league_result_standings")]
