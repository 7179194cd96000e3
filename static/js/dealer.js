/* The dealer tablet (templates/tables/dealer.html): Shuffle / new hand, Hand done, moves and penalties at the table,
 * the chip race, the table's stacks counted, its bags at the end of a day, the clock called on a player; its URLs in
 * the page's dealer-config block, its words (dealer/words.js) from Django's JavaScript catalogue. Its panels are the modules
 * of static/js/dealer/, wired here with what they share (the words, the URLs, the table's state, the reads):
 *   table.js        the table as the server said it and as the tablet shows it (the presses kept offline followed),
 *                   read from the API's state read (tables/<n>/state/) on the socket's word
 *   hand.js         the level this table plays, the hand, the positions, hand-for-hand (moves.js: the slips)
 *   race.js         the chip race of a color-up (race-cards.js: the cards dealt at the table; race-sheet.js: its sheet)
 *   counts.js       the table's stacks counted and its bags at the end of a day, on the number pad (numpad.js)
 *   clock-calls.js  the clock called on a player;  penalties.js: the players sitting out a penalty
 * The hand's own presses (Shuffle, Hand done, Undo) are here. */
import * as Util from "./util.js";
import * as api from "./api.js";
import * as Live from "./live.js";
import * as Clock from "./clock.js";
import {following, reading} from "./dealer/table.js";
import {renderHand} from "./dealer/hand.js";
import {RacePanel} from "./dealer/race.js";
import {StacksPanel, BagsPanel} from "./dealer/counts.js";
import {ClockCalls} from "./dealer/clock-calls.js";
import {BustReports} from "./dealer/busts.js";
import {renderPenalties} from "./dealer/penalties.js";
import {words} from "./dealer/words.js";

const $ = (id) => document.getElementById(id);
// Reads: the API's tables/<n>/state/ and the table's socket. Presses: the JSON API (/api/docs/), through api.js.
// A dealer link's tablet reads its own state (/api/dealer/<secret>/state/) and socket, and api.js sends its link with each press.
const urls = JSON.parse($("dealer-config").textContent);
const handUrl = urls.hand, handDoneUrl = urls.handDone;
const initial = JSON.parse($("clock-state").textContent);
// What the panels share: the table as the server last said (server) and as the tablet shows it (table: with its own
// presses still waiting on the device), the clock's row last drawn (a confirmed race leaves once its break is over),
// and whether play has stopped for the day (no new hand then).
const server = JSON.parse($("table-state").textContent);
const state = {server: server, table: server, clockRow: null, dayStopped: false};

// Time sync by HTTP ping; the table's socket only says when to fetch the state again.
const sync = Live.TimeSync((id) => {
  fetch(urls.state + "?ping=1", {cache: "no-store", credentials: "same-origin"})
    .then((r) => r.json())
    .then((d) => { sync.receive(id, d.server_time); })
    .catch(() => {});
});
sync.guess(initial.server_time);

const view = Clock.run({now: () => sync.now(), render: (st) => {
  Clock.fill(document, st, words);
  if (st.index !== state.clockRow) {  // a new row of the clock: a confirmed race leaves once its break is over
    state.clockRow = st.index;
    race.render(true);
  }
  renderHand(st, state, words);
}});
const {follow, followed} = following(state, urls, () => sync.now());
state.table = follow(state.server);
const reads = reading({state, urls, words, sync, view, follow, changed: () => {
  race.render();
  renderPenalties(state.table, words);
  calls.render();
}});
const poll = reads.poll;

// One press: the API call (api.press: the button busy meanwhile, one Idempotency-Key, the answer
// or the API's refusal shown in #dealer-feedback), then the state again from the API's state read. The big
// button stays locked a moment longer, against a double tap.
function press(button, lockMs, call, done) {
  if (button.disabled) return;
  api.press(button, call, done).then(() => {
    poll();
    if (lockMs) {
      button.disabled = true;
      setTimeout(() => { button.disabled = false; view.tick(); }, lockMs);
    } else {
      view.tick();
    }
  });
}
$("shuffle").addEventListener("click", () => {
  press($("shuffle"), 2000, followed((key) => api.post(handUrl, {}, {key: key})),
        (a) => Util.fmt(words.doneStart, {hand: a.hand}));
});
$("hand-done").addEventListener("click", () => {
  press($("hand-done"), 1000, followed((key) => api.post(handDoneUrl, {}, {key: key})),
        (h) => (h.on ? words.doneH4h : words.doneHand));
});
$("undo").addEventListener("click", () => {
  if (window.confirm(words.confirmUndo)) {
    press($("undo"), 0, followed((key) => api.del(handUrl, {key: key})), (a) => Util.fmt(words.doneUndo, {hand: a.hand}));
  }
});

const race = RacePanel({state, words, urls, poll});
StacksPanel({words, urls});
BagsPanel({words, urls, closed: () => view.tick()});  // the button stays only while the day is over
const calls = ClockCalls({state, words, urls, sync, poll});
BustReports({words, urls, bounty: !!urls.bounty, poll});

// api.js says every answer in #dealer-feedback, below the shuffle button: the race and the stacks repeat it by
// their buttons (hidden from screen readers, which hear it once).
$("dealer-feedback").addEventListener("api:said", (e) => {
  const pairs = [["race-say", "race"], ["stacks-say", "stacks"], ["bags-say", "bags"]];
  // The clock call repeats only its refusals by its buttons (its banner says the rest).
  if (calls.saying && !e.detail.ok) pairs.push(["call-say", "call"]); else $("call-say").hidden = true;
  pairs.forEach((pair) => {
    const say = $(pair[0]);
    say.textContent = e.detail.message || "";
    say.hidden = $(pair[1]).hidden || !e.detail.message;
    say.classList.toggle("success", e.detail.ok);
    say.classList.toggle("error", !e.detail.ok);
  });
});

view.set(initial);  // the first frame, once every panel is there
race.render();
renderPenalties(state.table, words);
calls.render();

Clock.keepAwake();
window.dealerPage = {view: view, sync: sync, poll: poll, socket: reads.socket};
