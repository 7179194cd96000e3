"""The API's login, logout and token list (web/auth.py keeps the tokens).

POST /api/auth/token/ exchanges a username and password for a new token (shown once); POST /api/auth/logout/
with a token revokes that token; the director lists every token (GET /api/auth/tokens/: who, when made, last
used, expiry, prefix, never the secret) and revokes any (POST /api/auth/tokens/<id>/revoke/).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import authenticate
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from core import roles
from tournament.models import StaffProfile
from tournament.services import preferences

from . import auth
from .access import api as api_roles
from .api import FORBIDDEN, RoleAPIView, answers, call_service, error_body, valid
from .idempotency import IdempotentMixin
from .models import ApiToken
from .refusal import ServiceErrorSerializer


class TokenRequestSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150)
    password = serializers.CharField(trim_whitespace=False, write_only=True, style={"input_type": "password"})


class NewTokenSerializer(serializers.Serializer):
    token = serializers.CharField(
        help_text="Send it as the header `Authorization: Token <token>`. Shown this once: the server keeps only its hash."
    )
    id = serializers.IntegerField()
    prefix = serializers.CharField(help_text="The token's first characters, as the token list shows them.")
    expires_at = serializers.DateTimeField()
    username = serializers.CharField()
    roles = serializers.ListField(child=serializers.CharField())


class ApiTokenSerializer(serializers.ModelSerializer):
    username = serializers.CharField(source="user.username", read_only=True)
    revoked_by = serializers.CharField(source="revoked_by.username", read_only=True, allow_null=True, default=None)
    active = serializers.SerializerMethodField()
    revoked_because = serializers.SerializerMethodField()

    class Meta:
        model = ApiToken
        fields = (
            "id",
            "username",
            "prefix",
            "created_at",
            "created_from",
            "last_used_at",
            "expires_at",
            "active",
            "revoked_at",
            "revoked_by",
            "revoked_because",
        )
        read_only_fields = fields

    def get_active(self, obj: ApiToken) -> bool:
        return obj.revoked_at is None and obj.expires_at > timezone.now()

    @extend_schema_field(serializers.ChoiceField(choices=ApiToken.RevokedBecause.choices, allow_null=True))
    def get_revoked_because(self, obj: ApiToken) -> str | None:
        return obj.revoked_because or None


class TokenListQuerySerializer(serializers.Serializer):
    active = serializers.BooleanField(required=False, default=False, help_text="Only the tokens that still work.")


LIST_LIMIT = 500


def token_list(active_only: bool):
    rows = ApiToken.objects.select_related("user", "revoked_by").order_by("-created_at", "-id")
    if active_only:
        rows = rows.filter(revoked_at__isnull=True, expires_at__gt=timezone.now())
    return rows[:LIST_LIMIT]


def sprayed_message(minutes: int) -> str:
    return ngettext(
        "Too many different usernames have failed to log in from this address: log-ins from here are paused "
        "for up to %(minutes)s minute. Try again later or ask the tournament director.",
        "Too many different usernames have failed to log in from this address: log-ins from here are paused "
        "for up to %(minutes)s minutes. Try again later or ask the tournament director.",
        minutes,
    ) % {"minutes": minutes}


class TokenView(APIView):
    """Exchange a username and password for a new API token. Failed attempts count towards the axes lockout.

    Not replayed by Idempotency-Key: the answer is a secret the server does not keep; each call makes a new
    token (log out with the spare one, or let it expire)."""

    authentication_classes: list = []
    permission_classes: list = []

    @extend_schema(
        operation_id="auth_token",
        tags=["auth"],
        auth=[],
        request=TokenRequestSerializer,
        responses={
            200: NewTokenSerializer,
            400: OpenApiResponse(ServiceErrorSerializer, description="Wrong username or password."),
            429: OpenApiResponse(ServiceErrorSerializer, description="Locked out after too many failed attempts."),
        },
    )
    def post(self, request):
        data = valid(TokenRequestSerializer, request.data).validated_data
        user = authenticate(request=request, username=data["username"], password=data["password"])
        if getattr(request, "login_sprayed", False):  # web/login_guard.py
            return Response(
                error_body("address_slowed", sprayed_message(settings.LOGIN_SPRAY_MINUTES)), status=status.HTTP_429_TOO_MANY_REQUESTS
            )
        if getattr(request, "axes_locked_out", False):
            return Response(
                error_body("locked_out", _("Too many failed logins: this account is locked for a while. Ask the director.")),
                status=status.HTTP_429_TOO_MANY_REQUESTS,
            )
        if user is None:
            return Response(error_body("bad_credentials", _("Wrong username or password.")), status=status.HTTP_400_BAD_REQUEST)
        token = auth.issue_token(user, address=request.META.get("REMOTE_ADDR"))
        return Response(
            NewTokenSerializer(
                {
                    "token": token.key,
                    "id": token.pk,
                    "prefix": token.prefix,
                    "expires_at": token.expires_at,
                    "username": user.get_username(),
                    "roles": sorted(roles.user_roles(user)),
                }
            ).data
        )


class LogoutView(IdempotentMixin, APIView):
    """The token's holder logs out: the token that authenticates this request stops working."""

    authentication_classes = [auth.ApiTokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="auth_logout",
        tags=["auth"],
        request=None,
        summary="Log out with a token: the token is revoked",
        responses={200: ApiTokenSerializer, 401: FORBIDDEN},
    )
    def post(self, request):
        token = call_service(auth.log_out_token, request.auth)
        return Response(ApiTokenSerializer(token).data)


class PreferencesSerializer(serializers.Serializer):
    language = serializers.ChoiceField(
        choices=[("", "the browser's"), *settings.LANGUAGES],
        allow_blank=True,
        help_text="The language of every screen for this login; empty: the browser's.",
    )


class PreferencesView(RoleAPIView):
    """A login's own preferences (any role): the language its screens speak."""

    allowed = api_roles("api-preferences")

    @extend_schema(
        operation_id="auth_preferences",
        tags=["auth"],
        summary="My preferences",
        responses=answers(200, PreferencesSerializer, refused=True, lookup=False),
    )
    def get(self, request):
        profile = StaffProfile.objects.filter(user=request.user).first()
        return Response({"language": profile.language if profile else ""})

    @extend_schema(
        operation_id="auth_preferences_update",
        tags=["auth"],
        request=PreferencesSerializer,
        summary="Set my language (also the django_language cookie, for the pages before login)",
        responses=answers(200, PreferencesSerializer, refused=True, lookup=False),
    )
    def patch(self, request):
        data = valid(PreferencesSerializer, request.data).validated_data
        profile = call_service(preferences.set_language, request.user, data["language"])
        response = Response({"language": profile.language})
        response.set_cookie(settings.LANGUAGE_COOKIE_NAME, profile.language, samesite="Lax")
        return response


class TokenListView(RoleAPIView):
    allowed = api_roles("api-tokens")

    @extend_schema(
        operation_id="auth_tokens_list",
        tags=["auth"],
        parameters=[TokenListQuerySerializer],
        summary="Every API token, newest first (never the secret)",
        responses=answers(200, ApiTokenSerializer(many=True), refused=True, lookup=False),
    )
    def get(self, request):
        query = valid(TokenListQuerySerializer, request.query_params).validated_data
        return Response(ApiTokenSerializer(token_list(query["active"]), many=True).data)


class TokenRevokeView(RoleAPIView):
    allowed = api_roles("api-token-revoke")

    @extend_schema(
        operation_id="auth_tokens_revoke",
        tags=["auth"],
        request=None,
        summary="Revoke a token: it stops working at once",
        responses=answers(200, ApiTokenSerializer, conflict=True),
    )
    def post(self, request, token_id: int):
        token = get_object_or_404(ApiToken, pk=token_id)
        token = call_service(auth.revoke_token, token, actor=request.user)
        return Response(ApiTokenSerializer(token).data)
