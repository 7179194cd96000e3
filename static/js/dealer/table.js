/* The dealer tablet's table: as the server last said it (state.server) and as the tablet shows it (state.table), with
 * its own presses still waiting on the device followed.
 *
 *  - following(state, urls, now) -> {follow(server), followed(call)}: presses kept on the device while the line is
 *    down (press-queue.js): the tablet follows them at once, on the state the server last sent, so a Shuffle kept
 *    offline shows its hand started and Hand done can be pressed, and a kept Hand done lets the next Shuffle go. The
 *    queue in localStorage is the record (it survives a reload); a press leaves it once the server has answered, and
 *    the state read then has it.
 *  - reading({state, urls, words, sync, view, follow, changed}) -> {poll, socket}: the state read from the API (tables/<n>/state/)
 *    when the table's socket says so (a snapshot on connect, an event naming this table), every 30 s (a lost
 *    socket), when the page is shown again and when the presses kept offline reached the server. Offline, the service
 *    worker answers with the last state it kept (static/js/tablet-sw.js: X-Offline-Copy): shown, and the badge says
 *    offline. changed(): a new table read.
 */
import * as Live from "../live.js";

export function following(state, urls, now) {
  // `kept`: the keys this page saw kept, with when.
  const meta = document.querySelector('meta[name="press-queue"]'), kept = {};
  const queueName = meta ? "press-queue:" + meta.content : null;
  function waitingPresses() {
    if (!queueName) return [];
    let list;
    try { list = JSON.parse(window.localStorage.getItem(queueName) || "[]"); } catch { return []; }
    return Array.isArray(list) ? list : [];
  }
  // Kept before this page was loaded; the time is when the tablet learnt of it (the hand's age counts from it).
  waitingPresses().forEach((item) => { kept[item.key] = now(); });
  const absolute = (url) => new URL(url, location.href).href;

  function follow(from) {
    let st = Object.assign({}, from);
    const before = [];
    waitingPresses().forEach((item) => {
      if (!kept[item.key]) return;  // being sent now: its answer and the state after it come soon
      const h = st.h4h ? Object.assign({}, st.h4h) : null;
      if (item.url === absolute(urls.hand) && item.method === "POST") {
        before.push(st);
        st = Object.assign({}, st, {hand: (st.hand || 0) + 1, hand_in_progress: true, hand_level_index: null,
                                    hand_started_at: kept[item.key], positions: {}, h4h: h});
        if (h && h.step === "deal") h.step = "playing";
      } else if (item.url === absolute(urls.hand) && item.method === "DELETE") {
        st = before.length ? before.pop() : Object.assign({}, st, {hand: Math.max((st.hand || 0) - 1, 0), positions: {}});
      } else if (item.url === absolute(urls.handDone) && item.method === "POST") {
        st = Object.assign({}, st, {hand_in_progress: false, h4h: h});
        if (h && h.step === "playing") h.step = "done";
      }
    });
    return st;
  }

  // One press of the hand's buttons: kept on the device, the tablet follows it now.
  function followed(call) {
    return (key) => call(key).catch((error) => {
      if (error && error.code === "queued") { kept[key] = now(); state.table = follow(state.server); }
      throw error;
    });
  }
  return {follow, followed};
}

export function reading({state, urls, words, sync, view, follow, changed}) {
  const badge = document.getElementById("live");
  function online(up) {
    badge.textContent = up ? words.live : words.offline;
    badge.className = "badge " + (up ? "live" : "offline");
  }
  function apply(d) {
    if (d.table) { state.server = d.table; state.table = follow(state.server); changed(); }
    if (d.clock) view.set(d.clock);
    view.tick();
  }
  function poll() {
    let copy = false;
    fetch(urls.state, {cache: "no-store", credentials: "same-origin", headers: {"Accept": "application/json"}})
      .then((r) => { if (!r.ok) throw new Error(r.status); copy = r.headers.has("X-Offline-Copy"); return r.json(); })
      .then((d) => { online(!copy); apply(d); })
      .catch(() => { online(false); });
  }
  document.addEventListener("press-queue:sent", poll);  // the presses kept offline reached the server
  sync.start();
  const socket = window.WebSocket ? Live.connect({path: urls.socket, onSnapshot: () => { poll(); }, onEvent: () => { poll(); }})
    : null;
  setInterval(poll, 30000);  // a fallback for a lost socket
  document.addEventListener("visibilitychange", () => { if (!document.hidden) { poll(); sync.burst(); } });
  poll();
  return {poll, socket};
}
