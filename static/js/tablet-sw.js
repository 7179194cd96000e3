/* The tablets' service worker: the screen's own files and its last state, so a tablet reopens with no
 * connection. Registered by static/js/press-queue.js from the three screens that opt in (the dealer tablet, the floor
 * map, the color-up page), each with its own page's path as the scope, so it never handles another page. Served at
 * /tablet-sw.js (web/tablet_worker.py): a worker's scope cannot be wider than the folder of its script, and a page of
 * /t/<id>/ is not under /static/js/.
 *
 *  - Hashed static files (production: "dealer.0123456789ab.js", config/storage.py): the cache first (a hashed
 *    name never changes its content); when a file's new hash is kept, its old one goes.
 *  - Everything else the page reads (the page itself, the API's reads: the tablet's state, the map; the scripts'
 *    words, static files with plain names in development): the network first, the last copy when the network does not answer
 *    (or answers 502, 503, 504). A copy carries X-Offline-Copy (when it was kept); a page from the cache gets
 *    <meta name="offline-copy" content="<that time>">, and the page is told of a state read from the cache
 *    ({kind: "copy", at}), so it says what it shows is old.
 *  - Writes (POST, PUT, PATCH, DELETE: press-queue.js keeps those), the time pings (?ping=...), other sites and
 *    this script: not handled.
 *  - A staff page's copy lives only as long as its session: an answer of a logged-in session says how long
 *    the session has left (X-Session-Left, web/middleware.py), kept with the copy as X-Offline-Until (this device's
 *    time, so no clock offset matters). Offline after that, the copy is not shown: the staff copies go and the tablet
 *    shows a page that says to log in again (the words the page left, press-queue.js). An answer that says the session
 *    ended (the API's 401, a redirect to the login, the page itself refused) drops the staff copies at once: a logout
 *    elsewhere, seen at the next contact. The copies of a dealer link's tablet (no session) are the link's, as before.
 * A classic script, not a module, with no import: the browser checks it for an update on each visit.
 */
"use strict";

var CACHE = "tablet-v1";
var HASHED = /^(.*\.)[0-9a-f]{12}(\.[A-Za-z0-9]+)$/;
var STAMP = "X-Offline-Copy";
var LOST = {502: 1, 503: 1, 504: 1};
var UNTIL = "X-Offline-Until";
var WORDS = self.location.pathname + "?words";  // the page's words for the "log in again" page (never fetched)

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name.indexOf("tablet-") === 0 && name !== CACHE; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

function address(url) { return String(url).split("#")[0]; }

/* The answer, kept with the time it was kept. Only a whole, plain 200 of this site: never a redirect (a login
   page in the place of the screen), an error or a partial answer. */
function keep(url, response, asked) {
  if (!response || response.status !== 200 || response.type !== "basic" || response.redirected) return Promise.resolve();
  var session = response.headers.has("X-Session-Left");
  var headers = new Headers(response.headers), left = parseInt(response.headers.get("X-Session-Left"), 10);
  headers.set(STAMP, new Date().toISOString());
  if (!isNaN(left)) headers.set(UNTIL, new Date(Date.now() + left * 1000).toISOString());
  return response.blob().then(function (body) {
    var copy = new Response(body, {status: 200, statusText: response.statusText, headers: headers});
    if (session && !(asked >= endedAt)) return null;  // asked for before the session's copies went: not kept
    return caches.open(CACHE).then(function (cache) {
      return cache.put(url, copy).then(function () {
        if (session && asked < endedAt) return cache.delete(url);  // the copies went while this one was put
        return forgetOld(cache, url);
      });
    });
  }).catch(function () { /* the device is full, or the answer broke off: no copy this time */ });
}

/* A hashed file kept: the other hashes of the same file go (the files of a release before). */
function forgetOld(cache, url) {
  var at = new URL(url), m = HASHED.exec(at.pathname);
  if (!m) return null;
  return cache.keys().then(function (requests) {
    return Promise.all(requests.map(function (request) {
      var other = new URL(request.url), n = HASHED.exec(other.pathname);
      return n && n[1] === m[1] && n[2] === m[2] && other.pathname !== at.pathname ? cache.delete(request) : null;
    }));
  });
}

/* The copies of a session (X-Offline-Until) go: it ended, or it is over. The static files and a link's copies stay. */
var endedAt = 0;  // when the copies last went: an answer asked for before then is not kept (a read still on its way)

function dropStaffCopies() {
  endedAt = Date.now();
  return caches.open(CACHE).then(function (cache) {
    return cache.keys().then(function (requests) {
      return Promise.all(requests.map(function (request) {
        return cache.match(request).then(function (copy) {
          return copy && copy.headers.has(UNTIL) ? cache.delete(request) : null;
        });
      }));
    });
  }).catch(function () { /* no storage: nothing kept */ });
}

/* An answer that says the session ended: the API's 401 (not logged in), the login in the place of the page (a
   redirect), or the page itself refused (403: the login no longer reaches it). A read the role does not reach (an
   API's 403) says nothing of the session. */
function ended(request, response) {
  if (response.status === 401 || response.type === "opaqueredirect") return true;
  if (response.redirected && /\/accounts\/login\//.test(new URL(response.url).pathname)) return true;
  return request.mode === "navigate" && response.status === 403;
}

function over(copy) {
  var until = copy.headers.get(UNTIL);
  return until !== null && !(Date.parse(until) > Date.now());
}

/* No copy may be shown: a page that says why, in the words the page left (its language), and the way to log in. */
function loginAgain(url) {
  return caches.open(CACHE).then(function (cache) { return cache.match(WORDS); }).then(function (kept) {
    return kept ? kept.json() : {};
  }).catch(function () { return {}; }).then(function (words) {
    var esc = function (text) {
      return String(text).replace(/[&<>"']/g, function (c) { return "&#" + c.charCodeAt(0) + ";"; });
    };
    var title = words.title || "Log in again";
    var text = words.text || "This page's copy on this device is shown only while your log-in lasts, and it has " +
      "ended. Log in again when the connection is back.";
    var login = "/accounts/login/?next=" + encodeURIComponent(new URL(url).pathname);
    var html = '<!doctype html><html lang="' + esc(words.lang || "en") + '"><head><meta charset="utf-8">' +
      '<meta name="viewport" content="width=device-width, initial-scale=1"><title>' + esc(title) + "</title></head>" +
      '<body><main id="offline-ended" role="alert"><h1>' + esc(title) + "</h1><p>" + esc(text) + '</p><p><a href="' +
      esc(login) + '">' + esc(words.login || "Log in") + "</a></p></main></body></html>";
    return new Response(html, {status: 401, headers: {"Content-Type": "text/html; charset=utf-8"}});
  });
}

function tell(clientId, at) {
  if (!clientId) return;
  self.clients.get(clientId).then(function (client) { if (client) client.postMessage({kind: "copy", at: at}); });
}

/* The last copy, marked: a page gets <meta name="offline-copy">, a state read its page told. null: none kept. */
function lastCopy(event, url) {
  return caches.open(CACHE).then(function (cache) { return cache.match(url, {ignoreVary: true}); }).then(function (copy) {
    if (!copy) return null;
    if (over(copy)) {  // its session is over: no names and counts of it any more
      return dropStaffCopies().then(function () { return event.request.mode === "navigate" ? loginAgain(url) : null; });
    }
    var at = copy.headers.get(STAMP) || "";
    if (event.request.mode !== "navigate") {
      if (/json/.test(copy.headers.get("Content-Type") || "")) tell(event.clientId, at);
      return copy;
    }
    return copy.text().then(function (html) {
      var meta = '<meta name="offline-copy" content="' + at.replace(/[^0-9A-Za-z:.+-]/g, "") + '">';
      var headers = new Headers(copy.headers);
      headers.delete("Content-Length");
      return new Response(html.replace(/<head[^>]*>/i, function (head) { return head + meta; }),
                          {status: 200, statusText: copy.statusText, headers: headers});
    });
  });
}

function networkFirst(event) {
  var url = address(event.request.url), asked = Date.now();
  return fetch(event.request).then(function (response) {
    if (LOST[response.status]) return lastCopy(event, url).then(function (copy) { return copy || response; });
    if (ended(event.request, response)) {
      event.waitUntil(dropStaffCopies());  // the session ended (a logout elsewhere) or no longer reaches this
      return response;
    }
    event.waitUntil(keep(url, response.clone(), asked));
    return response;
  }, function (error) {
    return lastCopy(event, url).then(function (copy) {
      if (copy) return copy;
      throw error;
    });
  });
}

function cacheFirst(event) {
  var url = address(event.request.url);
  return caches.open(CACHE).then(function (cache) { return cache.match(url, {ignoreVary: true}); }).then(function (copy) {
    var asked = Date.now();
    return copy || fetch(event.request).then(function (response) {
      event.waitUntil(keep(url, response.clone(), asked));
      return response;
    });
  });
}

self.addEventListener("fetch", function (event) {
  var request = event.request, url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.searchParams.has("ping") || url.pathname === self.location.pathname) return;
  event.respondWith(HASHED.test(url.pathname) ? cacheFirst(event) : networkFirst(event));
});

/* The page tells the files it loaded before this worker ran it (its first visit): they are kept now. */
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.kind !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil(caches.open(CACHE).then(function (cache) {
    var words = data.words && typeof data.words === "object" ? data.words : {};
    var said = {};
    ["lang", "title", "text", "login"].forEach(function (k) { if (typeof words[k] === "string") said[k] = words[k].slice(0, 500); });
    cache.put(WORDS, new Response(JSON.stringify(said), {headers: {"Content-Type": "application/json"}}));
    return Promise.all(data.urls.slice(0, 200).map(function (url) {
      var at;
      try { at = new URL(url, self.location.href); } catch { return null; }
      if (at.origin !== self.location.origin || at.searchParams.has("ping")) return null;
      return cache.match(address(at.href), {ignoreVary: true}).then(function (have) {
        if (have && HASHED.test(at.pathname)) return null;
        var asked = Date.now();
        return fetch(at.href, {credentials: "same-origin"}).then(function (response) {
          return ended(new Request(at.href), response) ? dropStaffCopies() : keep(address(at.href), response, asked);
        }, function () { /* offline again: the next visit */ });
      });
    }));
  }));
});
