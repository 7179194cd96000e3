"""docker-compose.yml: the production services exist, have health checks, and every command they
run names something this project really has."""

import http.client
import importlib
import importlib.util
import os
import re
import shlex
import subprocess
from pathlib import Path
from urllib.parse import urlsplit

from django.core.management import get_commands
from django.urls import resolve

from config import serve
from tests import production
from tests.production import compose

ROOT = Path(__file__).resolve().parents[2]


def commands_of(service: dict) -> list[list[str]]:
    command = service.get("command")
    if command is None:
        return []
    words = command if isinstance(command, list) else shlex.split(command)
    if words[:2] == ["sh", "-c"]:
        return [shlex.split(part) for part in words[2].split("&&")]
    return [words]


def mounted_file(service: dict, path: str) -> Path:
    """The project's file that the service's bind mount (`./file:path`) puts at `path` in its container."""
    for volume in service.get("volumes", []):
        source, target = volume.split(":")[:2]
        if target == path and source.startswith("./"):
            return ROOT / source
    raise AssertionError(f"{path} is not a file of the project mounted into the service")


def check_command(words: list[str], service: dict | None = None) -> None:
    if words[:2] == ["nice", "-n"]:  # the worker's background work yields the CPU to the web server's (docs/operating.md)
        assert 1 <= int(words[2]) <= 19, words
        words = words[3:]
    program = words[0]
    if program == "python" and words[1] == "manage.py":
        assert words[2] in get_commands(), f"no management command {words[2]}"
    elif program == "python" and words[1] == "-m":
        assert hasattr(importlib.import_module(words[2]), "main"), words[2]
    elif program == "uvicorn":
        module, attr = words[1].split(":")
        assert hasattr(importlib.import_module(module), attr), words[1]
    elif program == "celery":
        app = words[words.index("-A") + 1]
        assert hasattr(importlib.import_module(f"{app}.celery"), "app")
        assert words[words.index("-A") + 2] in {"worker", "beat", "inspect"}
    elif program == "redis-server":
        pass  # the redis image's own program
    elif program == "sh" and service is not None:
        assert mounted_file(service, words[1]).is_file(), words  # a script of the project, mounted read-only
    else:
        raise AssertionError(f"unknown program in docker-compose.yml: {program}")


def test_services_volumes_and_health_checks():
    data = compose()
    services = data["services"]
    assert {"postgres", "redis", "web", "worker", "beat"} <= set(services)
    for name, service in services.items():
        assert "healthcheck" in service, f"{name} has no health check"
    assert {"pgdata", "redisdata", "backups"} <= set(data["volumes"])
    assert any("pgdata" in v for v in services["postgres"]["volumes"])


def test_every_command_exists_in_the_project():
    services = compose()["services"]
    checked = 0
    for service in services.values():
        for words in commands_of(service):
            check_command(words, service)
            checked += 1
    assert checked >= 4


def test_health_check_urls_resolve_and_answer(client, db):
    text = (ROOT / "docker-compose.yml").read_text()
    paths = re.findall(r"http://127\.0\.0\.1:8000(/[\w/-]*)", text)
    assert paths
    for path in paths:
        resolve(path)
        assert client.get(path).status_code == 200


def test_app_services_get_production_settings():
    services = compose()["services"]
    for name in ("web", "worker", "beat"):
        env = services[name]["environment"]
        assert env["DEBUG"] == "0"
        assert {"SECRET_KEY", "ID_HASH_KEY", "DATABASE_URL", "REDIS_URL"} <= set(env)


def test_dockerfile_builds_from_requirements_and_compiles_catalogues():
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "requirements.txt" in dockerfile and "compilemessages" in dockerfile and "collectstatic" in dockerfile


def test_the_server_trusts_forwarded_addresses_only_from_the_configured_proxy():
    """`--forwarded-allow-ips '*'` would let any client pick its own address (and escape the lockout
    and the throttles); uvicorn then reads FORWARDED_ALLOW_IPS, which compose defaults to loopback."""
    web = compose()["services"]["web"]
    assert all("--forwarded-allow-ips" not in words for words in commands_of(web))
    assert "--forwarded-allow-ips" not in (ROOT / "Dockerfile").read_text()
    assert serve.options({})["forwarded_allow_ips"] == "127.0.0.1"


def test_the_server_runs_one_worker_per_core_unless_told_with_a_bounded_pool_each():
    assert ["python", "-m", "config.serve"] in commands_of(compose()["services"]["web"])
    assert 'CMD ["python", "-m", "config.serve"]' in (ROOT / "Dockerfile").read_text()
    redis = {"REDIS_URL": "redis://r:6379/0"}
    assert serve.options(redis)["workers"] == (os.cpu_count() or 1)
    assert serve.options({**redis, "WEB_CONCURRENCY": "3"})["workers"] == 3
    assert serve.options({"WEB_CONCURRENCY": "3"})["workers"] == 1  # no Redis: pushes cannot cross processes
    assert compose()["x-app"]["environment"]["FORWARDED_ALLOW_IPS"] == "${FORWARDED_ALLOW_IPS:-127.0.0.1}"


def test_the_web_health_check_passes_against_the_production_server(tmp_path):
    """The compose web command's server with compose's production environment (DEBUG=0, ALLOWED_HOSTS
    defaulting to localhost, the HTTPS redirect on), and compose's own health check command against it:
    exit 0. Plain HTTP elsewhere is still redirected, and an unlisted Host is still refused."""
    healthcheck = compose()["services"]["web"]["healthcheck"]["test"]
    assert healthcheck[0] == "CMD"
    with production.web_server(tmp_path) as (port, env):
        assert env["DEBUG"] == "0" and env["ALLOWED_HOSTS"] == "localhost"
        check = subprocess.run(production.localise(healthcheck[1:], port), cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
        assert check.returncode == 0, check.stderr

        def get(path: str, host: str) -> int:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            connection.request("GET", path, headers={"Host": host})
            status = connection.getresponse().status
            connection.close()
            return status

        assert get("/healthz", "localhost") == 200
        assert get("/healthz", "127.0.0.1") == 400  # not in ALLOWED_HOSTS: why the check names a host
        assert get("/accounts/login/", "localhost") == 301  # everything else still goes to HTTPS


def test_the_health_check_names_a_host_that_allowed_hosts_accepts():
    spec = importlib.util.spec_from_file_location("healthcheck", ROOT / "scripts" / "healthcheck.py")
    healthcheck = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(healthcheck)
    assert healthcheck.host_header("localhost") == "localhost"
    assert healthcheck.host_header(" poker.example.com , localhost") == "poker.example.com"
    assert healthcheck.host_header(".example.org") == "example.org"
    assert healthcheck.host_header("*") == "localhost"
    assert healthcheck.host_header("") == "localhost"


def test_the_backup_service_dumps_the_app_database_with_the_postgres_image_into_its_volume():
    """pg_dump of the postgres service's own image (the same major version), the app's credentials, every
    BACKUP_EVERY_MINUTES (5) keeping BACKUP_KEEP (48) into the `backups` volume, with the project's script
    (tests/resilience/test_backup_restore.py runs it)."""
    services = compose()["services"]
    backup = services["backup"]
    assert backup["image"] == services["postgres"]["image"]
    assert backup["restart"] == "unless-stopped"
    assert backup["depends_on"]["postgres"]["condition"] == "service_healthy"
    assert commands_of(backup) == [["sh", "/scripts/backup"]]
    assert mounted_file(backup, "/scripts/backup") == ROOT / "scripts" / "backup"
    assert "./scripts/backup:/scripts/backup:ro" in backup["volumes"]
    assert "backups:/backups" in backup["volumes"]
    assert backup["healthcheck"]["test"] == ["CMD", "sh", "/scripts/backup", "check"]
    dotenv = {"POSTGRES_PASSWORD": "s3cret"}
    env = {name: production.interpolate(str(value), dotenv) for name, value in backup["environment"].items()}
    assert env["BACKUP_DIR"] == "/backups"
    assert (env["BACKUP_EVERY_MINUTES"], env["BACKUP_KEEP"]) == ("5", "48")
    tuned = {**dotenv, "BACKUP_EVERY_MINUTES": "15", "BACKUP_KEEP": "96"}
    assert production.interpolate(backup["environment"]["BACKUP_EVERY_MINUTES"], tuned) == "15"
    assert production.interpolate(backup["environment"]["BACKUP_KEEP"], tuned) == "96"
    # The app's own database, user and password: those of the app's DATABASE_URL.
    app_url = urlsplit(production.interpolate(compose()["x-app"]["environment"]["DATABASE_URL"], dotenv))
    assert (env["PGHOST"], env["PGPORT"]) == (app_url.hostname, str(app_url.port)) == ("postgres", "5432")
    assert (env["PGUSER"], env["PGPASSWORD"], env["PGDATABASE"]) == (app_url.username, app_url.password, app_url.path[1:])
    postgres = services["postgres"]["environment"]
    assert (env["PGUSER"], env["PGDATABASE"]) == (postgres["POSTGRES_USER"], postgres["POSTGRES_DB"])
    assert backup["environment"]["PGPASSWORD"] == postgres["POSTGRES_PASSWORD"]
