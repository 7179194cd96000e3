/* Presses kept on the device while the connection is down: the tablets that ride out a Wi-Fi drop.
 *
 * Opt-in per screen: a page with <meta name="press-queue" content="<scope>" data-worker="<service worker URL>">
 * (the dealer tablet, the floor map, the color-up page) sends its writes through this queue; every other screen
 * keeps api.js's behaviour (a failed press is said at once). static/js/api.js makes the queue and gives it the
 * `transport` that sends one press (its headers: CSRF, the dealer link, the press's Idempotency-Key).
 *
 *  - Each write of the screen is written to localStorage first ("press-queue:<scope>", this origin only): its
 *    method, URL, body (the JSON text, byte for byte) and Idempotency-Key, in order. The queue sends its presses
 *    one at a time, oldest first; the press made on screen gets its answer as before when the line is up.
 *  - A press that gets no answer (the fetch fails, the browser says it is offline, or the proxy and the server
 *    answer 408/429/502/503/504 past api.js's retries) stays queued, and so does every press after it: the screen
 *    says "Offline: 2 presses waiting". They are sent again, in order, each with its own key, when the browser
 *    comes back online, when the live socket is live again (live.js's "live:status"), and every PROBE_MS.
 *    The server runs a key once (web/idempotency.py): a press whose answer was lost gets its first answer again.
 *  - A queued press the server now refuses (a 4xx: the player was busted from another tablet meanwhile) is
 *    dropped, never retried, and said: "Not applied: <the server's reason>". The queue empty: "Sent".
 *  - The queue survives a reload: the page (served by the service worker while offline, static/js/tablet-sw.js)
 *    shows it and sends it when it can. The page from the worker's cache is marked old: "Offline: this is the
 *    last state seen at 14:05" (the worker adds <meta name="offline-copy"> to it, and posts "copy" for each state
 *    read it answers from its cache), until the live socket is live again.
 */
import {fmt, el} from "./util.js";

var PROBE_MS = 5000;  // while presses wait: another try this often
var KEEP = {0: 1, 408: 1, 429: 1, 502: 1, 503: 1, 504: 1};  // no answer, or "not now": the press stays queued
var SENT_SHOWN_MS = 30000;  // "Sent" stays on the line this long
var text = {
  offline: function (n) { return fmt(ngettext("Offline: {n} press waiting", "Offline: {n} presses waiting", n), {n: n}); },
  busy: function (n) {
    return fmt(ngettext("The server cannot take it now: {n} press waiting", "The server cannot take it now: {n} presses waiting", n), {n: n});
  },
  sending: function (n) { return fmt(ngettext("Sending: {n} press waiting", "Sending: {n} presses waiting", n), {n: n}); },
  sent: gettext("Sent"),
  refused: gettext("Not applied: {reason}"),
  refusedPress: gettext("Not applied ({press}): {reason}"),
  failed: gettext("The server refused the request."),
  old: gettext("Offline: this is the last state seen at {time}")
};

function hhmm(at) {
  var when = new Date(at);
  if (isNaN(when.getTime())) return "";
  return when.toLocaleTimeString(document.documentElement.lang || undefined, {hour: "2-digit", minute: "2-digit", hourCycle: "h23"});
}

/* The status line of the screen: [data-press-queue-status] (the template places it), else one made above <main>. */
function StatusLine() {
  var box = document.querySelector("[data-press-queue-status]");
  if (!box) {
    box = el("div", "press-queue");
    var main = document.querySelector("main") || document.body;
    main.insertBefore(box, main.firstChild);
  }
  box.classList.add("press-queue");
  var old = el("p", "pq-old"), line = el("p", "pq-line"), refused = el("div", "pq-refused");
  old.setAttribute("role", "status");
  line.setAttribute("role", "status");
  refused.setAttribute("role", "alert");
  [old, line, refused].forEach(function (part) { part.hidden = true; box.appendChild(part); });
  function show() { box.hidden = old.hidden && line.hidden && refused.hidden; }
  show();
  return {
    old: function (words) { old.textContent = words || ""; old.hidden = !words; show(); },
    line: function (words, state) {
      line.textContent = words || "";
      line.hidden = !words;
      line.dataset.state = words ? state : "";
      show();
    },
    refused: function (words) {
      if (words === null) { refused.textContent = ""; refused.hidden = true; show(); return; }
      refused.appendChild(el("p", null, words));
      refused.hidden = false;
      show();
    }
  };
}

/* The queue of one screen. transport(item, retries) sends one press and resolves to {status, data} (an answer,
   whatever its status) or rejects (no answer). */
function PressQueue(scope, transport) {
  var name = "press-queue:" + scope, waiting = {}, busy = false, held = false, why = "offline";
  var applied = 0, timer = null, sentTimer = null, status = StatusLine(), oldAt = null;

  function read() {
    try {
      var list = JSON.parse(window.localStorage.getItem(name) || "[]");
      return Array.isArray(list) ? list : [];
    } catch { return []; }
  }
  function write(list) {
    if (list.length) window.localStorage.setItem(name, JSON.stringify(list));
    else window.localStorage.removeItem(name);
  }
  function drop(key) { write(read().filter(function (item) { return item.key !== key; })); }

  function paint() {
    var n = read().length;
    if (n && held) {
      status.line(busy ? text.sending(n) : why === "busy" ? text.busy(n) : text.offline(n), busy ? "sending" : why);
      clearTimeout(sentTimer);
    } else if (!n && held) {  // the queue that waited is empty now
      held = false;
      if (applied) {
        status.line(text.sent, "sent");
        clearTimeout(sentTimer);
        sentTimer = setTimeout(function () { if (!held) status.line(""); }, SENT_SHOWN_MS);
      } else {
        status.line("");
      }
      applied = 0;
      document.dispatchEvent(new CustomEvent("press-queue:sent"));  // the screen reads its state again
    }
  }
  function hold(reason) {
    if (!held) status.refused(null);  // a new wait: the refusals said after the last one go
    held = true;
    why = reason;
    var list = read();
    list.forEach(function (item) {  // the presses made on this page learn that they wait
      var press = waiting[item.key];
      if (press) { delete waiting[item.key]; press.kept(reason); }
    });
    clearTimeout(timer);
    if (list.length) timer = setTimeout(flush, PROBE_MS);
    paint();
  }
  function settle(item, answer) {
    var press = waiting[item.key];
    delete waiting[item.key];
    if (answer.status >= 200 && answer.status < 300) {
      if (held) applied += 1;
    } else if (!press) {  // a press kept from before: said on the line
      var reason = (answer.data && answer.data.detail) || text.failed;
      status.refused(item.label ? fmt(text.refusedPress, {press: item.label, reason: reason}) : fmt(text.refused, {reason: reason}));
    }
    if (press) press.answered(answer);
  }

  /* Send the queue, oldest first, one at a time; stop at the first press without an answer. */
  function flush() {
    clearTimeout(timer);
    if (busy || !read().length) { paint(); return; }
    if (navigator.onLine === false) { hold("offline"); return; }
    busy = true;
    paint();
    var step = function () {
      var item = read()[0];
      if (!item) return Promise.resolve(null);
      // A press made just now gets api.js's own retries (a blip of the line); a kept one, one try a round.
      return transport(item, waiting[item.key] ? null : 0).then(function (answer) {
        if (KEEP[answer.status]) return answer.status === 408 || answer.status === 429 || answer.status === 503 ? "busy" : "offline";
        drop(item.key);
        settle(item, answer);
        return step();
      }, function () { return "offline"; });
    };
    step().then(function (stopped) {
      busy = false;
      if (stopped) hold(stopped); else paint();
    });
  }

  /* A write of the screen: queued, then sent in its turn. Resolves to its answer {status, data}, or rejects with
     {kept: "offline"|"busy"} while it waits on the device. */
  function submit(item) {
    var list = read();
    item.at = Date.now();
    list.push(item);
    try {
      write(list);
    } catch {  // no room on the device (or storage refused): sent as before, without the queue
      return transport(item, null);
    }
    return new Promise(function (resolve, reject) {
      waiting[item.key] = {answered: resolve, kept: function (reason) { reject({kept: reason}); }};
      flush();  // sent now, behind the presses that wait (if the line is up); or it waits with them
    });
  }

  /* The page as the service worker's cache kept it: marked old until the socket is live again. */
  function markOld(at) {
    if (!at) return;
    oldAt = oldAt === null || at > oldAt ? at : oldAt;
    status.old(fmt(text.old, {time: hhmm(oldAt)}));
  }
  function markFresh() { oldAt = null; status.old(""); }
  var copy = document.querySelector('meta[name="offline-copy"]');
  if (copy) markOld(Date.parse(copy.content));
  if (navigator.serviceWorker) {
    navigator.serviceWorker.addEventListener("message", function (ev) {
      var data = ev.data || {};
      if (data.kind === "copy") markOld(Date.parse(data.at));
    });
    navigator.serviceWorker.startMessages();  // the worker's notes from before this listener, delivered now
  }

  window.addEventListener("online", flush);
  window.addEventListener("offline", function () { if (read().length && !busy) hold("offline"); });
  document.addEventListener("live:status", function (ev) {
    if (!ev.detail || !ev.detail.up) return;
    markFresh();
    flush();
  });
  window.addEventListener("storage", function (ev) { if (ev.key === name) paint(); });  // another tab of the screen
  if (read().length) { held = true; why = navigator.onLine === false ? "offline" : why; paint(); flush(); }

  return {submit: submit, flush: flush, get length() { return read().length; }, markOld: markOld, markFresh: markFresh};
}

/* The service worker that keeps the screen's own files and its last state (static/js/tablet-sw.js), scoped to
   this page's path only: registered from the screens that opt in, it never handles another page. Once active, it
   is told the files this page loaded, so even the first visit is kept. */
function keepPage(worker) {
  if (!worker || !navigator.serviceWorker || !window.isSecureContext) return;
  navigator.serviceWorker.register(worker, {scope: location.pathname}).then(function () {
    return navigator.serviceWorker.ready;
  }).then(function (registration) {
    var urls = [location.href.split("#")[0]];
    document.querySelectorAll("script[src], link[rel~=stylesheet][href], link[rel~=icon][href]").forEach(function (node) {
      urls.push(node.src || node.href);
    });
    (performance.getEntriesByType ? performance.getEntriesByType("resource") : []).forEach(function (entry) {
      if (/^(script|link|css|other|img)$/.test(entry.initiatorType)) urls.push(entry.name);
    });
    var own = urls.filter(function (url) {
      var u = new URL(url, location.href);
      return u.origin === location.origin && u.pathname.indexOf("/api/") < 0 && !u.searchParams.has("ping");
    });
    // The words of the page the worker shows when a copy's session is over, in this page's language.
    var words = {lang: document.documentElement.lang || "en", title: gettext("Log in again"),
                 text: gettext("This page's copy on this device is shown only while your log-in lasts, and it has " +
                               "ended. Log in again when the connection is back."),
                 login: gettext("Log in")};
    if (registration.active) registration.active.postMessage({kind: "keep", urls: own, words: words});
  }).catch(function () { /* no worker: the screen works as before, without its offline copy */ });
}

export {PressQueue, keepPage};
