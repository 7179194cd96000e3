"""Screen links: a URL that opens a screen without a login (a lobby TV, a room TV), kept hashed and revocable."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core import tokens
from tournament.models import NeverDeleteModel, NeverDeleteQuerySet, Tournament


class ScreenLinkQuerySet(NeverDeleteQuerySet):
    def for_link(self, secret: str) -> models.QuerySet:
        """The active link that carries this secret (none for an unknown or revoked one)."""
        return self.filter(token_hash=tokens.hash_secret(secret or ""), revoked_at__isnull=True)


class ScreenLink(NeverDeleteModel):
    """A read-only credential for a screen: a URL, not a login. Revocable.

    The link's secret is kept only as its SHA-256 (core/tokens.py) and a short prefix: the link is shown
    once, when it is made (`token` is set on that instance only), and a database dump opens no screen.
    A tournament's lobby TV (DisplayToken) and a venue's room TV (venues.models.VenueDisplay) are both."""

    label = models.CharField(_("label"), max_length=80)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=tokens.PREFIX_LENGTH, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    revoked_at = models.DateTimeField(null=True, blank=True)

    objects = ScreenLinkQuerySet.as_manager()
    token: str | None = None  # the clear secret: only on the instance that made it, never stored

    class Meta:
        abstract = True

    @property
    def active(self) -> bool:
        return self.revoked_at is None

    def new_secret(self) -> str:
        """A fresh secret for this screen's link: its hash and prefix are set here, the secret returned."""
        self.token = tokens.new_secret()
        self.token_hash, self.prefix = tokens.hash_secret(self.token), tokens.prefix_of(self.token)
        return self.token


class DisplayToken(ScreenLink):
    """A lobby screen's link: one tournament's TV."""

    tournament = models.ForeignKey(Tournament, on_delete=models.PROTECT, related_name="display_tokens")

    class Meta:
        constraints = [models.CheckConstraint(condition=~Q(token_hash=""), name="display_token_hashed")]
