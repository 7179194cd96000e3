/* The map's top: the next draw's commitment (and its start on the folded summary), the players seated and
   waiting, the color-up's line; the draws (the start draw, "Seat waiting entries") and "Open a table". */
import {fmt, el, whole} from "../util.js";
import * as Live from "../live.js";
import {words} from "./words.js";
import {DONE} from "./done.js";

// The buttons' and the open dialog's listeners; returns the top's render.
export function setupDraws(st, press) {
  const start = document.getElementById("start-draw");
  if (start) start.addEventListener("click", function () { if (window.confirm(words.drawAsk)) press(start, st.urls.drawStart, {}, DONE.draw); });
  const waiting = document.getElementById("seat-waiting");
  waiting.addEventListener("click", function () { press(waiting, st.urls.seatWaiting, {}, DONE.waiting); });
  const openDialog = document.getElementById("open-dialog");
  if (openDialog) {
    document.getElementById("open-table-button").addEventListener("click", function () { openDialog.showModal(); });
    document.getElementById("open-close").addEventListener("click", function () { openDialog.close(); });
    document.getElementById("open-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      const form = ev.target, body = {number: whole(form.elements.number.value),
                                      sends_hand_signals: form.elements.sends_hand_signals.checked,
                                      accessible: form.elements.accessible.checked};
      if (form.elements.seats.value.trim()) body.seats = whole(form.elements.seats.value);
      openDialog.close();
      press(document.getElementById("open-go"), st.urls.openTable, body, DONE.open);
    });
  }

  function render() {
    const m = st.data, num = Live.number;
    document.getElementById("next-commitment").textContent = m.next_draw ? m.next_draw.commitment : "—";
    document.getElementById("next-draw-number").textContent = m.next_draw ? "#" + m.next_draw.draw : "";
    const short = document.getElementById("next-draw-short");  // on the folded summary: the number and the hash's start
    short.textContent = m.next_draw ? "#" + m.next_draw.draw + " " : "—";
    if (m.next_draw) short.appendChild(el("code", "", m.next_draw.commitment.slice(0, 8) + "…"));
    document.getElementById("count-seated").textContent = m.players_seated;
    document.getElementById("count-waiting").textContent = m.waiting;
    const colorUp = document.getElementById("map-colorup");
    colorUp.hidden = !m.color_up;
    if (m.color_up) {
      document.getElementById("map-colorup-text").textContent = fmt(words.colorup, {
        chips: m.color_up.leaving.map(num).join(", "), "new": num(m.color_up.new_chip), f: m.color_up.finished,
        n: m.color_up.total, d: Live.signed(m.color_up.difference)});
    }
    if (start) start.hidden = m.start_drawn;
    waiting.hidden = !(m.start_drawn && m.waiting > 0);
  }
  return {render: render};
}
