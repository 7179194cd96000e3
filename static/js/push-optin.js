/* "Tell me on this phone": a player's opt-in to notifications with the page closed (Web Push, docs/notifications.md),
 * on his seat page and, for an alternate's number, on the waiting board. The button is the page's (hidden until this
 * module finds the browser can do it and the server sends notifications: the page's config carries `push`).
 *
 * Pressed: the players' service worker registered (/push-sw.js, scope "/": it handles pushes and the notification's
 * "Stop", never a page's requests), the browser's permission asked, the browser subscribed with the server's VAPID
 * public key, the subscription posted to the page's endpoint. The button then says "Stop telling me", which posts the
 * endpoint to the stop endpoint (and ends the browser's subscription once no page of this phone uses it). What this
 * phone opted in for is kept in localStorage, one key per page's endpoint. */
import * as Util from "./util.js";

const words = {
  on: gettext("Tell me on this phone"),
  off: gettext("Stop telling me"),
  onDone: gettext("This phone will tell you of your seat, your moves and your prize, even with this page closed."),
  offDone: gettext("This phone will no longer tell you."),
  denied: gettext("Notifications are blocked for this site: allow them in the browser's settings, then press again."),
  failed: gettext("That did not work: try again."),
  busy: gettext("One moment…"),
};
const STORE = "push:";
const STOPPED = "push-stopped";  // the service worker's marks of a "Stop" pressed on a notification (push-sw.js)

function stopPath(cfg) {
  return new URL(cfg.stop, window.location.origin).pathname;
}

/* A "Stop" pressed on a notification while this page was closed: the worker left a mark; forget the opt-in. */
async function stoppedMeanwhile(cfg) {
  if (!remembered(cfg) || !window.caches) return false;
  try {
    const cache = await window.caches.open(STOPPED);
    if (!(await cache.match(stopPath(cfg)))) return false;
    await cache.delete(stopPath(cfg));
  } catch { return false; }
  remember(cfg, null);
  return true;
}

function keyBytes(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
}

function b64url(buffer) {
  const bytes = new Uint8Array(buffer);
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function supported() {
  return window.isSecureContext && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

function remembered(cfg) {
  try { return window.localStorage.getItem(STORE + cfg.subscribe); } catch { return null; }
}

function remember(cfg, endpoint) {
  try {
    if (endpoint) window.localStorage.setItem(STORE + cfg.subscribe, endpoint);
    else window.localStorage.removeItem(STORE + cfg.subscribe);
  } catch { /* a private window keeps nothing: the button starts as "Tell me" */ }
}

function othersInUse() {
  try {
    for (let i = 0; i < window.localStorage.length; i++) {
      if ((window.localStorage.key(i) || "").indexOf(STORE) === 0) return true;
    }
  } catch { return false; }
  return false;
}

function post(url, body) {
  return fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: {"Content-Type": "application/json", "Accept": "application/json"},
    body: JSON.stringify(body),
  }).then((answer) => answer.json().catch(() => ({})).then((data) => {
    if (!answer.ok) throw new Error(data.detail || words.failed);
    return data;
  }));
}

async function subscription(cfg) {
  const registration = await navigator.serviceWorker.register(cfg.worker, {scope: "/"});
  await navigator.serviceWorker.ready;
  const current = await registration.pushManager.getSubscription();
  if (current) return current;
  return registration.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(cfg.key)});
}

async function optIn(cfg) {
  const permission = Notification.permission === "granted" ? "granted" : await Notification.requestPermission();
  if (permission !== "granted") throw new Error(words.denied);
  const sub = await subscription(cfg);
  const json = sub.toJSON ? sub.toJSON() : {};
  const keys = json.keys || {p256dh: b64url(sub.getKey("p256dh")), auth: b64url(sub.getKey("auth"))};
  const language = document.documentElement.lang || "";
  await post(cfg.subscribe, {endpoint: sub.endpoint, keys: {p256dh: keys.p256dh, auth: keys.auth}, language: language});
  return sub.endpoint;
}

async function optOut(cfg, endpoint) {
  await post(cfg.stop, {endpoint: endpoint, via: "page"});
  remember(cfg, null);
  if (othersInUse()) return;
  const registration = await navigator.serviceWorker.getRegistration("/");
  const sub = registration ? await registration.pushManager.getSubscription() : null;
  if (sub) await sub.unsubscribe();
}

/* Wire the page's button (`box`: the block holding the button and its status line) to the page's `cfg.push`. */
export function offer(box, cfg) {
  if (!box || !cfg || !supported()) return;
  const button = box.querySelector("button");
  const note = box.querySelector("[role=status]") || box.appendChild(Util.el("p", "p-small", ""));
  function show() {
    button.textContent = remembered(cfg) ? words.off : words.on;
    button.setAttribute("aria-pressed", remembered(cfg) ? "true" : "false");
  }
  button.addEventListener("click", async () => {
    if (button.disabled) return;
    button.disabled = true;
    note.textContent = words.busy;
    const endpoint = remembered(cfg);
    try {
      if (endpoint) {
        await optOut(cfg, endpoint);
        note.textContent = words.offDone;
      } else {
        remember(cfg, await optIn(cfg));
        note.textContent = words.onDone;
      }
    } catch (e) {
      note.textContent = (e && e.message) || words.failed;
    }
    button.disabled = false;
    show();
  });
  // "Stop" on a notification: said by the worker to this page if open, or found in its marks when the page opens.
  navigator.serviceWorker.addEventListener("message", (event) => {
    if (!event.data || event.data.kind !== STOPPED || event.data.stop !== stopPath(cfg)) return;
    stoppedMeanwhile(cfg).then(() => { remember(cfg, null); note.textContent = words.offDone; show(); });
  });
  stoppedMeanwhile(cfg).then((stopped) => { if (stopped) { note.textContent = words.offDone; show(); } });
  show();
  box.hidden = false;
}
