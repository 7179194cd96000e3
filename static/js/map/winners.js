/* A bounty event on the map (docs/bounties.md). The bust names who won the pot: one large button per other player at
   the busted player's table (seat and name), pressed on and off, several for a split pot; "Yes, bust" waits for one
   and says why. The seat's dialog says the player's head (GET bounties/), read when it opens and again when the map
   is read while it is open. "Wrong winner?" on the undo bar names the winners again, with a reason (POST
   entries/<n>/eliminators/); a refusal is said in its dialog. The markup is the page's only in a bounty event
   (templates/tables/map.html), so an event without bounties keeps its bust as it was. */
import {fmt, el, money} from "../util.js";
import * as api from "../api.js";
import {words} from "./words.js";
import {at} from "./state.js";
import {sayIn} from "./dom.js";

// The players seated at table `number` in the map's last read, but entry `but`: [{seat, entry, name}].
function othersAt(st, number, but) {
  const t = st.data.tables.filter(function (x) { return x.table === number; })[0];
  return t ? t.seat_list.filter(function (s) { return s.entry && s.entry !== but; }) : [];
}

// "seat 3 (Jana Nováková), seat 7 (Petr Novák)": the winners as the floor reads them.
export function winnersText(winners) {
  return winners.map(function (w) { return fmt(words.winnerName, {seat: w.seat, name: w.name}); }).join(", ");
}

// The winner picker in `list` for `players`: a toggle button each (aria-pressed, a ✓ and the sentence `say` under
// them say which are on). `changed(chosen)` when drawn and after each press. Returns what is chosen, in the order pressed (the house's
// "first named" odd unit goes to the first).
function picker(list, say, players, table, changed) {
  const chosen = [];
  function tell() {
    if (!players.length) say.textContent = fmt(words.winnerNobody, {t: table});
    else if (!chosen.length) say.textContent = words.winnerNone;
    else say.textContent = fmt(chosen.length > 1 ? words.winnerSplit : words.winnerOne, {winners: winnersText(chosen)});
    changed(chosen);
  }
  list.textContent = "";
  players.forEach(function (p) {
    const b = el("button", "m-winner");
    b.type = "button";
    b.dataset.seat = p.seat;
    b.dataset.entry = p.entry;
    b.setAttribute("aria-pressed", "false");
    b.appendChild(el("span", "no", fmt(words.winnerSeat, {seat: p.seat})));
    b.appendChild(el("span", "who", p.name));
    b.addEventListener("click", function () {
      const i = chosen.indexOf(p);
      if (i < 0) chosen.push(p); else chosen.splice(i, 1);
      b.setAttribute("aria-pressed", String(i < 0));
      tell();
    });
    list.appendChild(b);
  });
  tell();
  return chosen;
}

// The bust's picker, the head in the seat's dialog and the correction's dialog. `bounty` false: an event without
// bounties (nothing of this is on the page).
export function setupWinners(st, press, toolsHeight) {
  const box = document.getElementById("bust-winners"), bustGo = document.getElementById("bust-go");
  const headLine = document.getElementById("seat-head");
  let chosen = null;

  // "Bust" pressed on `who`'s dialog: the other players of his table to choose from. Without bounties: nothing.
  function bustAsked(who) {
    if (!box) return;
    const list = document.getElementById("bust-winner-list");
    chosen = picker(list, document.getElementById("bust-winner-say"), othersAt(st, who.table, who.entry), who.table,
                    function (now) { bustGo.disabled = !now.length; });
  }
  // What the bust sends besides its stack, and who won (for the undo bar); null: none chosen, no bust.
  function bustWinners() {
    if (!box) return {body: {}, winners: []};
    if (!chosen || !chosen.length) return null;
    return {body: {eliminator_seats: chosen.map(function (p) { return p.seat; })}, winners: chosen.slice()};
  }

  // The head of entry `entry` in the seat's dialog, read now; `quiet`: the last shown stays until the answer.
  function showHead(entry, quiet) {
    if (!headLine) return;
    headLine.hidden = false;
    if (!quiet) headLine.textContent = words.headReading;
    api.get(st.urls.bounties).then(function (b) {
      if (!st.chosen || st.chosen.entry !== entry) return;
      const head = (b.heads || []).filter(function (h) { return h.entry === entry; })[0];
      const won = (b.won || []).filter(function (w) { return w.entry === entry; })[0];
      const currency = headLine.dataset.currency;
      let said = head ? fmt(words.head, {head: money(head.head, currency)}) : words.headNone;
      if (won && won.knockouts) said += " · " + fmt(words.knockouts(won.knockouts), {n: won.knockouts, won: money(won.won, currency)});
      if (headLine.textContent !== said) headLine.textContent = said;  // read again unchanged: nothing said again
    }, function () {
      if (st.chosen && st.chosen.entry === entry) headLine.textContent = words.headUnknown;
    });
  }
  function seatOpened(seat) { showHead(seat.entry, false); }
  // The map read again (an event: a bust, a correction): the open dialog's head read again too.
  function mapDrawn() {
    if (headLine && st.chosen && document.getElementById("seat-dialog").open) showHead(st.chosen.entry, true);
  }

  // "Wrong winner?": the winners of the last bust named again, among the players at its table now, with a reason.
  const dialog = document.getElementById("winner-dialog"), wrong = document.getElementById("wrong-winner");
  let busted = null, picked = null;
  function canCorrect(now) {
    picked = now || picked;
    const go = document.getElementById("winner-go"), reason = document.getElementById("winner-reason").value.trim();
    go.disabled = !picked.length || !reason;
    const say = document.getElementById("winner-pick-say");
    if (picked.length && !reason) say.textContent = words.reasonNone;
    else if (picked.length) say.textContent = fmt(picked.length > 1 ? words.winnerSplit : words.winnerOne, {winners: winnersText(picked)});
  }
  function bustDone(who, winners) {
    busted = box ? {entry: who.entry, name: who.name, table: who.table, winners: winners} : null;
    if (wrong) wrong.hidden = !busted;
  }
  function bustGone() {
    busted = null;
    if (wrong) wrong.hidden = true;
    if (dialog && dialog.open) dialog.close();
  }
  if (dialog) {
    wrong.addEventListener("click", function () {
      if (!busted) return;
      document.getElementById("winner-title").textContent = fmt(words.correctTitle, {n: busted.entry, name: busted.name});
      document.getElementById("winner-was").textContent = fmt(words.correctWas, {winners: winnersText(busted.winners), t: busted.table});
      document.getElementById("winner-reason").value = "";
      sayIn("winner-say", "", true);
      picked = picker(document.getElementById("winner-list"), document.getElementById("winner-pick-say"),
                      othersAt(st, busted.table, busted.entry), busted.table, canCorrect);
      dialog.showModal();
      const first = document.querySelector("#winner-list button");
      if (first) first.focus();
    });
    document.getElementById("winner-reason").addEventListener("input", function () { canCorrect(); });
    document.getElementById("winner-close").addEventListener("click", function () { dialog.close(); });
    // api.js says a refusal in #notice, behind the dialog: the dialog says it too.
    document.getElementById("notice").addEventListener("api:said", function (e) {
      if (dialog.open) sayIn("winner-say", e.detail.message, e.detail.ok);
    });
    document.getElementById("winner-form").addEventListener("submit", function (ev) {
      ev.preventDefault();
      const who = busted, winners = picked.slice(), reason = document.getElementById("winner-reason").value.trim();
      if (!who || !winners.length || !reason) { canCorrect(); return; }
      const body = {eliminators: winners.map(function (p) { return p.entry; }), reason: reason};
      press(document.getElementById("winner-go"), at(st.urls.eliminators, who.entry), body, null).then(function (answer) {
        if (!answer) { canCorrect(); return; }  // refused: said in the dialog, which stays open
        dialog.close();  // closed first, so that #notice (no longer behind a modal) says it
        who.winners = winners;
        document.getElementById("undo-text").textContent = fmt(words.undoWon, {n: who.entry, name: who.name, winners: winnersText(winners)});
        toolsHeight();
        api.say(fmt(words.doneWinners, {n: who.entry, name: who.name, winners: winnersText(winners)}), true);
      });
    });
  }

  return {bustAsked: bustAsked, bustWinners: bustWinners, bustDone: bustDone, bustGone: bustGone,
          seatOpened: seatOpened, mapDrawn: mapDrawn, bounty: !!box};
}
