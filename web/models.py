"""What the web layer keeps itself: API tokens (hashed, expiring, revocable) and idempotency keys.

Neither belongs to a tournament, so neither is in the per-tournament audit log: an API token records who
made and revoked it on its own row (and web.auth logs each creation and revocation), and an idempotency
key is a short-lived record of one press's answer.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from core import tokens


class ApiToken(models.Model):
    """A bearer token for a tablet, a shuffler bridge or a script, from /api/auth/token/.

    Only the SHA-256 of the secret and its first characters are stored (core/tokens.py). It stops working
    at `expires_at` (API_TOKEN_TTL_HOURS after it was made), when revoked (by the director, by the token's
    own logout, or when its user logs out of a browser session)."""

    class RevokedBecause(models.TextChoices):
        LOGOUT = "logout", _("logged out with the token")
        SESSION_LOGOUT = "session_logout", _("the user logged out")
        DIRECTOR = "director", _("revoked by the director")

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    key_hash = models.CharField(max_length=64, unique=True, editable=False)
    prefix = models.CharField(max_length=tokens.PREFIX_LENGTH, editable=False)
    created_at = models.DateTimeField()
    expires_at = models.DateTimeField()
    last_used_at = models.DateTimeField(null=True, blank=True)
    created_from = models.GenericIPAddressField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    revoked_because = models.CharField(max_length=20, choices=RevokedBecause.choices, blank=True)

    key: str | None = None  # the clear secret: only on the instance that made it, never stored

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(condition=~Q(key_hash=""), name="api_token_hashed"),
            models.CheckConstraint(condition=Q(revoked_at__isnull=True) | ~Q(revoked_because=""), name="api_token_revoked_why"),
        ]
        indexes = [models.Index(fields=["user", "revoked_at"], name="api_token_user_live")]

    def __str__(self) -> str:
        return f"{self.prefix}… ({self.user_id})"


class IdempotencyKey(models.Model):
    """One press of a state-changing API call (the `Idempotency-Key` header) and its first answer.

    `owner` is whoever pressed ("user:<id>" for staff, by session or token; "table:<id>" for a shuffler).
    The unique (owner, key) lets exactly one request claim a press: a second process's claim fails in the
    database, waits for the answer and returns it. Rows older than IDEMPOTENCY_KEY_HOURS are ignored and
    cleared."""

    owner = models.CharField(max_length=40)
    key = models.CharField(max_length=255)
    method = models.CharField(max_length=10)
    path = models.CharField(max_length=400)
    body_hash = models.CharField(max_length=64)
    created_at = models.DateTimeField()
    status = models.PositiveSmallIntegerField(null=True, blank=True)  # null while the first request runs
    body = models.TextField(blank=True)  # the answer as JSON, secrets left out

    class Meta:
        constraints = [models.UniqueConstraint(fields=["owner", "key"], name="idempotency_one_press")]
        indexes = [models.Index(fields=["created_at"], name="idempotency_created")]

    def __str__(self) -> str:
        return f"{self.owner} {self.method} {self.path} {self.key}"
