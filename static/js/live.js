/* Live updates over a WebSocket: snapshot on connect, events with sequence numbers,
   a gap or a reconnect means a fresh snapshot. Time sync: the server is the clock.
   The money rule is static/js/util.js's. */
import {money} from "./util.js";

/* Estimate the offset between this device's wall clock and the server's (seconds):
   server time ~= Date.now() / 1000 + offset. A burst of pings; the sample with the
   smallest round trip wins: offset = server_time + rtt / 2 - receive time. Round trips
   are measured with performance.now(), which a wrong or changed wall clock does not move.
   `send(id)` sends one ping; call `receive(id, server_time)` with its answer. */
function TimeSync(send, opts) {
  opts = opts || {};
  var count = opts.count || 5, gap = opts.gap || 200, every = opts.every || 300000;
  var offset = opts.initial !== undefined ? opts.initial : null;
  var pending = {}, nextId = 1, best = null, listeners = [], timers = [], periodic = null;
  var info = {rtt: null, samples: 0, at: null};
  function notify() { listeners.forEach(function (fn) { try { fn(offset); } catch { /* a listener's bug */ } }); }
  function ping() {
    var id = nextId++;
    pending[id] = performance.now();
    try { send(id); } catch { delete pending[id]; }
  }
  function burst() {
    timers.forEach(clearTimeout);
    timers = [];
    best = null;
    pending = {};
    for (var i = 0; i < count; i++) timers.push(setTimeout(ping, i * gap));
  }
  function receive(id, serverTime) {
    var sent = pending[id];
    if (sent === undefined || typeof serverTime !== "number") return;
    delete pending[id];
    var rtt = (performance.now() - sent) / 1000;
    info.samples += 1;
    if (best === null || rtt < best.rtt) {
      best = {rtt: rtt, offset: serverTime + rtt / 2 - Date.now() / 1000};
      offset = best.offset;
      info.rtt = rtt;
      info.at = performance.now();
      notify();
    }
  }
  function start() {
    burst();
    if (periodic === null) periodic = setInterval(burst, every);
  }
  function stop() {
    timers.forEach(clearTimeout);
    timers = [];
    if (periodic !== null) { clearInterval(periodic); periodic = null; }
  }
  /* The wall clock stepped (NTP, a person, a sleep): the offset no longer holds; measure again. */
  var lastWall = null, lastPerf = null;
  function now() {
    var wall = Date.now(), perf = performance.now();
    if (lastWall !== null && Math.abs((wall - lastWall) - (perf - lastPerf)) > 1000 && periodic !== null) burst();
    lastWall = wall;
    lastPerf = perf;
    return wall / 1000 + (offset === null ? 0 : offset);
  }
  return {
    burst: burst, receive: receive, start: start, stop: stop,
    /* A rough estimate until the first answer (e.g. the server_time of a page's snapshot). */
    guess: function (serverTime) { if (best === null && typeof serverTime === "number") { offset = serverTime - Date.now() / 1000; notify(); } },
    onChange: function (fn) { listeners.push(fn); },
    get offset() { return offset === null ? 0 : offset; },
    get known() { return offset !== null; },
    get info() { return info; },
    /* Server time now, in seconds since the epoch. */
    now: now
  };
}

function connect(opts) {
  var seq = null, ws = null, attempt = 0, closedForGood = false, online = false, retry = null;
  var badge = opts.badge ? document.querySelector(opts.badge) : null;
  var sync = opts.sync || null;  // a TimeSync: pinged over this socket on every (re)connect
  if (sync === true) sync = TimeSync(function (id) { sendJson({action: "ping", id: id}); });
  function sendJson(data) { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(data)); else throw new Error("offline"); }
  /* "live" (a snapshot came on this socket), "reconnecting" (lost or refused, e.g. 1013 while the
     server's Redis is down: retrying with backoff) or "offline" (refused for good, 4003). */
  function setStatus(up) {
    online = up;
    var state = up ? "live" : closedForGood ? "offline" : "reconnecting";
    if (opts.onStatus) opts.onStatus(up, state);
    // For the page's other parts (press-queue.js: a socket live again sends the presses kept offline).
    document.dispatchEvent(new CustomEvent("live:status", {detail: {up: up, state: state}}));
    if (!badge) return;
    badge.textContent = up ? gettext("live") : state === "reconnecting" ? gettext("reconnecting…") : gettext("offline");
    badge.className = "badge " + (up ? "live" : "offline " + state);
  }
  function open() {
    var proto = location.protocol === "https:" ? "wss://" : "ws://";
    ws = new WebSocket(proto + location.host + opts.path);
    ws.onopen = function () {
      if (sync) sync.start();
    };
    ws.onmessage = function (msg) {
      var data = JSON.parse(msg.data);
      if (data.kind === "pong") {
        if (sync) sync.receive(data.id, data.server_time);
      } else if (data.kind === "snapshot") {
        seq = data.seq;
        // Live from the first snapshot, not from the handshake: a server that accepts and closes
        // at once (1013) keeps the backoff growing instead of being retried twice a second.
        if (!online) { attempt = 0; setStatus(true); }
        opts.onSnapshot(data);
      } else if (data.kind === "resync") {
        // opts.thin: the server heard a push lost on its way and says so; the socket's own sequence cannot.
        ws.send(JSON.stringify({action: "snapshot"}));
      } else if (data.kind === "event") {
        if (opts.thin) {
          // A seat page's socket gets only the pushes for its entry (live/fanout.py): a jump is not a gap.
          if (seq !== null && data.seq <= seq) return;
        } else if (seq !== null && data.seq !== seq + 1) {
          if (data.seq > seq + 1) ws.send(JSON.stringify({action: "snapshot"}));
          return; // an old or repeated event: the snapshot covers it
        }
        seq = data.seq;
        opts.onEvent(data);
      }
    };
    ws.onclose = function (ev) {
      if (ev.code === 4003) closedForGood = true;
      setStatus(false);
      if (sync) sync.stop();
      if (closedForGood) { if (opts.onRefused) opts.onRefused(); return; }
      attempt += 1;
      var delay = Math.min(30000, 500 * Math.pow(2, attempt)) * (0.5 + Math.random());
      retry = setTimeout(open, delay);
    };
  }
  open();
  // The device's line is back (Wi-Fi again): try now, not after the backoff grown while it was down.
  window.addEventListener("online", function () {
    if (closedForGood || retry === null || (ws && ws.readyState !== WebSocket.CLOSED)) return;
    clearTimeout(retry);
    retry = null;
    open();
  });
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && ws && ws.readyState === WebSocket.OPEN) {
      ws.send(JSON.stringify({action: "snapshot"}));
      if (sync) sync.burst();
    }
  });
  return {
    get seq() { return seq; }, get closed() { return closedForGood; }, get online() { return online; },
    sync: sync,
    /* Ask for a fresh snapshot (e.g. after an event this page cannot apply by itself). */
    refresh: function () { if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({action: "snapshot"})); }
  };
}
function fillStats(stats) {
  if (!stats) return;
  document.querySelectorAll("[data-stat]").forEach(function (el) {
    var key = el.dataset.stat, value = stats[key];
    if (value === undefined) return;
    el.textContent = el.dataset.money !== undefined ? money(value, stats.currency) : number(value);
  });
}
// A count as the page's language writes it ("1 100" in Czech), and a change with its sign ("+50",
// "−25", "±0"; nothing for no value): the chip figures of the map, the color-up page and the tablet. A
// negative count takes the minus sign U+2212, as money does.
function number(n) {
  n = Number(n);
  return (n < 0 ? "\u2212" : "") + Math.abs(n).toLocaleString(document.documentElement.lang || undefined);
}
function signed(n) {
  if (n === null || n === undefined) return "";
  return (n > 0 ? "+" : n < 0 ? "\u2212" : "\u00b1") + number(Math.abs(n));
}
// A move slip's position at its new table (tables/rules/positions.py: big_blind, small_blind, button,
// wait_for_button, in_play) in the floor's words: " · big blind", " · waits for the button"; nothing when
// the software does not know it ("unknown", or a code it does not name). The dealer tablet and the floor
// map say it so; a screen with words of its own for some codes passes them (the player's seat page:
// {wait_for_button: "wait for the button", in_play: ""}, an empty word saying nothing).
function slipPosition(code, words) {
  words = Object.assign({
    big_blind: pgettext("seat position", "big blind"),
    small_blind: pgettext("seat position", "small blind"),
    button: pgettext("seat position", "button"),
    wait_for_button: pgettext("slip position", "waits for the button"),
    in_play: pgettext("slip position", "dealt in, no blind")
  }, words);
  return words[code] ? " · " + words[code] : "";
}
export {connect, fillStats, number, signed, slipPosition, TimeSync};
