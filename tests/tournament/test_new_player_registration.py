"""A new player is registered with his entry in one transaction: the player record is
kept only when the entry is taken, so a refused registration (a document already used, under age, closed)
leaves Player.objects.count() as it was, through the service and through the API the page uses."""

from __future__ import annotations

from datetime import date

import pytest

from core.errors import ServiceError
from tests.helpers import id_doc
from tests.tournament.test_views import api
from tournament.models import AuditEvent, Entry, Player
from tournament.services import registration

NEW = {"first_name": "Eva", "last_name": "Malá", "date_of_birth": "1988-03-04"}


@pytest.fixture
def used(cashier, tournament, player):
    """Jana Nováková's passport, registered: the document belongs to her record."""
    return registration.register_entry(tournament, actor=cashier, player=player, document=id_doc("P1234567", "passport"))


def players_and_events() -> tuple[int, int]:
    return Player.objects.count(), AuditEvent.objects.filter(type="player.created").count()


def test_a_refused_registration_of_a_new_player_keeps_no_player(cashier, tournament, used):
    before = players_and_events()
    with pytest.raises(ServiceError) as refused:
        registration.register_new_player(
            tournament,
            actor=cashier,
            document=id_doc("P1234567", "passport"),
            first_name="Eva",
            last_name="Malá",
            date_of_birth=date(1988, 3, 4),
        )
    assert refused.value.code == "id_other_player"
    assert players_and_events() == before and Entry.objects.count() == 1
    entry = registration.register_new_player(
        tournament, actor=cashier, document=id_doc("EA7654321"), first_name="Eva", last_name="Malá", date_of_birth=date(1988, 3, 4)
    )
    assert entry.player.display_name == "Eva Malá" and players_and_events() == (before[0] + 1, before[1] + 1)


@pytest.mark.parametrize(
    ("body", "status", "error"),
    [
        ({"new_player": NEW, "document_type": "passport", "document_number": "P1234567", "seen": True}, 409, "id_other_player"),
        (
            {
                "new_player": {**NEW, "date_of_birth": "2015-01-01"},
                "document_type": "id_card",
                "document_number": "EA7654321",
                "seen": True,
            },
            400,
            "under_age",
        ),
        ({"new_player": NEW, "document_type": "id_card", "document_number": "EA7654321"}, 400, "invalid"),  # not seen
        (
            {"new_player": {**NEW, "first_name": ""}, "document_type": "id_card", "document_number": "EA7654321", "seen": True},
            400,
            "invalid",
        ),
    ],
)
def test_the_api_keeps_no_new_player_when_it_refuses_the_entry(client, cashier, tournament, used, body, status, error):
    client.force_login(cashier)
    before = players_and_events()
    answer = api(client, f"tournaments/{tournament.pk}/entries/", body)
    assert (answer.status_code, answer.json()["error"]) == (status, error), answer.content
    assert answer.json()["detail"]
    assert players_and_events() == before and Entry.objects.count() == 1


def test_the_api_registers_a_new_player_with_his_entry(client, cashier, tournament, used, player):
    client.force_login(cashier)
    path = f"tournaments/{tournament.pk}/entries/"
    answer = api(
        client,
        path,
        {"new_player": {**NEW, "nickname": "Evička"}, "document_type": "id_card", "document_number": "EA7654321", "seen": True},
    )
    assert answer.status_code == 201, answer.content
    created = Player.objects.get(last_name="Malá")
    assert answer.json()["player"] == {"id": created.pk, "display_name": "Eva Malá (Evička)"}
    assert Entry.objects.get(number=answer.json()["number"]).player == created and answer.json()["receipt"]
    field = api(
        client,
        path,
        {"new_player": {**NEW, "date_of_birth": "x"}, "document_type": "id_card", "document_number": "EB1111111", "seen": True},
    ).json()
    assert list(field["fields"]) == ["new_player.date_of_birth"]  # named as the page's field
    for both_or_neither in ({"player": player.pk, "new_player": NEW}, {}):
        refused = api(client, path, {**both_or_neither, "document_type": "id_card", "document_number": "EB2222222", "seen": True})
        assert refused.status_code == 400 and "player" in refused.json()["fields"], refused.content
    assert Player.objects.count() == 2


def test_the_schema_documents_a_new_player_in_the_registration(client):
    schema = client.get("/api/schema/", {"format": "json"}).json()
    body = schema["components"]["schemas"]["RegisterRequest"]
    assert {"player", "new_player"} <= set(body["properties"]) and "player" not in body.get("required", [])
    assert body["properties"]["new_player"].get("description") or body["properties"]["new_player"].get("allOf")
    assert "player" in schema["components"]["schemas"]["Registration"]["properties"]
