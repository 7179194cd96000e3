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
 *
 *    api.post("tournaments/3/moves/7/confirm/", {}).then(function (slip) { ... })
 *    api.press(button, function (key) { return api.post(path, body, {key: key}); }, "Done.")
 */

var root = (document.querySelector('meta[name="api-root"]') || {}).content || "/api/";
// The words from Django's JavaScript catalogue (base.html loads it first: the global gettext).
var text = {
  failed: gettext("The server refused the request."),
  offline: gettext("No connection to the server: try again."),
};

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

/* fetch; for a write whose answer was lost, the same request again, with the same Idempotency-Key. */
function send(url, init, retries) {
  var again = function () {
    return wait(RETRY_AFTER[RETRY_AFTER.length - retries]).then(function () { return send(url, init, retries - 1); });
  };
  return fetch(url, init).then(function (response) {
    return retries > 0 && LOST[response.status] ? again() : response;
  }, function (error) {
    if (retries > 0) return again();
    throw error;
  });
}

function call(method, path, payload, options) {
  options = options || {};
  var headers = {"Accept": "application/json"};
  if (dealerLink) headers["Authorization"] = "DealerLink " + dealerLink;
  if (method !== "GET") {
    headers["X-CSRFToken"] = csrf();
    headers["Idempotency-Key"] = options.key || newKey();  // one key for this press, kept for its retries
  }
  var init = {method: method, headers: headers, credentials: "same-origin", cache: "no-store"};
  if (payload !== undefined && payload !== null) {
    if (payload instanceof FormData) init.body = payload;  // a file upload: the browser writes its multipart type
    else { headers["Content-Type"] = "application/json"; init.body = JSON.stringify(payload); }
  }
  var url = /^(https?:)?\//.test(path) ? path : root + path;
  return send(url, init, method === "GET" ? 0 : RETRY_AFTER.length).then(function (response) {
    return response.text().then(function (raw) {
      var data = null;
      try { data = raw ? JSON.parse(raw) : null; } catch (e) { data = null; }
      if (response.ok) return raw ? data : true;  // an empty answer (204) is a success too
      throw Refusal((data && data.detail) || text.failed, response.status, (data && data.error) || "error", data);
    });
  }, function () {
    throw Refusal(text.offline, 0, "network");
  });
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

/* Show a result: ok (true) or a refusal (false), the same on every screen. */
function say(message, ok) {
  var where = region();
  where.textContent = message || "";
  where.hidden = !message;
  where.classList.toggle("ok", !!ok);
  where.classList.toggle("refused", !ok);
  where.setAttribute("role", ok ? "status" : "alert");
  where.dispatchEvent(new CustomEvent("api:said", {detail: {message: message, ok: !!ok}}));
}

/* One press of a button: busy while the request runs (a double tap sends nothing twice), one
 * Idempotency-Key for the press, the answer or the refusal shown. `done` is a message or a
 * function of the answer giving one. Resolves to the answer, or to null when refused. */
function press(button, action, done) {
  if (button && button.getAttribute("aria-busy") === "true") return Promise.resolve(null);
  if (button) { button.setAttribute("aria-busy", "true"); button.disabled = true; }
  var key = newKey();
  return Promise.resolve().then(function () { return action(key); }).then(function (answer) {
    var message = typeof done === "function" ? done(answer) : done;
    if (message) say(message, true);
    return answer === undefined ? true : answer;
  }, function (error) {
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
