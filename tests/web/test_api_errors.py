"""The one error shape of the JSON API (web/api.py): every refusal of every endpoint answers
{"error": code, "detail": translated message, "problems": [...]} (+ "fields" for invalid input)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.helpers import client_for, url
from tournament.models import AuditEvent


def assert_shape(response, status: int, code: str) -> dict:
    body = response.json()
    assert response.status_code == status, body
    assert body["error"] == code and isinstance(body["detail"], str) and body["detail"], body
    assert body["problems"] and all(isinstance(p, str) for p in body["problems"]), body
    return body


def test_a_service_refusal(director, tournament):
    client_for(director).post(url(tournament, "tables/"), {"number": 1}, format="json")
    body = assert_shape(client_for(director).post(url(tournament, "tables/"), {"number": 1}, format="json"), 409, "table_exists")
    assert "Table 1 is already open." == body["detail"]


def test_invalid_input_names_each_field(director, tournament):
    body = assert_shape(client_for(director).post(url(tournament, "tables/"), {"number": "x", "seats": 40}, format="json"), 400, "invalid")
    assert set(body["fields"]) == {"number", "seats"}
    assert all(name in body["detail"] for name in ("number", "seats"))


def test_not_logged_in_wrong_role_unknown_object_wrong_method_and_bad_json(dealer, director, tournament):
    events = AuditEvent.objects.count()
    assert_shape(APIClient().post(url(tournament, "tables/"), {"number": 1}, format="json"), 401, "not_authenticated")
    assert_shape(client_for(dealer).post(url(tournament, "tables/"), {"number": 1}, format="json"), 403, "permission_denied")
    assert_shape(client_for(director).get("/api/tournaments/999999/tables/"), 404, "not_found")
    assert_shape(client_for(director).post(url(tournament, "tables/7/hand-done/")), 404, "not_found")
    assert_shape(client_for(director).delete(url(tournament, "tables/")), 405, "method_not_allowed")
    assert_shape(
        client_for(director).generic("POST", url(tournament, "tables/"), "{not json", content_type="application/json"), 400, "parse_error"
    )
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize("language", ["cs", "sk"])
def test_the_detail_is_translated(director, tournament, language):
    client = client_for(director)
    client.post(url(tournament, "tables/"), {"number": 1}, format="json")
    answer = client.post(url(tournament, "tables/"), {"number": 1}, format="json", HTTP_ACCEPT_LANGUAGE=language)
    body = assert_shape(answer, 409, "table_exists")
    assert body["detail"] != "Table 1 is already open." and "1" in body["detail"]
