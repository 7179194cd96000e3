/* The floor map's shared state, owned by this module: made once by static/js/floor-map.js and passed to each
   panel's setup. What more than one panel reads or changes is here; a panel's own (its dialog's table, its
   timers) stays in its module.
     st.urls    the page's addresses (web/tables/views.py: "map-urls"), "999999" standing for a number
     st.data    the last map read (the API's map; first the page's own copy, "map-state")
     st.day     the day's state (GET day/), once read: how many of each table's players are bagged
     st.chosen  the seated player whose dialog is open: {table, seat, entry, name}
     st.conn    the floor socket (Live.connect): its time sync is the server's time */
export function createState() {
  return {
    urls: JSON.parse(document.getElementById("map-urls").textContent),
    data: JSON.parse(document.getElementById("map-state").textContent),
    day: null,
    chosen: null,
    conn: null
  };
}

// An address of st.urls for table, entry or slip `n`.
export function at(url, n) { return url.replace("999999", n); }

// The server's time in seconds (the floor socket's time sync): a clock call counts down against it.
export function now(st) { return st.conn && st.conn.sync ? st.conn.sync.now() : Date.now() / 1000; }

export function balancing(st) { return st.data.moves || {halted: [], need_button: [], moves: []}; }

// Open seats held by a pending slip: "table:seat" -> the arriving entry.
export function reservedSeats(st) {
  const out = {};
  balancing(st).moves.forEach(function (m) { out[m.to.table + ":" + m.to.seat] = m.entry; });
  return out;
}
