"""A tournament in one file from the director's screens: the download (GET /t/<id>/export.json)
is the file `manage.py export_tournament` writes, and records nothing; the import page's form posts the file to
POST /api/tournaments/import/, which imports it as the command does, or refuses it with the command's words and
nothing written. Only the director reaches either."""

from __future__ import annotations

import copy
import json
from datetime import date
from unittest import mock

from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import call_command
from django.db import transaction
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from rest_framework.test import APIClient

from archive.selectors import schema
from archive.selectors.export import export_tournament, file_text
from tables.services import setup as table_setup
from tests.conftest import PASSWORD, tournament_data
from tests.helpers import id_doc, logged_in, row_counts
from tournament.models import AuditEvent, Tournament
from tournament.services import registration, setup

API = "/api/tournaments/import/"


def play_a_little(t, director, cashier, players: int = 4) -> None:
    table_setup.open_table(t, actor=director, number=1, seats=9)
    for i in range(players):
        player = registration.create_player(actor=cashier, first_name=f"P{i}", last_name="File", date_of_birth=date(1980, 1, 1 + i))
        registration.register_entry(t, actor=cashier, player=player, document=id_doc(f"FI{i:07d}"))


def file_of_a_tournament_not_here(director, cashier, template) -> bytes:
    """The file of a tournament played in a transaction rolled back: a file whose tournament this database lacks."""
    with transaction.atomic():
        t = setup.create_tournament(tournament_data(name="Moved here"), actor=director, template=template)
        play_a_little(t, director, cashier)
        text = file_text(export_tournament(t))
        transaction.set_rollback(True)
    return text.encode("utf-8")


def upload(raw: bytes, name: str = "tournament-9.json") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, raw, content_type="application/json")


def post_file(client, raw: bytes, **fields):
    return client.post(API, {"file": upload(raw), **fields})


# --- the download ---------------------------------------------------------------------------------------------------


def test_the_director_downloads_the_same_bytes_the_command_writes_and_nothing_is_recorded(director, cashier, tournament, tmp_path):
    play_a_little(tournament, director, cashier)
    events = AuditEvent.objects.count()
    at = timezone.now()
    with mock.patch("archive.selectors.export.timezone.now", return_value=at):  # the file's export time, the one difference
        response = logged_in(director).get(reverse("tournament-export", args=[tournament.pk]))
        call_command("export_tournament", str(tournament.pk), "-o", str(tmp_path / "by-command.json"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="tournament-{tournament.pk}.json"'
    assert "no-cache" in response["Cache-Control"]
    assert response.content == (tmp_path / "by-command.json").read_bytes()
    document = json.loads(response.content)
    assert document["tournament"]["entries"] == 4 and document["checksum"] == schema.checksum(document)
    assert AuditEvent.objects.count() == events  # a read: no event, as the results' CSV and PDF record none


def test_the_settings_page_offers_the_download_to_the_director_only(director, floor, tournament):
    url = reverse("tournament-export", args=[tournament.pk])
    page = logged_in(director).get(reverse("tournament-edit", args=[tournament.pk])).content.decode()
    assert f'href="{url}"' in page and "Download the tournament file" in page
    assert url not in logged_in(floor).get(reverse("tournament-detail", args=[tournament.pk])).content.decode()


def test_only_the_director_reaches_the_download_the_page_and_the_import(director, floor, cashier, tournament):
    export = reverse("tournament-export", args=[tournament.pk])
    page = reverse("tournament-import")
    for user in (floor, cashier):
        assert logged_in(user).get(export).status_code == 403
        assert logged_in(user).get(page).status_code == 403
        assert logged_in(user).post(API, {"file": upload(b"{}")}).status_code == 403
    for url in (export, page):
        anonymous = Client().get(url)
        assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]
    assert Client().post(API, {"file": upload(b"{}")}).status_code == 401
    assert logged_in(director).get(reverse("tournament-export", args=[tournament.pk + 1000])).status_code == 404
    home = logged_in(director).get(reverse("home")).content.decode()
    assert f'href="{page}"' in home and page not in logged_in(floor).get(reverse("home")).content.decode()


# --- the import -----------------------------------------------------------------------------------------------------


def test_the_import_page_posts_the_file_to_the_api(director):
    html = logged_in(director).get(reverse("tournament-import")).content.decode()
    assert 'data-api="tournaments/import/"' in html and 'enctype="multipart/form-data"' in html
    assert 'type="file" name="file"' in html and 'type="checkbox" name="other_id_key"' in html
    assert 'data-says="tournament-imported"' in html and 'data-next="/t/{id}/"' in html


def test_the_director_imports_a_file_and_gets_the_new_tournament(director, cashier, template):
    raw = file_of_a_tournament_not_here(director, cashier, template)
    before = row_counts()
    response = post_file(logged_in(director), raw)
    assert response.status_code == 201, response.content
    body = response.json()
    t = Tournament.objects.get(pk=body["id"])
    assert body["name"] == t.name == "Moved here" and body["page"] == reverse("tournament-detail", args=[t.pk])
    assert body["entries"] == 4 and body["players_new"] == 4 and body["players_found"] == 0
    assert body["users_new"] == [] and body["id_checks_verifiable"] is True
    assert row_counts()["Tournament"] == before["Tournament"] + 1 and t.entries.count() == 4
    event = AuditEvent.objects.filter(tournament=t).order_by("-seq").first()
    assert event.type == "tournament.imported" and event.actor == director and event.seq == body["events"] + 1
    again = post_file(logged_in(director), raw)  # the same file again: here already, 409, nothing written
    assert again.status_code == 409 and again.json()["error"] == "already_here"
    assert f"This tournament is here already: “Moved here” (tournament {t.pk})" in again.json()["detail"]
    assert Tournament.objects.filter(name="Moved here").count() == 1


def upload_refused(client, raw: bytes, status: int, code: str, **fields) -> dict:
    before = row_counts()
    response = post_file(client, raw, **fields)
    assert response.status_code == status, response.content
    assert response.json()["error"] == code
    assert row_counts() == before
    return response.json()


def test_a_damaged_cut_or_doubled_file_is_refused_with_the_commands_words_and_nothing_written(director, cashier, tournament, template):
    client = logged_in(director)
    raw = file_of_a_tournament_not_here(director, cashier, template)
    changed = json.loads(raw)
    entries = changed["rows"]["tournament.entry"]
    entries["rows"][0][entries["fields"].index("number")] = 99  # a changed row, its checksum left as it was
    body = upload_refused(client, json.dumps(changed).encode(), 400, "checksum")
    assert body["detail"] == (
        "The file's checksum does not match its content: it was changed or damaged after it was exported. Nothing was imported."
    )
    assert "not valid JSON" in upload_refused(client, raw[: len(raw) // 2], 400, "not_json")["detail"]
    other = copy.deepcopy(json.loads(raw))
    other["format"] = "poker-tournament/9"
    assert "this version reads “poker-tournament/1”" in upload_refused(client, json.dumps(other).encode(), 400, "format")["detail"]
    here = file_text(export_tournament(tournament)).encode()
    assert "here already" in upload_refused(client, here, 409, "already_here")["detail"]
    assert upload_refused(client, b"", 400, "invalid")["fields"]["file"] == ["The file is empty: it is not a tournament file."]
    before = row_counts()
    none = client.post(API, {})
    assert none.status_code == 400 and none.json()["fields"]["file"] == ["Choose a tournament file to import."]
    assert row_counts() == before


def test_a_file_of_another_key_is_refused_unless_the_director_ticks_knowingly(director, cashier, template, settings):
    raw = file_of_a_tournament_not_here(director, cashier, template)
    settings.ID_HASH_KEY = "another key of another server"
    client = logged_in(director)
    body = upload_refused(client, raw, 409, "other_id_hash_key")
    assert "import it knowingly as a file of another key. Nothing was imported." in body["detail"]
    response = post_file(client, raw, other_id_key="on")
    assert response.status_code == 201 and response.json()["id_checks_verifiable"] is False


def test_a_press_sent_twice_imports_once_and_a_key_reused_for_another_file_is_refused(director, cashier, template):
    raw = file_of_a_tournament_not_here(director, cashier, template)
    client = logged_in(director)
    first = client.post(API, {"file": upload(raw)}, headers={"Idempotency-Key": "import-1"})
    again = client.post(API, {"file": upload(raw)}, headers={"Idempotency-Key": "import-1"})
    assert first.status_code == again.status_code == 201 and again["Idempotent-Replayed"] == "true"
    assert again.json()["id"] == first.json()["id"] and Tournament.objects.filter(name="Moved here").count() == 1
    other = raw.replace(b'"Moved here"', b'"Moved there"', 1)  # the same file name, another content
    reused = client.post(API, {"file": upload(other)}, headers={"Idempotency-Key": "import-1"})
    assert reused.status_code == 422 and reused.json()["error"] == "idempotency_key_reused"


def test_a_file_larger_than_djangos_body_limit_reaches_the_import_and_one_over_the_import_limit_is_refused(director, settings):
    assert settings.DATA_UPLOAD_MAX_MEMORY_SIZE < 3_000_000 < settings.TOURNAMENT_FILE_MAX_MB * 1_000_000
    big = b"[" + b"0," * 1_500_000  # 3 MB, cut short: read whole and refused by the import, not by a size limit
    token = APIClient().post("/api/auth/token/", {"username": director.username, "password": PASSWORD}, format="json")
    by_token = APIClient()
    by_token.credentials(HTTP_AUTHORIZATION=f"Token {token.json()['token']}")
    for client in (logged_in(director), by_token):
        response = client.post(API, {"file": upload(big)}, format="multipart")
        assert response.status_code == 400 and response.json()["error"] == "not_json", response.content
    settings.TOURNAMENT_FILE_MAX_MB = 1
    response = logged_in(director).post(API, {"file": upload(big)})  # the body's length says it: 413, unread
    assert response.status_code == 413 and response.json()["detail"] == (
        "The file is too large for a tournament file (at most 1 MB). Nothing was imported."
    )
    response = logged_in(director).post(API, {"file": upload(big[:1_050_000])})  # the form fits, the file does not
    assert response.status_code == 400 and response.json()["fields"]["file"] == [
        "The file is too large for a tournament file (at most 1 MB)."
    ]
