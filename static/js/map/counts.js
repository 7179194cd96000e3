/* Chip counts (tables/services/counting.py): one seated player's count from his seat's dialog (a stack counted at an
   all-in, a chip leader asked), beside his last count; and a table's stacks counted at once ("Count stacks" on its
   card): every seated player's chips typed beside his last count (GET counts/ gives the players), Save sends the
   whole table (POST counts/). The table's dialog stays open until the server takes the counts: its refusal (a
   player busted or moved meanwhile) is said in the dialog, and the table read again keeps the counts typed for the
   players still there (by entry). */
import {fmt, el, whole} from "../util.js";
import * as api from "../api.js";
import * as Live from "../live.js";
import {words} from "./words.js";
import {DONE} from "./done.js";
import {at} from "./state.js";
import {sayIn} from "./dom.js";

// A player's last count, as a hint beside the one typed now.
export function lastCount(chips) { return chips === null ? words.countNever : fmt(words.countLast, {chips: Live.number(chips)}); }

function countInputs() { return Array.prototype.slice.call(document.querySelectorAll("#counts-rows input")); }

function countsSay(message, ok) { sayIn("counts-say", message, ok); }

function renderCounts(answer) {
  const rows = document.getElementById("counts-rows"), typed = {}, focused = document.activeElement;
  const again = focused && rows.contains(focused) ? focused.dataset.entry : null;
  countInputs().forEach(function (i) { if (i.value.trim()) typed[i.dataset.entry] = i.value; });
  rows.textContent = "";
  answer.players.forEach(function (p) {
    const row = el("div", "m-count-row"), id = "count-seat-" + p.seat;
    const label = el("label", "", fmt(words.countSeat, {seat: p.seat, name: p.name}));
    label.htmlFor = id;
    const input = el("input"), hint = el("small", "muted", lastCount(p.chips));
    input.type = "number"; input.id = id; input.min = 0; input.step = 1; input.inputMode = "numeric";
    input.autocomplete = "off";
    input.dataset.entry = p.entry;
    input.dataset.seat = p.seat;
    input.value = typed[p.entry] || "";
    hint.id = id + "-last";
    input.setAttribute("aria-describedby", hint.id);
    row.appendChild(label);
    row.appendChild(input);
    row.appendChild(hint);
    rows.appendChild(row);
    if (again === String(p.entry)) input.focus();
  });
  if (!answer.players.length) rows.appendChild(el("p", "muted", words.countNoPlayers));
  document.getElementById("counts-save").disabled = !answer.players.length;
}

// The forms' listeners; returns the seat dialog's hint and the table's dialog (`open` null: the role may not count
// a table).
export function setupCounts(st, press) {
  const seatDialog = document.getElementById("seat-dialog"), countForm = document.getElementById("count-form");
  if (countForm) countForm.addEventListener("submit", function (ev) {
    ev.preventDefault();
    const who = st.chosen;
    seatDialog.close();
    press(document.getElementById("count-go"), at(st.urls.count, who.entry),
          {chips: whole(document.getElementById("count-chips").value)}, DONE.count);
  });

  // The seat dialog opened on `seat` of table `t`: the field empty, his last count read from the table's counts.
  function seatOpened(t, seat) {
    const last = document.getElementById("count-last");
    if (!last) return;
    document.getElementById("count-chips").value = "";
    last.textContent = "";
    api.get(at(st.urls.counts, t.table)).then(function (answer) {
      const p = (answer && answer.players || []).filter(function (x) { return x.entry === seat.entry; })[0];
      if (p && st.chosen && st.chosen.entry === seat.entry) last.textContent = lastCount(p.chips);
    }, function () { /* no hint */ });
  }

  const countsDialog = document.getElementById("counts-dialog");
  let countsTable = null;
  function open(table, button) {
    api.press(button, function () { return api.get(at(st.urls.counts, table)); }, null).then(function (answer) {
      if (!answer || !answer.players) return;
      countsTable = table;
      document.getElementById("counts-where").textContent = fmt(words.table, {n: table});
      document.getElementById("counts-rows").textContent = "";  // a new count: nothing typed yet
      countsSay("", true);
      renderCounts(answer);
      countsDialog.showModal();
      const first = countInputs()[0];
      if (first) first.focus();
    });
  }
  if (countsDialog) {
    document.getElementById("counts-close").addEventListener("click", function () { countsDialog.close(); });
    // api.js says a refusal in #notice, behind the dialog: the dialog says it too.
    document.getElementById("notice").addEventListener("api:said", function (e) {
      if (countsDialog.open) countsSay(e.detail.message, e.detail.ok);
    });
    document.getElementById("counts-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      const seats = {}, table = countsTable;
      let missing = null;
      countInputs().forEach(function (i) {
        if (!i.value.trim()) missing = missing || i;
        seats[i.dataset.seat] = whole(i.value);
      });
      if (missing) {  // every seated player is counted at once: the first seat left out is said and focused
        countsSay(fmt(words.countMissing, {seat: missing.dataset.seat}), false);
        missing.focus();
        return;
      }
      press(document.getElementById("counts-save"), at(st.urls.counts, table), {seats: seats}, null).then(function (answer) {
        if (answer && answer.players) {  // closed first, so that #notice (no longer behind a modal) says it
          countsDialog.close();
          api.say(DONE.counts(answer), true);
          return;
        }
        api.get(at(st.urls.counts, table)).then(function (now) {
          if (countsDialog.open && countsTable === table && now && now.players) renderCounts(now);
        }, function () { /* the refusal stays said */ });
      });
    });
  }
  return {seatOpened: seatOpened, open: countsDialog ? open : null};
}
