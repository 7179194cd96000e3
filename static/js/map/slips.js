/* The move slips: the panel's list (confirm a player seated, cancel a slip), "Balance now", and a slip shown the
   moment its event arrives (the event carries it; the refetch that follows brings the seats and the counts). */
import {fmt, el} from "../util.js";
import * as Live from "../live.js";
import {words} from "./words.js";
import {DONE} from "./done.js";
import {actionForm} from "./dom.js";
import {at, balancing} from "./state.js";

// The panel's listeners; returns its render and what a socket event of the slips changes.
export function setupSlips(st, press) {
  const balance = document.getElementById("balance-now");
  balance.addEventListener("click", function () { press(balance, st.urls.balance, {}, DONE.balance); });

  function render() {
    const list = document.getElementById("move-list"), slips = balancing(st).moves;
    list.textContent = "";
    slips.forEach(function (m) {
      const li = el("li");
      li.dataset.move = m.move;
      const text = el("span", "slip", fmt(words.slip, {m: m.move, name: m.name, e: m.entry, ft: m.from.table, fs: m.from.seat,
                                                       tt: m.to.table, ts: m.to.seat}) + Live.slipPosition(m.position));
      if (m.after_hand) text.append(" · ", el("span", "after", words.afterHand));
      li.appendChild(text);
      const acts = el("span", "acts");
      acts.appendChild(actionForm(words.confirmMove, "primary confirm-move", [], null, function (b) {
        press(b, at(st.urls.confirmMove, m.move), {}, DONE.confirm);
      }));
      acts.append(" ");
      acts.appendChild(actionForm(words.cancelMove, "cancel-move", [], fmt(words.askCancel, {m: m.move}), function (b) {
        press(b, at(st.urls.cancelMove, m.move), {}, DONE.cancel);
      }));
      li.appendChild(acts);
      list.appendChild(li);
    });
    document.getElementById("no-moves").hidden = slips.length > 0;
    // Why balancing moves nobody although it should (no legal move, a draw refused, an error): from the server.
    const notice = document.getElementById("balance-notice"), why = balancing(st).notice;
    notice.textContent = why ? why.message || "" : "";
    notice.hidden = !why;
  }

  function fromEvent(event) {
    if (!st.data.moves) st.data.moves = {halted: [], need_button: [], moves: []};
    const list = st.data.moves.moves, p = event.payload || {};
    const known = {};
    list.forEach(function (x) { known[x.move] = true; });
    if (event.type === "move.created") {
      (p.moves || []).forEach(function (x) { if (!known[x.move] && x.status === "pending") list.push(x); });
    } else if ((event.type === "move.done" || event.type === "move.cancelled") && p.move) {
      st.data.moves.moves = list.filter(function (x) { return x.move !== p.move.move; });
    } else {
      return;
    }
    render();
  }
  return {render: render, fromEvent: fromEvent};
}
