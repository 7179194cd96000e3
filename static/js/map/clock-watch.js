/* The clock's level, watched: a level ended by the clock's own time sends no event, yet the tables that have not
   shuffled since then play the level before ("still level N", which a fresh read says): the map reads again
   (`soon()`) when the clock's row changes. The clock's state comes with the socket's snapshot and events. */
import * as Clock from "../clock.js";
import {now} from "./state.js";

export function createClockWatch(st, soon) {
  let clock = null, rowTimer = null;
  function watch(incoming) {
    clock = Clock.merge(clock, incoming);
    clearTimeout(rowTimer);
    const time = now(st), at = clock && Clock.state(clock, time);
    if (!at || !at.running || at.endsAt === null || at.finished) return;
    rowTimer = setTimeout(function () { soon(); watch(null); }, Math.max(0, at.endsAt - time) * 1000 + 500);
  }
  return watch;
}
