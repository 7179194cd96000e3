"""API tokens and lobby screen links: stored hashed, expiring, revoked at logout and by the director;
a dump of the database holds no token that opens anything (web/auth.py, tournament DisplayToken)."""

from __future__ import annotations

import hashlib
import logging
import re
from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from tests.conftest import PASSWORD
from tournament.models import DisplayToken
from web.models import ApiToken, IdempotencyKey


def log_in(username: str) -> dict:
    response = APIClient().post("/api/auth/token/", {"username": username, "password": PASSWORD}, format="json")
    assert response.status_code == 200, response.content
    return response.json()


def bearer(secret: str, keyword: str = "Token") -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"{keyword} {secret}")
    return client


def token_refused(response, code: str) -> None:
    assert response.status_code == 401, response.content
    body = response.json()
    assert body["error"] == code and body["detail"] and body["problems"] == [body["detail"]]
    assert response["WWW-Authenticate"] == "Token"


# --- API tokens ----------------------------------------------------------------------------------


def test_a_token_is_stored_as_a_hash_and_works_as_token_or_bearer(floor, tournament):
    body = log_in("floor")
    row = ApiToken.objects.get(pk=body["id"])
    assert row.key_hash == hashlib.sha256(body["token"].encode()).hexdigest() and row.prefix == body["token"][:6] == body["prefix"]
    assert body["token"] not in {str(getattr(row, f.attname)) for f in ApiToken._meta.concrete_fields}
    assert len(body["token"]) >= 40, "256 random bits"
    for keyword in ("Token", "Bearer"):
        assert bearer(body["token"], keyword).get("/api/tournaments/").json()[0]["id"] == tournament.pk
    row.refresh_from_db()
    assert row.last_used_at is not None and row.created_from == "127.0.0.1"


def test_a_token_expires_after_the_configured_hours(settings, floor, tournament):
    settings.API_TOKEN_TTL_HOURS = 2
    before = timezone.now()
    body = log_in("floor")
    row = ApiToken.objects.get(pk=body["id"])
    assert before + timedelta(hours=2) <= row.expires_at <= timezone.now() + timedelta(hours=2)
    assert bearer(body["token"]).get("/api/tournaments/").status_code == 200
    ApiToken.objects.filter(pk=row.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    token_refused(bearer(body["token"]).get("/api/tournaments/"), "token_expired")
    token_refused(bearer(body["token"]).post(f"/api/tournaments/{tournament.pk}/entries/1/bust/"), "token_expired")


def test_unknown_and_malformed_tokens_are_refused(floor):
    token_refused(bearer("not-a-real-token").get("/api/tournaments/"), "token_invalid")
    token_refused(bearer("two words").get("/api/tournaments/"), "bad_token_header")
    assert APIClient().get("/api/tournaments/").status_code == 401


def test_logging_out_with_a_token_revokes_that_token_only(floor):
    first, second = log_in("floor"), log_in("floor")
    out = bearer(first["token"]).post("/api/auth/logout/")
    assert out.status_code == 200 and out.json()["revoked_because"] == "logout" and out.json()["active"] is False
    token_refused(bearer(first["token"]).get("/api/tournaments/"), "token_revoked")
    token_refused(bearer(first["token"]).post("/api/auth/logout/"), "token_revoked")
    assert bearer(second["token"]).get("/api/tournaments/").status_code == 200
    assert APIClient().post("/api/auth/logout/").status_code == 401, "logout is for a token, not anonymous"


def test_a_session_logout_revokes_the_users_tokens(client, floor, cashier):
    mine, theirs = log_in("floor"), log_in("cash")
    client.post(reverse("login"), {"username": "floor", "password": PASSWORD})
    assert client.get(reverse("home")).status_code == 200, "logged in to the screens"
    client.post(reverse("logout"))
    token_refused(bearer(mine["token"]).get("/api/tournaments/"), "token_revoked")
    assert ApiToken.objects.get(pk=mine["id"]).revoked_because == ApiToken.RevokedBecause.SESSION_LOGOUT
    assert bearer(theirs["token"]).get("/api/tournaments/").status_code == 200, "another user's token keeps working"


def test_the_director_lists_and_revokes_tokens_and_each_is_logged(director, floor, caplog):
    caplog.set_level(logging.INFO, logger="web.auth")
    tablet = log_in("floor")
    spare = log_in("floor")
    bearer(spare["token"]).post("/api/auth/logout/")
    boss = bearer(log_in("dir")["token"])
    listed = boss.get("/api/auth/tokens/")
    assert listed.status_code == 200
    assert tablet["token"] not in listed.content.decode() and ApiToken.objects.get(pk=tablet["id"]).key_hash not in listed.content.decode()
    row = next(r for r in listed.json() if r["id"] == tablet["id"])
    assert {k: row[k] for k in ("username", "prefix", "active", "revoked_at")} == {
        "username": "floor",
        "prefix": tablet["prefix"],
        "active": True,
        "revoked_at": None,
    }
    assert row["created_at"] and row["expires_at"] and "last_used_at" in row
    live = boss.get("/api/auth/tokens/", {"active": "true"}).json()
    assert spare["id"] not in [r["id"] for r in live] and tablet["id"] in [r["id"] for r in live]

    assert bearer(tablet["token"]).get("/api/auth/tokens/").status_code == 403, "only the director"
    assert bearer(tablet["token"]).post(f"/api/auth/tokens/{tablet['id']}/revoke/").status_code == 403
    revoked = boss.post(f"/api/auth/tokens/{tablet['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["revoked_by"] == "dir" and revoked.json()["revoked_because"] == "director"
    token_refused(bearer(tablet["token"]).get("/api/tournaments/"), "token_revoked")
    again = boss.post(f"/api/auth/tokens/{tablet['id']}/revoke/")
    assert again.status_code == 409 and again.json()["error"] == "already_revoked"
    assert boss.post("/api/auth/tokens/999999/revoke/").status_code == 404
    logged = [r.getMessage() for r in caplog.records if r.name == "web.auth"]
    assert sum("made for floor" in m for m in logged) == 2 and any(
        f"{tablet['prefix']}… of floor revoked by dir (director)" in m for m in logged
    )
    assert not any(tablet["token"] in m for m in logged), "the log never holds a secret"


def test_the_token_page_is_the_directors(client, director, floor):
    tablet = log_in("floor")
    client.force_login(floor)
    assert client.get(reverse("tokens")).status_code == 403
    client.force_login(director)
    home = client.get(reverse("home")).content.decode()
    assert f'href="{reverse("tokens")}"' in home, "reachable from the director's menu"
    page = client.get(reverse("tokens")).content.decode()
    assert tablet["prefix"] in page and tablet["token"] not in page
    assert f'data-api="auth/tokens/{tablet["id"]}/revoke/"' in page
    assert client.post(reverse("tokens")).status_code == 405, "the page only reads; the API changes"


# --- lobby screen links --------------------------------------------------------------------------


def test_a_display_link_is_shown_once_and_stored_hashed(client, director, tournament):
    api = APIClient()
    api.force_authenticate(director)
    created = api.post(f"/api/tournaments/{tournament.pk}/displays/", {"label": "TV 1"}, format="json").json()
    row = DisplayToken.objects.get(pk=created["id"])
    assert row.token_hash == hashlib.sha256(created["token"].encode()).hexdigest() and row.prefix == created["token"][:6]
    assert client.get(created["url"]).status_code == 200
    assert client.get(reverse("lobby", args=[row.prefix])).status_code == 404, "a prefix opens nothing"
    listed = api.get(f"/api/tournaments/{tournament.pk}/displays/").json()
    assert listed[0]["token"] is None and listed[0]["url"] is None and created["token"] not in str(listed)


@pytest.mark.deep
@pytest.mark.django_db(transaction=True)
def test_the_migration_hashes_existing_links_so_they_keep_working(client, director, tournament):
    """tournament 0006: a link made while the column was clear opens the same screen after the migration."""
    executor = MigrationExecutor(connection)
    before = [("tournament", "0005_color_up_spelling")]
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(before)
    try:
        old = executor.loader.project_state(before).apps.get_model("tournament", "DisplayToken")
        old.objects.create(
            tournament_id=tournament.pk,
            label="Old TV",
            token="an-old-clear-link-0123456789",
            created_by_id=director.pk,
            created_at=timezone.now(),
        )
    finally:
        executor = MigrationExecutor(connection)
        executor.loader.build_graph()
        executor.migrate(latest)
    row = DisplayToken.objects.get(label="Old TV")
    assert row.token_hash == hashlib.sha256(b"an-old-clear-link-0123456789").hexdigest() and row.prefix == "an-old"
    assert client.get(reverse("lobby", args=["an-old-clear-link-0123456789"])).status_code == 200
    assert client.get(reverse("lobby", args=[row.token_hash])).status_code == 404, "the stored hash is no link"


@pytest.mark.django_db(transaction=True)
def test_the_old_clear_token_table_is_dropped(db):
    """web 0002: Django REST framework's clear tokens of an older version do not stay in the database."""
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate([("web", "0001_tokens_and_idempotency")])
    with connection.cursor() as cursor:
        cursor.execute("CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, created timestamp)")
        cursor.execute("INSERT INTO authtoken_token (key) VALUES ('a-clear-token-of-the-old-version')")
    assert "authtoken_token" in connection.introspection.table_names()
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(latest)
    assert "authtoken_token" not in connection.introspection.table_names()


# --- a database dump ----------------------------------------------------------------------------


TABLES = (ApiToken, DisplayToken, IdempotencyKey)


def every_stored_value() -> set[str]:
    """Every value of every column of the tables that hold tokens, read raw as a dump would have them."""
    values: set[str] = set()
    with connection.cursor() as cursor:
        for model in TABLES:
            cursor.execute(f'SELECT * FROM "{model._meta.db_table}"')
            for row in cursor.fetchall():
                values.update(str(value) for value in row if value not in (None, ""))
    return values


def test_a_database_dump_holds_no_usable_token(client, director, floor, tournament):
    secrets = [log_in("floor")["token"], log_in("dir")["token"]]
    api = APIClient()
    api.force_authenticate(director)
    for n in (1, 2):  # one made with an Idempotency-Key, so its stored answer is in the dump too
        answer = api.post(
            f"/api/tournaments/{tournament.pk}/displays/", {"label": f"TV {n}"}, format="json", HTTP_IDEMPOTENCY_KEY=f"press-{n}"
        ).json()
        secrets.append(answer["token"])
    assert IdempotencyKey.objects.count() == 2
    # The secrets themselves work: the refusals below are the dump's, not a broken door.
    assert all(bearer(s).get("/api/tournaments/").status_code == 200 for s in secrets[:2])
    assert all(client.get(reverse("lobby", args=[s])).status_code == 200 for s in secrets[2:])

    dumped = every_stored_value()
    assert len(dumped) > 20
    assert not any(secret in value for secret in secrets for value in dumped)
    tried = 0
    for value in dumped:
        assert not DisplayToken.objects.for_link(value).exists(), value
        if re.fullmatch(r"[\w\-.:+@]+", value):  # what fits in a header and a URL path as it is
            tried += 1
            assert bearer(value).get("/api/tournaments/").status_code == 401, value
            assert bearer(value, "Bearer").get("/api/tournaments/").status_code == 401, value
            assert client.get(f"/display/{value}/").status_code == 404, value
    assert tried > 10
