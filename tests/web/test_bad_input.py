"""Bad input anyone can send gets a 4xx with a message and changes nothing, never a 500: NUL
characters in a query or a form, JSON nested too deep, JSON bodies that are not objects."""
from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tables.test_api import client_for, url
from tests.tables.test_views import client_for as page_client
from tournament.models import AuditEvent


def test_a_nul_character_in_a_public_search_is_refused(tournament):
    page = Client().get(f"/s/{tournament.pk}/", {"q": "Jana\x00"})
    assert page.status_code == 400 and "NUL" in page.content.decode()
    api = APIClient().get(f"/api/public/tournaments/{tournament.pk}/seats/", {"q": "\x00"})
    assert api.status_code == 400 and api.json()["error"] == "nul_character" and api.json()["detail"]


def test_a_nul_character_in_a_staff_search_or_form_is_refused(cashier, tournament):
    client = page_client(cashier)
    assert client.get(f"/t/{tournament.pk}/register/", {"q": "\x00"}).status_code == 400
    events = AuditEvent.objects.count()
    posted = client.post(f"/t/{tournament.pk}/players/new/", {"first_name": "Ja\x00na", "last_name": "Nováková"})
    assert posted.status_code == 400 and AuditEvent.objects.count() == events


@pytest.mark.parametrize("depth", [1_000, 100_000])
def test_json_nested_too_deep_is_a_400_even_before_login(depth):
    body = "[" * depth + "]" * depth
    answer = APIClient().generic("POST", "/api/auth/token/", body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "parse_error"


@pytest.mark.parametrize("body", ["null", "5", "[]", '"text"', "true"])
def test_a_json_body_that_is_not_an_object_is_a_400(director, tournament, body):
    events = AuditEvent.objects.count()
    answer = client_for(director).generic("PATCH", url(tournament, "house-rules/"), body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"] == "parse_error" and answer.json()["detail"]
    assert AuditEvent.objects.count() == events
