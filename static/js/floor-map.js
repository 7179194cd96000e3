/* The floor's table map: every table as a card with its seats. Live over the floor socket: an event that touches
   seats (or a gap, a reconnect) refetches the map, debounced. Every action goes through the documented JSON API
   with the shared client (static/js/api.js: one Idempotency-Key per press, the button busy meanwhile, a refusal's
   translated detail shown in #notice); the message of a done action is built from the API's answer with the words
   of Django's JavaScript catalogue. The map then refetches the API's map (/api/tournaments/<id>/map/).
   At festival scale (1,112 tables) the page shows one section of tables at a time (50 tables; every table up to
   60), narrowed by the filters; a player search and "go to table" switch to the right section.
   bench/floor_map_render.py times it in a browser.
   This module wires the panels of static/js/map/ (one module each), which share one state (map/state.js):
     words.js        the screen's words          refresh.js   the map read again; the presses
     grid.js         sections, filters           render.js    a table's card and its seats
     search.js       a player, a table found     actions.js   the seat's dialog: bust, undo, correct; the button
     winners.js      a bounty event: who won the pot, the player's head, "Wrong winner?"
     slips.js        move slips, balancing       hand-for-hand.js, clock-calls.js, counts.js, bags.js, day.js,
     draws.js        the top: draws, open table  clock-watch.js, done.js (what a done press says), dom.js */
import * as Live from "./live.js";
import * as FlightEnding from "./flight-ending.js";
import {createState} from "./map/state.js";
import {createRefresh} from "./map/refresh.js";
import {createGrid} from "./map/grid.js";
import {setupSearch} from "./map/search.js";
import {setupActions} from "./map/actions.js";
import {setupWinners} from "./map/winners.js";
import {setupReports} from "./map/reports.js";
import {setupSlips} from "./map/slips.js";
import {setupHandForHand} from "./map/hand-for-hand.js";
import {setupClockCalls} from "./map/clock-calls.js";
import {setupCounts} from "./map/counts.js";
import {baggingStarted, createDay} from "./map/day.js";
import {setupBags} from "./map/bags.js";
import {setupDraws} from "./map/draws.js";
import {createClockWatch} from "./map/clock-watch.js";

// Reads: the API's map (/api/tournaments/<id>/map/) and the floor socket. Changes: the JSON API (/api/docs/), through api.js.
const st = createState();
const refresh = createRefresh(st, function () { render(); if (baggingStarted(st)) day.fetch(); });
const press = refresh.press;
const redrawGrid = function () { grid.render(); };
const day = createDay(st, redrawGrid);
const slips = setupSlips(st, press);
const handForHand = setupHandForHand(st, press);
const clockCalls = setupClockCalls(st, press, redrawGrid);
const counts = setupCounts(st, press);
const bags = setupBags(st, press, day);
const draws = setupDraws(st, press);
const winners = setupWinners(st, press, function () { grid.toolsHeight(); });
const reports = setupReports(st, press);
const actions = setupActions(st, press, counts, winners, function () { grid.toolsHeight(); });
const grid = createGrid(st, {press: press, openSeat: actions.openSeat, openButton: actions.openButton,
                             openCounts: counts.open, openBags: bags.open, clockBadge: clockCalls.badge});
setupSearch(st, grid);

function render() {
  slips.render();
  handForHand.render();
  draws.render();
  grid.render();
  clockCalls.render();  // a call ended elsewhere closes its dialog
  winners.mapDrawn();  // a bounty event: the open seat dialog's head read again
}

const ending = FlightEnding.watch();  // a Day 1 flight's "this flight ends" line (static/js/flight-ending.js)
const watchClock = createClockWatch(st, refresh.soon);

// clock.: a level changed by the director leaves the tables that have not shuffled since on the old level ("still
// level N"), which the map's read says.
const TOUCHES = /^(seating\.|seat\.|seat_request\.|entry\.|table\.|tables\.|draw\.|move|break|balance|h4h\.|house_rules\.|colorup\.|race\.|clock_call\.|clock\.)/;
st.conn = Live.connect({
  path: st.urls.socket, badge: "#live", sync: true,
  onSnapshot: function (m) { refresh.soon(); day.soon(); ending.snapshot(); watchClock(m.clock); },  // first connect, reconnect or a gap: the map may be stale
  onEvent: function (m) {
    if (m.event.payload && m.event.payload.clock) watchClock(m.event.payload.clock);
    ending.event(m.event.type);
    if (/^(bags|day)\./.test(m.event.type)) day.soon();  // a table's bags, a day closed: the cards' "bagged"
    if (/^(bust\.|entry\.)/.test(m.event.type)) reports.fetch();  // a dealer's bust report, or its player out otherwise
    if (!TOUCHES.test(m.event.type)) return;
    slips.fromEvent(m.event);
    refresh.soon();
  }
});
render();
day.fetch();
grid.toolsHeight();
setInterval(clockCalls.tick, 250);
if (window.performance && performance.mark) performance.mark("floor-map:first-render");
window.floorMap = {refetch: refresh.refetch, conn: st.conn, fetchDay: day.fetch, get state() { return st.data; }, get day() { return st.day; }};
