"""The whole JSON API against its own OpenAPI schema (drf-spectacular), fuzzed by schemathesis.

Each operation of /api/schema/ is one test: schemathesis generates requests (valid and invalid),
sends them with a director's API token (asked for at POST /api/auth/token/, as a tablet does) to the
Django app in process (WSGI), and checks every answer: no 5xx, a status code the schema documents,
the documented content type and headers, a body that matches the documented serializer, invalid
input refused, a missing required header refused, an undocumented method answered 405. The
tournament it runs against is a real one: a structure, two tables, six entries seated by the start
draw, a display screen and the clock running; path parameters are drawn partly from its real
numbers, so requests reach the views' rules and not only their 404s. It is built once per module on
each worker, token included (`fuzz_room`), and each test meets it as built (`seeded`).

Not checked: that every request the schema allows succeeds (positive_data_acceptance). The house's
rules and references to objects that do not exist are refused with a documented 400 that a schema
cannot express (an unknown time zone, a template id that is not there, a wrong password).

Bounded for CI: FUZZ_EXAMPLES examples per operation (default 6) beside the schema's examples and the
coverage cases, some 9,200 requests in all, about 100 s on one core and nearly all of it the requests
themselves (each through the middleware, the token, the role and the Idempotency-Key's claim); raise it
by hand for a deeper run.

One answer every run: CI draws the same requests every time and they meet the same database, whatever
the order of the tests and the ids the database (SQLite or PostgreSQL) handed out before:
- schemathesis' seed is fixed (SEED, from which each operation's seed is derived) and its deterministic
  mode on, unless the explore profile is loaded. A test's `derandomize=True` is not enough: schemathesis
  takes from a test's hypothesis settings only those that differ from the profile named "default", which
  tests/conftest.py makes derandomized, and otherwise seeds every run at random;
- neither schemathesis nor hypothesis mixes in literals found in the project's modules: that pool depends
  on which modules the run has imported so far, so on the tests that ran before (`no_local_constants`);
- every object of the seeded tournament has the same id on every run: before anything is created, each
  table's next id is set to FIXED_ID (`fixed_ids`; PostgreSQL's sequences do not roll back with a test,
  so its ids otherwise depend on the tests before), and the real ids the requests name follow from them;
- the draws' seeds and the tokens come from a seeded random source instead of `secrets`;
- every test meets the seeded tournament as it was built, whichever of this module's tests ran before it
  on its worker: it runs in a savepoint of the module's transaction, and the sequences (PostgreSQL's),
  the random source, the clock's times and the cache are put back before it (`seeded`).
FUZZ_LOG=<file> appends each request drawn and the status of its answer, one JSON line each: two runs
that give the same file met the same cases. The schema's integer bounds are the database's (Django's
limits per backend), so a run on SQLite and one on PostgreSQL differ in those boundary values.

Exploring for new finds is a separate, explicit run, never CI's:

    HYPOTHESIS_PROFILE=explore FUZZ_EXAMPLES=50 scripts/test tests/web/test_schema_fuzz.py

draws fresh random requests on each run. A find becomes a fixed example: a test of its own that sends
that request (tests/web/test_bad_input.py holds them: the broken multipart body, the form with more than
1,000 fields), so CI keeps checking it on every run.
"""

from __future__ import annotations

import itertools
import json
import os
import random
import re
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from unittest import mock

import pytest
import schemathesis
from django.apps import apps
from django.core import signals
from django.core.cache import cache
from django.db import close_old_connections, connection
from django.db.models import AutoField, F
from django.test import Client, override_settings
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.internal.conjecture import providers
from schemathesis import checks
from schemathesis.core import NotSet
from schemathesis.core.failures import AcceptedNegativeData
from schemathesis.core.parameters import ParameterLocation

from clock.models import ClockState
from clock.services import clock as clock_services
from config.wsgi import application
from tables.services import draws
from tables.services import setup as table_setup
from tests.conftest import BASIC_SPEC, PASSWORD, STAFF, make_user, tournament_data
from tests.helpers import register
from tournament.services import registration, setup

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))
LOG = os.environ.get("FUZZ_LOG")  # a file: each request drawn and its answer's status, one JSON line each
SEED = 2026  # schemathesis' seed in CI (see below)
FIXED_ID = 1_000_001  # the first id of every table in the fuzzed database, above any id a test run hands out

DETERMINISTIC = settings().derandomize  # the hypothesis profile of tests/conftest.py: not HYPOTHESIS_PROFILE=explore

pytestmark = pytest.mark.deep  # every operation fuzzed: the whole suite runs it, scripts/test --quick leaves it out

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)
if DETERMINISTIC:
    # The same requests on every run. Schemathesis takes from hypothesis only the settings that differ from the
    # profile named "default" (ours derandomizes) and otherwise draws a random seed per run: its own seed (one
    # per operation is derived from it) and its deterministic mode are fixed here. Nor does it draw from the
    # literals it finds in the application's modules: that pool depends on which modules the run has imported
    # (the other tests collected with it) and changes with any string added anywhere in the code.
    schema.config.seed = SEED
    schema.config.generation.update(deterministic=True)
    schema.config.analysis.constants.enabled = False

# The path parameters that name the seeded tournament's objects, filled in by the `seeded` fixture.
KNOWN: dict[str, list[int]] = {}


@schema.hook
def flatmap_case(context, case):
    """Half the time a valid path names a real object (the seeded tournament, a real entry, table or
    receipt number...), so the request reaches the view's rules and not only its 404. A path generated
    to be invalid stays as generated."""
    real = {name: st.sampled_from(KNOWN[name]) for name in case.path_parameters or {} if KNOWN.get(name)}
    if not real or (case.meta is not None and case.meta.is_negative_at(ParameterLocation.PATH)):
        return st.just(case)

    def name_real_objects(chosen: dict) -> object:
        case.path_parameters = {**case.path_parameters, **chosen}
        return case

    return st.one_of(st.just(case), st.fixed_dictionaries(real).map(name_real_objects))


FORM_MEDIA_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


@schema.hook
def filter_failure(context, failure, case, response):
    """Every failure counts but two readings of DRF's that the API means (ST201, "schema-violating
    request accepted"), each recognised narrowly:
    - a form body and a query string follow HTML form rules: a missing checkbox is false and an empty
      field is no value (`?status=` is no filter), so a "missing" or empty field there is accepted;
    - a JSON number sent for a text field is read as its text (DRF's CharField)."""
    if not isinstance(failure, AcceptedNegativeData):
        return True
    if case.media_type in FORM_MEDIA_TYPES:
        return False
    if case.meta is not None and case.meta.is_negative_at(ParameterLocation.QUERY) and "" in (case.query or {}).values():
        return False
    typed = re.search(r"in body - (\w+): Incorrect type", failure.message)
    if typed and isinstance(case.body, dict):
        value = case.body.get(typed.group(1))
        return not (isinstance(value, int | float) and not isinstance(value, bool))
    return True


@schema.hook
def after_call(context, case, response):
    """With FUZZ_LOG set, one line per request: what was sent (but the token) and the answer's status."""
    if not LOG:
        return
    headers = {name: value for name, value in (case.headers or {}).items() if name != "Authorization"}
    body = None if isinstance(case.body, NotSet) else case.body
    line = {
        "operation": case.operation.label,
        "path": case.path_parameters,
        "query": case.query,
        "headers": headers,
        "media_type": case.media_type,
        "body": body,
        "status": response.status_code,
    }
    with open(LOG, "a", encoding="utf-8") as log:
        log.write(json.dumps(line, sort_keys=True, default=repr) + "\n")


@contextmanager
def fixed_ids():
    """Every table's next id is FIXED_ID (or the one after its highest id, if that is above), so the seeded
    tournament's objects have the same ids whatever the database handed out before: on PostgreSQL a
    rolled-back test's ids are gone for good (sequences are not transactional), so a run's ids depend on the
    tests before it. A few queries for all the tables. Gives PostgreSQL's sequences, by table (none on
    SQLite, which keeps the last id in sqlite_sequence: that rolls back with the transaction). PostgreSQL's
    sequences are put back as they were afterwards, so later tests see the ids they would have seen."""
    quote = connection.ops.quote_name
    tables = {
        model._meta.db_table: model._meta.pk.column
        for model in apps.get_models(include_auto_created=True)
        if model._meta.managed and isinstance(model._meta.pk, AutoField)
    }
    with connection.cursor() as cursor:
        cursor.execute(
            " UNION ALL ".join(f"SELECT %s, MAX({quote(column)}) FROM {quote(table)}" for table, column in tables.items()), list(tables)
        )
        starts = {table: max(FIXED_ID, (top or 0) + 1) for table, top in cursor.fetchall()}
        if connection.vendor == "postgresql":
            cursor.execute(
                "SELECT t.name, pg_get_serial_sequence(t.quoted, t.col)"
                " FROM unnest(%s::text[], %s::text[], %s::text[]) AS t(name, quoted, col)",
                [list(tables), [quote(table) for table in tables], list(tables.values())],
            )
            sequences = dict(cursor.fetchall())  # each name comes quoted as needed
        else:
            sequences = {}
            cursor.executemany("DELETE FROM sqlite_sequence WHERE name = %s", [[table] for table in starts])
            cursor.executemany(
                "INSERT INTO sqlite_sequence (name, seq) VALUES (%s, %s)", [[table, start - 1] for table, start in starts.items()]
            )
    before = sequences_now(list(sequences.values()))
    set_sequences([(name, starts[table], False) for table, name in sequences.items()])
    try:
        yield sequences
    finally:
        set_sequences(before)


def sequences_now(names: list[str]) -> list[tuple[str, int, bool]]:
    """Where each of these PostgreSQL sequences stands, (name, last_value, is_called) as setval takes them:
    one query."""
    if not names:
        return []
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(f"SELECT %s, last_value, is_called FROM {name}" for name in names), names)
        return cursor.fetchall()


def set_sequences(states: list[tuple[str, int, bool]]) -> None:
    """Each PostgreSQL sequence named set to its (value, is_called): one query."""
    if not states:
        return
    names, values, called = (list(column) for column in zip(*states, strict=True))
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT setval(s.name::regclass, s.value, s.called)"
            " FROM unnest(%s::text[], %s::bigint[], %s::boolean[]) AS s(name, value, called)",
            [names, values, called],
        )


@pytest.fixture
def no_local_constants(monkeypatch):
    """Hypothesis, too, mixes literals of the project's modules into what it draws, from the modules imported so
    far (hypothesis.internal.conjecture.providers): those depend on the tests that ran before, and a module a
    request imports on its first use adds more. In CI the fuzzer draws without them (its own fixed list of
    awkward values stays); exploring keeps them."""
    if DETERMINISTIC:
        monkeypatch.setattr(providers, "_get_local_constants", providers.Constants)
        providers.CONSTANTS_CACHE.cache.clear()  # the values allowed per kind of draw, local ones included
    yield
    providers.CONSTANTS_CACHE.cache.clear()


@contextmanager
def fixed_chance(chance: random.Random):
    """The draws' seeds and every token from a seeded random source, not `secrets`: the start draw seats the
    same players at the same seats on every run, and a request that draws again draws the same."""
    with mock.patch.object(draws.secrets, "token_bytes", lambda n=None: chance.randbytes(32 if n is None else n)):
        yield


@dataclass(frozen=True)
class Room:
    """The seeded state as the module's transaction holds it, and what each test puts back to meet it afresh."""

    tournament: int
    token: str  # the director's API token
    seeded_at: datetime
    sequences: list  # PostgreSQL's sequences as the seeding left them: (name, last_value, is_called)
    chance: random.Random
    chance_state: tuple  # the random source as the seeding left it


@pytest.fixture(scope="module")
def fuzz_room(module_db):
    """A tournament in play, built once per module (per worker): two tables, six entries seated by the start
    draw, a screen, the clock running, and the director's token, asked for as a tablet asks (POST
    /api/auth/token/ with the password). It lives in module_db's transaction (tests/conftest.py), open for the
    module's tests and rolled back after them; each test runs in a savepoint inside it (pytest-django's `db`), so
    what a test writes is gone before the next one (`seeded`). The users get the fast password hasher of tests/conftest.py here too:
    its per-test settings do not reach a module's fixture."""
    chance = random.Random(2026)
    with fixed_ids() as sequences, override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]):
        with fixed_chance(chance):
            director, cashier = make_user(*STAFF["director"]), make_user(*STAFF["cashier"])
            template = setup.save_structure_template(BASIC_SPEC, actor=director)
            tournament = setup.create_tournament(tournament_data(), actor=director, template=template)
            for number in (1, 2):
                table_setup.open_table(tournament, actor=director, number=number, seats=9)
            entries = register(cashier, tournament, 6)
            draws.draw_start(tournament, actor=director)
            display = registration.create_display_token(tournament, actor=director, label="Lobby TV")
            clock_services.start_clock(tournament, actor=director)
            assert tournament.pk == FIXED_ID, f"a row of the database has an id of {FIXED_ID} or more: the ids would vary (fixed_ids)"
            cache.clear()  # the public throttle and the login lockout count in the cache
            answer = Client().post(
                "/api/auth/token/", {"username": director.username, "password": PASSWORD}, content_type="application/json"
            )
            assert answer.status_code == 200, answer.content
        KNOWN.update(
            {
                "id": [tournament.pk, template.pk],
                "number": [1, 2, 3, 6],
                "display_id": [display.pk],
                "player_id": [entries[0].player_id],
            }
        )
        yield Room(
            tournament=tournament.pk,
            token=answer.json()["token"],
            seeded_at=timezone.now(),
            sequences=sequences_now(list(sequences.values())),
            chance=chance,
            chance_state=chance.getstate(),
        )
        KNOWN.clear()


@pytest.fixture
def seeded(fuzz_room, db, no_local_constants):
    """The room as it was seeded, for this test: its rows as the savepoint holds them; PostgreSQL's sequences
    (which no rollback puts back) and the random source where the seeding left them; the clock's times moved
    on by the time since the seeding, so it runs as if started just before this test; the cache empty."""
    set_sequences(fuzz_room.sequences)
    since = timezone.now() - fuzz_room.seeded_at
    ClockState.objects.filter(tournament_id=fuzz_room.tournament).update(
        **{field: F(field) + since for field in ("started_at", "paused_at", "announced_until", "next_due_at")}
    )
    fuzz_room.chance.setstate(fuzz_room.chance_state)
    cache.clear()
    with fixed_chance(fuzz_room.chance):
        yield fuzz_room
    cache.clear()


@pytest.fixture
def keep_connection(seeded):
    """Django's WSGI handler closes the database connection after each request, which would end the
    module's transaction and the test's savepoint; django.test.Client unhooks the same signal around its
    own requests (the login of `fuzz_room`)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def presses():
    """The number that makes each request's Idempotency-Key its own: the same on every run (not a uuid)."""
    return itertools.count(1)


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, seeded, keep_connection, presses):
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and re.fullmatch(r"[!-~]{1,200}", key):
        # One key per press (web/idempotency.py): a valid key the generator happens to repeat for another
        # request would rightly be refused (422, reused); keep it valid and make it this request's own.
        case.headers["Idempotency-Key"] = f"{key}-{next(presses)}"
    # Every check but positive_data_acceptance: a request the schema allows may still break a rule of the
    # house or name an object that does not exist (a 400 with the fields, documented as such).
    # Plain bodies: the in-process (WSGI) client does not undo a gzipped answer (the floor map's), as a browser does.
    response = case.call_and_validate(
        headers={"Authorization": f"Token {seeded.token}", "Accept-Encoding": "identity"}, excluded_checks=[checks.positive_data_acceptance]
    )
    assert response.status_code < 500
