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


BROKEN_MULTIPART = (b"--85fb82291a5d389aa68ced47b184697a\r\n\xc2\x8d \xc2\x89v\xf4\x8c\x9f\x91"
                    b"--85fb82291a5d389aa68ced47b184697a--\r\n")  # what the schema fuzzer once sent


@pytest.mark.parametrize("content_type", ["multipart/form-data; boundary=85fb82291a5d389aa68ced47b184697a",
                                          "multipart/form-data", "multipart/form-data; boundary="])
def test_form_data_that_cannot_be_parsed_is_a_400(floor, tournament, content_type):
    events = AuditEvent.objects.count()
    api = client_for(floor).generic("POST", url(tournament, "entries/1/bust/"), BROKEN_MULTIPART,
                                    content_type=content_type)
    assert 400 <= api.status_code < 500 and api.json()["detail"], api.content  # no entry 1 yet: 404 once parsed
    page = page_client(floor).generic("POST", f"/t/{tournament.pk}/penalties/", BROKEN_MULTIPART,
                                      content_type=content_type)
    assert page.status_code < 500  # a 400, or the page again saying nothing was done
    assert AuditEvent.objects.count() == events


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
