"""What every endpoint of the JSON API shares: the role check, the one error shape, lookups by the
numbers the room uses, the public (anonymous, throttled) base, and the documented answers.

The one error shape, for every refusal of every endpoint (a service's ServiceError, invalid input,
a missing login or role, an unknown object, a throttle, a request Django will not read: `bad_request`):

    {"error": "<code>", "detail": "<translated message for the person at the screen>",
     "problems": ["<each problem, one message each>"], "fields": {"<field>": ["<message>"]}}

`fields` is there only for invalid input. The screens show `detail` (static/js/api.js); programs
branch on `error`. A service's refusal whose problems belong to fields of the body (a structure's rows)
is raised as a ValidationError *from* the ServiceError: the answer keeps the service's code, message and
problems, and adds `fields`.
"""

from __future__ import annotations

import re
import secrets

from django.conf import settings
from django.core.exceptions import DisallowedHost, RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.defaults import bad_request as bad_request_page
from django.views.defaults import page_not_found
from drf_spectacular.utils import OpenApiResponse
from rest_framework import exceptions
from rest_framework.authentication import SessionAuthentication
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny, BasePermission
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView
from rest_framework.views import exception_handler as drf_handler

from core import access, roles
from core.errors import ServiceError
from flights.selectors import events as flight_selectors
from leagues.selectors import leagues as league_selectors
from leagues.selectors.player_results import player_tournaments
from tournament.models import Entry, Tournament

from .auth import ApiTokenAuthentication
from .idempotency import IdempotentMixin
from .refusal import ServiceErrorSerializer

ANY_STAFF = roles.ALL_ROLES

# --- the one error shape -------------------------------------------------------------------------


def _field_messages(detail, prefix: str = "") -> dict[str, list[str]]:
    """A serializer's nested errors as {"field" or "field.sub": [messages]}."""
    if isinstance(detail, dict):
        out: dict[str, list[str]] = {}
        for key, value in detail.items():
            out.update(_field_messages(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    if isinstance(detail, list) and detail and all(isinstance(item, dict | list) for item in detail):
        out = {}
        for i, value in enumerate(detail):
            out.update(_field_messages(value, f"{prefix}.{i}" if prefix else str(i)))
        return out
    items = detail if isinstance(detail, list) else [detail]
    return {prefix or "non_field_errors": [str(item) for item in items]}


def error_body(code: str, detail: str, problems: list | None = None, fields: dict | None = None) -> dict:
    body = {"error": code, "detail": str(detail), "problems": [str(p) for p in (problems or [detail])]}
    if fields:
        body["fields"] = fields
    return body


def _service_problems(exc: ServiceError) -> list:
    return exc.details if isinstance(exc.details, list) and exc.details else [exc.message]


def exception_handler(exc, context):
    """Every refusal in the one shape above (settings: REST_FRAMEWORK["EXCEPTION_HANDLER"]). Django's own
    refusals of a request it cannot read, raised while a view reads request.data (too many fields or files,
    a body too large), pass through to Django and are answered by `bad_request` below, as before a view."""
    if isinstance(exc, ServiceError):
        return Response(error_body(exc.code, exc.message, _service_problems(exc)), status=exc.status)
    response = drf_handler(exc, context)
    if response is None:
        return None
    if isinstance(exc, ValidationError):
        fields = _field_messages(exc.detail)
        refusal = exc.__cause__
        if isinstance(refusal, ServiceError):  # the service's refusal, its problems at the body's fields
            response.data = error_body(refusal.code, refusal.message, _service_problems(refusal), fields)
            response.status_code = refusal.status
            return response
        problems = [
            message if name == "non_field_errors" else f"{name}: {message}" for name, messages in fields.items() for message in messages
        ]
        response.data = error_body("invalid", " ".join(problems) or _("The input is not valid."), problems, fields)
        return response
    # DRF's own refusals keep DRF's codes: not_authenticated, authentication_failed, permission_denied (the
    # endpoint's role check; a service's is "forbidden"), not_found, method_not_allowed, parse_error, throttled...
    if isinstance(exc, Http404):  # DRF answers Django's own two as NotFound and PermissionDenied
        code = exceptions.NotFound.default_code
    elif isinstance(exc, DjangoPermissionDenied):
        code = exceptions.PermissionDenied.default_code
    else:
        codes = exc.get_codes() if isinstance(exc, exceptions.APIException) else None
        code = codes if isinstance(codes, str) else getattr(exc, "default_code", "error")
    detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
    response.data = error_body(code, str(detail))
    return response


# --- roles, lookups, calls -----------------------------------------------------------------------


class RolePermission(BasePermission):
    """The view's role set for the request method (from core/access.py), checked by access.allows."""

    message = gettext_lazy("Your role does not allow this action.")

    def has_permission(self, request, view) -> bool:
        if not (request.user and request.user.is_authenticated):
            return False  # DRF answers 401 (not authenticated), not 403
        # The tournaments the route touches (its URL's, or the view's own answer): staff who work some tournaments only.
        touches = getattr(view, "touches", None)
        return access.allows(view.roles_for(request.method), request.user, touches() if touches else tournament_of(view.kwargs))


def tournament_of(kwargs: dict):
    """The tournament or tournaments a route touches, for staff who work some tournaments only (core.roles.works_in:
    working one of them is enough, none of an empty list). Its id in the URL; a route without one resolves them
    lazily, so that only a scoped member's request asks the database:
    - an event (`events/<event_id>/`): its flights and Day 2;
    - a league (`leagues/<league_id>/`, its CSV and PDF): its tournaments (and a Day 2's flights);
    - a player (`players/<player_id>/`): the tournaments of his results and of his tickets.
    A view that touches another tournament than its path's says so (RoleAPIView.touches)."""
    tournament = kwargs.get("tournament_id", kwargs.get("pk"))
    if tournament is not None:
        return tournament
    if kwargs.get("event_id") is not None:
        return lambda: flight_selectors.event_tournaments(kwargs["event_id"])
    if kwargs.get("league_id") is not None:
        return lambda: league_selectors.league_tournaments(kwargs["league_id"])
    if kwargs.get("player_id") is not None:
        return lambda: player_tournaments(kwargs["player_id"])
    return None


class RoleAPIView(IdempotentMixin, APIView):
    """Base of every staff endpoint: `allowed` maps an HTTP method to the roles that may use it. Every
    change honours the Idempotency-Key header (web/idempotency.py)."""

    authentication_classes = [ApiTokenAuthentication, SessionAuthentication]  # Token first: anonymous gets 401
    permission_classes = [RolePermission]
    allowed: dict[str, tuple[str, ...]] = {}

    def roles_for(self, method: str) -> tuple[str, ...]:
        if method in ("HEAD", "OPTIONS"):
            return self.allowed.get("GET", ANY_STAFF)
        return self.allowed.get(method, ())

    def touches(self):
        """The tournaments this request touches, for the per-tournament rule (tournament_of; a view that acts in
        another tournament than its path's overrides this: a ticket's registration acts in the satellite's target)."""
        return tournament_of(self.kwargs)


def call_service(fn, *args, **kwargs):
    """Call one service. A model check the service raises (full_clean) becomes a 400 with the field messages."""
    try:
        return fn(*args, **kwargs)
    except DjangoValidationError as exc:
        raise ValidationError(exc.message_dict if hasattr(exc, "error_dict") else {"detail": exc.messages})


def valid(serializer_class, data, **kwargs):
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer


def only_known(serializer_class, data, message) -> None:
    """A settings body (PATCH, PUT of some fields) names only the serializer's fields: each unknown one is refused by
    name with `message` (a setting mistyped would otherwise be dropped without a word)."""
    unknown = sorted(set(data) - set(serializer_class().fields)) if isinstance(data, dict) else []
    if unknown:
        raise ValidationError({name: [message] for name in unknown})


def tournament_or_404(pk: int) -> Tournament:
    return get_object_or_404(Tournament, pk=pk)


def entry_or_404(pk: int, number: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("player", "id_check"), tournament_id=pk, number=number)


# --- public endpoints ----------------------------------------------------------------------------


DEVICE_COOKIE = "device"  # one phone or program: set by the public API's answers, read by its throttle
DEVICE = re.compile(r"^[A-Za-z0-9_-]{22}$")


def device_of(request) -> str | None:
    value = request.COOKIES.get(DEVICE_COOKIE, "")
    return value if DEVICE.match(value) else None


class PublicRateThrottle(SimpleRateThrottle):
    """The public API per device: PUBLIC_API_RATE requests (120/minute by default) per device
    cookie, so one phone that reads too fast is slowed without touching the others. A request without the
    cookie (a phone's first, or a program that keeps none) counts only against its address's ceiling."""

    scope = "public"

    def get_rate(self) -> str:
        return getattr(settings, "PUBLIC_API_RATE", "120/minute")

    def get_cache_key(self, request, view) -> str | None:
        device = device_of(request)
        return None if device is None else self.cache_format % {"scope": self.scope, "ident": device}


class PublicAddressThrottle(SimpleRateThrottle):
    """A ceiling per client address, PUBLIC_API_ADDRESS_RATE (6,000/minute by default): a room of 1,000 phones
    behind one address (a venue's Wi-Fi behind NAT, the server in the cloud) is never refused; a device that
    throws its cookie away to escape its own limit meets this one. Counted in each worker's memory."""

    scope = "public-address"

    def get_rate(self) -> str:
        return getattr(settings, "PUBLIC_API_ADDRESS_RATE", "6000/minute")

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class PublicAPIView(IdempotentMixin, APIView):
    """No login, no session (so no CSRF), throttled per device and, with a ceiling for a whole room, per address."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    throttle_classes = [PublicRateThrottle, PublicAddressThrottle]

    def finalize_response(self, request, response, *args, **kwargs):
        response = super().finalize_response(request, response, *args, **kwargs)
        if device_of(request) is None:  # a first read: from now on this device is counted on its own
            response.set_cookie(
                DEVICE_COOKIE,
                secrets.token_urlsafe(16),
                max_age=365 * 24 * 3600,
                httponly=True,
                samesite="Lax",
                secure=settings.SESSION_COOKIE_SECURE,
            )
        return response


# --- documented answers --------------------------------------------------------------------------

REFUSED = OpenApiResponse(ServiceErrorSerializer, description="Refused: invalid input (field errors) or a rule of the house.")
CONFLICT = OpenApiResponse(ServiceErrorSerializer, description="Refused: the current state does not allow it.")
FORBIDDEN = OpenApiResponse(ServiceErrorSerializer, description="Not logged in (401) or the role does not allow it (403).")
NOT_FOUND = OpenApiResponse(ServiceErrorSerializer, description="No such object.")
THROTTLED = OpenApiResponse(
    ServiceErrorSerializer, description="Too many requests from this device (or, past a room's ceiling, this address); try again shortly."
)


def answers(ok_status: int, ok, *, refused: bool = False, conflict: bool = False, lookup: bool = True) -> dict:
    responses = {ok_status: ok, 401: FORBIDDEN, 403: FORBIDDEN}
    if refused:
        responses[400] = REFUSED
    if conflict:
        responses[409] = CONFLICT
    if lookup:
        responses[404] = NOT_FOUND
    return responses


def public_answers(ok) -> dict:
    return {200: ok, 400: REFUSED, 404: NOT_FOUND, 429: THROTTLED}


def forbidden(request, exception=None):
    """Django's 403 (config.urls handler403): under /api/ and for a page's JSON reads in the API's one
    error shape, elsewhere the site's page saying what happened, which roles the page is for, and the
    ways on (home, log in as someone else)."""
    detail = str(exception) if exception is not None and str(exception) else str(exceptions.PermissionDenied.default_detail)
    if request.path.startswith("/api/") or request.path.endswith(".json"):
        return JsonResponse(error_body(exceptions.PermissionDenied.default_code, detail), status=403)
    needed = getattr(request, "roles_needed", None)
    return render(request, "403.html", {"exception": detail, "roles_needed": roles.role_labels(needed) if needed else []}, status=403)


def not_found(request, exception=None):
    """Django's 404 for a URL no pattern matches (config.urls handler404): under /api/ in the API's one
    error shape (e.g. a number that is not a number in the path), elsewhere the site's own page."""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(exceptions.NotFound.default_code, exceptions.NotFound.default_detail), status=404)
    return page_not_found(request, exception)


def _unreadable(exception) -> tuple[str, str]:
    """The code and message of a request Django refuses to read (its SuspiciousOperation, BadRequest or
    MultiPartParserError): the limits are settings (DATA_UPLOAD_MAX_NUMBER_FIELDS ...)."""
    if isinstance(exception, DisallowedHost):
        return "disallowed_host", _("This server does not answer for that host name.")
    if isinstance(exception, TooManyFieldsSent):
        return "too_many_fields", _("The request has too many fields (at most %(max)s).") % {"max": settings.DATA_UPLOAD_MAX_NUMBER_FIELDS}
    if isinstance(exception, TooManyFilesSent):
        return "too_many_files", _("The request has too many files (at most %(max)s).") % {"max": settings.DATA_UPLOAD_MAX_NUMBER_FILES}
    if isinstance(exception, RequestDataTooBig):
        return "too_large", _("The request's body is too large (at most %(max)s bytes).") % {"max": settings.DATA_UPLOAD_MAX_MEMORY_SIZE}
    if isinstance(exception, MultiPartParserError):
        return "bad_form_data", _("The request's form data cannot be read.")
    return "bad_request", _("The request cannot be read.")


def bad_request(request, exception=None):
    """Django's 400 (config.urls handler400), for a request Django refuses before or while a view reads it:
    too many fields or files, a body over DATA_UPLOAD_MAX_MEMORY_SIZE, a Host not in ALLOWED_HOSTS, a
    multipart body that cannot be parsed, any other SuspiciousOperation. Under /api/ in the API's one error
    shape (a program reading the API never gets an HTML page), elsewhere Django's page. It reads only
    request.path: request.get_host() would raise DisallowedHost again. (With DEBUG on, Django shows its
    debug page for a SuspiciousOperation instead of calling this.)"""
    if request.path.startswith("/api/"):
        return JsonResponse(error_body(*_unreadable(exception)), status=400)
    return bad_request_page(request, exception)
