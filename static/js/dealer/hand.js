/* The dealer tablet's play (the top of templates/tables/dealer.html): the level this table plays (its hand's, which
 * may be older than the clock's: a new level applies from the table's next shuffle), the hand and its age, the
 * button and blinds, the table's notices (halted, breaking, the button seat wanted), its moves (moves.js) and
 * hand-for-hand; which of Shuffle, Hand done and Undo can be pressed. Drawn on every frame of the clock.
 *
 *   renderHand(st, state, words)   st: the clock's state (clock.js); state.table: the table as the tablet shows it
 */
import * as Util from "../util.js";
import * as Clock from "../clock.js";
import {renderSlips} from "./moves.js";

const $ = (id) => document.getElementById(id);
const fmt = Util.fmt;
let held = false;  // the shuffle button held here (hand-for-hand, the day over, the table breaking), not by a press

export function renderHand(st, state, words) {
  const table = state.table;
  const inPlay = table.hand_level_index !== null ? table.hand_level_index : st.levelIndex;
  const row = st.rows[inPlay];
  $("play-title").textContent = Clock.levelTitle(st.rows, inPlay, words);
  $("play-blinds").textContent = Clock.blinds(row);
  $("play-ante").textContent = Clock.ante(row, words);
  const old = inPlay !== st.levelIndex;
  const alert = $("new-level");
  alert.hidden = !old;
  if (old) {
    const next = st.rows[st.levelIndex];
    alert.textContent = fmt(words.announced, {level: Clock.levelTitle(st.rows, st.levelIndex, words) + " (" + Clock.blinds(next) + ")"});
  }
  $("table-level").classList.toggle("old-level", old);
  $("hand-number").textContent = table.hand ? table.hand : words.noHand;
  let age = "";
  if (table.hand_started_at) {
    const m = Math.floor((st.serverNow - table.hand_started_at) / 60);
    age = m < 1 ? words.justNow : fmt(words.ago, {m: m});
  }
  $("hand-age").textContent = table.hand ? "· " + age : "";
  $("undo").disabled = !table.hand;
  $("follows").hidden = table.sends_hand_signals;
  // Bag-and-tag: "Bag stacks" once the clock has stopped for the day (the day's last level over), and while
  // its panel is open.
  $("bags-open").hidden = !(st.dayEnded && !st.running) && $("bags").hidden;
  state.dayStopped = !!(st.dayEnded && !st.running);  // no new hand once play has stopped for the day (the server refuses it)
  renderTable(state, words);
}

function renderTable(state, words) {
  const table = state.table, p = table.positions || {};
  let line = "";
  if (p.button !== null && p.button !== undefined) {
    line = p.next || p.small_blind === null || p.big_blind === null ? fmt(words.positionsNext, {button: p.button})
      : fmt(words.positions, {button: p.button, sb: p.small_blind, bb: p.big_blind});
  }
  $("positions").textContent = line;
  $("positions").hidden = !line;
  $("halted").hidden = !table.halted;
  // A table that breaks (tables/selectors/screens.table_state): said in the server's words, and no new hand here.
  $("breaking").textContent = table.breaking || "";
  $("breaking").hidden = !table.breaking;
  $("needs-button").hidden = !table.needs_button;
  renderSlips(table, words);
  const h = table.h4h;
  $("h4h").hidden = !h;
  if (h) {
    $("h4h").className = "d-h4h " + h.step;
    $("h4h-text").textContent = fmt(words["h4h" + h.step.charAt(0).toUpperCase() + h.step.slice(1)], {n: h.hand});
    const others = (h.waiting_for || []).filter((n) => n !== table.number);
    $("h4h-waiting").textContent = h.step === "done" && others.length ? fmt(words.h4hWaiting, {tables: others.join(", ")}) : "";
  }
  $("hand-done").disabled = h ? h.step !== "playing" : !table.hand_in_progress;
  // In hand-for-hand the shuffle waits for the hand to be called (the server refuses it anyway).
  const hold = (!!h && h.step !== "deal") || state.dayStopped || !!table.breaking;
  if (hold) { $("shuffle").disabled = true; held = true; } else if (held) { $("shuffle").disabled = false; held = false; }
}
