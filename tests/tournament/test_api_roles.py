"""The JSON API's role matrix: every endpoint answers each role as core/access.py says, and a refusal changes
nothing. Every request meets the same room, made once for the module (module_db in tests/conftest.py)."""

from __future__ import annotations

import json
from datetime import date

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache

from tables.services import seats
from tables.services import setup as table_setup
from tests.conftest import make_base, read_base
from tests.helpers import client_for, id_doc
from tests.tournament.test_api import export_json, register, tournament_body
from tournament.models import AuditEvent, DisplayToken, Entry, Player, Purchase, Tournament
from tournament.services import registration, setup

# --- role matrix -------------------------------------------------------------------------

ANY = {"director", "floor", "cashier", "dealer"}
SETUP = {"director"}
REGISTER = {"director", "floor", "cashier"}
ENTRIES = {"director", "floor", "cashier"}  # names and ID checks: not a dealer (core/access.py)
CASH = {"director", "cashier", "floor"}
VOID = {"director", "cashier"}
BUST = EVENTS = SEATING = {"director", "floor"}
FLOOR_VIEW = {"director", "floor"}  # the map names players: not the cashier (core/access.py)
PUBLIC = ANY | {"anonymous"}  # no login: the room's phones

T = "/api/tournaments/{t}"
ENDPOINTS = [
    ("GET", "/api/structures/", SETUP, None),
    ("POST", "/api/structures/", SETUP, lambda w: export_json(name="Turbo")),
    ("POST", "/api/structures/import/", SETUP, lambda w: export_json(name="Imported")),
    ("GET", "/api/structures/{s}/", SETUP, None),
    ("PUT", "/api/structures/{s}/", SETUP, lambda w: export_json(name="Renamed")),
    ("POST", "/api/structures/{s}/copy/", SETUP, lambda w: {"name": "Copy"}),
    ("GET", "/api/structures/{s}/export/", SETUP, None),
    ("GET", "/api/tournaments/", ANY, None),
    ("POST", "/api/tournaments/", SETUP, lambda w: tournament_body(w["template"], name="Monday")),
    ("GET", T + "/", ANY, None),
    ("PATCH", T + "/", SETUP, lambda w: {"venue": "Casino Brno"}),
    ("GET", T + "/structure/", ANY, None),
    ("PUT", T + "/structure/", SETUP, lambda w: export_json()),
    ("POST", T + "/registration/", SETUP, lambda w: {"closed": True}),
    ("GET", T + "/stats/", ANY, None),
    ("GET", "/api/players/", REGISTER, None),
    ("POST", "/api/players/", REGISTER, lambda w: {"first_name": "Eva", "last_name": "Malá", "date_of_birth": "1970-03-04"}),
    ("GET", T + "/entries/", ENTRIES, None),
    (
        "POST",
        T + "/entries/",
        REGISTER,
        lambda w: {"player": w["player2"].pk, "document_type": "passport", "document_number": "P9876543", "seen": True},
    ),
    ("GET", T + "/entries/1/", ENTRIES, None),
    ("POST", T + "/entries/1/rebuy/", REGISTER, lambda w: {"paid": False}),
    ("POST", T + "/entries/1/addon/", REGISTER, None),
    ("POST", T + "/entries/1/bust/", BUST, None),
    ("GET", T + "/receipts/", REGISTER, None),
    ("GET", T + "/receipts/1/", REGISTER, None),
    ("POST", T + "/receipts/1/pay/", CASH, None),
    ("POST", T + "/receipts/1/void/", VOID, lambda w: {"reason": "wrong player"}),
    ("GET", T + "/events/", EVENTS, None),
    ("GET", T + "/displays/", SETUP, None),
    ("POST", T + "/displays/", SETUP, lambda w: {"label": "Lobby TV 2"}),
    ("POST", T + "/displays/{d}/revoke/", SETUP, None),
    ("GET", T + "/tables/", ANY, None),
    ("POST", T + "/tables/", SETUP, lambda w: {"number": 2, "accessible": True}),
    ("POST", T + "/draw/", SETUP, None),
    ("GET", T + "/draws/", PUBLIC, None),
    ("GET", T + "/draws/1/", PUBLIC, None),
    ("POST", T + "/draws/commit/", SEATING, None),
    ("POST", T + "/seating/waiting/", SEATING, None),
    ("POST", T + "/entries/1/seat/", SEATING, lambda w: {"table": 1, "seat": 1}),
    ("POST", T + "/entries/1/undo-bust/", BUST, None),
    ("POST", T + "/tables/1/button/", SEATING, lambda w: {}),
    ("GET", T + "/tables/break-order/", ANY, None),
    ("PUT", T + "/tables/break-order/", SETUP, lambda w: {"order": [1]}),
    ("POST", T + "/tables/1/in-play/", SETUP, lambda w: {"in_play": False}),
    ("POST", T + "/players/{p}/seat-request/", SEATING, lambda w: {"table": 1, "seat": 2}),
    ("DELETE", T + "/players/{p}/seat-request/", SEATING, None),
    ("GET", T + "/map/", FLOOR_VIEW, None),
    ("GET", "/api/public/tournaments/{t}/seats/?q=Jana", PUBLIC, None),
    ("GET", "/api/public/tournaments/{t}/seats/1/", PUBLIC, None),
]
# Allowed and answered 200, yet nothing changed: the commitment of the next draw already exists (no event).
IDEMPOTENT = {("POST", T + "/draws/commit/")}
ROLES = ("director", "floor", "cashier", "dealer", "anonymous")


REBUYS = {
    "rebuy_allowed": True,
    "rebuy_price": 5000,
    "rebuy_fee": 500,
    "rebuy_chips": 10000,
    "addon_allowed": True,
    "addon_price": 5000,
    "addon_chips": 15000,
}


@pytest.fixture(scope="module")
def made(module_db) -> dict:
    """The room every request of the matrix meets, made once for the module (module_db; each test's own changes
    are rolled back after it): the staff, a structure, a tournament with re-buys and add-ons, entry 1 with its
    receipt, a screen link, table 1 (which commits draw 1), and a second player's seat request."""
    made = make_base()
    director, cashier, floor = (User.objects.get(pk=made[role]) for role in ("director", "cashier", "floor"))
    t = setup.update_tournament(Tournament.objects.get(pk=made["tournament"]), actor=director, data=REBUYS)
    player = registration.create_player(actor=cashier, first_name="Jana", last_name="Nováková", date_of_birth=date(1990, 5, 17))
    second = registration.create_player(
        actor=cashier, first_name="Peter", last_name="Horváth", date_of_birth=date(1985, 1, 2), nickname="Ace"
    )
    registration.register_entry(t, actor=cashier, player=player, document=id_doc())
    display = registration.create_display_token(t, actor=director, label="Lobby TV 1")
    table_setup.open_table(t, actor=director, number=1, seats=9)  # also commits draw 1
    seats.set_seat_request(t, actor=floor, player=second, accessible=True)
    return {**made, "player2": second.pk, "display": display.pk}


@pytest.fixture
def world(made, db) -> dict:
    """The made room's rows, read afresh for each test."""
    cache.clear()  # the public endpoints' throttle counts in the cache
    return {**read_base(made), "player2": Player.objects.get(pk=made["player2"]), "display": DisplayToken.objects.get(pk=made["display"])}


@pytest.mark.parametrize("role", ROLES)
@pytest.mark.parametrize(("method", "path", "allowed", "body"), ENDPOINTS, ids=[f"{m} {p}" for m, p, _a, _b in ENDPOINTS])
def test_role_matrix(world, role, method, path, allowed, body):
    url = path.format(t=world["tournament"].pk, s=world["template"].pk, d=world["display"].pk, p=world["player2"].pk)
    data = body(world) if body else None
    events_before = AuditEvent.objects.count()
    payload = "" if data is None else json.dumps(data)
    response = client_for(world[role]).generic(method, url, payload, content_type="application/json")
    if role == "anonymous" and role not in allowed:
        assert response.status_code == 401, response.content
        assert AuditEvent.objects.count() == events_before
    elif role not in allowed:
        assert response.status_code == 403, response.content
        assert "role" in response.json()["detail"]
        assert response.json()["error"] == "permission_denied", "refused by the API's own role check, before any service ran"
        assert AuditEvent.objects.count() == events_before, "a refused request must change nothing"
    else:
        # Allowed: the request reaches the service; it may still be refused by a house rule (400/409), never 401/403/5xx.
        assert response.status_code in (200, 201, 204, 400, 409), response.content
        if method != "GET" and response.status_code in (200, 201, 204) and (method, path) not in IDEMPOTENT:
            assert AuditEvent.objects.count() > events_before, "a state change writes an audit event"


def test_examples_of_refusals_change_nothing(world):
    tournaments = Tournament.objects.count()
    for user in (world["dealer"], world["floor"]):
        response = client_for(user).post("/api/tournaments/", tournament_body(world["template"], name="Not allowed"), format="json")
        assert response.status_code == 403
    assert Tournament.objects.count() == tournaments
    response = register(client_for(world["dealer"]), world["tournament"], world["player2"], "P9876543")
    assert response.status_code == 403 and Entry.objects.count() == 1
    assert client_for(world["cashier"]).get(f"/api/tournaments/{world['tournament'].pk}/events/").status_code == 403
    response = client_for(world["floor"]).post(
        f"/api/tournaments/{world['tournament'].pk}/receipts/1/void/", {"reason": "mistake"}, format="json"
    )
    assert response.status_code == 403
    assert Purchase.objects.get(number=1).status == Purchase.Status.PAID
