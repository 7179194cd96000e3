"""The public throttle keys on the client's address, never on an X-Forwarded-For it wrote itself."""
from __future__ import annotations

from django.core.cache import cache
from rest_framework.test import APIClient

from web.api import PublicRateThrottle


def test_a_forged_forwarded_header_does_not_escape_the_public_throttle(tournament, monkeypatch):
    cache.clear()
    monkeypatch.setattr(PublicRateThrottle, "get_rate", lambda self: "3/minute")
    url = f"/api/public/tournaments/{tournament.pk}/seats/"
    answers = [APIClient().get(url, {"q": "Jana"}, HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code for i in range(6)]
    assert answers[:3] == [200, 200, 200]
    assert answers[3:] == [429, 429, 429]
    cache.clear()
