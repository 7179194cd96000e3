"""static/js/press-queue.js through static/js/api.js, in node against a scripted server: presses made
while the server cannot be reached wait on the device, in order, each with its key; a 503 keeps them waiting; a press
whose answer was lost is sent again with its key and applied once; a press the server then refuses is said with its
reason and dropped, never sent again; a screen that does not opt in says a failed press at once, as before. The same in
a real browser: tests/browser/test_offline_tablets.py."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

HARNESS = r"""
// The page's globals (a screen that opts in when argv[3] is "queue"), then api.js and press-queue.js as modules.
const listeners = {window: {}, document: {}};
function on(where) { return (type, fn) => { (listeners[where][type] = listeners[where][type] || []).push(fn); }; }
function fire(where, type) { (listeners[where][type] || []).forEach((fn) => fn({type: type, detail: {up: true}})); }
function node(tag) {
  return {tag, children: [], hidden: false, textContent: "", dataset: {}, attrs: {}, className: "",
          classList: {add: () => null, toggle: () => null, remove: () => null},
          setAttribute(k, v) { this.attrs[k] = v; }, getAttribute(k) { return this.attrs[k] || null; },
          removeAttribute(k) { delete this.attrs[k]; },
          appendChild(c) { this.children.push(c); return c; }, insertBefore(c) { this.children.push(c); return c; },
          dispatchEvent: () => null};
}
const statusBox = node("div"), say = node("p");
const storage = new Map();
globalThis.window = {
  crypto: require("crypto").webcrypto, setTimeout: (fn) => setTimeout(fn, 0), clearTimeout: (t) => clearTimeout(t),
  localStorage: {getItem: (k) => (storage.has(k) ? storage.get(k) : null), setItem: (k, v) => storage.set(k, String(v)),
                 removeItem: (k) => storage.delete(k)},
  addEventListener: on("window"),
};
window.crypto.randomUUID = () => require("crypto").randomUUID();
Object.defineProperty(globalThis, "navigator", {value: {onLine: true}, configurable: true});
globalThis.location = {href: "http://tablet.test/t/1/map/", pathname: "/t/1/map/", origin: "http://tablet.test"};
const meta = {content: "map:1:user:1", dataset: {worker: ""}};
globalThis.document = {
  cookie: "csrftoken=abc", documentElement: {}, addEventListener: on("document"), dispatchEvent: () => null,
  createElement: (tag) => node(tag),
  querySelector: (sel) => sel === 'meta[name="press-queue"]' ? (process.argv[3] === "queue" ? meta : null)
    : sel === "[data-press-queue-status]" ? statusBox : sel === "[data-api-say]" ? say : null,
};
globalThis.gettext = (text) => text;
globalThis.ngettext = (one, many, n) => (n === 1 ? one : many);
globalThis.CustomEvent = function (type, init) { this.type = type; this.detail = init && init.detail; };

// The server: each key runs once (web/idempotency.py), a replay gets the first answer.
const server = {mode: "down", log: [], applied: [], answers: {}, refuse: new Set()};
globalThis.fetch = function (url, init) {
  const key = init.headers["Idempotency-Key"], path = url.split("/api/")[1];
  server.log.push({path, key});
  if (server.mode === "down") return Promise.reject(new TypeError("network"));
  if (server.mode === "busy") return Promise.resolve(answer(503, {error: "database_unavailable", detail: "The database is unavailable."}));
  if (!server.answers[key]) {
    if (server.refuse.has(path)) server.answers[key] = [409, {error: "not_playing", detail: "Entry #7 is not playing."}];
    else { server.applied.push(path); server.answers[key] = [200, {ok: path}]; }
  }
  if (server.mode === "lose") { server.mode = "down"; return Promise.reject(new TypeError("answer lost")); }
  return Promise.resolve(answer(...server.answers[key]));
};
function answer(status, body) {
  return {ok: status < 300, status, text: () => Promise.resolve(JSON.stringify(body))};
}
const tick = () => new Promise((resolve) => setTimeout(resolve, 20));
const line = () => statusBox.children[1] && !statusBox.children[1].hidden ? statusBox.children[1].textContent : "";
const refused = () => statusBox.children[2] ? statusBox.children[2].children.map((c) => c.textContent) : [];
const queue = () => JSON.parse(storage.get("press-queue:map:1:user:1") || "[]");
const button = (label) => { const b = node("button"); b.textContent = label; return b; };

(async () => {
  const api = await import(require("url").pathToFileURL(process.argv[2]).href);
  const seen = {};
  const press = (label, path) => api.press(button(label), (key) => api.post(path, {n: 1}, {key}), "done");
  seen.a = await press("Bust", "a/");            // no server: kept after api.js's retries
  seen.b = await press("Confirm", "b/");         // behind it
  seen.offline = line();
  seen.said = say.textContent;
  seen.queued = queue().map((p) => [p.method, p.url.split("/api/")[1], p.label, p.body]);
  server.mode = "busy"; fire("window", "online"); await tick();
  seen.busy = line();
  seen.afterBusy = queue().length;
  server.mode = "lose"; fire("window", "online"); await tick();   // "a/" applied, its answer lost
  seen.lost = line();
  server.refuse.add("c/");
  server.mode = "down";
  seen.c = await press("Yes, bust", "c/");
  server.mode = "up"; fire("document", "live:status"); await tick();
  seen.sent = line();
  seen.refused = refused();
  seen.left = queue().length;
  seen.online = await press("Shuffle", "d/");    // the line is up: the answer, as before
  console.log(JSON.stringify({seen, log: server.log, applied: server.applied}));
  process.exit(0);
})();
"""


def run(tmp_path, mode: str) -> dict:
    harness = tmp_path / "harness.cjs"
    harness.write_text(HARNESS)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    for name in ("api.js", "press-queue.js", "util.js"):
        (tmp_path / name).write_text((ROOT / "static" / "js" / name).read_text())
    done = subprocess.run(["node", str(harness), str(tmp_path / "api.js"), mode], capture_output=True, text=True, timeout=60, check=True)
    return json.loads(done.stdout)


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs static/js/press-queue.js outside a browser")
def test_presses_wait_in_order_and_each_is_applied_once_or_refused_once(tmp_path):
    report = run(tmp_path, "queue")
    seen, log = report["seen"], report["log"]
    assert seen["a"] is None and seen["b"] is None  # kept: api.press resolves to null, as for a refusal
    assert seen["offline"] == "Offline: 2 presses waiting"
    assert seen["said"] == "Kept on this device: it is sent when the connection returns."
    assert seen["queued"] == [["POST", "a/", "Bust", '{"n":1}'], ["POST", "b/", "Confirm", '{"n":1}']]
    assert seen["busy"] == "The server cannot take it now: 2 presses waiting" and seen["afterBusy"] == 2
    assert seen["lost"] == "Offline: 2 presses waiting"
    assert seen["c"] is None
    assert seen["sent"] == "Sent" and seen["left"] == 0
    assert seen["refused"] == ["Not applied (Yes, bust): Entry #7 is not playing."]
    assert seen["online"] == {"ok": "d/"}
    # Each press applied once, in the order pressed; every send of a press carried its own one key.
    assert report["applied"] == ["a/", "b/", "d/"]
    keys = {}
    for sent in log:
        keys.setdefault(sent["path"], set()).add(sent["key"])
    assert all(len(k) == 1 for k in keys.values()) and len({next(iter(k)) for k in keys.values()}) == 4
    # Nothing overtakes a waiting press: "b/" is never sent before "a/" got its answer (the replay after the lost one).
    paths = [sent["path"] for sent in log]
    first_b = paths.index("b/")
    assert set(paths[:first_b]) == {"a/"} and "a/" not in paths[first_b:]
    assert paths[:first_b] == ["a/"] * 8  # three tries of the press, one a round (alone, then behind "b/", 503, lost, "c/")
    # The refused press was sent once, and never again.
    assert paths.count("c/") == 1 and paths[-1] == "d/"


@pytest.mark.skipif(shutil.which("node") is None, reason="node runs static/js/press-queue.js outside a browser")
def test_a_screen_that_does_not_opt_in_says_a_failed_press_at_once(tmp_path):
    report = run(tmp_path, "plain")
    seen = report["seen"]
    assert seen["said"] == "No connection to the server: try again." and seen["offline"] == "" and seen["queued"] == []
    assert report["applied"] == ["d/"]  # the presses made without a server are gone, as before
