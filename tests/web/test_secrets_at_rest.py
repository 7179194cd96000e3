"""No usable secret at rest: the answers kept for Idempotency-Key replays never hold a secret.

Every operation that answers a secret declares it (`idempotency_redact`); a walk of the schema finds each
operation whose answer has a secret-like field and checks that it does; each such operation, pressed with
a key, stores no secret, and its replay says the secret was shown once. Old rows are cleaned by web
migration 0003."""

from __future__ import annotations

import importlib
import json

import pytest
from django.apps import apps as django_apps
from django.utils import timezone
from drf_spectacular.generators import SchemaGenerator

from tables.models import Table
from tests.helpers import client_for
from web.idempotency import SECRET_FIELDS, SECRET_NOTE, IdempotentMixin
from web.models import IdempotencyKey


def _resolve(schema: dict, node: dict) -> dict:
    while "$ref" in node:
        node = schema["components"]["schemas"][node["$ref"].rsplit("/", 1)[1]]
    return node


def secret_operations() -> list[tuple[str, str, object, set[str]]]:
    """Every state-changing operation whose success answer has a field that may hold a secret."""
    generator = SchemaGenerator()
    schema = generator.get_schema(request=None, public=True)
    found = []
    for path, _regex, method, view in generator._get_paths_and_endpoints():
        operation = schema["paths"].get(path, {}).get(method.lower())
        if operation is None or method not in ("POST", "PUT", "PATCH"):
            continue
        fields: set[str] = set()
        for code, answer in operation.get("responses", {}).items():
            body = answer.get("content", {}).get("application/json", {}).get("schema")
            if code.startswith("2") and body:
                fields |= set(_resolve(schema, body).get("properties", {})) & SECRET_FIELDS
        if fields:
            found.append((path, method, view, fields))
    return found


def test_every_operation_that_answers_a_secret_declares_it(db):
    operations = secret_operations()
    names = {(path, method) for path, method, _view, _fields in operations}
    # the ones this test was written against: a new one is walked the same way
    assert {
        ("/api/tournaments/{id}/tables/", "POST"),
        ("/api/tournaments/{id}/displays/", "POST"),
        ("/api/tournaments/{id}/tables/{number}/dealer-links/", "POST"),
    } <= names, names
    for path, method, view, fields in operations:
        if not isinstance(view, IdempotentMixin):  # a login: never replayed (its answer is not stored at all)
            continue
        assert fields <= set(view.idempotency_redact), f"{method} {path} answers {sorted(fields)} but keeps them for a replay"


def _press(client, path, body, key):
    return client.post(path, body, format="json", HTTP_IDEMPOTENCY_KEY=key)


@pytest.mark.parametrize("what", ["table", "display", "dealer-link"])
def test_a_replay_never_shows_the_secret_again_and_none_is_stored(director, tournament, what):
    client = client_for(director)
    if what != "table":
        Table.objects.create(tournament=tournament, number=1, seats=9)
    path, body, secrets = {
        "table": (f"/api/tournaments/{tournament.pk}/tables/", {"number": 7}, ("shuffler_token",)),
        "display": (f"/api/tournaments/{tournament.pk}/displays/", {"label": "TV"}, ("token", "url")),
        "dealer-link": (f"/api/tournaments/{tournament.pk}/tables/1/dealer-links/", {"label": "T1"}, ("token", "url")),
    }[what]
    first = _press(client, path, body, "press-1")
    assert first.status_code == 201, first.content
    shown = [first.json()[name] for name in secrets]
    assert all(shown)
    stored = IdempotencyKey.objects.get().body
    for secret in shown:
        assert secret not in stored
    again = _press(client, path, body, "press-1")
    assert again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert all(again.json()[name] is None for name in secrets)
    assert "shown once" in again.json()[SECRET_NOTE]
    assert SECRET_NOTE not in first.json()


def test_the_migration_cleans_answers_stored_before(db):
    clean = importlib.import_module("web.migrations.0003_no_secrets_in_idempotent_answers").clean
    leaked = IdempotencyKey.objects.create(
        owner="user:1",
        key="a",
        method="POST",
        path="/api/tournaments/1/tables/",
        body_hash="x",
        created_at=timezone.now(),
        status=201,
        body=json.dumps({"table": 3, "shuffler_token": "s3cr3t-token"}),
    )
    plain = IdempotencyKey.objects.create(
        owner="user:1",
        key="b",
        method="POST",
        path="/api/tournaments/1/entries/",
        body_hash="y",
        created_at=timezone.now(),
        status=201,
        body=json.dumps({"number": 4}),
    )
    clean(django_apps, None)
    leaked.refresh_from_db()
    plain.refresh_from_db()
    assert json.loads(leaked.body) == {"table": 3, "shuffler_token": None} and "s3cr3t" not in leaked.body
    assert json.loads(plain.body) == {"number": 4}
