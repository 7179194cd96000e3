/* The day's state for bag-and-tag at the end of a day (days/services/bags.py; GET day/: the players still in with no
   bag, by table): a card shows "6/9 bagged" once the day's first bag is in. It is read again when a table's bags
   are recorded (the socket's bags.recorded) or a day closes, and with the map while bagging goes on. */
import * as api from "../api.js";

export function baggingStarted(st) { return !!st.day && st.day.status === "playing" && st.day.bagged > 0; }

// How many of table `t`'s players are bagged today, or null (no bag yet today, the table not in play or empty).
export function baggedAt(st, t) {
  if (!baggingStarted(st) || !t.in_play || !t.players) return null;
  const missing = (st.day.missing_tables || []).filter(function (m) { return m.table === t.table; })[0];
  return Math.max(0, t.players - (missing ? missing.seats.length : 0));
}

// The day's reads: `fetch()` now, `soon()` debounced; `redrawGrid()` draws the cards with it.
export function createDay(st, redrawGrid) {
  let timer = null, loading = false;
  function fetchDay() {
    if (!st.urls.day || loading) return;
    loading = true;
    api.get(st.urls.day).then(function (d) { st.day = d; redrawGrid(); }, function () { /* the floor's map without it */ })
      .then(function () { loading = false; });
  }
  function soon() { clearTimeout(timer); timer = setTimeout(fetchDay, 250); }
  return {fetch: fetchDay, soon: soon};
}
