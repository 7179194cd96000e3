"""Password spraying: one password tried against many usernames from one address is refused for a
while (web/login_guard.py), through the real log-in page and the API's token exchange; a room's tablets behind one NAT,
mistyping and then logging in, are never slowed; a forged X-Forwarded-For is no way out."""

from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt
from django.test import Client
from django.utils import timezone

from tests.conftest import PASSWORD, make_user

SPRAYER = "203.0.113.7"
ROOM = "198.51.100.20"


@pytest.fixture(autouse=True)
def limit(settings):
    settings.LOGIN_SPRAY_USERNAMES = 4
    settings.LOGIN_SPRAY_MINUTES = 15


def log_in(username: str, password: str, address: str, **headers):
    return Client().post("/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=address, **headers)


def token(username: str, password: str, address: str):
    return Client().post(
        "/api/auth/token/", {"username": username, "password": password}, content_type="application/json", REMOTE_ADDR=address
    )


def test_one_password_tried_against_many_usernames_from_one_address_is_refused(db):
    make_user("floor1", "Floor")
    tried = [log_in(name, "Summer2026!", SPRAYER).status_code for name in ("anna", "boris", "cyril", "dana")]
    assert tried == [200, 200, 200, 200]  # the log-in page again, "wrong username or password"
    # Four usernames have failed from this address: every log-in from it now waits, the right password too, and
    # naming another address in X-Forwarded-For changes nothing (the server believes it only from its proxy).
    for name, password, forged in (
        ("emil", "Summer2026!", {}),
        ("floor1", PASSWORD, {}),
        ("floor1", PASSWORD, {"HTTP_X_FORWARDED_FOR": "192.0.2.44"}),
    ):
        refused = log_in(name, password, SPRAYER, **forged)
        assert refused.status_code == 429, name
        assert 'id="login-sprayed"' in refused.content.decode() and "15 minutes" in refused.content.decode()
        assert "_auth_user_id" not in refused.wsgi_request.session
    api = token("floor1", PASSWORD, SPRAYER)
    assert api.status_code == 429 and api.json()["error"] == "address_slowed"
    assert "paused for up to 15 minutes" in api.json()["detail"]
    # A refused attempt counts as axes counts one during its lockout: a sprayer who goes on stays slowed.
    assert AccessAttempt.objects.filter(ip_address=SPRAYER, username="emil").exists()
    # Another address is not touched.
    assert log_in("floor1", PASSWORD, "192.0.2.10").status_code == 302
    # The window passes: the address logs in again.
    AccessAttempt.objects.update(attempt_time=timezone.now() - timedelta(minutes=16))
    assert log_in("floor1", PASSWORD, SPRAYER).status_code == 302


def test_a_busy_room_behind_one_address_is_never_slowed(db):
    """Twelve members of the staff on the tablets behind the room's NAT each mistype their password, some twice, and
    then log in: a username that logs in is forgotten, so the address never counts four usernames failing."""
    staff = [make_user(f"staff{i}", "Floor") for i in range(12)]
    for i, user in enumerate(staff):
        for _ in range(1 + i % 2):
            assert log_in(user.username, "typo", ROOM).status_code == 200
        assert log_in(user.username, PASSWORD, ROOM).status_code == 302, user.username
    assert token("staff0", PASSWORD, ROOM).status_code == 200
    # Three usernames failing and not logging in (a new member unsure of his name) still leave the room alone.
    for name in ("novak", "novák", "jnovak"):
        log_in(name, PASSWORD, ROOM)
    assert log_in("staff1", PASSWORD, ROOM).status_code == 302
