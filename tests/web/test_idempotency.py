"""One press, one effect: the Idempotency-Key header of every state-changing API call (web/idempotency.py)
and the one client that sends it (static/js/api.js)."""

from __future__ import annotations

import json
import shutil
import subprocess
from datetime import date, timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.concurrency import at_once
from tests.conftest import make_user
from tests.helpers import client_for
from tournament.models import AuditEvent, DisplayToken, Entry
from tournament.services import registration
from web.models import IdempotencyKey

ROOT = Path(__file__).resolve().parents[2]


def register(client, tournament, player, key=None, number="EA1234567"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(
        f"/api/tournaments/{tournament.pk}/entries/",
        {"player": player.pk, "document_type": "id_card", "document_number": number, "seen": True},
        format="json",
        **headers,
    )


def new_display(client, tournament, key=None, label="TV 1"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(f"/api/tournaments/{tournament.pk}/displays/", {"label": label}, format="json", **headers)


def test_a_retry_gets_the_first_answer_and_changes_nothing(cashier, tournament, player):
    client = client_for(cashier)
    first = register(client, tournament, player, key="press-1")
    assert first.status_code == 201, first.content
    events = AuditEvent.objects.count()
    again = register(client, tournament, player, key="press-1")
    assert again.status_code == 201 and again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Entry.objects.count() == 1 and AuditEvent.objects.count() == events
    assert not first.has_header("Idempotent-Replayed")


def test_without_a_key_each_request_acts(director, tournament):
    client = client_for(director)
    assert new_display(client, tournament).status_code == 201 and new_display(client, tournament).status_code == 201
    assert DisplayToken.objects.count() == 2 and not IdempotencyKey.objects.exists()


def test_a_secret_in_the_first_answer_is_not_kept_for_a_replay(director, tournament):
    client = client_for(director)
    first = new_display(client, tournament, key="tv")
    again = new_display(client, tournament, key="tv")
    assert first.json()["token"] and first.json()["url"]
    assert again.status_code == 201 and again.json()["id"] == first.json()["id"] and again.json()["token"] is None
    assert again.json()["url"] is None and DisplayToken.objects.count() == 1
    assert first.json()["token"] not in IdempotencyKey.objects.get().body


def test_the_same_key_with_another_body_is_refused(cashier, tournament, player):
    other = registration.create_player(actor=cashier, first_name="Petr", last_name="Novák", date_of_birth=date(1980, 1, 2))
    client = client_for(cashier)
    assert register(client, tournament, player, key="k").status_code == 201
    events = AuditEvent.objects.count()
    reused = register(client, tournament, other, key="k", number="EB7654321")
    assert reused.status_code == 422 and reused.json()["error"] == "idempotency_key_reused" and reused.json()["detail"]
    assert Entry.objects.count() == 1 and AuditEvent.objects.count() == events
    assert register(client, tournament, other, key="k2", number="EB7654321").status_code == 201, "with its own key it runs"


def test_the_same_key_on_another_path_is_refused(director, tournament):
    client = client_for(director)
    display = new_display(client, tournament, key="k").json()
    revoke = client.post(f"/api/tournaments/{tournament.pk}/displays/{display['id']}/revoke/", HTTP_IDEMPOTENCY_KEY="k")
    assert revoke.status_code == 422 and revoke.json()["error"] == "idempotency_key_reused"
    assert DisplayToken.objects.get().active


def test_keys_are_per_user(director, tournament):
    boss = make_second_director()
    assert new_display(client_for(director), tournament, key="same").status_code == 201
    second = new_display(client_for(boss), tournament, key="same", label="TV 2")
    assert second.status_code == 201 and not second.has_header("Idempotent-Replayed")
    assert DisplayToken.objects.count() == 2


def make_second_director():
    return make_user("dir2", "Director")


@pytest.mark.parametrize("key", ["", "has space", "x" * 256, "ключ"])
def test_a_malformed_key_is_refused_and_nothing_changes(director, tournament, key):
    response = new_display(client_for(director), tournament, key=key)
    assert response.status_code == 400 and response.json()["error"] == "bad_idempotency_key"
    assert not DisplayToken.objects.exists() and not IdempotencyKey.objects.exists()


def test_a_refusal_is_the_first_answer_too(director, tournament):
    client = client_for(director)
    first = new_display(client, tournament, key="blank", label="")
    again = new_display(client, tournament, key="blank", label="")
    assert first.status_code == again.status_code == 400 and again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true" and not DisplayToken.objects.exists()


def test_a_key_expires_after_a_day(director, tournament):
    client = client_for(director)
    assert new_display(client, tournament, key="old").status_code == 201
    IdempotencyKey.objects.update(created_at=timezone.now() - timedelta(hours=24, seconds=1))
    fresh = new_display(client, tournament, key="old", label="TV 2")
    assert fresh.status_code == 201 and not fresh.has_header("Idempotent-Replayed") and DisplayToken.objects.count() == 2
    assert IdempotencyKey.objects.count() == 1 and IdempotencyKey.objects.get().created_at > timezone.now() - timedelta(minutes=1)


def test_a_request_that_fails_leaves_no_claim(director, tournament, monkeypatch):
    real = registration.create_display_token

    def broken(*args, **kwargs):
        real(*args, **kwargs)  # the work is done, then the process fails before it answers
        raise RuntimeError("the server fell over")

    monkeypatch.setattr(registration, "create_display_token", broken)
    crashed = new_display(client_for(director, raise_request_exception=False), tournament, key="crash")
    assert crashed.status_code == 500
    assert not DisplayToken.objects.exists() and not IdempotencyKey.objects.exists(), "rolled back with its claim"
    monkeypatch.setattr(registration, "create_display_token", real)
    retried = new_display(client_for(director), tournament, key="crash")
    assert retried.status_code == 201 and DisplayToken.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_duplicates_sent_at_once_act_once(director, tournament):
    answers = at_once([lambda: new_display(client_for(director), tournament, key="double-tap") for _ in range(8)])
    assert all(not isinstance(a, Exception) for a in answers), answers
    assert {a.status_code for a in answers} == {201}
    assert len({a.json()["id"] for a in answers}) == 1
    assert DisplayToken.objects.count() == 1 and AuditEvent.objects.filter(type="display.created").count() == 1
    assert sum(not a.has_header("Idempotent-Replayed") for a in answers) == 1, "one ran, the others got its answer"


def test_the_schema_documents_the_header_on_every_change(db):
    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    changes = [
        (path, method, op)
        for path, item in schema["paths"].items()
        for method, op in item.items()
        if method in ("post", "put", "patch", "delete")
    ]
    assert len(changes) > 20
    for path, method, op in changes:
        if op["operationId"] == "auth_token":  # a login is not replayed: its answer is a secret the server does not keep
            continue
        headers = {p["name"]: p for p in op.get("parameters", []) if p["in"] == "header"}
        assert "Idempotency-Key" in headers, (method, path)
        assert headers["Idempotency-Key"]["schema"]["maxLength"] == 255 and "422" in op["responses"], (method, path)


# --- the browser's client ------------------------------------------------------------------------

API_JS_HARNESS = r"""
// static/js/api.js is an ES module: the globals it uses first, then the module (copies of it and the modules it
// imports, in a folder whose package.json makes them modules for node).
const sent = [];
let failures = Number(process.argv[3]);
globalThis.window = {
  crypto: require("crypto").webcrypto,
  setTimeout: (fn) => setTimeout(fn, 0), clearTimeout: (t) => clearTimeout(t),
};
window.crypto.randomUUID = () => require("crypto").randomUUID();
globalThis.document = {
  querySelector: () => null, cookie: "csrftoken=abc", documentElement: {}, addEventListener: () => null,
  body: {getAttribute: () => null, parentNode: {insertBefore: () => null}},
  createElement: () => ({classList: {toggle: () => null, remove: () => null}, setAttribute: () => null,
                         dispatchEvent: () => null}),
};
globalThis.gettext = (text) => text;  // Django's JavaScript catalogue
globalThis.CustomEvent = function () {};
globalThis.fetch = function (url, init) {
  sent.push({url: url, method: init.method, key: init.headers["Idempotency-Key"] || null});
  if (failures > 0) { failures -= 1; return Promise.reject(new TypeError("network")); }
  return Promise.resolve({ok: true, status: 200, text: () => Promise.resolve('{"ok": true}')});
};
(async () => {
  const api = await import(require("url").pathToFileURL(process.argv[2]).href);
  const outcome = [];
  for (let press = 0; press < 2; press++) {
    outcome.push(await api.press(null, (key) => api.post("tournaments/1/displays/", {label: "TV"}, {key: key})));
  }
  await api.get("tournaments/");
  console.log(JSON.stringify({sent, outcome}));
})();
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs static/js/api.js outside a browser")
@pytest.mark.parametrize("failures", [0, 2, 3])
def test_api_js_sends_one_key_per_press_and_the_same_key_on_its_retries(tmp_path, failures):
    harness = tmp_path / "harness.cjs"
    harness.write_text(API_JS_HARNESS)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    for name in ("api.js", "press-queue.js", "util.js"):  # api.js and what it imports
        (tmp_path / name).write_text((ROOT / "static" / "js" / name).read_text())
    module = tmp_path / "api.js"
    run = subprocess.run(["node", str(harness), str(module), str(failures)], capture_output=True, text=True, timeout=30, check=True)
    report = json.loads(run.stdout)
    writes = [s for s in report["sent"] if s["method"] == "POST"]
    reads = [s for s in report["sent"] if s["method"] == "GET"]
    assert reads == [{"url": "/api/tournaments/", "method": "GET", "key": None}]
    first_press_tries = min(failures, 2) + 1  # two retries at most, then the press fails
    assert len({s["key"] for s in writes[:first_press_tries]}) == 1, "a retry sends the same key"
    assert all(s["key"] for s in writes) and writes[first_press_tries]["key"] != writes[0]["key"], "a new press, a new key"
    assert report["outcome"][0] == ({"ok": True} if failures <= 2 else None)


def test_a_method_the_endpoint_does_not_have_is_a_405_whatever_the_key(director, tournament):
    from rest_framework.test import APIClient

    client = APIClient()
    client.force_authenticate(director)
    url = f"/api/tournaments/{tournament.pk}/hand-for-hand/"
    for key in ("not a valid key", "same-key", "same-key"):
        assert client.delete(url, HTTP_IDEMPOTENCY_KEY=key).status_code == 405
