"""Socket origins match exactly: scheme, host and port, as Django's CSRF check matches an HTTP
POST's Origin (live/origins.py). Before, a floor socket opened from any port or scheme of the same host."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.test import Client

from live.origins import origin_allowed


def scope(origin: str | None, host: str = "127.0.0.1:8000", scheme: str = "ws") -> dict:
    headers = [(b"host", host.encode())] + ([(b"origin", origin.encode())] if origin is not None else [])
    return {"type": "websocket", "scheme": scheme, "headers": headers}


@pytest.mark.parametrize(
    ("origin", "host", "scheme", "ok"),
    [
        ("http://127.0.0.1:8000", "127.0.0.1:8000", "ws", True),  # the site itself
        ("https://poker.example", "poker.example", "wss", True),  # behind TLS (the proxy's X-Forwarded-Proto)
        ("http://127.0.0.1:1", "127.0.0.1:8000", "ws", False),  # another port
        ("http://localhost:8081", "localhost:8000", "ws", False),
        ("http://127.0.0.1", "127.0.0.1:8000", "ws", False),  # the port left out
        ("https://127.0.0.1:8000", "127.0.0.1:8000", "ws", False),  # another scheme
        ("http://poker.example", "poker.example", "wss", False),  # plain http page on a TLS site
        ("http://evil.example", "127.0.0.1:8000", "ws", False),
        ("http://127.0.0.1:8000.evil.example", "127.0.0.1:8000", "ws", False),
        ("null", "127.0.0.1:8000", "ws", False),  # a sandboxed frame or a file
        (None, "127.0.0.1:8000", "ws", False),  # no Origin: not a browser page of this site
    ],
)
def test_the_origin_must_be_the_site_itself(settings, origin, host, scheme, ok):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost", "poker.example"]
    settings.CSRF_TRUSTED_ORIGINS = []
    assert origin_allowed(scope(origin, host, scheme)) is ok


def test_a_host_outside_allowed_hosts_is_refused_even_from_itself(settings):
    settings.ALLOWED_HOSTS = ["poker.example"]
    assert not origin_allowed(scope("http://other.example", "other.example"))


def test_trusted_origins_exactly_or_by_subdomain_pattern(settings):
    settings.ALLOWED_HOSTS = ["poker.example"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://tv.poker.example", "https://*.club.example"]
    assert origin_allowed(scope("https://tv.poker.example", "poker.example", "wss"))
    assert origin_allowed(scope("https://lobby.club.example", "poker.example", "wss"))
    assert not origin_allowed(scope("http://lobby.club.example", "poker.example", "wss"))  # the pattern's scheme
    assert not origin_allowed(scope("https://tv.poker.example:444", "poker.example", "wss"))


def session_of(user) -> str:
    client = Client()
    client.force_login(user)
    return client.cookies["sessionid"].value


def floor_socket(tournament, cookie: str, origin: str | None) -> WebsocketCommunicator:
    from config.asgi import application

    headers = [(b"host", b"127.0.0.1:8000"), (b"cookie", f"sessionid={cookie}".encode())]
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    return WebsocketCommunicator(application, f"/ws/t/{tournament.pk}/floor/", headers=headers)


@pytest.mark.django_db(transaction=True)
@pytest.mark.asyncio
@pytest.mark.parametrize("origin", ["http://127.0.0.1:1", "https://127.0.0.1:8000", "http://localhost:8081", "null", None])
async def test_a_floor_session_opens_no_socket_from_another_origin(settings, tournament, floor, origin):
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    cookie = await database_sync_to_async(session_of)(floor)
    refused = floor_socket(tournament, cookie, origin)
    connected, _code = await refused.connect()
    assert not connected
    await refused.disconnect()
    mine = floor_socket(tournament, cookie, "http://127.0.0.1:8000")
    connected, _code = await mine.connect()
    assert connected and (await mine.receive_json_from(timeout=3))["kind"] == "snapshot"
    await mine.disconnect()
