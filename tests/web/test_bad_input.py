"""Bad input anyone can send gets a 4xx with a message and changes nothing, never a 500: NUL
characters in a query or a form, JSON nested too deep, JSON bodies that are not objects, and the
requests Django itself refuses to read (too many fields or files, a body too large, a Host it does not
serve, a broken form, any SuspiciousOperation), answered under /api/ in the API's one error shape and
elsewhere with a page (config.urls handler400: web.api.bad_request)."""

from __future__ import annotations

import pytest
from django.core.exceptions import BadRequest, SuspiciousOperation
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.test.client import BOUNDARY, MULTIPART_CONTENT, encode_multipart
from django.urls import path
from rest_framework.test import APIClient

from config import urls as site_urls
from tests.helpers import client_for, url
from tests.helpers import logged_in as page_client
from tests.web.test_api_errors import assert_shape
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


LOGIN = "/accounts/login/"  # the pages take no post (one write path) but the login's and the language's
BROKEN_MULTIPART = (
    b"--85fb82291a5d389aa68ced47b184697a\r\n\xc2\x8d \xc2\x89v\xf4\x8c\x9f\x91"
    b"--85fb82291a5d389aa68ced47b184697a--\r\n"
)  # what the schema fuzzer once sent


@pytest.mark.parametrize(
    "content_type",
    ["multipart/form-data; boundary=85fb82291a5d389aa68ced47b184697a", "multipart/form-data", "multipart/form-data; boundary="],
)
def test_form_data_that_cannot_be_parsed_is_a_400(floor, tournament, content_type):
    events = AuditEvent.objects.count()
    api = client_for(floor).generic("POST", url(tournament, "entries/1/bust/"), BROKEN_MULTIPART, content_type=content_type)
    assert 400 <= api.status_code < 500 and api.json()["detail"], api.content  # no entry 1 yet: 404 once parsed
    page = page_client(floor).generic("POST", LOGIN, BROKEN_MULTIPART, content_type=content_type)
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


# --- requests Django refuses to read: JSON under /api/, a page elsewhere ------------------------------

FORM = "application/x-www-form-urlencoded"
MANY_FIELDS = "&".join(f"field{i}=1" for i in range(1_001))  # DATA_UPLOAD_MAX_NUMBER_FIELDS is 1,000


def writes_to(tournament, method: str) -> str:
    """An endpoint that takes a body with this method (a POST's form is read before the view, a PUT's in it)."""
    return url(tournament, "tables/break-order/" if method == "PUT" else "tables/")


def assert_api_refusal(answer, code: str) -> dict:
    assert answer["Content-Type"] == "application/json", answer.content[:200]
    return assert_shape(answer, 400, code)


def assert_page_refusal(answer) -> None:
    assert answer.status_code == 400 and not answer["Content-Type"].startswith("application/json"), answer.content[:200]


@pytest.mark.parametrize("method", ["PUT", "POST", "GET"])
def test_too_many_fields_is_the_api_s_json_400(director, floor, tournament, method):
    """What the schema fuzzer once sent: a form-encoded PUT .../tables/break-order/ with more than 1,000
    fields; Django raised TooManyFieldsSent while DRF read the body, and answered its HTML page. In a
    POST's form (read before any view) and in a query string alike."""
    events = AuditEvent.objects.count()
    if method == "GET":
        answer = client_for(director).get(f"{url(tournament, 'tables/break-order/')}?{MANY_FIELDS}")
    else:
        answer = client_for(director).generic(method, writes_to(tournament, method), MANY_FIELDS, content_type=FORM)
    body = assert_api_refusal(answer, "too_many_fields")
    assert "1000" in body["detail"]
    if method == "GET":
        assert_page_refusal(page_client(floor).get(f"/t/{tournament.pk}/penalties/?{MANY_FIELDS}"))
    elif method == "POST":  # no page reads a PUT's body; of the pages, only the login's reads a post
        assert_page_refusal(page_client(floor).post(LOGIN, MANY_FIELDS, content_type=FORM))
    assert AuditEvent.objects.count() == events


@pytest.mark.parametrize("content_type", ["application/json", FORM])
@pytest.mark.parametrize("method", ["PUT", "POST"])
@pytest.mark.parametrize("key", [None, "one-press"])
def test_a_body_too_large_is_the_api_s_json_400(director, floor, tournament, settings, content_type, method, key):
    """DATA_UPLOAD_MAX_MEMORY_SIZE: read by Django before the view (a POST's form), by the Idempotency-Key's
    body hash or by DRF's parser in it; the key is not claimed."""
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1_000
    body = '{"order": [' + ", ".join(["1"] * 600) + "]}" if content_type == "application/json" else "order=1&" * 200
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    answer = client_for(director).generic(method, writes_to(tournament, method), body, content_type=content_type, **headers)
    assert_api_refusal(answer, "too_large")
    if key:  # not claimed: the same key then serves another request (a claimed one would be refused, 422)
        again = client_for(director).put(url(tournament, "tables/break-order/"), {"order": []}, format="json", HTTP_IDEMPOTENCY_KEY=key)
        assert again.json()["error"] == "invalid" and "Idempotent-Replayed" not in again, again.content  # the view's own answer
    if content_type == FORM and method == "POST":
        assert_page_refusal(page_client(floor).post(LOGIN, body, content_type=content_type))


@pytest.mark.parametrize("method", ["PUT", "POST"])
def test_too_many_files_is_the_api_s_json_400(director, tournament, settings, method):
    settings.DATA_UPLOAD_MAX_NUMBER_FILES = 2
    files = {f"file{i}": SimpleUploadedFile(f"{i}.txt", b"x") for i in range(3)}
    answer = client_for(director).generic(
        method, writes_to(tournament, method), encode_multipart(BOUNDARY, files), content_type=MULTIPART_CONTENT
    )
    assert_api_refusal(answer, "too_many_files")


def test_a_host_not_allowed_is_the_api_s_json_400(director, tournament, settings):
    """DisallowedHost is raised by CommonMiddleware (request.get_host()), before any view: the answer is made
    from the path alone, so it does not raise again; in the reader's language."""
    settings.ALLOWED_HOSTS = ["testserver"]
    api = client_for(director)
    assert_api_refusal(api.get(url(tournament, "tables/"), HTTP_HOST="evil.example"), "disallowed_host")
    assert_api_refusal(
        api.put(url(tournament, "tables/break-order/"), {"order": []}, format="json", HTTP_HOST="evil.example"), "disallowed_host"
    )
    assert_api_refusal(APIClient().get("/api/no-such-thing/", HTTP_HOST="evil.example"), "disallowed_host")
    czech = assert_api_refusal(
        APIClient().get(url(tournament, "tables/"), HTTP_HOST="evil.example", HTTP_ACCEPT_LANGUAGE="cs"), "disallowed_host"
    )
    assert (
        czech["detail"]
        != assert_api_refusal(APIClient().get(url(tournament, "tables/"), HTTP_HOST="evil.example"), "disallowed_host")["detail"]
    )
    assert_page_refusal(Client().get("/", HTTP_HOST="evil.example"))
    assert api.get(url(tournament, "tables/")).status_code == 200  # the allowed host is served as ever


def test_a_broken_multipart_body_in_a_put_is_the_api_s_json_400(director, tournament):
    """A POST's form is read before the view (web/middleware.py); a PUT's by DRF's parser in the view."""
    answer = client_for(director).generic(
        "PUT",
        url(tournament, "tables/break-order/"),
        BROKEN_MULTIPART,
        content_type="multipart/form-data; boundary=85fb82291a5d389aa68ced47b184697a",
    )
    assert answer["Content-Type"] == "application/json" and answer.status_code == 400 and answer.json()["detail"], answer.content
    for content_type in ("multipart/form-data", "multipart/form-data; boundary="):  # no boundary: Django's parser refuses
        assert_api_refusal(
            client_for(director).generic("POST", url(tournament, "tables/"), BROKEN_MULTIPART, content_type=content_type), "bad_form_data"
        )


def _suspicious(request):
    raise SuspiciousOperation("a request Django finds suspicious")


def _bad(request):
    raise BadRequest("a request a view cannot use")


# Any other SuspiciousOperation or BadRequest, raised by a view or a middleware: this module is the URLconf
# of the test below (the site's patterns and its handler400, and two views that raise).
urlpatterns = [path("api/suspicious/", _suspicious), path("api/bad/", _bad), path("suspicious/", _suspicious), *site_urls.urlpatterns]
handler400 = site_urls.handler400


@pytest.mark.urls(__name__)
def test_any_other_suspicious_operation_is_the_api_s_json_400(db):
    assert_api_refusal(APIClient().get("/api/suspicious/"), "bad_request")
    assert_api_refusal(APIClient().post("/api/bad/"), "bad_request")
    assert_page_refusal(Client().get("/suspicious/"))
