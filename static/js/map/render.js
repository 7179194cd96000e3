/* A table's card on the map: its head (number, status, the badges: halted, still on the previous level, move
   slips, its hand-for-hand step, a clock call, bags), its chip race, the button balancing asks for, its seats (a
   seated player's seat opens his dialog) and its foot (count, button, break, the table's actions). A card is
   rebuilt only when its signature changes (static/js/map/grid.js). */
import {fmt, el, whole} from "../util.js";
import * as Live from "../live.js";
import {words} from "./words.js";
import {DONE} from "./done.js";
import {actionForm} from "./dom.js";
import {at} from "./state.js";
import {h4hStep} from "./hand-for-hand.js";
import {clockCallAt} from "./clock-calls.js";
import {baggedAt} from "./day.js";

// A player's name on a seat tile: it wraps between words and after a hyphen, never inside a word; a
// word wider than the tile ends in "…" (the tile's title and aria-label hold the whole name).
function nameOf(name) {
  const b = el("b", "name");
  String(name).split(/\s+/).filter(Boolean).forEach(function (word, i) {
    if (i) b.append(" ");
    word.split(/(?<=-)/).forEach(function (part) { b.appendChild(el("span", "w", part)); });
  });
  return b;
}

// What table `t`'s card shows, as one string: the same string, the same card. `f`: the facts of every table
// (static/js/map/grid.js).
export function signature(st, t, f) {
  const mine = [];
  Object.keys(f.reserved).forEach(function (k) { if (k.split(":")[0] === String(t.table)) mine.push(k + "=" + f.reserved[k]); });
  const call = clockCallAt(st, t.table);  // its countdown ticks in place (clock-calls.js): not part of the signature
  return JSON.stringify([t, !!f.halted[t.table], !!f.need[t.table], f.slips[t.table] || 0, mine, h4hStep(st, t.table),
                         call ? [call.call, call.seat, call.ends_at] : null, baggedAt(st, t)]);
}

function head(st, t, f, ui) {
  const h = el("div", "m-head");
  h.appendChild(el("h2", "", fmt(words.table, {n: t.table})));
  const key = t.status.charAt(0).toUpperCase() + t.status.slice(1);
  const status = el("span", "m-status", words["status" + key] || t.status);
  if (words["statusTitle" + key]) status.title = words["statusTitle" + key];
  h.appendChild(status);
  if (f.halted[t.table]) {
    const halt = el("span", "m-halt", words.halt);
    halt.title = words.haltTitle;
    h.appendChild(halt);
  }
  if (t.on_old_level) {
    const old = el("span", "m-badge old", fmt(words.oldLevel, {n: t.level}));
    old.title = words.oldLevelTitle;
    h.appendChild(old);
  }
  if (f.slips[t.table]) {
    const sl = el("span", "m-badge slips", fmt(words.slipsBadge, {n: f.slips[t.table]}));
    sl.title = words.slipsTitle;
    h.appendChild(sl);
  }
  const step = h4hStep(st, t.table);
  if (step) h.appendChild(el("span", "m-h4h " + step, words["h4h" + step.charAt(0).toUpperCase() + step.slice(1)]));
  const call = clockCallAt(st, t.table);
  if (call) h.appendChild(ui.clockBadge(call));
  const bagged = baggedAt(st, t);
  if (bagged !== null) {  // once bagging has started today: how many of the table's players are bagged
    const bg = el("span", "m-badge bags" + (bagged === t.players ? " done" : ""), fmt(words.bagBadge, {n: bagged, of: t.players}));
    bg.title = fmt(words.bagBadgeTitle, {day: st.day.day});
    h.appendChild(bg);
  }
  return h;
}

// Balancing asked for this (donor) table's button: say why, and take the seat of the button.
function needButton(st, t, ui) {
  const need = el("div", "m-need");
  need.appendChild(el("p", "why", fmt(words.needButtonWhy, {n: t.table})));
  const label = el("label", "", words.needButton);
  const seatInput = el("input");
  seatInput.type = "number"; seatInput.name = "seat"; seatInput.min = 1; seatInput.max = t.seats;
  seatInput.required = true; seatInput.inputMode = "numeric";
  seatInput.id = "need-button-" + t.table;
  label.htmlFor = seatInput.id;
  need.appendChild(label);
  need.appendChild(actionForm(words.setButton, "primary", [seatInput], null, function (b, form) {
    ui.press(b, at(st.urls.positions, t.table), {button: whole(form.querySelector("input").value)}, DONE.positions);
  }));
  return need;
}

function seatTile(t, seat, f, ui) {
  const holder = seat.entry ? undefined : f.reserved[t.table + ":" + seat.seat];
  const b = el("button", "m-seat" + (seat.entry ? "" : " empty") + (holder ? " reserved" : ""));
  b.type = "button";
  b.dataset.seat = seat.seat;
  const button = t.button === seat.seat;
  if (seat.entry) {
    b.dataset.entry = seat.entry;
    b.title = fmt(words.seatLabel, {t: t.table, s: seat.seat, name: seat.name, n: seat.entry}) + (button ? " · " + words.buttonChip : "");
    b.setAttribute("aria-label", b.title);
  }
  // The button chip sits under the seat number, not beside the name: the name keeps the tile's width.
  const no = el("span", "no", String(seat.seat));
  if (button) {
    const chip = el("span", "dealer-btn", "D");
    chip.title = words.buttonChip;
    no.appendChild(chip);
  }
  b.appendChild(no);
  const who = el("span", "who");
  if (seat.entry) { who.appendChild(nameOf(seat.name)); who.appendChild(el("small", "", "#" + seat.entry)); }
  else who.appendChild(el("small", "", holder ? fmt(words.reserved, {n: holder}) : words.empty));
  b.appendChild(who);
  if (seat.entry) b.addEventListener("click", function () { ui.openSeat(t, seat); });
  else b.disabled = true;
  return b;
}

// A button of the card's foot that opens a dialog of the table.
function tableButton(cls, label, title, open) {
  const b = el("button", cls, label);
  b.type = "button";
  b.title = title;
  b.addEventListener("click", function () { open(b); });
  return b;
}

function foot(st, t, ui) {
  const ft = el("div", "m-foot"), step = h4hStep(st, t.table);
  ft.appendChild(el("span", "count", fmt(words.players, {n: t.players, s: t.seats})));
  ft.appendChild(el("span", "", "·"));
  ft.appendChild(el("span", "", t.button ? fmt(words.button, {s: t.button}) : words.noButton));
  if (t.break_position) ft.appendChild(el("span", "", "· " + fmt(words["break"], {n: t.break_position})));
  if (t.accessible) ft.appendChild(el("span", "badge", words.accessible));
  if (step === "deal" || step === "playing") {
    ft.appendChild(actionForm(words.handDone, "hand-done", [], null, function (b) {
      ui.press(b, at(st.urls.handDone, t.table), {}, function () { return fmt(words.doneHand, {table: t.table}); });
    }));
  }
  if (!t.in_play || !t.players) return ft;
  ft.appendChild(tableButton("button-draw", t.button ? words.changeButtonLabel : words.drawButtonLabel,
                             fmt(words.drawButton, {n: t.table}), function () { ui.openButton(t); }));
  if (ui.openCounts) {
    ft.appendChild(tableButton("count-stacks", words.countStacks, fmt(words.table, {n: t.table}),
                               function (b) { ui.openCounts(t.table, b); }));
  }
  if (ui.openBags) {
    ft.appendChild(tableButton("bag-stacks", words.bagStacks, fmt(words.table, {n: t.table}),
                               function (b) { ui.openBags(t.table, b); }));
  }
  return ft;
}

// Table `t`'s card. `ui`: {press, openSeat, openButton, openCounts, openBags (null: not for this role), clockBadge}.
export function card(st, t, f, ui) {
  const c = el("article", "m-table " + t.status);
  c.dataset.table = t.table;
  c.id = "table-" + t.table;
  if (f.halted[t.table]) c.classList.add("halted");
  c.appendChild(head(st, t, f, ui));
  if (t.race) {  // the color-up's chip race at this table: its tablet has the counts and the sheet
    const race = el("a", "m-race " + t.race.status, t.race.status === "waiting" ? words.raceWaiting
      : fmt(t.race.status === "confirmed" ? words.raceConfirmed : words.raceRecorded, {d: Live.signed(t.race.difference)}));
    race.href = at(st.urls.dealer, t.table);
    race.title = words.raceTitle;
    c.appendChild(race);
  }
  if (f.need[t.table]) c.appendChild(needButton(st, t, ui));
  const seats = el("div", "m-seats");
  t.seat_list.forEach(function (seat) { seats.appendChild(seatTile(t, seat, f, ui)); });
  c.appendChild(seats);
  c.appendChild(foot(st, t, ui));
  return c;
}
