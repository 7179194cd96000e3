/* The chip race of a color-up on the dealer tablet (#race; table.race, tables/selectors/screens.table_race). The leaving
 * chips are counted at each seat on the page's own number pad (numpad.js; no on-screen keyboard), kept here across
 * refetches of the state, and sent in one press: the server deals the cards (or takes the cards dealt at the table,
 * race-cards.js) and answers with the sheet (race-sheet.js), which the table checks and confirms.
 *
 *   RacePanel({state, words, urls, poll}) -> {render(force)}   state.table.race is the race; state.clockRow the clock's row
 */
import * as Util from "../util.js";
import * as api from "../api.js";
import * as Live from "../live.js";
import {NumberPad} from "./numpad.js";
import {RaceCards} from "./race-cards.js";
import {renderSheet} from "./race-sheet.js";

const $ = (id) => document.getElementById(id);
const fmt = Util.fmt, el = Util.el, num = Live.number, signed = Live.signed;
const MAX_COUNT = 10000;

export function RacePanel({state, words, urls, poll}) {
  // counts: by seat, by chip value, as typed; only: the seats whose player has no other chips.
  // mode: "seed" (the software deals) or "hand" (cards dealt at the table, entered on the card pad);
  // dealing: while the cards are entered, {counts sent, needed by seat, cards by seat, sel, rank} (race-cards.js).
  // open: the id of the confirmed sheet shown again ("show sheet"); folded otherwise.
  const counting = {counts: {}, only: {}, redo: null, shown: "", mode: "seed", dealing: null, open: null};
  const chipName = (v) => fmt(words.raceChip, {value: num(v)});
  function chipList(values) {
    const names = values.map(chipName);
    return names.length < 2 ? names.join("")
      : fmt(words.raceAnd, {list: names.slice(0, -1).join(", "), last: names[names.length - 1]});
  }

  const pad = NumberPad({
    box: $("race"), rows: $("race-rows"), pad: $("race-pad"), target: $("race-target"), max: MAX_COUNT,
    open: () => !$("race").hidden && !$("race-count").hidden,
    read: (f) => {
      const v = (counting.counts[f.dataset.seat] || {})[f.dataset.value];
      return v === undefined ? "" : String(v);
    },
    write: (f, v) => {
      const counts = counting.counts[f.dataset.seat];
      if (v === "") delete counts[f.dataset.value]; else counts[f.dataset.value] = v;
    },
    targetText: (f) => fmt(words.raceTarget, {seat: f.dataset.seat, chip: chipName(f.dataset.value)}),
    pick: words.racePick,
    painted: () => {
      document.querySelectorAll("#race-rows .r-only").forEach((b) => {
        b.setAttribute("aria-pressed", counting.only[b.dataset.only] ? "true" : "false");
      });
    },
    end: () => { $("race-go").scrollIntoView({block: "nearest"}); }
  });
  const cards = RaceCards({counting, words, go: raceWith, back: () => render(true)});

  // A confirmed race is over once the clock has left its break (race.break_index, the clock's row of the
  // break): the tablet drops it then, without waiting for its next read of the state.
  function over(r) {
    return r.status === "confirmed" && r.break_index !== null && r.break_index !== undefined
      && state.clockRow !== null && state.clockRow > r.break_index;
  }

  function render(force) {
    const r = state.table.race, show = !!(r && r.active) && !over(r);
    $("race").hidden = !show;
    if (!show) { counting.shown = ""; return; }
    const key = JSON.stringify(r);
    if (key === counting.shown && !force) return;
    counting.shown = key;
    const sheet = r.sheet;
    if (counting.redo !== null && (!sheet || sheet.id !== counting.redo || r.status !== "recorded")) counting.redo = null;
    const mode = r.status === "waiting" || !sheet || counting.redo !== null ? (counting.dealing ? "cards" : "count") : "sheet";
    if (mode === "sheet") counting.dealing = null;
    $("race-title").textContent = fmt(words.raceBanner, {chips: chipList(r.color_up.leaving)});
    $("race-new").textContent = fmt(words.raceNew, {chip: num(r.color_up.new_chip)});
    const step = mode === "cards" ? "Cards" : r.status === "waiting" && counting.mode === "hand" ? "Hand" : r.status;
    $("race-step").textContent = words["raceStep" + step.charAt(0).toUpperCase() + step.slice(1)] || "";
    // Confirmed: one line, "Race confirmed · show sheet"; the sheet (and its banner) only when asked for.
    const done = mode === "sheet" && r.status === "confirmed", open = done && counting.open === sheet.id;
    $("race-done").hidden = !done;
    $("race-show").textContent = (open ? words.raceHideSheet : words.raceShowSheet);
    $("race-show").setAttribute("aria-expanded", String(open));
    $("race-banner").hidden = done && !open;
    $("race-count").hidden = mode !== "count";
    $("race-sheet").hidden = mode !== "sheet" || (done && !open);
    $("race-cards").hidden = mode !== "cards";
    if (mode === "count") renderCount(r); else if (mode === "cards") cards.render(r); else renderSheet(sheet, words, urls.draws);
  }

  function renderCount(r) {
    const leaving = r.color_up.leaving, box = $("race-rows");
    box.textContent = "";
    r.players.forEach((p) => {
      const seat = String(p.seat);
      counting.counts[seat] = counting.counts[seat] || {};
      const row = el("div", "r-row");
      row.dataset.seat = seat;
      row.appendChild(el("span", "r-seat", seat));
      row.appendChild(el("span", "r-name", p.name));
      const group = el("span", "r-fields");
      leaving.forEach((v) => {
        const f = el("button", "r-field");
        f.type = "button";
        Object.assign(f.dataset, {seat: seat, value: String(v), field: seat + "/" + v});
        f.appendChild(el("small", null, chipName(v)));
        f.appendChild(el("b"));
        group.appendChild(f);
      });
      row.appendChild(group);
      const only = el("button", "r-only", words.raceOnlyLabel);
      only.type = "button";
      only.dataset.only = seat;
      row.appendChild(only);
      box.appendChild(row);
    });
    if (!r.players.length) box.appendChild(el("p", "r-help", words.raceNoPlayers));
    $("race-go").disabled = !r.players.length;
    paintMode();
    if (!pad.field(pad.sel)) {
      const all = pad.fields();
      pad.select(all.find((f) => counting.counts[f.dataset.seat][f.dataset.value] === undefined) || all[0]);
    }
    pad.paint();
  }
  $("race-rows").addEventListener("click", (e) => {
    const only = e.target.closest(".r-only");
    if (only) { counting.only[only.dataset.only] = !counting.only[only.dataset.only]; pad.paint(); }
  });

  // The counts as the API takes them, and the first one missing ({seat, value}) or null.
  function body() {
    const r = state.table.race, seats = {};
    let missing = null;
    r.players.forEach((p) => {
      const seat = String(p.seat), chips = {};
      r.color_up.leaving.forEach((v) => {
        const c = (counting.counts[seat] || {})[String(v)];
        if (c === undefined || c === "") { missing = missing || {seat: seat, value: String(v)}; return; }
        chips[String(v)] = Number(c);
      });
      seats[seat] = {chips: chips, other: counting.only[seat] ? 0 : null};
    });
    return {seats: seats, missing: missing};
  }
  // A press of the race: its answer is the race, shown at once; then the state again.
  function press(button, call, done) {
    if (button.disabled) return;
    api.press(button, call, done).then((answer) => {
      if (answer && answer.color_up) { state.table.race = answer; render(true); }
      poll();
    });
  }
  $("race-go").addEventListener("click", () => {
    const counted = body();
    if (counted.missing) {
      pad.select(pad.field(counted.missing.seat + "/" + counted.missing.value));
      pad.paint(true);
      api.say(fmt(words.raceMissing, {seat: counted.missing.seat, chip: chipName(counted.missing.value)}), false);
      return;
    }
    if (counting.mode === "hand") {
      // The table deals: ask how many cards each seat gets for these counts, then enter them.
      // It records nothing and the tablet needs its answer now: never kept offline (press-queue.js).
      api.press($("race-go"), (k) => api.post(urls.raceCards, {seats: counted.seats}, {key: k, queue: false}), null)
        .then((answer) => {
          if (!answer || !answer.cards) return;
          if (!answer.total) { api.say(words.raceNoCards, true); raceWith(counted.seats, {}, $("race-go")); return; }
          const dealt = {};
          Object.keys(answer.cards).forEach((seat) => { dealt[seat] = new Array(answer.cards[seat]).fill(null); });
          counting.dealing = {seats: counted.seats, needed: answer.cards, cards: dealt, sel: null, rank: null};
          render(true);
          $("race").scrollIntoView({block: "start"});
        });
      return;
    }
    raceWith(counted.seats, null, $("race-go"));
  });
  function raceWith(seats, dealt, button) {
    const payload = dealt ? {seats: seats, cards: dealt} : {seats: seats};
    press(button, (k) => api.post(urls.race, payload, {key: k}), () => {
      counting.redo = null;
      counting.dealing = null;
      return words.raceRecorded;
    });
  }

  function paintMode() {
    document.querySelectorAll("#race-modes .r-mode").forEach((b) => {
      b.setAttribute("aria-pressed", b.dataset.mode === counting.mode ? "true" : "false");
    });
    const hand = counting.mode === "hand";
    $("race-go").textContent = hand ? words.raceEnterCards + " ›" : words.raceRace;
    $("race-mode-help").textContent = hand ? words.raceHandHelp : words.raceSeedHelp;
    const r = state.table.race;
    if (r && r.status === "waiting") $("race-step").textContent = hand ? words.raceStepHand : words.raceStepWaiting;
  }
  $("race-modes").addEventListener("click", (e) => {
    const b = e.target.closest(".r-mode");
    if (b) { counting.mode = b.dataset.mode; paintMode(); }
  });

  $("race-redo").addEventListener("click", () => {
    const r = state.table.race, sheet = r && r.sheet;
    if (!sheet) return;
    counting.redo = sheet.id;
    counting.dealing = null;
    counting.mode = sheet.cards_entered ? "hand" : "seed";
    counting.counts = {};
    counting.only = {};
    sheet.seats.forEach((s) => {
      const seat = String(s.seat);
      counting.counts[seat] = {};
      s.leaving.forEach((pair) => { counting.counts[seat][String(pair[0])] = String(pair[1]); });
      counting.only[seat] = s.other_value === 0;
    });
    pad.sel = null;
    render(true);
    pad.select(pad.fields()[0]);
    pad.paint();
    $("race").scrollIntoView({block: "start"});
  });
  $("race-confirm").addEventListener("click", () => {
    const sheet = state.table.race && state.table.race.sheet;
    if (!sheet || !window.confirm(fmt(words.raceConfirmAsk, {difference: signed(sheet.difference)}))) return;
    press($("race-confirm"), (k) => api.post(urls.raceConfirm, {}, {key: k}), words.raceConfirmed);
  });
  $("race-print").addEventListener("click", () => { window.print(); });
  $("race-show").addEventListener("click", () => {
    const sheet = state.table.race && state.table.race.sheet;
    counting.open = sheet && counting.open !== sheet.id ? sheet.id : null;
    render(true);
  });

  return {render};
}
