"""A malformed or forged tournament file through the real import: POST /api/tournaments/import/
answers a 4xx with a message and writes nothing, whatever the file holds (nested 100,000 deep, too big, a value of
the wrong type, a username too long or with a NUL), and no file brings a working dealer link, lobby link or shuffler
token with it: a forged file whose link hashes are of its author's choosing opens nothing here."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from django.contrib.auth.models import User
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.db import transaction
from django.test import Client
from rest_framework.test import APIClient

from archive.selectors import schema
from archive.selectors.export import export_tournament, file_text
from archive.services.transfer import read_file
from core.errors import ServiceError
from core.tokens import hash_secret
from tables.models import DealerLink, Draw, Table
from tables.rules import seating
from tables.services import dealer_links, draws
from tests.archive.test_file_screens import play_a_little
from tests.conftest import tournament_data
from tests.helpers import logged_in, row_counts
from tournament.models import AuditEvent, DisplayToken, Tournament
from tournament.services import registration, setup

API = "/api/tournaments/import/"


@pytest.fixture
def raw(director, cashier, template) -> bytes:
    """The file of a tournament seated and ready to play, with a dealer link at table 1 and a lobby screen, played in
    a transaction rolled back: this database lacks it."""
    with transaction.atomic():
        t = setup.create_tournament(tournament_data(name="Forged here"), actor=director, template=template)
        play_a_little(t, director, cashier)
        draws.draw_start(t, actor=director)
        dealer_links.create_dealer_link(Table.objects.get(tournament=t, number=1), actor=director, label="Table 1")
        registration.create_display_token(t, actor=director, label="Lobby TV")
        text = file_text(export_tournament(t))
        transaction.set_rollback(True)
    return text.encode("utf-8")


def post(client, body: bytes):
    return client.post(API, {"file": SimpleUploadedFile("tournament.json", body, content_type="application/json")})


def nothing_imported(client, body: bytes, status: int = 400) -> dict:
    """The import refused with a message, and not one row written."""
    before = row_counts()
    response = post(client, body)
    assert response.status_code == status, response.content[:500]
    answer = response.json()
    assert answer["detail"] and "Nothing was imported" in answer["detail"], answer
    assert row_counts() == before
    return answer


def forged(raw: bytes, change) -> bytes:
    """The file changed by `change(document)`, its checksum made again (a checksum proves a file whole, not its author)."""
    document = json.loads(raw)
    change(document)
    document["checksum"] = schema.checksum(document)
    return json.dumps(document).encode("utf-8")  # a lone surrogate written as JSON writes it, escaped


def set_value(model: str, field: str, value, row: int = 0):
    def change(document):
        part = document["rows"][model]
        part["rows"][row][part["fields"].index(field)] = value

    return change


# --- what used to answer 500 -------------------------------------------------------------------------------------


def test_a_file_nested_100000_deep_is_refused_with_a_message(director):
    client = logged_in(director)
    answer = nothing_imported(client, b"[" * 100_000 + b"]" * 100_000)
    assert answer["error"] == "too_deep" and "deeper than" in answer["detail"]
    answer = nothing_imported(client, b'{"format": "poker-tournament/1", "rows": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    assert answer["error"] == "too_deep"


def test_a_file_nested_deeper_than_a_tournament_file_inside_a_value_is_refused_before_it_is_read(director, raw):
    deep = forged(raw, set_value("tournament.auditevent", "payload", json.loads("[" * 200 + "]" * 200)))
    with mock.patch("archive.services.transfer.parse_json", side_effect=AssertionError("parsed")):
        assert nothing_imported(logged_in(director), deep)["error"] == "too_deep"


@pytest.mark.parametrize(
    ("username", "said"),
    [("u" * 200, "at most 150 characters"), ("night\x00floor", "NUL"), ("tab\tname", "control character"), ("", "at least 1 character")],
)
def test_a_username_too_long_or_with_a_control_character_is_refused_by_its_place_in_the_file(director, raw, username, said):
    users = set(User.objects.values_list("username", flat=True))  # (PostgreSQL cannot even be asked for a NUL)
    answer = nothing_imported(logged_in(director), forged(raw, set_value("tournament.auditevent", "actor", username, row=2)))
    assert "tournament.auditevent, row 3, actor" in answer["detail"] and said in answer["detail"], answer
    assert set(User.objects.values_list("username", flat=True)) == users


@pytest.mark.parametrize(
    ("model", "field", "value", "said"),
    [
        ("tournament.tournament", "venue", {"name": "Casino"}, "an object"),
        ("tournament.tournament", "venue", ["Casino"], "a list"),
        ("tournament.tournament", "venue", 7, "a number"),
        ("tournament.tournament", "name", "x" * 161, "at most 160 characters"),
        ("tournament.tournament", "name", "Sunday\x00Deepstack", "NUL"),
        ("tournament.tournament", "name", "Sunday \ud800 Deepstack", "surrogate"),
        ("tournament.tournament", "buy_in", "1000", "a text"),
        ("tournament.tournament", "buy_in", True, "true or false"),
        ("tournament.tournament", "buy_in", 2**70, "out of range"),
        ("tournament.tournament", "buy_in", -5, "out of range"),
        ("tournament.tournament", "buy_in", 1.5, "a number with a fraction"),
        ("tournament.tournament", "buy_in", None, "empty"),
        ("tournament.tournament", "start_at", 20_261_129, "a number"),
        ("tournament.tournament", "start_at", "9999-12-31T23:00:00-05:00", "out of range"),
        ("tournament.tournament", "start_at", "2026-11-29T20:00:00", "without its zone"),
        ("tournament.tournament", "status", "burning", "not one of"),
        ("tournament.entry", "player", "1", "a text"),
        ("tournament.entry", "player", True, "true or false"),
        ("tournament.auditevent", "payload", {"name": "a\x00b"}, "NUL"),
        ("tournament.auditevent", "payload", {"\ud83d": 1}, "surrogate"),
        ("tables.table", "in_play", 1, "a number"),
    ],
)
def test_a_value_of_the_wrong_type_is_refused_naming_its_place(director, raw, model, field, value, said):
    answer = nothing_imported(logged_in(director), forged(raw, set_value(model, field, value)))
    assert answer["error"] == "rows" and f"{model}, row 1, {field}" in answer["detail"] and said in answer["detail"], answer


def test_a_hand_whose_table_is_no_number_is_kept_as_it_is(director, raw):
    """A bust's hand holds its table's key ("table:<key>:<hand>"); one whose key is no ASCII number is not converted."""
    response = post(logged_in(director), forged(raw, set_value("tournament.entry", "bust_hand", "table:²:1")))
    assert response.status_code == 201, response.content
    assert Tournament.objects.get(pk=response.json()["id"]).entries.get(number=1).bust_hand == "table:²:1"


@pytest.mark.parametrize(
    ("key", "value", "said"),
    [
        ("exported_at", {"at": "now"}, "an object"),
        ("exported_at", "yesterday", "exported_at"),
        ("id_hash_key", ["a"], "a list"),
        ("tournament", "Sunday", "a text"),
        ("users", {"a": 1}, "an object"),
        ("users", ["u" * 151], "at most 150 characters"),
        ("users", ["a\x00b"], "NUL"),
        ("rows", [], "a list"),
        ("signature", "mine", "does not know"),
    ],
)
def test_a_head_value_of_the_wrong_type_is_refused(director, raw, key, value, said):
    answer = nothing_imported(logged_in(director), forged(raw, lambda document: document.__setitem__(key, value)))
    assert answer["error"] == "head" and key in answer["detail"] and said in answer["detail"], answer


@pytest.mark.parametrize(
    ("value", "written"), [(float("nan"), b"NaN"), (float("inf"), b"Infinity"), (float("-inf"), b"-Infinity"), (float("inf"), b"1e400")]
)
def test_nan_and_infinity_are_not_json(director, raw, value, written):
    """Python writes them (and its checksum holds them), and reads them back, 1e400 as infinity: no JSON has them."""
    body = forged(raw, set_value("tournament.auditevent", "payload", {"x": value}))
    body = body.replace(b'"x": ' + json.dumps(value).encode(), b'"x": ' + written)
    assert nothing_imported(logged_in(director), body)["error"] == "not_json"


# --- memory: the size is bounded, and a body too big or too full is refused before it is parsed --------------------------


def test_a_body_over_the_limit_is_refused_413_before_it_is_parsed(director, settings):
    settings.TOURNAMENT_FILE_MAX_MB = 1
    body = b'{"rows": [' + b"{}," * 400_000 + b"{}]}"  # 1.2 MB
    with (
        mock.patch("django.http.multipartparser.MultiPartParser.parse", side_effect=AssertionError("parsed")),
        mock.patch("archive.services.transfer.parse_json", side_effect=AssertionError("parsed")),
    ):
        answer = nothing_imported(logged_in(director), body, status=413)
    assert answer["error"] == "too_large" and "at most 1 MB" in answer["detail"]


def test_a_file_of_empty_objects_is_refused_before_it_is_parsed(director, settings):
    settings.TOURNAMENT_FILE_MAX_MB = 2
    body = b'{"rows": [' + b"{}," * 400_000 + b"{}]}"  # 1.2 MB: within the size, but 400,000 values in it
    with mock.patch("archive.services.transfer.parse_json", side_effect=AssertionError("parsed")):
        answer = nothing_imported(logged_in(director), body)
    assert answer["error"] == "too_many_values" and "250,000" in answer["detail"].replace("\xa0", ",")


def test_a_genuine_file_passes_the_checks(director, raw, settings):
    settings.TOURNAMENT_FILE_MAX_MB = 1
    response = post(logged_in(director), raw)
    assert response.status_code == 201, response.content


# --- no working secret comes with a file --------------------------------------------------------------------------


def test_the_file_holds_no_link_hash_and_no_token(raw):
    document = json.loads(raw)
    assert "token_hash" not in document["rows"]["tables.dealerlink"]["fields"]
    assert "token_hash" not in document["rows"]["tournament.displaytoken"]["fields"]
    assert "shuffler_token_hash" not in document["rows"]["tables.table"]["fields"]
    assert document["rows"]["tables.dealerlink"]["rows"] and document["rows"]["tournament.displaytoken"]["rows"]


def with_secrets(raw: bytes, secret: str) -> bytes:
    """A forged file, as an older version wrote them: the links and the shuffler token with hashes of `secret`."""

    def change(document):
        rows = document["rows"]
        for model, field, hashed in (
            ("tables.dealerlink", "token_hash", hash_secret(secret)),
            ("tournament.displaytoken", "token_hash", hash_secret(secret)),
            ("tables.table", "shuffler_token_hash", hash_secret(secret)),
        ):
            rows[model]["fields"].append(field)
            for row in rows[model]["rows"]:
                row.append(hashed)

    return forged(raw, change)


def test_a_forged_file_with_link_hashes_of_its_authors_choosing_opens_nothing_here(director, raw):
    secret = "chosen-by-the-author-of-the-file"
    response = post(logged_in(director), with_secrets(raw, secret))
    assert response.status_code == 201, response.content
    t = Tournament.objects.get(pk=response.json()["id"])
    tablet = APIClient()
    tablet.credentials(HTTP_AUTHORIZATION=f"DealerLink {secret}")
    started = tablet.post(f"/api/tournaments/{t.pk}/tables/1/hand/")
    assert started.status_code in (401, 403) and "unknown or revoked" in started.json()["detail"]
    assert not t.tables.get(number=1).hands.exists()
    assert Client().get(f"/dealer/{secret}/").status_code in (403, 404)
    assert Client().get(f"/display/{secret}/").status_code == 404
    shuffler = APIClient()
    shuffler.credentials(HTTP_AUTHORIZATION=f"Table {secret}")
    assert shuffler.post("/api/shuffler/hand-started/").status_code in (401, 403)
    # The links came in revoked, so the screens say so; the director makes new ones, which work.
    link = DealerLink.objects.get(table__tournament=t)
    display = DisplayToken.objects.get(tournament=t)
    assert link.revoked_at is not None and display.revoked_at is not None
    assert response.json()["links_revoked"] == 2
    _new, fresh = dealer_links.create_dealer_link(t.tables.get(number=1), actor=director)
    tablet.credentials(HTTP_AUTHORIZATION=f"DealerLink {fresh}")
    assert tablet.post(f"/api/tournaments/{t.pk}/tables/1/hand/").status_code == 201


def test_the_scan_sees_no_bracket_and_no_comma_inside_a_text(settings):
    """Brackets, commas and escaped quotes inside texts are text: a genuine file with them passes the scan."""
    settings.TOURNAMENT_FILE_MAX_MB = 1  # at most 125,000 values, 32 deep
    document = {"note": "[" * 100 + '"' + "{" * 100 + "\\", "commas": "," * 900_000, "after": [[['\\"]']]]}
    assert read_file(json.dumps(document).encode()) == document
    with pytest.raises(ServiceError) as caught:
        read_file(json.dumps({"note": "\\", "deep": json.loads("[" * 33 + "]" * 33)}).encode())
    assert caught.value.code == "too_deep"
    with pytest.raises(ServiceError) as caught:
        read_file(json.dumps({"note": '"', "many": [1] * 125_000}).encode())
    assert caught.value.code == "too_many_values"


def test_the_file_holds_no_seed_of_the_next_draw_and_a_forged_one_does_not_choose_it(director, raw):
    document = json.loads(raw)
    part = document["rows"]["tables.draw"]
    pending = [dict(zip(part["fields"], row, strict=True)) for row in part["rows"]]
    pending = [row for row in pending if row["drawn_at"] is None]
    assert len(pending) == 1 and pending[0]["seed"] == "" and pending[0]["commitment"]
    assert all(row[part["fields"].index("seed")] for row in part["rows"] if row[part["fields"].index("drawn_at")])
    chosen = bytes(32)  # the author's seed, and its commitment: the next draw would be his
    row = part["rows"][[r[part["fields"].index("drawn_at")] for r in part["rows"]].index(None)]
    row[part["fields"].index("seed")], row[part["fields"].index("commitment")] = chosen.hex(), seating.commitment(chosen)
    document["checksum"] = schema.checksum(document)
    response = post(logged_in(director), json.dumps(document).encode())
    assert response.status_code == 201, response.content
    t = Tournament.objects.get(pk=response.json()["id"])
    draw = Draw.objects.get(tournament=t, drawn_at__isnull=True)
    assert draw.seed != chosen.hex() and draw.commitment == seating.commitment(bytes.fromhex(draw.seed))
    event = AuditEvent.objects.get(tournament=t, type="tournament.imported")
    assert event.payload["draw_committed"] == {"draw": draw.number, "commitment": draw.commitment}


def test_the_command_reads_no_more_than_the_limit_and_refuses_a_larger_file(db, settings, tmp_path):
    settings.TOURNAMENT_FILE_MAX_MB = 1
    path = tmp_path / "big.json"
    path.write_bytes(b'{"rows": "' + b"x" * 1_500_000 + b'"}')
    before = row_counts()
    with (
        mock.patch("archive.services.transfer.parse_json", side_effect=AssertionError("parsed")),
        pytest.raises(CommandError, match=r"too large for a tournament file \(at most 1 MB\)"),
    ):
        call_command("import_tournament", str(path))
    assert row_counts() == before
