/* Bag-and-tag at the end of a day (days/services/bags.py). A table's bags ("Bag stacks" on its card): every seated
   player's chips (from his bag today, else his last count) and bag number, typed at once (GET bags/ gives the
   players); Save sends the whole table (POST bags/). Like the counts' dialog, it stays open until the server takes
   the bags: a refusal (a bag number on another player's bag) is said in the dialog, and the table read again keeps
   what was typed for the players still there (by entry). And one seated player's bag (or its correction), from his
   seat's dialog: his bag today or his last count to start from; a refusal is said there, with what was typed. */
import {fmt, el, whole} from "../util.js";
import * as api from "../api.js";
import * as Live from "../live.js";
import {words} from "./words.js";
import {DONE} from "./done.js";
import {at} from "./state.js";
import {lastCount} from "./counts.js";
import {sayIn} from "./dom.js";

function bagInputs() { return Array.prototype.slice.call(document.querySelectorAll("#bags-rows .m-bag-row")); }

function startChips(p) { const c = p.chips !== null ? p.chips : p.last_count; return c === null || c === undefined ? "" : String(c); }
function bagHint(p) { return p.bag ? fmt(words.bagNow, {bag: p.bag, chips: Live.number(p.chips)}) : lastCount(p.last_count); }

function field(cls, id, text, labelled) {
  const box = el("div", cls), label = el("label", "", text), input = el("input");
  label.htmlFor = id;
  label.id = id + "-label";
  input.id = id;
  input.autocomplete = "off";
  input.setAttribute("aria-labelledby", labelled + " " + label.id);
  box.appendChild(label);
  box.appendChild(input);
  return box;
}

function renderBags(answer, fresh) {
  const rows = document.getElementById("bags-rows"), typed = {}, focused = document.activeElement;
  const again = focused && rows.contains(focused) ? focused.id : null;
  if (!fresh) bagInputs().forEach(function (r) { typed[r.dataset.entry] = [r.querySelector(".chips input").value, r.querySelector(".bag input").value]; });
  rows.textContent = "";
  answer.players.forEach(function (p) {
    const row = el("div", "m-bag-row" + (p.bag ? " bagged" : "")), id = "bag-seat-" + p.seat;
    row.dataset.entry = p.entry;
    row.dataset.seat = p.seat;
    const who = el("span", "who", fmt(words.countSeat, {seat: p.seat, name: p.name}));
    who.id = id;
    const hint = el("small", "muted", bagHint(p));
    hint.id = id + "-hint";
    const chips = field("chips", id + "-chips", words.bagChips, id), bag = field("bag", id + "-bag", words.bagNumber, id);
    const ci = chips.querySelector("input"), bi = bag.querySelector("input");
    ci.type = "number"; ci.min = 1; ci.step = 1; ci.inputMode = "numeric";
    ci.setAttribute("aria-describedby", hint.id);
    bi.type = "text"; bi.spellcheck = false; bi.setAttribute("autocapitalize", "characters");
    const was = typed[p.entry];
    ci.value = was ? was[0] : startChips(p);
    bi.value = was ? was[1] : (p.bag || "");
    row.appendChild(who);
    row.appendChild(hint);
    row.appendChild(chips);
    row.appendChild(bag);
    rows.appendChild(row);
  });
  if (again && document.getElementById(again)) document.getElementById(again).focus();
  if (!answer.players.length) rows.appendChild(el("p", "muted", words.countNoPlayers));
  document.getElementById("bags-where").textContent = fmt(words.bagsWhere, {n: answer.table, day: answer.day});
  document.getElementById("bags-save").disabled = !answer.players.length;
}

// The dialogs' listeners; returns the table's dialog (`open` null: the role may not bag a table). `day` is the day's
// reads (static/js/map/day.js): a bag recorded reads it again.
export function setupBags(st, press, day) {
  const seatDialog = document.getElementById("seat-dialog");
  const bagsDialog = document.getElementById("bags-dialog");
  let bagsTable = null;
  function open(table, button) {
    api.press(button, function () { return api.get(at(st.urls.bags, table)); }, null).then(function (answer) {
      if (!answer || !answer.players) return;
      bagsTable = table;
      sayIn("bags-say", "", true);
      renderBags(answer, true);
      bagsDialog.showModal();
      const first = bagInputs().map(function (r) { return r.querySelector(".bag input"); }).filter(function (i) { return !i.value; })[0]
        || document.querySelector("#bags-rows input");
      if (first) first.focus();
    });
  }
  if (bagsDialog) {
    document.getElementById("bags-close").addEventListener("click", function () { bagsDialog.close(); });
    document.getElementById("bags-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      const body = [], table = bagsTable;
      let missing = null;
      bagInputs().forEach(function (r) {
        const chips = r.querySelector(".chips input"), bag = r.querySelector(".bag input");
        if (!missing && !chips.value.trim()) missing = [chips, words.bagMissingChips];
        else if (!missing && !bag.value.trim()) missing = [bag, words.bagMissingBag];
        body.push({seat: Number(r.dataset.seat), chips: whole(chips.value), bag: bag.value});
      });
      if (missing) {  // every seated player is bagged at once: the first gap is said and focused
        sayIn("bags-say", fmt(missing[1], {seat: missing[0].closest(".m-bag-row").dataset.seat}), false);
        missing[0].focus();
        return;
      }
      press(document.getElementById("bags-save"), at(st.urls.bags, table), {bags: body}, null).then(function (answer) {
        if (answer && answer.players) {  // closed first, so that #notice (no longer behind a modal) says it
          bagsDialog.close();
          api.say(DONE.bags(answer), true);
          day.soon();
          return;
        }
        api.get(at(st.urls.bags, table)).then(function (now) {
          if (bagsDialog.open && bagsTable === table && now && now.players) renderBags(now, false);
        }, function () { /* the refusal stays said */ });
      });
    });
  }

  // One seated player's bag, from his seat's dialog.
  const bagForm = document.getElementById("bag-form");
  if (bagForm) {
    document.getElementById("bag-ask").addEventListener("click", function (ev) {
      const who = st.chosen;
      api.press(ev.currentTarget, function () { return api.get(at(st.urls.bags, who.table)); }, null).then(function (answer) {
        if (!answer || !st.chosen || st.chosen.entry !== who.entry) return;
        const p = (answer.players || []).filter(function (x) { return x.entry === who.entry; })[0];
        if (!p) return;
        document.getElementById("bag-chips").value = startChips(p);
        document.getElementById("bag-number").value = p.bag || "";
        document.getElementById("bag-now").textContent = p.bag ? bagHint(p) : words.bagNot + " " + lastCount(p.last_count);
        sayIn("bag-say", "", true);
        document.getElementById("seat-main").hidden = true;
        bagForm.hidden = false;
        document.getElementById(p.bag || !startChips(p) ? "bag-chips" : "bag-number").focus();
      });
    });
    document.getElementById("bag-back").addEventListener("click", function () {
      bagForm.hidden = true;
      document.getElementById("seat-main").hidden = false;
      document.getElementById("bag-ask").focus();
    });
    bagForm.addEventListener("submit", function (ev) {
      ev.preventDefault();
      const who = st.chosen, chips = document.getElementById("bag-chips"), bag = document.getElementById("bag-number");
      if (!chips.value.trim() || !bag.value.trim()) {
        const gap = chips.value.trim() ? bag : chips;
        sayIn("bag-say", fmt(gap === bag ? words.bagMissingBag : words.bagMissingChips, {seat: who.seat}), false);
        gap.focus();
        return;
      }
      press(document.getElementById("bag-go"), at(st.urls.bag, who.entry), {chips: whole(chips.value), bag: bag.value}, null)
        .then(function (answer) {
          if (!answer || !answer.bag) return;  // refused: said in the dialog (below), what was typed kept
          seatDialog.close();
          api.say(DONE.bag(answer), true);
          day.soon();
        });
    });
  }
  // api.js says a refusal in #notice, behind the dialogs: the open one says it too.
  document.getElementById("notice").addEventListener("api:said", function (e) {
    if (bagsDialog && bagsDialog.open) sayIn("bags-say", e.detail.message, e.detail.ok);
    if (bagForm && !bagForm.hidden && seatDialog.open) sayIn("bag-say", e.detail.message, e.detail.ok);
  });
  return {open: bagsDialog ? open : null};
}
