"""API tokens: made at /api/auth/token/, kept hashed, expiring, revocable; and the authentication class
that reads them (`Authorization: Token <token>`, or `Bearer <token>`).

A token is 256 random bits; the database keeps its SHA-256 and first characters only (core/tokens.py), so a
dump of the database holds no usable token. It stops working after API_TOKEN_TTL_HOURS (a tournament day by
default), when its holder logs out with it (POST /api/auth/logout/), when its user logs out of a browser
session (Django's user_logged_out signal, connected in web/apps.py), or when the director revokes it.

Tokens belong to no tournament, so they are not in the per-tournament audit log: each creation and
revocation is logged here (logger "web.auth") and the row itself keeps when, by whom and why it was revoked.
"""

from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header

from core import roles, tokens
from core.actor import Actor
from core.errors import ServiceError, require

from .models import ApiToken

log = logging.getLogger("web.auth")

KEYWORDS = ("token", "bearer")
TOKEN_MANAGERS = (roles.DIRECTOR,)
LAST_USED_EVERY = timedelta(minutes=1)  # last_used_at is written at most once a minute per token, not per request


def token_lifetime() -> timedelta:
    return timedelta(hours=settings.API_TOKEN_TTL_HOURS)


def issue_token(user, *, address: str | None = None) -> ApiToken:
    """A new token for a user who just proved their password. Its secret is on the instance (`key`) only."""
    now = timezone.now()
    secret = tokens.new_secret()
    token = ApiToken.objects.create(
        user=user,
        key_hash=tokens.hash_secret(secret),
        prefix=tokens.prefix_of(secret),
        created_at=now,
        expires_at=now + token_lifetime(),
        created_from=address or None,
    )
    token.key = secret
    log.info(
        "api token %s… made for %s from %s, expires %s", token.prefix, user.get_username(), address or "?", token.expires_at.isoformat()
    )
    return token


@transaction.atomic
def revoke_token(token: ApiToken, *, actor: Actor) -> ApiToken:
    """The director revokes a token (any user's): it stops working at once."""
    require(actor, TOKEN_MANAGERS)
    return _revoke(token, actor=actor, because=ApiToken.RevokedBecause.DIRECTOR)


@transaction.atomic
def log_out_token(token: ApiToken) -> ApiToken:
    """The holder of a token logs out with it."""
    return _revoke(token, actor=token.user, because=ApiToken.RevokedBecause.LOGOUT)


def _revoke(token: ApiToken, *, actor: Actor, because: str) -> ApiToken:
    token = ApiToken.objects.select_for_update().select_related("user").get(pk=token.pk)
    if token.revoked_at is not None:
        raise ServiceError(_("This token is already revoked."), code="already_revoked", status=409)
    token.revoked_at, token.revoked_by, token.revoked_because = timezone.now(), actor, because
    token.save(update_fields=["revoked_at", "revoked_by", "revoked_because"])
    log.info("api token %s… of %s revoked by %s (%s)", token.prefix, token.user.get_username(), actor.get_username(), because)
    return token


def revoke_tokens_at_logout(sender, request, user, **kwargs) -> None:
    """user_logged_out: a user who logs out of the screens logs out their tablets' and scripts' tokens too."""
    if user is None:
        return
    count = ApiToken.objects.filter(user=user, revoked_at__isnull=True).update(
        revoked_at=timezone.now(), revoked_by=user, revoked_because=ApiToken.RevokedBecause.SESSION_LOGOUT
    )
    if count:
        log.info("%d api token(s) of %s revoked at session logout", count, user.get_username())


class ApiTokenAuthentication(BaseAuthentication):
    """`Authorization: Token <token>` (or `Bearer <token>`). An unknown, expired or revoked token is a 401
    in the API's one error shape; a request without the header is left to the next class (the session)."""

    messages = {
        "header": gettext_lazy("Send the token as the header Authorization: Token <token>."),
        "invalid": gettext_lazy("Unknown token: log in again for a new one."),
        "expired": gettext_lazy("This token has expired: log in again for a new one."),
        "revoked": gettext_lazy("This token was revoked: log in again for a new one."),
        "inactive": gettext_lazy("This account is disabled."),
    }

    def authenticate(self, request):
        words = get_authorization_header(request).split()
        if not words or words[0].lower().decode("latin-1") not in KEYWORDS:
            return None
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(self.messages["header"], code="bad_token_header")
        try:
            secret = words[1].decode("ascii")
        except UnicodeError:
            raise exceptions.AuthenticationFailed(self.messages["invalid"], code="token_invalid")
        return self.authenticate_secret(secret)

    def authenticate_secret(self, secret: str):
        token = ApiToken.objects.select_related("user").filter(key_hash=tokens.hash_secret(secret)).first()
        now = timezone.now()
        if token is None:
            raise exceptions.AuthenticationFailed(self.messages["invalid"], code="token_invalid")
        if token.revoked_at is not None:
            raise exceptions.AuthenticationFailed(self.messages["revoked"], code="token_revoked")
        if token.expires_at <= now:
            raise exceptions.AuthenticationFailed(self.messages["expired"], code="token_expired")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(self.messages["inactive"], code="user_inactive")
        if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
            token.last_used_at = now
        return token.user, token

    def authenticate_header(self, request) -> str:
        return "Token"


class ApiTokenScheme(OpenApiAuthenticationExtension):
    """The API's documentation (/api/docs/) shows the token header (drf-spectacular finds this class by its target)."""

    target_class = "web.auth.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "`Token <token>` (or `Bearer <token>`), the token from POST /api/auth/token/.",
        }
