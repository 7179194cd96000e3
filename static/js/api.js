/* The one client of the JSON API (/api/) for every staff screen that changes something.
 *
 * Every state change of a screen goes through the same endpoint a shuffler, a tablet app or a
 * script would use (the API docs at /api/docs/), so the product proves its own API every day.
 *
 *  - CSRF: the session's token (the page's csrfmiddlewaretoken) in X-CSRFToken.
 *  - Idempotency-Key: a fresh random key for each press of a button (api.press), sent with every
 *    write; a retry of the same press sends the same key. A write whose answer is lost (no connection,
 *    or the proxy's 502/503/504) is retried by itself, twice, with the same key: the server runs a
 *    press once and answers a retry with its first answer (web/idempotency.py).
 *  - Errors: every refusal of the API has one shape, {"error": code, "detail": message, "problems",
 *    "fields"}; api.say() shows the message the same way on every screen (the page's
 *    [data-api-say] region, or a banner at the top), and a network failure says so.
 *  - Presses kept while offline (static/js/press-queue.js): a screen that opts in with
 *    <meta name="press-queue" content="<scope>" data-worker="..."> (the dealer tablet, the floor map, the
 *    color-up page) sends its writes through a queue on the device, in order; a press without an answer
 *    waits there ("Offline: 2 presses waiting") and is sent with its key when the line is back. Such a press
 *    is said as kept and resolves api.press to null. `{queue: false}` sends a write outside the queue (one
 *    that records nothing, whose answer the screen needs at once). The other screens: as before.
 *
 *    api.post("tournaments/3/moves/7/confirm/", {}).then(function (slip) { ... })
 *    api.press(button, function (key) { return api.post(path, body, {key: key}); }, "Done.")
 */

import {PressQueue, keepPage} from "./press-queue.js";

var root = (document.querySelector('meta[name="api-root"]') || {}).content || "/api/";
// The words from Django's JavaScript catalogue (base.html loads it first: the global gettext).
var text = {
  failed: gettext("The server refused the request."),
  offline: gettext("No connection to the server: try again."),
  kept: gettext("Kept on this device: it is sent when the connection returns."),
  waiting: gettext("Waiting for the server…"),
  retrying: gettext("No answer from the server yet: trying again…"),
};
var WAIT_SAID_MS = 3000;  // a write without an answer this long says that it waits (a database away: 10 s a try)

function csrf() {
  var input = document.querySelector("input[name=csrfmiddlewaretoken]");
  if (input && input.value) return input.value;
  var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

function newKey() {
  if (window.crypto && window.crypto.randomUUID) return window.crypto.randomUUID();
  var bytes = new Uint8Array(16);
  window.crypto.getRandomValues(bytes);
  return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
}

/* A refusal: .message is the translated detail for the person at the screen, .code the API's code. */
function Refusal(message, status, code, data) {
  var error = new Error(message);
  error.status = status;
  error.code = code;
  error.data = data || null;
  return error;
}

/* A dealer tablet opened by its table's dealer link (no login) sends the link with every call. */
var dealerLink = (document.querySelector('meta[name="api-dealer-link"]') || {}).content || "";

var RETRY_AFTER = [400, 1500];  // ms before each automatic retry of a write whose answer was lost
var LOST = {502: 1, 503: 1, 504: 1};

function wait(ms) { return new Promise(function (resolve) { window.setTimeout(resolve, ms); }); }

/* fetch; for a write whose answer was lost, the same request again, with the same Idempotency-Key. `onRetry`: told
   before each retry. */
function send(url, init, retries, onRetry) {
  var again = function () {
    if (onRetry) onRetry();
    return wait(RETRY_AFTER[RETRY_AFTER.length - retries]).then(function () { return send(url, init, retries - 1, onRetry); });
  };
  return fetch(url, init).then(function (response) {
    return retries > 0 && LOST[response.status] ? again() : response;
  }, function (error) {
    if (retries > 0) return again();
    throw error;
  });
}

/* A write the person waits for: after WAIT_SAID_MS without an answer the screen says it waits, and before each retry
   that it tries again (a database away answers 503 only after its pool's wait), instead of a dimmed button alone for
   half a minute. What it said goes when the answer comes (the caller then says the answer). */
function patience() {
  var said = "";
  function tell(message) { said = message; say(message, "queued"); }
  var timer = window.setTimeout(function () { tell(text.waiting); }, WAIT_SAID_MS);
  function done() { window.clearTimeout(timer); unsay(said); }
  return {retry: function () { tell(text.retrying); }, end: function (value) { done(); return value; },
          fail: function (error) { done(); throw error; }};
}

function headersFor(method, key) {
  var headers = {"Accept": "application/json"};
  if (dealerLink) headers["Authorization"] = "DealerLink " + dealerLink;
  if (method !== "GET") {
    headers["X-CSRFToken"] = csrf();
    headers["Idempotency-Key"] = key;  // one key for this press, kept for its retries
  }
  return headers;
}

/* An answer read: {status, data}; `raw` empty is a success with no body (204). */
function read(response) {
  return response.text().then(function (raw) {
    var data = null;
    try { data = raw ? JSON.parse(raw) : null; } catch { data = null; }
    return {status: response.status, data: data, empty: !raw};
  });
}

function settle(answer) {
  if (answer.status >= 200 && answer.status < 300) return answer.empty ? true : answer.data;
  var data = answer.data;
  throw Refusal((data && data.detail) || text.failed, answer.status, (data && data.error) || "error", data);
}

/* One queued press sent (press-queue.js): its headers made now (the page's CSRF token), its key and body as
   queued. retries: null for api.js's own. */
function transport(item, retries) {
  var headers = headersFor(item.method, item.key);
  if (item.body !== null && item.body !== undefined) headers["Content-Type"] = "application/json";
  var init = {method: item.method, headers: headers, credentials: "same-origin", cache: "no-store"};
  if (item.body !== null && item.body !== undefined) init.body = item.body;
  if (retries !== null) return send(item.url, init, retries).then(read);  // a press kept from before: the line says it
  var patient = patience();  // the press made just now: the person waits for it
  return send(item.url, init, RETRY_AFTER.length, patient.retry).then(read).then(patient.end, patient.fail);
}

var queueMeta = document.querySelector('meta[name="press-queue"]');
function storage() { try { return !!window.localStorage; } catch { return false; } }  // refused by the browser
var queue = queueMeta && storage() ? PressQueue(queueMeta.content, transport) : null;
if (queueMeta) keepPage(queueMeta.dataset.worker);
var pressing = "";  // the label of the button being pressed (api.press), for a queued press refused later

function call(method, path, payload, options) {
  options = options || {};
  var key = options.key || newKey();
  var headers = headersFor(method, key);
  var init = {method: method, headers: headers, credentials: "same-origin", cache: "no-store"};
  if (payload !== undefined && payload !== null) {
    if (payload instanceof FormData) init.body = payload;  // a file upload: the browser writes its multipart type
    else { headers["Content-Type"] = "application/json"; init.body = JSON.stringify(payload); }
  }
  var url = /^(https?:)?\//.test(path) ? path : root + path;
  if (queue && method !== "GET" && options.queue !== false && !(payload instanceof FormData)) {
    var item = {key: key, method: method, url: new URL(url, location.href).href, body: init.body === undefined ? null : init.body,
                label: pressing};
    return queue.submit(item).then(settle, function (why) {
      if (why && why.kept) throw Refusal(text.kept, 0, "queued");
      throw Refusal(text.offline, 0, "network");
    });
  }
  if (method === "GET") {
    return send(url, init, 0).then(function (response) {
      return read(response).then(settle);
    }, function () {
      throw Refusal(text.offline, 0, "network");
    });
  }
  var waiting = patience();
  return send(url, init, RETRY_AFTER.length, waiting.retry).then(function (response) {
    waiting.end();
    return read(response).then(settle);
  }, function () {
    waiting.end();
    throw Refusal(text.offline, 0, "network");
  });
}

// The queue's presses kept from before were sent (or refused, said on its line): "Kept on this device" is over.
document.addEventListener("press-queue:sent", function () { unsay(text.kept); });

/* What the screen said goes, if it still says it (a later answer said since stays). */
function unsay(message) {
  var where = region();
  if (!message || where.textContent !== message) return;
  where.textContent = "";
  where.hidden = true;
  where.classList.remove("queued");
}

var banner = null;
function region() {
  var own = document.querySelector("[data-api-say]");
  if (own) return own;
  if (!banner) {
    banner = document.createElement("div");
    banner.className = "api-say";
    banner.hidden = true;
    var main = document.querySelector("main") || document.body;
    main.parentNode.insertBefore(banner, main);
  }
  return banner;
}

/* Show a result: ok (true) or a refusal (false), the same on every screen; "queued": a press kept on the device. */
function say(message, ok) {
  var where = region(), queued = ok === "queued";
  where.textContent = message || "";
  where.hidden = !message;
  where.classList.toggle("ok", !!ok && !queued);
  where.classList.toggle("refused", !ok);
  where.classList.toggle("queued", queued);
  where.setAttribute("role", ok ? "status" : "alert");
  where.dispatchEvent(new CustomEvent("api:said", {detail: {message: message, ok: !!ok, queued: queued}}));
}

/* One press of a button: busy while the request runs (a double tap sends nothing twice), one
 * Idempotency-Key for the press, the answer or the refusal shown. `done` is a message or a
 * function of the answer giving one. Resolves to the answer, or to null when refused. */
function press(button, action, done) {
  if (button && button.getAttribute("aria-busy") === "true") return Promise.resolve(null);
  if (button) { button.setAttribute("aria-busy", "true"); button.disabled = true; }
  var key = newKey();
  return Promise.resolve().then(function () {
    pressing = button ? (button.getAttribute("aria-label") || button.textContent || "").replace(/\s+/g, " ").trim() : "";
    try { return action(key); } finally { pressing = ""; }
  }).then(function (answer) {
    var message = typeof done === "function" ? done(answer) : done;
    if (message) say(message, true);
    return answer === undefined ? true : answer;
  }, function (error) {
    if (error && error.code === "queued") { say(error.message, "queued"); return null; }
    say(error && error.message ? error.message : text.failed, false);
    return null;
  }).then(function (result) {
    if (button) { button.removeAttribute("aria-busy"); button.disabled = false; }
    return result;
  });
}

function get(path, options) { return call("GET", path, null, options); }
function post(path, payload, options) { return call("POST", path, payload === undefined ? {} : payload, options); }
function put(path, payload, options) { return call("PUT", path, payload, options); }
function patch(path, payload, options) { return call("PATCH", path, payload, options); }
function del(path, options) { return call("DELETE", path, null, options); }

export {get, post, put, patch, del, press, say, newKey};
