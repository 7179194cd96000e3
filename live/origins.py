"""Sockets open only from this site's own pages: the Origin of a WebSocket handshake must match
the site exactly (scheme, host and port), as Django's CSRF check matches the Origin of an HTTP POST.

A handshake is let through when its Host is one of ALLOWED_HOSTS and its Origin is either the site itself
(`http://` or `https://` as the connection is `ws` or `wss`, behind a TLS proxy as X-Forwarded-Proto says,
then the Host header with its port) or one of CSRF_TRUSTED_ORIGINS (exactly, or a `*.` subdomain pattern of
the same scheme). No Origin, `null`, another port, another scheme or another host: refused (403) before any
consumer runs. Channels' AllowedHostsOriginValidator, which this replaces, compared the host only."""

from __future__ import annotations

from urllib.parse import urlsplit

from channels.security.websocket import WebsocketDenier
from django.conf import settings
from django.http.request import split_domain_port, validate_host
from django.utils.http import is_same_domain


def _header(scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return value.decode("latin-1")
    return None


def allowed_hosts() -> list[str]:
    hosts = list(settings.ALLOWED_HOSTS)
    if settings.DEBUG and not hosts:  # as Django's HttpRequest.get_host
        hosts = [".localhost", "127.0.0.1", "[::1]"]
    return hosts


def origin_allowed(scope) -> bool:
    origin, host = _header(scope, b"origin"), _header(scope, b"host")
    if not origin or origin == "null" or not host:
        return False
    domain, _port = split_domain_port(host)
    if not domain or not validate_host(domain, allowed_hosts()):
        return False
    secure = scope.get("scheme", "ws") in ("wss", "https")
    if origin == f"{'https' if secure else 'http'}://{host}":
        return True
    trusted = list(getattr(settings, "CSRF_TRUSTED_ORIGINS", []))
    if origin in trusted:
        return True
    try:
        parsed = urlsplit(origin)
    except ValueError:
        return False
    return any(
        parsed.scheme == urlsplit(pattern).scheme and "*" in pattern and is_same_domain(parsed.netloc, urlsplit(pattern).netloc[1:])
        for pattern in trusted
    )


class ExactOriginValidator:
    """ASGI middleware for the WebSocket router: refuses a handshake whose Origin is not this site."""

    def __init__(self, application) -> None:
        self.application = application

    async def __call__(self, scope, receive, send):
        if scope["type"] == "websocket" and not origin_allowed(scope):
            return await WebsocketDenier()(scope, receive, send)
        return await self.application(scope, receive, send)
