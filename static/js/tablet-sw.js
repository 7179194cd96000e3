/* The tablets' service worker (issue 26): the screen's own files and its last state, so a tablet reopens with no
 * connection. Registered by static/js/press-queue.js from the three screens that opt in (the dealer tablet, the floor
 * map, the color-up page), each with its own page's path as the scope, so it never handles another page. Served at
 * /tablet-sw.js (web/tablet_worker.py): a worker's scope cannot be wider than the folder of its script, and a page of
 * /t/<id>/ is not under /static/js/.
 *
 *  - Hashed static files (production: "dealer.0123456789ab.js", config/storage.py): the cache first (a hashed
 *    name never changes its content); when a file's new hash is kept, its old one goes.
 *  - Everything else the page reads (the page itself, its state JSON, the API's reads, the scripts' words, static
 *    files with plain names in development): the network first, the last copy when the network does not answer
 *    (or answers 502, 503, 504). A copy carries X-Offline-Copy (when it was kept); a page from the cache gets
 *    <meta name="offline-copy" content="<that time>">, and the page is told of a state read from the cache
 *    ({kind: "copy", at}), so it says what it shows is old.
 *  - Writes (POST, PUT, PATCH, DELETE: press-queue.js keeps those), the time pings (?ping=...), other sites and
 *    this script: not handled.
 * A classic script, not a module, with no import: the browser checks it for an update on each visit.
 */
"use strict";

var CACHE = "tablet-v1";
var HASHED = /^(.*\.)[0-9a-f]{12}(\.[A-Za-z0-9]+)$/;
var STAMP = "X-Offline-Copy";
var LOST = {502: 1, 503: 1, 504: 1};

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
function keep(url, response) {
  if (!response || response.status !== 200 || response.type !== "basic" || response.redirected) return Promise.resolve();
  var headers = new Headers(response.headers);
  headers.set(STAMP, new Date().toISOString());
  return response.blob().then(function (body) {
    var copy = new Response(body, {status: 200, statusText: response.statusText, headers: headers});
    return caches.open(CACHE).then(function (cache) {
      return cache.put(url, copy).then(function () { return forgetOld(cache, url); });
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

function tell(clientId, at) {
  if (!clientId) return;
  self.clients.get(clientId).then(function (client) { if (client) client.postMessage({kind: "copy", at: at}); });
}

/* The last copy, marked: a page gets <meta name="offline-copy">, a state read its page told. null: none kept. */
function lastCopy(event, url) {
  return caches.open(CACHE).then(function (cache) { return cache.match(url, {ignoreVary: true}); }).then(function (copy) {
    if (!copy) return null;
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
  var url = address(event.request.url);
  return fetch(event.request).then(function (response) {
    if (LOST[response.status]) return lastCopy(event, url).then(function (copy) { return copy || response; });
    event.waitUntil(keep(url, response.clone()));
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
    return copy || fetch(event.request).then(function (response) {
      event.waitUntil(keep(url, response.clone()));
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
    return Promise.all(data.urls.slice(0, 200).map(function (url) {
      var at;
      try { at = new URL(url, self.location.href); } catch (e) { return null; }
      if (at.origin !== self.location.origin || at.searchParams.has("ping")) return null;
      return cache.match(address(at.href), {ignoreVary: true}).then(function (have) {
        if (have && HASHED.test(at.pathname)) return null;
        return fetch(at.href, {credentials: "same-origin"}).then(function (response) { return keep(address(at.href), response); },
                                                               function () { /* offline again: the next visit */ });
      });
    }));
  }));
});
