/* What the floor map says once the API has done a press: each sentence built from the API's answer with the
   screen's words (static/js/map/words.js), shown in #notice by api.js. */
import {fmt} from "../util.js";
import * as Live from "../live.js";
import {words} from "./words.js";

const num = Live.number;

export const DONE = {
  bust: function (e) {
    const values = {number: e.number, name: e.player ? e.player.display_name : "", place: e.finish_place, low: e.finish_place_low};
    // A Day 1 flight's bust has no place (flights/reactions.py): places are paid from Day 2 only.
    if (e.finish_place === null || e.finish_place === undefined) return fmt(words.doneBustFlight, values);
    return fmt(e.finish_place_low ? words.doneBustTie : words.doneBust, values);
  },
  undo: function (e) { return fmt(words.doneUndo, {number: e.number}); },
  correct: function (a) { return fmt(words.doneCorrect, {number: a.entry, table: a.table, seat: a.seat}); },
  button: function (a) { return fmt(words.doneButton, {table: a.table, seat: a.button}); },
  positions: function (a) { return fmt(words.doneButton, {table: a.table, seat: a.positions.button}); },
  confirm: function (m) { return fmt(words.doneConfirm, {move: m.move, entry: m.entry, table: m.to.table, seat: m.to.seat}); },
  cancel: function (m) { return fmt(words.doneCancel, {move: m.move}); },
  balance: function (a) {
    // "Balance now" says what it waits for (buttons to enter, a notice) rather than "balanced".
    if (!a.moves.length) return a.message || words.doneBalanced;
    const made = fmt(words.doneSlips, {moves: a.moves.map(function (m) { return "#" + m.move; }).join(", ")});
    return a.message ? made + " " + a.message : made;
  },
  h4h: function (h) { return h.on ? words.doneH4hOn : words.doneH4hOff; },
  open: function (a) { return fmt(words.doneOpen, {number: a.table}); },
  draw: function (d) { return fmt(words.doneDraw, {draw: d.draw}); },
  waiting: function (d) { return fmt(words.doneWaiting, {draw: d.draw}); },
  count: function (a) { return fmt(words.doneCount, {entry: a.entry, chips: num(a.chips)}); },
  clockCall: function (c) { return fmt(words.doneClockCall, {table: c.table, seat: c.seat, name: c.name, seconds: c.seconds}); },
  clockEnd: function (c) {
    const said = {acted: words.doneClockActed, dead: words.doneClockDead}[c.outcome] || words.doneClockCancelled;
    return fmt(said, {table: c.table, seat: c.seat});
  },
  counts: function (a) { return fmt(words.counted(a.counted), {n: a.counted, total: num(a.total)}); },
  bags: function (a) { return fmt(words.bagged(a.bagged), {n: a.bagged, total: num(a.total)}); },
  bag: function (a) { return fmt(words.doneBag, {entry: a.entry, bag: a.bag, chips: num(a.chips)}); }
};
