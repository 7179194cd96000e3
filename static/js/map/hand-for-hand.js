/* Hand-for-hand: the panel (the director starts and ends it) and each table's step in the hand (its card's
   "deal", "playing", "done" and "Hand done" button: static/js/map/render.js). */
import {fmt} from "../util.js";
import {words} from "./words.js";
import {DONE} from "./done.js";

// Table `table`'s step in the hand called: "deal", "playing", "done", or null (no hand called there).
export function h4hStep(st, table) {
  const h = st.data.h4h;
  if (!h || !h.on || !h.called || h.tables.indexOf(table) < 0) return null;
  if (h.reported.indexOf(table) >= 0) return "done";
  return h.shuffled.indexOf(table) >= 0 ? "playing" : "deal";
}

// The panel's listeners; returns its render.
export function setupHandForHand(st, press) {
  const panel = document.getElementById("h4h-panel"), toggle = document.getElementById("h4h-toggle");
  if (toggle) toggle.addEventListener("click", function () {
    const on = toggle.dataset.on !== "0";
    if (window.confirm(on ? words.h4hAskStart : words.h4hAskStop)) press(toggle, st.urls.handForHand, {on: on}, DONE.h4h);
  });

  function render() {
    const h = st.data.h4h || {};
    panel.hidden = !(h.on || h.suggested || toggle);
    panel.classList.toggle("on", !!h.on);
    let line = words.h4hOff;
    if (h.on) line = h.called ? fmt(words.h4hCalled, {n: h.hand}) : (h.hand ? fmt(words.h4hBetween, {n: h.hand}) : words.h4hFirst);
    document.getElementById("h4h-state").textContent = line;
    const suggest = document.getElementById("h4h-suggest");
    suggest.hidden = !h.suggested;
    suggest.textContent = h.suggested ? fmt(words.h4hSuggest, {n: h.players, paid: h.places_paid}) : "";
    const detail = [];
    if (h.on && h.called && h.waiting_for.length) detail.push(fmt(words.h4hWaiting, {tables: h.waiting_for.join(", ")}));
    if (h.on && !h.called && h.busy && h.busy.length) detail.push(fmt(words.h4hBusy, {tables: h.busy.join(", ")}));
    if (h.on) detail.push(h.seconds_per_hand ? fmt(words.h4hTime, {s: h.seconds_per_hand}) : words.h4hPause);
    document.getElementById("h4h-detail").textContent = detail.join(" · ");
    if (toggle) {
      toggle.textContent = h.on ? words.h4hStop : words.h4hStart;
      toggle.dataset.on = h.on ? "0" : "1";
    }
  }
  return {render: render};
}
