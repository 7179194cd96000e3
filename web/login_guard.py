"""Password spraying: one password tried against many usernames from one address. django-axes locks a
username at an address (settings: AXES_LOCKOUT_PARAMETERS), which a sprayer never trips, trying each username once or
twice; and it must not lock an address for good, which a room's tablets share behind one NAT (docs/architecture.md pitfalls).

So an address is slowed when LOGIN_SPRAY_USERNAMES different usernames have failed from it within the last
LOGIN_SPRAY_MINUTES (axes' own records of the failures, kept in the database, so every worker process counts the same):
every log-in from it is then refused with a clear message, the password not even tried, until fewer usernames have
failed there in that window (at most LOGIN_SPRAY_MINUTES after the last failure counted). A room in normal use never
gets there: a username that logs in afterwards has its failures forgotten (AXES_RESET_ON_SUCCESS), so only usernames
that keep failing count, and a room has far fewer staff mistyping than the limit.

The address is REMOTE_ADDR, as axes and the API's throttles read it: the server sets it from X-Forwarded-For only
for the proxies it trusts (FORWARDED_ALLOW_IPS), so a client cannot pick another address per attempt.

The backend below stands between axes' and Django's in AUTHENTICATION_BACKENDS, so the log-in page, the admin's and the
API's token exchange are all guarded; a refusal marks the request as axes' own lockout does (the refused attempt
is counted as axes counts a failure during its lockout: a sprayer who goes on stays slowed; AxesMiddleware answers
with the lockout page, 429) and as sprayed (the page and the API say why: web/auth_api.py,
templates/registration/locked_out.html)."""

from __future__ import annotations

from datetime import timedelta

from axes.models import AccessAttempt
from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.utils import timezone


def address(request) -> str | None:
    return getattr(request, "axes_ip_address", None) or request.META.get("REMOTE_ADDR")


def sprayed(request) -> bool:
    """Have too many different usernames failed from this request's address lately?"""
    ip = address(request)
    if not ip:
        return False
    since = timezone.now() - timedelta(minutes=settings.LOGIN_SPRAY_MINUTES)
    failed = (
        AccessAttempt.objects.filter(ip_address=ip, attempt_time__gte=since)
        .exclude(username__isnull=True)
        .values("username")
        .distinct()
        .count()
    )
    return failed >= settings.LOGIN_SPRAY_USERNAMES


class SprayGuardBackend:
    """Refuses every log-in from a sprayed address before any password is checked (django.contrib.auth.authenticate
    stops at a backend's PermissionDenied)."""

    def authenticate(self, request, username=None, password=None, **kwargs):
        if request is None or not sprayed(request):
            return None
        request.login_sprayed, request.login_spray_minutes = True, settings.LOGIN_SPRAY_MINUTES
        request.axes_locked_out = True  # axes counts no failure for it, and its middleware answers 429
        raise PermissionDenied("too many usernames failed from this address")

    # No get_user: a session never names this backend (Django's test client's force_login takes the first backend
    # that has one; axes' backend has none either).
