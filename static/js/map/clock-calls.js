/* The clock called on a player (TDA 25): the seat's dialog calls it; a badge on his table's card counts his time
   down against the server's time (the floor socket's time sync), says "Hand dead" once it is up (in colour and in
   words), and opens the dialog that ends the call: he acted, the hand is dead (only once time is up), called in
   error. */
import {fmt, el} from "../util.js";
import {words} from "./words.js";
import {DONE} from "./done.js";
import {at, now} from "./state.js";

// The call open at table `table`, or null.
export function clockCallAt(st, table) { return (st.data.clock_calls || {})[String(table)] || null; }

function clockText(left) {
  left = Math.max(0, left);
  return Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
}

function tickBadge(b, time) {
  const left = Math.ceil(Number(b.dataset.ends) - time), up = left <= 0;
  const text = up ? fmt(words.clockBadgeDead, {seat: b.dataset.seat}) : fmt(words.clockBadge, {seat: b.dataset.seat, left: clockText(left)});
  if (b.textContent !== text) b.textContent = text;
  b.classList.toggle("up", up);
  b.classList.toggle("last", !up && left <= 10);
}

// The dialog's and the seat dialog's listeners; returns the card's badge, the tick and the dialog's render.
// `redrawGrid()` draws the cards again (a call made or ended shows at once; the refetch follows).
export function setupClockCalls(st, press, redrawGrid) {
  const grid = document.getElementById("map"), clockDialog = document.getElementById("clock-dialog");
  let clockTable = null;

  function badge(call) {
    const b = el("button", "m-clock");
    b.type = "button";
    b.dataset.table = call.table;
    b.dataset.ends = Date.parse(call.ends_at) / 1000;
    b.dataset.seat = call.seat;
    b.title = fmt(words.clockBadgeTitle, {name: call.name, seat: call.seat});
    if (clockDialog) b.addEventListener("click", function () { open(call.table); });
    else b.disabled = true;
    tickBadge(b, now(st));
    return b;
  }

  function renderDialog() {
    const call = clockTable === null ? null : clockCallAt(st, clockTable);
    if (!call) { if (clockDialog.open) clockDialog.close(); return; }
    const left = Math.ceil(Date.parse(call.ends_at) / 1000 - now(st)), up = left <= 0;
    const say = document.getElementById("clock-left");
    document.getElementById("clock-title").textContent = fmt(words.clockTitle, {table: call.table, seat: call.seat});
    document.getElementById("clock-who").textContent = fmt(words.clockWho, {name: call.name, entry: call.entry, seconds: call.seconds});
    const text = up ? words.clockUp : fmt(words.clockLeft, {left: clockText(left)});
    if (say.textContent !== text) say.textContent = text;
    say.classList.toggle("up", up);
    const acted = document.getElementById("clock-acted"), dead = document.getElementById("clock-dead");
    if (acted.hidden !== up) {  // time up: "He acted" goes, "Hand dead" comes (the focus with it)
      const moveFocus = document.activeElement === (up ? acted : dead);
      acted.hidden = up;
      dead.hidden = !up;
      if (moveFocus) (up ? dead : acted).focus();
    }
  }
  function open(table) {
    clockTable = table;
    document.getElementById("clock-acted").hidden = false;
    document.getElementById("clock-dead").hidden = true;
    renderDialog();
    if (!clockDialog.open) clockDialog.showModal();
  }
  function end(ev, outcome) {
    const table = clockTable;
    clockDialog.close();
    press(ev.currentTarget, at(st.urls.clockCallEnd, table), {outcome: outcome}, DONE.clockEnd).then(function (answer) {
      const calls = st.data.clock_calls;
      if (answer && calls && calls[String(table)] && calls[String(table)].call === answer.call) {
        delete calls[String(table)];  // the badge goes at once; the refetch follows
        redrawGrid();
      }
    });
  }
  if (clockDialog) {
    document.getElementById("clock-acted").addEventListener("click", function (ev) { end(ev, "acted"); });
    document.getElementById("clock-dead").addEventListener("click", function (ev) { end(ev, "dead"); });
    document.getElementById("clock-cancel").addEventListener("click", function (ev) { end(ev, "cancelled"); });
    document.getElementById("clock-close").addEventListener("click", function () { clockDialog.close(); });
  }

  // The clock called on the seat's player, from his seat's dialog; a refusal (an empty seat, a call already open)
  // is said in #notice.
  const go = document.getElementById("clock-call-go");
  if (go) go.addEventListener("click", function () {
    const who = st.chosen;
    document.getElementById("seat-dialog").close();
    press(go, at(st.urls.clockCall, who.table), {seat: who.seat}, DONE.clockCall).then(function (answer) {
      if (!answer || !answer.call) return;
      st.data.clock_calls = st.data.clock_calls || {};
      st.data.clock_calls[String(answer.table)] = answer;  // the badge shows at once; the refetch follows
      redrawGrid();
    });
  });

  // Each badge's countdown, and the open dialog's, in place (not a redraw of the cards).
  function tick() {
    const time = now(st);
    grid.querySelectorAll(".m-clock").forEach(function (b) { tickBadge(b, time); });
    if (clockDialog && clockDialog.open) renderDialog();
  }
  // After a read: a call ended elsewhere closes its dialog.
  function render() { if (clockDialog && clockDialog.open) renderDialog(); }

  return {badge: badge, tick: tick, render: render};
}
