"""The public throttle and the login lockout key on the client's address, never on an X-Forwarded-For it wrote itself."""

from __future__ import annotations

import http.client
import json

from django.core.cache import cache
from rest_framework.test import APIClient

from tests import production
from tests.conftest import PASSWORD
from web.api import PublicAddressThrottle


def test_a_forged_forwarded_header_does_not_escape_the_public_throttle(tournament, monkeypatch):
    cache.clear()
    monkeypatch.setattr(PublicAddressThrottle, "get_rate", lambda self: "3/minute")  # the address's ceiling
    url = f"/api/public/tournaments/{tournament.pk}/seats/"
    answers = [APIClient().get(url, {"q": "Jana"}, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code for i in range(6)]
    assert answers[:3] == [200, 200, 200]
    assert answers[3:] == [429, 429, 429]
    cache.clear()


def login_over_http(port: int, source: str, forwarded_for: str, password: str) -> int:
    """POST /api/auth/token/ from `source` (an address of this machine), as if through TLS, naming a client."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(source, 0))
    body = json.dumps({"username": "floor1", "password": password})
    connection.request(
        "POST",
        "/api/auth/token/",
        body,
        headers={"Host": "localhost", "Content-Type": "application/json", "X-Forwarded-Proto": "https", "X-Forwarded-For": forwarded_for},
    )
    status = connection.getresponse().status
    connection.close()
    return status


def test_a_forged_forwarded_header_does_not_escape_the_login_lockout(tmp_path):
    """The production server (compose's web command and environment: FORWARDED_ALLOW_IPS defaults to
    loopback 127.0.0.1, the proxy). A client at 127.0.0.5, not the proxy, fails the login
    AXES_FAILURE_LIMIT times, then names another address in X-Forwarded-For with the right password:
    still locked out. The same header from the proxy's address is believed (a different client, not
    locked), so the header is honoured exactly where it should be."""
    create = f"from django.contrib.auth.models import User; User.objects.create_user('floor1', password={PASSWORD!r})"
    with production.web_server(tmp_path, prepare=create) as (port, env):
        assert env["FORWARDED_ALLOW_IPS"] == "127.0.0.1"
        limit = int(env.get("AXES_FAILURE_LIMIT", "5"))
        attempts = [login_over_http(port, "127.0.0.5", f"198.51.100.{i}", "wrong") for i in range(limit)]
        assert attempts[:-1] == [400] * (limit - 1) and attempts[-1] in (400, 429)
        assert login_over_http(port, "127.0.0.5", "203.0.113.9", PASSWORD) == 429
        assert login_over_http(port, "127.0.0.5", "127.0.0.1", PASSWORD) == 429
        assert login_over_http(port, "127.0.0.1", "203.0.113.9", PASSWORD) == 200  # through the proxy: another client
