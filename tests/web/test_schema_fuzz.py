"""The whole JSON API against its own OpenAPI schema (drf-spectacular), fuzzed by schemathesis.

Each operation of /api/schema/ is one test: schemathesis generates requests (valid and invalid),
sends them with a director's API token (asked for at POST /api/auth/token/, as a tablet does) to the
Django app in process (WSGI), and checks every answer: no 5xx, a status code the schema documents,
the documented content type and headers, a body that matches the documented serializer, invalid
input refused, a missing required header refused, an undocumented method answered 405. The
tournament it runs against is a real one: a structure, two tables, six entries seated by the start
draw, a display screen and the clock running; path parameters are drawn partly from its real
numbers, so requests reach the views' rules and not only their 404s.

Not checked: that every request the schema allows succeeds (positive_data_acceptance). The house's
rules and references to objects that do not exist are refused with a documented 400 that a schema
cannot express (an unknown time zone, a template id that is not there, a wrong password).

Bounded for CI (about a minute of CPU): FUZZ_EXAMPLES examples per operation (default 6) beside the
schema's examples and the coverage cases; raise it by hand for a deeper run.
"""
from __future__ import annotations

import os
import re
import uuid

import pytest
import schemathesis
from django.core import signals
from django.core.cache import cache
from django.db import close_old_connections
from django.test import Client
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from schemathesis import checks
from schemathesis.core.failures import AcceptedNegativeData
from schemathesis.core.parameters import ParameterLocation

from clock import services as clock_services
from config.wsgi import application
from tables import draws
from tables import setup as table_setup
from tests.conftest import PASSWORD, make_user
from tests.tables.test_seating_services import register
from tournament import services

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "6"))

schema = schemathesis.openapi.from_wsgi("/api/schema/?format=json", application)

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


@pytest.fixture
def seeded(db, director, cashier, template, tournament):
    """A tournament in play: two tables, six entries seated by the start draw, a screen, the clock running."""
    for number in (1, 2):
        table_setup.open_table(director, tournament, number, 9)
    entries = register(cashier, tournament, 6)
    draws.draw_start(director, tournament)
    display = services.create_display_token(director, tournament, "Lobby TV")
    clock_services.start_clock(director, tournament)
    KNOWN.clear()
    KNOWN.update({
        "id": [tournament.pk, template.pk],
        "number": [1, 2, 3, 6],
        "display_id": [display.pk],
        "player_id": [entries[0].player_id],
    })
    cache.clear()  # the public throttle and the login lockout count in the cache
    yield tournament
    KNOWN.clear()
    cache.clear()


@pytest.fixture
def keep_connection(seeded, director_token):
    """Django's WSGI handler closes the database connection after each request, which would end the
    test's transaction; django.test.Client unhooks the same signal around its own requests (so this
    comes after the fixtures that use it)."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    yield
    signals.request_started.connect(close_old_connections)
    signals.request_finished.connect(close_old_connections)


@pytest.fixture
def director_token(director) -> str:
    """The director's token, asked for as a tablet asks: POST /api/auth/token/ with the password."""
    answer = Client().post("/api/auth/token/", {"username": director.username, "password": PASSWORD},
                           content_type="application/json")
    assert answer.status_code == 200, answer.content
    return answer.json()["token"]


@pytest.fixture
def director(db):
    return make_user("dir", "Director")


@schema.parametrize()
@settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
          suppress_health_check=list(HealthCheck))
def test_every_operation_answers_as_documented(case, seeded, director_token, keep_connection):
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and re.fullmatch(r"[!-~]{1,200}", key):
        # One key per press (web/idempotency.py): a valid key the generator happens to repeat for another
        # request would rightly be refused (422, reused); keep it valid and make it this request's own.
        case.headers["Idempotency-Key"] = f"{key}-{uuid.uuid4().hex}"
    # Every check but positive_data_acceptance: a request the schema allows may still break a rule of the
    # house or name an object that does not exist (a 400 with the fields, documented as such).
    case.call_and_validate(headers={"Authorization": f"Token {director_token}"},
                           excluded_checks=[checks.positive_data_acceptance])
