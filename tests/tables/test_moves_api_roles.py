"""The balancing JSON API refuses every role but the floor's and the director's, and a refusal changes nothing.
Every request meets the same room, made once for the module (module_db in tests/conftest.py)."""

from __future__ import annotations

import json

import pytest

from tables.models import Move
from tests.conftest import make_base, read_base
from tests.helpers import client_for, url
from tests.tables.test_moves import bust_at, seated, start
from tournament.models import AuditEvent


@pytest.fixture(scope="module")
def made(module_db) -> dict:
    """Three tables (7, 7, 6); a bust at the short one makes one pending balancing slip (test_moves_api's slip)."""
    made = make_base()
    base = read_base(made)
    tournament = base["tournament"]
    start(base["director"], base["cashier"], tournament, 20)
    counts = {t: len(s) for t, s in seated(tournament).items()}
    bust_at(base["floor"], tournament, min(counts, key=lambda t: (counts[t], t)))
    return {**made, "slip": Move.objects.get(tournament=tournament, status=Move.Status.PENDING).pk}


@pytest.fixture
def world(made, db) -> dict:
    return {**read_base(made), "slip": made["slip"]}


ENDPOINTS = [
    ("GET", "moves/", None),
    ("POST", "moves/balance/", None),
    ("POST", "moves/{n}/confirm/", None),
    ("POST", "moves/{n}/cancel/", {"reason": "no"}),
    ("POST", "tables/{t}/positions/", {"button": 1}),
]


@pytest.mark.parametrize("role", ("cashier", "dealer", "anonymous"))
@pytest.mark.parametrize(("method", "path", "body"), ENDPOINTS, ids=[f"{m} {p}" for m, p, _b in ENDPOINTS])
def test_other_roles_are_refused(world, role, method, path, body):
    user, tournament = world[role], world["tournament"]
    slip = Move.objects.select_related("from_table").get(pk=world["slip"])
    path = path.format(n=slip.number, t=slip.from_table.number)
    events = AuditEvent.objects.count()
    response = client_for(user).generic(
        method, url(tournament, path), "" if body is None else json.dumps(body), content_type="application/json"
    )
    if role == "anonymous":
        assert response.status_code == 401
    else:
        assert response.status_code == 403 and "role" in response.json()["detail"]
    assert AuditEvent.objects.count() == events
    slip.refresh_from_db()
    assert slip.status == Move.Status.PENDING
