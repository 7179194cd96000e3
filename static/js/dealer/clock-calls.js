/* Calling the clock on a player from the dealer tablet (#call; table.clock_call, tables/services/clock_calls.py, TDA 25).
 * "Call the clock" lists the seated players (the API's counts/, as "Count stacks" does), one is picked, the call is
 * sent. While a call is open its banner counts down against the server's time (sync.now()): m:ss, the last
 * `countdown` seconds as one large number, then "Hand dead". Screen readers hear the start, the last seconds once
 * and the hand dead (the ticking digits are hidden from them).
 *
 *   ClockCalls({state, words, urls, sync, poll}) -> {render(), saying}   saying: a press of the call's is being said
 */
import * as Util from "../util.js";
import * as api from "../api.js";

const $ = (id) => document.getElementById(id);
const fmt = Util.fmt, el = Util.el;
const GRACE = 0.3;  // s past the end before the tablet says "Hand dead": the server's time is up by then

function mss(s) { return Math.floor(s / 60) + ":" + (s % 60 < 10 ? "0" : "") + (s % 60); }

export function ClockCalls({state, words, urls, sync, poll}) {
  const calling = {players: [], seat: null, said: "", saying: false};
  const left = (c) => Date.parse(c.ends_at) / 1000 - sync.now();

  // What the banner's status region says, once a moment: set a beat after the banner shows, to be heard.
  function announce(key, text) {
    if (calling.said === key) return;
    calling.said = key;
    window.setTimeout(() => { if (calling.said === key) $("call-announce").textContent = text; }, 150);
  }

  function tick() {
    const c = state.table.clock_call;
    if (!c) return;
    const s = left(c), up = s <= -GRACE || (c.time_up && s <= 0), shown = Math.max(0, Math.ceil(s - 0.0005));
    const big = up || shown <= c.countdown;
    $("call-time").hidden = big;
    $("call-time").textContent = mss(shown);
    $("call-big").hidden = !big;
    $("call-big").textContent = up ? words.callDead : String(shown);
    $("call-big").classList.toggle("dead", up);
    $("call-banner").classList.toggle("last", big && !up);
    $("call-banner").classList.toggle("dead", up);
    $("call-banner").dataset.left = up ? "dead" : String(shown);
    $("call-acted").hidden = up;
    $("call-acted").disabled = up || $("call-acted").getAttribute("aria-busy") === "true";
    if ($("call-dead").getAttribute("aria-busy") !== "true") $("call-dead").disabled = !up;
    // Heard: the start (who, the time left), the last seconds once, the hand dead; never each second.
    const key = c.call + ":", last = shown <= c.countdown;
    if (up) announce(key + "dead", words.callDead);
    else if (calling.said.indexOf(key) !== 0) {
      announce(key + (last ? "last" : "start"), fmt(words.callStartLeft(shown), {seat: c.seat, name: c.name, n: shown}));
    } else if (last && calling.said === key + "start") {
      announce(key + "last", fmt(words.callLastLeft(shown), {n: shown}));
    }
  }

  function render() {
    const c = state.table.clock_call || null, picking = !$("call-pick").hidden;
    const focused = picking && $("call-pick").contains(document.activeElement);
    if (c && picking) closePick(false);  // a call came from elsewhere (the floor) meanwhile
    $("call-banner").hidden = !c;
    $("call-actions").hidden = !c;
    $("call-open").hidden = !!c;
    $("call").hidden = !c && $("call-pick").hidden;
    if (!c) {
      $("call-banner").dataset.call = "";
      if ($("call-actions").contains(document.activeElement)) $("call-open").focus();
      return;
    }
    if ($("call-banner").dataset.call !== String(c.call)) {
      $("call-banner").dataset.call = String(c.call);
      $("call-say").hidden = true;  // a refusal said before this call
      $("call-banner").dataset.seat = String(c.seat);
      $("call-title").textContent = fmt(words.callOn, {seat: c.seat, name: c.name});
    }
    tick();
    if (focused) $("call-cancel").focus({preventScroll: true});
  }
  setInterval(tick, 200);

  // --- the seat picked --------------------------------------------------------------------------------------
  function paintPick() {
    $("call-seats").querySelectorAll("button").forEach((b) => {
      b.setAttribute("aria-pressed", b.dataset.seat === String(calling.seat) ? "true" : "false");
    });
    $("call-go").disabled = calling.seat === null;
    $("call-go").textContent = calling.seat === null ? words.callClock : fmt(words.callGo, {seat: calling.seat});
  }
  function renderPick(answer) {
    const box = $("call-seats");
    calling.players = answer.players;
    box.textContent = "";
    calling.players.forEach((p) => {
      const b = el("button", "c-seat");
      b.type = "button";
      b.dataset.seat = String(p.seat);
      b.appendChild(el("b", null, String(p.seat)));
      b.appendChild(el("span", null, p.name));
      b.setAttribute("aria-label", fmt(words.callSeat, {seat: p.seat, name: p.name}));
      box.appendChild(b);
    });
    if (!calling.players.length) box.appendChild(el("p", "r-help", words.raceNoPlayers));
    if (!calling.players.some((p) => p.seat === calling.seat)) calling.seat = null;
    paintPick();
  }
  function closePick(focus) {
    const inside = $("call-pick").contains(document.activeElement);
    $("call-pick").hidden = true;
    $("call-open").setAttribute("aria-expanded", "false");
    $("call").hidden = !state.table.clock_call;
    $("call-say").hidden = true;
    calling.seat = null;
    if (inside && focus !== false && !$("call-open").hidden) $("call-open").focus();
  }
  $("call-open").addEventListener("click", () => {
    if (!$("call-pick").hidden) { closePick(); return; }
    api.press($("call-open"), () => api.get(urls.counts), null).then((answer) => {
      if (!answer || !answer.players || state.table.clock_call) return;
      calling.seat = null;
      $("call-say").hidden = true;
      $("call").hidden = false;
      $("call-pick").hidden = false;
      $("call-open").setAttribute("aria-expanded", "true");
      renderPick(answer);
      $("call").scrollIntoView({block: "start"});
      const first = $("call-seats").querySelector("button");
      if (first) first.focus({preventScroll: true});
    });
  });
  $("call-seats").addEventListener("click", (e) => {
    const b = e.target.closest("button");
    if (!b) return;
    calling.seat = Number(b.dataset.seat);
    paintPick();
  });
  $("call-pick-cancel").addEventListener("click", () => { closePick(); });
  $("call-pick").addEventListener("keydown", (e) => { if (e.key === "Escape") { e.preventDefault(); closePick(); } });

  // --- the presses ------------------------------------------------------------------------------------------
  // A press of the clock call's buttons: its answer is said by them too (#call-say), then the state again.
  function press(button, call, done) {
    calling.saying = true;
    return api.press(button, call, done).then((answer) => {
      calling.saying = false;
      poll();
      tick();
      return answer;
    });
  }
  $("call-go").addEventListener("click", () => {
    const seat = calling.seat;
    if (seat === null) return;  // the button is disabled until a seat is picked
    press($("call-go"), (k) => api.post(urls.clockCall, {seat: seat}, {key: k}), (c) => fmt(words.callStarted, {seat: c.seat, name: c.name}))
      .then((c) => {
        if (!c || !c.call) return;
        state.table.clock_call = c;
        closePick(false);
        render();
        $("call-acted").focus({preventScroll: true});
      });
  });
  function end(button, outcome, done) {
    press(button, (k) => api.post(urls.clockCallEnd, {outcome: outcome}, {key: k}), done).then((c) => {
      if (!c || !c.outcome) return;
      const focus = $("call").contains(document.activeElement);
      state.table.clock_call = null;
      render();
      if (focus) $("call-open").focus({preventScroll: true});
    });
  }
  $("call-acted").addEventListener("click", () => { end($("call-acted"), "acted", words.callActed); });
  $("call-dead").addEventListener("click", () => { end($("call-dead"), "dead", words.callDeclared); });
  $("call-cancel").addEventListener("click", () => {
    if (window.confirm(words.callAskCancel)) end($("call-cancel"), "cancelled", words.callCancelled);
  });

  return {render, get saying() { return calling.saying; }};
}
