"""The seating JSON API's roles: every endpoint refuses the other roles and anonymous, and a refusal changes
nothing. Every request meets the same room, made once for the module (module_db in tests/conftest.py)."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache

from tests.conftest import make_base, read_base
from tests.helpers import client_for, open_tables, register, url
from tournament.models import AuditEvent


@pytest.fixture(scope="module")
def made(module_db) -> dict:
    """Two open tables of 9 and six entries, not drawn yet (tests/tables/test_api.py's room)."""
    made = make_base()
    base = read_base(made)
    open_tables(base["director"], base["tournament"], [1, 2])
    entries = register(base["cashier"], base["tournament"], 6)
    return {**made, "player": entries[0].player_id}


@pytest.fixture
def world(made, db) -> dict:
    cache.clear()  # the public throttle counts in the cache
    return {**read_base(made), "player": made["player"]}


# --- roles: every endpoint refuses the other roles and anonymous, and changes nothing -------------

STAFF = ("director", "floor", "cashier", "dealer")
DIRECTOR = {"director"}
FLOOR = {"director", "floor"}
FLOOR_VIEW = {"director", "floor"}  # the map names players: not the cashier (core/access.py)
ENDPOINTS = [
    ("POST", "draw/", DIRECTOR, None),
    ("POST", "draws/commit/", FLOOR, None),
    ("POST", "seating/waiting/", FLOOR, None),
    ("POST", "entries/1/seat/", FLOOR, {"table": 2, "seat": 1}),
    ("POST", "entries/1/undo-bust/", FLOOR, None),
    ("POST", "tables/1/button/", FLOOR, {"seat": 1}),
    ("PUT", "tables/break-order/", DIRECTOR, {"order": [2, 1]}),
    ("POST", "tables/2/in-play/", DIRECTOR, {"in_play": False}),
    ("POST", "players/{p}/seat-request/", FLOOR, {"accessible": True}),
    ("DELETE", "players/{p}/seat-request/", FLOOR, None),
    ("GET", "map/", FLOOR_VIEW, None),
    ("POST", "tables/", DIRECTOR, {"number": 3, "accessible": True}),
]


@pytest.mark.parametrize("role", (*STAFF, "anonymous"))
@pytest.mark.parametrize(("method", "path", "allowed", "body"), ENDPOINTS, ids=[f"{m} {p}" for m, p, _a, _b in ENDPOINTS])
def test_roles(world, role, method, path, allowed, body):
    user, tournament = world[role], world["tournament"]
    path = path.format(p=world["player"])
    events = AuditEvent.objects.count()
    response = client_for(user).generic(
        method, url(tournament, path), "" if body is None else json.dumps(body), content_type="application/json"
    )
    if role == "anonymous":
        assert response.status_code == 401
    elif role not in allowed:
        assert response.status_code == 403 and "role" in response.json()["detail"]
    else:
        assert response.status_code in (200, 201, 204, 404, 409), response.content
        return
    assert AuditEvent.objects.count() == events
