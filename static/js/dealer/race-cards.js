/* The chip race's cards dealt at the table (#race-cards), on the dealer tablet: one slot per card the server says
 * each seat gets, filled from the rank and suit pad; a card already given is greyed out. The race's own state
 * (race.js's `counting`) holds them: counting.dealing = {seats: the counts sent, needed by seat, cards by seat, sel:
 * the slot selected, rank: its rank picked}.
 *
 *   RaceCards({counting, words, go(seats, cards, button), back()}) -> {render(race)}
 */
import * as Util from "../util.js";
import * as api from "../api.js";
import {SUITS} from "./race-sheet.js";

const $ = (id) => document.getElementById(id);
const fmt = Util.fmt, el = Util.el;
const bySeat = (a, b) => a - b;

export function RaceCards({counting, words, go, back}) {
  function slots() { return Array.from(document.querySelectorAll("#race-hands .r-slot")); }

  function render(r) {
    const d = counting.dealing, box = $("race-hands"), names = {};
    r.players.forEach((p) => { names[String(p.seat)] = p.name; });
    box.textContent = "";
    Object.keys(d.cards).sort(bySeat).forEach((seat) => {
      if (!d.cards[seat].length) return;
      const row = el("div", "r-row");
      row.dataset.seat = seat;
      row.appendChild(el("span", "r-seat", seat));
      row.appendChild(el("span", "r-name", names[seat] || ""));
      const hand = el("span", "r-hand");
      d.cards[seat].forEach((code, i) => {
        const b = el("button", "r-slot");
        b.type = "button";
        b.dataset.seat = seat;
        b.dataset.i = String(i);
        hand.appendChild(b);
      });
      row.appendChild(hand);
      box.appendChild(row);
    });
    if (!d.sel) nextSlot();
    paint();
  }

  function nextSlot() {
    const d = counting.dealing, empty = slots().find((b) => !d.cards[b.dataset.seat][b.dataset.i]);
    d.sel = empty ? {seat: empty.dataset.seat, i: empty.dataset.i} : null;
    d.rank = null;
  }

  // The cards given, but the one of the slot `except`.
  function used(except) {
    const d = counting.dealing, all = {};
    Object.keys(d.cards).forEach((seat) => {
      d.cards[seat].forEach((code, i) => {
        if (code && !(except && except.seat === seat && String(i) === except.i)) all[code] = true;
      });
    });
    return all;
  }

  function paint() {
    const d = counting.dealing, sel = d.sel, taken = used(sel);
    slots().forEach((b) => {
      const code = d.cards[b.dataset.seat][b.dataset.i], on = !!sel && sel.seat === b.dataset.seat && sel.i === b.dataset.i;
      const suit = code ? SUITS[code.slice(-1)] : null;
      b.textContent = code ? (code[0] === "T" ? "10" : code[0]) + suit[0] : (on && d.rank ? (d.rank === "T" ? "10" : d.rank) : "?");
      b.dataset.card = code || "";
      b.classList.toggle("filled", !!code);
      b.classList.toggle("red", !!suit && suit[1]);
      b.classList.toggle("selected", on);
      b.setAttribute("aria-pressed", on ? "true" : "false");
    });
    document.querySelectorAll("#race-hands .r-row").forEach((row) => {
      row.classList.toggle("current", !!sel && row.dataset.seat === sel.seat);
    });
    const of = sel ? d.cards[sel.seat].length : 0;
    $("race-card-target").textContent = sel ? fmt(words.raceCardTarget, {seat: sel.seat, n: Number(sel.i) + 1, of: of})
      : words.raceCardPick;
    document.querySelectorAll("#race-card-pad [data-rank]").forEach((b) => {
      const r = b.dataset.rank;
      b.disabled = !sel || ["s", "h", "d", "c"].every((x) => taken[r + x]);
      b.setAttribute("aria-pressed", d.rank === r ? "true" : "false");
    });
    document.querySelectorAll("#race-card-pad [data-suit]").forEach((b) => {
      b.disabled = !sel || !d.rank || !!taken[d.rank + b.dataset.suit];
    });
    $("race-card-clear").disabled = !sel;
  }

  $("race-hands").addEventListener("click", (e) => {
    const b = e.target.closest(".r-slot");
    if (!b) return;
    counting.dealing.sel = {seat: b.dataset.seat, i: b.dataset.i};
    counting.dealing.rank = null;
    paint();
  });
  $("race-card-pad").addEventListener("click", (e) => {
    const d = counting.dealing, b = e.target.closest("button");
    if (!d || !b || b.disabled || !d.sel) return;
    if (b.dataset.rank) { d.rank = b.dataset.rank; paint(); return; }
    if (b.dataset.suit && d.rank) {
      d.cards[d.sel.seat][d.sel.i] = d.rank + b.dataset.suit;
      nextSlot();
      paint();
      if (!d.sel) $("race-cards-go").scrollIntoView({block: "nearest"});
      return;
    }
    if (b.id === "race-card-clear") { d.cards[d.sel.seat][d.sel.i] = null; d.rank = null; paint(); }
  });
  $("race-cards-back").addEventListener("click", () => {
    counting.dealing = null;
    back();
  });
  $("race-cards-go").addEventListener("click", () => {
    const d = counting.dealing;
    if (!d) return;
    const missing = Object.keys(d.cards).sort(bySeat).find((seat) => d.cards[seat].some((code) => !code));
    if (missing) {
      nextSlot();
      paint();
      api.say(fmt(words.raceCardMissing, {seat: missing}), false);
      return;
    }
    go(d.seats, d.cards, $("race-cards-go"));
  });

  return {render};
}
