"""Shared fixtures: staff of every role, a structure template, a tournament, a player."""

from __future__ import annotations

import json
import logging
import os
import re
from datetime import UTC, date, datetime, timedelta

import hypothesis
import pytest
from django.conf import settings
from django.contrib.auth.models import Group, User
from django.db import connections, transaction
from django.test import TransactionTestCase
from django.utils import timezone, translation

from tables.services import draws
from tests.browser.conftest import Chromium
from tests.helpers import fixed_room, open_tables, register
from tournament.models import Structure, Tournament
from tournament.rules.structure import LevelSpec, StructureSpec
from tournament.services import registration, setup

PASSWORD = "correct-horse-battery-staple"

# Property tests: the same examples on every run (derandomize), and no time limit per example, so a busy CI
# machine never fails a test that holds. `HYPOTHESIS_PROFILE=explore scripts/test` draws new random
# examples on each run (1,000 where a test sets no number of its own) to look for counterexamples; one
# found there becomes an @example of its test.
hypothesis.settings.register_profile("default", deadline=None, derandomize=True, database=None, print_blob=True)
hypothesis.settings.register_profile("explore", deadline=None, derandomize=False, database=None, print_blob=True, max_examples=1000)
# scripts/test --quick: fewer examples where a test does not set its own count (the whole suite keeps the default).
hypothesis.settings.register_profile("quick", deadline=None, derandomize=True, database=None, print_blob=True, max_examples=25)
hypothesis.settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    """The browser tests' chromium (tests/browser/conftest.py) is closed before a test that does not use it."""
    if "browser" not in item.fixturenames:
        Chromium.close()


def pytest_sessionfinish(session, exitstatus):
    Chromium.close()


def pytest_configure(config):
    """Parallel workers (pytest-xdist, scripts/test) share the machine's Redis: each keeps its own channel
    prefix, in its settings and in the environment of the servers its tests start. pytest-django gives
    each worker its own test database (test_<name>_gw0...)."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if worker:
        os.environ["CHANNEL_PREFIX"] = f"asgi-{worker}"
        layer = settings.CHANNEL_LAYERS["default"]
        if "CONFIG" in layer:
            layer["CONFIG"]["prefix"] = os.environ["CHANNEL_PREFIX"]


# After a test that commits (transactional_db, the browser tests' live server), Django empties every table with one
# TRUNCATE and then makes the content types and permissions again: on PostgreSQL about 0.45 s a test, a whole minute
# of the suite. Here the rows go with DELETE instead (a few milliseconds on tables a test filled with a handful of
# rows; the foreign keys are deferred to the commit, when every table is empty), and the content types and
# permissions, which no test writes, stay. The audit table refuses a DELETE (its guard trigger, migration
# tournament 0002): the guard is off for this transaction only. SQLite keeps Django's own flush.
KEPT_TABLES = {"django_content_type", "auth_permission", "django_migrations"}
AUDIT_GUARD = ("tournament_auditevent", "tournament_auditevent_immutable")
_django_flush = TransactionTestCase._fixture_teardown


def _empty_the_tables(self):
    names = self._databases_names(include_mirrors=False)
    if any(connections[name].vendor != "postgresql" for name in names):
        return _django_flush(self)
    for name in names:
        connection = connections[name]
        tables = [t for t in connection.introspection.django_table_names(only_existing=True, include_views=False) if t not in KEPT_TABLES]
        quote = connection.ops.quote_name
        table, trigger = AUDIT_GUARD
        with transaction.atomic(using=name), connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {quote(table)} DISABLE TRIGGER {quote(trigger)}")
            for t in tables:
                cursor.execute(f"DELETE FROM {quote(t)}")
            cursor.execute(f"ALTER TABLE {quote(table)} ENABLE TRIGGER {quote(trigger)}")


TransactionTestCase._fixture_teardown = _empty_the_tables


BASIC_SPEC = StructureSpec(
    name="Daily 20k",
    denominations=((25, "green"), (100, "black"), (500, "purple"), (1000, "yellow")),
    levels=(
        LevelSpec("level", 20, 100, 200, 0, "none"),
        LevelSpec("level", 20, 200, 400, 400, "bba"),
        LevelSpec("break", 10, color_up=(25,)),
        LevelSpec("level", 20, 300, 600, 600, "bba"),
        LevelSpec("level", 20, 400, 800, 800, "bba"),
    ),
)


@pytest.fixture(autouse=True)
def _default_language():
    """A request's language stays with its thread (LocaleMiddleware activates it): each test starts
    and ends in the default language, so a Czech or Slovak request never changes a later test."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


class _BroadcastFailures(logging.Handler):
    """Collects what core.broadcast logs as failed (a push that did not reach its group)."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.failures: list[str] = []

    def emit(self, record):
        self.failures.append(record.getMessage() + (f": {record.exc_info[1]!r}" if record.exc_info else ""))


@pytest.fixture(autouse=True)
def _no_broadcast_failure(request):
    """A push that fails is logged and lost (core/broadcast.py never fails the request); on the in-memory layer a
    message that cannot be copied was lost that way, unseen, all night. Any broadcast failure logged during a test
    fails it, but in a test that breaks the channel layer on purpose (marked broadcast_failures_expected)."""
    handler = _BroadcastFailures()
    logger = logging.getLogger("core.broadcast")
    logger.addHandler(handler)
    try:
        yield
    finally:
        logger.removeHandler(handler)
    if handler.failures and request.node.get_closest_marker("broadcast_failures_expected") is None:
        pytest.fail("broadcast failed during the test:\n" + "\n".join(handler.failures[:5]), pytrace=False)


@pytest.fixture(autouse=True)
def _every_hand_start_is_a_new_hand(settings):
    """Tests press "new hand" many times in a row, often under a frozen clock; a repeated start within
    HAND_START_REPEAT_SECONDS is the same hand (tables/services/hands.py), so the tests of that window set it."""
    settings.HAND_START_REPEAT_SECONDS = 0


@pytest.fixture(autouse=True)
def _fast_password_hasher(settings):
    """The production hasher is slow by design; tests create many users."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(scope="module")
def module_db(django_db_setup, django_db_blocker):
    """One transaction around the tests of a module, as Django's TestCase.setUpTestData: what a module-scoped
    fixture writes in it (a room made once through the services), every test of the module sees; each test (it
    asks for `db`, as any database test does) runs in a savepoint of its own, rolled back after it, and the whole
    is rolled back after the module. For a module whose tests all start from the same room (a role matrix); not
    with a test that commits (transactional_db)."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield
        transaction.set_rollback(True)


def make_user(username: str, *roles: str, superuser: bool = False) -> User:
    user = User.objects.create_user(username, password=PASSWORD, is_superuser=superuser, is_staff=superuser)
    for role in roles:
        user.groups.add(Group.objects.get_or_create(name=role)[0])
    return user


STAFF = {"director": ("dir", "Director"), "floor": ("floor", "Floor"), "cashier": ("cash", "Cashier"), "dealer": ("deal", "Dealer")}


def make_base(**tournament_overrides) -> dict:
    """What the function fixtures below make (the staff of every role, the structure, the tournament), made once by
    a module-scoped fixture on module_db: their primary keys, for read_base."""
    staff = {role: make_user(*user) for role, user in STAFF.items()}
    template = setup.save_structure_template(BASIC_SPEC, actor=staff["director"])
    t = setup.create_tournament(tournament_data(**tournament_overrides), actor=staff["director"], template=template)
    return {**{role: user.pk for role, user in staff.items()}, "template": template.pk, "tournament": t.pk}


def read_base(made: dict) -> dict:
    """make_base's rows read afresh for a test: the staff by role, "anonymous" (None), the template, the tournament."""
    users = {user.pk: user for user in User.objects.filter(pk__in=[made[role] for role in STAFF])}
    return {
        **{role: users[made[role]] for role in STAFF},
        "anonymous": None,
        "template": Structure.objects.get(pk=made["template"]),
        "tournament": Tournament.objects.get(pk=made["tournament"]),
    }


@pytest.fixture
def director(db):
    return make_user(*STAFF["director"])


@pytest.fixture
def floor(db):
    return make_user(*STAFF["floor"])


@pytest.fixture
def cashier(db):
    return make_user(*STAFF["cashier"])


@pytest.fixture
def dealer(db):
    return make_user(*STAFF["dealer"])


@pytest.fixture
def template(director):
    return setup.save_structure_template(BASIC_SPEC, actor=director)


def tournament_data(**overrides) -> dict:
    data = {
        "name": "Sunday Deepstack",
        "venue": "Casino Bratislava",
        "time_zone": "Europe/Bratislava",
        "start_at": datetime(2026, 11, 29, 18, 0, tzinfo=UTC),
        "table_format": "full_ring",
        "seats_per_table": 9,
        "currency": "EUR",
        "buy_in": 10000,
        "fee": 1500,
        "starting_stack": 20000,
        "reentry_allowed": True,
        "max_reentries": 1,
        "late_reg_until_level": 4,
        "guaranteed_pool": 500000,
    }
    data.update(overrides)
    return data


@pytest.fixture
def tournament(director, template):
    return setup.create_tournament(tournament_data(), actor=director, template=template)


@pytest.fixture
def player(cashier):
    return registration.create_player(actor=cashier, first_name="Jana", last_name="Nováková", date_of_birth=date(1990, 5, 17))


@pytest.fixture
def room(director, cashier, tournament):
    """Two tables of nine, six players at each after the start draw: the tournament."""
    open_tables(director, tournament, [1, 2])
    register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    return tournament


@pytest.fixture
def sold_out_room(director, cashier, tournament):
    """A fixed room of two tables of six, twelve players seated by the start draw: every seat taken."""
    fixed_room(director, [1, 2])
    register(cashier, tournament, 12)
    draws.draw_start(tournament, actor=director)
    return tournament


@pytest.fixture
def open_event(tournament):
    """Tomorrow's tournament, taking up to five places reserved from phones."""
    Tournament.objects.filter(pk=tournament.pk).update(start_at=timezone.now() + timedelta(days=1), reservation_cap=5)
    return Tournament.objects.get(pk=tournament.pk)


@pytest.fixture
def t(room):
    """The room's tournament (two tables of nine, six players at each after the start draw), by a short name."""
    return room


@pytest.fixture
def players(cashier):
    """Six players (F0 to F5 Player), not entered anywhere yet."""
    return [
        registration.create_player(actor=cashier, first_name=f"F{i}", last_name="Player", date_of_birth=date(1990, 1, 1)) for i in range(6)
    ]


@pytest.fixture
def display(director, tournament):
    """The tournament's lobby screen: its display token."""
    return registration.create_display_token(tournament, actor=director, label="Lobby TV")


def pay_places(director, tournament, places: int) -> None:
    """The director's payout structure pays `places` places of the pool as it stands (the one source of
    the places paid, and so of the bubble): first takes the remainder, the rest an equal share."""
    from payouts.services import structure as payouts
    from tournament.selectors.stats import tournament_stats

    pool = tournament_stats(tournament)["prize_pool"]
    share = pool // places
    bands = [[1, 1, pool - share * (places - 1)]] + ([[2, places, share]] if places > 1 else [])
    payouts.edit_structure(tournament, actor=director, rows=bands)


def page_config(page: str, block: str):
    """A screen's settings as the page gives its script: the JSON block of that id ({{ x|json_script:"id" }})."""
    found = re.search(rf'<script id="{block}" type="application/json">(.*?)</script>', page, re.S)
    assert found, f"no {block} block on the page"
    return json.loads(found.group(1))


@pytest.fixture(autouse=True)
def _fresh_public_cache():
    """Answers kept per (tournament, event sequence) outlive a test, and a rolled-back test's ids come
    back in the next one (web/caching.py)."""
    from django.core.cache import caches

    from web.caching import forget_rooms

    caches["public"].clear()
    forget_rooms()
    yield
    caches["public"].clear()
    forget_rooms()
