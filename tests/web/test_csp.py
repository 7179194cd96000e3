"""The Content-Security-Policy: every page answers with the strict policy (config/settings.py), the
API docs' Redoc page with its two loosenings only (web/api_docs.py), and the report address logs what a
browser reports without touching the database (web/csp_report.py)."""

from __future__ import annotations

import json
import logging

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse

from config.logmask import SecretMask
from core import access
from tests.web.test_roles_walk import fill, url_patterns, walk_room  # noqa: F401  (walk_room: the walk's seeded room)
from web.csp_report import MAX_REPORT_BYTES
from web.server import PUBLIC_PATHS

STRICT = {
    "default-src": ["'self'"],
    "script-src": ["'self'"],
    "style-src": ["'self'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'"],
    "connect-src": ["'self'"],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
    "report-uri": ["/csp-report/"],
}
# Redoc writes <style> elements and starts its search worker from a blob: URL (web/api_docs.py).
LOOSER = {"api-redoc": {**STRICT, "style-src": ["'self'", "'unsafe-inline'"], "worker-src": ["blob:"]}}


def directives(header: str) -> dict[str, list[str]]:
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def visitor_for(route: str, who: tuple[str, ...]) -> str:
    """Someone the page lets in: its secret link's holder, anyone, or else the director (in every staff set)."""
    if access.DISPLAY_LINK in who:
        return access.DISPLAY_LINK
    if access.DEALER_LINK in who and "<str:token>" in route:
        return access.DEALER_LINK
    return access.ANYONE if access.ANYONE in who else access.DIRECTOR


def test_every_page_answers_with_the_strict_policy(walk_room):  # noqa: F811
    problems, seen = [], 0
    for route, name in url_patterns():
        if name not in access.PAGES:
            continue
        who = access.PAGES[name]
        visitor = visitor_for(route, who)
        path = fill(route, walk_room.kwargs(route, who, visitor))
        response = walk_room.request(visitor, "GET", path)
        header = response.get("Content-Security-Policy")
        if header is None:
            problems.append(f"{name} ({path}, {response.status_code}): no Content-Security-Policy")
            continue
        seen += 1
        if directives(header) != LOOSER.get(name, STRICT):
            problems.append(f"{name} ({path}): {header}")
        if "'unsafe-eval'" in header or ("'unsafe-inline'" in header and name not in LOOSER):
            problems.append(f"{name} ({path}): unsafe: {header}")
    assert problems == []
    assert seen == len(access.PAGES)


def test_an_api_answer_and_a_missing_page_carry_the_policy_too(client, db):
    for path in ("/api/auth/token/", "/no-such-page/", "/api/no-such-thing/"):
        assert directives(client.get(path)["Content-Security-Policy"]) == STRICT, path


REPORT = {
    "csp-report": {
        "document-uri": "https://poker.example.com/t/1/map/",
        "referrer": "",
        "violated-directive": "script-src-elem",
        "effective-directive": "script-src-elem",
        "original-policy": "default-src 'self'",
        "disposition": "enforce",
        "blocked-uri": "inline",
        "line-number": 7,
        "column-number": 25,
        "source-file": "https://poker.example.com/t/1/map/",
        "status-code": 200,
        "script-sample": "",
    }
}


def test_a_report_is_logged_without_a_login_a_csrf_token_or_the_database(caplog, django_assert_num_queries, db):
    client = Client(enforce_csrf_checks=True)
    with caplog.at_level(logging.WARNING, logger="csp"), django_assert_num_queries(0):
        answer = client.post("/csp-report/", json.dumps(REPORT), content_type="application/csp-report")
    assert answer.status_code == 204
    [line] = [r.getMessage() for r in caplog.records if r.name == "csp"]
    assert "effective-directive=script-src-elem" in line and "blocked-uri=inline" in line
    assert "document-uri=https://poker.example.com/t/1/map/" in line and "line-number=7" in line


def test_the_reporting_api_shape_is_logged_too(client, caplog, db):
    reports = [
        {
            "type": "csp-violation",
            "url": "https://poker.example.com/s/1/",
            "body": {
                "documentURL": "https://poker.example.com/s/1/",
                "effectiveDirective": "style-src-attr",
                "blockedURL": "inline",
                "disposition": "enforce",
                "lineNumber": 3,
            },
        },
        {"type": "deprecation", "body": {"id": "x"}},
    ]
    with caplog.at_level(logging.WARNING, logger="csp"):
        answer = client.post("/csp-report/", json.dumps(reports), content_type="application/reports+json")
    assert answer.status_code == 204
    [line] = [r.getMessage() for r in caplog.records if r.name == "csp"]
    assert "effective-directive=style-src-attr" in line and "document-uri=https://poker.example.com/s/1/" in line


def test_a_field_is_one_short_line_and_a_link_secret_is_masked_in_the_log(client, caplog, db):
    report = {
        "csp-report": {
            **REPORT["csp-report"],
            "document-uri": "https://poker.example.com/display/SeCrEt123/",
            "script-sample": "alert(1)\nforged line " + "x" * 1000,
        }
    }
    with caplog.at_level(logging.WARNING, logger="csp"):
        assert client.post("/csp-report/", json.dumps(report), content_type="application/csp-report").status_code == 204
    [record] = [r for r in caplog.records if r.name == "csp"]
    line = record.getMessage()
    assert "\n" not in line and len(line) < 1000
    SecretMask().filter(record)  # the console handler's filter (config/settings.py LOGGING)
    assert "SeCrEt123" not in record.getMessage()


@pytest.mark.parametrize(
    "body", [b"not json", b"\xff\xfe", b"{}", b'{"csp-report": "x"}', b"[]", b"[1, 2]", b"42", b"[" * 5_000 + b"]" * 5_000]
)
def test_a_body_that_is_no_report_answers_400(client, caplog, body, db):
    with caplog.at_level(logging.WARNING, logger="csp"):
        assert client.post("/csp-report/", body, content_type="application/csp-report").status_code == 400
    assert not [r for r in caplog.records if r.name == "csp"]


def test_a_body_too_long_answers_413_and_only_post_is_taken(client, db):
    big = json.dumps({"csp-report": {"script-sample": "x" * MAX_REPORT_BYTES}})
    assert client.post("/csp-report/", big, content_type="application/csp-report").status_code == 413
    assert client.get("/csp-report/").status_code == 405


def test_the_report_address_is_the_policys_and_counts_as_public_traffic():
    """Reports come from any page, a crowd of phones too: the door lets them wait or refuses them like the
    public's requests, never in the way of the floor's (web/server.py Admission)."""
    assert reverse("csp-report") == settings.CSP_REPORT_PATH == STRICT["report-uri"][0]
    assert settings.CSP_REPORT_PATH.startswith(PUBLIC_PATHS)
