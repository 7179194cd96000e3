"""ID document numbers: normalised, kept only as the last four and a keyed HMAC, never stored or logged in clear."""

from __future__ import annotations

import hashlib
import hmac
import logging
from datetime import date

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from hypothesis import given
from hypothesis import strategies as st

from core import errors
from tables.services import busts
from tests.helpers import id_doc
from tournament.models import Entry, IdCheck, Player
from tournament.rules.identity import age_on, document_hmac, last_four, normalise_document_number
from tournament.services import registration

NUMBER = "SK-AB9876543"
SECRETS = ("AB9876543", "SKAB9876543")


@pytest.mark.parametrize(
    ("raw", "normal"),
    [
        ("SK-AB9876543", "SKAB9876543"),
        ("sk ab 987 654 3", "SKAB9876543"),
        ("  sk.ab/987-654_3\t", "SKAB9876543"),
        ("SK\u00a0AB\u20139876543", "SKAB9876543"),  # a no-break space and an en dash from a copy-paste
        ("EA1234567", "EA1234567"),
        ("", ""),
        ("- / .", ""),
    ],
)
def test_normalisation(raw, normal):
    assert normalise_document_number(raw) == normal


separators = st.sampled_from([" ", "-", "/", ".", "\u00a0", "  "])


@given(st.text(alphabet="ABCDEFGHJKLMNPRSTUVXYZ0123456789", min_size=5, max_size=12), st.data())
def test_formatting_does_not_change_the_identity(number, data):
    positions = data.draw(st.lists(st.integers(0, len(number)), max_size=4))
    formatted = number
    for position in sorted(positions, reverse=True):
        formatted = formatted[:position] + data.draw(separators) + formatted[position:]
    if data.draw(st.booleans()):
        formatted = formatted.lower()
    assert normalise_document_number(formatted) == number
    assert normalise_document_number(normalise_document_number(formatted)) == number
    assert document_hmac(formatted, "key") == document_hmac(number, "key")
    assert last_four(formatted) == number[-4:]


def test_hmac_is_keyed_sha256_of_the_normalised_number():
    expected = hmac.new(b"secret-key", b"SKAB9876543", hashlib.sha256).hexdigest()
    assert document_hmac(NUMBER, "secret-key") == expected
    assert len(expected) == 64
    # Not a plain hash, which anyone could brute-force from the number space.
    assert expected != hashlib.sha256(b"SKAB9876543").hexdigest()


def test_hmac_depends_on_the_key():
    assert document_hmac(NUMBER, "key-one") != document_hmac(NUMBER, "key-two")
    assert document_hmac(NUMBER, "key-one") == document_hmac("sk ab9876543", "key-one")
    assert document_hmac(NUMBER, "key-one") != document_hmac("SK-AB9876544", "key-one")


def test_services_use_the_id_hash_key_setting(settings, cashier, tournament, player):
    settings.ID_HASH_KEY = "a-venue-secret-for-this-test"
    entry = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(NUMBER))
    expected = document_hmac(NUMBER, "a-venue-secret-for-this-test")
    assert entry.id_hmac == expected and entry.id_check.number_hmac == expected
    player.refresh_from_db()
    assert player.id_hmac == expected
    assert expected != document_hmac(NUMBER, "dev-only-insecure-id-hash-key")


@pytest.mark.parametrize(("raw", "four"), [(NUMBER, "6543"), ("ab-12", "AB12"), ("x 1 2 3 4 5", "2345")])
def test_last_four(raw, four):
    assert last_four(raw) == four


@pytest.mark.parametrize(
    ("born", "day", "age"),
    [
        (date(2008, 3, 15), date(2026, 3, 15), 18),
        (date(2008, 3, 16), date(2026, 3, 15), 17),
        (date(2008, 2, 29), date(2026, 2, 28), 17),
        (date(2008, 2, 29), date(2026, 3, 1), 18),
        (date(1990, 12, 31), date(2026, 1, 1), 35),
    ],
)
def test_age_on(born, day, age):
    assert age_on(born, day) == age


# --- the document number never reaches the database or the logs ----------------------------


def every_value_in_the_database() -> list[tuple[str, str]]:
    """Every value of every column of every table, as text: (table, value)."""
    found = []
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor, include_views=False):
            cursor.execute(f"SELECT * FROM {connection.ops.quote_name(table)}")
            for row in cursor.fetchall():
                for value in row:
                    if value is None:
                        continue
                    text = value.decode(errors="replace") if isinstance(value, bytes | memoryview) else str(value)
                    found.append((table, text))
    return found


def leaks(text: str) -> list[str]:
    upper = text.upper()
    return [secret for secret in SECRETS if secret in upper]


def test_the_document_number_is_never_stored_or_logged(cashier, floor, tournament, player, caplog):
    caplog.set_level(logging.DEBUG)
    caplog.set_level(logging.DEBUG, logger="django.db.backends")
    with CaptureQueriesContext(connection) as queries:  # makes Django log every SQL statement with its parameters
        other = registration.create_player(
            actor=cashier,
            first_name="Peter",
            last_name="Horváth",
            date_of_birth=date(1979, 8, 2),
            email="peter@example.com",
            phone="+421 900 123 456",
        )
        entry = registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(NUMBER, "passport"))
        with pytest.raises(errors.ServiceError) as err:  # a refused attempt with the same document
            registration.register_entry(tournament, actor=cashier, player=other, document=id_doc("sk ab 9876543", "passport"))
        busts.bust_entry(entry, actor=floor)
        registration.register_entry(tournament, actor=cashier, player=player, document=id_doc(NUMBER, "passport"))  # a re-entry
    assert not leaks(err.value.message)

    # The test can see what it looks for: the queries were logged, and the database holds the data.
    assert "INSERT INTO" in caplog.text and len(queries) > 10
    values = every_value_in_the_database()
    assert any("Horváth" in text for _, text in values)
    check = IdCheck.objects.filter(player=player).first()
    assert check.number_last4 == "6543" and check.document_type == "passport"
    assert check.number_hmac == document_hmac(NUMBER, registration.settings.ID_HASH_KEY)
    assert any(text == check.number_hmac for _, text in values)
    assert Entry.objects.count() == 2 and Player.objects.count() == 2

    stored = [(table, text) for table, text in values if leaks(text)]
    assert stored == []
    assert not leaks(caplog.text)
    assert not [q["sql"] for q in queries.captured_queries if leaks(q["sql"])]
