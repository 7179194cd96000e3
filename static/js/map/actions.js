/* A seated player's dialog (his seat pressed on a card): bust him (confirm first; in a bounty event name who won the
   pot, static/js/map/winners.js; the undo bar brings him back), correct his seat (an open seat in play no slip holds); his count, his bag and the clock called on him are the
   panels of static/js/map/counts.js, bags.js and clock-calls.js. And a table's button: the software's high-card
   draw, or the seat the dealer's draw gave. */
import {fmt, el, whole} from "../util.js";
import {words} from "./words.js";
import {DONE} from "./done.js";
import {at, reservedSeats} from "./state.js";
import {winnersText} from "./winners.js";

// The open seats in play a player may be moved to: none a pending slip holds.
function openSeats(st) {
  const list = [], reserved = reservedSeats(st);
  st.data.tables.forEach(function (t) {
    if (!t.in_play) return;
    t.seat_list.forEach(function (seat) {
      if (!seat.entry && !reserved[t.table + ":" + seat.seat]) list.push({table: t.table, seat: seat.seat});
    });
  });
  return list;
}

// The dialogs' listeners; returns what opens them. `counts.seatOpened` puts his last count in the dialog,
// `winners.seatOpened` his head (a bounty event); `toolsHeight()` makes room for the undo bar.
export function setupActions(st, press, counts, winners, toolsHeight) {
  const seatDialog = document.getElementById("seat-dialog"), bagForm = document.getElementById("bag-form");
  let lastBust = null;

  function openSeat(t, seat) {
    st.chosen = {table: t.table, seat: seat.seat, entry: seat.entry, name: seat.name};
    document.getElementById("seat-title").textContent = seat.name + " · #" + seat.entry;
    document.getElementById("seat-where").textContent = fmt(words.seat, {t: t.table, s: seat.seat});
    document.getElementById("seat-card-link").href = at(st.urls.card, seat.entry);
    const select = document.getElementById("correct-target");
    select.textContent = "";
    const targets = openSeats(st);
    targets.forEach(function (o) {
      const opt = el("option", "", fmt(words.seat, {t: o.table, s: o.seat}));
      opt.value = o.table + ":" + o.seat;
      select.appendChild(opt);
    });
    if (!targets.length) { const none = el("option", "", words.noOpen); none.value = ""; select.appendChild(none); }
    document.getElementById("correct-go").disabled = !targets.length;
    document.getElementById("seat-main").hidden = false;
    document.getElementById("bust-confirm").hidden = true;
    if (bagForm) bagForm.hidden = true;
    counts.seatOpened(t, seat);
    winners.seatOpened(seat);
    seatDialog.showModal();
  }
  document.getElementById("seat-close").addEventListener("click", function () { seatDialog.close(); });
  document.getElementById("bust-ask").addEventListener("click", function () {
    document.getElementById("bust-stack").value = "";
    document.getElementById("bust-question").textContent = fmt(words.confirmBust, {n: st.chosen.entry, name: st.chosen.name});
    document.getElementById("seat-main").hidden = true;
    document.getElementById("bust-confirm").hidden = false;
    winners.bustAsked(st.chosen);  // a bounty event: who won the pot ("Yes, bust" waits for one)
  });
  document.getElementById("bust-back").addEventListener("click", function () {
    document.getElementById("seat-main").hidden = false;
    document.getElementById("bust-confirm").hidden = true;
  });
  document.getElementById("bust-go").addEventListener("click", function (ev) {
    const who = st.chosen, stack = whole(document.getElementById("bust-stack").value), won = winners.bustWinners();
    if (!won) return;  // a bounty event's bust names its winner first (the button says why it waits)
    seatDialog.close();
    const body = Object.assign({stack: stack === "" ? null : stack}, won.body);
    press(ev.currentTarget, at(st.urls.bust, who.entry), body, DONE.bust).then(function (answer) {
      if (!answer) return;
      lastBust = who;
      document.getElementById("undo-text").textContent = won.winners.length
        ? fmt(words.undoWon, {n: who.entry, name: who.name, winners: winnersText(won.winners)})
        : fmt(words.undo, {n: who.entry, name: who.name});
      document.getElementById("undo-bar").hidden = false;
      winners.bustDone(who, won.winners);
      toolsHeight();
    });
  });
  document.getElementById("undo-bust").addEventListener("click", function (ev) {
    if (!lastBust) return;
    const who = lastBust;
    press(ev.currentTarget, at(st.urls.undo, who.entry), {}, DONE.undo).then(function (answer) {
      if (answer) { lastBust = null; winners.bustGone(); document.getElementById("undo-bar").hidden = true; toolsHeight(); }
    });
  });
  document.getElementById("correct-go").addEventListener("click", function (ev) {
    const target = document.getElementById("correct-target").value.split(":");
    if (target.length !== 2) return;
    const who = st.chosen;
    seatDialog.close();
    press(ev.currentTarget, at(st.urls.seat, who.entry), {table: whole(target[0]), seat: whole(target[1])}, DONE.correct);
  });

  const buttonDialog = document.getElementById("button-dialog");
  let buttonTable = null;
  function openButton(t) {
    buttonTable = t.table;
    document.getElementById("button-title").textContent = fmt(words.drawButton, {n: t.table});
    document.getElementById("button-seat").value = "";
    buttonDialog.showModal();
  }
  document.getElementById("button-draw").addEventListener("click", function (ev) {
    buttonDialog.close();
    press(ev.currentTarget, at(st.urls.button, buttonTable), {}, DONE.button);  // empty: the software's draw
  });
  document.getElementById("button-set").addEventListener("click", function (ev) {
    const seat = whole(document.getElementById("button-seat").value);
    buttonDialog.close();
    press(ev.currentTarget, at(st.urls.button, buttonTable), {seat: seat === "" ? null : seat}, DONE.button);
  });
  document.getElementById("button-close").addEventListener("click", function () { buttonDialog.close(); });

  return {openSeat: openSeat, openButton: openButton};
}
