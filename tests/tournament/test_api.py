"""The JSON API: roles, token auth, registration with ID checks, structures, receipts, events, displays, schema."""

from __future__ import annotations

import logging
from datetime import date

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from tests.conftest import BASIC_SPEC, PASSWORD, tournament_data
from tests.helpers import client_for, id_doc
from tests.tournament.test_registration import years_before
from tournament.models import AuditEvent, DisplayToken, Entry, IdCheck, Player, Purchase, Structure, Tournament
from tournament.rules import structure as rules
from tournament.services import registration, setup
from web.models import ApiToken

DOCUMENT = "EA 123-4567"
DOCUMENT_VARIANTS = ("EA 123-4567", "EA1234567", "1234567")


def export_json(**overrides) -> dict:
    data = rules.to_json(BASIC_SPEC)
    data.update(overrides)
    return data


def tournament_body(template: Structure, **overrides) -> dict:
    body = tournament_data(**overrides)
    body["start_at"] = body["start_at"].isoformat()
    body["template"] = template.pk
    return body


def register(client: APIClient, tournament: Tournament, player: Player, number: str = DOCUMENT, document_type: str = "id_card"):
    return client.post(
        f"/api/tournaments/{tournament.pk}/entries/",
        {"player": player.pk, "document_type": document_type, "document_number": number, "seen": True},
        format="json",
    )


@pytest.fixture
def rebuy_tournament(director, tournament):
    return setup.update_tournament(
        tournament,
        actor=director,
        data={
            "rebuy_allowed": True,
            "rebuy_price": 5000,
            "rebuy_fee": 500,
            "rebuy_chips": 10000,
            "addon_allowed": True,
            "addon_price": 5000,
            "addon_chips": 15000,
        },
    )


@pytest.fixture
def second_player(cashier):
    return registration.create_player(
        actor=cashier, first_name="Peter", last_name="Horváth", date_of_birth=date(1985, 1, 2), nickname="Ace"
    )


def test_anonymous_gets_401_with_token_challenge(tournament):
    response = APIClient().get(f"/api/tournaments/{tournament.pk}/")
    assert response.status_code == 401
    assert response["WWW-Authenticate"] == "Token"


# --- token authentication ----------------------------------------------------------------


def test_token_auth_obtain_and_use(floor, tournament, player, cashier):
    registration.register_entry(tournament, actor=cashier, player=player, document=id_doc())
    response = APIClient().post("/api/auth/token/", {"username": "floor", "password": PASSWORD}, format="json")
    assert response.status_code == 200
    body = response.json()
    assert body["roles"] == ["Floor"] and body["username"] == "floor"
    assert ApiToken.objects.get(user=floor).pk == body["id"]

    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"Token {body['token']}")
    assert tablet.get("/api/tournaments/").json()[0]["id"] == tournament.pk
    busted = tablet.post(f"/api/tournaments/{tournament.pk}/entries/1/bust/")
    assert busted.status_code == 200 and busted.json()["status"] == "busted"
    assert AuditEvent.objects.get(type="entry.busted").actor == floor

    again = APIClient().post("/api/auth/token/", {"username": "floor", "password": PASSWORD}, format="json")
    assert again.json()["token"] != body["token"], "each login makes a new token (the server cannot show an old one)"


def test_token_refused_for_wrong_password_and_bad_token(floor):
    response = APIClient().post("/api/auth/token/", {"username": "floor", "password": "wrong"}, format="json")
    assert response.status_code == 400
    assert "Wrong username or password" in response.json()["detail"]
    assert not ApiToken.objects.exists()
    missing = APIClient().post("/api/auth/token/", {"username": "floor"}, format="json")
    assert missing.status_code == 400 and "password" in missing.json()["fields"]
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION="Token not-a-real-token")
    assert tablet.get("/api/tournaments/").status_code == 401


def test_token_login_is_rate_limited_by_axes(floor):
    client = APIClient()
    for _attempt in range(settings.AXES_FAILURE_LIMIT):
        client.post("/api/auth/token/", {"username": "floor", "password": "guess"}, format="json")
    response = client.post("/api/auth/token/", {"username": "floor", "password": PASSWORD}, format="json")
    assert response.status_code == 429
    assert "locked" in response.json()["detail"]
    assert not ApiToken.objects.exists()


# --- registration with the ID check ------------------------------------------------------


def test_register_without_id_fields_is_400_and_creates_nothing(cashier, tournament, player):
    response = client_for(cashier).post(f"/api/tournaments/{tournament.pk}/entries/", {"player": player.pk}, format="json")
    assert response.status_code == 400
    errors = response.json()["fields"]
    assert "no entry without an ID check" in errors["document_number"][0]
    assert "no entry without an ID check" in errors["document_type"][0]
    blank = register(client_for(cashier), tournament, player, number="   ")
    assert blank.status_code == 400 and "no entry without an ID check" in blank.json()["fields"]["document_number"][0]
    assert not Entry.objects.exists() and not IdCheck.objects.exists() and not Purchase.objects.exists()
    assert not AuditEvent.objects.filter(type="entry.registered").exists()


def test_register_without_the_in_person_check_is_400_and_creates_nothing(cashier, tournament, player):
    """The screen asks the cashier to confirm the document was seen in person; the API asks every client the same."""
    url = f"/api/tournaments/{tournament.pk}/entries/"
    body = {"player": player.pk, "document_type": "id_card", "document_number": DOCUMENT}
    for seen in ({}, {"seen": False}, {"seen": None}):
        response = client_for(cashier).post(url, {**body, **seen}, format="json")
        assert response.status_code == 400, seen
        answer = response.json()
        assert answer["error"] == "invalid" and list(answer["fields"]) == ["seen"]
        assert "checked the ID document in person" in answer["fields"]["seen"][0]
        assert "checked the ID document in person" in answer["detail"]
        assert DOCUMENT not in response.content.decode()
    assert not Entry.objects.exists() and not IdCheck.objects.exists() and not Purchase.objects.exists()
    assert not AuditEvent.objects.filter(type="entry.registered").exists()


def test_register_too_short_or_unknown_document_is_400(cashier, tournament, player):
    short = register(client_for(cashier), tournament, player, number="12-3")
    assert short.status_code == 400
    assert short.json()["error"] == "id_number_short"
    unknown = register(client_for(cashier), tournament, player, document_type="library_card")
    assert unknown.status_code == 400 and "document_type" in unknown.json()["fields"]
    assert not Entry.objects.exists() and not IdCheck.objects.exists()


def test_register_returns_last4_and_never_the_number(cashier, tournament, player, caplog):
    with caplog.at_level(logging.DEBUG):
        response = register(client_for(cashier), tournament, player)
    assert response.status_code == 201
    body = response.json()
    assert body == {
        "number": 1,
        "kind": "entry",
        "status": "active",
        "receipt": 1,
        "id_check": {"document_type": "id_card", "last4": "4567"},
        "player": {"id": player.pk, "display_name": "Jana Nováková"},
    }
    for variant in DOCUMENT_VARIANTS:
        assert variant not in response.content.decode()
        assert variant not in caplog.text
    entry = Entry.objects.get()
    assert entry.id_check.checked_by == cashier and entry.purchases.get().number == 1
    detail = client_for(cashier).get(f"/api/tournaments/{tournament.pk}/entries/1/").json()
    assert detail["player"]["display_name"] == "Jana Nováková" and "id_hmac" not in str(detail)


def test_register_duplicate_document_is_409(cashier, tournament, player, second_player, caplog):
    assert register(client_for(cashier), tournament, player).status_code == 201
    with caplog.at_level(logging.DEBUG):
        other = register(client_for(cashier), tournament, second_player, number="ea1234567")
    assert other.status_code == 409
    assert other.json()["error"] == "id_other_player"
    assert "Jana Nováková" in other.json()["detail"]
    for variant in DOCUMENT_VARIANTS + ("ea1234567",):
        assert variant not in other.content.decode() and variant not in caplog.text
    twice = register(client_for(cashier), tournament, player)
    assert twice.status_code == 409 and twice.json()["error"] == "live_entry_exists"
    assert Entry.objects.count() == 1 and Purchase.objects.count() == 1


def test_register_refused_when_registration_closed(director, cashier, tournament, player):
    closed = client_for(director).post(f"/api/tournaments/{tournament.pk}/registration/", {"closed": True}, format="json")
    assert closed.status_code == 200 and closed.json() == {"registration_closed": True, "registration_open": False}
    response = register(client_for(cashier), tournament, player)
    assert response.status_code == 409 and response.json()["error"] == "registration_closed"
    assert not Entry.objects.exists()
    missing = client_for(director).post(f"/api/tournaments/{tournament.pk}/registration/", {}, format="json")
    assert missing.status_code == 400 and "closed" in missing.json()["fields"]
    reopened = client_for(director).post(f"/api/tournaments/{tournament.pk}/registration/", {"closed": False}, format="json")
    assert reopened.json()["registration_open"] is True
    assert register(client_for(cashier), tournament, player).status_code == 201


def test_reentry_after_bust(cashier, floor, tournament, player):
    register(client_for(cashier), tournament, player)
    assert client_for(floor).post(f"/api/tournaments/{tournament.pk}/entries/1/bust/").json()["finish_place"] == 1
    again = register(client_for(cashier), tournament, player)
    assert again.status_code == 201 and again.json()["kind"] == "reentry" and again.json()["number"] == 2
    entries = client_for(floor).get(f"/api/tournaments/{tournament.pk}/entries/?status=active").json()
    assert [e["number"] for e in entries] == [2]
    bad = client_for(floor).get(f"/api/tournaments/{tournament.pk}/entries/?status=sleeping")
    assert bad.status_code == 400


# --- structures --------------------------------------------------------------------------


def test_structure_export_import_round_trip(director, template):
    client = client_for(director)
    exported = client.get(f"/api/structures/{template.pk}/export/").json()
    assert exported == rules.to_json(BASIC_SPEC)
    imported = client.post("/api/structures/import/", exported, format="json")
    assert imported.status_code == 201
    new_id = imported.json()["id"]
    assert new_id != template.pk and imported.json()["is_template"] is True
    assert client.get(f"/api/structures/{new_id}/export/").json() == exported
    listed = client.get("/api/structures/").json()
    assert {s["id"] for s in listed} == {template.pk, new_id}
    summary = next(s for s in listed if s["id"] == new_id)
    assert (summary["levels"], summary["breaks"], summary["chips"]) == (4, 1, [25, 100, 500, 1000])
    assert AuditEvent.objects.filter(type="structure.imported", payload__structure=new_id).exists()


def test_structure_create_replace_copy_and_detail(director, template):
    client = client_for(director)
    created = client.post("/api/structures/", export_json(name="Turbo"), format="json")
    assert created.status_code == 201
    sid = created.json()["id"]
    detail = client.get(f"/api/structures/{sid}/").json()
    assert detail["name"] == "Turbo" and [c["value"] for c in detail["chips"]] == [25, 100, 500, 1000]
    assert [row["kind"] for row in detail["levels"]] == ["level", "level", "break", "level", "level"]
    assert detail["levels"][2]["color_up"] == [25]

    faster = export_json(name="Turbo 10")
    for row in faster["levels"]:
        row["minutes"] = 10
    replaced = client.put(f"/api/structures/{sid}/", faster, format="json")
    assert replaced.status_code == 200
    assert {row["minutes"] for row in replaced.json()["levels"]} == {10} and replaced.json()["name"] == "Turbo 10"

    copy = client.post(f"/api/structures/{sid}/copy/", {"name": "Turbo copy"}, format="json")
    assert copy.status_code == 201 and copy.json()["name"] == "Turbo copy" and copy.json()["id"] not in (sid, template.pk)
    unnamed = client.post(f"/api/structures/{sid}/copy/", {"name": " "}, format="json")
    assert unnamed.status_code == 400 and unnamed.json()["fields"]["name"] == ["Give the copy a name."]
    assert client.get("/api/structures/999999/").status_code == 404


def test_invalid_structure_is_400_with_problem_messages(director, template):
    count = Structure.objects.count()
    bad = export_json(
        levels=[
            {"kind": "break", "minutes": 10, "color_up": []},
            {"kind": "level", "minutes": 20, "small_blind": 200, "big_blind": 400, "ante": 0, "ante_type": "none"},
            {"kind": "level", "minutes": 20, "small_blind": 100, "big_blind": 200, "ante": 0, "ante_type": "none"},
        ]
    )
    for url in ("/api/structures/", "/api/structures/import/", f"/api/structures/{template.pk}/"):
        method = "put" if url.endswith(f"/{template.pk}/") else "post"
        response = getattr(client_for(director), method)(url, bad, format="json")
        assert response.status_code == 400, url
        body = response.json()
        assert body["error"] == "structure_invalid"
        assert "The structure cannot start with a break." in body["problems"]
        assert "Level 2: the blinds are lower than in level 1; blinds must rise." in body["problems"]
    assert Structure.objects.count() == count
    assert setup.export_structure(template) == rules.to_json(BASIC_SPEC), "a refused replace changes nothing"


def test_malformed_structure_is_400_with_field_messages(director):
    count = Structure.objects.count()
    wrong_format = client_for(director).post("/api/structures/import/", export_json(format="spreadsheet"), format="json")
    assert wrong_format.status_code == 400
    assert "not a structure export" in wrong_format.json()["fields"]["format"][0]
    wrong_version = client_for(director).post("/api/structures/", export_json(version=7), format="json")
    assert "Version 7" in wrong_version.json()["fields"]["version"][0]
    no_blinds = export_json(levels=[{"kind": "level", "minutes": 20}])
    response = client_for(director).post("/api/structures/", no_blinds, format="json")
    assert response.status_code == 400
    assert "small blind and a big blind" in str(response.json()["fields"])
    assert Structure.objects.count() == count


def test_tournament_structure_replace(director, floor, tournament):
    slower = export_json(name="Sunday slow")
    for row in slower["levels"]:
        row["minutes"] = 30
    response = client_for(director).put(f"/api/tournaments/{tournament.pk}/structure/", slower, format="json")
    assert response.status_code == 200 and response.json() == slower
    assert client_for(floor).get(f"/api/tournaments/{tournament.pk}/structure/").json() == slower
    assert AuditEvent.objects.filter(tournament=tournament, type="tournament.structure_changed").count() == 1
    odd_chips = export_json(
        chips=[{"value": 300, "colour": "red"}],
        levels=[{"kind": "level", "minutes": 20, "small_blind": 300, "big_blind": 600, "ante": 0, "ante_type": "none"}],
    )
    refused = client_for(director).put(f"/api/tournaments/{tournament.pk}/structure/", odd_chips, format="json")
    assert refused.status_code == 400
    assert any("starting stack" in p for p in refused.json()["problems"])


# --- tournaments -------------------------------------------------------------------------


def test_create_update_and_read_tournament(director, dealer, template):
    response = client_for(director).post("/api/tournaments/", tournament_body(template, name="Monday Turbo"), format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["name"] == "Monday Turbo" and body["final_table_size"] == 10 and body["status"] == "setup"
    tournament = Tournament.objects.get(pk=body["id"])
    assert tournament.structure_id != template.pk and not tournament.structure.is_template
    assert AuditEvent.objects.filter(tournament=tournament, type="tournament.created").exists()

    patched = client_for(director).patch(f"/api/tournaments/{tournament.pk}/", {"venue": "Casino Brno"}, format="json")
    assert patched.status_code == 200 and patched.json()["venue"] == "Casino Brno"
    change = AuditEvent.objects.get(tournament=tournament, type="tournament.changed")
    assert change.payload["changed"]["venue"] == {"from": "Casino Bratislava", "to": "Casino Brno"}

    seen = client_for(dealer).get(f"/api/tournaments/{tournament.pk}/").json()
    assert seen["venue"] == "Casino Brno"
    assert client_for(dealer).get("/api/tournaments/999999/").status_code == 404


def test_invalid_tournament_is_400_and_creates_nothing(director, template):
    count = Tournament.objects.count()
    six_max = client_for(director).post("/api/tournaments/", tournament_body(template, table_format="six_max"), format="json")
    assert six_max.status_code == 400
    assert six_max.json()["error"] == "tournament_invalid"
    assert "A 6-max tournament has at most 6 seats per table." in six_max.json()["problems"]
    currency = client_for(director).post("/api/tournaments/", tournament_body(template, currency="euro"), format="json")
    assert currency.status_code == 400 and "currency" in currency.json()["fields"]
    zone = client_for(director).post("/api/tournaments/", tournament_body(template, time_zone="Mars/Olympus"), format="json")
    assert zone.status_code == 400 and "Unknown time zone" in zone.json()["fields"]["time_zone"][0]
    body = tournament_body(template)
    body["template"] = 999999
    no_template = client_for(director).post("/api/tournaments/", body, format="json")
    assert no_template.json()["fields"]["template"] == ["There is no structure template with id 999999."]
    assert Tournament.objects.count() == count


def test_update_refused_after_entries_for_buy_in(director, cashier, tournament, player):
    register(client_for(cashier), tournament, player)
    response = client_for(director).patch(f"/api/tournaments/{tournament.pk}/", {"buy_in": 20000}, format="json")
    assert response.status_code == 400 and response.json()["error"] == "buy_in_locked"
    tournament.refresh_from_db()
    assert tournament.buy_in == 10000


def test_stats(dealer, cashier, tournament, player, second_player):
    register(client_for(cashier), tournament, player)
    register(client_for(cashier), tournament, second_player, number="P7654321", document_type="passport")
    stats = client_for(dealer).get(f"/api/tournaments/{tournament.pk}/stats/").json()
    assert (stats["entries"], stats["players_left"], stats["collected"], stats["chips_in_play"]) == (2, 2, 20000, 40000)
    assert stats["prize_pool"] == 500000 and stats["average_stack"] == 20000 and stats["currency"] == "EUR"


# --- players -----------------------------------------------------------------------------


def test_player_search_returns_names_only(floor, cashier, tournament, player, second_player):
    register(client_for(cashier), tournament, player)
    response = client_for(floor).get("/api/players/", {"q": "nová jana"})
    assert response.status_code == 200
    found = response.json()
    assert [p["id"] for p in found] == [player.pk]
    assert set(found[0]) == {"id", "first_name", "last_name", "nickname", "date_of_birth"}
    assert "id_hmac" not in response.content.decode() and Player.objects.get(pk=player.pk).id_hmac
    assert [p["id"] for p in client_for(floor).get("/api/players/", {"q": "ace"}).json()] == [second_player.pk]
    assert client_for(floor).get("/api/players/", {"q": "nobody"}).json() == []


def test_create_player(cashier):
    response = client_for(cashier).post(
        "/api/players/",
        {"first_name": " Eva ", "last_name": "Malá", "date_of_birth": "1970-03-04", "email": "eva@example.com"},
        format="json",
    )
    assert response.status_code == 201
    assert response.json()["first_name"] == "Eva" and "email" not in response.json()
    assert Player.objects.get(pk=response.json()["id"]).created_by == cashier
    young = client_for(cashier).post(
        "/api/players/",
        {"first_name": "Kid", "last_name": "Young", "date_of_birth": years_before(date.today(), 10).isoformat()},
        format="json",
    )
    assert young.status_code == 400 and young.json()["error"] == "under_age"
    bad_email = client_for(cashier).post(
        "/api/players/", {"first_name": "A", "last_name": "B", "date_of_birth": "1970-01-01", "email": "not-an-email"}, format="json"
    )
    assert bad_email.status_code == 400 and "email" in bad_email.json()["fields"]
    assert Player.objects.count() == 1


# --- re-buys, add-ons, receipts ----------------------------------------------------------


def test_rebuy_pay_and_void(floor, cashier, rebuy_tournament, player):
    t = rebuy_tournament.pk
    register(client_for(cashier), rebuy_tournament, player)
    announced = client_for(floor).post(f"/api/tournaments/{t}/entries/1/rebuy/", {"paid": False}, format="json")
    assert announced.status_code == 201
    expected = {
        "number": 2,
        "entry": 1,
        "kind": "rebuy",
        "status": "announced",
        "amount": 5000,
        "fee": 500,
        "total": 5500,
        "chips": 10000,
        "paid_at": None,
    }
    assert {key: announced.json()[key] for key in expected} == expected
    waiting = client_for(cashier).get(f"/api/tournaments/{t}/receipts/", {"status": "announced"}).json()
    assert [r["number"] for r in waiting] == [2]

    paid = client_for(cashier).post(f"/api/tournaments/{t}/receipts/2/pay/")
    assert paid.status_code == 200 and paid.json()["status"] == "paid"
    twice = client_for(cashier).post(f"/api/tournaments/{t}/receipts/2/pay/")
    assert twice.status_code == 409 and twice.json()["error"] == "not_announced"

    no_reason = client_for(cashier).post(f"/api/tournaments/{t}/receipts/2/void/", {}, format="json")
    assert no_reason.status_code == 400 and no_reason.json()["fields"]["reason"] == ["Give a reason for voiding."]
    too_much = client_for(cashier).post(f"/api/tournaments/{t}/receipts/2/void/", {"reason": "typo", "refund_amount": 9999}, format="json")
    assert too_much.status_code == 400 and too_much.json()["error"] == "refund_range"
    voided = client_for(cashier).post(f"/api/tournaments/{t}/receipts/2/void/", {"reason": "typo", "refund_amount": 5000}, format="json")
    assert voided.status_code == 200
    assert (voided.json()["status"], voided.json()["refund_amount"], voided.json()["void_reason"]) == ("voided", 5000, "typo")
    assert Entry.objects.get().status == Entry.Status.ACTIVE, "voiding a re-buy keeps the entry"
    by_entry = client_for(floor).get(f"/api/tournaments/{t}/receipts/", {"entry": 1}).json()
    assert [(r["number"], r["status"]) for r in by_entry] == [(1, "paid"), (2, "voided")]


def test_addon_and_limits(floor, cashier, tournament, rebuy_tournament, player):
    register(client_for(cashier), rebuy_tournament, player)
    addon = client_for(floor).post(f"/api/tournaments/{rebuy_tournament.pk}/entries/1/addon/")
    assert addon.status_code == 201 and (addon.json()["kind"], addon.json()["status"], addon.json()["chips"]) == ("addon", "paid", 15000)
    second = client_for(floor).post(f"/api/tournaments/{rebuy_tournament.pk}/entries/1/addon/")
    assert second.status_code == 409 and second.json()["error"] == "addon_limit"
    assert client_for(floor).post(f"/api/tournaments/{rebuy_tournament.pk}/entries/9/addon/").status_code == 404


def test_void_buy_in_voids_entry_and_bust_twice_is_409(floor, cashier, tournament, player, second_player):
    register(client_for(cashier), tournament, player)
    register(client_for(cashier), tournament, second_player, number="P7654321", document_type="passport")
    voided = client_for(cashier).post(f"/api/tournaments/{tournament.pk}/receipts/1/void/", {"reason": "wrong player"}, format="json")
    assert voided.status_code == 200 and voided.json()["refund_amount"] == 11500
    assert Entry.objects.get(number=1).status == Entry.Status.VOIDED
    busted = client_for(floor).post(f"/api/tournaments/{tournament.pk}/entries/2/bust/")
    assert busted.status_code == 200 and busted.json()["finish_place"] == 1
    again = client_for(floor).post(f"/api/tournaments/{tournament.pk}/entries/2/bust/")
    assert again.status_code == 409 and again.json()["error"] == "entry_not_active"


# --- events ------------------------------------------------------------------------------


def test_events_in_sequence_with_after_and_paging(director, floor, cashier, tournament, player, second_player):
    register(client_for(cashier), tournament, player)
    register(client_for(cashier), tournament, second_player, number="P7654321", document_type="passport")
    client_for(floor).post(f"/api/tournaments/{tournament.pk}/entries/1/bust/")
    url = f"/api/tournaments/{tournament.pk}/events/"
    everything = client_for(floor).get(url).json()
    seqs = [e["seq"] for e in everything["events"]]
    assert seqs == list(range(1, len(seqs) + 1)), "gap-free, in sequence order"
    assert [e["type"] for e in everything["events"]][-3:] == ["entry.registered", "entry.registered", "entry.busted"]
    assert everything["more"] is False and everything["last_seq"] == seqs[-1]
    assert everything["events"][-1]["actor"] == "floor"

    later = client_for(director).get(url, {"after": seqs[-2]}).json()
    assert [e["seq"] for e in later["events"]] == [seqs[-1]]
    page = client_for(floor).get(url, {"after": 0, "limit": 2}).json()
    assert [e["seq"] for e in page["events"]] == seqs[:2] and page["more"] is True and page["last_seq"] == seqs[1]
    assert client_for(floor).get(url, {"limit": 501}).status_code == 400
    assert client_for(floor).get(url, {"after": "x"}).status_code == 400
    none_left = client_for(floor).get(url, {"after": seqs[-1]}).json()
    assert none_left == {"events": [], "last_seq": seqs[-1], "more": False}


# --- display tokens ----------------------------------------------------------------------


def test_display_tokens(director, tournament):
    client = client_for(director)
    created = client.post(f"/api/tournaments/{tournament.pk}/displays/", {"label": "Lobby TV 1"}, format="json")
    assert created.status_code == 201
    body = created.json()
    token = DisplayToken.objects.get(pk=body["id"])
    assert body["active"] is True and body["url"].endswith(f"/display/{body['token']}/") and body["prefix"] == body["token"][:6]
    assert DisplayToken.objects.for_link(body["token"]).get() == token, "the link's secret finds its screen by hash"
    listed = client.get(f"/api/tournaments/{tournament.pk}/displays/").json()
    assert [(d["id"], d["prefix"], d["token"], d["url"]) for d in listed] == [(token.pk, token.prefix, None, None)]
    unnamed = client.post(f"/api/tournaments/{tournament.pk}/displays/", {"label": ""}, format="json")
    assert unnamed.status_code == 400 and "Lobby TV 1" in unnamed.json()["fields"]["label"][0]
    revoked = client.post(f"/api/tournaments/{tournament.pk}/displays/{token.pk}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["active"] is False and revoked.json()["revoked_at"]
    again = client.post(f"/api/tournaments/{tournament.pk}/displays/{token.pk}/revoke/")
    assert again.status_code == 409 and again.json()["error"] == "already_revoked"


# --- schema and docs ---------------------------------------------------------------------


def test_schema_endpoint(db):
    response = APIClient().get("/api/schema/", {"format": "json"})
    assert response.status_code == 200
    schema = response.json()
    assert "/api/tournaments/{id}/entries/" in schema["paths"]
    register_request = schema["components"]["schemas"]["RegisterRequest"]["properties"]
    assert register_request["document_number"]["writeOnly"] is True
    assert register_request["seen"]["type"] == "boolean" and "in person" in register_request["seen"]["description"]
    assert "seen" in schema["components"]["schemas"]["RegisterRequest"]["required"]
    assert "document_number" not in schema["components"]["schemas"]["Registration"]["properties"]
    assert "id_hmac" not in response.content.decode()


def test_swagger_docs_for_logged_in_user(director):
    client = APIClient()
    client.force_login(director)
    response = client.get("/api/docs/")
    assert response.status_code == 200
    assert b"swagger" in response.content.lower()
