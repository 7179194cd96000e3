/* The players' service worker (docs/notifications.md): shows the messages the server pushes (Web Push, encrypted to
 * this browser's keys; the browser decrypts them) and handles a tap on one (the seat page opens) and its "Stop" button
 * (the phone is told no more: the stop endpoint the message names, with this browser's endpoint). Served at /push-sw.js
 * (web/notify/worker.py) and registered by static/js/push-optin.js with the scope "/". No fetch handler: the pages'
 * requests never pass through it. A classic script, not a module, with no import.
 *
 * A message: {title, body, tag, url, stop: {url, label}, lang, kind}. The same tag twice (a task run again) replaces
 * the notification rather than showing a second one. */
"use strict";

self.addEventListener("install", function () { self.skipWaiting(); });
self.addEventListener("activate", function (event) { event.waitUntil(self.clients.claim()); });

self.addEventListener("push", function (event) {
  var data = {};
  try { data = event.data ? event.data.json() : {}; } catch { data = {body: event.data ? event.data.text() : ""}; }
  var options = {
    body: data.body || "",
    tag: data.tag || undefined,
    lang: data.lang || undefined,
    data: {url: data.url || "/", stop: data.stop || null},
    actions: data.stop ? [{action: "stop", title: data.stop.label}] : [],
  };
  event.waitUntil(self.registration.showNotification(data.title || "", options));
});

/* The pages of this phone learn that it was stopped: one open now at once (a message), one opened later from a mark
 * in the Cache storage ("push-stopped", keyed by the stop endpoint's path), which static/js/push-optin.js reads. */
var STOPPED = "push-stopped";

function stoppedHere(url) {
  var path = new URL(url, self.location.origin).pathname;
  return caches.open(STOPPED).then(function (cache) { return cache.put(path, new Response("1")); }).then(function () {
    return self.clients.matchAll({type: "window", includeUncontrolled: true});
  }).then(function (windows) {
    windows.forEach(function (w) { w.postMessage({kind: STOPPED, stop: path}); });
  });
}

function stopTelling(notification) {
  var target = notification.data && notification.data.stop;
  if (!target) return Promise.resolve();
  return self.registration.pushManager.getSubscription().then(function (sub) {
    if (!sub) return null;
    return fetch(target.url, {
      method: "POST",
      credentials: "same-origin",
      headers: {"Content-Type": "application/json", "Accept": "application/json"},
      body: JSON.stringify({endpoint: sub.endpoint, via: "notification"}),
    }).then(function (answer) { return answer.ok ? stoppedHere(target.url) : null; });
  });
}

function openPage(url) {
  return self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (windows) {
    for (var i = 0; i < windows.length; i++) {
      if (new URL(windows[i].url).pathname === url && "focus" in windows[i]) return windows[i].focus();
    }
    return self.clients.openWindow ? self.clients.openWindow(url) : null;
  });
}

self.addEventListener("notificationclick", function (event) {
  var notification = event.notification;
  notification.close();
  if (event.action === "stop") {
    event.waitUntil(stopTelling(notification));
    return;
  }
  event.waitUntil(openPage((notification.data && notification.data.url) || "/"));
});
