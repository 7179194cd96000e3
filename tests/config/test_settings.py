"""Settings come from the environment: each case reads them in a fresh process with a clean environment.
The probe loads the settings module alone, as Django does first (no app changes a setting when it starts,
and django.setup() would add about a second a process in imports); the deploy checks and the start-up
test below start Django in full."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from functools import cache
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PROBE = """
import json, os
os.environ['DJANGO_SETTINGS_MODULE'] = 'config.settings'
from django.conf import settings
db = settings.DATABASES['default']
print(json.dumps({
    'debug': settings.DEBUG,
    'engine': db['ENGINE'], 'name': str(db['NAME']), 'user': db.get('USER'), 'host': db.get('HOST'), 'port': db.get('PORT'),
    'layer': settings.CHANNEL_LAYERS['default']['BACKEND'],
    'layer_config': settings.CHANNEL_LAYERS['default'].get('CONFIG'),
    'broker': settings.CELERY_BROKER_URL,
    'eager': settings.CELERY_TASK_ALWAYS_EAGER,
    'allowed_hosts': settings.ALLOWED_HOSTS,
    'id_hash_key': settings.ID_HASH_KEY,
    'secure_ssl_redirect': settings.SECURE_SSL_REDIRECT,
    'session_cookie_secure': settings.SESSION_COOKIE_SECURE,
    'options': settings.DATABASES['default'].get('OPTIONS', {}),
    'health_checks': settings.DATABASES['default'].get('CONN_HEALTH_CHECKS'),
    'workers': settings.WEB_CONCURRENCY,
    'csp': settings.CONTENT_SECURITY_POLICY['DIRECTIVES'],
}))
"""
# Variables that change the settings; every case starts without them.
SETTINGS_VARIABLES = (
    "DJANGO_SETTINGS_MODULE",
    "DATABASE_URL",
    "REDIS_URL",
    "DEBUG",
    "SECRET_KEY",
    "ID_HASH_KEY",
    "ALLOWED_HOSTS",
    "CSRF_TRUSTED_ORIGINS",
    "SQLITE_PATH",
    "CELERY_TASK_ALWAYS_EAGER",
    "SECURE_SSL_REDIRECT",
    "SESSION_COOKIE_SECURE",
    "CSRF_COOKIE_SECURE",
    "SECURE_HSTS_SECONDS",
    "BEHIND_TLS_PROXY",
    "LOG_LEVEL",
    "DB_CONN_MAX_AGE",
    "DB_POOL",
    "DB_CONNECTIONS",
    "DB_POOL_TIMEOUT",
    "DB_POOL_RECONNECT",
    "WEB_CONCURRENCY",
    "CHANNEL_PREFIX",
    "CSP_EXTRA",
)
REAL_SECRET = "k3J9v0yQ-long-random-secret-for-the-settings-test-8Hq2LmN7pR4sT6uW1xZ"
REAL_ID_KEY = "another-long-random-id-hash-key-for-the-settings-test"


def run(*args: str, **env: str) -> subprocess.CompletedProcess:
    # DJANGO_* too: another test in this process may have set DJANGO_ALLOW_ASYNC_UNSAFE, which the deploy check refuses.
    clean = {k: v for k, v in os.environ.items() if k not in SETTINGS_VARIABLES and not k.startswith("DJANGO_")}
    clean.update(env)
    return subprocess.run([sys.executable, *args], cwd=REPO, env=clean, capture_output=True, text=True, timeout=120)


@cache
def probed(env: frozenset[tuple[str, str]]) -> str:
    """The probe's answer for one environment, read once for the whole module (each test parses its own copy)."""
    result = run("-c", PROBE, **dict(env))
    assert result.returncode == 0, result.stderr
    return result.stdout.strip().splitlines()[-1]


def probe(**env: str) -> dict:
    return json.loads(probed(frozenset(env.items())))


def test_nothing_set_runs_on_one_machine():
    found = probe()
    assert found["debug"] is True
    assert found["engine"] == "django.db.backends.sqlite3"
    assert found["name"].endswith("db.sqlite3")
    assert found["layer"] == "channels.layers.InMemoryChannelLayer"
    assert found["eager"] is True and found["broker"] == "memory://"
    assert found["id_hash_key"]  # a development key, so registration works out of the box


def test_database_url_switches_to_postgresql():
    found = probe(DATABASE_URL="postgres://u@h:5432/db")
    assert found["engine"] == "django.db.backends.postgresql"
    assert (found["user"], found["host"], found["port"], found["name"]) == ("u", "h", 5432, "db")
    assert found["layer"] == "channels.layers.InMemoryChannelLayer"  # the database alone does not switch Redis on


def test_redis_url_switches_channels_and_celery_to_redis():
    found = probe(REDIS_URL="redis://cache:6379/2")
    assert found["layer"].startswith("channels_redis.")
    assert found["layer_config"]["hosts"][0]["address"] == "redis://cache:6379/2"
    assert found["layer_config"]["hosts"][0]["max_connections"] <= 100  # redis-py 8 caps a pool at 100
    assert found["broker"] == "redis://cache:6379/2"
    assert found["eager"] is False
    assert found["engine"] == "django.db.backends.sqlite3"


def test_channel_prefix_keeps_apart_the_rooms_that_share_one_redis():
    assert probe(REDIS_URL="redis://cache:6379/2")["layer_config"]["prefix"] == "asgi"
    assert probe(REDIS_URL="redis://cache:6379/2", CHANNEL_PREFIX="room-b")["layer_config"]["prefix"] == "room-b"


def test_csp_extra_adds_a_room_s_own_sources_and_nothing_loose():
    strict = probe()["csp"]
    assert strict["script-src"] == ["'self'"] and strict["style-src"] == ["'self'"] and strict["img-src"] == ["'self'", "data:"]
    found = probe(CSP_EXTRA="img-src https://cdn.example.com; font-src https://fonts.example.com ;")["csp"]
    assert found["img-src"] == ["'self'", "data:", "https://cdn.example.com"]
    assert found["font-src"] == ["'self'", "https://fonts.example.com"]
    assert found["script-src"] == ["'self'"] and found["style-src"] == ["'self'"]


@pytest.mark.parametrize(
    ("env", "missing"),
    [
        ({}, ["SECRET_KEY", "ID_HASH_KEY"]),
        ({"SECRET_KEY": REAL_SECRET}, ["ID_HASH_KEY"]),
        ({"ID_HASH_KEY": REAL_ID_KEY}, ["SECRET_KEY"]),
    ],
)
def test_production_refuses_to_start_without_secrets(env, missing):
    result = run("-c", PROBE, DEBUG="0", **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr
    last_line = result.stderr.strip().splitlines()[-1]
    named = last_line.split("environment: ", 1)[1].split(".", 1)[0].split(", ")
    assert named == missing
    assert result.stdout == ""


def test_production_refuses_the_development_keys():
    dev = probe()["id_hash_key"]
    result = run("-c", PROBE, DEBUG="0", SECRET_KEY=REAL_SECRET, ID_HASH_KEY=dev)
    assert result.returncode != 0 and "development key" in result.stderr


def test_production_with_secrets_is_hardened():
    found = probe(DEBUG="0", SECRET_KEY=REAL_SECRET, ID_HASH_KEY=REAL_ID_KEY)
    assert found["debug"] is False
    assert found["id_hash_key"] == REAL_ID_KEY
    assert "*" not in found["allowed_hosts"]
    assert found["secure_ssl_redirect"] is True and found["session_cookie_secure"] is True


def test_production_passes_the_deploy_check():
    result = run(
        "manage.py",
        "check",
        "--deploy",
        "--fail-level",
        "WARNING",
        DEBUG="0",
        SECRET_KEY=REAL_SECRET,
        ID_HASH_KEY=REAL_ID_KEY,
        ALLOWED_HOSTS="poker.example.com",
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_development_fails_the_deploy_check():
    # The check above can fail: with DEBUG on, the deploy check warns.
    result = run("manage.py", "check", "--deploy", "--fail-level", "WARNING")
    assert result.returncode != 0
    assert "DEBUG" in result.stdout + result.stderr


def test_the_server_freezes_what_it_loads_at_start_up():
    """config/asgi.py moves the start-up objects (and every view module, imported first) into the
    collector's permanent generation; collection stays on for what requests allocate."""
    script = "import gc, sys, config.asgi; print(gc.isenabled(), gc.get_freeze_count(), 'web.tables.views' in sys.modules)"
    result = run("-c", script, DJANGO_SETTINGS_MODULE="config.settings")
    assert result.returncode == 0, result.stderr
    enabled, frozen, views_loaded = result.stdout.split()[-3:]
    assert enabled == "True" and views_loaded == "True"
    assert int(frozen) > 50_000


def test_postgresql_gets_a_bounded_pool_per_worker_under_the_cap():
    found = probe(DATABASE_URL="postgres://u@db:5432/poker", WEB_CONCURRENCY="4", DB_CONNECTIONS="40")
    assert found["workers"] == 4
    assert found["options"]["pool"]["max_size"] == 10  # 4 workers x 10 = the cap of 40
    assert found["options"]["pool"]["timeout"] > 0
    # The database back after an outage: a connection tried again within seconds, and none kept from before handed out.
    assert found["options"]["pool"]["reconnect_timeout"] == 5 and found["health_checks"] is True
    assert probe(DATABASE_URL="postgres://u@db:5432/poker", DB_POOL_RECONNECT="2")["options"]["pool"]["reconnect_timeout"] == 2
    assert probe(DATABASE_URL="postgres://u@db:5432/poker", DB_POOL="0")["options"] == {}
    kept = probe(DATABASE_URL="postgres://u@db:5432/poker?sslmode=require&application_name=web")["options"]
    assert kept["sslmode"] == "require" and kept["application_name"] == "web" and kept["pool"]["max_size"] == 20


def test_the_workers_default_to_one_per_core():
    assert probe()["workers"] == (os.cpu_count() or 1)
